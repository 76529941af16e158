"""``mindspore.mint`` batch-norm statistics (the pieces of a synchronised batch norm)."""
from sporax import ops
from sporax.state.assign import write

__all__ = ["batch_norm_stats", "batch_norm_elemt", "batch_norm_gather_stats_with_counts"]


def _channel_shape(input):
    return (1, -1) + (1,) * (input.ndim - 2)


def batch_norm_stats(input, eps):
    """Per-channel (mean, 1 / sqrt(biased variance + eps)) of an (N, C, ...) input.

    Example:
        >>> import numpy as np, sporax as ms
        >>> mean, invstd = ms.mint.batch_norm_stats(ms.Tensor(np.ones((2, 3, 4), np.float32)), 1e-5)
    """
    axes = (0,) + tuple(range(2, input.ndim))
    mean = ops.mean(input, axes)
    variance = ops.mean(ops.square(input - mean.reshape(_channel_shape(input))), axes)
    return mean, ops.rsqrt(variance + eps)


def batch_norm_elemt(input, weight=None, bias=None, mean=None, invstd=None, eps=1e-05):
    """``(input - mean) * invstd * weight + bias`` per channel (dimension 1).

    Example:
        >>> import numpy as np, sporax as ms
        >>> x = ms.Tensor(np.ones((2, 3), np.float32))
        >>> mean, invstd = ms.mint.batch_norm_stats(x, 1e-5)
        >>> _ = ms.mint.batch_norm_elemt(x, None, None, mean, invstd)
    """
    shape = _channel_shape(input)
    output = (input - mean.reshape(shape)) * invstd.reshape(shape)
    if weight is not None:
        output = output * weight.reshape(shape)
    if bias is not None:
        output = output + bias.reshape(shape)
    return output


def batch_norm_gather_stats_with_counts(input, mean, invstd, running_mean=None, running_var=None, momentum=0.1,
                                        eps=1e-05, counts=None):
    """Combine per-device (mean, invstd) rows weighted by ``counts`` into the global (mean, invstd),
    updating ``running_mean``/``running_var`` (unbiased variance) in place.

    Example:
        >>> import numpy as np, sporax as ms
        >>> means, invstds = ms.Tensor([[0.0], [2.0]]), ms.Tensor([[1.0], [1.0]])
        >>> _ = ms.mint.batch_norm_gather_stats_with_counts(means, means, invstds, counts=ms.Tensor([2.0, 2.0]))
    """
    counts = ops.reshape(counts.astype(mean.dtype), (-1, 1))
    total = ops.sum(counts)
    global_mean = ops.sum(mean * counts, 0) / total
    variances = 1.0 / ops.square(invstd) - eps
    global_variance = ops.sum((variances + ops.square(mean - global_mean)) * counts, 0) / total
    if running_mean is not None:
        write(running_mean, running_mean * (1 - momentum) + global_mean * momentum, "batch_norm_gather_stats")
    if running_var is not None:
        unbiased = global_variance * total / (total - 1)
        write(running_var, running_var * (1 - momentum) + unbiased * momentum, "batch_norm_gather_stats")
    return global_mean, ops.rsqrt(global_variance + eps)
