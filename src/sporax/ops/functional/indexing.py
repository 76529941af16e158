"""Array ops driven by index or mask tensors: gather, where, masked_fill, one_hot (the scatters: ``scatters``).

Index tensors may be traced; only the ops whose output shape depends on values (``nonzero``,
``argwhere``, ``masked_select``, ``unique``) need concrete inputs: they are ``eager`` op-table entries, and under
a trace they raise the error that makes the compiled caller run eagerly (``face_inputs.concrete``).

Out-of-range gather indices raise MindSpore's CPU RuntimeError when they are concrete (PyNative);
under a trace they give zeros (MindSpore's GPU behaviour; a device-side bounds error would need a
host sync).

Example:
    >>> from sporax import ops, Tensor, int32
    >>> ops.gather(Tensor([[1, 2, 3]]), Tensor([2, 0], int32), 1).asnumpy().tolist()
    [[3, 1]]
"""
import builtins

import jax
import jax.numpy as jnp
import numpy as np

from sporax.core import dtype as mstype
from sporax.core import jax_private
from sporax.core.tensor import Tensor
from sporax.ops._dispatch import array_of, describe, numeric_array_of, shape_error
from sporax.ops.functional._args import axis_index, check_output_size, kernel, static_int
from sporax.ops.face_inputs import concrete
from sporax.ops.op_table import ANY, NUMBER, PROMOTED, Sample, op, spelling
from sporax.ops.samples import values as _sample_values


def _host_array(op_name, arg_name, value):
    """The NumPy value of a Tensor argument read on the host (``concrete``: under a trace, the error that makes
    the compiled caller run eagerly)."""
    return concrete(op_name, arg_name, array_of(op_name, arg_name, value))


def int_array(values):
    return np.asarray(values, np.int32)


def sample_case(*arrays, **settings):
    """One sample: a float array is ``(shape, seed)`` (drawn in the sample's dtype); anything else
    (indices, masks, numbers) is used as it is."""
    return arrays, settings


def sample_maker(*cases):
    """A sample maker of ``sample_case``s."""
    def make(dtype):
        return [Sample(tuple(_sample_values(item[0], dtype, seed=item[1]) if isinstance(item, tuple) else item
                             for item in arrays), dict(settings)) for arrays, settings in cases]
    return make


# --- gather -----------------------------------------------------------------------------------
# Index arrays up to this many elements are read to the host whole (one transfer, ~5 us for 8 indices); larger
# ones are reduced on the device by one compiled program (~20 us), where two eager reductions cost ~120 us.
_HOST_BOUNDS_SIZE = 1 << 16


@jax.jit
def _device_bounds(indices):
    return jnp.stack([jnp.min(indices), jnp.max(indices)])


def _index_bounds(indices):
    """``(min, max)`` of a concrete, non-empty index array, as Python ints (one host read)."""
    if indices.size > _HOST_BOUNDS_SIZE:
        bounds = _device_bounds(indices)
        # Under an active jit trace (a graph constant) the program is staged, not run: read on the host then
        if not isinstance(bounds, jax.core.Tracer):
            low, high = np.asarray(bounds)
            return int(low), int(high)
    values = np.asarray(indices)
    return int(values.min()), int(values.max())


def check_gather_indices(input_params, input_indices, axis, batch_dims=0):
    """MindSpore's CPU kernel rejects indices outside [-size, size); concrete ones are checked here (under an
    eager ``vmap`` too: the whole batch of indices is still known)."""
    if isinstance(input_indices, jax.core.Tracer):
        input_indices = jax_private.batched_values(input_indices)
    if input_indices is None or not input_indices.size:
        return
    size = input_params.shape[axis_index("gather", "axis", axis, input_params.ndim)]
    low, high = _index_bounds(input_indices)
    if low < -size or high >= size:
        raise RuntimeError(f"For 'Gather', the 'input_indices' should be in the range [0, {size}), but got "
                           f"{high if high >= size else low + size}.")  # MindSpore reports a wrapped negative


def _numpy_gather(input_params, input_indices, axis, batch_dims=0):
    if batch_dims:
        return np.stack([_numpy_gather(params, index, axis - 1, batch_dims - 1)
                         for params, index in zip(input_params, input_indices)])
    return np.take(input_params, input_indices, axis)


@op(inputs=("input_params", "input_indices"), indices="input_indices", dtypes=ANY, primitive="Gather",
    primitive_attrs=("batch_dims",), value_check=check_gather_indices, reference=_numpy_gather,
    samples=sample_maker(sample_case(((3, 4), 0), int_array([[0, 2], [1, 0]]), axis=1),
                     sample_case(((5,), 1), int_array([4, 0, 3]), axis=0),
                     sample_case(((2, 3, 4), 2), int_array([[0, 2], [1, 1]]), axis=1, batch_dims=1)))
def gather(input_params, input_indices, axis, batch_dims=0):
    """Take slices of ``input_params`` along ``axis`` at ``input_indices`` (zeros when out of range)."""
    axis = axis_index("gather", "axis", axis, input_params.ndim)
    batch_dims = static_int("gather", "batch_dims", batch_dims)
    if batch_dims < 0:
        batch_dims += input_indices.ndim
    if not 0 <= batch_dims <= min(axis, input_indices.ndim):
        raise ValueError(f"For 'gather', 'batch_dims' ({batch_dims}) must be in [0, min(axis, "
                         f"indices rank)] = [0, {min(axis, input_indices.ndim)}].")

    def take(values, index, along):
        return jnp.take(values, index, along, mode="fill", fill_value=0)

    for _ in range(batch_dims):
        take = jax.vmap(take, in_axes=(0, 0, None))
    return take(input_params, input_indices, axis - batch_dims)


def _take_elements(op_name, input, dim, index):
    dim = axis_index(op_name, "dim", dim, input.ndim)
    if index.ndim != input.ndim:
        raise ValueError(f"For '{op_name}', 'index' must have the rank of the input ({input.ndim}), "
                         f"but got shape {index.shape}.")
    limits = tuple(input.shape[a] if a == dim else index.shape[a] for a in range(input.ndim))
    if limits != input.shape:
        input = jax.lax.slice(input, (0,) * input.ndim, limits)
    return jnp.take_along_axis(input, index, dim, mode="fill", fill_value=0)


def _numpy_take_elements(input, dim, index):
    limits = tuple(slice(None) if a == dim % input.ndim else slice(0, index.shape[a]) for a in range(input.ndim))
    return np.take_along_axis(input[limits], index, dim)


_ELEMENT_SAMPLES = sample_maker(sample_case(((3, 4), 0), int_array([[0, 3, 1], [2, 2, 0]]), dim=1),
                            sample_case(((3, 4), 1), int_array([[2, 0, 1, 1], [0, 1, 2, 0]]), dim=0))


@op(mint=spelling("gather", "input, dim, index"),
    inputs=("input", "index"), indices="index", dtypes=ANY, method="gather_elements", samples=_ELEMENT_SAMPLES,
    reference=lambda input, index, dim: _numpy_take_elements(input, dim, index))
def gather_elements(input, dim, index):
    """``output[i][j] = input[i][index[i][j]]`` along ``dim`` (``index`` may be smaller elsewhere)."""
    return _take_elements("gather_elements", input, dim, index)


@op(inputs=("x", "index"), indices="index", dtypes=ANY, primitive="GatherD",
    samples=_ELEMENT_SAMPLES, reference=lambda x, index, dim: _numpy_take_elements(x, dim, index))
def gather_d(x, dim, index):
    """Alias of ``gather_elements``; ``dim`` may also be a one-element Tensor (``Tensor([1])``), as GatherD's."""
    if isinstance(dim, tuple) and len(dim) == 1:  # a 1-d Tensor setting is read as a tuple
        dim = dim[0]
    return _take_elements("gather_d", x, dim, index)


def _numpy_gather_nd(input_x, indices):
    return input_x[tuple(np.moveaxis(indices, -1, 0))]


@op(inputs=("input_x", "indices"), indices="indices", dtypes=ANY, primitive="GatherNd", method="gather_nd",
    reference=_numpy_gather_nd,
    samples=sample_maker(sample_case(((3, 4), 0), int_array([[0, 3], [2, 1], [1, 1]])),
                     sample_case(((3, 4, 2), 1), int_array([[2], [0]]))))
def gather_nd(input_x, indices):
    """Gather slices of ``input_x`` at the index tuples in the last axis of ``indices``."""
    depth = indices.shape[-1] if indices.ndim else 0
    if indices.ndim == 0 or depth > input_x.ndim:
        raise ValueError(f"For 'gather_nd', the last dimension of 'indices' ({depth}) must be at "
                         f"most the rank of 'input_x' ({input_x.ndim}).")
    return input_x.at[tuple(jnp.moveaxis(indices, -1, 0))].get(mode="fill", fill_value=0)


@op(mint=spelling("index_select", "input, dim, index", axis="dim"),
    inputs=("input", "index"), indices="index", dtypes=ANY,
    reference=lambda input, index, axis: np.take(input, np.reshape(index, -1), axis),
    samples=sample_maker(sample_case(((3, 4), 0), int_array([3, 0, 0]), axis=1),
                     sample_case(((3, 4), 1), int_array(2), axis=0)))
def index_select(input, axis, index):
    """Select entries of ``input`` along ``axis`` at the 1-d ``index``."""
    if index.ndim > 1:
        raise ValueError(f"For 'index_select', 'index' must be 0-d or 1-d, but got shape {index.shape}.")
    return jnp.take(input, index.reshape(-1), axis_index("index_select", "axis", axis, input.ndim),
                    mode="fill", fill_value=0)


# --- selection by condition -------------------------------------------------------------------
def _where_samples(dtype):
    # a Python number last: the gradient check takes the first two samples
    condition = np.arange(12).reshape(3, 4) % 3 == 0
    return [Sample((condition, _sample_values((3, 4), dtype), _sample_values((4,), dtype, seed=1))),
            Sample((np.array([True, False]), _sample_values((2, 1), dtype, seed=2), _sample_values((), dtype))),
            Sample((np.array([True, False]), _sample_values((2, 1), dtype, seed=3), 2.5))]


# ``input`` and ``other`` (Tensors or numbers) promoted together, as a binary op's operands; the condition is
# read as it is (a non-Bool one is taken as its truth values, where MindSpore 2.10 refuses it).
@op(inputs=("condition", "input", "other"), input_dtypes={"condition": ANY}, dtypes=PROMOTED, primitive="Select",
    aliases=("select",), mint="where", inline=True, samples=_where_samples,
    reference=lambda condition, input, other: np.where(condition, input, other))
def where(condition, input, other):
    """Elements of ``input`` where ``condition`` is True, else of ``other`` (broadcast)."""
    try:
        return jnp.where(condition.astype(np.bool_), input, other)
    except (ValueError, TypeError) as error:
        raise shape_error("where", error, condition, input, other) from None


select = where


def _numpy_masked_fill(input_x, mask, value):
    return np.where(mask, np.asarray(value, np.asarray(input_x).dtype), input_x)


@op(inputs=("input_x", "mask", "value"), masks="mask", scalars="value", dtypes=ANY, primitive="MaskedFill",
    method="masked_fill", reference=_numpy_masked_fill,
    samples=sample_maker(sample_case(((3, 4), 0), np.arange(12).reshape(3, 4) % 3 == 0, ((), 1)),
                     sample_case(((2, 3), 2), np.array([True, False, True]), ((), 3)),
                     sample_case(((3, 4), 4), np.arange(4) < 2, 2.5)))
def masked_fill(input_x, mask, value):
    """Fill the elements of ``input_x`` where ``mask`` is True with ``value`` (keeps the dtype)."""
    if jnp.ndim(value):
        raise ValueError(f"For 'masked_fill', 'value' must be a 0-d Tensor or a number, but got shape "
                         f"{jnp.shape(value)}.")
    try:
        return jnp.where(mask, jnp.asarray(value).astype(input_x.dtype), input_x)
    except (ValueError, TypeError) as error:
        raise shape_error("masked_fill", error, mask, input_x) from None


# --- value-dependent output shapes: ``eager`` entries (read on the host; a compiled caller runs eagerly) ---------
def _with_zeros(dtype, shape=(3, 4), seed=0):
    """Sample values with about a third of them zero."""
    array = _sample_values(shape, dtype, seed=seed)
    array.flat[::3] = 0
    return array


def _numpy_masked_select(input, mask):
    input, mask = np.broadcast_arrays(input, mask)
    return input[mask.astype(bool)]


@op(inputs=("input", "mask"), dtypes=ANY, primitive="MaskedSelect", method="masked_select", mint="masked_select",
    eager=True, grad_check=False, reference=_numpy_masked_select,
    samples=lambda dtype: [Sample((_sample_values((3, 4), dtype), np.arange(12).reshape(3, 4) % 5 < 2)),
                           Sample((_sample_values((2, 3), dtype, seed=1), np.array([True, False, True])))])
def masked_select(input, mask):
    """The 1-d tensor of the elements of ``input`` where ``mask`` (broadcast) is True."""
    # Only the mask decides the shape: the input stays an array of the trace, so the gradient flows to it.
    keep = concrete("masked_select", "mask", mask).astype(bool)
    shape = np.broadcast_shapes(jnp.shape(input), keep.shape)
    # flat positions in row-major order: the same elements, and a 0-d pair gives a 1-d result as MindSpore's
    return jnp.broadcast_to(jnp.asarray(input), shape).reshape(-1)[np.flatnonzero(np.broadcast_to(keep, shape))]


def _numpy_nonzero(input, as_tuple=False):
    coordinates = np.argwhere(input)
    return tuple(coordinates.T) if as_tuple else coordinates


@op(dtypes=ANY, primitive="NonZero", method="nonzero", mint="nonzero", eager=True, grad_check=False,
    reference=_numpy_nonzero,
    samples=lambda dtype: [Sample((_with_zeros(dtype),)), Sample((_with_zeros(dtype, (5,), 1),), {"as_tuple": True})])
def nonzero(input, *, as_tuple=False):
    """The Int64 coordinates of the non-zero elements (``(n, rank)``, or a tuple of 1-d tensors)."""
    coords = np.nonzero(concrete("nonzero", "input", input))
    if as_tuple:
        return tuple(jnp.asarray(c, np.int64) for c in coords)
    return jnp.asarray(np.stack(coords, -1).astype(np.int64))


@op(dtypes=ANY, method="argwhere", eager=True, grad_check=False, reference=np.argwhere,
    samples=lambda dtype: [Sample((_with_zeros(dtype, (2, 3, 2)),))])
def argwhere(input):
    """The Int64 coordinates ``(n, rank)`` of the non-zero elements."""
    coords = np.nonzero(concrete("argwhere", "input", input))
    return jnp.asarray(np.stack(coords, -1).astype(np.int64))


def _numpy_unique_ext(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """Distinct elements (``dim`` None) or slices along ``dim``, by Python's sorting of their value tuples."""
    shape = np.shape(input)
    slices = np.reshape(input, (-1, 1)) if dim is None else np.reshape(np.moveaxis(input, dim, 0), (shape[dim], -1))
    keys = [tuple(row) for row in slices.tolist()]
    distinct = builtins.sorted(set(keys))  # the parameter ``sorted`` hides the builtin
    position = {key: number for number, key in enumerate(distinct)}
    inverse = np.array([position[key] for key in keys], np.int64)
    counts = np.array([keys.count(key) for key in distinct], np.int64)
    if dim is None:
        values, inverse = np.array([key[0] for key in distinct], np.asarray(input).dtype), inverse.reshape(shape)
    else:
        rest = tuple(size for axis, size in enumerate(shape) if axis != dim % len(shape))
        values = np.moveaxis(np.array(distinct, np.asarray(input).dtype).reshape((len(distinct),) + rest), 0, dim)
    extra = ([inverse] if return_inverse else []) + ([counts] if return_counts else [])
    return tuple([values] + extra) if extra else values


def _unique_ext_samples(dtype):
    kind = _sample_values((), dtype).dtype
    return [Sample((np.array([3, 1, 3, 2, 1], kind),), {"return_inverse": True, "return_counts": True}),
            Sample((np.array([[1, 0, 1], [2, 2, 2], [1, 0, 1]], kind),), {"dim": 0, "return_inverse": True}),
            Sample((np.array([[0.5, -1], [-1, 0.5]], kind),))]


@op(mint=spelling("unique", "input, sorted=True, return_inverse=False, return_counts=False, dim=None"),
    dtypes=ANY, eager=True, grad_check=False, reference=_numpy_unique_ext, samples=_unique_ext_samples)
def unique_ext(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """The sorted distinct elements of ``input`` (slices along ``dim`` when given), with each element's Int64
    index into them and their Int64 counts when asked (``mint.unique``)."""
    values = concrete("unique", "input", input)
    axis = None if dim is None else axis_index("unique", "dim", dim, values.ndim)
    uniques, inverse, counts = np.unique(values, return_inverse=True, return_counts=True, axis=axis)
    result = [jnp.asarray(uniques)]
    if return_inverse:
        result.append(jnp.asarray(inverse.reshape(values.shape if axis is None else (-1,)).astype(np.int64)))
    if return_counts:
        result.append(jnp.asarray(counts.astype(np.int64)))
    return result[0] if len(result) == 1 else tuple(result)


def _numpy_unique(input):
    seen = {}
    for value in np.reshape(input, -1).tolist():
        seen.setdefault(value, len(seen))
    inverse = np.array([seen[value] for value in np.reshape(input, -1).tolist()]).reshape(np.shape(input))
    return np.array(list(seen), np.asarray(input).dtype), inverse


@op(dtypes=ANY, primitive="Unique", eager=True, grad_check=False, reference=_numpy_unique,
    samples=lambda dtype: [Sample((np.array([3, 1, 3, 2, 1], dtype=_sample_values((), dtype).dtype),)),
                           Sample((np.array([[0.5, -1], [-1, 0.5]], dtype=_sample_values((), dtype).dtype),))])
def unique(input):
    """The unique elements in order of first appearance, and each element's index into them."""
    values = concrete("unique", "input", input)
    uniques, first, inverse = np.unique(values.reshape(-1), return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank_of = np.empty_like(order)
    rank_of[order] = np.arange(order.size)
    index_dtype = np.int64 if values.dtype == np.int64 else np.int32
    return (jnp.asarray(uniques[order]), jnp.asarray(rank_of[inverse].reshape(values.shape).astype(index_dtype)))


def _hot_value(op_name, arg_name, value):
    """The array of ``one_hot``'s ``on_value``/``off_value``: a number Tensor, or a Python int (Int64) or float
    (Float32), as MindSpore makes a Tensor of it; Bool is refused."""
    if isinstance(value, bool) or isinstance(value, Tensor) and value.dtype == mstype.bool_:
        raise TypeError(f"For '{op_name}', '{arg_name}' must be a number Tensor or a Python int or float, but got "
                        f"{describe(value)}; pass 1 and 0 instead of True and False.")
    if isinstance(value, int):
        return jnp.asarray(value, np.int64)
    if isinstance(value, float):
        return jnp.asarray(value, np.float32)
    return numeric_array_of(op_name, arg_name, value)


# MindSpore 2.10's OneHot (recorded): Int32/Int64 indices; on/off values of Float16, Float32, Int32 or Int64
_HOT_INDEX_DTYPES = (np.dtype(np.int32), np.dtype(np.int64))
_HOT_VALUE_DTYPES = (np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.int32), np.dtype(np.int64))


def _check_hot_dtypes(indices, on_value, off_value):
    if indices.dtype not in _HOT_INDEX_DTYPES:
        raise TypeError(f"For 'one_hot', 'indices' must be an Int32 or Int64 Tensor, but got a Tensor of "
                        f"{mstype.from_numpy_dtype(indices.dtype)}; cast it first, e.g. indices.astype(mindspore.int32).")
    for name, value in (("on_value", on_value), ("off_value", off_value)):
        if value.dtype not in _HOT_VALUE_DTYPES:
            raise TypeError(f"For 'one_hot', '{name}' must be a Float16, Float32, Int32 or Int64 Tensor, but got a "
                            f"Tensor of {mstype.from_numpy_dtype(value.dtype)}.")


def _one_hot_reference(indices, on_value, off_value, depth, axis=-1):
    hot = np.asarray(indices)[..., None] == np.arange(depth)
    return np.moveaxis(np.where(hot, on_value, off_value), -1, axis)


def _one_hot_samples(dtype):
    value = _sample_values((), dtype).dtype
    return [Sample((np.array([0, 2, 5, -1], np.int32), np.array(1.5, value), np.array(-0.5, value)), {"depth": 3}),
            Sample((np.array([[1, 0], [2, 1]], np.int64), np.array(2.0, value), np.array(0.25, value)),
                   {"depth": 3, "axis": 0})]


# inline: a compiled train step's loss keeps its one call of the compiled body ``_one_hot`` (the suite's programs
# are the same as before the entry).
@op(inputs=("indices", "on_value", "off_value"), dtypes=NUMBER, indices="indices",
    input_dtypes={"on_value": _hot_value, "off_value": _hot_value}, primitive="OneHot", primitive_attrs=("axis",),
    inline=True, grad_check=False, samples=_one_hot_samples, reference=_one_hot_reference)
def one_hot(indices, depth, on_value=1, off_value=0, axis=-1):
    """One-hot vectors of length ``depth`` along ``axis`` (indices out of range: all ``off_value``); ``on_value``
    and ``off_value`` must have one dtype, the output's.

    Example:
        >>> from sporax import Tensor, int32, ops
        >>> ops.one_hot(Tensor([0, 2], int32), 3).asnumpy().tolist()
        [[1, 0, 0], [0, 0, 1]]
    """
    depth = static_int("one_hot", "depth", depth)
    if depth < 0:
        raise ValueError(f"For 'one_hot', 'depth' must be non-negative, but got {depth}.")
    _check_hot_dtypes(indices, on_value, off_value)
    if on_value.dtype != off_value.dtype:
        raise TypeError(f"For 'one_hot', 'on_value' and 'off_value' must have the same dtype, but got "
                        f"{mstype.from_numpy_dtype(on_value.dtype)} and {mstype.from_numpy_dtype(off_value.dtype)}; cast one of "
                        "them, e.g. ops.cast(on_value, off_value.dtype).")
    if isinstance(axis, (int, np.integer)) and not -1 <= axis <= indices.ndim:
        # MindSpore's OneHot counts a negative axis only as -1 (the new last axis)
        raise ValueError(f"For 'one_hot', 'axis' must be in [-1, {indices.ndim}], but got {axis}.")
    axis = axis_index("one_hot", "axis", axis, indices.ndim + 1)
    check_output_size("one_hot", "depth", indices.shape + (depth,), on_value.dtype)
    return _one_hot(indices, on_value, off_value, depth, axis)


@kernel("depth", "axis")
def _one_hot(index, on, off, depth, axis):
    hot = jnp.expand_dims(index, axis) == jnp.arange(depth, dtype=index.dtype).reshape(
        (depth,) + (1,) * (index.ndim - axis))
    # MindSpore's OneHot gives on_value and off_value no gradient (zeros), only a result to select from
    return jnp.where(hot, jax.lax.stop_gradient(on), jax.lax.stop_gradient(off))


def _unravel_dims(dims):
    shape = np.asarray(dims)
    if shape.ndim != 1 or (shape <= 0).any():
        raise ValueError(f"For 'UnravelIndex', 'dims' must be a 1-D Tensor of positive ints, but got {shape}.")
    return tuple(int(dim) for dim in shape)


def _check_unravel(indices, dims):
    size = int(np.prod(_unravel_dims(dims)))
    if not isinstance(indices, jax.core.Tracer) and bool(((indices < 0) | (indices >= size)).any()):
        raise ValueError(f"For 'UnravelIndex', 'indices' must lie in [0, {size}), but got {np.asarray(indices)}.")


@op(inputs="indices", dtypes=ANY, indices="indices", value_check=_check_unravel, grad_check=False,
    samples=lambda dtype: [Sample((np.array([5, 7], np.int32),), {"dims": (3, 4)}),
                           Sample((np.array(11, np.int64),), {"dims": (2, 2, 3)})],
    reference=lambda indices, dims: np.stack(np.unravel_index(indices, tuple(dims))).astype(np.asarray(indices).dtype))
def unravel_index(indices, dims):
    """``UnravelIndex``: the coordinates of the flat ``indices`` (0-D or 1-D) in an array of shape ``dims``, stacked
    first: (len(dims), N), or (len(dims),) for a 0-D ``indices``; ``indices``' dtype."""
    return jnp.stack(jnp.unravel_index(indices, _unravel_dims(dims))).astype(indices.dtype)


def _ragged_range_reference(starts, limits, deltas, splits_dtype="int64"):
    rows = np.broadcast_arrays(*(np.atleast_1d(value) for value in (starts, limits, deltas)))
    pieces = [list(range(int(start), int(limit), int(delta))) for start, limit, delta in zip(*rows)]
    splits = np.cumsum([0] + [len(piece) for piece in pieces]).astype(splits_dtype)
    return splits, np.array(sum(pieces, []), np.asarray(starts).dtype)


# The output length is read from the values on the host: an ``eager`` entry, as MindSpore's CPU kernel.
@op(inputs=("starts", "limits", "deltas"), dtypes=ANY, indices=("starts", "limits", "deltas"), eager=True,
    grad_check=False, reference=_ragged_range_reference,
    samples=lambda dtype: [Sample((np.array([2, 5, 8], np.int32), np.array([3, 5, 12], np.int32),
                                   np.array([1, 1, 2], np.int32)), {"splits_dtype": "int32"}),
                           Sample((np.array(0, np.int64), np.array([4, 1], np.int64), np.array(2, np.int64)))])
def ragged_range(starts, limits, deltas, splits_dtype="int64"):
    """``RaggedRange``: ``(nested_splits, dense_values)`` of the ranges ``range(starts[i], limits[i], deltas[i])``
    (0-D or 1-D inputs, broadcast): the values concatenated, and where each range starts (``splits_dtype``)."""
    arrays = [np.asarray(value) for value in (starts, limits, deltas)]
    if (arrays[2] == 0).any():
        raise ValueError("For 'RaggedRange', 'deltas' must not contain 0.")
    rows = np.broadcast_arrays(*(np.atleast_1d(value) for value in arrays))
    pieces = [np.arange(start, limit, delta, dtype=arrays[0].dtype) for start, limit, delta in zip(*rows)]
    splits = np.concatenate([[0], np.cumsum([len(piece) for piece in pieces])]).astype(splits_dtype)
    values = np.concatenate(pieces) if pieces else np.zeros((0,), arrays[0].dtype)
    return jnp.asarray(splits), jnp.asarray(values.astype(arrays[0].dtype))


def _list_diff_reference(x, y, out_idx="int32"):
    kept = [place for place, value in enumerate(np.asarray(x).tolist()) if value not in np.asarray(y).tolist()]
    return np.asarray(x)[kept], np.array(kept, out_idx)


# The output length depends on the values: an ``eager`` entry, read on the host.
@op(inputs=("x", "y"), dtypes=ANY, eager=True, grad_check=False, reference=_list_diff_reference,
    samples=lambda dtype: [Sample((np.array([1, 2, 3, 4, 2, 6], np.int32), np.array([2, 4], np.int32))),
                           Sample((_sample_values((5,), dtype), _sample_values((2,), dtype)), {"out_idx": "int64"})])
def list_diff(x, y, out_idx="int32"):
    """``ListDiff``: the values of the 1-D ``x`` not in the 1-D ``y`` (in ``x``'s order, repeats kept) and their
    positions (``out_idx``): ``(out, idx)`` with ``out == x[idx]``."""
    if x.ndim != 1 or y.ndim != 1:
        raise ValueError(f"For 'ListDiff', 'x' and 'y' must be 1-D, but got shapes {x.shape} and {y.shape}.")
    if x.dtype != y.dtype:
        raise TypeError(f"For 'ListDiff', 'x' and 'y' must have the same dtype, but got {x.dtype} and {y.dtype}.")
    values = np.asarray(x)
    keep = ~np.isin(values, np.asarray(y))
    return jnp.asarray(values[keep]), jnp.asarray(np.nonzero(keep)[0].astype(out_idx))
