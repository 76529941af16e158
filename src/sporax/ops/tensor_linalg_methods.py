"""Tensor methods onto the functional ops (linear algebra, order statistics, scatters, in-place writes).

Each method is the functional op with the Tensor first, as MindSpore 2.10's methods are; the
in-place ones (``put_``, ``scatter_``, ``masked_scatter_``) rebind the tensor's array through the
state layer's ``write`` and return the tensor.
"""
import jax
import jax.numpy as jnp

from sporax.core.random_state import next_key
from sporax.core.tensor import Tensor
from sporax.ops.functional import (array_embedding, factorizations, indexing, matrix_functions, order_statistics,
                                   special_math)
from sporax.ops.functional import scatters
from sporax.ops.functional import solve
from sporax.ops import dlpack
from sporax.state.assign import write

wrap = Tensor._wrap


def qr(self, some=True):
    """``(Q, R)`` of this matrix (``some``: the reduced factorisation)."""
    return factorizations.qr(self, "reduced" if some else "complete")


def searchsorted(self, v, side="left", sorter=None):
    """Insertion indices of ``v`` into this sorted Tensor."""
    return order_statistics.searchsorted(self, v, side=side, sorter=sorter)


def select(self, dim, index):
    """The slice at ``index`` along ``dim`` (that axis removed); MindSpore 2.10's other form,
    ``x.select(condition, y)`` with a Tensor ``condition``, is ``ops.select(condition, x, y)``."""
    if isinstance(dim, Tensor):
        return indexing.select(dim, self, index)
    from sporax.ops.operations.array_nn_ops import SelectView

    return SelectView()(self, dim, index)


def log_normal(self, mean=1.0, std=2.0):
    """A new tensor of this shape and dtype with samples of ``exp(N(mean, std**2))``."""
    dtype = self._value.dtype if self._value.dtype.kind == "f" else jnp.float32
    sample = jnp.exp(jax.random.normal(next_key(), self.shape, dtype) * std + mean)
    return wrap(sample.astype(dtype))


def masked_scatter_(self, mask, source):
    """``masked_scatter`` stored into this tensor; returns it."""
    return write(self, array_embedding.masked_scatter(self, mask, source), "Tensor.masked_scatter_")


def _scatter_elements(self, dim, index, src, reduce):
    if not isinstance(src, Tensor):
        index_array = index._value if isinstance(index, Tensor) else jnp.asarray(index)
        src = wrap(jnp.full(index_array.shape, src, self._value.dtype))
    return scatters.tensor_scatter_elements(self, index, src, dim, reduce)


def scatter_(self, dim, index, src=None, *, value=None, reduce="none"):
    """Write ``src`` (or the number ``value``) into this tensor at ``index`` along ``dim``; 'add' adds."""
    source = value if src is None else src
    if source is None:
        raise TypeError("Tensor.scatter_() needs 'src' or 'value'.")
    return write(self, _scatter_elements(self, dim, index, source, reduce), "Tensor.scatter_")


def scatter_add(self, dim, index, src):
    """A new tensor: this one with ``src`` added at ``index`` along ``dim``."""
    return _scatter_elements(self, dim, index, src, "add")


def scatter_add_(self, dim, index, src):
    """``scatter_add`` stored into this tensor; returns it."""
    return write(self, _scatter_elements(self, dim, index, src, "add"), "Tensor.scatter_add_")


def _tensor_scatter(name):
    function = getattr(scatters, "tensor_scatter_" + name)

    def method(self, indices, updates):
        return function(self, indices, updates)
    method.__name__ = "scatter_" + name
    method.__doc__ = f"A new tensor with ``updates`` combined ({name}) at the index tuples ``indices``."
    return method


def to_dlpack(self):
    """A DLPack capsule sharing this tensor's buffer (``mindspore.utils.dlpack.to_dlpack`` as a method)."""
    return dlpack.to_dlpack(self)


def kthvalue(self, k, dim=-1, keepdim=False):
    """``(values, indices)`` of the ``k``-th smallest elements along ``dim`` (Int64 indices): the ``kthvalue``
    op-table entry with MindSpore's ``self``."""
    return order_statistics.kthvalue(self, k, dim, keepdim)


def triangular_solve(self, A, upper=True, transpose=False, unitriangular=False):
    """``(X, A)`` with ``op(A) X = self`` for the triangular matrix ``A``: the ``triangular_solve`` op-table entry
    with MindSpore's ``self``."""
    return solve.triangular_solve(self, A, upper, transpose, unitriangular)


_FIRST = {
    "lcm": special_math.lcm, "nextafter": special_math.nextafter,
    "renorm": special_math.renorm,
    "logdet": matrix_functions.logdet, "slogdet": matrix_functions.slogdet,
    "log_matrix_determinant": matrix_functions.log_matrix_determinant,
    "matrix_determinant": matrix_functions.matrix_determinant, "matrix_power": matrix_functions.matrix_power,
    "orgqr": factorizations.orgqr, "ormqr": factorizations.ormqr,
    "svd": factorizations.svd,
    "nanmedian": order_statistics.nanmedian, "reverse": order_statistics.reverse,
    "masked_scatter": array_embedding.masked_scatter, "put_": array_embedding.put_,
    "select_scatter": array_embedding.select_scatter, "slice_scatter": array_embedding.slice_scatter,
    "sum_to_size": array_embedding.sum_to_size, "ptp": array_embedding.ptp, "unfold": array_embedding.unfold,
}


def install():
    """Set the methods on ``Tensor``."""
    for name, function in _FIRST.items():
        setattr(Tensor, name, function)
    for function in (qr, searchsorted, select, log_normal, masked_scatter_, scatter_, scatter_add, scatter_add_,
                     to_dlpack, kthvalue, triangular_solve):
        setattr(Tensor, function.__name__, function)
    for name in ("sub", "div", "max", "min", "mul"):
        setattr(Tensor, "scatter_" + name, _tensor_scatter(name))


install()
