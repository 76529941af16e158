"""``mindspore.mint`` element-wise functions that are no op-table face: ``allclose`` (a Python bool, not a
Tensor) and ``clone`` (a ``sporax.numpy`` row)."""
import sporax.numpy as mnp
from sporax import ops

__all__ = ["clone", "allclose"]


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
