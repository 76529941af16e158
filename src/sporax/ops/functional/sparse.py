"""Sparse ops: ``ops.dense_to_sparse_coo/csr``, ``ops.csr_mm``, ``ops.csr_mv``, ``ops.csr_softmax``, ``ops.coalesce`` ...

They work on ``COOTensor``/``CSRTensor`` (``sporax.core.sparse``); the element-wise
``coo_*``/``csr_*`` functions are in ``sparse_unary``.

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
from jax.experimental import sparse as jsparse

from sporax.core import dtype as mstype
from sporax.core import sparse_util as su
from sporax.core.sparse import COOTensor, RowTensor
from sporax.core.sparse_csr import CSRTensor, csr_matmul_csr
from sporax.core.tensor import Tensor
from sporax.ops import op_table, samples
from sporax.ops._dispatch import array_of
from sporax.ops.faces import make_function

wrap = Tensor._wrap


def _require(op_name, name, value, cls):
    if not isinstance(value, cls):
        raise TypeError(f"For '{op_name}', '{name}' must be a {cls.__name__}, but got {type(value).__name__}.")
    return value


def _dense_2d(op_name, tensor):
    su.check_tensor(op_name, "tensor", tensor)
    if tensor.ndim != 2:
        raise ValueError(f"For '{op_name}', 'tensor' must be 2-D, but got shape {tuple(tensor.shape)}.")
    array = tensor._value
    su.require_concrete(op_name, "the number of non-zero entries", array)
    rows, cols = np.nonzero(su.host(array))  # row-major order, as MindSpore
    return array, rows, cols


# --- conversions --------------------------------------------------------------------------
def dense_to_sparse_coo(tensor):
    """The non-zero entries of a 2-D Tensor as a COOTensor (Int32 indices, row-major order)."""
    array, rows, cols = _dense_2d("dense_to_sparse_coo", tensor)
    indices = jnp.asarray(np.stack([rows, cols], axis=1), jnp.int32)
    return COOTensor._make(indices, array[rows, cols], tuple(array.shape))


def dense_to_sparse_csr(tensor):
    """The non-zero entries of a 2-D Tensor as a CSRTensor (Int32 indptr and indices)."""
    array, rows, cols = _dense_2d("dense_to_sparse_csr", tensor)
    indptr = np.searchsorted(rows, np.arange(array.shape[0] + 1), side="left")
    return CSRTensor._make(jnp.asarray(indptr, jnp.int32), jnp.asarray(cols, jnp.int32), array[rows, cols],
                           tuple(array.shape))


def csr_to_coo(tensor):
    """A CSRTensor as a COOTensor."""
    return _require("csr_to_coo", "tensor", tensor, CSRTensor).to_coo()


def csr_to_dense(csr_tensor):
    """A CSRTensor as a dense Tensor."""
    return _require("csr_to_dense", "csr_tensor", csr_tensor, CSRTensor).to_dense()


def coo2csr(row_indices, height):
    """Row pointers (length ``height + 1``) from the sorted row index of every entry."""
    rows = su.check_tensor("coo2csr", "row_indices", row_indices)._value
    pointers = jnp.searchsorted(rows, jnp.arange(height + 1, dtype=rows.dtype), side="left")
    return wrap(pointers.astype(rows.dtype))


def csr2coo(indptr, nnz):
    """The row index of each of the ``nnz`` entries from row pointers ``indptr``."""
    pointers = su.check_tensor("csr2coo", "indptr", indptr)._value
    rows = jnp.searchsorted(pointers, jnp.arange(nnz, dtype=pointers.dtype), side="right") - 1
    return wrap(rows.astype(pointers.dtype))


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
def coo_add(x1, x2, thresh):
    """``x1 + x2`` for two COOTensors; a summed entry of magnitude below ``thresh`` is dropped."""
    return _require("coo_add", "x1", x1, COOTensor).add(_require("coo_add", "x2", x2, COOTensor), thresh)


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
    for position, coo in enumerate(inputs):
        _require("coo_concat", f"sp_input[{position}]", coo, COOTensor)
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
        indices = coo.indices._value
        pieces.append(indices.at[:, axis].add(jnp.asarray(offset, indices.dtype)))
        offset += coo.shape[axis]
    indices = jnp.concatenate(pieces)
    values = jnp.concatenate([coo.values._value for coo in inputs])
    order = jnp.lexsort((indices[:, 1], indices[:, 0]))
    shape = list(inputs[0].shape)
    shape[axis] = offset
    return COOTensor._make(indices[order], values[order], tuple(shape))


def csr_add(a, b, alpha, beta):
    """``alpha * a + beta * b`` for two CSRTensors of one shape."""
    return _require("csr_add", "a", a, CSRTensor).add(_require("csr_add", "b", b, CSRTensor), alpha, beta)


def csr_mul(x, y):
    """``x * y``: a CSRTensor times a dense Tensor broadcast to its shape (values only where ``x`` has entries)."""
    return _require("csr_mul", "x", x, CSRTensor) * su.check_tensor("csr_mul", "y", y)


def csr_div(x, y):
    """``x / y``: a CSRTensor divided by a dense Tensor broadcast to its shape."""
    return _require("csr_div", "x", x, CSRTensor) / su.check_tensor("csr_div", "y", y)


def csr_mv(csr_tensor, dense):
    """``csr_tensor @ dense`` for a dense column of shape ``(N, 1)``."""
    return _require("csr_mv", "csr_tensor", csr_tensor, CSRTensor).mv(dense)


def csr_reduce_sum(csr_tensor, axis):
    """Row sums of a CSRTensor (``axis`` 1 or -1), shape ``(M, 1)``."""
    return _require("csr_reduce_sum", "csr_tensor", csr_tensor, CSRTensor).sum(axis)


def _transposed(csr, conjugate):
    """The transpose of a 2-D CSRTensor (traceable: a sort of the entries by column)."""
    coo = csr.to_coo()
    values = coo.values._value
    if conjugate:
        values = jnp.conj(values)
    swapped = COOTensor._make(coo.indices._value[:, ::-1], values, (csr.shape[1], csr.shape[0]))
    return swapped.to_csr()


def csr_mm(a, b, trans_a=False, trans_b=False, adjoint_a=False, adjoint_b=False):
    """``op(a) @ op(b)`` for two CSRTensors, a CSRTensor; ``op`` transposes (``trans_*``) or takes the
    conjugate transpose (``adjoint_*``)."""
    if not isinstance(a, CSRTensor) or not isinstance(b, CSRTensor):
        raise TypeError(f"For 'csr_mm', 'a' and 'b' must be CSRTensors, but got {type(a).__name__} and "
                        f"{type(b).__name__}. For a dense 'b' use CSRTensor.mm(b).")
    if trans_a or adjoint_a:
        a = _transposed(a, adjoint_a)
    if trans_b or adjoint_b:
        b = _transposed(b, adjoint_b)
    return csr_matmul_csr(a, b)


def csr_softmax(logits, dtype):
    """Softmax over the stored entries of each row of a 2-D CSRTensor; the result has ``dtype``."""
    _require("csr_softmax", "logits", logits, CSRTensor)
    if len(logits.shape) != 2:
        raise ValueError(f"For 'csr_softmax', 'logits' must be a 2-D CSRTensor, but got shape {logits.shape}.")
    np_dtype = mstype.to_numpy_dtype(mstype.normalize(dtype))
    values = logits.values._value.astype(np_dtype)
    rows = logits._rows()
    count = logits.shape[0]
    row_max = _segment_max(values, rows, count)
    exponent = jnp.exp(values - row_max[rows])
    total = su.segment_sum(exponent, rows, count)
    return logits._with_values(exponent / total[rows])


def _segment_max(values, rows, count):
    # the row maximum only stabilises exp(); softmax's value and gradient do not depend on it
    return jax.lax.stop_gradient(jax.ops.segment_max(values, rows, num_segments=count))


def csr_gather(indptr, indices, dense, dense_shape):
    """The entries of ``dense`` at the positions of a CSR structure, as the values of a CSRTensor."""
    pointers = su.check_tensor("csr_gather", "indptr", indptr)._value
    columns = su.check_tensor("csr_gather", "indices", indices)._value
    array = su.check_tensor("csr_gather", "dense", dense)._value
    rows = jnp.searchsorted(pointers, jnp.arange(columns.shape[0], dtype=pointers.dtype), side="right") - 1
    return wrap(array[rows, columns])


# --- sparse given as (indices, values, shape), as the SparseToDense / SparseTensorDenseMatmul ops ---
def sparse_to_dense(indices, values, sparse_shape):
    """The dense Tensor of ``sparse_shape`` with ``values`` at the N-D ``indices`` (shape ``(N, rank)``)."""
    index_array = su.check_tensor("SparseToDense", "indices", indices)._value
    value_array = su.check_tensor("SparseToDense", "values", values)._value
    shape = tuple(int(dim) for dim in sparse_shape)
    dense = jnp.zeros(shape, value_array.dtype)
    return wrap(dense.at[tuple(index_array[:, axis] for axis in range(len(shape)))].add(value_array, mode="drop"))


def sparse_tensor_dense_matmul(indices, values, sparse_shape, dense, adjoint_st=False, adjoint_dt=False):
    """``op(S) @ op(dense)`` for the 2-D sparse ``S`` given by ``indices``/``values``/``sparse_shape``."""
    index_array = su.check_tensor("SparseTensorDenseMatmul", "indices", indices)._value
    value_array = su.check_tensor("SparseTensorDenseMatmul", "values", values)._value
    dense_array = su.check_tensor("SparseTensorDenseMatmul", "dense", dense)._value
    shape = tuple(int(dim) for dim in sparse_shape)
    if adjoint_st:
        index_array, value_array, shape = index_array[:, ::-1], jnp.conj(value_array), shape[::-1]
    if adjoint_dt:
        dense_array = jnp.conj(dense_array.T)
    if dense_array.ndim != 2 or dense_array.shape[0] != shape[1]:
        raise ValueError(f"For 'SparseTensorDenseMatmul', the dense operand must be 2-D with {shape[1]} rows, "
                         f"but got shape {tuple(dense_array.shape)}.")
    dtype = jnp.promote_types(value_array.dtype, dense_array.dtype)
    matrix = jsparse.BCOO((value_array.astype(dtype), index_array), shape=shape)
    return wrap(matrix @ dense_array.astype(dtype))


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
    index = np.asarray(array_of("coalesce", "x_indices", x_indices))
    values = array_of("coalesce", "x_values", x_values)
    dense_shape = np.asarray(array_of("coalesce", "x_shape", x_shape))
    if index.ndim != 2 or values.ndim != 1 or index.shape[1] != values.shape[0] or index.shape[0] != dense_shape.size:
        raise ValueError(f"For 'coalesce', expected x_indices (ndim, N), x_values (N,) and x_shape (ndim,), but got "
                         f"{index.shape}, {tuple(values.shape)} and {dense_shape.shape}.")
    if index.size and ((index < 0).any() or (index >= dense_shape[:, None]).any()):
        raise ValueError("For 'coalesce', every index must lie inside x_shape.")
    flat = np.ravel_multi_index(tuple(index), tuple(dense_shape)) if index.size else np.zeros((0,), np.int64)
    unique, inverse = np.unique(flat, return_inverse=True)
    summed = jnp.zeros((unique.size,), values.dtype).at[jnp.asarray(inverse.reshape(-1))].add(values)
    merged = np.stack(np.unravel_index(unique, tuple(dense_shape))) if unique.size else index[:, :0]
    return wrap(jnp.asarray(merged.astype(index.dtype))), wrap(summed), wrap(jnp.asarray(dense_shape))


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
