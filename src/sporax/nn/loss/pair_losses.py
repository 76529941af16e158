"""Losses over pairs, margins and distributions: ranking, embedding, Gaussian NLL, multi-label.

Each Cell checks its arguments at construction and calls the functional op once
(``sporax.ops.functional.margin_loss`` and ``regression_loss``), so the Cell and ``ops.<name>`` agree by
construction.

Example:
    >>> import numpy as np
    >>> import sporax as ms
    >>> loss = ms.nn.MarginRankingLoss(margin=0.5)
    >>> float(loss(ms.Tensor([1.0, 2.0]), ms.Tensor([2.0, 1.0]), ms.Tensor([1.0, 1.0])).asnumpy())
    0.75
"""
import jax
import jax.numpy as jnp

from sporax.nn.cell import Cell
from sporax.nn.loss.base import LossBase, check_reduction
from sporax.ops._dispatch import float_array_of, wrap
from sporax.ops.functional import margin_loss, regression_loss


def _check_float(cell_name, arg_name, value):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"For '{cell_name}', the '{arg_name}' must be a float, but got {type(value).__name__}.")
    return float(value)


class _MarginLoss(Cell):
    """A loss with a float ``margin`` and a ``reduction``, both checked at construction."""

    def __init__(self, margin, reduction):
        super().__init__()
        name = type(self).__name__
        self.margin = _check_float(name, "margin", margin)
        self.reduction = check_reduction(name, reduction)


class MarginRankingLoss(_MarginLoss):
    """``max(0, -target * (input1 - input2) + margin)``, reduced.

    Args:
        margin (float): Default: 0.0.
        reduction (str): 'none', 'mean' or 'sum'. Default: 'mean'.

    Inputs:
        - **input1**, **input2** (Tensor) - the scores; **target** (Tensor) - 1 or -1, same shape.

    Outputs:
        Tensor, a scalar unless reduction is 'none'.
    """

    def __init__(self, margin=0.0, reduction="mean"):
        super().__init__(margin, reduction)

    def construct(self, input1, input2, target):
        return margin_loss.margin_ranking_loss(input1, input2, target, self.margin, self.reduction)


class CosineEmbeddingLoss(_MarginLoss):
    """``1 - cos(x1, x2)`` where ``labels`` is 1 and ``max(0, cos(x1, x2) - margin)`` where it is -1.

    Args:
        margin (float): in [-1, 1]. Default: 0.0.
        reduction (str): 'none', 'mean' or 'sum'. Default: 'mean'.

    Inputs:
        - **logits_x1**, **logits_x2** (Tensor) - (N, D); **labels** (Tensor) - (N,) of 1 and -1.

    Outputs:
        Tensor, a scalar unless reduction is 'none' ((N,) then).
    """

    def __init__(self, margin=0.0, reduction="mean"):
        super().__init__(margin, reduction)
        if not -1.0 <= self.margin <= 1.0:
            raise ValueError(f"For 'CosineEmbeddingLoss', the 'margin' must be in [-1.0, 1.0], but got {margin}.")

    def construct(self, logits_x1, logits_x2, labels):
        return margin_loss.cosine_embedding_loss(logits_x1, logits_x2, labels, self.margin, self.reduction)


class HingeEmbeddingLoss(_MarginLoss):
    """``x`` where ``labels`` is 1 and ``max(0, margin - x)`` where it is -1, reduced.

    Args:
        margin (float): Default: 1.0.
        reduction (str): 'none', 'mean' or 'sum'. Default: 'mean'.

    Inputs:
        - **logits** (Tensor); **labels** (Tensor) - 1 or -1, broadcastable to ``logits``.

    Outputs:
        Tensor, a scalar unless reduction is 'none'.
    """

    def __init__(self, margin=1.0, reduction="mean"):
        super().__init__(margin, reduction)

    def construct(self, logits, labels):
        return margin_loss.hinge_embedding_loss(logits, labels, self.margin, self.reduction)


class GaussianNLLLoss(Cell):
    """Gaussian negative log likelihood ``0.5 * (log(var) + (logits - labels)^2 / var)`` (+ const if full).

    Args:
        full (bool): add ``0.5 * log(2 * pi)``. Default: False.
        eps (float): lower bound of ``var``. Default: 1e-6.
        reduction (str): 'none', 'mean' or 'sum'. Default: 'mean'.

    Inputs:
        - **logits**, **labels** (Tensor); **var** (Tensor) - positive, broadcastable.

    Outputs:
        Tensor, a scalar unless reduction is 'none'.
    """

    def __init__(self, *, full=False, eps=1e-6, reduction="mean"):
        super().__init__()
        if not isinstance(full, bool):
            raise TypeError(f"For 'GaussianNLLLoss', the 'full' must be a bool, but got {type(full).__name__}.")
        self.eps = _check_float("GaussianNLLLoss", "eps", eps)
        if self.eps <= 0:
            raise ValueError(f"For 'GaussianNLLLoss', the 'eps' must be greater than 0, but got {eps}.")
        self.full = full
        self.reduction = check_reduction("GaussianNLLLoss", reduction)

    def construct(self, logits, labels, var):
        return regression_loss.gaussian_nll_loss(logits, labels, var, self.full, self.eps, self.reduction)


@jax.jit
def _multilabel_soft_margin(x, y, weight):
    per_class = -(y * jax.nn.log_sigmoid(x) + (1 - y) * jax.nn.log_sigmoid(-x)) * weight
    return jnp.mean(per_class, -1)


class MultiLabelSoftMarginLoss(LossBase):
    """Multi-label one-versus-all loss: the mean over classes of the weighted sigmoid cross entropy.

    Args:
        weight (Tensor): a weight per class. Default: None.
        reduction (str): 'none', 'mean' or 'sum'. Default: 'mean'.

    Inputs:
        - **x** (Tensor) - (N, C) scores; **target** (Tensor) - (N, C) of 0 and 1.

    Outputs:
        Tensor, a scalar unless reduction is 'none' ((N,) then).
    """

    def __init__(self, weight=None, reduction="mean"):
        super().__init__(reduction)
        self.weight = weight

    def construct(self, x, target):
        logits = float_array_of("MultiLabelSoftMarginLoss", "x", x)
        labels = float_array_of("MultiLabelSoftMarginLoss", "target", target).astype(logits.dtype)
        weight = 1.0 if self.weight is None else float_array_of("MultiLabelSoftMarginLoss", "weight", self.weight)
        return self.get_loss(wrap(_multilabel_soft_margin(logits, labels, jnp.asarray(weight, logits.dtype))))
