"""``CSRTensor``: MindSpore's compressed-sparse-row tensor, on ``jax.experimental.sparse.BCSR``.

Row ``i`` holds the entries ``indptr[i]:indptr[i+1]`` of ``indices`` (their columns) and
``values``. Products with dense matrices (``mv``, ``mm``) run through ``BCSR`` so XLA gets the
sparse kernels where the backend has them, and JAX's rules give gradients w.r.t. the values and
the dense operand.
"""
import functools

import jax
import jax.numpy as jnp
import numpy as np

from sporax.core import dtype as mstype
from sporax.core import sparse_util as su
from sporax.core.sparse import COOTensor, SparseTensorBase, _ValueArithmetic, _register, _unsupported
from sporax.core.sparse_print import sparse_repr
from sporax.core.tensor import Tensor

wrap = Tensor._wrap


class CSRTensor(_ValueArithmetic):
    """A sparse tensor in compressed sparse row format (``mindspore.CSRTensor``).

    Args:
        indptr (Tensor): Int16/Int32/Int64 of shape ``(shape[0] + 1,)``, where each row starts.
        indices (Tensor): Int16/Int32/Int64 of shape ``(N,)``, the column of each value.
        values (Tensor): shape ``(N, *shape[2:])``, the stored values.
        shape (tuple(int)): the dense shape (at least 2 positive ints).
        csr_tensor (CSRTensor): copy this CSRTensor instead (the other arguments are ignored).

    Example:
        >>> csr = CSRTensor(Tensor([0, 1, 2], mindspore.int32), Tensor([0, 1], mindspore.int32),
        ...                 Tensor([1., 2.]), (2, 4))
        >>> csr.to_dense().shape
        (2, 4)
    """

    __slots__ = ("_indptr", "_indices", "_values", "_shape")

    def __init__(self, indptr=None, indices=None, values=None, shape=None, csr_tensor=None):
        if csr_tensor is not None:
            if not isinstance(csr_tensor, CSRTensor):
                raise TypeError(f"For CSRTensor, 'csr_tensor' must be a CSRTensor, but got "
                                f"{type(csr_tensor).__name__}.")
            indptr, indices, values, shape = (csr_tensor._indptr, csr_tensor._indices, csr_tensor._values,
                                              csr_tensor._shape)
        else:
            shape = _check_csr(indptr, indices, values, shape)
        self._indptr, self._indices, self._values, self._shape = indptr, indices, values, tuple(shape)

    def _with_values(self, values):
        return CSRTensor._make(self._indptr, self._indices, values, self._shape)

    @property
    def indptr(self):
        """Where each row starts in ``indices`` and ``values``, a Tensor."""
        return self._indptr

    def __repr__(self):
        return sparse_repr("CSRTensor", self._shape, self.dtype,
                           [("indptr", self._indptr), ("indices", self._indices), ("values", self._values)])

    def _rows(self):
        """The row of every stored value (static length, so it traces)."""
        return _rows_of(self._indptr._value, self._indices.shape[0])

    def _bcsr(self):
        # imported here: jax.experimental.sparse imports scipy.sparse (0.4 s and more at every ``import sporax``)
        from jax.experimental import sparse as jsparse

        indices, indptr = self._indices._value, self._indptr._value
        common = su.wider_index_dtype(indices.dtype, indptr.dtype)
        return jsparse.BCSR((self._values._value, indices.astype(common), indptr.astype(common)),
                            shape=self._shape)

    # --- conversions ------------------------------------------------------------------------
    def to_dense(self):
        """The dense Tensor."""
        return wrap(_csr_to_dense(self._indptr._value, self._indices._value, self._values._value, self._shape))

    def to_tuple(self):
        """``(indptr, indices, values, shape)``."""
        return self._indptr, self._indices, self._values, self._shape

    def to_coo(self):
        """The same entries as a COOTensor (indices of the dtype of ``indices``)."""
        columns = self._indices._value
        indices = jnp.stack([self._rows().astype(columns.dtype), columns], axis=1)
        return COOTensor._make(indices, self._values, self._shape)

    def astype(self, dtype):
        """The same entries with values cast to ``dtype``."""
        return self._with_values(self._values._value.astype(mstype.to_numpy_dtype(mstype.normalize(dtype))))

    def abs(self):
        """Absolute values."""
        return self._unary(jnp.abs)

    # --- products and reductions ------------------------------------------------------------
    def mv(self, dense_vector):
        """``self @ dense_vector`` for a dense column of shape ``(shape[1], 1)``; returns ``(shape[0], 1)``."""
        su.check_tensor("CSRTensor.mv", "dense_vector", dense_vector)
        expected = (self._shape[1], 1)
        if len(self._shape) != 2 or tuple(dense_vector.shape) != expected:
            raise ValueError(f"For CSRTensor.mv, 'dense_vector' must have shape {expected} (a column), but got "
                             f"{tuple(dense_vector.shape)}. Reshape a 1-D vector with v.reshape(-1, 1).")
        return self._matmul_dense(dense_vector)

    def mm(self, matrix):
        """``self @ matrix``: a dense Tensor for a dense ``matrix``, a CSRTensor for a CSRTensor."""
        if isinstance(matrix, CSRTensor):
            return csr_matmul_csr(self, matrix)
        su.check_tensor("CSRTensor.mm", "matrix", matrix)
        if len(self._shape) != 2 or matrix.ndim != 2 or matrix.shape[0] != self._shape[1]:
            raise ValueError(f"For CSRTensor.mm, 'matrix' must be 2-D with {self._shape[1]} rows to multiply a "
                             f"CSRTensor of shape {self._shape}, but got shape {tuple(matrix.shape)}.")
        return self._matmul_dense(matrix)

    def _matmul_dense(self, dense):
        dtype = mstype.promote(self.dtype, dense.dtype)
        np_dtype = mstype.to_numpy_dtype(dtype)
        product = self.astype(dtype)._bcsr() @ dense._value.astype(np_dtype)
        return wrap(product)

    def sum(self, axis):
        """Row sums (``axis`` 1 or -1) as a dense Tensor of shape ``(shape[0], 1)``."""
        if axis not in (1, -1) or len(self._shape) != 2:
            raise ValueError(f"For CSRTensor.sum, 'axis' must be 1 or -1 (row sums of a 2-D CSRTensor), but got "
                             f"{axis}. Sum over columns with to_dense().sum(0).")
        sums = su.segment_sum(self._values._value, self._rows(), self._shape[0])
        return wrap(sums.reshape(self._shape[0], 1))

    def add(self, b, alpha, beta):
        """``alpha * self + beta * b`` for two CSRTensors of one shape (``mindspore.ops.csr_add``)."""
        if not isinstance(b, CSRTensor):
            raise TypeError(f"For CSRTensor.add, 'b' must be a CSRTensor, but got {type(b).__name__}.")
        if b._shape != self._shape or len(self._shape) != 2:
            raise ValueError(f"For CSRTensor.add, both CSRTensors must be 2-D of one shape, but got {self._shape} "
                             f"and {b._shape}.")
        su.require_concrete("CSRTensor.add", "the sum's structure", self._indptr._value, self._indices._value,
                            b._indptr._value, b._indices._value)
        dtype = mstype.promote(self.dtype, b.dtype)
        np_dtype = mstype.to_numpy_dtype(dtype)
        columns = self._shape[1]
        keys = np.concatenate([_host_rows(self) * columns + su.host(self._indices._value),
                               _host_rows(b) * columns + su.host(b._indices._value)])
        unique, inverse, _ = su.merge_keys(keys)
        scaled = jnp.concatenate([su.as_jax(alpha, dtype) * self._values._value.astype(np_dtype),
                                  su.as_jax(beta, dtype) * b._values._value.astype(np_dtype)])
        values = su.segment_sum(scaled, inverse, len(unique))
        return _csr_from_keys(unique, values, self._shape, self._indptr._value.dtype, self._indices._value.dtype)

    # --- arithmetic -------------------------------------------------------------------------
    def _gathered(self, other, op):
        su.check_dense_operand("CSRTensor", op, other, self._shape)
        dtype = su.result_dtype(self.dtype, other)
        dense = jnp.broadcast_to(su.as_jax(other, dtype), self._shape)
        return dense[self._rows(), self._indices._value], dtype

    def __add__(self, other):
        if isinstance(other, CSRTensor):
            one = Tensor(1, self.dtype)
            return self.add(other, one, Tensor(1, other.dtype))
        if isinstance(other, Tensor):
            raise TypeError("CSRTensor add with Tensor is not supported (as in MindSpore): use "
                            "csr.to_dense() + tensor.")
        return _unsupported("CSRTensor", "add", other)

    def __sub__(self, other):
        if isinstance(other, CSRTensor):
            return self.add(other, Tensor(1, self.dtype), Tensor(-1, other.dtype))
        if isinstance(other, Tensor):
            raise TypeError("CSRTensor subtract with Tensor is not supported (as in MindSpore): use "
                            "csr.to_dense() - tensor.")
        return _unsupported("CSRTensor", "subtract", other)


# Eager calls of these kernels compile once per (shape, dtype), not once per jnp op inside them.
@functools.partial(jax.jit, static_argnums=1)
def _rows_of(indptr, count):
    """The row of each of ``count`` entries: the last row whose start is at or before the entry."""
    return jnp.searchsorted(indptr, jnp.arange(count, dtype=indptr.dtype), side="right") - 1


@functools.partial(jax.jit, static_argnums=3)
def _csr_to_dense(indptr, indices, values, shape):
    rows = _rows_of(indptr, indices.shape[0])
    return jnp.zeros(shape, values.dtype).at[rows, indices].add(values, mode="drop")


def _check_csr(indptr, indices, values, shape):
    owner = "CSRTensor"
    if not isinstance(shape, tuple):
        su.check_shape(owner, shape)
    for name, value in (("indptr", indptr), ("indices", indices), ("values", values)):
        su.check_tensor(owner, name, value)
    su.check_index_dtype(owner, "indptr", indptr)
    su.check_index_dtype(owner, "indices", indices)
    shape = su.check_shape(owner, shape)
    if len(shape) < 2:
        raise ValueError(f"For CSRTensor, 'shape' must have at least 2 dimensions, but got {shape}.")
    if indptr.ndim != 1 or indices.ndim != 1:
        name, tensor = ("indptr", indptr) if indptr.ndim != 1 else ("indices", indices)
        raise ValueError(f"For CSRTensor, '{name}' must be a 1-dimensional tensor, but got a {tensor.ndim}-"
                         f"dimensional tensor of shape {tensor.shape}.")
    if indptr.shape[0] != shape[0] + 1:
        raise ValueError(f"For CSRTensor, 'indptr' must have length shape[0] + 1 = {shape[0] + 1}, but got "
                         f"{indptr.shape[0]}.")
    if values.ndim == 0 or values.shape[0] != indices.shape[0]:
        raise ValueError(f"For CSRTensor, 'indices' and 'values' must have one entry per value, but got "
                         f"indices shape {indices.shape} and values shape {values.shape}.")
    if values.ndim != len(shape) - 1 or tuple(values.shape[1:]) != shape[2:]:
        raise ValueError(f"For CSRTensor, 'values' must have shape (N, *shape[2:]) = (N, "
                         f"{', '.join(str(dim) for dim in shape[2:])}), but got {values.shape} for shape {shape}.")
    return shape


def _host_rows(csr):
    indptr = su.host(csr._indptr._value).astype(np.int64)
    return np.repeat(np.arange(csr._shape[0], dtype=np.int64), np.diff(indptr))


def _csr_from_keys(keys, values, shape, indptr_dtype, indices_dtype):
    """A CSRTensor from sorted linear keys ``row * columns + column`` and their values."""
    columns = shape[1]
    rows = keys // columns
    indptr = np.searchsorted(rows, np.arange(shape[0] + 1), side="left")
    return CSRTensor._make(jnp.asarray(indptr, indptr_dtype), jnp.asarray(keys % columns, indices_dtype),
                           values, shape)


def csr_matmul_csr(a, b):
    """``a @ b`` for two 2-D CSRTensors: a CSRTensor holding every structurally non-zero product."""
    if len(a._shape) != 2 or len(b._shape) != 2 or a._shape[1] != b._shape[0]:
        raise ValueError(f"For csr_mm, the CSRTensors must be 2-D with a.shape[1] == b.shape[0], but got "
                         f"{a._shape} and {b._shape}.")
    su.require_concrete("csr_mm", "the product's structure", a._indptr._value, a._indices._value,
                        b._indptr._value, b._indices._value)
    rows_b = _host_rows(b)
    cols_b = su.host(b._indices._value).astype(np.int64)
    pattern_b = np.zeros(b._shape, bool)
    pattern_b[rows_b, cols_b] = True
    pattern_a = np.zeros(a._shape, bool)
    pattern_a[_host_rows(a), su.host(a._indices._value).astype(np.int64)] = True
    pattern = (pattern_a.astype(np.int64) @ pattern_b.astype(np.int64)) > 0
    out_rows, out_cols = np.nonzero(pattern)  # row-major, so already sorted by row then column
    shape = (a._shape[0], b._shape[1])
    dense = a.to_dense()._value.astype(mstype.to_numpy_dtype(mstype.promote(a.dtype, b.dtype)))
    product = dense @ b.to_dense()._value.astype(dense.dtype)
    keys = out_rows * shape[1] + out_cols
    return _csr_from_keys(keys, product[out_rows, out_cols], shape, a._indptr._value.dtype,
                          a._indices._value.dtype)


_register(CSRTensor, ("_indptr", "_indices", "_values"))
