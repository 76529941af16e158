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
