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


class MultiClassDiceLoss(LossBase):
    """The mean over classes of the Dice loss of each class column (after ``activation``).

    Args:
        weights (Tensor): (C, 1) per-class weights. Default: None.
        ignore_indiex (int): a class left out of the sum (still counted in the mean). Default: None.
        activation (Union[str, Cell]): 'softmax' (over axis 1), 'sigmoid', a Cell, or None. Default: 'softmax'.

    Inputs:
        - **logits** (Tensor) -- (N, C, ...).
        - **label** (Tensor) -- one-hot, same shape.

    Outputs:
        Tensor, a scalar.
    """

    def __init__(self, weights=None, ignore_indiex=None, activation="softmax"):
        super().__init__()
        if activation not in (None, "softmax", "sigmoid") and not callable(activation):
            raise ValueError(f"For 'MultiClassDiceLoss', the 'activation' must be 'softmax', 'sigmoid', a Cell or "
                             f"None, but got {activation!r}.")
        if weights is not None and (not isinstance(weights, Tensor) or weights.ndim != 2):
            raise ValueError("For 'MultiClassDiceLoss', the 'weights' must be a 2-D Tensor (C, 1) with a row per "
                             "class.")
        self.weights, self.ignore_indiex, self.activation = weights, ignore_indiex, activation
        self.smooth = 1e-5

    def construct(self, logits, label):
        classes = label.shape[1]
        if self.weights is not None and self.weights.shape[0] != classes:
            raise ValueError(f"For 'MultiClassDiceLoss', the weight_shape[0] must be equal to label_shape[1], but "
                             f"got weight_shape[0]: {self.weights.shape[0]} and label_shape[1]: {classes}.")
        if self.activation == "softmax":
            logits = ops.softmax(logits, 1)
        elif self.activation == "sigmoid":
            logits = ops.sigmoid(logits)
        elif self.activation is not None:
            logits = self.activation(logits)
        total = 0.0
        for index in range(classes):
            if index == self.ignore_indiex:
                continue
            x = logits._value[:, index]
            y = label._value[:, index].astype(x.dtype)
            loss = Tensor._wrap(1 - 2 * jnp.sum(x * y) / (jnp.sum(x * x) + jnp.sum(y * y) + self.smooth))
            if self.weights is not None:
                loss = loss * self.weights[index]
            total = total + loss
        return total / classes


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
