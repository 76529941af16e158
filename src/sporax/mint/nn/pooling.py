"""``mindspore.mint.nn.functional`` pooling that no op spells: ``adaptive_max_pool1d`` (its indices, through
``adaptive_max_pool2d``). The other pooling functions are op-table spellings."""
from sporax import ops

__all__ = ["adaptive_max_pool1d"]


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

