"""``mindspore.numpy.fft``: NumPy's spelling of the ``ops`` Fourier transforms.

Each function is its ``ops`` transform (``ops.fft``, ``ops.rfft2``, ``ops.fftshift`` ...) with NumPy's
argument names: ``a`` for ``input``, ``axis``/``axes`` for ``dim``, as MindSpore 2.10's ``numpy.fft``
(whose functions call the same ``ops``). ``a`` may be a Tensor or array-like (``mindspore.numpy.asarray``).
One exception, as recorded from MindSpore 2.10: its ``numpy.fft.ihfftn`` calls ``ops.hfftn`` (a real result,
``ones((4, 4))`` -> 16 at the origin, as its own docstring prints), so ``ihfftn`` here is ``ops.hfftn`` too.

Example:
    >>> from sporax import numpy as mnp
    >>> print(mnp.fft.rfft(mnp.array([1, 2, 3, 4]), n=4, axis=-1, norm="backward"))
    [10.+0.j -2.+2.j -2.+0.j]
"""
from sporax import ops
from sporax.numpy.array_creations import asarray

ONE_D = ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")
TWO_D = ("fft2", "ifft2", "rfft2", "irfft2", "hfft2", "ihfft2")
N_D = ("fftn", "ifftn", "rfftn", "irfftn", "hfftn", "ihfftn")


def _one_d(name):
    transform = getattr(ops, name)

    def function(a, n=None, axis=-1, norm=None):
        return transform(asarray(a), n, axis, norm)
    function.__doc__ = f"``ops.{name}`` of ``a`` along ``axis`` (``n`` points)."
    return name, function


def _many_d(name, axes_default, transform_name=None):
    transform = getattr(ops, transform_name or name)

    def function(a, s=None, axes=axes_default, norm=None):
        return transform(asarray(a), s, axes, norm)
    function.__doc__ = f"``ops.{transform_name or name}`` of ``a`` over ``axes`` (sizes ``s``)."
    return name, function


def _shift(name):
    transform = getattr(ops, name)

    def function(x, axes=None):
        return transform(asarray(x), axes)
    function.__doc__ = f"``ops.{name}`` of ``x`` over ``axes`` (default: all)."
    return name, function


def fftfreq(n, d=1.0, dtype=None):
    """The sample frequencies of an ``n``-point DFT of spacing ``d`` (``ops.fftfreq``)."""
    return ops.fftfreq(n, d, dtype)


def rfftfreq(n, d=1.0, dtype=None):
    """The sample frequencies of an ``n``-point ``rfft`` of spacing ``d`` (``ops.rfftfreq``)."""
    return ops.rfftfreq(n, d, dtype)


_FUNCTIONS = dict([_one_d(name) for name in ONE_D] + [_many_d(name, (-2, -1)) for name in TWO_D]
                  + [_many_d(name, None) for name in N_D[:-1]] + [_many_d("ihfftn", None, "hfftn")]
                  + [_shift("fftshift"), _shift("ifftshift")])
for _name, _function in _FUNCTIONS.items():
    _function.__name__ = _function.__qualname__ = _name
    _function.__module__ = __name__
globals().update(_FUNCTIONS)

__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2", "rfftn", "irfftn",
           "hfft", "ihfft", "hfft2", "ihfft2", "hfftn", "ihfftn", "fftshift", "ifftshift", "fftfreq", "rfftfreq"]
