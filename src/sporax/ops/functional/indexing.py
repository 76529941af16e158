"""Array ops driven by index or mask tensors: gather, scatter, where, masked_fill, one_hot.

Index tensors may be traced; only the ops whose output shape depends on values (``nonzero``,
``masked_select``, ``unique``) need concrete inputs, and they say so under a trace.

Out-of-range gather indices raise MindSpore's CPU RuntimeError when they are concrete (PyNative);
under a trace they give zeros (MindSpore's GPU behaviour; a device-side bounds error would need a
host sync). Out-of-range scatter indices are dropped.

Example:
    >>> from sporax import ops, Tensor, int32
    >>> ops.gather(Tensor([[1, 2, 3]]), Tensor([2, 0], int32), 1).asnumpy().tolist()
    [[3, 1]]
"""
import inspect
import numbers

import jax
import jax.numpy as jnp
import numpy as np

from sporax.core.tensor import Tensor
from sporax.ops._dispatch import array_of, binary_operands, describe, shape_error, wrap
from sporax.ops.face_inputs import index_input as _index_array
from sporax.ops.functional._args import axis_index, check_output_size, kernel, static_int, static_shape
from sporax.ops.op_table import ANY, Sample, op
from sporax.ops.samples import values as _sample_values
from sporax.state.fallback import UntraceableError


def _host_array(op_name, arg_name, value):
    array = array_of(op_name, arg_name, value)
    if isinstance(array, jax.core.Tracer):
        # MindSpore compiles such ops with dynamic shapes; a trace cannot, so the compiled function
        # that calls one runs eagerly instead (UntraceableError is the documented fallback's signal).
        raise UntraceableError(f"'{op_name}' gives an output whose shape depends on the values of "
                           f"'{arg_name}', which cannot be compiled (inside ms.jit, GRAPH_MODE or a "
                           "gradient). Call it in PyNative mode, or use a fixed-size alternative "
                           "such as ops.where or ops.masked_fill.")
    return np.asarray(array)


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
def _check_gather(input_params, input_indices, axis, batch_dims=0):
    """MindSpore's CPU kernel rejects indices outside [-size, size); concrete ones are checked here."""
    if isinstance(input_indices, jax.core.Tracer) or not input_indices.size:
        return
    size = input_params.shape[axis_index("gather", "axis", axis, input_params.ndim)]
    low, high = (int(value) for value in jax.device_get((jnp.min(input_indices), jnp.max(input_indices))))
    if low < -size or high >= size:
        raise RuntimeError(f"For 'Gather', the 'input_indices' should be in the range [0, {size}), but got "
                           f"{high if high >= size else low + size}.")  # MindSpore reports a wrapped negative


def _numpy_gather(input_params, input_indices, axis, batch_dims=0):
    if batch_dims:
        return np.stack([_numpy_gather(params, index, axis - 1, batch_dims - 1)
                         for params, index in zip(input_params, input_indices)])
    return np.take(input_params, input_indices, axis)


@op(inputs=("input_params", "input_indices"), indices="input_indices", dtypes=ANY, primitive="Gather",
    primitive_attrs=("batch_dims",), value_check=_check_gather, reference=_numpy_gather,
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


@op(inputs=("input", "index"), indices="index", dtypes=ANY, method="gather_elements", samples=_ELEMENT_SAMPLES,
    reference=lambda input, index, dim: _numpy_take_elements(input, dim, index))
def gather_elements(input, dim, index):
    """``output[i][j] = input[i][index[i][j]]`` along ``dim`` (``index`` may be smaller elsewhere)."""
    return _take_elements("gather_elements", input, dim, index)


@op(inputs=("x", "index"), indices="index", dtypes=ANY, primitive="GatherD",
    samples=_ELEMENT_SAMPLES, reference=lambda x, index, dim: _numpy_take_elements(x, dim, index))
def gather_d(x, dim, index):
    """Alias of ``gather_elements``."""
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


@op(inputs=("input", "index"), indices="index", dtypes=ANY,
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
def _condition(op_name, condition):
    array = array_of(op_name, "condition", condition)
    return array if array.dtype == np.bool_ else array.astype(np.bool_)


def _choose(op_name, cond, a, b):
    try:
        return jnp.where(cond, a, b)
    except (ValueError, TypeError) as error:
        raise shape_error(op_name, error, cond, a, b) from None


def where(condition, input, other):
    """Elements of ``input`` where ``condition`` is True, else of ``other`` (broadcast)."""
    cond = _condition("where", condition)
    a, b = binary_operands("where", input, other)
    return wrap(_choose("where", cond, a, b))


def select(condition, input, other):
    """Elements of ``input`` where ``condition`` is True, else of ``other`` (broadcast)."""
    cond = _condition("select", condition)
    a, b = binary_operands("select", input, other)
    return wrap(_choose("select", cond, a, b))


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


def masked_select(input, mask):
    """The 1-d tensor of the elements of ``input`` where ``mask`` (broadcast) is True."""
    values = _host_array("masked_select", "input", input)
    keep = _host_array("masked_select", "mask", mask)
    values, keep = np.broadcast_arrays(values, keep)
    return wrap(jnp.asarray(values[keep.astype(bool)]))


def nonzero(input, *, as_tuple=False):
    """The Int64 coordinates of the non-zero elements (``(n, rank)``, or a tuple of 1-d tensors)."""
    coords = np.nonzero(_host_array("nonzero", "input", input))
    if as_tuple:
        return tuple(wrap(jnp.asarray(c, np.int64)) for c in coords)
    return wrap(jnp.asarray(np.stack(coords, -1).astype(np.int64)))


def argwhere(input):
    """The Int64 coordinates ``(n, rank)`` of the non-zero elements."""
    return nonzero(input)


def unique(input):
    """The unique elements in order of first appearance, and each element's index into them."""
    values = _host_array("unique", "input", input)
    uniques, first, inverse = np.unique(values.reshape(-1), return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank_of = np.empty_like(order)
    rank_of[order] = np.arange(order.size)
    index_dtype = np.int64 if values.dtype == np.int64 else np.int32
    return (wrap(jnp.asarray(uniques[order])),
            wrap(jnp.asarray(rank_of[inverse].reshape(values.shape).astype(index_dtype))))


def one_hot(indices, depth, on_value=1, off_value=0, axis=-1):
    """One-hot vectors of length ``depth`` along ``axis`` (indices out of range: all ``off_value``)."""
    index = array_of("one_hot", "indices", indices)
    if index.dtype.kind not in "iu":
        raise TypeError(f"For 'one_hot', 'indices' must be an Int32 or Int64 Tensor, but got "
                        f"{describe(indices)}.")
    depth = static_int("one_hot", "depth", depth)
    if depth < 0:
        raise ValueError(f"For 'one_hot', 'depth' must be non-negative, but got {depth}.")
    axis = axis_index("one_hot", "axis", axis, index.ndim + 1)
    on, off = binary_operands("one_hot", on_value, off_value, "on_value", "off_value")
    on, off = jnp.asarray(on), jnp.asarray(off)
    target = on.dtype if isinstance(on_value, Tensor) or not isinstance(off_value, Tensor) else off.dtype
    check_output_size("one_hot", "depth", index.shape + (depth,), target)
    return wrap(_one_hot(index, on.astype(target), off.astype(target), depth, axis))


@kernel("depth", "axis")
def _one_hot(index, on, off, depth, axis):
    hot = jnp.expand_dims(index, axis) == jnp.arange(depth, dtype=index.dtype).reshape(
        (depth,) + (1,) * (index.ndim - axis))
    return jnp.where(hot, on, off)


# --- scatter ----------------------------------------------------------------------------------
def _nd_index(indices):
    return tuple(jnp.moveaxis(indices, -1, 0))


def numpy_apply_at(array, where, values, ufunc):
    """A copy of ``array`` with ``ufunc.at`` applied at ``where`` (None: assignment): scatter references."""
    result = np.array(array, copy=True)
    if ufunc is None:
        result[where] = values
    else:
        ufunc.at(result, where, values)
    return result


def _numpy_scatter_nd(ufunc):
    """A reference ``(input_x, indices, updates)``: ``ufunc.at`` at each index tuple (None: assignment)."""
    def reference(input_x, indices, updates):
        return numpy_apply_at(input_x, tuple(np.moveaxis(np.asarray(indices), -1, 0)), updates, ufunc)
    return reference


@op(inputs=("indices", "updates"), indices="indices", dtypes=ANY, primitive="ScatterNd",
    reference=lambda indices, updates, shape: _numpy_scatter_nd(np.add)(np.zeros(shape), indices, updates),
    samples=sample_maker(sample_case(int_array([[0, 1], [2, 3], [0, 1]]), ((3,), 0), shape=(3, 4)),
                     sample_case(int_array([[1], [0]]), ((2, 3), 1), shape=(2, 3))))
def scatter_nd(indices, updates, shape):
    """A zero tensor of ``shape`` with ``updates`` added at the index tuples ``indices``."""
    zeros = jnp.zeros(static_shape("scatter_nd", "shape", shape), updates.dtype)
    return zeros.at[_nd_index(indices)].add(updates, mode="drop")


# Distinct index tuples: an assignment to one position twice has no defined order.
_TENSOR_SCATTER_SAMPLES = sample_maker(sample_case(((3, 4), 0), int_array([[0, 1], [2, 3], [1, 0]]), ((3,), 1)),
                                   sample_case(((3, 2), 2), int_array([[2], [0]]), ((2, 2), 3)))


def _scatter_divide(target, updates, mode):
    """``target.divide(updates)``; integers divide truncating toward zero and keep their dtype (MindSpore's
    ``7 / 2 == 3``, ``-7 / 2 == -3``): by the product of their divisors, which is the same quotient."""
    if updates.dtype.kind not in "iu":
        return target.divide(updates, mode=mode)
    divisors = jnp.ones_like(target.array).at[target.index].multiply(updates, mode=mode)
    return jax.lax.div(target.array, divisors)


def _tensor_scatter(name, primitive, method, ufunc, doc, **options):
    def kernel(input_x, indices, updates):
        target = input_x.at[_nd_index(indices)]
        updates = updates.astype(input_x.dtype)
        if method == "divide":
            return _scatter_divide(target, updates, "drop")
        return getattr(target, method)(updates, mode="drop")

    kernel.__name__ = kernel.__qualname__ = name
    kernel.__doc__ = f"``input_x`` with ``updates`` {doc} at the index tuples ``indices``."
    kernel.__module__ = __name__
    return op(inputs=("input_x", "indices", "updates"), indices="indices", dtypes=ANY, primitive=primitive,
              reference=_numpy_scatter_nd(ufunc), samples=options.pop("samples", _TENSOR_SCATTER_SAMPLES),
              **options)(kernel)


tensor_scatter_update = _tensor_scatter("tensor_scatter_update", "TensorScatterUpdate", "set", None, "written")
tensor_scatter_add = _tensor_scatter("tensor_scatter_add", "TensorScatterAdd", "add", np.add, "added")
tensor_scatter_sub = _tensor_scatter("tensor_scatter_sub", "TensorScatterSub", "subtract", np.subtract,
                                     "subtracted")
# JAX differentiates a scatter-multiply only when its indices are known to be unique; these may repeat.
tensor_scatter_mul = _tensor_scatter("tensor_scatter_mul", "TensorScatterMul", "multiply", np.multiply,
                                     "multiplied in", grad_check=False)
tensor_scatter_div = _tensor_scatter(
    "tensor_scatter_div", "TensorScatterDiv", "divide", np.divide, "divided in", grad_check=False,
    samples=lambda dtype: [Sample((sample.arrays[0], sample.arrays[1], np.abs(sample.arrays[2]) + 1))
                           for sample in _TENSOR_SCATTER_SAMPLES(dtype)])  # divisors away from zero
tensor_scatter_max = _tensor_scatter("tensor_scatter_max", "TensorScatterMax", "max", np.maximum,
                                     "taken where larger")
tensor_scatter_min = _tensor_scatter("tensor_scatter_min", "TensorScatterMin", "min", np.minimum,
                                     "taken where smaller")

_ELEMENT_REDUCTIONS = {"none": "set", "add": "add", "mul": "multiply", "multiply": "multiply"}


def _numpy_scatter_elements(input_x, indices, updates, axis=0, reduction="none"):
    result = np.array(input_x, copy=True)
    for position in np.ndindex(np.shape(indices)):
        target = list(position)
        target[axis] = indices[position]
        if reduction == "none":
            result[tuple(target)] = updates[position]
        elif reduction == "add":
            result[tuple(target)] += updates[position]
        else:
            result[tuple(target)] *= updates[position]
    return result


@op(inputs=("input_x", "indices", "updates"), indices="indices", dtypes=ANY, primitive="TensorScatterElements",
    primitive_attrs=("axis", "reduction"), reference=_numpy_scatter_elements,
    samples=sample_maker(sample_case(((3, 4), 0), int_array([[1, 0, 2, 1], [2, 1, 0, 0]]), ((2, 4), 1), axis=0),
                     sample_case(((3, 4), 2), int_array([[3, 0], [1, 2], [0, 3]]), ((3, 2), 3), axis=1),
                     sample_case(((3, 4), 4), int_array([[0, 0, 2], [1, 2, 3]]), ((2, 3), 5), axis=1, reduction="add")))
def tensor_scatter_elements(input_x, indices, updates, axis=0, reduction="none"):
    """``input_x`` with ``output[..index[i][j]..] = updates[i][j]`` along ``axis`` (or added)."""
    op_name = "tensor_scatter_elements"
    if reduction not in _ELEMENT_REDUCTIONS:
        raise ValueError(f"For '{op_name}', 'reduction' must be 'none', 'add' or 'mul', but got "
                         f"{reduction!r}.")
    axis = axis_index(op_name, "axis", axis, input_x.ndim)
    if indices.ndim != input_x.ndim:
        raise ValueError(f"For '{op_name}', 'indices' must have the rank of 'input_x' ({input_x.ndim}).")
    return _scatter_elements(input_x, indices, updates.astype(input_x.dtype), axis, _ELEMENT_REDUCTIONS[reduction])


def _scatter_elements(array, index, values, axis, method):
    if values.shape != index.shape:
        values = jax.lax.slice(values, (0,) * values.ndim, index.shape)
    index = jnp.where(index < 0, index + array.shape[axis], index)
    others = tuple(dim for dim in range(array.ndim) if dim != axis)
    if all(index.shape[dim] == array.shape[dim] for dim in others):
        # one index per element, batched over the other axes: the form MindIR export writes as
        # TensorScatterElements (the general form below needs an index grid)
        numbers = jax.lax.ScatterDimensionNumbers(
            update_window_dims=(), inserted_window_dims=(axis,), scatter_dims_to_operand_dims=(axis,),
            operand_batching_dims=others, scatter_indices_batching_dims=others)
        return _BATCHED_SCATTERS[method](array, index[..., None], values, numbers,
                                         mode=jax.lax.GatherScatterMode.FILL_OR_DROP)
    grid = list(jnp.indices(index.shape, sparse=True))
    grid[axis] = index
    return getattr(array.at[tuple(grid)], method)(values, mode="drop")


_BATCHED_SCATTERS = {"set": jax.lax.scatter, "add": jax.lax.scatter_add, "multiply": jax.lax.scatter_mul}


def scatter(input, axis, index, src):
    """``input`` with ``src`` written at ``index`` along ``axis`` (``src`` may be a number)."""
    if isinstance(src, numbers.Number):
        src = wrap(jnp.full(_index_array("scatter", "index", index).shape, src,
                            array_of("scatter", "input", input).dtype))
    return tensor_scatter_elements(input, index, src, axis)


def _numpy_along(axis, index):
    """The NumPy index of the entries ``index`` along ``axis``."""
    return (slice(None),) * axis + (np.reshape(index, -1),)


def _numpy_index_fill(x, index, value, axis):
    result = np.array(x, copy=True)
    result[_numpy_along(axis % result.ndim, index)] = value
    return result


@op(inputs=("x", "index", "value"), indices="index", scalars="value", dtypes=ANY, method="index_fill",
    reference=_numpy_index_fill,
    samples=sample_maker(sample_case(((3, 4), 0), int_array([0, 2]), ((), 1), axis=1),
                     sample_case(((3, 4), 2), int_array([1]), ((), 3), axis=0),
                     sample_case(((2, 3), 4), int_array([2, 0]), -1.5, axis=-1)))
def index_fill(x, axis, index, value):
    """``x`` with the entries at ``index`` along ``axis`` set to ``value``."""
    axis = axis_index("index_fill", "axis", axis, x.ndim)
    fill = jnp.asarray(value).astype(x.dtype)
    return x.at[(slice(None),) * axis + (index.reshape(-1),)].set(fill, mode="drop")


def _numpy_index_add(x, indices, y, axis, **_):
    result = np.array(x, copy=True)
    np.add.at(result, _numpy_along(axis % result.ndim, indices), y)
    return result


@op(inputs=("x", "indices", "y"), indices="indices", dtypes=ANY, primitive="IndexAdd",
    primitive_attrs=("axis", "use_lock", "check_index_bound"), reference=_numpy_index_add,
    samples=sample_maker(sample_case(((3, 4), 0), int_array([0, 2, 0]), ((3, 3), 1), axis=1),
                     sample_case(((3, 4), 2), int_array([1, 1]), ((2, 4), 3), axis=0)))
def index_add(x, indices, y, axis, use_lock=True, check_index_bound=True):
    """``x`` with the slices of ``y`` added at ``indices`` along ``axis``."""
    axis = axis_index("index_add", "axis", axis, x.ndim)
    return x.at[(slice(None),) * axis + (indices.reshape(-1),)].add(y.astype(x.dtype), mode="drop")


# --- in-place scatter on Parameters (MindSpore's ScatterAdd family) ----------------------------
def _numpy_scatter(ufunc, nd):
    """A reference ``(input_x, indices, updates)`` of an in-place scatter into rows (or index tuples)."""
    if nd:
        return lambda input_x, indices, updates, **_: _numpy_scatter_nd(ufunc)(input_x, indices, updates)

    def reference(input_x, indices, updates, **_):
        return numpy_apply_at(input_x, np.asarray(indices), updates, ufunc)
    return reference


# Distinct rows and index tuples: an assignment to one position twice has no defined order.
_ROW_SAMPLES = sample_maker(sample_case(((3, 4), 0), int_array([2, 0]), ((2, 4), 1)),
                            sample_case(((4, 2), 2), int_array(1), ((2,), 3)))
_TUPLE_SAMPLES = sample_maker(sample_case(((3, 4), 0), int_array([[0, 1], [2, 3], [1, 0]]), ((3,), 1)),
                          sample_case(((3, 2), 2), int_array([[2], [0]]), ((2, 2), 3)))


def _divisors_away_from_zero(maker):
    def make(dtype):
        return [Sample(sample.arrays[:2] + (np.abs(sample.arrays[2]) + 1,), sample.kwargs) for sample in maker(dtype)]
    return make


def in_place_scatter(name, method, ufunc, nd, doc, module=__name__, use_locking=False):
    """Declare the entry ``name``: the Parameter ``input_x`` with ``updates`` applied (``method`` of ``.at``) at
    the rows (``nd``: index tuples) ``indices``, stored in place; ``use_locking`` adds MindSpore's (unused)
    argument of that name."""
    def kernel(input_x, indices, updates, use_locking=False):
        target = input_x.at[_nd_index(indices) if nd else indices]
        updates = updates.astype(input_x.dtype)
        if method == "divide":
            return _scatter_divide(target, updates, "drop")
        return getattr(target, method)(updates, mode="drop")

    parameters = list(inspect.signature(kernel).parameters.values())
    kernel.__signature__ = inspect.Signature(parameters if use_locking else parameters[:3])
    kernel.__name__ = kernel.__qualname__ = name
    kernel.__doc__ = doc
    kernel.__module__ = module
    samples = _TUPLE_SAMPLES if nd else _ROW_SAMPLES
    # JAX differentiates a scatter-multiply only when its indices are known to be unique; a store in place
    # is not differentiated (MindSpore's ScatterAdd family updates Parameters outside the gradient).
    return op(inputs=("input_x", "indices", "updates"), indices="indices", writes="input_x", dtypes=ANY,
              grad_check=False, reference=_numpy_scatter(ufunc, nd),
              samples=_divisors_away_from_zero(samples) if method == "divide" else samples)(kernel)


_ROWS = "the rows ``indices`` of Parameter ``input_x``"
scatter_add = in_place_scatter("scatter_add", "add", np.add, False,
                               f"Add ``updates`` into {_ROWS}, in place; returns it.")
scatter_update = in_place_scatter("scatter_update", "set", None, False,
                                  f"Set {_ROWS} to ``updates``, in place; returns it.")
scatter_nd_add = in_place_scatter("scatter_nd_add", "add", np.add, True,
                                  "Add ``updates`` at the index tuples ``indices`` of Parameter ``input_x``, in place.",
                                  use_locking=True)
scatter_nd_update = in_place_scatter("scatter_nd_update", "set", None, True,
                                     "Set Parameter ``input_x`` at the index tuples ``indices`` to ``updates``, "
                                     "in place.")
