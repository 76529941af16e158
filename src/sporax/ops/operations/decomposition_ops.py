"""Primitive classes over decompositions, windows, FFTs and row updates: ``Cholesky``, ``Eig``, ``Geqrf``,
``BartlettWindow``, ``FFTWithSize``, ``InplaceAdd``, ``InplaceIndexAdd``, ``IndexFill``, ``IndexPut`` ...

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> print(ops.Cholesky()(Tensor(np.array([[4.0, 0.0], [0.0, 1.0]], np.float32))))
    [[2. 0.]
     [0. 1.]]
"""
import numbers

import jax.numpy as jnp

from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor
from sporax.ops._dispatch import array_of, describe, wrap
from sporax.ops.functional import indexing, inplace, linalg_products, windows
from sporax.ops.primitive import Primitive, prim_attr_register


def _check_bool(op_name, **flags):
    for name, value in flags.items():
        if not isinstance(value, bool):
            raise TypeError(f"For '{op_name}', '{name}' must be a bool, but got {type(value).__name__}.")


class Cholesky(Primitive):
    """The Cholesky factor of symmetric positive-definite matrices.

    Args:
        upper (bool): return the upper factor ``U`` (``A = U^T U``) instead of the lower. Default: False.
    """

    @prim_attr_register
    def __init__(self, upper=False):
        _check_bool("Cholesky", upper=upper)
        self.upper = upper

    def __call__(self, input_x):
        return linalg_products.cholesky(input_x, self.upper)


class CholeskyInverse(Cholesky):
    """The inverse of ``A`` from its Cholesky factor ``x`` (upper if ``upper``)."""

    def __call__(self, x):
        return linalg_products.cholesky_inverse(x, self.upper)


class CholeskySolve(Cholesky):
    """Solve ``A X = x1`` given the Cholesky factor ``x2`` of ``A`` (upper if ``upper``)."""

    def __call__(self, x1, x2):
        return linalg_products.cholesky_solve(x1, x2, self.upper)


class Eig(Primitive):
    """Eigenvalues (and, with ``compute_v``, right eigenvectors) of square matrices, complex.

    Args:
        compute_v (bool): also return the eigenvectors. Default: False.

    Outputs:
        ``(eigenvalues, eigenvectors)``; ``eigenvectors`` is None without ``compute_v``.
    """

    @prim_attr_register
    def __init__(self, compute_v=False):
        _check_bool("Eig", compute_v=compute_v)
        self.compute_v = compute_v

    def __call__(self, x):
        if self.compute_v:
            return linalg_products.eig(x)
        return linalg_products.eigvals(x), None


class Geqrf(Primitive):
    """The QR decomposition in LAPACK's compact form ``(y, tau)``."""

    def __call__(self, x):
        return linalg_products.geqrf(x)


def _window_length(op_name, value):
    if isinstance(value, Tensor):
        if value.size != 1 or value._value.dtype.kind not in "iu":
            raise ValueError(f"For '{op_name}', 'window_length' must be a one-element int Tensor, but got "
                             f"{describe(value)}.")
        return int(value.asnumpy().reshape(-1)[0])
    return value


class BartlettWindow(Primitive):
    """The Bartlett window of ``window_length`` points (an int Tensor).

    Args:
        periodic (bool): Default: True. dtype (mindspore.dtype): Float16, Float32 or Float64. Default: Float32.
    """

    @prim_attr_register
    def __init__(self, periodic=True, dtype=mstype.float32):
        _check_bool(type(self).__name__, periodic=periodic)
        self.periodic, self.dtype = periodic, dtype

    def __call__(self, window_length):
        return windows.bartlett_window(_window_length(self.name, window_length), self.periodic, dtype=self.dtype)


class BlackmanWindow(BartlettWindow):
    """The Blackman window of ``window_length`` points (an int Tensor)."""

    def __call__(self, window_length):
        return windows.blackman_window(_window_length(self.name, window_length), self.periodic, dtype=self.dtype)


class HammingWindow(Primitive):
    """The generalized Hamming window ``alpha - beta cos(2 pi n / N)`` of ``length`` points.

    Args:
        periodic (bool): Default: True. alpha (float): Default: 0.54. beta (float): Default: 0.46.
        dtype (mindspore.dtype): Default: Float32.
    """

    @prim_attr_register
    def __init__(self, periodic=True, alpha=0.54, beta=0.46, dtype=mstype.float32):
        _check_bool("HammingWindow", periodic=periodic)
        self.periodic, self.alpha, self.beta, self.dtype = periodic, alpha, beta, dtype

    def __call__(self, length):
        return windows.hamming_window(_window_length(self.name, length), self.periodic, self.alpha, self.beta,
                                      dtype=self.dtype)


class FFTWithSize(Primitive):
    """The complex, real (``rfft``-style) or inverse FFT over the last ``signal_ndim`` (1 to 3) axes.

    Args:
        signal_ndim (int): 1, 2 or 3. inverse (bool): the inverse transform. real (bool): a real input
            (forward) or real output (inverse). norm (str): 'backward', 'forward' or 'ortho'.
        onesided (bool): real transforms keep half the last axis. Default: True.
        signal_sizes (tuple[int]): the output sizes of an inverse real one-sided transform. Default: ().
    """

    @prim_attr_register
    def __init__(self, signal_ndim, inverse, real, norm="backward", onesided=True, signal_sizes=()):
        if signal_ndim not in (1, 2, 3):
            raise ValueError(f"For 'FFTWithSize', 'signal_ndim' must be 1, 2 or 3, but got {signal_ndim!r}.")
        _check_bool("FFTWithSize", inverse=inverse, real=real, onesided=onesided)
        if norm not in ("backward", "forward", "ortho"):
            raise ValueError(f"For 'FFTWithSize', 'norm' must be 'backward', 'forward' or 'ortho', but got {norm!r}.")
        self.signal_ndim, self.inverse, self.real = signal_ndim, inverse, real
        self.norm, self.onesided, self.signal_sizes = norm, onesided, tuple(signal_sizes)

    def __call__(self, x):
        array = array_of(self.name, "x", x)
        axes = tuple(range(array.ndim - self.signal_ndim, array.ndim))
        if array.ndim < self.signal_ndim:
            raise ValueError(f"For '{self.name}', 'x' needs at least {self.signal_ndim} dimensions, but got "
                             f"{array.ndim}.")
        if self.real and not self.inverse:
            if self.onesided:
                return wrap(jnp.fft.rfftn(array.astype(jnp.float32) if array.dtype.kind in "iu" else array,
                                          axes=axes, norm=self.norm))
            return wrap(jnp.fft.fftn(array, axes=axes, norm=self.norm))
        if self.real and self.inverse:
            if self.onesided:
                sizes = self.signal_sizes or None
                return wrap(jnp.fft.irfftn(array, sizes, axes, norm=self.norm))
            return wrap(jnp.real(jnp.fft.ifftn(array, axes=axes, norm=self.norm)))
        function = jnp.fft.ifftn if self.inverse else jnp.fft.fftn
        return wrap(function(array, axes=axes, norm=self.norm))


class _RowUpdate(Primitive):
    """Base of InplaceAdd/InplaceSub/InplaceUpdate: ``indices`` (int or tuple) fixed at construction."""

    _function = None

    @prim_attr_register
    def __init__(self, indices):
        if isinstance(indices, numbers.Integral) and not isinstance(indices, bool):
            indices = (indices,)
        if not isinstance(indices, (tuple, list)) or not all(isinstance(i, numbers.Integral) for i in indices):
            raise TypeError(f"For '{type(self).__name__}', 'indices' must be an int or a tuple of ints, but got "
                            f"{indices!r}.")
        self.indices = tuple(indices)

    def __call__(self, x, v):
        return type(self)._function(x, v, self.indices)


class InplaceAdd(_RowUpdate):
    """``x`` with ``v`` added to the rows ``indices``."""

    _function = staticmethod(inplace.inplace_add)


class InplaceSub(_RowUpdate):
    """``x`` with ``v`` subtracted from the rows ``indices``."""

    _function = staticmethod(inplace.inplace_sub)


class InplaceUpdate(_RowUpdate):
    """``x`` with the rows ``indices`` replaced by ``v``."""

    _function = staticmethod(inplace.inplace_update)


class InplaceUpdateV2(Primitive):
    """``x`` with the rows ``indices`` (an int, tuple or Tensor input) replaced by ``v``."""

    def __call__(self, x, indices, v):
        return inplace.inplace_update(x, v, indices)


class InplaceIndexAdd(Primitive):
    """Add ``updates`` into Parameter ``var`` at ``indices`` along ``axis``; returns ``var``.

    Args:
        axis (int): the axis of ``indices``.
    """

    @prim_attr_register
    def __init__(self, axis):
        if isinstance(axis, bool) or not isinstance(axis, numbers.Integral):
            raise TypeError(f"For 'InplaceIndexAdd', 'axis' must be an int, but got {type(axis).__name__}.")
        self.axis = axis

    def __call__(self, var, indices, updates):
        return inplace.inplace_index_add(var, indices, updates, self.axis)


class IndexFill(Primitive):
    """``x`` with the entries at ``index`` along ``dim`` set to ``value``."""

    def __call__(self, x, dim, index, value):
        dim = int(dim.asnumpy().reshape(-1)[0]) if isinstance(dim, Tensor) else dim
        return indexing.index_fill(x, dim, index, value)


class IndexPut(Primitive):
    """``x1`` with ``x2`` written (or, with ``accumulate``, added) at the positions given by the tuple of 1-D
    index tensors ``indices`` (one per leading axis).

    Args:
        accumulate (int): 0 to overwrite, 1 to add. Default: 0.
    """

    @prim_attr_register
    def __init__(self, accumulate=0):
        if accumulate not in (0, 1):
            raise ValueError(f"For 'IndexPut', 'accumulate' must be 0 or 1, but got {accumulate!r}.")
        self.accumulate = accumulate

    def __call__(self, x1, x2, indices):
        return index_put("IndexPut", x1, x2, indices, bool(self.accumulate))


def index_put(op_name, x1, x2, indices, accumulate):
    """``x1`` with ``x2`` put at ``indices`` (a tuple/list of int Tensors); shared with ``Tensor.index_put``."""
    array = array_of(op_name, "x1", x1)
    values = array_of(op_name, "x2", x2).astype(array.dtype)
    if not isinstance(indices, (tuple, list)) or not indices or len(indices) > array.ndim:
        raise ValueError(f"For '{op_name}', 'indices' must be a non-empty tuple of at most {array.ndim} index "
                         f"Tensors, but got {describe(indices)}.")
    index = tuple(array_of(op_name, f"indices[{i}]", item) for i, item in enumerate(indices))
    for i, item in enumerate(index):
        if item.dtype.kind not in "iub":
            raise TypeError(f"For '{op_name}', indices[{i}] must be an int Tensor, but got {item.dtype}.")
    target = array.at[index]
    return wrap(target.add(values) if accumulate else target.set(values))
