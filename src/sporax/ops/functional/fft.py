"""Discrete Fourier transforms of ``mindspore.ops``: ``fft``/``ifft`` (1-D, 2-D, N-D), the real
(``irfft*``) and Hermitian (``hfft*``, ``ihfft*``) forms, ``fftfreq``, ``fftshift``, ``ifftshift``.

Contract: as ``torch.fft``/``numpy.fft``: ``n``/``s`` pad or trim the transformed axes, ``dim``
names them (default: the last one, the last two, or all / the last ``len(s)``), ``norm`` is
"backward" (scale the inverse by 1/n, the default), "forward" (scale the forward transform) or
"ortho" (both by 1/sqrt(n)). Real inputs are promoted: Float32 (and integers) give Complex64,
Float64 gives Complex128; the inverse real transforms return the matching float type.

Algorithm: ``jax.numpy.fft``; the Hermitian transforms use the identities
``hfftn(x) = irfftn(conj(x))`` and ``ihfftn(x) = conj(rfftn(x))`` with the normalisation swapped.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> print(ops.fft(Tensor(np.array([1.0, 0.0, 0.0, 0.0], np.float32))).asnumpy().real)
    [1. 1. 1. 1.]
"""
import numbers

import jax.numpy as jnp
import numpy as np

from sporax.ops._dispatch import array_of, describe, wrap
from sporax.ops.functional._args import numpy_dtype

_NORMS = ("backward", "forward", "ortho")
_SWAPPED = {"backward": "forward", "forward": "backward", "ortho": "ortho"}


def _input(op_name, input, real_only=False):
    array = array_of(op_name, "input", input)
    if array.dtype.kind == "b":
        raise TypeError(f"For '{op_name}', the input must be a number Tensor, but got {describe(input)}.")
    if real_only and array.dtype.kind == "c":
        raise TypeError(f"For '{op_name}', the input must be a real Tensor, but got {describe(input)}.")
    if array.ndim == 0:
        raise ValueError(f"For '{op_name}', the input must have at least one dimension, but got a scalar.")
    if array.dtype.kind in "iu" or array.dtype.itemsize < 4 and array.dtype.kind != "c":
        array = array.astype(jnp.float32)
    return array


def _norm(op_name, norm):
    norm = "backward" if norm is None else norm
    if norm not in _NORMS:
        raise ValueError(f"For '{op_name}', 'norm' must be one of {_NORMS} or None, but got {norm!r}.")
    return norm


def _dim(op_name, dim, ndim):
    if isinstance(dim, bool) or not isinstance(dim, numbers.Integral):
        raise TypeError(f"For '{op_name}', 'dim' must be an int, but got {type(dim).__name__}.")
    if not -ndim <= dim < ndim:
        raise ValueError(f"For '{op_name}', 'dim' must be in [{-ndim}, {ndim}), but got {dim}.")
    return int(dim) % ndim


def _size(op_name, name, value):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
        raise ValueError(f"For '{op_name}', '{name}' must be a positive int, but got {value!r}.")
    return int(value)


def _dims_and_sizes(op_name, s, dim, ndim, default_rank=None):
    """The transformed axes and their lengths (None: keep) from ``s`` and ``dim``."""
    if dim is not None:
        dims = (dim,) if isinstance(dim, numbers.Integral) else tuple(dim)
        dims = tuple(_dim(op_name, d, ndim) for d in dims)
        if len(set(dims)) != len(dims):
            raise ValueError(f"For '{op_name}', 'dim' must not repeat an axis, but got {dim}.")
    elif s is not None:
        dims = tuple(range(ndim - len(s), ndim))
    else:
        count = ndim if default_rank is None else default_rank
        dims = tuple(range(ndim - count, ndim))
    if s is None:
        return dims, None
    s = tuple(s)
    if len(s) != len(dims):
        raise ValueError(f"For '{op_name}', 's' and 'dim' must have the same length, but got {s} and {dims}.")
    return dims, tuple(_size(op_name, "s", value) for value in s)


def _sizes_or_none(sizes, array, dims):
    if sizes is None:
        return None
    return tuple(array.shape[d] if size is None else size for size, d in zip(sizes, dims))


def _one_d(op_name, function, real_only=False):
    def op(input, n=None, dim=-1, norm=None):
        array = _input(op_name, input, real_only)
        axis = _dim(op_name, dim, array.ndim)
        return wrap(function(array, _size(op_name, "n", n), axis, _norm(op_name, norm)))
    op.__name__ = op.__qualname__ = op_name
    op.__doc__ = (f"The 1-D ``{op_name}`` of ``input`` along ``dim`` (``n`` points; ``norm`` as in "
                  "``torch.fft``).\n\n    Example:\n        >>> import numpy as np\n"
                  "        >>> from sporax import Tensor, ops\n"
                  f"        >>> ops.{op_name}(Tensor(np.ones(4, np.float32))).shape[0] > 0\n        True\n")
    return op


def _n_d(op_name, function, default_rank, real_only=False):
    def op(input, s=None, dim=(-2, -1) if default_rank == 2 else None, norm=None):
        array = _input(op_name, input, real_only)
        if default_rank == 2 and array.ndim < 2:
            raise ValueError(f"For '{op_name}', the input must have at least 2 dimensions, but got {array.ndim}.")
        dims, sizes = _dims_and_sizes(op_name, s, dim, array.ndim, default_rank)
        return wrap(function(array, _sizes_or_none(sizes, array, dims), dims, _norm(op_name, norm)))
    op.__name__ = op.__qualname__ = op_name
    op.__doc__ = (f"The ``{op_name}`` of ``input`` over the axes ``dim`` (sizes ``s``; ``norm`` as in "
                  "``torch.fft``).\n\n    Example:\n        >>> import numpy as np\n"
                  "        >>> from sporax import Tensor, ops\n"
                  f"        >>> len(ops.{op_name}(Tensor(np.ones((2, 4), np.float32))).shape)\n        2\n")
    return op


def _hfft_1d(array, n, axis, norm):
    return jnp.fft.irfft(jnp.conj(array), n, axis, norm=_SWAPPED[norm])


def _ihfft_1d(array, n, axis, norm):
    return jnp.conj(jnp.fft.rfft(array, n, axis, norm=_SWAPPED[norm]))


def _hfft_n(array, s, axes, norm):
    return jnp.fft.irfftn(jnp.conj(array), s, axes, norm=_SWAPPED[norm])


def _ihfft_n(array, s, axes, norm):
    return jnp.conj(jnp.fft.rfftn(array, s, axes, norm=_SWAPPED[norm]))


fft = _one_d("fft", lambda a, n, axis, norm: jnp.fft.fft(a, n, axis, norm))
ifft = _one_d("ifft", lambda a, n, axis, norm: jnp.fft.ifft(a, n, axis, norm))
irfft = _one_d("irfft", lambda a, n, axis, norm: jnp.fft.irfft(a, n, axis, norm))
hfft = _one_d("hfft", _hfft_1d)
ihfft = _one_d("ihfft", _ihfft_1d, real_only=True)
fft2 = _n_d("fft2", jnp.fft.fftn, 2)
ifft2 = _n_d("ifft2", jnp.fft.ifftn, 2)
irfft2 = _n_d("irfft2", jnp.fft.irfftn, 2)
hfft2 = _n_d("hfft2", _hfft_n, 2)
ihfft2 = _n_d("ihfft2", _ihfft_n, 2, real_only=True)
fftn = _n_d("fftn", jnp.fft.fftn, None)
ifftn = _n_d("ifftn", jnp.fft.ifftn, None)
irfftn = _n_d("irfftn", jnp.fft.irfftn, None)
hfftn = _n_d("hfftn", _hfft_n, None)
ihfftn = _n_d("ihfftn", _ihfft_n, None, real_only=True)


def fftfreq(n, d=1.0, dtype=None):
    """The sample frequencies ``[0, 1, ..., n/2-1, -n/2, ..., -1] / (d * n)`` of an ``n``-point DFT.

    Example:
        >>> from sporax import ops
        >>> print(ops.fftfreq(4))
        [ 0.    0.25 -0.5  -0.25]
    """
    n = _size("fftfreq", "n", n)
    if isinstance(d, bool) or not isinstance(d, numbers.Real):
        raise TypeError(f"For 'fftfreq', 'd' must be a float, but got {type(d).__name__}.")
    target = np.dtype(np.float32) if dtype is None else numpy_dtype("fftfreq", "dtype", dtype)
    return wrap(jnp.asarray(np.fft.fftfreq(n, d), target))


def _shift(op_name, input, dim, inverse):
    array = array_of(op_name, "input", input)
    if dim is None:
        axes = tuple(range(array.ndim))
    else:
        axes = tuple(_dim(op_name, d, array.ndim) for d in ((dim,) if isinstance(dim, numbers.Integral) else dim))
    shifts = [-(array.shape[a] // 2) if inverse else array.shape[a] // 2 for a in axes]
    return wrap(jnp.roll(array, shifts, axes)) if axes else wrap(array)


def fftshift(input, dim=None):
    """``input`` rolled so the zero frequency is in the middle of the axes ``dim`` (default: all).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> print(ops.fftshift(Tensor(np.arange(4))))
        [2 3 0 1]
    """
    return _shift("fftshift", input, dim, inverse=False)


def ifftshift(input, dim=None):
    """The inverse of ``fftshift``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> print(ops.ifftshift(Tensor(np.arange(5))))
        [2 3 4 0 1]
    """
    return _shift("ifftshift", input, dim, inverse=True)
