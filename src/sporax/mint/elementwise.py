"""``mindspore.mint`` element-wise functions whose PyTorch-style signature differs from ``sporax.ops``:
thin adapters onto the ops (and onto ``sporax.numpy`` rows where no op exists)."""
import jax.numpy as jnp

import sporax.numpy as mnp
from sporax import ops
from sporax.numpy.dispatch import numpy_function

__all__ = ["add", "sub", "frac", "isnan", "sqrt", "bitwise_not", "gcd", "real", "imag", "polar", "clone",
           "allclose", "softmax"]


def _scaled(other, alpha):
    return other if alpha == 1 else ops.mul(other, alpha)


def add(input, other, *, alpha=1):
    """``input + alpha * other``.

    Example:
        >>> import sporax as ms
        >>> ms.mint.add(ms.Tensor([1.0]), ms.Tensor([2.0]), alpha=2)
        Tensor(shape=[1], dtype=Float32, value= [ 5.00000000e+00])
    """
    return ops.add(input, _scaled(other, alpha))


def sub(input, other, *, alpha=1):
    """``input - alpha * other``.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.sub(ms.Tensor([1.0]), ms.Tensor([2.0]), alpha=0.5)
    """
    return ops.sub(input, _scaled(other, alpha))


def frac(input):
    """The fractional part ``input - trunc(input)``.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.frac(ms.Tensor([1.5, -2.25]))
    """
    return ops.frac(input)


def isnan(tensor):
    """Where ``tensor`` is NaN.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.isnan(ms.Tensor([1.0]))
    """
    return ops.isnan(tensor)


def sqrt(input):
    """Element-wise square root.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.sqrt(ms.Tensor([4.0]))
    """
    return ops.sqrt(input)


def bitwise_not(input):
    """Bitwise NOT of an Int or Bool tensor.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.bitwise_not(ms.Tensor([1, 2]))
    """
    return mnp.invert(input)


def gcd(input, other):
    """Element-wise greatest common divisor.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.gcd(ms.Tensor([4, 6]), ms.Tensor([6, 9]))
    """
    return mnp.gcd(input, other)


def clone(input):
    """A copy of ``input``.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.clone(ms.Tensor([1.0]))
    """
    return mnp.copy(input)


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether all elements are close (``|input - other| <= atol + rtol * |other|``), as a Python bool.

    Example:
        >>> import sporax as ms
        >>> ms.mint.allclose(ms.Tensor([1.0]), ms.Tensor([1.0]))
        True
    """
    return bool(ops.isclose(input, other, rtol, atol, equal_nan).all().asnumpy())


def softmax(input, dim, *, dtype=None):
    """Softmax along ``dim``.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.softmax(ms.Tensor([1.0, 2.0]), 0)
    """
    return ops.softmax(input, dim, dtype=dtype)


real = numpy_function("real", "(input)", lambda input: jnp.real(input), "input", module="mindspore.mint")
imag = numpy_function("imag", "(input)", lambda input: jnp.imag(input), "input", module="mindspore.mint")
polar = ops.polar  # MindSpore's mint.polar is ops.polar (Polar: Float32/Float64 of one dtype)
