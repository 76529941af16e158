"""``mindspore.mint.nn.functional`` convolutions and patch extraction with PyTorch's ``padding``
(a number, a tuple, ``'same'`` or ``'valid'``), onto ``sporax.ops``."""
import jax

from sporax import ops
from sporax.numpy.dispatch import numpy_function

__all__ = ["conv1d", "conv2d", "conv3d", "unfold", "fold"]


def _convolve(function, input, weight, bias, stride, padding, dilation, groups):
    if isinstance(padding, str):
        if padding not in ("same", "valid"):
            raise ValueError(f"For 'conv', padding must be 'same', 'valid', an int or a tuple, got {padding!r}.")
        return function(input, weight, bias, stride, padding, 0, dilation, groups)
    return function(input, weight, bias, stride, "pad", padding, dilation, groups)


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """1-D convolution of an (N, C, L) input.

    Example:
        >>> import numpy as np, sporax as ms
        >>> _ = ms.mint.nn.functional.conv1d(ms.Tensor(np.ones((1, 2, 5), np.float32)),
        ...                                  ms.Tensor(np.ones((3, 2, 3), np.float32)))
    """
    return _convolve(ops.conv1d, input, weight, bias, stride, padding, dilation, groups)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """2-D convolution of an (N, C, H, W) input.

    Example:
        >>> import numpy as np, sporax as ms
        >>> _ = ms.mint.nn.functional.conv2d(ms.Tensor(np.ones((1, 2, 5, 5), np.float32)),
        ...                                  ms.Tensor(np.ones((3, 2, 3, 3), np.float32)), padding=1)
    """
    return _convolve(ops.conv2d, input, weight, bias, stride, padding, dilation, groups)


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """3-D convolution of an (N, C, D, H, W) input.

    Example:
        >>> import numpy as np, sporax as ms
        >>> _ = ms.mint.nn.functional.conv3d(ms.Tensor(np.ones((1, 1, 3, 3, 3), np.float32)),
        ...                                  ms.Tensor(np.ones((2, 1, 2, 2, 2), np.float32)))
    """
    return _convolve(ops.conv3d, input, weight, bias, stride, padding, dilation, groups)


def _pair(value):
    return tuple(value) if isinstance(value, (tuple, list)) else (value, value)


def _unfold(input, kernel_size, dilation, padding, stride):
    patches = jax.lax.conv_general_dilated_patches(
        input, _pair(kernel_size), _pair(stride), [(p, p) for p in _pair(padding)], rhs_dilation=_pair(dilation))
    # patches: (N, C * kh * kw, oh, ow) with the channel slowest, as PyTorch's column layout.
    return patches.reshape(patches.shape[0], patches.shape[1], -1)


def _fold(input, output_size, kernel_size, dilation, padding, stride):
    # ops.fold's kernel: one implementation of the op
    return ops.fold.entry.kernel(input, output_size, kernel_size, dilation, padding, stride)


unfold = numpy_function(
    "unfold", "(input, kernel_size, dilation=1, padding=0, stride=1)", _unfold, "input",
    doc="Sliding (N, C, H, W) patches as columns: (N, C * kh * kw, L).\n\nExample:\n"
        "    >>> import numpy as np, sporax as ms\n"
        "    >>> _ = ms.mint.nn.functional.unfold(ms.Tensor(np.ones((1, 2, 4, 4), np.float32)), 2)",
        module="mindspore.mint.nn.functional")
fold = numpy_function(
    "fold", "(input, output_size, kernel_size, dilation=1, padding=0, stride=1)", _fold, "input",
    doc="Sum columns of patches back into an (N, C, H, W) image (the adjoint of ``unfold``).\n\nExample:\n"
        "    >>> import numpy as np, sporax as ms\n"
        "    >>> _ = ms.mint.nn.functional.fold(ms.Tensor(np.ones((1, 8, 9), np.float32)), (4, 4), 2)",
        module="mindspore.mint.nn.functional")
