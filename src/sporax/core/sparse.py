"""MindSpore's sparse tensors: ``COOTensor`` and ``RowTensor`` (``CSRTensor`` is in ``sparse_csr``).

A sparse tensor holds its components as Tensors and its dense shape as a tuple of ints. Each
class is a JAX pytree (the component arrays are the leaves, the shape is static), so sparse
tensors pass through ``jax.jit``/``grad`` and sporax's transforms, and their values get
gradients through ``to_dense``, products with dense tensors and sparse matmuls.

Index dtypes: MindSpore's CPU kernels accept only Int64 indices for ``coalesce`` and sparse +
sparse, and only Int32 for ``to_csr``; sporax accepts Int16/Int32/Int64 everywhere and keeps
the index dtype it was given.
"""
import functools

import jax
import jax.numpy as jnp
import numpy as np

from sporax.core import dtype as mstype
from sporax.core import sparse_util as su
from sporax.core.sparse_print import sparse_repr
from sporax.core.tensor import Tensor

wrap = Tensor._wrap


class SparseTensorBase:
    """Attributes shared by the sparse classes: ``shape``, ``dtype``, ``size``, ``itemsize``, ``ndim``."""

    __slots__ = ()

    @property
    def shape(self):
        """The dense shape, a tuple of ints."""
        return self._shape

    @property
    def dtype(self):
        """The dtype of the values."""
        return self._values.dtype

    @property
    def size(self):
        """The number of stored values."""
        return self._values.size

    @property
    def itemsize(self):
        """Bytes per value."""
        return self._values.itemsize

    @property
    def ndim(self):
        """The rank of the dense shape."""
        return len(self._shape)

    @property
    def values(self):
        """The stored values, a Tensor."""
        return self._values

    @property
    def indices(self):
        """The indices, a Tensor."""
        return self._indices

    def __str__(self):
        return self.__repr__()

    @classmethod
    def _make(cls, *components):
        """An instance from its components in ``__slots__`` order (arrays or Tensors, the shape
        last), without checks (the ops' path)."""
        sparse = object.__new__(cls)
        *arrays, shape = components
        # a subclass that adds no slots (RowTensor of RowTensorInner) takes its base's
        slots = next(klass.__slots__ for klass in cls.__mro__ if klass.__dict__.get("__slots__"))
        for name, value in zip(slots[:-1], arrays):
            setattr(sparse, name, value if isinstance(value, Tensor) else wrap(value))
        sparse._shape = shape
        return sparse

    def _unary(self, function, dtype=None):
        """The same structure with ``function`` applied to the values."""
        values = function(self._values._value)
        if dtype is not None:
            values = values.astype(mstype.to_numpy_dtype(dtype))
        return self._with_values(values)


class _ValueArithmetic(SparseTensorBase):
    """``-x``, ``x * y`` and ``x / y`` with a number or a dense Tensor, applied to the stored values
    (COOTensor and CSRTensor; each says in ``_gathered`` how to read a dense Tensor at its indices)."""

    __slots__ = ()

    def __neg__(self):
        return self._unary(jnp.negative)

    def __mul__(self, other):
        name = type(self).__name__
        if isinstance(other, Tensor):
            gathered, dtype = self._gathered(other, "*")
            return self._with_values(self._values._value.astype(mstype.to_numpy_dtype(dtype)) * gathered)
        if _is_number(other):
            # MindSpore 2.10's CSRTensor returns only the scaled values Tensor here; sporax keeps the
            # sparse tensor, as its COOTensor does.
            dtype = su.result_dtype(self.dtype, other)
            return self._with_values(self._values._value.astype(mstype.to_numpy_dtype(dtype)) * other)
        if isinstance(other, SparseTensorBase):
            raise TypeError(f"{name} multiply with {type(other).__name__} is not supported: multiply by a "
                            "dense Tensor, or use to_dense() first.")
        return NotImplemented

    __rmul__ = __mul__

    def __truediv__(self, other):
        if isinstance(other, Tensor):
            gathered, dtype = self._gathered(other, "/")
            np_dtype = mstype.to_numpy_dtype(su.divide_dtype(dtype))
            return self._with_values(self._values._value.astype(np_dtype) / gathered.astype(np_dtype))
        if _is_number(other):
            np_dtype = mstype.to_numpy_dtype(su.divide_dtype(su.result_dtype(self.dtype, other)))
            return self._with_values(self._values._value.astype(np_dtype) / other)
        if isinstance(other, SparseTensorBase):
            raise TypeError(f"{type(self).__name__} divide by {type(other).__name__} is not supported.")
        return NotImplemented


class COOTensor(_ValueArithmetic):
    """A 2-D sparse tensor in coordinate format (``mindspore.COOTensor``).

    Args:
        indices (Tensor): Int16/Int32/Int64 of shape ``(N, 2)``, the (row, column) of each value.
        values (Tensor): shape ``(N,)``, the stored values.
        shape (tuple(int)): the dense shape, two positive ints.
        coo_tensor (COOTensor): copy this COOTensor instead (the other arguments are ignored).

    Example:
        >>> coo = COOTensor(Tensor([[0, 1], [1, 2]], mindspore.int32), Tensor([1., 2.]), (3, 4))
        >>> coo.to_dense().shape
        (3, 4)
    """

    __slots__ = ("_indices", "_values", "_shape")

    def __init__(self, indices=None, values=None, shape=None, coo_tensor=None):
        if coo_tensor is not None:
            if not isinstance(coo_tensor, COOTensor):
                raise TypeError(f"For COOTensor, 'coo_tensor' must be a COOTensor, but got "
                                f"{type(coo_tensor).__name__}.")
            indices, values, shape = coo_tensor._indices, coo_tensor._values, coo_tensor._shape
        else:
            _check_coo("COOTensor", indices, values, shape)
        self._indices, self._values, self._shape = indices, values, tuple(shape)

    def _with_values(self, values):
        return COOTensor._make(self._indices, values, self._shape)

    def __repr__(self):
        return sparse_repr("COOTensor", self._shape, self.dtype,
                           [("indices", self._indices), ("values", self._values)])

    # --- conversions ------------------------------------------------------------------------
    def to_dense(self):
        """The dense Tensor; values at repeated indices add up."""
        return wrap(_coo_to_dense(self._indices._value, self._values._value, self._shape))

    def to_tuple(self):
        """``(indices, values, shape)``."""
        return self._indices, self._values, self._shape

    def to_csr(self):
        """The same entries as a CSRTensor, ordered by row then column."""
        indptr, columns, values = _coo_to_csr(self._indices._value, self._values._value, self._shape[0])
        return CSRTensor._make(indptr, columns, values, self._shape)

    def astype(self, dtype):
        """The same entries with values cast to ``dtype``."""
        return self._with_values(self._values._value.astype(mstype.to_numpy_dtype(mstype.normalize(dtype))))

    def abs(self):
        """Absolute values."""
        return self._unary(jnp.abs)

    # --- structure-changing ops (need concrete indices) --------------------------------------
    def coalesce(self):
        """Sorted, duplicate-free entries: values at the same index add up.

        MindSpore 2.10's CPU kernel gives wrong results for unsorted inputs with duplicates; sporax
        follows the documented semantics.
        """
        indices = self._indices._value
        su.require_concrete("COOTensor.coalesce", "the coalesced structure", indices)
        host_indices = su.host(indices).astype(np.int64)
        keys = host_indices[:, 0] * self._shape[1] + host_indices[:, 1]
        unique, inverse, _ = su.merge_keys(keys)
        values = su.segment_sum(self._values._value, inverse, len(unique))
        return COOTensor._make(_indices_from_keys(unique, self._shape[1], indices.dtype), values, self._shape)

    def add(self, other, thresh):
        """``self + other`` for two COOTensors of one shape (``mindspore.ops.coo_add``).

        Args:
            other (COOTensor): the other addend.
            thresh (Tensor): an entry present in both whose sum has a magnitude below ``thresh`` is
                dropped (entries present in only one input are always kept).
        """
        if not isinstance(other, COOTensor):
            raise TypeError(f"For COOTensor.add, 'other' must be a COOTensor, but got {type(other).__name__}.")
        if other._shape != self._shape:
            raise ValueError(f"For COOTensor.add, the shapes must be equal, but got {self._shape} and "
                             f"{other._shape}.")
        left, right = self._indices._value, other._indices._value
        su.require_concrete("COOTensor.add", "the sum's structure", left, right)
        index_dtype = su.wider_index_dtype(left.dtype, right.dtype)
        both = np.concatenate([su.host(left), su.host(right)]).astype(np.int64)
        keys = both[:, 0] * self._shape[1] + both[:, 1]
        unique, inverse, counts = su.merge_keys(keys)
        dtype = mstype.promote(self.dtype, other.dtype)
        np_dtype = mstype.to_numpy_dtype(dtype)
        values = su.segment_sum(jnp.concatenate([self._values._value.astype(np_dtype),
                                                 other._values._value.astype(np_dtype)]), inverse, len(unique))
        threshold = thresh._value if isinstance(thresh, Tensor) else thresh
        if not su.is_traced(threshold) and float(np.asarray(threshold)) > 0 and np.any(counts > 1):
            su.require_concrete("COOTensor.add with thresh > 0", "dropping small sums", values)
            keep = (counts == 1) | (np.abs(su.host(values)) >= float(np.asarray(threshold)))
            unique, values = unique[keep], values[np.flatnonzero(keep)]
        return COOTensor._make(_indices_from_keys(unique, self._shape[1], index_dtype), values, self._shape)

    # --- arithmetic -------------------------------------------------------------------------
    def _gathered(self, other, op):
        """``other`` (a dense Tensor) read at the stored indices, and the result dtype."""
        su.check_dense_operand("COOTensor", op, other, self._shape)
        dtype = su.result_dtype(self.dtype, other)
        dense = jnp.broadcast_to(su.as_jax(other, dtype), self._shape)
        indices = self._indices._value
        return dense[indices[:, 0], indices[:, 1]], dtype

    def _scatter_into(self, dense, sign, op):
        """For a scatter-add: the dense operand (broadcast, promoted), the indices and ``sign * values``."""
        su.check_dense_operand("COOTensor", op, dense, self._shape)
        dtype = su.result_dtype(self.dtype, dense)
        np_dtype = mstype.to_numpy_dtype(dtype)
        base = jnp.broadcast_to(su.as_jax(dense, dtype), self._shape)
        indices = self._indices._value
        values = self._values._value.astype(np_dtype)
        return base, indices, (values if sign > 0 else -values)

    def __add__(self, other):
        if isinstance(other, COOTensor):
            return self.add(other, Tensor(0.0, mstype.float32))
        if isinstance(other, Tensor):
            base, indices, values = self._scatter_into(other, 1, "+")
            return wrap(base.at[indices[:, 0], indices[:, 1]].add(values, mode="drop"))
        return _unsupported("COOTensor", "add", other)

    __radd__ = __add__

    def __sub__(self, other):
        if isinstance(other, COOTensor):
            return self.add(-other, Tensor(0.0, mstype.float32))
        if isinstance(other, Tensor):
            # self - dense = (-dense) + self, so untouched entries are -dense exactly (MindSpore keeps -0.0)
            base, indices, values = self._scatter_into(other, 1, "-")
            return wrap((-base).at[indices[:, 0], indices[:, 1]].add(values, mode="drop"))
        return _unsupported("COOTensor", "subtract", other)

    def __rsub__(self, other):
        if isinstance(other, Tensor):
            base, indices, values = self._scatter_into(other, -1, "-")
            return wrap(base.at[indices[:, 0], indices[:, 1]].add(values, mode="drop"))
        return _unsupported("COOTensor", "subtract", other)


class RowTensorInner(SparseTensorBase):
    """The class MindSpore's graphs build for a RowTensor (``mindspore.common.sparse_tensor.RowTensorInner``);
    ``RowTensor``, its public subclass, takes the same arguments.

    Examples:
        >>> from sporax import Tensor
        >>> from sporax.core.sparse import RowTensorInner
        >>> RowTensorInner(Tensor([0]), Tensor([[1.0, 2.0]]), (3, 2)).dense_shape
        (3, 2)
    """

    __slots__ = ("_indices", "_values", "_shape")

    def __init__(self, indices=None, values=None, shape=None, row_tensor=None):
        if row_tensor is not None:
            if not isinstance(row_tensor, RowTensorInner):
                raise TypeError(f"For RowTensor, 'row_tensor' must be a RowTensor, but got "
                                f"{type(row_tensor).__name__}.")
            indices, values, shape = row_tensor._indices, row_tensor._values, row_tensor._shape
        else:
            su.check_tensor("RowTensor", "indices", indices)
            su.check_tensor("RowTensor", "values", values)
            shape = su.check_shape("RowTensor", shape)
        self._indices, self._values, self._shape = indices, values, tuple(shape)

    def _with_values(self, values):
        return type(self)._make(self._indices, values, self._shape)

    @property
    def dense_shape(self):
        """The dense shape, a tuple of ints."""
        return self._shape

    def __repr__(self):
        return sparse_repr("RowTensor", self._shape, self.dtype,
                           [("indices", self._indices), ("values", self._values)])


class RowTensor(RowTensorInner):
    """Rows of a dense tensor: ``values[i]`` is row ``indices[i]`` (``mindspore.RowTensor``).

    Args:
        indices (Tensor): 1-D, the row index of each slice of ``values``.
        values (Tensor): shape ``(N, *shape[1:])``.
        shape (tuple(int)): the dense shape.
        row_tensor (RowTensor): copy this RowTensor instead.

    Examples:
        >>> from sporax import Tensor, RowTensor
        >>> RowTensor(Tensor([0]), Tensor([[1.0, 2.0]]), (3, 2)).values.shape
        (1, 2)
    """

    __slots__ = ()


def _check_coo(owner, indices, values, shape):
    if not isinstance(shape, tuple):
        su.check_shape(owner, shape)  # raises the TypeError naming 'shape'
    su.check_tensor(owner, "indices", indices)
    su.check_tensor(owner, "values", values)
    su.check_index_dtype(owner, "indices", indices)
    if indices.ndim != 2:
        raise ValueError(f"For {owner}, 'indices' must be a 2-dimensional tensor of shape (N, 2), but got a "
                         f"{indices.ndim}-dimensional tensor of shape {indices.shape}.")
    if values.ndim != 1:
        raise ValueError(f"For {owner}, 'values' must be a 1-dimensional tensor, but got a {values.ndim}-"
                         f"dimensional tensor of shape {values.shape}.")
    su.check_shape(owner, shape, rank=2)
    if indices.shape[1] != 2:
        raise ValueError(f"For {owner}, 'indices.shape[1]' must be 2 (a row and a column per value), but got "
                         f"{indices.shape[1]}.")
    if indices.shape[0] != values.shape[0]:
        raise ValueError(f"For {owner}, 'indices.shape[0]' must equal 'values.shape[0]' (one index per value), "
                         f"but got {indices.shape[0]} and {values.shape[0]}.")


# Eager calls of these kernels compile once per (shape, dtype), not once per jnp op inside them.
@functools.partial(jax.jit, static_argnums=2)
def _coo_to_dense(indices, values, shape):
    dense = jnp.zeros(shape, values.dtype)
    return dense.at[indices[:, 0], indices[:, 1]].add(values, mode="drop")


@functools.partial(jax.jit, static_argnums=2)
def _coo_to_csr(indices, values, row_count):
    rows, columns = indices[:, 0], indices[:, 1]
    order = jnp.lexsort((columns, rows))
    indptr = jnp.searchsorted(rows[order], jnp.arange(row_count + 1, dtype=indices.dtype), side="left")
    return indptr.astype(indices.dtype), columns[order], values[order]


def _indices_from_keys(keys, columns, dtype):
    return jnp.asarray(np.stack([keys // columns, keys % columns], axis=1), dtype)


def _is_number(value):
    return isinstance(value, (int, float, np.number)) and not isinstance(value, bool)


def _unsupported(owner, op, other):
    if isinstance(other, SparseTensorBase) or isinstance(other, (int, float)):
        raise TypeError(f"{owner} {op} with {type(other).__name__} is not supported (as in MindSpore): use a "
                        f"dense Tensor of the same shape, or convert with to_dense().")
    return NotImplemented


def _register(cls, names):
    def flatten(sparse):
        return tuple(getattr(sparse, name) for name in names), sparse._shape

    def unflatten(shape, children):
        sparse = object.__new__(cls)
        for name, child in zip(names, children):
            setattr(sparse, name, child)
        sparse._shape = shape
        return sparse

    jax.tree_util.register_pytree_node(cls, flatten, unflatten)


_register(COOTensor, ("_indices", "_values"))
_register(RowTensor, ("_indices", "_values"))

# CSRTensor lives in its own module but is importable from here too (mindspore.common.sparse_tensor holds all
# three); imported last because sparse_csr builds on the classes above.
from sporax.core.sparse_csr import CSRTensor  # noqa: E402
