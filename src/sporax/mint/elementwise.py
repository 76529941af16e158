"""``mindspore.mint.allclose``: a Python bool, not a Tensor, so no op-table face (it reads ``ops.isclose``)."""
from sporax import ops

__all__ = ["allclose"]


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether all elements are close (``|input - other| <= atol + rtol * |other|``), as a Python bool.

    Example:
        >>> import sporax as ms
        >>> ms.mint.allclose(ms.Tensor([1.0]), ms.Tensor([1.0]))
        True
    """
    return bool(ops.isclose(input, other, rtol, atol, equal_nan).all().asnumpy())
