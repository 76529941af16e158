"""More ``mindspore.nn`` losses: ``RMSELoss``, ``PoissonNLLLoss``, ``TripletMarginLoss``,
``MultilabelMarginLoss``."""
import math

import jax.numpy as jnp

from sporax.core.tensor import Tensor
from sporax.nn.loss.base import LossBase
from sporax import ops


def _array(cell, name, value):
    if not isinstance(value, Tensor):
        raise TypeError(f"For '{cell}', the input '{name}' must be a Tensor, but got {type(value).__name__}.")
    return value._value


class RMSELoss(LossBase):
    """The root mean squared error ``sqrt(mean((logits - label) ** 2))``.

    Inputs:
        - **logits** (Tensor).
        - **label** (Tensor) -- broadcastable to ``logits``.

    Outputs:
        Tensor, a scalar.
    """

    def __init__(self):
        super().__init__()

    def construct(self, logits, label):
        difference = _array("RMSELoss", "logits", logits) - _array("RMSELoss", "label", label)
        return Tensor._wrap(jnp.sqrt(jnp.mean(jnp.square(difference))))


class PoissonNLLLoss(LossBase):
    """The negative log likelihood of ``target`` under a Poisson distribution of rate ``input``.

    ``exp(x) - target * x`` for log-rates (``log_input``), else ``x - target * log(x + eps)``; with
    ``full`` the Stirling term ``target * log(target) - target + log(2 * pi * target) / 2`` is added
    where ``target > 1``.

    Args:
        log_input (bool): ``input`` holds log-rates. Default: True.
        full (bool): add the Stirling term. Default: False.
        eps (float): keeps the log finite (rates). Default: 1e-08.
        reduction (str): 'mean', 'sum' or 'none'. Default: 'mean'.

    Inputs:
        - **input** (Tensor) -- rates or log-rates.
        - **target** (Tensor) -- counts.

    Outputs:
        Tensor.
    """

    def __init__(self, log_input=True, full=False, eps=1e-08, reduction="mean"):
        super().__init__(reduction)
        for name, value in (("log_input", log_input), ("full", full)):
            if not isinstance(value, bool):
                raise TypeError(f"For 'PoissonNLLLoss', the '{name}' must be a bool, but got {type(value).__name__}.")
        if isinstance(eps, bool) or not isinstance(eps, float) or eps <= 0:
            raise ValueError(f"For 'PoissonNLLLoss', the 'eps' must be a float > 0, but got {eps!r}.")
        self.log_input, self.full, self.eps = log_input, full, eps

    def construct(self, input, target):
        x = _array("PoissonNLLLoss", "input", input)
        y = _array("PoissonNLLLoss", "target", target).astype(x.dtype)
        if self.log_input:
            loss = jnp.exp(x) - y * x
        else:
            loss = x - y * jnp.log(x + self.eps)
        if self.full:
            safe = jnp.where(y > 1, y, 1.0)
            stirling = safe * jnp.log(safe) - safe + 0.5 * jnp.log(2 * math.pi * safe)
            loss = loss + jnp.where(y > 1, stirling, 0.0)
        return self.get_loss(Tensor._wrap(loss))


class TripletMarginLoss(LossBase):
    """``max(d(x, positive) - d(x, negative) + margin, 0)`` with the p-norm distance ``d``.

    Args:
        p (int): the norm degree. Default: 2.
        swap (bool): use ``min(d(x, negative), d(positive, negative))`` as the negative distance.
            Default: False.
        eps (float): added inside the distance. Default: 1e-06.
        reduction (str): 'mean', 'sum' or 'none'. Default: 'mean'.
        margin (float): Default: 1.0.

    Inputs:
        - **x**, **positive**, **negative** (Tensor) -- (N, D) (or (D,)).

    Outputs:
        Tensor.
    """

    def __init__(self, p=2, swap=False, eps=1e-06, reduction="mean", margin=1.0):
        super().__init__(reduction)
        self.p, self.swap, self.eps, self.margin = p, swap, eps, margin

    def construct(self, x, positive, negative):
        return ops.triplet_margin_loss(x, positive, negative, margin=self.margin, p=self.p, eps=self.eps,
                                       swap=self.swap, reduction=self.reduction)


class MultilabelMarginLoss(LossBase):
    """Multi-label hinge loss: each sample's target classes (until the first -1) should outscore
    every other class by 1: ``sum_j sum_i max(0, 1 - (x[y_j] - x[i])) / C``.

    Args:
        reduction (str): 'mean', 'sum' or 'none'. Default: 'mean'.

    Inputs:
        - **x** (Tensor) -- (C,) or (N, C) scores.
        - **target** (Tensor) -- int32 class indices of ``x``'s shape, ended by -1.

    Outputs:
        Tensor: a scalar, or (N,) for 'none'.
    """

    def __init__(self, reduction="mean"):
        super().__init__(reduction)

    def construct(self, x, target):
        scores = _array("MultilabelMarginLoss", "x", x)
        labels = _array("MultilabelMarginLoss", "target", target)
        if labels.shape != scores.shape:
            raise ValueError(f"For 'MultilabelMarginLoss', the 'target' must have the shape of 'x' "
                             f"{tuple(scores.shape)}, but got {tuple(labels.shape)}.")
        single = scores.ndim == 1
        scores, labels = jnp.atleast_2d(scores), jnp.atleast_2d(labels).astype(jnp.int32)
        classes = scores.shape[1]
        # The targets are the labels before the first -1 of each row.
        valid = jnp.cumprod(labels >= 0, axis=1).astype(bool)
        safe = jnp.where(valid, labels, 0)
        is_target = jnp.zeros(scores.shape, bool).at[jnp.arange(scores.shape[0])[:, None], safe].max(valid)
        target_scores = jnp.take_along_axis(scores, safe, axis=1)
        hinge = jnp.maximum(0.0, 1.0 - (target_scores[:, :, None] - scores[:, None, :]))
        hinge = jnp.where(valid[:, :, None] & ~is_target[:, None, :], hinge, 0.0)
        loss = jnp.sum(hinge, axis=(1, 2)) / classes
        if single:
            loss = loss[0]
        return self.get_loss(Tensor._wrap(loss.astype(scores.dtype)))
