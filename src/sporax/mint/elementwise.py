"""``mindspore.mint.allclose`` and ``mint.item``: Python values, not Tensors, so no op-table faces (they read
``ops.isclose`` and ``Tensor.item``)."""
from sporax import ops
from sporax.core.tensor import Tensor

__all__ = ["allclose", "item"]


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether all elements are close (``|input - other| <= atol + rtol * |other|``), as a Python bool.

    Example:
        >>> import sporax as ms
        >>> ms.mint.allclose(ms.Tensor([1.0]), ms.Tensor([1.0]))
        True
    """
    return bool(ops.isclose(input, other, rtol, atol, equal_nan).all().asnumpy())


def item(input):
    """The one element of ``input`` as a Python number (MindSpore 2.10's ``mint.item``; not in its ``__all__``).

    Example:
        >>> import sporax as ms
        >>> ms.mint.item(ms.Tensor([1.0]))
        1.0
    """
    if not isinstance(input, Tensor):
        raise TypeError(f"For 'mint.item', the input must be a Tensor, but got {type(input).__name__}.")
    return input.item()
