"""``mindspore.mint.conv_tbc``: ``ops.conv1d`` on a time-major (time, batch, channels) layout."""
from sporax import ops

__all__ = ["conv_tbc"]


def conv_tbc(input, weight, bias, pad=0):
    """1-D convolution of a (time, batch, channels) input with a (kernel, in, out) weight.

    Example:
        >>> import numpy as np, sporax as ms
        >>> _ = ms.mint.conv_tbc(ms.Tensor(np.ones((5, 1, 2), np.float32)), ms.Tensor(np.ones((3, 2, 4), np.float32)),
        ...                      ms.Tensor(np.zeros(4, np.float32)), 1)
    """
    output = ops.conv1d(ops.permute(input, (1, 2, 0)), ops.permute(weight, (2, 1, 0)), bias, 1, "pad", pad)
    return ops.permute(output, (2, 0, 1))
