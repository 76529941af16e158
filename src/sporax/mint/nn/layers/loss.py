"""``mindspore.mint.nn`` loss Cells with PyTorch's arguments, each calling one functional loss."""
from sporax import ops
from sporax.mint.nn import functional
from sporax.nn.cell import Cell

__all__ = ["BCEWithLogitsLoss", "CosineEmbeddingLoss", "CrossEntropyLoss", "KLDivLoss", "NLLLoss", "SmoothL1Loss",
           "SoftMarginLoss"]

_REDUCTIONS = ("none", "mean", "sum")


class _Loss(Cell):
    _reductions = _REDUCTIONS

    def __init__(self, reduction="mean"):
        super().__init__()
        if reduction not in self._reductions:
            raise ValueError(f"For '{type(self).__name__}', reduction must be one of {self._reductions}, "
                             f"got {reduction!r}.")
        self.reduction = reduction


class BCEWithLogitsLoss(_Loss):
    """Binary cross entropy on logits.

    Args:
        weight (Tensor): per-element rescaling. Default: None.
        reduction (str): 'none', 'mean' or 'sum'. Default: 'mean'.
        pos_weight (Tensor): weight of the positive class. Default: None.

    Inputs:
        - **input** (Tensor): logits.
        - **target** (Tensor): labels in [0, 1].

    Outputs:
        Tensor, the loss.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.nn.BCEWithLogitsLoss()(ms.Tensor([0.2]), ms.Tensor([1.0]))
    """

    def __init__(self, weight=None, reduction="mean", pos_weight=None):
        super().__init__(reduction)
        self.weight, self.pos_weight = weight, pos_weight

    def construct(self, input, target):
        return functional.binary_cross_entropy_with_logits(input, target, self.weight, self.reduction, self.pos_weight)


class CosineEmbeddingLoss(_Loss):
    """``1 - cos(x1, x2)`` for target 1, ``max(0, cos(x1, x2) - margin)`` for target -1.

    Args:
        margin (float): Default: 0.0.
        reduction (str): Default: 'mean'.

    Inputs:
        - **input1**, **input2** (Tensor): (N, D).
        - **target** (Tensor): (N,) of 1 or -1.

    Outputs:
        Tensor, the loss.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.nn.CosineEmbeddingLoss()(ms.Tensor([[1.0, 0.0]]), ms.Tensor([[0.0, 1.0]]), ms.Tensor([1]))
    """

    def __init__(self, margin=0.0, reduction="mean"):
        super().__init__(reduction)
        self.margin = margin

    def construct(self, input1, input2, target):
        return ops.cosine_embedding_loss(input1, input2, target, self.margin, self.reduction)


class CrossEntropyLoss(_Loss):
    """Cross entropy between logits and class indices (or class probabilities).

    Args:
        weight (Tensor): per-class rescaling, shape (C,). Default: None.
        ignore_index (int): a class index that contributes no loss (index targets only). Default: -100.
        reduction (str): 'none', 'mean' or 'sum'. Default: 'mean'.
        label_smoothing (float): in [0, 1]; mixes the target with the uniform distribution. Default: 0.0.

    Inputs:
        - **input** (Tensor): logits, (N, C) or (N, C, d1, ...).
        - **target** (Tensor): class indices (N,) / (N, d1, ...), or probabilities shaped like ``input``.

    Outputs:
        Tensor, the loss: a scalar, or shaped like ``target`` when reduction is 'none'.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.nn.CrossEntropyLoss()(ms.Tensor([[1.0, 2.0, 0.5]]), ms.Tensor([1], ms.int32))
    """

    def __init__(self, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
        super().__init__(reduction)
        self.weight, self.ignore_index, self.label_smoothing = weight, ignore_index, label_smoothing

    def construct(self, input, target):
        return functional.cross_entropy(input, target, self.weight, self.ignore_index, self.reduction,
                                        self.label_smoothing)


class KLDivLoss(_Loss):
    """Kullback-Leibler divergence (``input`` holds log-probabilities).

    Args:
        reduction (str): 'none', 'mean', 'sum' or 'batchmean'. Default: 'mean'.
        log_target (bool): ``target`` holds log-probabilities too. Default: False.

    Inputs:
        - **input** (Tensor), **target** (Tensor).

    Outputs:
        Tensor, the loss.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.nn.KLDivLoss()(ms.Tensor([-1.0]), ms.Tensor([0.5]))
    """

    _reductions = _REDUCTIONS + ("batchmean",)

    def __init__(self, reduction="mean", log_target=False):
        super().__init__(reduction)
        self.log_target = log_target

    def construct(self, input, target):
        return functional.kl_div(input, target, self.reduction, self.log_target)


class NLLLoss(_Loss):
    """Negative log-likelihood of class indices under log-probabilities.

    Args:
        weight (Tensor): per-class rescaling, shape (C,). Default: None.
        ignore_index (int): a class index that contributes no loss. Default: -100.
        reduction (str): 'none', 'mean' or 'sum'. Default: 'mean'.

    Inputs:
        - **input** (Tensor): log-probabilities, (N, C) or (N, C, d1, ...).
        - **target** (Tensor): class indices, (N,) or (N, d1, ...).

    Outputs:
        Tensor, the loss: a scalar, or shaped like ``target`` when reduction is 'none'.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.nn.NLLLoss()(ms.Tensor([[-1.0, -0.5, -2.0]]), ms.Tensor([1], ms.int32))
    """

    def __init__(self, weight=None, ignore_index=-100, reduction="mean"):
        super().__init__(reduction)
        self.weight, self.ignore_index = weight, ignore_index

    def construct(self, input, target):
        return functional.nll_loss(input, target, self.weight, self.ignore_index, self.reduction)


class SmoothL1Loss(_Loss):
    """Huber-like loss: quadratic below ``beta``, linear above.

    Args:
        reduction (str): Default: 'mean'.
        beta (float): Default: 1.0.

    Inputs:
        - **input** (Tensor), **target** (Tensor).

    Outputs:
        Tensor, the loss.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.nn.SmoothL1Loss()(ms.Tensor([0.5, 3.0]), ms.Tensor([0.0, 0.0]))
    """

    def __init__(self, reduction="mean", beta=1.0):
        super().__init__(reduction)
        self.beta = beta

    def construct(self, input, target):
        return ops.smooth_l1_loss(input, target, self.beta, self.reduction)


class SoftMarginLoss(_Loss):
    """``log(1 + exp(-target * input))``.

    Args:
        reduction (str): Default: 'mean'.

    Inputs:
        - **input** (Tensor), **target** (Tensor) of 1 or -1.

    Outputs:
        Tensor, the loss.

    Example:
        >>> import sporax as ms
        >>> _ = ms.mint.nn.SoftMarginLoss()(ms.Tensor([0.5]), ms.Tensor([1.0]))
    """

    def construct(self, input, target):
        return ops.soft_margin_loss(input, target, self.reduction)
