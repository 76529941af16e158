"""``is_tensor``: MindSpore's top-level type check for Tensors (Parameters included).

Example:
    >>> import sporax
    >>> sporax.is_tensor(sporax.Tensor([1.0])), sporax.is_tensor([1.0])
    (True, False)
"""

from sporax.core.tensor import Tensor


def is_tensor(obj):
    """Whether ``obj`` is a Tensor (a Parameter is one too).

    Args:
        obj (Any): the object to check.

    Returns:
        bool.
    """
    return isinstance(obj, Tensor)
