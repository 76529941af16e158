"""``mindspore.scipy.fft``: discrete cosine transforms on Tensors, each onto ``jax.scipy.fft``.

Integer and bool inputs are transformed in Float32 (MindSpore's default float); floating inputs
keep their dtype. ``norm=None`` is ``'ortho'``, as in MindSpore 2.10 (which supports only type 2 with
``'ortho'``); the other SciPy types and norms are computed too.

Example:
    >>> from sporax import Tensor
    >>> from sporax.scipy.fft import dct
    >>> [round(v, 4) for v in dct(Tensor([1.0, 2.0, 3.0])).asnumpy().tolist()]
    [3.4641, -1.4142, 0.0]
"""
import jax.numpy as jnp
import jax.scipy.fft as jfft
import numpy as np

from sporax.core.tensor import Tensor
from sporax.ops._dispatch import wrap


def _input(name, x, transform_type, norm):
    if transform_type not in (1, 2, 3, 4):
        raise ValueError(f"For 'mindspore.scipy.fft.{name}', type must be 1, 2, 3 or 4, but got {transform_type!r}.")
    if norm not in (None, "backward", "ortho", "forward"):
        raise ValueError(f"For 'mindspore.scipy.fft.{name}', norm must be None, 'backward', 'ortho' or 'forward', "
                         f"but got {norm!r}.")
    array = x._value if isinstance(x, Tensor) else jnp.asarray(x)
    return array if array.dtype.kind == "f" else array.astype(np.float32), "ortho" if norm is None else norm


def dct(x, type=2, n=None, axis=-1, norm=None):
    """The discrete cosine transform of ``type`` along ``axis`` (``x`` cut or zero-padded to ``n``)."""
    array, norm = _input("dct", x, type, norm)
    return wrap(jfft.dct(array, type=type, n=n, axis=axis, norm=norm))


def idct(x, type=2, n=None, axis=-1, norm=None):
    """The inverse of ``dct`` of the same ``type`` and ``norm``."""
    array, norm = _input("idct", x, type, norm)
    return wrap(jfft.idct(array, type=type, n=n, axis=axis, norm=norm))


def dctn(x, type=2, s=None, axes=None, norm=None):
    """The discrete cosine transform over several ``axes`` (each cut or zero-padded to ``s``)."""
    array, norm = _input("dctn", x, type, norm)
    return wrap(jfft.dctn(array, type=type, s=s, axes=axes, norm=norm))


def idctn(x, type=2, s=None, axes=None, norm=None):
    """The inverse of ``dctn`` of the same ``type`` and ``norm``."""
    array, norm = _input("idctn", x, type, norm)
    return wrap(jfft.idctn(array, type=type, s=s, axes=axes, norm=norm))


__all__ = ["dct", "dctn", "idct", "idctn"]
