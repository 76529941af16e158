"""Losses of ``mindspore.nn`` written on jax.numpy: MAELoss, DiceLoss, FocalLoss, MultiMarginLoss.

Each follows MindSpore 2.10's definition, including where it differs from the textbook one:
``FocalLoss`` averages over the spatial positions before ``reduction`` (its ``'none'`` output is
one value per sample, or per sample and class for one-hot labels), and ``DiceLoss`` is one
coefficient over the whole batch.
"""
import jax
import jax.numpy as jnp

from sporax.core import validator
from sporax.core.tensor import Tensor, unwrap
from sporax.nn.cell import Cell
from sporax.nn.loss.base import LossBase, check_reduction
from sporax.ops.functional import ctc


def _tensor(cell, name, value):
    if not isinstance(value, Tensor):
        raise TypeError(f"For '{cell}', the '{name}' must be a Tensor, but got {type(value).__name__}.")
    return unwrap(value)


class MAELoss(LossBase):
    """Mean absolute error ``|logits - labels|`` (broadcast), reduced by ``reduction``.

    Inputs:
        - **logits** (Tensor), **labels** (Tensor): broadcastable shapes.

    Outputs:
        Tensor: a scalar, or the per-element losses when ``reduction='none'``.

    Example:
        >>> import sporax as ms
        >>> float(ms.nn.MAELoss()(ms.Tensor([1.0, 2.0]), ms.Tensor([2.0, 4.0])))
        1.5
    """

    def construct(self, logits, labels):
        difference = _tensor("MAELoss", "logits", logits) - _tensor("MAELoss", "labels", labels)
        return self.get_loss(Tensor._wrap(jnp.abs(difference)))


class DiceLoss(LossBase):
    """``1 - 2 * sum(logits * labels) / (sum(logits ** 2) + sum(labels ** 2) + smooth)`` over the whole batch.

    Args:
        smooth (float): a positive term that keeps the ratio finite. Default: ``1e-5``.

    Inputs:
        - **logits** (Tensor), **labels** (Tensor): same shape, at least 2-D, not uint8.

    Outputs:
        Tensor: a scalar.
    """

    def __init__(self, smooth=1e-5):
        super().__init__()
        self.smooth = validator.check_positive_float(smooth, "smooth", "DiceLoss")

    def construct(self, logits, label):
        x = _tensor("DiceLoss", "logits", logits)
        y = _tensor("DiceLoss", "labels", label)
        if x.shape != y.shape or x.ndim < 2:
            raise ValueError(f"For 'DiceLoss', 'logits' and 'labels' must have the same shape of rank >= 2, "
                             f"but got {x.shape} and {y.shape}.")
        for name, value in (("logits", x), ("labels", y)):
            if value.dtype == jnp.uint8:
                raise TypeError(f"For 'DiceLoss', the dtype of '{name}' can not be uint8.")
        intersection = jnp.sum(x * y)
        union = jnp.sum(x * x) + jnp.sum(y * y)
        return Tensor._wrap(1 - 2 * intersection / (union + self.smooth))


class FocalLoss(LossBase):
    """Focal loss ``-(1 - p) ** gamma * log(p)`` of the softmax over axis 1, averaged over positions.

    Args:
        weight (Tensor): a 1-D weight per class, or None. Default: ``None``.
        gamma (float): the focusing exponent. Default: ``2.0``.
        reduction (str): 'mean', 'sum' or 'none'. Default: ``'mean'``.

    Inputs:
        - **logits** (Tensor) - (N, C) or (N, C, ...) float scores.
        - **labels** (Tensor) - (N, 1, ...) int class indices, or one-hot (N, C, ...).

    Outputs:
        Tensor: the reduced loss; with ``'none'``, shape (N,) for index labels and (N, C) for one-hot.
    """

    def __init__(self, weight=None, gamma=2.0, reduction="mean"):
        super().__init__(reduction=reduction)
        validator.check_value_type("gamma", gamma, [float], "FocalLoss")
        if weight is not None and not isinstance(weight, Tensor):
            raise TypeError(f"For 'FocalLoss', the type of 'weight' must be a Tensor, but got "
                            f"{type(weight).__name__}.")
        if isinstance(weight, Tensor) and weight.ndim != 1:
            raise ValueError(f"For 'FocalLoss', the dimension of 'weight' must be 1, but got {weight.ndim}.")
        self.gamma = gamma
        self.weight = weight

    def construct(self, logits, labels):
        x = _tensor("FocalLoss", "logits", logits)
        y = _tensor("FocalLoss", "labels", labels)
        if x.ndim != y.ndim:
            raise ValueError(f"For 'FocalLoss', 'logits' and 'labels' must have the same rank, but got "
                             f"{x.ndim} and {y.ndim}.")
        if y.shape[1] not in (1, x.shape[1]):
            raise ValueError(f"For 'FocalLoss', the channel of 'labels' must be 1 or {x.shape[1]}, "
                             f"but got {y.shape[1]}.")
        if not jnp.issubdtype(y.dtype, jnp.integer):
            raise TypeError(f"For 'FocalLoss', the dtype of 'labels' must be int32 or int64, but got {y.dtype}.")
        x = x.reshape(x.shape[0], x.shape[1], -1)
        y = y.reshape(y.shape[0], y.shape[1], -1)
        log_probability = jax.nn.log_softmax(x, axis=1)
        index_labels = y.shape[1] == 1
        if index_labels:
            log_probability = jnp.take_along_axis(log_probability, y.astype(jnp.int32), axis=1)[:, 0]
        probability = jnp.exp(log_probability)
        if self.weight is not None:
            class_weight = jnp.broadcast_to(unwrap(self.weight)[None, :, None], (y.shape[0], x.shape[1], y.shape[2]))
            if index_labels:
                class_weight = jnp.take_along_axis(class_weight, y.astype(jnp.int32), axis=1)[:, 0]
            log_probability = log_probability * class_weight
        focus = (1.0 - probability) ** self.gamma
        if index_labels:
            loss = jnp.mean(-focus * log_probability, axis=1)
        else:
            loss = jnp.mean(-focus * y * log_probability, axis=-1)
        return self.get_loss(Tensor._wrap(loss))


class MultiMarginLoss(LossBase):
    """Multi-class hinge loss: ``sum_{j != y} max(0, margin - x[y] + x[j]) ** p * weight[y] / C`` per sample.

    Args:
        p (int): 1 or 2. Default: ``1``.
        margin (float): the margin. Default: ``1.0``.
        reduction (str): 'mean', 'sum' or 'none'. Default: ``'mean'``.
        weight (Tensor): a 1-D weight per class, or None. Default: ``None``.

    Inputs:
        - **x** (Tensor) - (N, C) scores.
        - **target** (Tensor) - (N,) int64 class indices.
        - **weight** (Tensor) - optional, overrides the constructor's weight.

    Outputs:
        Tensor: a scalar, or (N,) with ``reduction='none'``.
    """

    def __init__(self, p=1, margin=1.0, reduction="mean", weight=None):
        super().__init__(reduction=reduction)
        if p not in (1, 2) or isinstance(p, bool):
            raise ValueError(f"For 'MultiMarginLoss', 'p' must be 1 or 2, but got {p}.")
        validator.check_value_type("margin", margin, [float, int], "MultiMarginLoss")
        self.p = p
        self.margin = float(margin)
        self.weight = weight

    def construct(self, x, target, weight=None):
        scores = _tensor("MultiMarginLoss", "x", x)
        labels = _tensor("MultiMarginLoss", "target", target)
        if scores.ndim != 2 or labels.shape != scores.shape[:1]:
            raise ValueError(f"For 'MultiMarginLoss', 'x' must be (N, C) and 'target' (N,), but got "
                             f"{scores.shape} and {labels.shape}.")
        weight = self.weight if weight is None else weight
        labels = labels.astype(jnp.int32)
        target_score = jnp.take_along_axis(scores, labels[:, None], axis=1)
        hinge = jnp.maximum(0.0, self.margin - target_score + scores) ** self.p
        if weight is not None:
            hinge = hinge * unwrap(weight)[labels][:, None]
        hinge = jnp.where(jnp.arange(scores.shape[1])[None, :] == labels[:, None], 0.0, hinge)
        return self.get_loss(Tensor._wrap(jnp.sum(hinge, axis=1) / scores.shape[1]))


class CTCLoss(Cell):
    """Connectionist temporal classification loss (``ops.ctc_loss`` without its ``log_alpha``).

    Args:
        blank (int): the blank label. Default: 0.
        reduction (str): 'none', 'mean' (each loss divided by its target length, then averaged) or 'sum'.
            Default: 'mean'.
        zero_infinity (bool): Default: False. As measured on MindSpore 2.10 (CPU), infinite losses stay
            infinite either way.

    Inputs:
        - **log_probs** (Tensor) - (T, N, C), or (T, C) for one sample.
        - **targets** (Tensor) - (N, S) padded labels, or (S,).
        - **input_lengths**, **target_lengths** (Tensor) - (N,) (or one value).

    Outputs:
        Tensor, (N,) for 'none', else a scalar.
    """

    def __init__(self, blank=0, reduction="mean", zero_infinity=False):
        super().__init__()
        if isinstance(blank, bool) or not isinstance(blank, int):
            raise TypeError(f"For 'CTCLoss', 'blank' must be an int, but got {type(blank).__name__}.")
        if not isinstance(zero_infinity, bool):
            raise TypeError(f"For 'CTCLoss', 'zero_infinity' must be a bool, but got {type(zero_infinity).__name__}.")
        self.blank, self.zero_infinity = blank, zero_infinity
        self.reduction = check_reduction("CTCLoss", reduction)

    def construct(self, log_probs, targets, input_lengths, target_lengths):
        if log_probs.ndim == 2:
            log_probs, targets = log_probs.expand_dims(1), targets.reshape((1, -1))
        loss, _ = ctc.ctc_loss(log_probs, targets, input_lengths, target_lengths, self.blank, self.reduction,
                               self.zero_infinity)
        return loss
