"""Margin losses of ``mindspore.nn``: ``MultiMarginLoss``, ``MultilabelMarginLoss``, ``TripletMarginLoss``,
``TripletMarginWithDistanceLoss``."""
import jax.numpy as jnp

from sporax import ops
from sporax.core import validator
from sporax.core.tensor import Tensor, tensor_array, unwrap
from sporax.nn.loss.base import LossBase


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
        scores = tensor_array(x, "x", "MultilabelMarginLoss")
        labels = tensor_array(target, "target", "MultilabelMarginLoss")
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


class TripletMarginWithDistanceLoss(LossBase):
    """``max(d(x, positive) - d(x, negative) + margin, 0)`` with a given distance function.

    Args:
        distance_function (Callable): ``d(a, b)`` per row; None means the pairwise Euclidean
            distance ``||a - b + 1e-6||``. Default: None.
        swap (bool): use ``min(d(x, negative), d(positive, negative))``. Default: False.
        reduction (str): 'mean', 'sum' or 'none'. Default: 'mean'.
        margin (float): Default: 1.0.

    Inputs:
        - **x**, **positive**, **negative** (Tensor) -- (N, D).

    Outputs:
        Tensor.
    """

    def __init__(self, distance_function=None, swap=False, reduction="mean", margin=1.0):
        super().__init__(reduction)
        if distance_function is not None and not callable(distance_function):
            raise TypeError("For 'TripletMarginWithDistanceLoss', the 'distance_function' must be callable.")
        if isinstance(margin, bool) or not isinstance(margin, (int, float)) or margin < 0:
            raise ValueError(f"For 'TripletMarginWithDistanceLoss', the 'margin' must be a number >= 0, but got "
                             f"{margin!r}.")
        self.distance_function, self.swap, self.margin = distance_function, swap, float(margin)

    def _distance(self, first, second):
        if self.distance_function is not None:
            return self.distance_function(first, second)
        return Tensor._wrap(jnp.linalg.norm(first._value - second._value + 1e-6, axis=-1))

    def construct(self, x, positive, negative):
        positive_distance = self._distance(x, positive)
        negative_distance = self._distance(x, negative)
        if self.swap:
            negative_distance = ops.minimum(negative_distance, self._distance(positive, negative))
        loss = ops.clamp(positive_distance - negative_distance + self.margin, 0.0)
        return self.get_loss(loss)


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
        scores = tensor_array(x, "x", "MultiMarginLoss")
        labels = tensor_array(target, "target", "MultiMarginLoss")
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
