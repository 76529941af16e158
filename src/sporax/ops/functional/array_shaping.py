"""Array shaping ops: atleast_nd, column/row/depth stacks, rot90, segment reductions,
triangle indices, diagonal embedding, sequence masks, channel shuffle.

Example:
    >>> from sporax import ops, Tensor
    >>> ops.rot90(Tensor([[1, 2], [3, 4]]), 1, (0, 1)).asnumpy().tolist()
    [[2, 4], [1, 3]]

The stacks, ``dsplit``, ``t``, ``ravel``, ``expand_as``, ``view_as``, ``rot90``, ``channel_shuffle``,
``diag_embed``, ``diagflat``, ``take``, ``contiguous`` and the unsorted segment reductions are op-table entries
(``sporax.ops.op_table``) with NumPy references; ``numel``, ``tril_indices``/``triu_indices``,
``sequence_mask`` and ``unique_consecutive`` are ``eager`` entries (a Python count, sizes or values read on the
host). ``atleast_1d``/``2d``/``3d`` take a Tensor or a list of them, and stay functions.
"""
import inspect

import jax
import jax.numpy as jnp
import numpy as np

from sporax.core import dtype as mstype
from sporax.ops._dispatch import array_of
from sporax.ops.functional._args import axes_tuple, axis_index, kernel, numpy_dtype, static_int
from sporax.ops.functional.array_joining import _promoted, _tensor_split
from sporax.ops.functional.runtime_checks import refuse_when_known
from sporax.ops.functional.scatter_products import segment_product
from sporax.ops.face_inputs import REAL_NUMBERS, accepting, concrete, primitive_accepting
from sporax.ops.op_table import ANY, Sample, op
from sporax.ops.samples import operands, sequences, shaped, values, without


def _tensor_or_tensors(op_name, arg_name, value):
    """The reader of ``atleast_*``'s ``inputs``: one Tensor's array, or a tuple of arrays of a tuple or list of
    Tensors (the kernel answers in kind)."""
    if isinstance(value, (tuple, list)):
        return tuple(array_of(op_name, f"{arg_name}[{index}]", item) for index, item in enumerate(value))
    return array_of(op_name, arg_name, value)


def _at_least_entry(function, numpy_function, doc):
    """The entry ``atleast_<n>d``: ``function`` of a Tensor, or of each Tensor of a tuple or list."""

    def kernel(inputs):
        if isinstance(inputs, tuple):
            return tuple(function(array) for array in inputs)
        return function(inputs)

    def reference(inputs):
        if isinstance(inputs, tuple):
            return tuple(numpy_function(array) for array in inputs)
        return numpy_function(inputs)

    def make_samples(dtype):
        return [Sample((values((), dtype),)), Sample(((values((3,), dtype, seed=1), values((2, 2), dtype, seed=2)),))]

    kernel.__name__ = kernel.__qualname__ = function.__name__
    kernel.__doc__ = doc
    kernel.__module__ = __name__
    return op(inputs="inputs", dtypes=ANY, input_dtypes={"inputs": _tensor_or_tensors}, inline=True,
              grad_check=False, samples=make_samples, reference=reference)(kernel)


_AT_LEAST_EXAMPLE = """

    Example:
        >>> from sporax import Tensor, ops
        >>> [t.shape for t in ops.{name}([Tensor(1.0), Tensor([1.0, 2.0])])]
        [{shapes}]
"""
atleast_1d = _at_least_entry(jnp.atleast_1d, np.atleast_1d, "``inputs`` (a Tensor or a list of them) with at least 1 "
                             "dimension." + _AT_LEAST_EXAMPLE.format(name="atleast_1d", shapes="(1,), (2,)"))
atleast_2d = _at_least_entry(jnp.atleast_2d, np.atleast_2d, "``inputs`` (a Tensor or a list of them) with at least 2 "
                             "dimensions." + _AT_LEAST_EXAMPLE.format(name="atleast_2d", shapes="(1, 1), (1, 2)"))
atleast_3d = _at_least_entry(jnp.atleast_3d, np.atleast_3d, "``inputs`` (a Tensor or a list of them) with at least 3 "
                             "dimensions." + _AT_LEAST_EXAMPLE.format(name="atleast_3d", shapes="(1, 1, 1), (1, 2, 1)"))


@op(inputs="tensors", sequences="tensors", dtypes=ANY, inline=True, grad_check=False,
    samples=sequences((((3,), (3,)), {}), (((2, 3), (2, 1)), {})), reference=lambda tensors: np.column_stack(tensors))
def column_stack(tensors):
    """Stack 1-d tensors as columns (2-d tensors are joined along axis 1)."""
    return jnp.column_stack(_promoted(tensors))


@op(inputs="tensors", sequences="tensors", dtypes=ANY, inline=True, grad_check=False,
    samples=sequences((((3,), (3,)), {}), (((2, 3), (1, 3)), {})), reference=lambda tensors: np.vstack(tensors))
def row_stack(tensors):
    """Stack tensors as rows (along axis 0; 1-d tensors become rows)."""
    return jnp.vstack(_promoted(tensors))


@op(inputs="tensors", sequences="tensors", dtypes=ANY, mint="dstack", inline=True, grad_check=False,
    samples=sequences((((2, 3), (2, 3)), {}), (((1, 2, 1), (1, 2, 3)), {})), reference=lambda tensors: np.dstack(tensors))
def dstack(tensors):
    """Stack tensors along the third axis (depth)."""
    return jnp.dstack(_promoted(tensors))


@op(dtypes=ANY, method="dsplit", inline=True, grad_check=False,
    samples=shaped(((2, 3, 4), {"indices_or_sections": 2}), ((1, 2, 5), {"indices_or_sections": (1, 3)})),
    reference=lambda input, indices_or_sections: np.array_split(input, indices_or_sections, 2))
def dsplit(input, indices_or_sections):
    """Split a tensor of at least 3 dimensions along axis 2."""
    return _tensor_split("dsplit", input, indices_or_sections, 2)


@op(dtypes=ANY, mint="t", inline=True, samples=shaped(((3, 4), {}), ((5,), {}), ((), {})),
    reference=lambda input: np.transpose(input))
def t(input):
    """Transpose a 2-d tensor (a 1-d tensor is returned unchanged)."""
    if input.ndim > 2:
        raise ValueError(f"For 't', the input must be at most 2-d, but got shape {input.shape}.")
    return input.T


@op(dtypes=ANY, mint="ravel", inline=True, samples=shaped(((3, 4), {}), ((2, 1, 3), {}), ((), {})),
    reference=np.ravel)
def ravel(input):
    """The elements of ``input`` as a 1-d tensor."""
    return input.reshape(-1)


@op(dtypes=ANY, eager=True, grad_check=False, samples=shaped(((3, 4), {}), ((), {})), reference=np.size)
def numel(input):
    """The number of elements of ``input`` (an int, from its static shape)."""
    return int(np.prod(input.shape, dtype=np.int64))


@op(inputs=("input", "other"), dtypes=ANY, inline=True, samples=operands((((3, 1), (2, 3, 4)), {}), (((4,), (3, 4)), {})),
    reference=lambda input, other: np.broadcast_to(input, np.shape(other)))
def expand_as(input, other):
    """Broadcast ``input`` to the shape of ``other``."""
    return jnp.broadcast_to(input, other.shape)


@op(inputs=("input", "other"), dtypes=ANY, inline=True, samples=operands((((3, 4), (2, 6)), {}), (((6,), (2, 3, 1)), {})),
    reference=lambda input, other: np.reshape(input, np.shape(other)))
def view_as(input, other):
    """Reshape ``input`` to the shape of ``other``."""
    return input.reshape(other.shape)


@op(inputs=("input", "index"), indices="index", dtypes=ANY, method="take", mint="take",
    reference=lambda input, index: np.take(np.reshape(input, -1), index),
    samples=lambda dtype: [Sample((values((3, 4), dtype), np.array([[0, 11], [5, 2]], np.int32))),
                           Sample((values((5,), dtype, seed=1), np.array(3, np.int32)))])
def take(input, index):
    """Elements of the flattened ``input`` at ``index`` (the result has ``index``'s shape; zeros out of range)."""
    return jnp.take(input.reshape(-1), index, mode="fill", fill_value=0)


@op(dtypes=ANY, method="rot90", inline=True,
    samples=shaped(((3, 4), {"k": 1, "dims": (0, 1)}), ((2, 3, 4), {"k": -1, "dims": (2, 0)}),
                   ((3, 4), {"k": 2, "dims": (1, 0)})),
    reference=lambda input, k, dims: np.rot90(input, k, dims))
def rot90(input, k, dims):
    """Rotate ``input`` by 90 degrees ``k`` times in the plane of ``dims``."""
    axes = axes_tuple("rot90", "dims", dims, input.ndim)
    if len(axes) != 2 or axes[0] == axes[1]:
        raise ValueError(f"For 'rot90', 'dims' must be two different axes, but got {dims!r}.")
    return jnp.rot90(input, static_int("rot90", "k", k), axes)


def _numpy_channel_shuffle(x, groups):
    n, channels = x.shape[:2]
    return np.swapaxes(x.reshape((n, groups, channels // groups) + x.shape[2:]), 1, 2).reshape(x.shape)


# MindSpore 2.10's ChannelShuffle refuses Bool and BFloat16
@op(inputs="x", dtypes=ANY, inline=True,
    input_dtypes={"x": primitive_accepting("ChannelShuffle", "x", REAL_NUMBERS, keep=True)},
    samples=without(("bfloat16",), shaped(((2, 6, 3), {"groups": 3}), ((1, 4, 2, 2), {"groups": 2}))),
    reference=_numpy_channel_shuffle)
def channel_shuffle(x, groups):
    """Shuffle the channels (axis 1) of ``x`` across ``groups``."""
    groups = static_int("channel_shuffle", "groups", groups)
    if x.ndim < 3 or groups <= 0 or x.shape[1] % groups:
        raise ValueError(f"For 'channel_shuffle', the input must be at least 3-d with channels divisible "
                         f"by groups={groups}, but got a {x.dtype} Tensor of shape {x.shape}.")
    n, channels = x.shape[:2]
    out = x.reshape((n, groups, channels // groups) + x.shape[2:])
    return jnp.swapaxes(out, 1, 2).reshape(x.shape)


# --- segment reductions ----------------------------------------------------------------------
_SEGMENT = {"sum": jax.ops.segment_sum, "max": jax.ops.segment_max, "min": jax.ops.segment_min,
            "prod": segment_product}


@kernel("kind", "count")
def _segment(values, ids, kind, count):
    flat_ids = ids.reshape(-1)
    flat_values = values.reshape((flat_ids.shape[0],) + values.shape[ids.ndim:])
    out = _SEGMENT[kind](flat_values, flat_ids, count)
    if kind in ("max", "min"):
        # Empty segments hold the dtype's finite lowest (max) or highest (min) value, as in MindSpore.
        info = jnp.finfo(values.dtype) if jnp.issubdtype(values.dtype, jnp.floating) else jnp.iinfo(values.dtype)
        members = jax.ops.segment_sum(jnp.ones(flat_ids.shape, np.int32), flat_ids, count)
        empty = (members == 0).reshape((count,) + (1,) * (out.ndim - 1))
        out = jnp.where(empty, jnp.asarray(info.min if kind == "max" else info.max, values.dtype), out)
    return out


def _segment_reduce(op_name, kind, values, ids, num_segments):
    if values.shape[:ids.ndim] != ids.shape:
        raise ValueError(f"For '{op_name}', the shape of 'segment_ids' {ids.shape} must be a prefix of "
                         f"the shape of 'x' {values.shape}.")
    return _segment(values, ids, kind, static_int(op_name, "num_segments", num_segments))


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

    refuse_when_known(check, jnp.max(ids))


def _numpy_segment(kind):
    """The NumPy reference of a segment reduction (every segment of the samples has a member)."""
    reduce = {"sum": np.sum, "max": np.max, "min": np.min, "prod": np.prod}[kind]

    def reference(x, segment_ids, num_segments):
        ids = np.asarray(segment_ids)
        return np.stack([reduce(np.asarray(x)[ids == segment], axis=0) if np.any(ids == segment)
                         else np.zeros(np.shape(x)[ids.ndim:]) for segment in range(num_segments)])

    return reference


def _segment_samples(dtype):
    return [Sample((values((5, 2), dtype), np.array([2, 0, 1, 0, 2], np.int32)), {"num_segments": 3}),
            Sample((values((2, 3), dtype, seed=1), np.array([[1, 0, 1], [0, 1, 1]], np.int32)), {"num_segments": 2})]


def _segment_op(name, first, kind, doc, method=None, primitive=None, grad_check=False):
    """Declare the segment reduction ``name(first, segment_ids, num_segments)`` of ``kind``."""

    signature = inspect.Signature([inspect.Parameter(parameter, inspect.Parameter.POSITIONAL_OR_KEYWORD)
                                   for parameter in (first, "segment_ids", "num_segments")])

    def kernel(*arguments, **named):  # MindSpore names the first input ``input_x`` or ``x``
        x, segment_ids, num_segments = signature.bind(*arguments, **named).arguments.values()
        return _segment_reduce(name, kind, x, segment_ids, num_segments)

    kernel.__name__ = kernel.__qualname__ = name
    kernel.__doc__, kernel.__signature__ = doc, signature
    return op(inputs=(first, "segment_ids"), indices="segment_ids", dtypes=ANY, primitive=primitive, method=method,
              value_check=lambda values, ids, num_segments: _check_segment_ids(name, ids, num_segments),
              grad_check=grad_check, samples=_segment_samples, reference=_numpy_segment(kind))(kernel)


unsorted_segment_sum = _segment_op(
    "unsorted_segment_sum", "input_x", "sum", "Sum the slices of ``input_x`` that share a segment id (negative ids "
    "are dropped).", primitive="UnsortedSegmentSum", grad_check=True)
unsorted_segment_max = _segment_op("unsorted_segment_max", "x", "max", "Maximum of the slices of ``x`` that share a "
                                   "segment id.", method="unsorted_segment_max", primitive="UnsortedSegmentMax")
unsorted_segment_min = _segment_op("unsorted_segment_min", "x", "min", "Minimum of the slices of ``x`` that share a "
                                   "segment id.", method="unsorted_segment_min", primitive="UnsortedSegmentMin")
unsorted_segment_prod = _segment_op("unsorted_segment_prod", "x", "prod", "Product of the slices of ``x`` that share "
                                    "a segment id.", method="unsorted_segment_prod", primitive="UnsortedSegmentProd",
                                    grad_check=True)


# --- triangles, diagonals, masks --------------------------------------------------------------
def _triangle_indices(op_name, function, row, col, offset, dtype):
    row, col = static_int(op_name, "row", row), static_int(op_name, "col", col)
    rows, cols = function(row, static_int(op_name, "offset", offset), col)
    return jnp.asarray(np.stack([rows, cols]).astype(numpy_dtype(op_name, "dtype", dtype)))


def _triangle_samples(dtype):
    return [Sample((), {"row": 3, "col": 4, "dtype": mstype.int64}),
            Sample((), {"row": 4, "col": 3, "offset": -1, "dtype": mstype.int32})]


def _numpy_triangle(function):
    return lambda row, col, offset=0, dtype=None: np.stack(function(row, offset, col))


# Sizes read on the host, no Tensor input: ``eager`` entries. Their Primitives default to Int32, the functions
# to Int64 (as MindSpore's); the samples name the dtype.
@op(inputs=(), dtypes=ANY, primitive="TrilIndices", primitive_attrs=("row", "col", "offset", ("dtype", "dtype", mstype.int32)),
    eager=True, grad_check=False, samples=_triangle_samples, reference=_numpy_triangle(np.tril_indices))
def tril_indices(row, col, offset=0, *, dtype=mstype.int64):
    """The 2 x n coordinates of the lower triangle of a ``row`` x ``col`` matrix (Int64)."""
    return _triangle_indices("tril_indices", np.tril_indices, row, col, offset, dtype)


@op(inputs=(), dtypes=ANY, primitive="TriuIndices", primitive_attrs=("row", "col", "offset", ("dtype", "dtype", mstype.int32)),
    eager=True, grad_check=False, samples=_triangle_samples, reference=_numpy_triangle(np.triu_indices))
def triu_indices(row, col, offset=0, *, dtype=mstype.int64):
    """The 2 x n coordinates of the upper triangle of a ``row`` x ``col`` matrix (Int64)."""
    return _triangle_indices("triu_indices", np.triu_indices, row, col, offset, dtype)


def _numpy_diag_embed(input, offset=0, dim1=-2, dim2=-1):
    size = input.shape[-1] + abs(offset)
    square = np.zeros(input.shape[:-1] + (size, size))
    for index in range(input.shape[-1]):
        square[..., index + max(-offset, 0), index + max(offset, 0)] = input[..., index]
    return np.moveaxis(square, (-2, -1), (dim1 % (input.ndim + 1), dim2 % (input.ndim + 1)))


# MindSpore 2.10's diag_embed checks its input's dtype in Python (Bool and BFloat16 refused)
_DIAG_EMBED_INPUT = accepting(REAL_NUMBERS, "For 'diag_embed', the dtype of 'input' must be int8, int16, int32, int64, "
                              "uint8, uint16, uint32, uint64, float16, float32 or float64, but got '{got}'.", keep=True)


@op(dtypes=ANY, inline=True, input_dtypes={"input": _DIAG_EMBED_INPUT},
    samples=without(("bfloat16",), shaped(((2, 3), {}), ((3,), {"offset": 1}),
                                          ((2, 3), {"offset": -1, "dim1": 0, "dim2": 2}))),
    reference=_numpy_diag_embed)
def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    """Matrices with the last axis of ``input`` on their ``offset``-th diagonal (axes dim1, dim2)."""
    offset = static_int("diag_embed", "offset", offset)
    if input.ndim == 0:  # MindSpore 2.10's ValueError (its output has one more dimension than ``input``)
        raise ValueError(f"For 'diag_embed', 'dim1' must be in range of [-1, 0], but got {dim1}.\nFor 'diag_embed', "
                         "'input' must have a last dimension to put on the diagonal, but got a 0-d Tensor.")
    length = input.shape[-1]
    size = length + abs(offset)
    rows = np.arange(length) + max(-offset, 0)
    cols = np.arange(length) + max(offset, 0)
    square = jnp.zeros(input.shape[:-1] + (size, size), input.dtype).at[..., rows, cols].set(input)
    ndim = input.ndim + 1
    first = axis_index("diag_embed", "dim1", dim1, ndim)
    second = axis_index("diag_embed", "dim2", dim2, ndim)
    if first == second:
        raise ValueError("For 'diag_embed', 'dim1' and 'dim2' must differ.")
    return jnp.moveaxis(square, (-2, -1), (first, second))


@op(dtypes=ANY, method="diagflat", inline=True, samples=shaped(((3,), {}), ((2, 2), {"offset": 1}), ((2,), {"offset": -2})),
    reference=lambda input, offset=0: np.diagflat(input, offset))
def diagflat(input, offset=0):
    """A 2-d matrix with the flattened ``input`` on its ``offset``-th diagonal."""
    return jnp.diagflat(input, static_int("diagflat", "offset", offset))


def _numpy_sequence_mask(lengths, maxlen=None):
    return np.arange(np.max(lengths, initial=0) if maxlen is None else maxlen) < np.expand_dims(lengths, -1)


# Without ``maxlen`` the output length is the largest length: read on the host (``eager``).
@op(inputs="lengths", indices="lengths", dtypes=ANY, eager=True, grad_check=False, reference=_numpy_sequence_mask,
    samples=lambda dtype: [Sample((np.array([1, 3, 0], np.int32),), {"maxlen": 4}),
                           Sample((np.array([[2, 1], [3, 2]], np.int32),))])
def sequence_mask(lengths, maxlen=None):
    """Bool masks ``mask[..., j] = j < lengths[...]`` of length ``maxlen`` (default: max length)."""
    if maxlen is None:
        maxlen = int(concrete("sequence_mask", "lengths", lengths).max(initial=0))
    maxlen = static_int("sequence_mask", "maxlen", maxlen)
    return jnp.arange(maxlen) < lengths[..., None]


def _numpy_unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    flat = np.reshape(input, -1)
    starts = [index for index in range(flat.size) if index == 0 or flat[index] != flat[index - 1]]
    outputs = [flat[starts]]
    if return_inverse:
        outputs.append((np.cumsum(np.isin(np.arange(flat.size), starts)) - 1).reshape(np.shape(input)))
    if return_counts:
        outputs.append(np.diff(starts + [flat.size]))
    return outputs[0] if len(outputs) == 1 else tuple(outputs)


@op(dtypes=ANY, method="unique_consecutive", mint="unique_consecutive", eager=True, grad_check=False,
    reference=_numpy_unique_consecutive,
    samples=lambda dtype: [Sample((np.array([1, 1, 2, 2, 2, 1, 3], values((), dtype).dtype),)),
                           Sample((np.array([[0.5, 0.5], [-1, -1]], values((), dtype).dtype),),
                                  {"return_inverse": True, "return_counts": True})])
def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """Collapse runs of equal consecutive elements (flattened when ``dim`` is None)."""
    values = concrete("unique_consecutive", "input", input)
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
    results = [jnp.asarray(output)]
    if return_inverse:
        results.append(jnp.asarray(group.reshape(values.shape if dim is None else -1).astype(np.int64)))
    if return_counts:
        results.append(jnp.asarray(np.bincount(group).astype(np.int64)))
    return results[0] if len(results) == 1 else tuple(results)


@op(dtypes=ANY, inline=True, samples=shaped(((3, 4), {})), reference=lambda input: np.array(input))
def contiguous(input):
    """A Tensor with ``input``'s values in row-major layout; sporax arrays always are, so its values as is.

    Example:
        >>> from sporax import Tensor, ops
        >>> ops.contiguous(Tensor([[1, 2], [3, 4]]).T).asnumpy().tolist()
        [[1, 3], [2, 4]]
    """
    return input
