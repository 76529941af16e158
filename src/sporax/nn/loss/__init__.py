"""Loss Cells (``mindspore.nn`` losses)."""
from sporax.nn.loss.base import LossBase
from sporax.nn.loss.losses import (BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, CTCLoss, HuberLoss, KLDivLoss,
                                   L1Loss, MSELoss, NLLLoss, SmoothL1Loss, SoftmaxCrossEntropyWithLogits)
from sporax.nn.loss.pair_losses import (CosineEmbeddingLoss, GaussianNLLLoss, HingeEmbeddingLoss, MarginRankingLoss,
                                       MultiLabelSoftMarginLoss)
from sporax.nn.loss.margin_losses import (MultilabelMarginLoss, MultiMarginLoss, TripletMarginLoss,
                                          TripletMarginWithDistanceLoss)
from sporax.nn.loss.regression_losses import MAELoss, PoissonNLLLoss, RMSELoss
from sporax.nn.loss.segmentation_losses import DiceLoss, FocalLoss, MultiClassDiceLoss
