"""The standard loss Cells, each a thin Cell over its functional op."""
from numpy import broadcast_shapes

from sporax import ops
from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor
from sporax.nn.cell import Cell
from sporax.ops.functional import loss as fused_loss
from sporax.nn.loss.base import LossBase, check_reduction
from sporax.ops.functional import ctc
from sporax.ops.functional import loss as fused_loss


def _check_pair(cell_name, logits, labels):
    """TypeError/ValueError naming the Cell for inputs its subtraction cannot take."""
    for name, value in (("logits", logits), ("labels", labels)):
        if not isinstance(value, Tensor):
            raise TypeError(f"For '{cell_name}', '{name}' must be a Tensor, but got "
                            f"{type(value).__name__}.")
    try:
        broadcast_shapes(logits.shape, labels.shape)
    except ValueError:
        raise ValueError(f"For '{cell_name}', 'logits' {logits.shape} and 'labels' {labels.shape} "
                         "must have the same (or broadcastable) shapes.") from None


class L1Loss(LossBase):
    """Mean absolute error ``|logits - labels|``.

    Inputs:
        - **logits** (Tensor), **labels** (Tensor): same shape.

    Outputs:
        Tensor: a scalar, or the per-element losses when ``reduction='none'``.
    """

    def construct(self, logits, labels):
        _check_pair("L1Loss", logits, labels)
        return self.get_loss(ops.abs(logits - labels))


class MSELoss(LossBase):
    """Mean squared error ``(logits - labels) ** 2``.

    Inputs:
        - **logits** (Tensor), **labels** (Tensor).

    Outputs:
        Tensor: the reduced loss.
    """

    def construct(self, logits, labels):
        _check_pair("MSELoss", logits, labels)
        return self.get_loss(ops.square(logits - labels))


class SmoothL1Loss(LossBase):
    """Smooth L1: quadratic below ``beta``, linear above.

    Args:
        beta (float): the switch point. Default: 1.0.
        reduction (str): Default: 'none'.
    """

    def __init__(self, beta=1.0, reduction="none"):
        super().__init__(reduction)
        if beta <= 0:
            raise ValueError(f"For 'SmoothL1Loss', 'beta' must be greater than 0, but got {beta}.")
        self.beta = beta

    def construct(self, logits, labels):
        return ops.smooth_l1_loss(logits, labels, self.beta, self.reduction)


class HuberLoss(LossBase):
    """Huber loss: quadratic below ``delta``, linear above.

    Args:
        reduction (str): Default: 'mean'.
        delta (float): the switch point. Default: 1.0.
    """

    def __init__(self, reduction="mean", delta=1.0):
        super().__init__(reduction)
        self.delta = delta

    def construct(self, logits, labels):
        return ops.huber_loss(logits, labels, self.reduction, self.delta)


def _check_cross_entropy_dtypes(logits, labels):
    """MindSpore 2.10's CrossEntropyLoss takes Float16/Float32 logits, and labels of Int32 (class indices) or,
    shaped like the logits, Float16/Float32 (probabilities): other dtypes raise TypeError (Int64 indices too,
    though ``ops.cross_entropy`` takes them)."""
    half_or_single = (mstype.float16, mstype.float32)
    if logits.dtype not in half_or_single:
        raise TypeError(f"For 'CrossEntropyLoss', the 'logits' should be one of [mindspore.float16, "
                        f"mindspore.float32], but got '{logits.dtype!r}'.")
    if labels.ndim == logits.ndim:
        if labels.dtype not in half_or_single:
            raise TypeError(f"For 'CrossEntropyLoss', the 'labels' should be one of [mindspore.float16, "
                            f"mindspore.float32], but got '{labels.dtype!r}'.")
    elif labels.dtype != mstype.int32:
        raise TypeError(f"For 'CrossEntropyLoss', the 'labels' should be Int32, but got '{labels.dtype!r}'.")


class CrossEntropyLoss(LossBase):
    """Cross entropy of logits against class indices or class probabilities.

    Args:
        weight (Tensor): per-class weights. Default: None.
        ignore_index (int): label value that contributes nothing. Default: -100.
        reduction (str): Default: 'mean'.
        label_smoothing (float): in [0, 1]. Default: 0.0.

    Inputs:
        - **logits** (Tensor): (N, C) or (N, C, ...).
        - **labels** (Tensor): (N,) class indices, or probabilities shaped like logits.
    """

    def __init__(self, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
        super().__init__(reduction)
        if not 0.0 <= label_smoothing <= 1.0:
            raise ValueError(f"For 'CrossEntropyLoss', label_smoothing must be in [0, 1], got {label_smoothing}.")
        self.weight = weight
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing

    def construct(self, logits, labels):
        _check_cross_entropy_dtypes(logits, labels)
        return ops.cross_entropy(logits, labels, self.weight, self.ignore_index, self.reduction,
                                 self.label_smoothing)


class NLLLoss(LossBase):
    """Negative log likelihood of class indices under log-probabilities.

    Args:
        weight (Tensor): per-class weights. Default: None.
        ignore_index (int): Default: -100.
        reduction (str): Default: 'mean'.
    """

    def __init__(self, weight=None, ignore_index=-100, reduction="mean"):
        super().__init__(reduction)
        self.weight = weight
        self.ignore_index = ignore_index

    def construct(self, logits, labels):
        return ops.nll_loss(logits, labels, self.weight, self.ignore_index, self.reduction)


class SoftmaxCrossEntropyWithLogits(LossBase):
    """Softmax cross entropy per sample; labels are one-hot (or class indices with ``sparse=True``).

    Args:
        sparse (bool): labels are class indices. Default: False.
        reduction (str): Default: 'none'.

    Inputs:
        - **logits** (Tensor): (N, C).
        - **labels** (Tensor): (N,) indices when sparse, else (N, C).

    Outputs:
        Tensor: (N,) per-sample losses, or a scalar when reduced.
    """

    def __init__(self, sparse=False, reduction="none"):
        super().__init__(reduction)
        self.sparse = sparse

    def construct(self, logits, labels):
        if self.sparse:
            depth = logits.shape[-1]
            labels = ops.one_hot(labels, depth, ops.scalar_to_tensor(1.0, logits.dtype),
                                 ops.scalar_to_tensor(0.0, logits.dtype))
        elif labels.dtype != logits.dtype:
            raise TypeError(f"For primitive[SoftmaxCrossEntropyWithLogits], the input type must be same: "
                            f"'logits' is {logits.dtype}, 'labels' is {labels.dtype}. Cast the labels to the "
                            f"logits' dtype (ops.cast) first.")
        # MindSpore's fused kernel: its logits gradient is ``softmax - labels`` (see the op).
        loss = fused_loss.softmax_cross_entropy_with_logits(logits, labels)[0]
        return self.get_loss(loss)


class BCELoss(LossBase):
    """Binary cross entropy of probabilities.

    Args:
        weight (Tensor): element weights. Default: None.
        reduction (str): Default: 'mean'.
    """

    def __init__(self, weight=None, reduction="mean"):
        super().__init__(reduction)
        self.weight = weight

    def construct(self, logits, labels):
        return ops.binary_cross_entropy(logits, labels, self.weight, self.reduction)


class BCEWithLogitsLoss(LossBase):
    """Binary cross entropy of ``sigmoid(logits)``, computed stably.

    Args:
        reduction (str): Default: 'mean'.
        weight (Tensor), pos_weight (Tensor): element and positive-class weights. Default: None.
    """

    def __init__(self, reduction="mean", weight=None, pos_weight=None):
        super().__init__(reduction)
        self.weight = weight
        self.pos_weight = pos_weight

    def construct(self, logits, labels):
        return ops.binary_cross_entropy_with_logits(logits, labels, self.weight, self.pos_weight,
                                                    self.reduction)


class KLDivLoss(LossBase):
    """KL divergence of ``labels`` from log-probabilities ``logits``.

    Args:
        reduction (str): 'mean', 'sum', 'batchmean' or 'none'. Default: 'mean'.
    """

    def __init__(self, reduction="mean"):
        if reduction not in ("mean", "sum", "none", "batchmean"):
            check_reduction("KLDivLoss", reduction)
        super().__init__("none" if reduction == "batchmean" else reduction)
        self.reduction = reduction

    def construct(self, logits, labels):
        return ops.kl_div(logits, labels, self.reduction)


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
        unbatched = log_probs.ndim == 2
        if unbatched:
            log_probs, targets = log_probs.expand_dims(1), targets.reshape((1, -1))
        loss, _ = ctc.ctc_loss(log_probs, targets, input_lengths, target_lengths, self.blank, self.reduction,
                               self.zero_infinity)
        # An unbatched sample's per-sample loss is a scalar, as MindSpore's.
        return loss.reshape(()) if unbatched and self.reduction == "none" else loss
