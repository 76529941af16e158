"""``mindspore.mint.nn.functional`` pooling with PyTorch's arguments (``stride=None`` means the kernel
size), onto ``sporax.ops``."""
import math

from sporax import ops

__all__ = ["avg_pool1d", "avg_pool2d", "avg_pool3d", "max_pool2d", "adaptive_avg_pool3d", "adaptive_max_pool1d",
           "max_unpool2d"]


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    """Average pooling of an (N, C, L) input.

    Example:
        >>> import numpy as np, sporax as ms
        >>> _ = ms.mint.nn.functional.avg_pool1d(ms.Tensor(np.ones((1, 2, 6), np.float32)), 2)
    """
    return ops.avg_pool1d(input, kernel_size, kernel_size if stride is None else stride, padding, ceil_mode,
                          count_include_pad)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    """Average pooling of an (N, C, H, W) input.

    Example:
        >>> import numpy as np, sporax as ms
        >>> _ = ms.mint.nn.functional.avg_pool2d(ms.Tensor(np.ones((1, 2, 4, 4), np.float32)), 2)
    """
    return ops.avg_pool2d(input, kernel_size, kernel_size if stride is None else stride, padding, ceil_mode,
                          count_include_pad, divisor_override or 0)


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    """Average pooling of an (N, C, D, H, W) input.

    Example:
        >>> import numpy as np, sporax as ms
        >>> _ = ms.mint.nn.functional.avg_pool3d(ms.Tensor(np.ones((1, 1, 4, 4, 4), np.float32)), 2)
    """
    return ops.avg_pool3d(input, kernel_size, kernel_size if stride is None else stride, padding, ceil_mode,
                          count_include_pad, divisor_override or 0)


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """Max pooling of an (N, C, H, W) input (with flat spatial indices when ``return_indices``).

    Example:
        >>> import numpy as np, sporax as ms
        >>> _ = ms.mint.nn.functional.max_pool2d(ms.Tensor(np.ones((1, 2, 4, 4), np.float32)), 2)
    """
    return ops.max_pool2d(input, kernel_size, stride, padding, dilation, return_indices, ceil_mode)


def _bins(size, output):
    return [(math.floor(i * size / output), math.ceil((i + 1) * size / output)) for i in range(output)]


def adaptive_avg_pool3d(input, output_size):
    """Adaptive average pooling of an (N, C, D, H, W) input to ``output_size``.

    Example:
        >>> import numpy as np, sporax as ms
        >>> _ = ms.mint.nn.functional.adaptive_avg_pool3d(ms.Tensor(np.ones((1, 1, 4, 4, 4), np.float32)), 2)
    """
    sizes = output_size if isinstance(output_size, (tuple, list)) else (output_size,) * 3
    sizes = [input.shape[-3 + i] if size is None else size for i, size in enumerate(sizes)]
    output = input
    for axis, size in zip((-3, -2, -1), sizes):
        slices = [ops.mean(ops.narrow(output, axis, start, end - start), axis, True)
                  for start, end in _bins(output.shape[axis], size)]
        output = ops.cat(slices, axis)
    return output


def adaptive_max_pool1d(input, output_size, return_indices=False):
    """Adaptive max pooling of an (N, C, L) input to ``output_size`` (with indices when asked).

    Example:
        >>> import numpy as np, sporax as ms
        >>> _ = ms.mint.nn.functional.adaptive_max_pool1d(ms.Tensor(np.ones((1, 2, 6), np.float32)), 3)
    """
    size = output_size[0] if isinstance(output_size, (tuple, list)) else output_size
    result = ops.adaptive_max_pool2d(ops.expand_dims(input, -2), (1, size), return_indices)
    if return_indices:
        return ops.squeeze(result[0], -2), ops.squeeze(result[1], -2)
    return ops.squeeze(result, -2)


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """Scatter pooled maxima back to their positions (the inverse of ``max_pool2d``'s indices).

    Example:
        >>> import numpy as np, sporax as ms
        >>> F = ms.mint.nn.functional
        >>> values, indices = F.max_pool2d(ms.Tensor(np.ones((1, 1, 4, 4), np.float32)), 2, return_indices=True)
        >>> _ = F.max_unpool2d(values, indices, 2)
    """
    kernel = kernel_size if isinstance(kernel_size, (tuple, list)) else (kernel_size, kernel_size)
    step = kernel if stride is None else (stride if isinstance(stride, (tuple, list)) else (stride, stride))
    pad = padding if isinstance(padding, (tuple, list)) else (padding, padding)
    batch, channels, height, width = input.shape
    if output_size is None:
        output_size = ((height - 1) * step[0] - 2 * pad[0] + kernel[0], (width - 1) * step[1] - 2 * pad[1] + kernel[1])
    out_height, out_width = tuple(output_size)[-2:]
    flat = ops.zeros((batch, channels, out_height * out_width), input.dtype)
    flat = ops.tensor_scatter_elements(flat, indices.reshape(batch, channels, -1),
                                       input.reshape(batch, channels, -1), 2)
    return flat.reshape(batch, channels, out_height, out_width)
