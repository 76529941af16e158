"""MindSpore's sparse Primitives on component Tensors (``mindspore.ops.operations.sparse_ops``), op-table entries.

Two layouts, as MindSpore's kernels take them:

- a COO sparse tensor as ``indices`` (N, rank), ``values`` (N,) and its dense shape (``SparseDenseCwiseMul``,
  ``SparseToDenseV2``, ``SparseAddmm``);
- a CSR sparse matrix, possibly batched, as ``dense_shape`` ((rows, cols) or (batch, rows, cols)),
  ``batch_pointers`` (batch + 1: where each batch's entries start), ``row_pointers`` (batch * (rows + 1): each
  batch's row starts, counted within the batch), ``col_indices`` and ``values`` (``SparseMatrixNNZ``,
  ``CSRSparseMatrixToDense``, ``SparseMatrixMatMul``, ``SparseMatrixTranspose`` ...).

A dense shape is a setting: a tuple, or a Tensor read once (inside a compiled function such a Tensor makes the
function run eagerly). The entries are Primitive-only (MindSpore has no functional names for them); their
classes are in ``sporax.ops.operations.sparse_component_ops``.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.ops.operations.sparse_component_ops import SparseDenseCwiseMul
    >>> indices = Tensor(np.array([[0, 1], [1, 0]], np.int64))
    >>> SparseDenseCwiseMul()(indices, Tensor([2.0, 3.0]), (2, 2), Tensor([10.0, 100.0])).asnumpy().tolist()
    [200.0, 30.0]
"""
import math

import jax
import jax.numpy as jnp
import numpy as np

from sporax.core import dtype as mstype
from sporax.ops import op_table, samples
from sporax.ops._dispatch import promote_types


def _shape(dense_shape):
    return tuple(int(dim) for dim in np.asarray(dense_shape).reshape(-1))


# --- COO components ---------------------------------------------------------------------------
_COO_INDICES = np.array([[0, 1], [1, 2], [2, 0]], np.int64)


def _dense_at_indices(op_name, indices, shape, dense):
    """``dense`` broadcast to ``shape`` and read at each row of ``indices``."""
    try:
        fits = np.broadcast_shapes(tuple(dense.shape), shape) == shape
    except ValueError:
        fits = False
    if not fits:
        raise ValueError(f"For '{op_name}', 'x2' of shape {tuple(dense.shape)} must broadcast to the sparse "
                         f"tensor's shape {shape}.")
    return jnp.broadcast_to(dense, shape)[tuple(indices[:, axis] for axis in range(len(shape)))]


def _cwise_samples(dense_shape):
    def make(dtype):
        return [op_table.Sample((_COO_INDICES, samples.values((3,), dtype), samples.values(dense_shape, dtype, 0.5, 2.0,
                                                                                           seed=1)),
                                {"x1_shape": (3, 4)})]

    return make


def _cwise_reference(combine):
    def reference(x1_indices, x1_values, x2, x1_shape):
        return combine(x1_values, np.broadcast_to(x2, _shape(x1_shape))[tuple(np.asarray(x1_indices).T)])

    return reference


def _cwise(op_name, combine):
    def kernel(x1_indices, x1_values, x1_shape, x2):
        gathered = _dense_at_indices(op_name, x1_indices, _shape(x1_shape), x2)
        dtype = promote_types(x1_values.dtype, x2.dtype)
        return combine(x1_values.astype(dtype), gathered.astype(dtype))

    return kernel


_CWISE = dict(inputs=("x1_indices", "x1_values", "x2"), dtypes=op_table.NUMBER, indices="x1_indices", grad_check=False)


@op_table.op(primitive="SparseDenseCwiseAdd", samples=_cwise_samples((4,)), reference=_cwise_reference(np.add),
             **_CWISE)
def sparse_dense_cwise_add(x1_indices, x1_values, x1_shape, x2):
    """``SparseDenseCwiseAdd``: each stored value plus ``x2`` (broadcast to ``x1_shape``) at its index."""
    return _cwise("SparseDenseCwiseAdd", jnp.add)(x1_indices, x1_values, x1_shape, x2)


@op_table.op(primitive="SparseDenseCwiseMul", samples=_cwise_samples((3, 4)),
             reference=_cwise_reference(np.multiply), **_CWISE)
def sparse_dense_cwise_mul(x1_indices, x1_values, x1_shape, x2):
    """``SparseDenseCwiseMul``: each stored value times ``x2`` (broadcast to ``x1_shape``) at its index."""
    return _cwise("SparseDenseCwiseMul", jnp.multiply)(x1_indices, x1_values, x1_shape, x2)


@op_table.op(primitive="SparseDenseCwiseDiv", samples=_cwise_samples((3, 1)), reference=_cwise_reference(np.divide),
             **dict(_CWISE, dtypes=op_table.TO_FLOAT))
def sparse_dense_cwise_div(x1_indices, x1_values, x1_shape, x2):
    """``SparseDenseCwiseDiv``: each stored value divided by ``x2`` (broadcast to ``x1_shape``) at its index (true
    division: Int/Bool operands compute in Float32)."""
    return _cwise("SparseDenseCwiseDiv", jnp.divide)(x1_indices, x1_values, x1_shape, x2)


def _check_indices(indices, values, default_value, output_shape, validate_indices=True):
    """MindSpore's ``validate_indices``: every index inside ``output_shape`` and none twice."""
    if not validate_indices or isinstance(indices, jax.core.Tracer):
        return
    shape = _shape(output_shape)
    points = np.asarray(indices).reshape(len(np.asarray(indices)), -1)
    if points.size and ((points < 0).any() or (points >= np.array(shape)[: points.shape[1]]).any()):
        raise ValueError(f"For 'SparseToDenseV2', every index must lie inside output_shape {shape}, but got "
                         f"{points.tolist()}.")
    if len({tuple(point) for point in points.tolist()}) != len(points):
        raise ValueError("For 'SparseToDenseV2', 'indices' must not repeat an index (or pass validate_indices=False).")


def _to_dense_v2_samples(dtype):
    return [op_table.Sample((_COO_INDICES, samples.values((3,), dtype), samples.values((), dtype, seed=1)),
                            {"output_shape": (3, 4)})]


def _to_dense_v2_reference(indices, values, default_value, output_shape, validate_indices=True):
    dense = np.full(_shape(output_shape), default_value, np.result_type(values, default_value))
    dense[tuple(np.asarray(indices).reshape(len(indices), -1).T)] = values
    return dense


@op_table.op(inputs=("indices", "values", "default_value"), dtypes=op_table.ANY, indices="indices",
             primitive="SparseToDenseV2", primitive_attrs=("validate_indices",), value_check=_check_indices,
             samples=_to_dense_v2_samples, reference=_to_dense_v2_reference, grad_check=False)
def sparse_to_dense_v2(indices, output_shape, values, default_value, validate_indices=True):
    """``SparseToDenseV2``: the dense Tensor of ``output_shape`` holding ``values`` at ``indices`` ((N, rank), or
    (N,) for rank 1) and ``default_value`` elsewhere; ``values`` may be one scalar for every index."""
    shape = _shape(output_shape)
    points = indices.reshape(indices.shape[0], -1)
    dense = jnp.full(shape, default_value, values.dtype)
    return dense.at[tuple(points[:, axis] for axis in range(points.shape[1]))].set(values)


def _addmm_samples(dtype):
    # positive operands: no cancellation in the sum, so half precision keeps its relative accuracy
    values = samples.values((3,), dtype, 0.5, 2.0)
    x2, x3 = samples.values((4, 2), dtype, 0.5, 2.0, seed=1), samples.values((3, 2), dtype, 0.5, 2.0, seed=2)
    alpha, beta = samples.values((1,), dtype, 0.5, 2.0, seed=3), samples.values((1,), dtype, 0.5, 2.0, seed=4)
    return [op_table.Sample((_COO_INDICES, values, x2, x3, alpha, beta), {"sparse_shape": (3, 4)})]


def _addmm_reference(indices, values, x2_dense, x3_dense, alpha, beta, sparse_shape):
    matrix = np.zeros(_shape(sparse_shape), np.result_type(values, np.float64))
    np.add.at(matrix, tuple(np.asarray(indices).T), values)
    return alpha * (matrix @ x2_dense) + beta * x3_dense


@op_table.op(inputs=("indices", "values", "x2_dense", "x3_dense", "alpha", "beta"), dtypes=op_table.NUMBER,
             indices="indices", primitive="SparseAddmm", samples=_addmm_samples, reference=_addmm_reference,
             grad_check=False)
def sparse_addmm(indices, values, sparse_shape, x2_dense, x3_dense, alpha, beta):
    """``SparseAddmm``: ``alpha * (S @ x2_dense) + beta * x3_dense`` for the 2-D sparse ``S`` of ``indices``,
    ``values`` and ``sparse_shape``."""
    rows, height = _shape(sparse_shape)
    if x2_dense.ndim != 2 or x2_dense.shape[0] != height:
        raise ValueError(f"For 'SparseAddmm', 'x2_dense' must be 2-D with {height} rows, but got shape "
                         f"{tuple(x2_dense.shape)}.")
    product = jax.ops.segment_sum(values[:, None] * x2_dense[indices[:, 1]], indices[:, 0], num_segments=rows)
    return alpha * product + beta * x3_dense


# --- segment reductions of gathered rows, and softmax over the last axis ------------------------------------
def _segment_samples(dtype):
    x = samples.values((4, 2), dtype)
    return [op_table.Sample((x, np.array([0, 2, 3, 2], np.int64), np.array([0, 0, 2, 2], np.int64)),
                            {"num_segments": 4})]


def _segment_reference(scale):
    def reference(x, indices, segment_ids, num_segments):
        total = np.zeros((_count(num_segments),) + np.shape(x)[1:], np.result_type(x, np.float64))
        np.add.at(total, np.asarray(segment_ids), np.asarray(x)[np.asarray(indices)])
        counts = np.bincount(np.asarray(segment_ids), minlength=_count(num_segments))
        return total / scale(np.maximum(counts, 1)).reshape((-1,) + (1,) * (total.ndim - 1))

    return reference


def _count(num_segments):
    return int(np.asarray(num_segments).reshape(-1)[0])


def _segment_reduction(x, indices, segment_ids, num_segments, scale):
    count = _count(num_segments)
    total = jax.ops.segment_sum(x[indices], segment_ids, num_segments=count)
    if scale is None:
        return total
    counts = jax.ops.segment_sum(jnp.ones(segment_ids.shape, x.dtype), segment_ids, num_segments=count)
    return total / scale(jnp.maximum(counts, 1)).reshape((-1,) + (1,) * (total.ndim - 1))


_SEGMENT = dict(inputs=("x", "indices", "segment_ids"), indices=("indices", "segment_ids"), samples=_segment_samples,
                grad_check=False)


@op_table.op(dtypes=op_table.NUMBER, primitive="SparseSegmentSumWithNumSegments",
             reference=_segment_reference(lambda counts: np.ones_like(counts)), **_SEGMENT)
def sparse_segment_sum_with_num_segments(x, indices, segment_ids, num_segments):
    """``SparseSegmentSumWithNumSegments``: row ``s`` of the result sums the rows ``x[indices[k]]`` whose
    ``segment_ids[k]`` is ``s``; ``num_segments`` rows (empty segments are zeros)."""
    return _segment_reduction(x, indices, segment_ids, num_segments, None)


@op_table.op(dtypes=op_table.FLOAT, primitive="SparseSegmentMeanWithNumSegments",
             reference=_segment_reference(lambda counts: counts), **_SEGMENT)
def sparse_segment_mean_with_num_segments(x, indices, segment_ids, num_segments):
    """``SparseSegmentMeanWithNumSegments``: the mean of the rows ``x[indices[k]]`` of each segment ``s``;
    ``num_segments`` rows (empty segments are zeros)."""
    return _segment_reduction(x, indices, segment_ids, num_segments, lambda counts: counts)


@op_table.op(dtypes=op_table.FLOAT, primitive="SparseSegmentSqrtNWithNumSegments",
             reference=_segment_reference(np.sqrt), **_SEGMENT)
def sparse_segment_sqrt_n_with_num_segments(x, indices, segment_ids, num_segments):
    """``SparseSegmentSqrtNWithNumSegments``: the sum of the rows ``x[indices[k]]`` of each segment ``s`` divided
    by the square root of their number; ``num_segments`` rows (empty segments are zeros)."""
    return _segment_reduction(x, indices, segment_ids, num_segments, jnp.sqrt)


def _softmax_samples(dtype):
    indices = np.array([[0, 0], [0, 3], [2, 1], [2, 2], [2, 3]], np.int64)
    return [op_table.Sample((indices, samples.values((5,), dtype)), {"shape": (3, 4)})]


def _softmax_reference(indices, values, shape):
    groups = [tuple(row) for row in np.asarray(indices)[:, :-1].tolist()]
    values = np.asarray(values, np.float64)
    result = np.empty_like(values)
    for group in set(groups):
        members = np.array([found == group for found in groups])
        exponent = np.exp(values[members] - values[members].max())
        result[members] = exponent / exponent.sum()
    return result


@op_table.op(inputs=("indices", "values"), dtypes=op_table.FLOAT, indices="indices", primitive="SparseSoftmax",
             samples=_softmax_samples, reference=_softmax_reference, grad_check=False)
def sparse_softmax(indices, values, shape):
    """``SparseSoftmax``: the softmax of the stored values over the last axis of a COO sparse tensor (``indices``
    (N, rank), ``values`` (N,), dense ``shape``): each group of entries sharing their leading indices sums to 1."""
    dims = _shape(shape)
    strides = np.cumprod((dims[:-1] + (1,))[::-1])[::-1][1:] if len(dims) > 1 else np.zeros(0, np.int64)
    group = (indices[:, :-1] * jnp.asarray(strides, indices.dtype)).sum(axis=1)
    count = int(np.prod(dims[:-1]))
    # the group maximum only stabilises exp(); softmax's value and gradient do not depend on it
    top = jax.lax.stop_gradient(jax.ops.segment_max(values, group, num_segments=count))
    exponent = jnp.exp(values - top[group])
    return exponent / jax.ops.segment_sum(exponent, group, num_segments=count)[group]


def _to_dense_samples(dtype):
    # the last index repeats the first: SparseToDense keeps the value written last
    indices = np.concatenate([_COO_INDICES, _COO_INDICES[:1]])
    return [op_table.Sample((indices, samples.values((4,), dtype)), {"sparse_shape": (3, 4)})]


def _to_dense_reference(indices, values, sparse_shape):
    dense = np.zeros(_shape(sparse_shape), np.asarray(values).dtype)
    for point, value in zip(np.asarray(indices).tolist(), np.asarray(values)):
        dense[tuple(point)] = value
    return dense


def scatter_last(index_columns, values, shape):
    """Zeros of ``shape`` with ``values`` written at the points ``index_columns`` (one index array per axis) one
    after the other, as MindSpore's SparseToDense kernel writes them: a repeated point keeps the value written last,
    a point outside ``shape`` is dropped. (XLA's scatter leaves the winner among repeats unspecified, so the last
    writer of each element is found first.)"""
    size = math.prod(shape)
    if values.shape[0] == 0:
        return jnp.zeros(shape, values.dtype)
    inside = jnp.ones(values.shape[0], bool)
    flat = jnp.zeros(values.shape[0], jnp.int64 if jax.config.jax_enable_x64 else jnp.int32)
    for column, dim in zip(index_columns, shape):
        inside &= (column >= 0) & (column < dim)
        flat = flat * dim + column.astype(flat.dtype)
    flat = jnp.where(inside, flat, size)  # past the end: dropped
    writer = jnp.zeros(size, jnp.int32).at[flat].max(jnp.arange(1, values.shape[0] + 1, dtype=jnp.int32), mode="drop")
    picked = values[jnp.maximum(writer - 1, 0)]
    return jnp.where(writer > 0, picked, jnp.zeros((), values.dtype)).reshape(shape)


@op_table.op(inputs=("indices", "values"), dtypes=op_table.ANY, indices="indices", samples=_to_dense_samples,
             reference=_to_dense_reference, grad_check=False)
def sparse_to_dense(indices, values, sparse_shape):
    """``SparseToDense``: the dense Tensor of ``sparse_shape`` holding ``values`` at ``indices`` (N, rank), zeros
    elsewhere; a repeated index keeps the value written last."""
    shape = _shape(sparse_shape)
    if indices.ndim != 2 or indices.shape[1] != len(shape) or values.shape != indices.shape[:1]:
        raise ValueError(f"For 'SparseToDense', 'indices' must be (N, {len(shape)}) and 'values' (N,), but got "
                         f"{tuple(indices.shape)} and {tuple(values.shape)}.")
    return scatter_last(tuple(indices.T), values, shape)


# --- outputs sized by values: read on the host (``eager``), as MindSpore's CPU kernels ---------
def _slice_samples(dtype):
    indices = np.array([[0, 1], [1, 2], [1, 3], [2, 0]], np.int64)
    return [op_table.Sample((indices, samples.values((4,), dtype), np.array([3, 4], np.int64),
                             np.array([1, 2], np.int64), np.array([1, 5], np.int64)))]


def _slice_reference(indices, values, shape, start, size):
    end = np.minimum(np.asarray(start) + np.asarray(size), np.asarray(shape))
    kept = [row for row, point in enumerate(np.asarray(indices).tolist())
            if all(low <= at < high for at, low, high in zip(point, start, end))]
    return (np.asarray(indices)[kept] - start, np.asarray(values)[kept], np.maximum(end - start, 0))


@op_table.op(inputs=("indices", "values", "shape", "start", "size"), dtypes=op_table.ANY,
             indices=("indices", "shape", "start", "size"), eager=True, samples=_slice_samples,
             reference=_slice_reference, grad_check=False)
def sparse_slice(indices, values, shape, start, size):
    """``SparseSlice``: the entries of a COO sparse tensor inside the box ``[start, start + size)`` (clipped to
    ``shape``), re-based at ``start``: ``(y_indices, y_values, y_shape)``."""
    if indices.ndim != 2 or values.shape != indices.shape[:1]:
        raise ValueError(f"For 'SparseSlice', 'indices' must be (N, rank) and 'values' (N,), but got "
                         f"{tuple(indices.shape)} and {tuple(values.shape)}.")
    rank = indices.shape[1]
    dims, begin, extent = (np.asarray(value).reshape(-1) for value in (shape, start, size))
    if any(vector.shape != (rank,) for vector in (dims, begin, extent)):
        raise ValueError(f"For 'SparseSlice', 'shape', 'start' and 'size' must have {rank} elements, but got "
                         f"{dims.size}, {begin.size} and {extent.size}.")
    end = np.minimum(begin + extent, dims)
    points = np.asarray(indices)
    inside = np.nonzero(np.all((points >= begin) & (points < end), axis=1))[0]
    return (jnp.asarray(points[inside] - begin, indices.dtype), values[inside],
            jnp.asarray(np.maximum(end - begin, 0), indices.dtype))


def _sub_and_filter_reference(input_x, max_num, offset):
    kept = [(value - offset, place) for place, value in enumerate(np.asarray(input_x).tolist())
            if 0 <= value - offset < max_num]
    dtype = np.asarray(input_x).dtype
    return (np.array([value for value, _ in kept], dtype), np.array([place for _, place in kept], dtype))


@op_table.op(inputs=("input_x", "max_num", "offset"), dtypes=op_table.ANY, indices=("input_x", "max_num", "offset"),
             eager=True, grad_check=False, reference=_sub_and_filter_reference,
             samples=lambda dtype: [op_table.Sample((np.array([1, 3, 5, 8, 9, 16], np.int32), np.array(10, np.int32),
                                                     np.array(4, np.int32)))])
def sub_and_filter(input_x, max_num, offset):
    """``SubAndFilter``: ``input_x - offset`` kept where it lies in ``[0, max_num)``, with the kept positions:
    ``(filter_res, filter_idx)``, both of ``input_x``'s dtype."""
    data = np.asarray(input_x)
    shifted = data - np.asarray(offset).reshape(-1)[0]
    keep = np.nonzero((shifted >= 0) & (shifted < np.asarray(max_num).reshape(-1)[0]))[0]
    return jnp.asarray(shifted[keep].astype(data.dtype)), jnp.asarray(keep.astype(data.dtype))



def _reshape_samples(dtype):
    del dtype  # indices and shapes only
    indices = np.array([[0, 0, 0], [0, 0, 1], [0, 1, 0], [1, 0, 0], [1, 2, 3]], np.int64)
    return [op_table.Sample((indices, np.array([2, 3, 6], np.int64), np.array([9, -1], np.int64))),
            op_table.Sample((indices, np.array([2, 3, 6], np.int64), np.array([-1], np.int64)))]


def _reshape_reference(indices, shape, new_shape):
    dims = np.asarray(shape).reshape(-1)
    wanted = np.asarray(new_shape).reshape(-1).copy()
    if (wanted == -1).any():
        wanted[wanted == -1] = np.prod(dims) // np.prod(wanted[wanted != -1])
    flat = np.ravel_multi_index(tuple(np.asarray(indices).T), tuple(dims)) if len(indices) else np.zeros(0, int)
    return np.stack(np.unravel_index(flat, tuple(wanted)), axis=1).reshape(-1, wanted.size), wanted


@op_table.op(inputs=("indices", "shape", "new_shape"), dtypes=op_table.ANY, indices=("indices", "shape", "new_shape"),
             primitive="SparseReshape", eager=True, samples=_reshape_samples, reference=_reshape_reference,
             grad_check=False)
def sparse_reshape(indices, shape, new_shape):
    """``SparseReshape``: the indices (N, rank) of a COO sparse tensor of dense ``shape`` re-read in
    ``new_shape`` (row-major; one -1 is inferred): ``(y_indices, y_shape)``."""
    dims = np.asarray(shape).reshape(-1)
    if indices.ndim != 2 or indices.shape[1] != dims.size:
        raise ValueError(f"For 'SparseReshape', the rank of input tensor must match input shape length, but got "
                         f"input tensor rank = {indices.shape[-1]}, and input shape length = {dims.size}.")
    wanted = np.asarray(new_shape).reshape(-1)
    total, known = int(np.prod(dims)), int(np.prod(wanted[wanted != -1]))
    # MindSpore's kernel raises these as RuntimeError
    if (wanted == -1).sum() > 1:
        raise RuntimeError("For 'SparseReshape', there should be at most one '-1' dimension in 'newshape' tensor, "
                           "but got two or more.")
    if (wanted == -1).any() and (known == 0 or total % known):
        raise RuntimeError(f"For 'SparseReshape', the requested shape should be a multiple of {known}, but got a "
                           f"SparseTensor with {total} dense values.")
    if not (wanted == -1).any() and known != total:
        raise RuntimeError(f"For 'SparseReshape', the requested shape has the dense shape of {known}, but got the "
                           f"input newshape is a tensor with {total}.")
    points, dims_out = _reshape_reference(indices, shape, new_shape)
    return jnp.asarray(points, indices.dtype), jnp.asarray(dims_out, np.asarray(new_shape).dtype)


# --- SparseCountSparseOutput: a per-row bincount of a COO tensor's values ------------------------
_COUNT_WEIGHTS = (np.float32, np.float64, np.int32, np.int64)


def _count_samples(dtype):
    # two rows, a repeated (row, value) pair, a zero weight that still makes an entry
    if np.dtype(dtype) not in _COUNT_WEIGHTS:
        return []
    indices = np.array([[1, 2], [0, 1], [1, 0], [1, 2]], np.int64)
    values = np.array([3, 0, 3, 1], np.int64)
    weights = np.array([2, 5, 0, 1], dtype)
    return [op_table.Sample((indices, values, np.array([2, 3], np.int64), weights)),
            op_table.Sample((indices, values, np.array([2, 3], np.int64), weights), {"binary_output": True}),
            op_table.Sample((indices, values, np.array([2, 3], np.int64), np.zeros(0, dtype)),
                            {"minlength": 6, "maxlength": 3})]


def _count_reference(indices, values, dense_shape, weights, binary_output=False, minlength=-1, maxlength=-1):
    indices, values = np.asarray(indices), np.asarray(values).reshape(-1)
    weights = np.asarray(weights)
    rows = indices[:, 0] if indices.shape[1] > 1 else np.zeros(len(values), np.int64)
    kept = values < maxlength if maxlength >= 0 else np.ones(len(values), bool)
    totals = {}
    for k in np.flatnonzero(kept):
        key = (int(rows[k]), int(values[k]))
        totals[key] = totals.get(key, 0) + (weights.reshape(-1)[k] if weights.size else 1)
    keys = sorted(totals)
    size = max(max((value + 1 for _, value in keys), default=0), minlength)
    size = min(size, maxlength) if maxlength >= 0 else size
    batched = indices.shape[1] > 1
    points = np.array([key if batched else key[1:] for key in keys], np.int64).reshape(len(keys), 1 + batched)
    counts = np.array([1 if binary_output else totals[key] for key in keys], weights.dtype)
    shape = [int(np.asarray(dense_shape).reshape(-1)[0]), size] if batched else [size]
    return points, counts, np.array(shape, np.int64)


def _check_count(indices, values, dense_shape, weights, binary_output):
    name = "SparseCountSparseOutput"
    if not isinstance(binary_output, bool):
        raise TypeError(f"For '{name}', the type of 'binary_output' should be 'bool', but got type "
                        f"'{type(binary_output).__name__}'.")
    if np.dtype(weights.dtype) not in _COUNT_WEIGHTS:
        found = mstype.from_numpy_dtype(np.dtype(weights.dtype))
        raise TypeError(f"For primitive[{name}], the input argument[weights] must be a type of {{Tensor[Float32], "
                        f"Tensor[Float64], Tensor[Int32], Tensor[Int64]}}, but got Tensor[{found}].")
    dims = np.asarray(dense_shape).reshape(-1)
    if values.shape[:1] != indices.shape[:1]:
        raise ValueError(f"For {name}, number of values must be same as dim0 of indices but indices dim0 size is "
                         f"{indices.shape[0]}, values_shape dim0 size is {values.shape[0]}.")
    if dims.size != indices.shape[1]:
        raise ValueError(f"For {name}, dense_shape dimensions must be equal to second dimension of indices, but "
                         f"dense_shape dimensions is {dims.size}, second dimension of indices is {indices.shape[1]}.")
    # MindSpore's kernel makes these checks when it runs: RuntimeError
    if weights.size and weights.shape != values.shape:
        raise RuntimeError(f"For '{name}', weights and values must have the same shape, but got {weights.shape} "
                           f"and {values.shape}.")
    if (np.asarray(values) < 0).any():
        raise RuntimeError(f"For '{name}', the input values must be non-negative.")
    outside = (np.asarray(indices) < 0) | (np.asarray(indices) >= dims)
    if outside.any():
        row, column = np.argwhere(outside)[0]
        raise RuntimeError(f"For '{name}', the input index value {int(np.asarray(indices)[row, column])} must be in "
                           f"[0, {int(dims[column])}) as given by dense shape.")


@op_table.op(inputs=("indices", "values", "dense_shape", "weights"), dtypes=op_table.NUMBER,
             indices=("indices", "values", "dense_shape"), primitive="SparseCountSparseOutput",
             primitive_attrs=("binary_output", "minlength", "maxlength"), eager=True, samples=_count_samples,
             reference=_count_reference, grad_check=False)
def sparse_count_sparse_output(indices, values, dense_shape, weights, binary_output=False, minlength=-1,
                               maxlength=-1):
    """``SparseCountSparseOutput``: for each row of a COO tensor (its first index; a rank-1 tensor is one row),
    the sum of the ``weights`` of each value (their number where ``weights`` is empty; 1 with
    ``binary_output``), as a COO tensor ``(indices (M, 2) or (M, 1), values, dense_shape)`` sorted by (row, value).
    The counted axis is ``max(largest value + 1, minlength)`` long; with ``maxlength >= 0`` values from
    ``maxlength`` on are dropped and the axis is at most ``maxlength`` long. The counts take the weights' dtype."""
    _check_count(indices, values, dense_shape, weights, binary_output)
    return tuple(jnp.asarray(part) for part in
                 _count_reference(indices, values, dense_shape, weights, binary_output, minlength, maxlength))


def _pad_and_shift_reference(input_x, cum_sum_arr, shift_idx):
    bounds = np.asarray(cum_sum_arr).reshape(-1).tolist()
    step = int(np.asarray(shift_idx).reshape(-1)[0])
    output = [-1] * bounds[-1]
    for offset in range(bounds[step + 1] - bounds[step]):
        output[bounds[step] + offset] = np.asarray(input_x)[offset]
    return np.array(output, np.asarray(input_x).dtype)


@op_table.op(inputs=("input_x", "cum_sum_arr", "shift_idx"), dtypes=op_table.ANY,
             indices=("input_x", "cum_sum_arr", "shift_idx"), primitive="PadAndShift", eager=True, grad_check=False,
             reference=_pad_and_shift_reference,
             samples=lambda dtype: [op_table.Sample((np.array([9, 13, -1, -1, -1, -1, -1, -1], np.int32),
                                                     np.array([0, 3, 5], np.int32), np.array(1, np.int32))),
                                    op_table.Sample((np.array([4, 5, 6, 7], np.int64), np.array([0, 2, 6], np.int64),
                                                     np.array(0, np.int64)))])
def pad_and_shift(input_x, cum_sum_arr, shift_idx):
    """``PadAndShift`` (embedding cache): ``cum_sum_arr[-1]`` slots of -1, with the first
    ``cum_sum_arr[shift_idx + 1] - cum_sum_arr[shift_idx]`` values of ``input_x`` written from slot
    ``cum_sum_arr[shift_idx]`` on. Eager: the output size is read from the values."""
    bounds = np.asarray(cum_sum_arr).reshape(-1)
    step = int(np.asarray(shift_idx).reshape(-1)[0])
    if not 0 <= step < bounds.size - 1:
        raise ValueError(f"For 'PadAndShift', 'shift_idx' must be in [0, {bounds.size - 1}), but got {step}.")
    start, end = int(bounds[step]), int(bounds[step + 1])
    output = jnp.full((int(bounds[-1]),), -1, input_x.dtype)
    return output.at[start:end].set(input_x[:end - start])


def _ragged_samples(dtype):
    values = samples.values((4,), dtype, seed=0)
    # rows all empty first (the dtype sweep makes every input Int32 and scales integers, which keeps zero splits);
    # an empty row, and values with an inner dense dimension
    return [op_table.Sample(((np.array([0, 0, 0], np.int32),), samples.values((0,), dtype, seed=3)),
                            {"Tsplits": mstype.int32}),
            op_table.Sample(((np.array([0, 1, 1, 3], np.int32),), samples.values((3, 2), dtype, seed=2)),
                            {"Tsplits": mstype.int32}),
            op_table.Sample(((np.array([0, 2, 3], np.int64),), samples.values((3,), dtype, seed=1)),
                            {"Tsplits": mstype.int64}),
            op_table.Sample(((np.array([0, 2, 3], np.int64), np.array([0, 1, 3, 4], np.int64)), values),
                            {"Tsplits": mstype.int64})]


def _ragged_reference(rt_nested_splits, rt_dense_values, Tsplits):
    splits = [np.asarray(split).tolist() for split in rt_nested_splits]
    values = np.asarray(rt_dense_values)
    indices = []

    def walk(level, row, prefix):
        for within, position in enumerate(range(splits[level][row], splits[level][row + 1])):
            if level + 1 < len(splits):
                walk(level + 1, position, prefix + [within])
            else:
                indices.extend(prefix + [within] + list(inner) for inner in np.ndindex(values.shape[1:]))

    for row in range(len(splits[0]) - 1):
        walk(0, row, [row])
    shape = [len(splits[0]) - 1] + [max(np.diff(split), default=0) for split in splits] + list(values.shape[1:])
    return (np.array(indices, np.int64).reshape(-1, len(shape)), values.reshape(-1), np.array(shape, np.int64))


@op_table.op(inputs=("rt_nested_splits", "rt_dense_values"), sequences="rt_nested_splits", dtypes=op_table.ANY,
             primitive="RaggedTensorToSparse", primitive_attrs=("Tsplits",), eager=True, grad_check=False,
             samples=_ragged_samples, reference=_ragged_reference)
def ragged_tensor_to_sparse(rt_nested_splits, rt_dense_values, Tsplits):  # noqa: N803 - MindSpore's name
    """``RaggedTensorToSparse``: the ragged tensor of row splits ``rt_nested_splits`` (outermost first) over
    ``rt_dense_values`` as COO components ``(indices, values, dense_shape)``, Int64 indices and shape. Eager: the
    number of entries and the shape are read from the splits."""
    if not rt_nested_splits:
        raise ValueError("For 'RaggedTensorToSparse', 'rt_nested_splits' must hold at least one Tensor.")
    for level, split in enumerate(rt_nested_splits):
        if split.ndim != 1 or split.dtype != mstype.dtype_to_nptype(Tsplits) or split.size < 1:
            raise TypeError(f"For 'RaggedTensorToSparse', 'rt_nested_splits[{level}]' must be a 1-D Tensor of "
                            f"Tsplits={Tsplits}, but got {split.dtype} of shape {tuple(split.shape)}.")
    splits = [np.asarray(split).astype(np.int64) for split in rt_nested_splits]
    if splits[-1][-1] != rt_dense_values.shape[0]:
        raise ValueError(f"For 'RaggedTensorToSparse', the last split's end {splits[-1][-1]} must equal the number "
                         f"of values {rt_dense_values.shape[0]}.")
    position = np.arange(rt_dense_values.shape[0])
    columns = []
    for split in reversed(splits):  # innermost first: each position's row at this level and place within it
        row = np.searchsorted(split, position, side="right") - 1
        columns.insert(0, position - split[row])
        position = row
    coordinates = np.stack([position] + columns, axis=1)
    inner = list(np.ndindex(rt_dense_values.shape[1:]))
    indices = np.concatenate([np.repeat(coordinates, len(inner), axis=0),
                              np.tile(np.array(inner, np.int64).reshape(len(inner), -1), (len(coordinates), 1))], 1)
    shape = ([splits[0].size - 1] + [int(np.diff(split).max(initial=0)) for split in splits]
             + list(rt_dense_values.shape[1:]))
    return jnp.asarray(indices, jnp.int64), rt_dense_values.reshape(-1), jnp.asarray(shape, jnp.int64)
