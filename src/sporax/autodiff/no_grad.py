"""``mindspore._no_grad``: a block (or a decorated function) whose results carry no gradient.

Example:
    >>> import sporax as ms
    >>> from sporax import Tensor, _no_grad
    >>> def f(x):
    ...     with _no_grad():
    ...         scale = x * 2  # a constant to the gradient
    ...     return scale * x
    >>> ms.grad(f)(Tensor([3.0])).asnumpy().tolist()
    [6.0]
"""
import contextlib

from sporax.core.grad_mode import disabled, grad_disabled


class _no_grad(contextlib.ContextDecorator):  # noqa: N801 - MindSpore's name
    """Disable gradient recording in PyNative mode inside the block; usable as a decorator."""

    def __enter__(self):
        disabled[0] += 1
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        disabled[0] -= 1
        return False


def check_grad_allowed(api):
    """MindSpore's RuntimeError for a gradient asked for inside a ``_no_grad`` block."""
    if grad_disabled():
        raise RuntimeError(f"In no_grad context, you can not calculate gradient ('{api}' was called inside "
                           "'with _no_grad()'). Move the gradient computation out of the block.")
