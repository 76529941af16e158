"""``mindspore.mint.nn.functional`` layers' functions with PyTorch's arguments: linear, dropout,
padding, one-hot, normalisation, flatten, batch norm, grid sampling; onto ``sporax.ops``."""

from sporax import ops
from sporax.core import dtype as mstype

__all__ = ["linear", "dropout", "dropout2d", "pad", "one_hot", "normalize", "flatten", "batch_norm", "grid_sample"]


def linear(input, weight, bias=None):
    """``input @ weight.T + bias``.

    Example:
        >>> import numpy as np, sporax as ms
        >>> _ = ms.mint.nn.functional.linear(ms.Tensor([[1.0, 2.0]]), ms.Tensor(np.ones((3, 2), np.float32)))
    """
    return ops.dense(input, weight, bias)


def dropout(input, p=0.5, training=True, inplace=False):
    """Zero elements with probability ``p`` and scale the rest by ``1 / (1 - p)`` when training.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.nn.functional.dropout(ms.Tensor([1.0, 2.0]), 0.5, training=False)
    """
    return ops.dropout(input, p, training)


def dropout2d(input, p=0.5, training=True, inplace=False):
    """Zero whole channels with probability ``p`` when training.

    Example:
        >>> import numpy as np, sporax as ms
        >>> _ = ms.mint.nn.functional.dropout2d(ms.Tensor(np.ones((1, 2, 2, 2), np.float32)), training=False)
    """
    if not training or p == 0:
        return input
    return ops.dropout2d(input, p, training)


def pad(input, pad, mode="constant", value=None):
    """Pad the last dimensions by ``pad`` = (left, right, top, bottom, ...); mode 'constant',
    'reflect', 'replicate' or 'circular'.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.nn.functional.pad(ms.Tensor([[1.0, 2.0]]), (1, 1))
    """
    return ops.pad(input, pad, mode, value)


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


def flatten(input, start_dim=0, end_dim=-1):
    """Merge dimensions ``start_dim`` .. ``end_dim``.

    Example:
        >>> import numpy as np, sporax as ms
        >>> _ = ms.mint.nn.functional.flatten(ms.Tensor(np.ones((2, 3), np.float32)))
    """
    return ops.flatten(input, start_dim=start_dim, end_dim=end_dim)


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-05):
    """Batch normalisation over dimension 1, updating the running statistics when training.

    Example:
        >>> import numpy as np, sporax as ms
        >>> x = ms.Tensor(np.ones((2, 3), np.float32))
        >>> mean, variance = ms.Tensor(np.zeros(3, np.float32)), ms.Tensor(np.ones(3, np.float32))
        >>> _ = ms.mint.nn.functional.batch_norm(x, mean, variance)
    """
    channels = input.shape[1]
    if weight is None:
        weight = ops.ones((channels,), input.dtype)
    if bias is None:
        bias = ops.zeros((channels,), input.dtype)
    return ops.batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)


def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    """Sample an (N, C, H, W) or (N, C, D, H, W) input at the normalised points of ``grid``.

    MindSpore 2.10's ``mint.nn.functional.grid_sample`` gives ``ops.grid_sample``'s values for every mode and
    padding mode (checked against it), so this is that op.

    Args:
        mode (str): 'bilinear' or 'nearest'. padding_mode (str): 'zeros', 'border' or 'reflection'.
        align_corners (bool): -1/1 are the corner pixels' centres (True) or outer edges. Default: None (False).

    Example:
        >>> import numpy as np, sporax as ms
        >>> _ = ms.mint.nn.functional.grid_sample(ms.Tensor(np.ones((1, 1, 2, 2), np.float32)),
        ...                                       ms.Tensor(np.zeros((1, 1, 1, 2), np.float32)))
    """
    return ops.grid_sample(input, grid, mode, padding_mode, align_corners)
