"""Segmentation losses of ``mindspore.nn``: ``DiceLoss``, ``MultiClassDiceLoss``, ``FocalLoss``.

Each follows MindSpore 2.10's definition, including where it differs from the textbook one:
``FocalLoss`` averages over the spatial positions before ``reduction`` (its ``'none'`` output is
one value per sample, or per sample and class for one-hot labels), and ``DiceLoss`` is one
coefficient over the whole batch.
"""
import jax
import jax.numpy as jnp

from sporax import ops
from sporax.core import validator
from sporax.core.tensor import Tensor, tensor_array, unwrap
from sporax.nn.loss.base import LossBase


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
        x = tensor_array(logits, "logits", "DiceLoss")
        y = tensor_array(label, "labels", "DiceLoss")
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
        x = tensor_array(logits, "logits", "FocalLoss")
        y = tensor_array(labels, "labels", "FocalLoss")
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
