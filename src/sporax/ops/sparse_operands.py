"""Sparse operands of op-table entries: a COOTensor or CSRTensor as a kernel sees it, and back.

An entry that takes a ``COOTensor``/``CSRTensor`` names that input with the per-input rule ``COO``/``CSR``
(``op(input_dtypes={"x": COO})``). Its faces read the sparse tensor into ``COOArrays``/``CSRArrays``: the
component jax arrays and the dense shape (static: a compiled kernel is specialised on it), with the values
checked and cast by the entry's own dtype rule (``coo_exp`` of Int32 values computes in Float32, as ``exp``
does). A kernel that returns such a record gets the sparse tensor built back by the face (``face_runners``). Both records are
JAX pytrees, so a kernel compiles and differentiates through them like through plain arrays.

Example:
    >>> import numpy as np
    >>> from sporax.ops.sparse_operands import COOArrays
    >>> coo = COOArrays(np.array([[0, 1]], np.int32), np.array([2.0], np.float32), (2, 2)).tensor()
    >>> coo.to_dense().asnumpy().tolist()
    [[0.0, 2.0], [0.0, 0.0]]
"""
import dataclasses

import jax
import jax.numpy as jnp
import numpy as np

from sporax.core.sparse import COOTensor
from sporax.core.sparse_csr import CSRTensor
from sporax.ops.op_table import COO, CSR


class _Components:
    """What both records share: ``components`` names their arrays in the sparse class's ``_make`` order."""
    components = ()
    sparse_class = None

    def with_values(self, values):
        """The same structure holding ``values``."""
        return dataclasses.replace(self, values=values)

    def tensor(self):
        """The sparse tensor of these components."""
        arrays = [jnp.asarray(getattr(self, name)) for name in self.components]
        return self.sparse_class._make(*arrays, tuple(self.shape))


@dataclasses.dataclass(frozen=True)
class COOArrays(_Components):
    """A COOTensor's components: ``indices`` (N, 2), ``values`` (N,), the dense ``shape`` (a tuple)."""
    indices: object
    values: object
    shape: tuple
    components = ("indices", "values")
    sparse_class = COOTensor

    def rows(self):
        """The row of every stored value."""
        return self.indices[:, 0]

    def columns(self):
        """The column of every stored value."""
        return self.indices[:, 1]


@dataclasses.dataclass(frozen=True)
class CSRArrays(_Components):
    """A CSRTensor's components: ``indptr`` (M + 1,), ``indices`` (N,) columns, ``values`` (N, ...), ``shape``."""
    indptr: object
    indices: object
    values: object
    shape: tuple
    components = ("indptr", "indices", "values")
    sparse_class = CSRTensor

    def rows(self):
        """The row of every stored value: the last row whose start is at or before it (static length)."""
        count = self.indices.shape[0]
        return jnp.searchsorted(self.indptr, jnp.arange(count, dtype=self.indptr.dtype), side="right") - 1

    def columns(self):
        """The column of every stored value."""
        return self.indices


SPARSE_ARRAYS = (COOArrays, CSRArrays)


def _register(cls):
    jax.tree_util.register_pytree_node(
        cls, lambda record: (tuple(getattr(record, name) for name in cls.components), record.shape),
        lambda shape, children: cls(*children, shape))


_register(COOArrays)
_register(CSRArrays)

SPARSE_RULES = (COO, CSR)
_CLASSES = {COO: COOTensor, CSR: CSRTensor}


def sparse_reader(rule, read_values):
    """The reader of a ``COO``/``CSR`` input: the tensor's ``COOArrays``/``CSRArrays``, its values read by
    ``read_values`` (the entry's dtype rule: a refused dtype raises naming ``'x.values'``)."""
    cls = _CLASSES[rule]

    def read(op_name, arg_name, value):
        if not isinstance(value, cls):
            raise TypeError(f"For '{op_name}', '{arg_name}' must be a {cls.__name__}, but got "
                            f"{type(value).__name__}. Make one with {cls.__name__}(...) or "
                            f"ops.dense_to_sparse_{rule}(tensor).")
        try:
            values = read_values(op_name, f"{arg_name}.values", value.values)
        except TypeError as error:
            raise TypeError(f"{error} (A {cls.__name__}'s values are cast with {arg_name}.astype(dtype).)") from None
        return record_of(value).with_values(values)

    return read


def record_of(sparse):
    """The ``COOArrays``/``CSRArrays`` of a COOTensor/CSRTensor (its component jax arrays)."""
    if isinstance(sparse, COOTensor):
        return COOArrays(sparse.indices._value, sparse.values._value, tuple(sparse.shape))
    return CSRArrays(sparse.indptr._value, sparse.indices._value, sparse.values._value, tuple(sparse.shape))


def positions(record):
    """``(rows, columns)`` of the stored values of a record of NumPy components, computed with NumPy alone
    (for references)."""
    indices = np.asarray(record.indices, np.int64)
    if isinstance(record, COOArrays):
        return indices[:, 0], indices[:, 1]
    indptr = np.asarray(record.indptr, np.int64)
    return np.repeat(np.arange(len(indptr) - 1), np.diff(indptr)), indices


def dense_of(record):
    """The dense NumPy array of a record of NumPy components (values at repeated positions add up): for
    references."""
    values = np.asarray(record.values)
    dense = np.zeros(tuple(record.shape), values.dtype)
    np.add.at(dense, positions(record), values)
    return dense
