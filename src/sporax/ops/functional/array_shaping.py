"""Array shaping ops: atleast_nd, column/row/depth stacks, rot90, segment reductions,
triangle indices, diagonal embedding, sequence masks, channel shuffle.

Example:
    >>> from sporax import ops, Tensor
    >>> ops.rot90(Tensor([[1, 2], [3, 4]]), 1, (0, 1)).asnumpy().tolist()
    [[2, 4], [1, 3]]
"""
import jax
import jax.numpy as jnp
import numpy as np

from sporax.core import dtype as mstype
from sporax.ops._dispatch import array_of, describe, wrap
from sporax.ops.functional._args import axes_tuple, axis_index, kernel, numpy_dtype, static_int
from sporax.ops.functional.array import _arrays, tensor_split
from sporax.ops.functional.indexing import _host_array, _index_array


def _at_least(op_name, inputs, function):
    if isinstance(inputs, (tuple, list)):
        return tuple(wrap(function(array_of(op_name, f"inputs[{i}]", t))) for i, t in enumerate(inputs))
    return wrap(function(array_of(op_name, "inputs", inputs)))


def atleast_1d(inputs):
    """``inputs`` (a Tensor or a list of them) with at least 1 dimension."""
    return _at_least("atleast_1d", inputs, jnp.atleast_1d)


def atleast_2d(inputs):
    """``inputs`` (a Tensor or a list of them) with at least 2 dimensions."""
    return _at_least("atleast_2d", inputs, jnp.atleast_2d)


def atleast_3d(inputs):
    """``inputs`` (a Tensor or a list of them) with at least 3 dimensions."""
    return _at_least("atleast_3d", inputs, jnp.atleast_3d)


def column_stack(tensors):
    """Stack 1-d tensors as columns (2-d tensors are joined along axis 1)."""
    return wrap(jnp.column_stack(_arrays("column_stack", "tensors", tensors)))


def row_stack(tensors):
    """Stack tensors as rows (along axis 0; 1-d tensors become rows)."""
    return wrap(jnp.vstack(_arrays("row_stack", "tensors", tensors)))


def dstack(tensors):
    """Stack tensors along the third axis (depth)."""
    return wrap(jnp.dstack(_arrays("dstack", "tensors", tensors)))


def dsplit(input, indices_or_sections):
    """Split a tensor of at least 3 dimensions along axis 2."""
    return tensor_split(input, indices_or_sections, 2)


def t(input):
    """Transpose a 2-d tensor (a 1-d tensor is returned unchanged)."""
    array = array_of("t", "input", input)
    if array.ndim > 2:
        raise ValueError(f"For 't', the input must be at most 2-d, but got shape {array.shape}.")
    return wrap(array.T)


def ravel(input):
    """The elements of ``input`` as a 1-d tensor."""
    return wrap(array_of("ravel", "input", input).reshape(-1))


def numel(input):
    """The number of elements of ``input`` (an int)."""
    return int(np.prod(array_of("numel", "input", input).shape, dtype=np.int64))


def expand_as(input, other):
    """Broadcast ``input`` to the shape of ``other``."""
    target = array_of("expand_as", "other", other).shape
    return wrap(jnp.broadcast_to(array_of("expand_as", "input", input), target))


def view_as(input, other):
    """Reshape ``input`` to the shape of ``other``."""
    return wrap(array_of("view_as", "input", input).reshape(array_of("view_as", "other", other).shape))


def take(input, index):
    """Elements of the flattened ``input`` at ``index`` (the result has ``index``'s shape)."""
    array = array_of("take", "input", input).reshape(-1)
    return wrap(jnp.take(array, _index_array("take", "index", index), mode="fill", fill_value=0))


def rot90(input, k, dims):
    """Rotate ``input`` by 90 degrees ``k`` times in the plane of ``dims``."""
    array = array_of("rot90", "input", input)
    axes = axes_tuple("rot90", "dims", dims, array.ndim)
    if len(axes) != 2 or axes[0] == axes[1]:
        raise ValueError(f"For 'rot90', 'dims' must be two different axes, but got {dims!r}.")
    return wrap(jnp.rot90(array, static_int("rot90", "k", k), axes))


def channel_shuffle(x, groups):
    """Shuffle the channels (axis 1) of ``x`` across ``groups``."""
    array = array_of("channel_shuffle", "x", x)
    groups = static_int("channel_shuffle", "groups", groups)
    if array.ndim < 3 or groups <= 0 or array.shape[1] % groups:
        raise ValueError(f"For 'channel_shuffle', the input must be at least 3-d with channels divisible "
                         f"by groups={groups}, but got {describe(x)}.")
    n, channels = array.shape[:2]
    rest = array.shape[2:]
    out = array.reshape((n, groups, channels // groups) + rest)
    return wrap(jnp.swapaxes(out, 1, 2).reshape(array.shape))


# --- segment reductions ----------------------------------------------------------------------
_SEGMENT = {"sum": jax.ops.segment_sum, "max": jax.ops.segment_max, "min": jax.ops.segment_min,
            "prod": jax.ops.segment_prod}


@kernel("kind", "count")
def _segment(values, ids, kind, count):
    flat_ids = ids.reshape(-1)
    flat_values = values.reshape((flat_ids.shape[0],) + values.shape[ids.ndim:])
    out = _SEGMENT[kind](flat_values, flat_ids, count)
    if kind in ("max", "min"):
        # Empty segments hold the dtype's finite lowest (max) or highest (min) value, as in MindSpore.
        info = jnp.finfo(values.dtype) if values.dtype.kind == "f" else jnp.iinfo(values.dtype)
        members = jax.ops.segment_sum(jnp.ones(flat_ids.shape, np.int32), flat_ids, count)
        empty = (members == 0).reshape((count,) + (1,) * (out.ndim - 1))
        out = jnp.where(empty, jnp.asarray(info.min if kind == "max" else info.max, values.dtype), out)
    return out


def _unsorted_segment(op_name, kind, x, segment_ids, num_segments):
    values = array_of(op_name, "x", x)
    ids = _index_array(op_name, "segment_ids", segment_ids)
    if values.shape[:ids.ndim] != ids.shape:
        raise ValueError(f"For '{op_name}', the shape of 'segment_ids' {ids.shape} must be a prefix of "
                         f"the shape of 'x' {values.shape}.")
    count = static_int(op_name, "num_segments", num_segments)
    _check_segment_ids(op_name, ids, count)
    return wrap(_segment(values, ids, kind, count))


def _check_segment_ids(op_name, ids, count):
    """MindSpore's kernels refuse an id >= num_segments with a RuntimeError (negative ids are dropped).

    Eagerly the ids are checked on the host; in a compiled program a host callback raises when the
    program runs (JAX reports it as a RuntimeError carrying this message).
    """
    if ids.size == 0:
        return

    def check(largest):
        if int(largest) >= count:
            raise RuntimeError(f"For '{op_name}', every value of 'segment_ids' must be less than "
                               f"'num_segments' ({count}), but got {int(largest)}.")

    largest = jnp.max(ids)
    if isinstance(largest, jax.core.Tracer):
        jax.debug.callback(check, largest)
    else:
        check(largest)


def unsorted_segment_sum(input_x, segment_ids, num_segments):
    """Sum the slices of ``input_x`` that share a segment id (negative ids are dropped)."""
    return _unsorted_segment("unsorted_segment_sum", "sum", input_x, segment_ids, num_segments)


def unsorted_segment_max(x, segment_ids, num_segments):
    """Maximum of the slices of ``x`` that share a segment id."""
    return _unsorted_segment("unsorted_segment_max", "max", x, segment_ids, num_segments)


def unsorted_segment_min(x, segment_ids, num_segments):
    """Minimum of the slices of ``x`` that share a segment id."""
    return _unsorted_segment("unsorted_segment_min", "min", x, segment_ids, num_segments)


def unsorted_segment_prod(x, segment_ids, num_segments):
    """Product of the slices of ``x`` that share a segment id."""
    return _unsorted_segment("unsorted_segment_prod", "prod", x, segment_ids, num_segments)


# --- triangles, diagonals, masks --------------------------------------------------------------
def _triangle_indices(op_name, function, row, col, offset, dtype):
    row, col = static_int(op_name, "row", row), static_int(op_name, "col", col)
    rows, cols = function(row, static_int(op_name, "offset", offset), col)
    return wrap(jnp.asarray(np.stack([rows, cols]).astype(numpy_dtype(op_name, "dtype", dtype))))


def tril_indices(row, col, offset=0, *, dtype=mstype.int64):
    """The 2 x n coordinates of the lower triangle of a ``row`` x ``col`` matrix (Int64)."""
    return _triangle_indices("tril_indices", np.tril_indices, row, col, offset, dtype)


def triu_indices(row, col, offset=0, *, dtype=mstype.int64):
    """The 2 x n coordinates of the upper triangle of a ``row`` x ``col`` matrix (Int64)."""
    return _triangle_indices("triu_indices", np.triu_indices, row, col, offset, dtype)


def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    """Matrices with the last axis of ``input`` on their ``offset``-th diagonal (axes dim1, dim2)."""
    array = array_of("diag_embed", "input", input)
    offset = static_int("diag_embed", "offset", offset)
    length = array.shape[-1]
    size = length + abs(offset)
    rows = np.arange(length) + max(-offset, 0)
    cols = np.arange(length) + max(offset, 0)
    square = jnp.zeros(array.shape[:-1] + (size, size), array.dtype).at[..., rows, cols].set(array)
    ndim = array.ndim + 1
    first = axis_index("diag_embed", "dim1", dim1, ndim)
    second = axis_index("diag_embed", "dim2", dim2, ndim)
    if first == second:
        raise ValueError("For 'diag_embed', 'dim1' and 'dim2' must differ.")
    return wrap(jnp.moveaxis(square, (-2, -1), (first, second)))


def diagflat(input, offset=0):
    """A 2-d matrix with the flattened ``input`` on its ``offset``-th diagonal."""
    array = array_of("diagflat", "input", input)
    return wrap(jnp.diagflat(array, static_int("diagflat", "offset", offset)))


def sequence_mask(lengths, maxlen=None):
    """Bool masks ``mask[..., j] = j < lengths[...]`` of length ``maxlen`` (default: max length)."""
    array = _index_array("sequence_mask", "lengths", lengths)
    if maxlen is None:
        maxlen = int(_host_array("sequence_mask", "lengths", lengths).max(initial=0))
    maxlen = static_int("sequence_mask", "maxlen", maxlen)
    return wrap(jnp.arange(maxlen) < array[..., None])


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """Collapse runs of equal consecutive elements (flattened when ``dim`` is None)."""
    values = _host_array("unique_consecutive", "input", input)
    if dim is not None:
        axis = axis_index("unique_consecutive", "dim", dim, values.ndim)
        moved = np.moveaxis(values, axis, 0).reshape(values.shape[axis], -1)
        starts = np.concatenate([[True], np.any(moved[1:] != moved[:-1], axis=1)])
        output = np.moveaxis(np.moveaxis(values, axis, 0)[starts], 0, axis)
    else:
        flat = values.reshape(-1)
        starts = np.concatenate([[True], flat[1:] != flat[:-1]]) if flat.size else np.zeros(0, bool)
        output = flat[starts]
    group = np.cumsum(starts) - 1
    results = [wrap(jnp.asarray(output))]
    if return_inverse:
        results.append(wrap(jnp.asarray(group.reshape(values.shape if dim is None else -1).astype(np.int64))))
    if return_counts:
        results.append(wrap(jnp.asarray(np.bincount(group).astype(np.int64))))
    return results[0] if len(results) == 1 else tuple(results)



def contiguous(input):
    """A Tensor with ``input``'s values in row-major layout; sporax arrays always are, so its values as is.

    Example:
        >>> from sporax import Tensor, ops
        >>> ops.contiguous(Tensor([[1, 2], [3, 4]]).T).asnumpy().tolist()
        [[1, 3], [2, 4]]
    """
    return wrap(array_of("contiguous", "input", input))
