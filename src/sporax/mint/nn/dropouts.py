"""``mindspore.mint.nn.functional.dropout``/``dropout2d`` taking PyTorch's ``inplace``: each picks, as MindSpore's
FuncDropoutExt does, the op or its in-place entry, which stores the result into ``input`` and returns it."""
from sporax import ops
from sporax.ops.functional.dropouts import inplace_dropout, inplace_dropout2d

__all__ = ["dropout", "dropout2d"]


def dropout(input, p=0.5, training=True, inplace=False):
    """Zero each element with probability ``p`` and scale the rest by ``1 / (1 - p)``; in place when ``inplace``.

    Example:
        >>> import numpy as np, sporax as ms
        >>> x = ms.Tensor(np.ones(4, np.float32))
        >>> ms.mint.nn.functional.dropout(x, 0.5, inplace=True) is x
        True
    """
    return inplace_dropout(input, p, training) if inplace else ops.dropout(input, p, training)


def dropout2d(input, p=0.5, training=True, inplace=False):
    """Zero whole channels of an (N, C, H, W) input with probability ``p``; in place when ``inplace``.

    Example:
        >>> import numpy as np, sporax as ms
        >>> x = ms.Tensor(np.ones((1, 4, 2, 2), np.float32))
        >>> ms.mint.nn.functional.dropout2d(x, 0.5, inplace=True) is x
        True
    """
    return inplace_dropout2d(input, p, training) if inplace else ops.dropout2d(input, p, training)
