"""``mindspore.mint.nn.functional`` pooling that no op spells: ``adaptive_max_pool1d`` (its indices, through
``adaptive_max_pool2d``) and ``max_unpool2d`` (``ops.max_unpool2d`` adds the values of repeated indices; MindSpore's
mint writes each once). The other pooling functions are op-table spellings."""
from sporax import ops

__all__ = ["adaptive_max_pool1d", "max_unpool2d"]


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
