"""Loss Cells (``mindspore.nn`` losses)."""
from sporax.nn.loss.base import LossBase
from sporax.nn.loss.losses import (BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, HuberLoss, KLDivLoss,
                                   L1Loss, MSELoss, NLLLoss, SmoothL1Loss, SoftmaxCrossEntropyWithLogits)
from sporax.nn.loss.pair_losses import (CosineEmbeddingLoss, GaussianNLLLoss, HingeEmbeddingLoss, MarginRankingLoss,
                                       MultiLabelSoftMarginLoss)
from sporax.nn.loss.more_losses import DiceLoss, FocalLoss, MAELoss, MultiMarginLoss
from sporax.nn.loss.more_losses import CTCLoss
