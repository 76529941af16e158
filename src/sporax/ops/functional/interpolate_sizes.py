"""The size helpers of MindSpore's ``interpolate_ext`` that libraries import from its private path.

``mindspore.ops.function.nn_func._interploate_ext_make_tuple`` (MindSpore's spelling) and
``_interpolate_ext_scale_factor_convert_size`` turn a scalar size or scale into one entry per
spatial axis and a scale into output sizes. mindone's ``layers_compat.interpolate`` for 5-d video
tensors calls them before resizing. Shapes are static in sporax, so both answer with Python tuples.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.ops.functional.interpolate_sizes import scale_factor_to_size
    >>> scale_factor_to_size(Tensor(np.zeros((1, 2, 5, 7), np.float32)), (1.5, 2.0))
    (7, 14)
"""
import math


def per_spatial_axis(input, value):
    """``value`` repeated for each spatial axis of the (N, C, ...) ``input``; a list or tuple as given.

    Args:
        input (Tensor): the tensor to resize, (N, C, *spatial).
        value (Union[int, float, list, tuple]): a size or scale factor.

    Returns:
        tuple (or ``value`` itself when it is a list or tuple).
    """
    if isinstance(value, (list, tuple)):
        return value
    return tuple(value for _ in range(len(input.shape) - 2))


def scale_factor_to_size(input, scale_factor):
    """Output sizes ``floor(spatial size * factor)`` for the leading spatial axes that have a factor.

    Args:
        input (Tensor): the tensor to resize, (N, C, *spatial).
        scale_factor (Union[list, tuple]): one factor per spatial axis.

    Returns:
        tuple[int].
    """
    shape = tuple(input.shape)
    count = min(len(shape) - 2, len(scale_factor))
    return tuple(math.floor(shape[i + 2] * scale_factor[i]) for i in range(count))
