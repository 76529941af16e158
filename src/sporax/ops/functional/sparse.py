"""Sparse ops: ``ops.dense_to_sparse_coo/csr``, ``ops.coo_add``, ``ops.csr_mm``, ``ops.coalesce``, conversions ...

They work on ``COOTensor``/``CSRTensor`` (``sporax.core.sparse``); the element-wise
``coo_*``/``csr_*`` functions are in ``sparse_unary``, CSR arithmetic (``csr_mv``, ``csr_softmax`` ...) in
``csr_arithmetic``.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> coo = ops.dense_to_sparse_coo(Tensor(np.array([[0, 1.5], [2, 0]], np.float32)))
    >>> coo.indices.shape
    (2, 2)
"""
import inspect

import jax
import jax.numpy as jnp
import numpy as np

from sporax.core import sparse_util as su
from sporax.core.sparse import COOTensor, RowTensor
from sporax.core.sparse_csr import CSRTensor, csr_matmul_csr
from sporax.core.sparse_csr import _csr_to_dense as csr_values_to_dense
from sporax.core.tensor import Tensor
from sporax.ops import op_table, samples
from sporax.ops.face_inputs import concrete, primitive_accepting
from sporax.ops.functional import sparse_components
from sporax.ops.faces import make_function
from sporax.ops.sparse_operands import COOArrays, CSRArrays, dense_of, positions, record_of

wrap = Tensor._wrap


def _require(op_name, name, value, cls):
    if not isinstance(value, cls):
        raise TypeError(f"For '{op_name}', '{name}' must be a {cls.__name__}, but got {type(value).__name__}.")
    return value


def _nonzero_positions(op_name, tensor):
    """``(rows, columns)`` of the non-zero entries of a 2-D array, in row-major order (as MindSpore), read on
    the host: the number of entries is the output's shape."""
    if tensor.ndim != 2:
        raise ValueError(f"For '{op_name}', 'tensor' must be 2-D, but got shape {tuple(tensor.shape)}.")
    return np.nonzero(concrete(op_name, "tensor", tensor))


def _dense_samples(dtype):
    """A 3x4 matrix with zeros (a whole row of them) and a 2x2 matrix of zeros only."""
    matrix = samples.values((3, 4), dtype, 0.5, 2.0)
    matrix[:, 1] = 0
    matrix[2] = 0
    return [op_table.Sample((matrix,)), op_table.Sample((np.zeros((2, 2), matrix.dtype),))]


# --- conversions --------------------------------------------------------------------------
@op_table.op(inputs="tensor", dtypes=op_table.ANY, eager=True, grad_check=False, samples=_dense_samples,
             reference=np.array)
def dense_to_sparse_coo(tensor):
    """The non-zero entries of a 2-D Tensor as a COOTensor (Int32 indices, row-major order).

    Example:
        >>> from sporax import Tensor, ops
        >>> ops.dense_to_sparse_coo(Tensor([[0.0, 1.5], [2.0, 0.0]])).indices.asnumpy().tolist()
        [[0, 1], [1, 0]]
    """
    rows, cols = _nonzero_positions("dense_to_sparse_coo", tensor)
    indices = jnp.asarray(np.stack([rows, cols], axis=1), jnp.int32)
    return COOArrays(indices, tensor[rows, cols], tuple(tensor.shape))


@op_table.op(inputs="tensor", dtypes=op_table.ANY, eager=True, grad_check=False, samples=_dense_samples,
             reference=np.array)
def dense_to_sparse_csr(tensor):
    """The non-zero entries of a 2-D Tensor as a CSRTensor (Int32 indptr and indices).

    Example:
        >>> from sporax import Tensor, ops
        >>> ops.dense_to_sparse_csr(Tensor([[0.0, 1.5], [2.0, 0.0]])).indptr.asnumpy().tolist()
        [0, 1, 2]
    """
    rows, cols = _nonzero_positions("dense_to_sparse_csr", tensor)
    indptr = np.searchsorted(rows, np.arange(tensor.shape[0] + 1), side="left")
    return CSRArrays(jnp.asarray(indptr, jnp.int32), jnp.asarray(cols, jnp.int32), tensor[rows, cols],
                     tuple(tensor.shape))


def make_coo_tensor(indices, values, dense_shape):
    """``COOTensor(indices, values, dense_shape)``."""
    return COOTensor(indices, values, tuple(dense_shape))


def make_csr_tensor(indptr, indices, values, dense_shape):
    """``CSRTensor(indptr, indices, values, dense_shape)``."""
    return CSRTensor(indptr, indices, values, tuple(dense_shape))


def make_row_tensor(indices, values, dense_shape):
    """``RowTensor(indices, values, dense_shape)``."""
    return RowTensor(indices, values, tuple(dense_shape))


# --- component getters --------------------------------------------------------------------
def _getter(cls, component, doc, attribute=None):
    """``<kind>_get_<component>(<kind>)``: the ``attribute`` (default ``component``) of a ``cls`` argument."""
    argument = {COOTensor: "coo_tensor", CSRTensor: "csr_tensor", RowTensor: "row_tensor"}[cls]
    name = f"{argument}_get_{component}"
    signature = inspect.Signature([inspect.Parameter(argument, inspect.Parameter.POSITIONAL_OR_KEYWORD)])

    def read(value):
        return getattr(_require(name, argument, value, cls), attribute or component)

    return make_function(name, signature, "_read", {"_read": read}, doc, __name__)


coo_tensor_get_values = _getter(COOTensor, "values", "The values of a COOTensor.")
coo_tensor_get_indices = _getter(COOTensor, "indices", "The indices of a COOTensor.")
coo_tensor_get_dense_shape = _getter(COOTensor, "dense_shape", "The dense shape of a COOTensor, a tuple.", "shape")

csr_tensor_get_indptr = _getter(CSRTensor, "indptr", "The row pointers of a CSRTensor.")
csr_tensor_get_indices = _getter(CSRTensor, "indices", "The column indices of a CSRTensor.")
csr_tensor_get_values = _getter(CSRTensor, "values", "The values of a CSRTensor.")
csr_tensor_get_dense_shape = _getter(CSRTensor, "dense_shape", "The dense shape of a CSRTensor, a tuple.", "shape")

row_tensor_get_indices = _getter(RowTensor, "indices", "The row indices of a RowTensor.")
row_tensor_get_values = _getter(RowTensor, "values", "The rows stored in a RowTensor.")
row_tensor_get_dense_shape = _getter(RowTensor, "dense_shape", "The dense shape of a RowTensor, a tuple.")


# --- arithmetic and products --------------------------------------------------------------
# Their output's structure (which entries are stored) is the union or product of the inputs' structures,
# read on the host: eager entries. The structure work lives in the sparse classes (``COOTensor.add``).
_SUM_SHAPE = (3, 4)


def _concrete_structure(op_name, *records):
    """Check that the records' index arrays are concrete: under a trace, the ``UntraceableError`` that makes a
    compiled caller run eagerly (the result's number of entries depends on them). Returns the context in
    which the structure work runs: concrete index arrays stay concrete there even inside a trace (only the
    values are traced)."""
    for record in records:
        for component in record.components[:-1]:  # every component but the values
            concrete(op_name, f"{component} of a sparse input", getattr(record, component))
    return jax.ensure_compile_time_eval()


def _coo_add_samples(dtype):
    """Two 3x4 COOTensors sharing the entry (1, 2)."""
    first = COOArrays(np.array([[0, 1], [1, 2]], np.int32), samples.values((2,), dtype, 0.5, 2.0, 1), _SUM_SHAPE)
    second = COOArrays(np.array([[1, 2], [2, 0]], np.int32), samples.values((2,), dtype, 0.5, 2.0, 2), _SUM_SHAPE)
    return [op_table.Sample((first, second, np.zeros((), first.values.dtype)))]


@op_table.op(inputs=("x1", "x2", "thresh"), scalars="thresh", dtypes=op_table.ANY,
             input_dtypes={"x1": op_table.COO, "x2": op_table.COO}, eager=True, grad_check=False,
             samples=_coo_add_samples, reference=lambda x1, x2, thresh: dense_of(x1) + dense_of(x2))
def coo_add(x1, x2, thresh):
    """``x1 + x2`` for two COOTensors; a summed entry of magnitude below ``thresh`` is dropped.

    Example:
        >>> from sporax import COOTensor, Tensor, ops
        >>> a = COOTensor(Tensor([[0, 1]]), Tensor([1.0]), (2, 2))
        >>> ops.coo_add(a, a, Tensor(0.0)).values.asnumpy().tolist()
        [2.0]
    """
    with _concrete_structure("coo_add", x1, x2):
        return record_of(x1.tensor().add(x2.tensor(), thresh))


def _csr_add_samples(dtype):
    """Two 3x4 CSRTensors of different structures, scaled by 0-d alpha and beta."""
    other = CSRArrays(np.array([0, 1, 1, 3], np.int32), np.array([3, 0, 2], np.int32),
                      samples.values((3,), dtype, 0.5, 2.0, 3), _SUM_SHAPE)
    first = _csr_record(dtype)
    scale = first.values.dtype
    return [op_table.Sample((first, other, np.array(2.0, scale), np.array(-0.5, scale)))]


@op_table.op(inputs=("a", "b", "alpha", "beta"), scalars=("alpha", "beta"), dtypes=op_table.ANY,
             input_dtypes={"a": op_table.CSR, "b": op_table.CSR}, eager=True, grad_check=False,
             samples=_csr_add_samples,
             reference=lambda a, b, alpha, beta: alpha * dense_of(a) + beta * dense_of(b))
def csr_add(a, b, alpha, beta):
    """``alpha * a + beta * b`` for two CSRTensors of one shape.

    Example:
        >>> from sporax import CSRTensor, Tensor, ops
        >>> a = CSRTensor(Tensor([0, 1, 1]), Tensor([1]), Tensor([2.0]), (2, 2))
        >>> ops.csr_add(a, a, Tensor(1.0), Tensor(2.0)).values.asnumpy().tolist()
        [6.0]
    """
    with _concrete_structure("csr_add", a, b):
        return record_of(a.tensor().add(b.tensor(), alpha, beta))


def _transposed(record, conjugate):
    """The transpose of a 2-D CSR record as a CSRTensor, its structure sorted on the host (the indices are
    concrete: ``csr_mm`` checked them), its values gathered in that order."""
    rows, columns = positions(record)
    order = np.lexsort((rows, columns))  # by column, then row: the transpose's row-major order
    values = record.values[jnp.asarray(order)]
    if conjugate:
        values = jnp.conj(values)
    indptr = np.searchsorted(columns[order], np.arange(record.shape[1] + 1), side="left")
    return CSRTensor._make(jnp.asarray(indptr, record.indptr.dtype), jnp.asarray(rows[order], record.indices.dtype),
                           values, (record.shape[1], record.shape[0]))


def _csr_mm_samples(dtype):
    """A 3x4 CSRTensor times a 4x2 one, and times the transpose of a 2x4 one."""
    right = CSRArrays(np.array([0, 1, 1, 2, 3], np.int32), np.array([1, 0, 1], np.int32),
                      samples.values((3,), dtype, 0.5, 2.0, 4), (4, 2))
    flipped = CSRArrays(np.array([0, 2, 3], np.int32), np.array([1, 3, 0], np.int32),
                        samples.values((3,), dtype, 0.5, 2.0, 5), (2, 4))
    return [op_table.Sample((_csr_record(dtype), right)),
            op_table.Sample((_csr_record(dtype), flipped), {"trans_b": True})]


def _csr_mm_reference(a, b, trans_a=False, trans_b=False, adjoint_a=False, adjoint_b=False):
    left, right = dense_of(a), dense_of(b)
    left = left.conj().T if adjoint_a else left.T if trans_a else left
    right = right.conj().T if adjoint_b else right.T if trans_b else right
    return left @ right


@op_table.op(inputs=("a", "b"), dtypes=op_table.ANY, input_dtypes={"a": op_table.CSR, "b": op_table.CSR},
             eager=True, grad_check=False, samples=_csr_mm_samples, reference=_csr_mm_reference)
def csr_mm(a, b, trans_a=False, trans_b=False, adjoint_a=False, adjoint_b=False):
    """``op(a) @ op(b)`` for two CSRTensors, a CSRTensor; ``op`` transposes (``trans_*``) or takes the
    conjugate transpose (``adjoint_*``). For a dense ``b`` use ``CSRTensor.mm(b)``.

    Example:
        >>> from sporax import CSRTensor, Tensor, ops
        >>> a = CSRTensor(Tensor([0, 1, 1]), Tensor([1]), Tensor([2.0]), (2, 2))
        >>> ops.csr_mm(a, a, trans_b=True).values.asnumpy().tolist()
        [4.0]
    """
    with _concrete_structure("csr_mm", a, b):
        left = _transposed(a, adjoint_a) if trans_a or adjoint_a else a.tensor()
        right = _transposed(b, adjoint_b) if trans_b or adjoint_b else b.tensor()
        return record_of(csr_matmul_csr(left, right))


# --- sparse given as (indices, values, shape), as the SparseToDense / SparseTensorDenseMatmul ops ---
def sparse_to_dense(indices, values, sparse_shape):
    """The dense Tensor of ``sparse_shape`` with ``values`` at the N-D ``indices`` (shape ``(N, rank)``)."""
    index_array = su.check_tensor("SparseToDense", "indices", indices)._value
    value_array = su.check_tensor("SparseToDense", "values", values)._value
    shape = tuple(int(dim) for dim in sparse_shape)
    return wrap(sparse_components.scatter_last(tuple(index_array[:, axis] for axis in range(len(shape))),
                                               value_array, shape))


def _coalesce_samples(dtype):
    """A 3x4 COO tensor whose entry (2, 1) is stored twice, given by (ndim, N) indices."""
    if dtype != "float32":  # the merging is the same for every values dtype: one run
        return []
    indices = np.array([[2, 0, 2, 1], [1, 3, 1, 0]], np.int64)
    return [op_table.Sample((indices, samples.values((4,), dtype), np.array([3, 4], np.int64)))]


def _coalesce_reference(x_indices, x_values, x_shape):
    merged = {}
    for position, value in zip(map(tuple, np.asarray(x_indices).T), x_values):
        merged[position] = merged.get(position, 0) + value
    positions = sorted(merged)
    return (np.array(positions, x_indices.dtype).T, np.array([merged[key] for key in positions], x_values.dtype),
            np.asarray(x_shape))


# MindSpore 2.10's Coalesce takes Float16/32/64 values (Int, Bool: its TypeError)
@op_table.op(inputs=("x_indices", "x_values", "x_shape"), indices=("x_indices", "x_shape"), dtypes=op_table.FLOAT,
             input_dtypes={"x_values": primitive_accepting("Coalesce", "x_values", ("Float16", "Float32", "Float64"))},
             eager=True, grad_check=False, samples=_coalesce_samples, reference=_coalesce_reference)
def coalesce(x_indices, x_values, x_shape):
    """Merge the duplicate indices of a COO tensor: ``(indices, values, shape)`` with indices sorted and
    unique (column per entry, ``(ndim, N)``) and the values of duplicates summed.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> indices, values, shape = ops.coalesce(Tensor(np.array([[2, 0, 2], [1, 3, 1]], np.int64)),
        ...                                       Tensor(np.array([1.0, 2.0, 3.0], np.float32)), Tensor(np.array([3, 4], np.int64)))
        >>> indices.asnumpy().tolist(), values.asnumpy().tolist()
        ([[0, 2], [3, 1]], [2.0, 4.0])
    """
    index = concrete("coalesce", "x_indices", x_indices)
    dense_shape = concrete("coalesce", "x_shape", x_shape)
    values = x_values
    if index.ndim != 2 or values.ndim != 1 or index.shape[1] != values.shape[0] or index.shape[0] != dense_shape.size:
        raise ValueError(f"For 'coalesce', expected x_indices (ndim, N), x_values (N,) and x_shape (ndim,), but got "
                         f"{index.shape}, {tuple(values.shape)} and {dense_shape.shape}.")
    if index.size and ((index < 0).any() or (index >= dense_shape[:, None]).any()):
        raise ValueError("For 'coalesce', every index must lie inside x_shape.")
    flat = np.ravel_multi_index(tuple(index), tuple(dense_shape)) if index.size else np.zeros((0,), np.int64)
    unique, inverse = np.unique(flat, return_inverse=True)
    summed = jnp.zeros((unique.size,), values.dtype).at[jnp.asarray(inverse.reshape(-1))].add(values)
    merged = np.stack(np.unravel_index(unique, tuple(dense_shape))) if unique.size else index[:, :0]
    return jnp.asarray(merged.astype(index.dtype)), summed, jnp.asarray(dense_shape)


def _sparse_dense_samples(dtype):
    """A 3x3 COO matrix (two entries, one row empty) times dense matrices, in both adjoint forms."""
    indices = np.array([[0, 1], [1, 2]], np.int32)
    values = samples.unary(0.5, 2.0, shapes=((2,),))(dtype)[0].arrays[0]
    dense = samples.unary(shapes=((3, 4),))(dtype)[0].arrays[0]
    return [op_table.Sample((indices, values, dense), {"sparse_shape": (3, 3)}),
            op_table.Sample((indices, values, dense), {"sparse_shape": (3, 3), "adjoint_st": True}),
            op_table.Sample((indices, values, dense.T.copy()), {"sparse_shape": (3, 3), "adjoint_dt": True})]


def _sparse_dense_reference(indices, values, dense, sparse_shape, adjoint_st=False, adjoint_dt=False):
    matrix = np.zeros(sparse_shape, np.result_type(values, np.float64))
    np.add.at(matrix, tuple(np.asarray(indices, np.int64).T), values)
    matrix = matrix.T if adjoint_st else matrix
    return matrix @ (dense.T if adjoint_dt else dense)


@op_table.op(inputs=("indices", "values", "dense"), dtypes=op_table.ANY, primitive="SparseTensorDenseMatmul",
             primitive_attrs=("adjoint_st", "adjoint_dt"), samples=_sparse_dense_samples,
             reference=_sparse_dense_reference)
def sparse_tensor_dense_matmul(indices, values, sparse_shape, dense, adjoint_st=False, adjoint_dt=False):
    """The product of a COO sparse matrix (``indices`` (N, 2), ``values`` (N,), ``sparse_shape``) and a
    dense matrix; ``adjoint_st``/``adjoint_dt`` transpose the sparse/dense operand first."""
    if len(sparse_shape) != 2 or indices.ndim != 2 or indices.shape[-1] != 2 or dense.ndim != 2:
        raise ValueError("For 'SparseTensorDenseMatmul', 'indices' must be (N, 2), 'sparse_shape' 2 ints and "
                         f"'dense' 2-d, but got {indices.shape}, {tuple(sparse_shape)} and {dense.shape}.")
    rows, columns = (indices[:, 1], indices[:, 0]) if adjoint_st else (indices[:, 0], indices[:, 1])
    height = sparse_shape[1] if adjoint_st else sparse_shape[0]
    dense = dense.T if adjoint_dt else dense
    # Row r of the result sums values[k] * dense[columns[k]] over the entries k of row r.
    return jax.ops.segment_sum(values[:, None] * dense[columns], rows, num_segments=height)


# --- op-table entries on sparse operands ------------------------------------------------------
# A COOTensor/CSRTensor input reaches the kernel as its COOArrays/CSRArrays (``sporax.ops.sparse_operands``);
# a returned record becomes the sparse tensor again. References densify with NumPy alone.
_SAMPLE_INDPTR = np.array([0, 2, 3, 3], np.int32)  # a 3x4 CSR matrix whose last row is empty
_SAMPLE_COLUMNS = np.array([0, 3, 1], np.int32)


def _csr_record(dtype, low=-4.0, high=4.0, seed=0):
    return CSRArrays(_SAMPLE_INDPTR, _SAMPLE_COLUMNS, samples.values((3,), dtype, low, high, seed), (3, 4))


def _csr_samples(*settings, dense_shape=None):
    """One CSR sample per dict of ``settings`` (one without), beside a dense operand of ``dense_shape``."""

    def make(dtype):
        dense = () if dense_shape is None else (samples.values(dense_shape, dtype, 0.5, 2.0, 1),)
        return [op_table.Sample((_csr_record(dtype),) + dense, dict(extra)) for extra in settings or ({},)]

    return make


@op_table.op(inputs="csr_tensor", dtypes=op_table.ANY, input_dtypes={"csr_tensor": op_table.CSR},
             samples=_csr_samples(), reference=dense_of, grad_check=False)
def csr_to_dense(csr_tensor):
    """A CSRTensor as a dense Tensor.

    Example:
        >>> from sporax import CSRTensor, Tensor, ops
        >>> csr = CSRTensor(Tensor([0, 1, 1]), Tensor([1]), Tensor([2.0]), (2, 2))
        >>> ops.csr_to_dense(csr).asnumpy().tolist()
        [[0.0, 2.0], [0.0, 0.0]]
    """
    return csr_values_to_dense(csr_tensor.indptr, csr_tensor.indices, csr_tensor.values, csr_tensor.shape)


@op_table.op(inputs="tensor", dtypes=op_table.ANY, input_dtypes={"tensor": op_table.CSR},
             samples=_csr_samples(), reference=dense_of, grad_check=False)
def csr_to_coo(tensor):
    """A CSRTensor as a COOTensor (indices of the dtype of the CSRTensor's ``indices``).

    Example:
        >>> from sporax import CSRTensor, Tensor, ops
        >>> csr = CSRTensor(Tensor([0, 1, 1]), Tensor([1]), Tensor([2.0]), (2, 2))
        >>> ops.csr_to_coo(csr).indices.asnumpy().tolist()
        [[0, 1]]
    """
    columns = tensor.indices
    return COOArrays(jnp.stack([tensor.rows().astype(columns.dtype), columns], axis=1), tensor.values, tensor.shape)


def _row_index_samples(dtype):
    if dtype != "float32":  # integer inputs: one run
        return []
    return [op_table.Sample((np.array([0, 0, 2, 2, 2], np.int32),), {"height": 4})]


def _coo2csr_reference(row_indices, height):
    return np.concatenate([[0], np.cumsum(np.bincount(row_indices, minlength=height))]).astype(row_indices.dtype)


@op_table.op(inputs="row_indices", dtypes=op_table.ANY, indices="row_indices", primitive="COO2CSR",
             samples=_row_index_samples, reference=_coo2csr_reference, grad_check=False)
def coo2csr(row_indices, height):
    """Row pointers (length ``height + 1``) from the sorted row index of every entry.

    Example:
        >>> from sporax import Tensor, ops
        >>> ops.coo2csr(Tensor([0, 1, 1]), 3).asnumpy().tolist()
        [0, 1, 3, 3]
    """
    pointers = jnp.searchsorted(row_indices, jnp.arange(height + 1, dtype=row_indices.dtype), side="left")
    return pointers.astype(row_indices.dtype)


def _indptr_samples(dtype):
    if dtype != "float32":
        return []
    return [op_table.Sample((np.array([0, 2, 2, 5], np.int32),), {"nnz": 5})]


def _csr2coo_reference(indptr, nnz):
    return np.repeat(np.arange(len(indptr) - 1), np.diff(indptr))[:nnz].astype(indptr.dtype)


@op_table.op(inputs="indptr", dtypes=op_table.ANY, indices="indptr", primitive="CSR2COO", samples=_indptr_samples,
             reference=_csr2coo_reference, grad_check=False)
def csr2coo(indptr, nnz):
    """The row index of each of the ``nnz`` entries from row pointers ``indptr``.

    Example:
        >>> from sporax import Tensor, ops
        >>> ops.csr2coo(Tensor([0, 1, 3]), 3).asnumpy().tolist()
        [0, 1, 1]
    """
    rows = jnp.searchsorted(indptr, jnp.arange(nnz, dtype=indptr.dtype), side="right") - 1
    return rows.astype(indptr.dtype)


def _coo_concat_samples(dtype):
    first = COOArrays(np.array([[0, 1], [1, 0]], np.int32), samples.values((2,), dtype, seed=1), (2, 3))
    second = COOArrays(np.array([[0, 2], [2, 1]], np.int32), samples.values((2,), dtype, seed=2), (3, 3))
    third = COOArrays(np.array([[1, 0]], np.int32), samples.values((1,), dtype, seed=3), (2, 2))
    return [op_table.Sample(((first, second),)), op_table.Sample(((first, third),), {"concat_dim": 1})]


def _coo_concat_reference(sp_input, concat_dim=0):
    return np.concatenate([dense_of(record) for record in sp_input], axis=concat_dim)


@op_table.op(inputs="sp_input", sequences="sp_input", dtypes=op_table.ANY, input_dtypes={"sp_input": op_table.COO},
             samples=_coo_concat_samples, reference=_coo_concat_reference, grad_check=False)
def coo_concat(sp_input, concat_dim=0):
    """Concatenate 2-D COOTensors along ``concat_dim``; the entries come out in row-major order.

    Each input's indices along ``concat_dim`` are shifted by the sizes of the inputs before it; the other
    dimension must agree. At least two inputs, all with one values dtype.

    Example:
        >>> from sporax import COOTensor, Tensor, ops
        >>> a = COOTensor(Tensor([[0, 1]]), Tensor([1.0]), (2, 2))
        >>> b = COOTensor(Tensor([[0, 0]]), Tensor([2.0]), (2, 3))
        >>> ops.coo_concat((a, b), 1).indices.asnumpy().tolist()
        [[0, 1], [0, 2]]
    """
    if isinstance(concat_dim, bool) or not isinstance(concat_dim, (int, np.integer)):
        raise TypeError(f"For 'coo_concat', 'concat_dim' must be an int, but got {type(concat_dim).__name__}.")
    inputs = list(sp_input)
    if len(inputs) < 2:
        raise ValueError(f"For 'coo_concat', 'sp_input' must hold at least 2 COOTensors, but got {len(inputs)}.")
    if not -2 <= concat_dim < 2:
        raise IndexError(f"For 'coo_concat', 'concat_dim' must be in [-2, 2) for 2-D COOTensors, "
                         f"but got {concat_dim}.")
    axis = concat_dim % 2
    other = 1 - axis
    if len({coo.values.dtype for coo in inputs}) > 1:
        raise TypeError(f"For 'coo_concat', every input's values must share one dtype, but got "
                        f"{[str(coo.values.dtype) for coo in inputs]}.")
    if len({coo.shape[other] for coo in inputs}) > 1:
        raise RuntimeError(f"For 'coo_concat', the inputs' dimension {other} must agree (only 'concat_dim' "
                           f"may differ), but got shapes {[tuple(coo.shape) for coo in inputs]}.")
    pieces, offset = [], 0
    for coo in inputs:
        pieces.append(coo.indices.at[:, axis].add(jnp.asarray(offset, coo.indices.dtype)))
        offset += coo.shape[axis]
    indices = jnp.concatenate(pieces)
    values = jnp.concatenate([coo.values for coo in inputs])
    order = jnp.lexsort((indices[:, 1], indices[:, 0]))
    shape = list(inputs[0].shape)
    shape[axis] = offset
    return COOArrays(indices[order], values[order], tuple(shape))
