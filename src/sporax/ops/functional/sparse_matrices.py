"""MindSpore's batched CSR sparse-matrix Primitives on component Tensors, op-table entries: ``SparseMatrixNNZ``,
``CSRSparseMatrixToDense``, ``CSRSparseMatrixToSparseTensor``, ``SparseTensorToCSRSparseMatrix``,
``DenseToCSRSparseMatrix``, ``SparseMatrixTranspose``, ``SparseMatrixSoftmax``, ``SparseMatrixMatMul``.

A CSR sparse matrix, possibly batched, comes as ``dense_shape`` ((rows, cols) or (batch, rows, cols)),
``batch_pointers`` (batch + 1: where each batch's entries start), ``row_pointers`` (batch * (rows + 1): each batch's
row starts, counted within the batch), ``col_indices`` and ``values``. The entries are Primitive-only (MindSpore has
no functional names for them); their classes are in ``sporax.ops.operations.sparse_component_ops``; the COO
component Primitives are in ``sparse_components``.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.ops.operations.sparse_component_ops import SparseMatrixNNZ
    >>> SparseMatrixNNZ()(Tensor(np.array([2, 2], np.int64)), Tensor(np.array([0, 2], np.int64)),
    ...                   Tensor(np.array([0, 1, 2], np.int64)), Tensor(np.array([0, 1], np.int64)),
    ...                   Tensor([1.0, 2.0])).asnumpy().tolist()
    [2]
"""
import jax
import jax.numpy as jnp
import numpy as np

from sporax.ops import op_table, samples
from sporax.ops.functional.sparse_components import _COO_INDICES, _shape


# --- CSR sparse matrices (batched) ----------------------------------------------------------------
# A 3x4 matrix with entries (0, 1), (1, 2), (2, 0); batched: two 2x3 matrices with 2 and 1 entries.
_MATRIX = dict(shape=(3, 4), batch_pointers=np.array([0, 3], np.int64), row_pointers=np.array([0, 1, 2, 3], np.int64),
               col_indices=np.array([1, 2, 0], np.int64))
_BATCHED = dict(shape=(2, 2, 3), batch_pointers=np.array([0, 2, 3], np.int64),
                row_pointers=np.array([0, 1, 2, 0, 0, 1], np.int64), col_indices=np.array([2, 0, 1], np.int64))
_COMPONENTS = ("x_batch_pointers", "x_row_pointers", "x_col_indices", "x_values")


def _matrix_samples(*layouts, extra=None, shape_name="x_dense_shape", **settings):
    """One sample per layout: the components (and ``extra(dtype, layout)`` arrays after them), the dense shape
    set as ``shape_name``."""

    def make(dtype):
        made = []
        for layout in layouts:
            arrays = (layout["batch_pointers"], layout["row_pointers"], layout["col_indices"],
                      samples.values((len(layout["col_indices"]),), dtype))
            made.append(op_table.Sample(arrays + (tuple(extra(dtype, layout)) if extra else ()),
                                        dict(settings, **{shape_name: layout["shape"]})))
        return made

    return make


def _entries_of(shape, batch_pointers, row_pointers, count):
    """The batch and row of each of ``count`` stored values (traceable: static shapes only)."""
    batches, rows = (shape[0] if len(shape) == 3 else 1), shape[-2]
    position = jnp.arange(count, dtype=batch_pointers.dtype)
    batch = jnp.searchsorted(batch_pointers, position, side="right") - 1
    local = position - batch_pointers[batch]
    starts = row_pointers.reshape(batches, rows + 1)[batch]
    return batch, jnp.sum(starts <= local[:, None], axis=1) - 1


def _numpy_entries(shape, batch_pointers, row_pointers):
    """``(batch, row)`` of every stored value, by walking the pointers (for references)."""
    batches, rows = (shape[0] if len(shape) == 3 else 1), shape[-2]
    starts = np.asarray(row_pointers).reshape(batches, rows + 1)
    batch, row = [], []
    for index in range(batches):
        for line in range(rows):
            count = int(starts[index, line + 1] - starts[index, line])
            batch += [index] * count
            row += [line] * count
    return np.array(batch, np.int64), np.array(row, np.int64)


def _numpy_dense(x_dense_shape, x_batch_pointers, x_row_pointers, x_col_indices, x_values):
    shape = _shape(x_dense_shape)
    batch, row = _numpy_entries(shape, x_batch_pointers, x_row_pointers)
    dense = np.zeros((shape[0] if len(shape) == 3 else 1,) + shape[-2:], np.asarray(x_values).dtype)
    dense[batch, row, np.asarray(x_col_indices)] = x_values
    return dense.reshape(shape)


def _dense_of_matrix(shape, batch_pointers, row_pointers, col_indices, values):
    batch, row = _entries_of(shape, batch_pointers, row_pointers, col_indices.shape[0])
    dense = jnp.zeros((shape[0] if len(shape) == 3 else 1,) + shape[-2:], values.dtype)
    return dense.at[batch, row, col_indices].set(values).reshape(shape)


def _matrix_of_entries(shape, batch, row, column, values, index_dtype):
    """The CSR components of entries given in (batch, row, column) order."""
    batches, rows = (shape[0] if len(shape) == 3 else 1), shape[-2]
    per_batch = jnp.bincount(batch, length=batches)
    batch_pointers = jnp.concatenate([jnp.zeros(1, per_batch.dtype), jnp.cumsum(per_batch)])
    per_row = jnp.bincount(batch * rows + row, length=batches * rows).reshape(batches, rows)
    row_pointers = jnp.concatenate([jnp.zeros((batches, 1), per_row.dtype), jnp.cumsum(per_row, axis=1)], axis=1)
    return (jnp.asarray(shape, index_dtype), batch_pointers.astype(index_dtype),
            row_pointers.reshape(-1).astype(index_dtype), column.astype(index_dtype), values)


_MATRIX_OP = dict(inputs=_COMPONENTS, indices=_COMPONENTS[:3], grad_check=False)


@op_table.op(dtypes=op_table.ANY, primitive="SparseMatrixNNZ", samples=_matrix_samples(_MATRIX, _BATCHED),
             reference=lambda batch_pointers, row_pointers, col_indices, values, x_dense_shape:
             np.diff(batch_pointers).astype(np.int32), **_MATRIX_OP)
def sparse_matrix_nnz(x_dense_shape, x_batch_pointers, x_row_pointers, x_col_indices, x_values):
    """``SparseMatrixNNZ``: the number of stored values of each matrix of a CSR sparse matrix batch (Int32)."""
    return jnp.diff(x_batch_pointers).astype(jnp.int32)


@op_table.op(dtypes=op_table.ANY, primitive="CSRSparseMatrixToDense", samples=_matrix_samples(_MATRIX, _BATCHED),
             reference=lambda *components, x_dense_shape: _numpy_dense(x_dense_shape, *components), **_MATRIX_OP)
def csr_sparse_matrix_to_dense(x_dense_shape, x_batch_pointers, x_row_pointers, x_col_indices, x_values):
    """``CSRSparseMatrixToDense``: the dense Tensor of a CSR sparse matrix (batch)."""
    return _dense_of_matrix(_shape(x_dense_shape), x_batch_pointers, x_row_pointers, x_col_indices, x_values)


def _to_sparse_tensor_reference(batch_pointers, row_pointers, col_indices, values, x_dense_shape):
    shape = _shape(x_dense_shape)
    batch, row = _numpy_entries(shape, batch_pointers, row_pointers)
    indices = np.stack(([batch] if len(shape) == 3 else []) + [row, np.asarray(col_indices)], axis=1)
    return indices.astype(np.asarray(col_indices).dtype), values, np.array(shape, np.asarray(col_indices).dtype)


@op_table.op(dtypes=op_table.ANY, primitive="CSRSparseMatrixToSparseTensor",
             samples=_matrix_samples(_MATRIX, _BATCHED), reference=_to_sparse_tensor_reference, **_MATRIX_OP)
def csr_sparse_matrix_to_sparse_tensor(x_dense_shape, x_batch_pointers, x_row_pointers, x_col_indices, x_values):
    """``CSRSparseMatrixToSparseTensor``: ``(indices, values, dense_shape)`` of a CSR sparse matrix (batch) in
    COO form, indices (N, rank) in row-major order."""
    shape = _shape(x_dense_shape)
    batch, row = _entries_of(shape, x_batch_pointers, x_row_pointers, x_col_indices.shape[0])
    index_dtype = x_col_indices.dtype
    columns = ([batch] if len(shape) == 3 else []) + [row, x_col_indices]
    indices = jnp.stack([column.astype(index_dtype) for column in columns], axis=1)
    return indices, x_values, jnp.asarray(shape, index_dtype)


def _csr_matrix_reference(shape, indices, values):
    """The CSR components of row-major COO ``indices`` (NumPy counting, for references)."""
    indices = np.asarray(indices)
    batches, rows = (shape[0] if len(shape) == 3 else 1), shape[-2]
    batch = indices[:, 0] if len(shape) == 3 else np.zeros(len(indices), np.int64)
    batch_pointers = np.concatenate([[0], np.cumsum([np.sum(batch == b) for b in range(batches)])])
    row_pointers = np.concatenate([np.concatenate([[0], np.cumsum([np.sum((batch == b) & (indices[:, -2] == r))
                                                                   for r in range(rows)])]) for b in range(batches)])
    dtype = indices.dtype
    return (np.array(shape, dtype), batch_pointers.astype(dtype), row_pointers.astype(dtype), indices[:, -1], values)


def _coo_matrix_samples(dtype):
    return [op_table.Sample((_COO_INDICES, samples.values((3,), dtype)), {"x_dense_shape": (3, 4)}),
            op_table.Sample((np.array([[0, 0, 2], [0, 1, 0], [1, 1, 1]], np.int64), samples.values((3,), dtype)),
                            {"x_dense_shape": (2, 2, 3)})]


@op_table.op(inputs=("x_indices", "x_values"), dtypes=op_table.ANY, indices="x_indices",
             primitive="SparseTensorToCSRSparseMatrix", samples=_coo_matrix_samples,
             reference=lambda indices, values, x_dense_shape: _csr_matrix_reference(_shape(x_dense_shape), indices,
                                                                                     values), grad_check=False)
def sparse_tensor_to_csr_sparse_matrix(x_indices, x_values, x_dense_shape):
    """``SparseTensorToCSRSparseMatrix``: the CSR sparse matrix (batch) ``(dense_shape, batch_pointers,
    row_pointers, col_indices, values)`` of a COO tensor whose ``x_indices`` are in row-major order."""
    shape = _shape(x_dense_shape)
    batch = x_indices[:, 0] if len(shape) == 3 else jnp.zeros(x_indices.shape[0], x_indices.dtype)
    return _matrix_of_entries(shape, batch, x_indices[:, -2], x_indices[:, -1], x_values, x_indices.dtype)


def _dense_to_matrix_samples(dtype):
    return [op_table.Sample((samples.values((3, 4), dtype), _COO_INDICES))]


@op_table.op(inputs=("dense_input", "indices"), dtypes=op_table.ANY, indices="indices",
             primitive="DenseToCSRSparseMatrix", samples=_dense_to_matrix_samples,
             reference=lambda dense, indices: _csr_matrix_reference(dense.shape, indices,
                                                                    dense[tuple(np.asarray(indices).T)]),
             grad_check=False)
def dense_to_csr_sparse_matrix(dense_input, indices):
    """``DenseToCSRSparseMatrix``: the CSR sparse matrix (batch) holding the values of ``dense_input`` at
    ``indices`` (row-major order)."""
    shape = tuple(dense_input.shape)
    values = dense_input[tuple(indices[:, axis] for axis in range(len(shape)))]
    batch = indices[:, 0] if len(shape) == 3 else jnp.zeros(indices.shape[0], indices.dtype)
    return _matrix_of_entries(shape, batch, indices[:, -2], indices[:, -1], values, indices.dtype)


def _transpose_reference(batch_pointers, row_pointers, col_indices, values, x_dense_shape, conjugate=False):
    shape = _shape(x_dense_shape)
    dense = _numpy_dense(shape, batch_pointers, row_pointers, col_indices, values)
    transposed = np.swapaxes(dense, -1, -2)
    transposed = np.conj(transposed) if conjugate else transposed
    indices = np.argwhere(np.swapaxes(_numpy_dense(shape, batch_pointers, row_pointers, col_indices,
                                                   np.ones(len(values))), -1, -2))
    return _csr_matrix_reference(transposed.shape, indices.astype(np.asarray(col_indices).dtype),
                                 transposed[tuple(indices.T)])


@op_table.op(dtypes=op_table.ANY, primitive="SparseMatrixTranspose", primitive_attrs=("conjugate",),
             samples=_matrix_samples(_MATRIX, _BATCHED), reference=_transpose_reference, **_MATRIX_OP)
def sparse_matrix_transpose(x_dense_shape, x_batch_pointers, x_row_pointers, x_col_indices, x_values,
                            conjugate=False):
    """``SparseMatrixTranspose``: the CSR sparse matrix (batch) of the transposes (conjugated with
    ``conjugate``)."""
    shape = _shape(x_dense_shape)
    batch, row = _entries_of(shape, x_batch_pointers, x_row_pointers, x_col_indices.shape[0])
    order = jnp.lexsort((row, x_col_indices, batch))  # the transposes' rows are the columns
    values = jnp.conj(x_values) if conjugate else x_values
    transposed = shape[:-2] + (shape[-1], shape[-2])
    return _matrix_of_entries(transposed, batch[order], x_col_indices[order], row[order], values[order],
                              x_col_indices.dtype)


def _softmax_reference(batch_pointers, row_pointers, col_indices, values, x_dense_shape, dtype=None):
    shape = _shape(x_dense_shape)
    batch, row = _numpy_entries(shape, batch_pointers, row_pointers)
    group, values = batch * shape[-2] + row, np.asarray(values, np.float64)
    result = np.empty_like(values)
    for found in np.unique(group):
        exponent = np.exp(values[group == found] - values[group == found].max())
        result[group == found] = exponent / exponent.sum()
    index_dtype = np.asarray(row_pointers).dtype
    return (np.array(shape, index_dtype), batch_pointers, row_pointers, col_indices,
            result.astype(np.asarray(values).dtype))


def _softmax_samples(dtype):
    if np.dtype(dtype) not in (np.float32, np.float64):
        return []
    return _matrix_samples(_MATRIX, _BATCHED, dtype=None)(dtype)


@op_table.op(dtypes=op_table.FLOAT, primitive="SparseMatrixSoftmax", primitive_attrs=("dtype",),
             samples=_softmax_samples, reference=_softmax_reference, **_MATRIX_OP)
def sparse_matrix_softmax(x_dense_shape, x_batch_pointers, x_row_pointers, x_col_indices, x_values, dtype=None):
    """``SparseMatrixSoftmax``: the softmax of the stored values of each row of a CSR sparse matrix (batch) over
    that row's entries: ``(dense_shape, batch_pointers, row_pointers, col_indices, values)``, the values keeping
    their dtype (Float32 or Float64; ``dtype`` names it, as in MindSpore, and changes nothing)."""
    if np.dtype(x_values.dtype) not in (np.float32, np.float64):
        raise TypeError(f"For 'SparseMatrixSoftmax', only float32 and float64 type data are supported, but got "
                        f"{x_values.dtype}.")
    shape = _shape(x_dense_shape)
    # MindSpore's kernel also takes the pointers of one matrix as its entry count alone (a 0-d Tensor)
    pointers = x_batch_pointers.reshape(-1)
    pointers = jnp.concatenate([jnp.zeros(1, pointers.dtype), pointers]) if pointers.size == 1 else pointers
    batch, row = _entries_of(shape, pointers, x_row_pointers, x_col_indices.shape[0])
    group, count = batch * shape[-2] + row, (shape[0] if len(shape) == 3 else 1) * shape[-2]
    # the row maximum only stabilises exp(); softmax's value and gradient do not depend on it
    top = jax.lax.stop_gradient(jax.ops.segment_max(x_values, group, num_segments=count))
    exponent = jnp.exp(x_values - top[group])
    values = exponent / jax.ops.segment_sum(exponent, group, num_segments=count)[group]
    return jnp.asarray(shape, x_row_pointers.dtype), x_batch_pointers, x_row_pointers, x_col_indices, values


def _matmul_samples(dtype, layout):
    shape = layout["shape"]
    return [samples.values(shape[:-2] + (shape[-1], 2), dtype, seed=5)]


def _matmul_reference(batch_pointers, row_pointers, col_indices, values, x2_dense, x1_dense_shape,
                      transpose_x1=False, transpose_x2=False, adjoint_x1=False, adjoint_x2=False,
                      transpose_output=False, conjugate_output=False):
    left = _numpy_dense(x1_dense_shape, batch_pointers, row_pointers, col_indices, values)
    left = np.swapaxes(left, -1, -2) if transpose_x1 or adjoint_x1 else left
    right = np.swapaxes(x2_dense, -1, -2) if transpose_x2 or adjoint_x2 else x2_dense
    product = left @ right
    return np.swapaxes(product, -1, -2) if transpose_output else product


@op_table.op(inputs=("x1_batch_pointers", "x1_row_pointers", "x1_col_indices", "x1_values", "x2_dense"),
             indices=("x1_batch_pointers", "x1_row_pointers", "x1_col_indices"), dtypes=op_table.NUMBER,
             primitive="SparseMatrixMatMul",
             primitive_attrs=("transpose_x1", "transpose_x2", "adjoint_x1", "adjoint_x2", "transpose_output",
                              "conjugate_output"),
             samples=_matrix_samples(_MATRIX, _BATCHED, extra=_matmul_samples, shape_name="x1_dense_shape"),
             reference=_matmul_reference,
             grad_check=False)
def sparse_matrix_mat_mul(x1_dense_shape, x1_batch_pointers, x1_row_pointers, x1_col_indices, x1_values, x2_dense,
                          transpose_x1=False, transpose_x2=False, adjoint_x1=False, adjoint_x2=False,
                          transpose_output=False, conjugate_output=False):
    """``SparseMatrixMatMul``: the dense product of a CSR sparse matrix (batch) and ``x2_dense``; ``transpose_*``
    and ``adjoint_*`` transpose (conjugate-transpose) an operand first, ``transpose_output``/``conjugate_output``
    the product."""
    left = _dense_of_matrix(_shape(x1_dense_shape), x1_batch_pointers, x1_row_pointers, x1_col_indices, x1_values)
    left = jnp.conj(left) if adjoint_x1 else left
    left = jnp.swapaxes(left, -1, -2) if transpose_x1 or adjoint_x1 else left
    right = jnp.conj(x2_dense) if adjoint_x2 else x2_dense
    right = jnp.swapaxes(right, -1, -2) if transpose_x2 or adjoint_x2 else right
    if left.shape[-1] != right.shape[-2]:
        raise ValueError(f"For 'SparseMatrixMatMul', the inner dimensions must agree, but got {left.shape} and "
                         f"{right.shape} after the transposes.")
    product = left @ right.astype(left.dtype)
    product = jnp.swapaxes(product, -1, -2) if transpose_output else product
    return jnp.conj(product) if conjugate_output else product


# The second operand of the sums: the same shapes as _MATRIX / _BATCHED, other entries (some shared).
_MATRIX_OTHER = dict(batch_pointers=np.array([0, 2], np.int64), row_pointers=np.array([0, 1, 1, 2], np.int64),
                     col_indices=np.array([1, 3], np.int64))
_BATCHED_OTHER = dict(batch_pointers=np.array([0, 1, 3], np.int64), row_pointers=np.array([0, 0, 1, 0, 2, 2], np.int64),
                      col_indices=np.array([1, 0, 1], np.int64))


def _add_samples(dtype):
    made = []
    for seed, (layout, other) in enumerate(((_MATRIX, _MATRIX_OTHER), (_BATCHED, _BATCHED_OTHER))):
        first = (layout["batch_pointers"], layout["row_pointers"], layout["col_indices"],
                 samples.values((len(layout["col_indices"]),), dtype, seed=seed))
        second = (other["batch_pointers"], other["row_pointers"], other["col_indices"],
                  samples.values((len(other["col_indices"]),), dtype, seed=seed + 2))
        scales = (np.array(2.0, dtype), np.array(-0.5 if seed else 1.0, dtype))
        made.append(op_table.Sample(first + second + scales, {"x1_dense_shape": layout["shape"],
                                                                 "x2_dense_shape": layout["shape"]}))
    return made


def _add_reference(x1_batch_pointers, x1_row_pointers, x1_col_indices, x1_values, x2_batch_pointers,
                   x2_row_pointers, x2_col_indices, x2_values, alpha, beta, x1_dense_shape, x2_dense_shape):
    shape = _shape(x1_dense_shape)
    first = _numpy_dense(shape, x1_batch_pointers, x1_row_pointers, x1_col_indices, x1_values)
    second = _numpy_dense(shape, x2_batch_pointers, x2_row_pointers, x2_col_indices, x2_values)
    stored = (_numpy_dense(shape, x1_batch_pointers, x1_row_pointers, x1_col_indices, np.ones(len(x1_values)))
              + _numpy_dense(shape, x2_batch_pointers, x2_row_pointers, x2_col_indices, np.ones(len(x2_values))))
    indices = np.argwhere(stored).astype(np.asarray(x1_col_indices).dtype)
    total = np.asarray(alpha).reshape(()) * first + np.asarray(beta).reshape(()) * second
    return _csr_matrix_reference(shape, indices, total[tuple(indices.T)].astype(np.asarray(x1_values).dtype))


_SUMMANDS = ("x1_batch_pointers", "x1_row_pointers", "x1_col_indices", "x1_values", "x2_batch_pointers",
             "x2_row_pointers", "x2_col_indices", "x2_values", "alpha", "beta")


@op_table.op(inputs=_SUMMANDS, indices=_SUMMANDS[:3] + _SUMMANDS[4:7], dtypes=op_table.NUMBER,
             primitive="SparseMatrixAdd", eager=True, samples=_add_samples, reference=_add_reference,
             grad_check=False)
def sparse_matrix_add(x1_dense_shape, x1_batch_pointers, x1_row_pointers, x1_col_indices, x1_values, x2_dense_shape,
                      x2_batch_pointers, x2_row_pointers, x2_col_indices, x2_values, alpha, beta):
    """``SparseMatrixAdd``: ``alpha * x1 + beta * x2`` of two CSR sparse matrices (batches) of one dense shape, stored
    at the union of their entries (row-major). Eager: the number of entries is read from the pointers."""
    shape, other_shape = _shape(x1_dense_shape), _shape(x2_dense_shape)
    if shape != other_shape:
        raise ValueError(f"For 'SparseMatrixAdd', the two dense shapes must be equal, but got {shape} and "
                         f"{other_shape}.")
    first = _dense_of_matrix(shape, x1_batch_pointers, x1_row_pointers, x1_col_indices, x1_values)
    second = _dense_of_matrix(shape, x2_batch_pointers, x2_row_pointers, x2_col_indices, x2_values.astype(
        x1_values.dtype))
    stored = (np.asarray(_dense_of_matrix(shape, x1_batch_pointers, x1_row_pointers, x1_col_indices,
                                          jnp.ones(x1_values.shape, jnp.int32)))
              + np.asarray(_dense_of_matrix(shape, x2_batch_pointers, x2_row_pointers, x2_col_indices,
                                            jnp.ones(x2_values.shape, jnp.int32))))
    entries = np.argwhere(stored.reshape((-1,) + shape[-2:]))
    total = (alpha.reshape(()) * first + beta.reshape(()) * second).astype(x1_values.dtype).reshape((-1,) + shape[-2:])
    values = total[entries[:, 0], entries[:, 1], entries[:, 2]]
    return _matrix_of_entries(shape, jnp.asarray(entries[:, 0]), jnp.asarray(entries[:, 1]),
                              jnp.asarray(entries[:, 2]), values, x1_col_indices.dtype)
