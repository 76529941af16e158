"""Finite differences and integration: ``ops.diff``, ``ops.trapz``.

Example:
    >>> from sporax import Tensor, ops
    >>> ops.diff(Tensor([1, 4, 9, 16]))
    Tensor(shape=[3], dtype=Int64, value= [3, 5, 7])
"""
import jax.numpy as jnp

from sporax.ops._dispatch import array_of, float_array_of, wrap


def diff(x, n=1, axis=-1, prepend=None, append=None):
    """The ``n``-th forward difference of ``x`` along ``axis``."""
    array = array_of("diff", "x", x)
    prepend = None if prepend is None else array_of("diff", "prepend", prepend)
    append = None if append is None else array_of("diff", "append", append)
    try:
        return wrap(jnp.diff(array, n, axis, prepend, append))
    except (TypeError, ValueError) as error:
        raise ValueError(f"For 'diff', cannot take differences along axis {axis} of shape "
                         f"{tuple(array.shape)}. Details: {error}") from None


def trapz(y, x=None, *, dx=1.0, dim=-1):
    """Integrate ``y`` along ``dim`` by the trapezoidal rule (sample points ``x`` or spacing ``dx``)."""
    values = float_array_of("trapz", "y", y)
    points = None if x is None else float_array_of("trapz", "x", x)
    return wrap(jnp.trapezoid(values, points, dx, dim))
