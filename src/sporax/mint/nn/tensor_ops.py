"""``mindspore.mint.nn.functional.one_hot`` (``num_classes=-1`` reads the largest index on the host) and
``normalize`` (MindSpore composes it from norm and clamp too); the other layer functions are op-table spellings."""

from sporax import ops
from sporax.core import dtype as mstype

__all__ = ["one_hot", "normalize"]


def one_hot(tensor, num_classes=-1):
    """Int64 one-hot vectors of ``num_classes`` (the largest index + 1 when -1).

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.nn.functional.one_hot(ms.Tensor([0, 2]))
    """
    if num_classes == -1:
        num_classes = int(ops.amax(tensor).asnumpy()) + 1
    return ops.one_hot(tensor, num_classes, 1, 0).astype(mstype.int64)


def normalize(input, p=2.0, dim=1, eps=1e-12):
    """``input`` divided by its ``p``-norm along ``dim`` (at least ``eps``).

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.nn.functional.normalize(ms.Tensor([[3.0, 4.0]]))
    """
    norm = ops.pow(ops.sum(ops.pow(ops.abs(input), p), dim, True), 1.0 / p)
    return input / ops.clamp(norm, min=eps)
