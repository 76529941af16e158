"""``mindspore.ops.composite``: the ops namespace, with the composite-level spellings of two ops.

MindSpore's ``ops.composite`` re-exports most of ``mindspore.ops`` but keeps its own, older
``matmul(x1, x2, dtype=None)`` (the result cast to ``dtype``) and ``zeros_like(x)`` (which also
takes Python numbers, as a multitype graph does). Every other name is looked up on
``sporax.ops`` itself, so the two namespaces share their objects.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, float16
    >>> from sporax.ops import composite
    >>> composite.matmul(Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones((3, 2), np.float32)), float16).dtype
    Float16
"""
import sporax.ops as _ops
from sporax.core.tensor import Tensor


def matmul(x1, x2, dtype=None):
    """The matrix product of ``x1`` and ``x2``, cast to ``dtype`` when one is given."""
    result = _ops.matmul(x1, x2)
    return result if dtype is None else _ops.cast(result, dtype)


def zeros_like(x):
    """Zeros shaped like the Tensor ``x``; for a Python number its zero (``0`` for a bool)."""
    if isinstance(x, Tensor):
        return _ops.zeros_like(x)
    if isinstance(x, bool):
        return 0
    if isinstance(x, (int, float)):
        return type(x)(0)
    raise TypeError(f"For 'zeros_like', x must be a Tensor or a Python number, but got {type(x).__name__}.")


def __getattr__(name):
    try:
        return getattr(_ops, name)
    except AttributeError:
        raise AttributeError(f"module 'sporax.ops.composite' has no attribute '{name}'") from None


def __dir__():
    return sorted(set(dir(_ops)) | {"matmul", "zeros_like"})
