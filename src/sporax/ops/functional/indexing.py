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
import numbers

import jax
import jax.numpy as jnp
import numpy as np

from sporax.core.tensor import Tensor
from sporax.ops._dispatch import array_of, binary_operands, describe, shape_error, wrap
from sporax.ops.functional._args import axis_index, check_output_size, kernel, static_int, static_shape
from sporax.state.fallback import UntraceableError


def _index_array(op_name, arg_name, value):
    if isinstance(value, (list, tuple, numbers.Integral)) and not isinstance(value, bool):
        return jnp.asarray(value, np.int64)
    array = array_of(op_name, arg_name, value)
    if array.dtype.kind not in "iu":
        raise TypeError(f"For '{op_name}', '{arg_name}' must be an integer Tensor (Int32 or Int64), "
                        f"but got {describe(value)}.")
    return array


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


# --- gather -----------------------------------------------------------------------------------
def gather(input_params, input_indices, axis, batch_dims=0):
    """Take slices of ``input_params`` along ``axis`` at ``input_indices`` (zeros when out of range)."""
    array = array_of("gather", "input_params", input_params)
    indices = _index_array("gather", "input_indices", input_indices)
    axis = axis_index("gather", "axis", axis, array.ndim)
    batch_dims = static_int("gather", "batch_dims", batch_dims)
    if batch_dims < 0:
        batch_dims += indices.ndim
    if not 0 <= batch_dims <= min(axis, indices.ndim):
        raise ValueError(f"For 'gather', 'batch_dims' ({batch_dims}) must be in [0, min(axis, "
                         f"indices rank)] = [0, {min(axis, indices.ndim)}].")

    _check_gather_range(indices, array.shape[axis])
    return wrap(_gather(array, indices, axis, batch_dims))


def _check_gather_range(indices, size):
    """MindSpore's CPU kernel rejects indices outside [-size, size); concrete ones are checked here."""
    if isinstance(indices, jax.core.Tracer) or not indices.size:
        return
    low, high = (int(value) for value in jax.device_get((jnp.min(indices), jnp.max(indices))))
    if low < -size or high >= size:
        raise RuntimeError(f"For 'Gather', the 'input_indices' should be in the range [0, {size}), but got "
                           f"{high if high >= size else low + size}.")  # MindSpore reports a wrapped negative


@kernel("axis", "batch_dims")
def _gather(array, indices, axis, batch_dims):
    def take(values, index, along):
        return jnp.take(values, index, along, mode="fill", fill_value=0)

    for _ in range(batch_dims):
        take = jax.vmap(take, in_axes=(0, 0, None))
    return take(array, indices, axis - batch_dims)


def gather_elements(input, dim, index):
    """``output[i][j] = input[i][index[i][j]]`` along ``dim`` (``index`` may be smaller elsewhere)."""
    array = array_of("gather_elements", "input", input)
    index = _index_array("gather_elements", "index", index)
    dim = axis_index("gather_elements", "dim", dim, array.ndim)
    if index.ndim != array.ndim:
        raise ValueError(f"For 'gather_elements', 'index' must have the rank of 'input' "
                         f"({array.ndim}), but got shape {index.shape}.")
    limits = tuple(array.shape[a] if a == dim else index.shape[a] for a in range(array.ndim))
    if limits != array.shape:
        array = jax.lax.slice(array, (0,) * array.ndim, limits)
    return wrap(jnp.take_along_axis(array, index, dim, mode="fill", fill_value=0))


def gather_d(x, dim, index):
    """Alias of ``gather_elements``."""
    return gather_elements(x, dim, index)


def gather_nd(input_x, indices):
    """Gather slices of ``input_x`` at the index tuples in the last axis of ``indices``."""
    array = array_of("gather_nd", "input_x", input_x)
    indices = _index_array("gather_nd", "indices", indices)
    depth = indices.shape[-1] if indices.ndim else 0
    if indices.ndim == 0 or depth > array.ndim:
        raise ValueError(f"For 'gather_nd', the last dimension of 'indices' ({depth}) must be at "
                         f"most the rank of 'input_x' ({array.ndim}).")
    return wrap(array.at[tuple(jnp.moveaxis(indices, -1, 0))].get(mode="fill", fill_value=0))


def index_select(input, axis, index):
    """Select entries of ``input`` along ``axis`` at the 1-d ``index``."""
    array = array_of("index_select", "input", input)
    index = _index_array("index_select", "index", index)
    if index.ndim > 1:
        raise ValueError(f"For 'index_select', 'index' must be 0-d or 1-d, but got shape {index.shape}.")
    return wrap(jnp.take(array, index.reshape(-1), axis_index("index_select", "axis", axis, array.ndim),
                         mode="fill", fill_value=0))


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


def masked_fill(input_x, mask, value):
    """Fill the elements of ``input_x`` where ``mask`` is True with ``value`` (keeps the dtype)."""
    array = array_of("masked_fill", "input_x", input_x)
    mask = array_of("masked_fill", "mask", mask)
    if mask.dtype != np.bool_:
        raise TypeError(f"For 'masked_fill', 'mask' must be a Bool Tensor, but got {describe(mask)}.")
    if isinstance(value, Tensor):
        value = value._value
        if value.ndim:
            raise ValueError("For 'masked_fill', 'value' must be a 0-d Tensor or a number, but got "
                             f"shape {value.shape}.")
    return wrap(_choose("masked_fill", mask, jnp.asarray(value).astype(array.dtype), array))


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


def scatter_nd(indices, updates, shape):
    """A zero tensor of ``shape`` with ``updates`` added at the index tuples ``indices``."""
    values = array_of("scatter_nd", "updates", updates)
    index = _index_array("scatter_nd", "indices", indices)
    zeros = jnp.zeros(static_shape("scatter_nd", "shape", shape), values.dtype)
    return wrap(_scatter_nd_kernel(zeros, index, values, "add"))


@kernel("method")
def _scatter_nd_kernel(array, index, values, method):
    return getattr(array.at[_nd_index(index)], method)(values, mode="drop")


def _tensor_scatter(op_name, method):
    def scatter_op(input_x, indices, updates):
        array = array_of(op_name, "input_x", input_x)
        index = _index_array(op_name, "indices", indices)
        values = array_of(op_name, "updates", updates).astype(array.dtype)
        return wrap(_scatter_nd_kernel(array, index, values, method))

    scatter_op.__name__ = op_name
    scatter_op.__doc__ = f"``input_x`` with ``updates`` applied ({method}) at the index tuples ``indices``."
    return scatter_op


tensor_scatter_update = _tensor_scatter("tensor_scatter_update", "set")
tensor_scatter_add = _tensor_scatter("tensor_scatter_add", "add")
tensor_scatter_sub = _tensor_scatter("tensor_scatter_sub", "subtract")
tensor_scatter_mul = _tensor_scatter("tensor_scatter_mul", "multiply")
tensor_scatter_div = _tensor_scatter("tensor_scatter_div", "divide")
tensor_scatter_max = _tensor_scatter("tensor_scatter_max", "max")
tensor_scatter_min = _tensor_scatter("tensor_scatter_min", "min")

_ELEMENT_REDUCTIONS = {"none": "set", "add": "add", "mul": "multiply", "multiply": "multiply"}


def tensor_scatter_elements(input_x, indices, updates, axis=0, reduction="none"):
    """``input_x`` with ``output[..index[i][j]..] = updates[i][j]`` along ``axis`` (or added)."""
    op_name = "tensor_scatter_elements"
    array = array_of(op_name, "input_x", input_x)
    index = _index_array(op_name, "indices", indices)
    values = array_of(op_name, "updates", updates).astype(array.dtype)
    if reduction not in _ELEMENT_REDUCTIONS:
        raise ValueError(f"For '{op_name}', 'reduction' must be 'none', 'add' or 'mul', but got "
                         f"{reduction!r}.")
    axis = axis_index(op_name, "axis", axis, array.ndim)
    if index.ndim != array.ndim:
        raise ValueError(f"For '{op_name}', 'indices' must have the rank of 'input_x' ({array.ndim}).")
    return wrap(_scatter_elements(array, index, values, axis, _ELEMENT_REDUCTIONS[reduction]))


@kernel("axis", "method")
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


def index_fill(x, axis, index, value):
    """``x`` with the entries at ``index`` along ``axis`` set to ``value``."""
    array = array_of("index_fill", "x", x)
    index = _index_array("index_fill", "index", index).reshape(-1)
    axis = axis_index("index_fill", "axis", axis, array.ndim)
    fill = jnp.asarray(value._value if isinstance(value, Tensor) else value).astype(array.dtype)
    where_axis = (slice(None),) * axis + (index,)
    return wrap(array.at[where_axis].set(fill, mode="drop"))


def index_add(x, indices, y, axis, use_lock=True, check_index_bound=True):
    """``x`` with the slices of ``y`` added at ``indices`` along ``axis``."""
    array = array_of("index_add", "x", x)
    index = _index_array("index_add", "indices", indices).reshape(-1)
    values = array_of("index_add", "y", y).astype(array.dtype)
    axis = axis_index("index_add", "axis", axis, array.ndim)
    return wrap(array.at[(slice(None),) * axis + (index,)].add(values, mode="drop"))


# --- in-place scatter on Parameters (MindSpore's ScatterAdd family) ----------------------------
def _scatter_in_place(op_name, input_x, indices, updates, method, nd):
    if not isinstance(input_x, Tensor):
        raise TypeError(f"For '{op_name}', 'input_x' must be a Parameter (it is updated in place), but "
                        f"got {describe(input_x)}.")
    array = input_x._value
    index = _index_array(op_name, "indices", indices)
    values = array_of(op_name, "updates", updates).astype(array.dtype)
    where = _nd_index(index) if nd else index
    # The state layer's one writer: under jit it checks that a scope lifts the Parameter.
    from sporax.state.assign import write

    return write(input_x, _scatter_in_place_kernel(array, where, values, method), op_name)


@kernel("method")
def _scatter_in_place_kernel(array, where, values, method):
    return getattr(array.at[where], method)(values, mode="drop")


def scatter_add(input_x, indices, updates):
    """Add ``updates`` into the rows ``indices`` of Parameter ``input_x``, in place; returns it."""
    return _scatter_in_place("scatter_add", input_x, indices, updates, "add", False)


def scatter_update(input_x, indices, updates):
    """Set the rows ``indices`` of Parameter ``input_x`` to ``updates``, in place; returns it."""
    return _scatter_in_place("scatter_update", input_x, indices, updates, "set", False)


def scatter_nd_add(input_x, indices, updates, use_locking=False):
    """Add ``updates`` at the index tuples ``indices`` of Parameter ``input_x``, in place."""
    return _scatter_in_place("scatter_nd_add", input_x, indices, updates, "add", True)


def scatter_nd_update(input_x, indices, updates):
    """Set the index tuples ``indices`` of Parameter ``input_x`` to ``updates``, in place."""
    return _scatter_in_place("scatter_nd_update", input_x, indices, updates, "set", True)
