"""``mindspore.mint.batch_norm_gather_stats_with_counts``: the global statistics of a synchronised batch norm
(``batch_norm_stats`` and ``batch_norm_elemt`` are op-table entries in ``ops.functional.normalization``)."""
from sporax import ops
from sporax.state.assign import write

__all__ = ["batch_norm_gather_stats_with_counts"]


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
