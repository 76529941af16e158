"""Array ops that take static slices or reorder elements: slice, strided_slice, flip, roll, tril.

Begin/end/size arguments are static Python ints, so each op is one ``lax``/``jnp`` slice.

Example:
    >>> from sporax import ops, Tensor
    >>> ops.slice(Tensor([[1, 2, 3], [4, 5, 6]]), (0, 1), (2, -1)).asnumpy().tolist()
    [[2, 3], [5, 6]]
"""
import builtins
import math

import jax.numpy as jnp
import numpy as np
from jax import lax

from sporax.ops._dispatch import array_of, wrap
from sporax.ops.functional._args import axes_tuple, axis_index, static_int, static_shape
from sporax.ops.op_table import ANY, INT_TUPLE, Sample, op, spelling
from sporax.ops.samples import shaped, unary, values, with_settings


def _numpy_slice(input_x, begin, size):
    return input_x[tuple(builtins.slice(start, None if count == -1 else start + count)
                         for start, count in zip(begin, size))]


@op(inputs="input_x", dtypes=ANY, primitive="Slice", inline=True, reference=_numpy_slice,
    samples=shaped(((3, 4), {"begin": (1, 0), "size": (2, -1)}), ((2, 3, 4), {"begin": (0, 1, 2), "size": (1, 2, 2)})))
def slice(input_x, begin, size):
    """Take ``size[i]`` elements from ``begin[i]`` along each axis (size -1: to the end)."""
    begin = static_shape("slice", "begin", begin)
    size = static_shape("slice", "size", size)
    if len(begin) != input_x.ndim or len(size) != input_x.ndim:
        raise ValueError(f"For 'slice', 'begin' {begin} and 'size' {size} must both have one entry "
                         f"per dimension of the input of shape {input_x.shape}.")
    limits = []
    for axis, (start, count, dim) in enumerate(zip(begin, size, input_x.shape)):
        stop = dim if count == -1 else start + count
        if start < 0 or count < -1 or stop > dim:
            raise ValueError(f"For 'slice', axis {axis}: begin {start} and size {count} do not fit in "
                             f"dimension {dim} of the input of shape {input_x.shape}.")
        limits.append(stop)
    return lax.slice(input_x, begin, tuple(limits))


def _numpy_strided_slice(input_x, begin, end, strides, begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0,
                         shrink_axis_mask=0):
    index = []
    for position, (start, stop, step) in enumerate(zip(begin, end, strides)):
        if ellipsis_mask >> position & 1:
            index.append(Ellipsis)
        elif new_axis_mask >> position & 1:
            index.append(np.newaxis)
        elif shrink_axis_mask >> position & 1:
            index.append(start)
        else:
            index.append(builtins.slice(None if begin_mask >> position & 1 else start,
                                        None if end_mask >> position & 1 else stop, step))
    return np.asarray(input_x)[tuple(index)]


@op(inputs="input_x", dtypes=ANY, primitive="StridedSlice",
    primitive_attrs=("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask"), inline=True,
    reference=_numpy_strided_slice,
    samples=shaped(((3, 4), {"begin": (0, 1), "end": (3, 4), "strides": (2, 1)}),
                   ((2, 3, 4), {"begin": (1, 0, 3), "end": (2, 3, 0), "strides": (1, 1, -2), "begin_mask": 2,
                                "shrink_axis_mask": 1, "new_axis_mask": 0})))
def strided_slice(input_x, begin, end, strides, begin_mask=0, end_mask=0, ellipsis_mask=0,
                  new_axis_mask=0, shrink_axis_mask=0):
    """Slice ``input_x[begin:end:strides]`` per axis, with TensorFlow-style bit masks."""
    begin = static_shape("strided_slice", "begin", begin)
    end = static_shape("strided_slice", "end", end)
    strides = static_shape("strided_slice", "strides", strides)
    if not len(begin) == len(end) == len(strides):
        raise ValueError(f"For 'strided_slice', 'begin' {begin}, 'end' {end} and 'strides' {strides} "
                         "must have the same length.")
    if any(step == 0 for step in strides):
        raise ValueError(f"For 'strided_slice', 'strides' must not hold 0, but got {strides}.")
    consumed = sum(1 for i in range(len(begin)) if not (new_axis_mask | ellipsis_mask) & (1 << i))
    if consumed > input_x.ndim:
        raise ValueError(f"For 'strided_slice', 'begin' {begin} indexes {consumed} axes but the input "
                         f"has only {input_x.ndim} (shape {input_x.shape}).")
    index = []
    for i, (start, stop, step) in enumerate(zip(begin, end, strides)):
        bit = 1 << i
        if ellipsis_mask & bit:
            index.append(Ellipsis)
        elif new_axis_mask & bit:
            index.append(None)
        elif shrink_axis_mask & bit:
            index.append(start)
        else:
            index.append(builtins.slice(None if begin_mask & bit else start,
                                        None if end_mask & bit else stop, step))
    return input_x[tuple(index)]


_MATRICES = ((3, 4), (2, 3, 3))


def _numpy_narrow(input, axis, start, length):
    return np.take(input, np.arange(start % input.shape[axis], start % input.shape[axis] + length), axis)


@op(view=True, mint=spelling("narrow", "input, dim, start, length", axis="dim"),
    dtypes=ANY, method="narrow", reference=_numpy_narrow,
    samples=with_settings(unary(shapes=((3, 4),), axis=1, start=1, length=2), {"axis": 0, "start": -2, "length": 2}))
def narrow(input, axis, start, length):
    """Take ``length`` elements from ``start`` along ``axis``."""
    axis = axis_index("narrow", "axis", axis, input.ndim)
    start = static_int("narrow", "start", start)
    length = static_int("narrow", "length", length)
    dim = input.shape[axis]
    if start < 0:
        start += dim
    if not 0 <= start <= dim or length < 0 or start + length > dim:
        raise ValueError(f"For 'narrow', start {start} and length {length} do not fit in dimension "
                         f"{dim} of axis {axis}.")
    return lax.slice_in_dim(input, start, start + length, axis=axis)


def _numpy_select(input, dim, index):
    return np.take(input, index, dim)


@op(view=True, mint=spelling("select", "input, dim, index"), dtypes=ANY, primitive="SelectExtView", inline=True,
    reference=_numpy_select, samples=with_settings(unary(shapes=((3, 4),), dim=1, index=2), {"dim": 0, "index": -1}))
def select_ext_view(input, dim, index):
    """The slice of ``input`` at ``index`` along ``dim``, that dimension removed (``mint.select``)."""
    axis = axis_index("select", "dim", dim, input.ndim)
    index = static_int("select", "index", index)
    size = input.shape[axis]
    if not -size <= index < size:
        raise ValueError(f"For 'select', 'index' {index} is out of range for dimension {axis} of size {size}: "
                         f"it must be in [{-size}, {size}).")
    return lax.index_in_dim(input, index % size, axis, keepdims=False)


@op(dtypes=ANY, primitive="ReverseV2", primitive_attrs=(("axis", "dims"),),
    attribute_forms={"axis": INT_TUPLE}, method="flip", mint="flip",
    reference=lambda input, dims: np.flip(input, dims),
    samples=with_settings(unary(shapes=((3, 4), (2, 3, 2)), dims=(0,)), {"dims": (0, -1)}, {"dims": 1}))
def flip(input, dims):
    """Reverse the order of elements along ``dims``."""
    return jnp.flip(input, axes_tuple("flip", "dims", dims, input.ndim))


@op(dtypes=ANY, method="fliplr", reference=np.fliplr, samples=unary(shapes=_MATRICES))
def fliplr(input):
    """Reverse the order of columns (axis 1)."""
    return jnp.flip(input, axes_tuple("fliplr", "dims", 1, input.ndim))


@op(dtypes=ANY, method="flipud", reference=np.flipud, samples=unary(shapes=((3, 4), (5,))))
def flipud(input):
    """Reverse the order of rows (axis 0)."""
    return jnp.flip(input, axes_tuple("flipud", "dims", 0, input.ndim))


def _numpy_roll(input, shifts, dims=None):
    if dims is None:
        return np.roll(np.reshape(input, -1), shifts).reshape(np.shape(input))
    return np.roll(input, shifts, dims)


@op(dtypes=ANY, primitive="Roll", primitive_attrs=("shifts", "dims"),
    attribute_forms={"shifts": INT_TUPLE, "dims": INT_TUPLE}, method="roll", mint="roll",
    reference=_numpy_roll,
    samples=with_settings(unary(shapes=((3, 4), (7,)), shifts=2), {"shifts": (1, -1), "dims": (0, 1)},
                          {"shifts": -1, "dims": 1}))
def roll(input, shifts, dims=None):
    """Roll elements by ``shifts`` along ``dims`` (over the flattened tensor when None)."""
    shifts = static_shape("roll", "shifts", shifts)
    if dims is None:
        if len(shifts) != 1:
            raise ValueError("For 'roll', 'shifts' must be a single int when 'dims' is None.")
        return jnp.roll(input.reshape(-1), shifts[0]).reshape(input.shape)
    axes = axes_tuple("roll", "dims", dims, input.ndim)
    if len(axes) != len(shifts):
        raise ValueError(f"For 'roll', 'shifts' {shifts} and 'dims' {dims} must have the same length.")
    return jnp.roll(input, shifts, axes)


def _check_matrix(op_name, array):
    if array.ndim < 2:
        raise ValueError(f"For '{op_name}', the input must have at least 2 dimensions, but got shape "
                         f"{array.shape}.")


def _triangle(name, primitive, function, numpy_function, zeroed_side, second_diagonal):
    """Declare ``name``: ``function`` (``jnp.tril``/``jnp.triu``) of the last two axes, zeroing the elements on
    ``zeroed_side`` of the ``diagonal``-th diagonal; samples at diagonals 0, 1 and ``second_diagonal``."""

    def kernel(input, diagonal=0):
        _check_matrix(name, input)
        return function(input, static_int(name, "diagonal", diagonal))

    kernel.__name__ = kernel.__qualname__ = name
    kernel.__doc__ = f"Zero the elements {zeroed_side} the ``diagonal``-th diagonal of the last two axes."
    return op(dtypes=ANY, primitive=primitive, primitive_attrs=("diagonal",), method=name, mint=name,
              reference=lambda input, diagonal=0: numpy_function(input, diagonal),
              samples=with_settings(unary(shapes=_MATRICES), {"diagonal": 1}, {"diagonal": second_diagonal}))(kernel)


tril = _triangle("tril", "Tril", jnp.tril, np.tril, "above", -1)
triu = _triangle("triu", "Triu", jnp.triu, np.triu, "below", -2)


def _numpy_band(x, lower, upper):
    rows, cols = np.indices(np.shape(x)[-2:])
    keep = ((lower < 0) | (rows - cols <= lower)) & ((upper < 0) | (cols - rows <= upper))
    return np.where(keep, x, 0)


@op(inputs=("x", "lower", "upper"), scalars=("lower", "upper"), dtypes=ANY, primitive="MatrixBandPart",
    reference=_numpy_band,
    # Bounds as Int32 Tensors, then as Python ints.
    samples=lambda dtype: [Sample((sample.arrays[0], lower, upper)) for sample, (lower, upper) in zip(
        unary(shapes=_MATRICES + ((3, 4),))(dtype),
        ((np.array(1, np.int32), np.array(0, np.int32)), (np.array(-1, np.int32), np.array(1, np.int32)), (0, -1)))])
def matrix_band_part(x, lower, upper):
    """Keep ``lower`` sub-diagonals and ``upper`` super-diagonals (negative: keep all)."""
    _check_matrix("matrix_band_part", x)
    rows = jnp.arange(x.shape[-2])[:, None]
    cols = jnp.arange(x.shape[-1])[None, :]
    keep = ((lower < 0) | (rows - cols <= lower)) & ((upper < 0) | (cols - rows <= upper))
    return jnp.where(keep, x, jnp.zeros((), x.dtype))


def _repeats(op_name, repeats):
    """Static repeats: an int, or a tuple of ints read from a list or a concrete Tensor."""
    counts = static_shape(op_name, "repeats", repeats)
    if any(count < 0 for count in counts):
        raise ValueError(f"For '{op_name}', 'repeats' must be non-negative, but got {counts}.")
    return counts


def _numpy_repeat_interleave(input, repeats, axis=None):
    return np.repeat(np.reshape(input, -1) if axis is None else input, repeats, 0 if axis is None else axis)


@op(mint=spelling("repeat_interleave", "input, repeats, dim=None, *, output_size=None", axis="dim",
                  unused="output_size"),
    dtypes=ANY, reference=_numpy_repeat_interleave, grad_check=False,
    samples=shaped(((2, 3), {"repeats": 2}), ((2, 3), {"repeats": (1, 0, 2), "axis": 1})))
def repeat_interleave(input, repeats, axis=None):
    """Repeat each element ``repeats`` times along ``axis`` (over the flattened tensor if None)."""
    counts = _repeats("repeat_interleave", repeats)
    if axis is None:
        input, axis = input.reshape(-1), 0
    axis = axis_index("repeat_interleave", "axis", axis, input.ndim)
    if len(counts) == 1:
        return jnp.repeat(input, counts[0], axis)
    if len(counts) != input.shape[axis]:
        raise ValueError(f"For 'repeat_interleave', 'repeats' has {len(counts)} entries but axis "
                         f"{axis} has length {input.shape[axis]}.")
    return jnp.repeat(input, np.asarray(counts), axis, total_repeat_length=sum(counts))


@op(inputs="x", dtypes=ANY, reference=lambda x, rep, axis=0: np.repeat(x, rep, axis),
    samples=with_settings(unary(shapes=((3, 4), (5,)), rep=2), {"rep": 3, "axis": 1}, {"rep": 1, "axis": -1}))
def repeat_elements(x, rep, axis=0):
    """Repeat each element ``rep`` times along ``axis``."""
    rep = static_int("repeat_elements", "rep", rep)
    return jnp.repeat(x, rep, axis_index("repeat_elements", "axis", axis, x.ndim))


@op(view=True, dtypes=ANY, method="diagonal",
    reference=lambda input, offset=0, dim1=0, dim2=1: np.diagonal(input, offset, dim1, dim2),
    samples=with_settings(unary(shapes=((3, 4), (2, 3, 4))), {"offset": 1}, {"offset": -1, "dim1": 1, "dim2": 0}))
def diagonal(input, offset=0, dim1=0, dim2=1):
    """The ``offset``-th diagonal of the planes spanned by ``dim1`` and ``dim2`` (last axis)."""
    return jnp.diagonal(input, static_int("diagonal", "offset", offset),
                        axis_index("diagonal", "dim1", dim1, input.ndim),
                        axis_index("diagonal", "dim2", dim2, input.ndim))


@op(dtypes=ANY, primitive="Diag", method="diag", samples=unary(),
    reference=lambda input: np.diag(np.reshape(input, -1)).reshape(np.shape(input) * 2))
def diag(input):
    """A tensor of shape ``input.shape + input.shape`` with ``input`` on its diagonal (a square matrix for a
    1-d ``input``), as MindSpore's ``ops.diag`` and ``Diag``."""
    return jnp.diag(input.reshape(-1)).reshape(input.shape + input.shape)


@op(mint=spelling("diag", "input, diagonal=0"), dtypes=ANY, primitive="DiagExt",
    reference=lambda input, diagonal=0: np.diag(input, diagonal),
    samples=with_settings(unary(shapes=((3,), (3, 4))), {"diagonal": 1}, {"diagonal": -2}))
def diag_ext(input, diagonal=0):
    """A matrix with the 1-d ``input`` on its ``diagonal``-th diagonal, or the ``diagonal``-th diagonal of a
    matrix (``mint.diag``; ``ops.diag`` is MindSpore's ``Diag``, of any rank)."""
    diagonal = static_int("diag", "diagonal", diagonal)
    if input.ndim == 1:
        return jnp.diag(input, diagonal)
    if input.ndim == 2:
        return jnp.diagonal(input, diagonal)
    raise ValueError(f"For 'diag', 'input' must be 1-d or 2-d, but got a {input.ndim}-d tensor of shape "
                     f"{input.shape}.")


def _numpy_reverse_sequence(x, seq_lengths, seq_dim, batch_dim=0):
    result = np.array(x, copy=True)
    for batch, length in enumerate(np.asarray(seq_lengths)):
        index = [builtins.slice(None)] * np.ndim(x)
        index[batch_dim] = batch
        index[seq_dim] = builtins.slice(0, length)
        result[tuple(index)] = np.flip(np.asarray(x)[tuple(index)], seq_dim - (seq_dim > batch_dim))
    return result


@op(inputs=("x", "seq_lengths"), indices="seq_lengths", dtypes=ANY, primitive="ReverseSequence",
    primitive_attrs=("seq_dim", "batch_dim"), method="reverse_sequence", reference=_numpy_reverse_sequence,
    samples=lambda dtype: [Sample((array, np.array(lengths, np.int32)), settings) for array, lengths, settings in (
        (values((3, 4), dtype), [2, 4, 1], {"seq_dim": 1}),
        (values((4, 2, 3), dtype, seed=1), [3, 0], {"seq_dim": 0, "batch_dim": 1}))])
def reverse_sequence(x, seq_lengths, seq_dim, batch_dim=0):
    """Reverse the first ``seq_lengths[b]`` entries along ``seq_dim`` of each batch entry ``b``."""
    seq_dim = axis_index("reverse_sequence", "seq_dim", seq_dim, x.ndim)
    batch_dim = axis_index("reverse_sequence", "batch_dim", batch_dim, x.ndim)
    if seq_dim == batch_dim:
        raise ValueError("For 'reverse_sequence', 'seq_dim' and 'batch_dim' must differ.")
    positions = jnp.arange(x.shape[seq_dim])
    shape = [1] * x.ndim
    shape[batch_dim] = x.shape[batch_dim]
    limit = seq_lengths.reshape(shape)
    shape_seq = [1] * x.ndim
    shape_seq[seq_dim] = x.shape[seq_dim]
    position = positions.reshape(shape_seq)
    source = jnp.where(position < limit, limit - 1 - position, position)
    return jnp.take_along_axis(x, jnp.broadcast_to(source, x.shape), seq_dim)


def depth_to_space(x, block_size):
    """Move (N, C*b*b, H, W) channel blocks into space: (N, C, H*b, W*b) (TensorFlow order)."""
    array = array_of("depth_to_space", "x", x)
    block = static_int("depth_to_space", "block_size", block_size)
    n, channels, height, width = array.shape
    if channels % (block * block):
        raise ValueError(f"For 'depth_to_space', the channels ({channels}) must be divisible by "
                         f"block_size**2 ({block * block}).")
    out = array.reshape(n, block, block, channels // (block * block), height, width)
    out = out.transpose(0, 3, 4, 1, 5, 2)
    return wrap(out.reshape(n, channels // (block * block), height * block, width * block))


def _numpy_space_to_batch_nd(input_x, block_size, paddings):
    block = (block_size,) * 2 if isinstance(block_size, int) else tuple(block_size)
    lead = input_x.ndim - len(block)
    padded = np.pad(input_x, [(0, 0)] * lead + [tuple(pair) for pair in paddings])
    batch = []
    for offset in np.ndindex(*block):  # the last block dimension fastest
        index = tuple(builtins.slice(start, None, step) for start, step in zip(offset, block))
        batch.append(padded[(Ellipsis,) + index])
    return np.concatenate(batch, axis=0)


@op(inputs="input_x", dtypes=ANY, primitive="SpaceToBatchND",
    primitive_attrs=(("block_shape", "block_size"), "paddings"), inline=True, grad_check=False,
    reference=_numpy_space_to_batch_nd,
    samples=shaped(((1, 2, 4, 4), {"block_size": 2, "paddings": ((0, 0), (0, 0))}),
                   ((2, 1, 3, 4), {"block_size": (3, 2), "paddings": ((0, 3), (1, 1))})))
def space_to_batch_nd(input_x, block_size, paddings):
    """Split the last M spatial dims into ``block_size`` blocks moved into the batch (TensorFlow order).

    ``block_size`` is an int (both of the 2 spatial dims of an NCHW input) or M ints; ``paddings`` is M
    ``[before, after]`` pairs, applied first. Output batch index ``offset * N + n``, the block offset counted
    with the last spatial dim fastest.

    Example:
        >>> from sporax import ops, Tensor
        >>> ops.space_to_batch_nd(Tensor([[[[1, 2], [3, 4]]]]), 2, [[0, 0], [0, 0]]).shape
        (4, 1, 1, 1)
    """
    array = input_x
    if isinstance(block_size, int):
        block = (block_size, block_size)
    else:
        block = tuple(int(value) for value in block_size)
    pads = [tuple(int(value) for value in pair) for pair in paddings]
    rank = len(block)
    if len(pads) != rank or any(len(pair) != 2 for pair in pads):
        raise ValueError(f"For 'space_to_batch_nd', 'paddings' must hold {rank} [before, after] pairs, "
                         f"one per block dimension, but got {paddings}.")
    if array.ndim < rank + 1 or any(b < 1 for b in block) or any(p < 0 for pair in pads for p in pair):
        raise ValueError(f"For 'space_to_batch_nd', expected an input of rank > {rank}, block_size >= 1 and "
                         f"paddings >= 0, got shape {array.shape}, block_size {block_size}, paddings {paddings}.")
    lead = array.ndim - rank
    array = jnp.pad(array, [(0, 0)] * lead + pads)
    spatial = array.shape[lead:]
    if any(size % b for size, b in zip(spatial, block)):
        raise ValueError(f"For 'space_to_batch_nd', the padded spatial shape {spatial} must be divisible by "
                         f"block_size {block}.")
    split = array.shape[:lead] + sum(((size // b, b) for size, b in zip(spatial, block)), ())
    array = array.reshape(split)
    block_axes = [lead + 2 * i + 1 for i in range(rank)]
    kept = [axis for axis in range(array.ndim) if axis not in block_axes]
    array = array.transpose(block_axes + kept)
    batch = array.shape[rank] * math.prod(block)
    return array.reshape((batch,) + array.shape[rank + 1:])
