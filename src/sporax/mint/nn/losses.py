"""``mindspore.mint.nn.functional.kl_div``: PyTorch's ``log_target`` and ``'batchmean'`` reduction, which
``ops.kl_div`` does not take, composed from ops (the other losses are op-table spellings)."""
from sporax import ops

__all__ = ["kl_div"]


def kl_div(input, target, reduction="mean", log_target=False):
    """Kullback-Leibler divergence of ``target`` from log-probabilities ``input``; ``reduction`` is
    'none', 'sum', 'mean' (over elements) or 'batchmean' (sum over the batch size).

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.nn.functional.kl_div(ms.Tensor([-1.0, -0.5]), ms.Tensor([0.3, 0.7]))
    """
    if log_target:
        pointwise = ops.exp(target) * (target - input)
    else:
        pointwise = ops.xlogy(target, target) - target * input
    if reduction == "none":
        return pointwise
    if reduction == "sum":
        return ops.sum(pointwise)
    if reduction == "mean":
        return ops.mean(pointwise)
    if reduction == "batchmean":
        return ops.sum(pointwise) / (input.shape[0] if input.ndim else 1)
    raise ValueError(f"For 'kl_div', reduction must be 'none', 'sum', 'mean' or 'batchmean', got {reduction!r}.")


def nll_loss(input, target, weight=None, ignore_index=-100, reduction="mean"):
    """Negative log-likelihood of class ``target`` under log-probabilities ``input``.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.nn.functional.nll_loss(ms.Tensor([[-0.1, -2.3]]), ms.Tensor([0]))
    """
    return ops.nll_loss(input, target, weight, ignore_index, reduction)
