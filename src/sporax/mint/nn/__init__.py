"""``mindspore.mint.nn``: PyTorch-style layers as a name table onto sporax.nn's Cells (where the
signature is MindSpore's) and the Cells of ``sporax.mint.nn.layers``."""
from sporax.nn import (
    AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveMaxPool2d, BCELoss, Flatten, Identity, L1Loss, Linear,
    LogSigmoid, Mish, MSELoss, PixelShuffle, ReLU, Sigmoid, Tanh, Upsample,
)
from sporax.nn.layer.ext_layers import EmbeddingExt as Embedding  # MindSpore's mint.nn.Embedding is nn's EmbeddingExt itself
# and its mint.nn.Dropout / Dropout2d are nn's DropoutExt / Dropout2dExt.
from sporax.nn.layer.ext_layers import Dropout2dExt as Dropout2d, DropoutExt as Dropout
# MindSpore's mint.nn.LayerNorm / MaxPool2d / Softshrink are nn's LayerNormExt / MaxPool2dExt / SoftShrink
# themselves, and it re-exports nn.Cell (libraries subclass ``mint.nn.Cell`` and test ``isinstance`` against them).
from sporax.nn import Cell, SoftShrink as Softshrink
from sporax.nn.layer.ext_layers import LayerNormExt as LayerNorm, MaxPool2dExt as MaxPool2d
from sporax.mint.nn.layers import (
    GELU, ELU, GLU, SELU, AdaptiveAvgPool3d, AdaptiveMaxPool1d, AvgPool1d, AvgPool2d, AvgPool3d, BatchNorm1d,
    BatchNorm2d, BatchNorm3d, BCEWithLogitsLoss, ConstantPad1d, ConstantPad2d, ConstantPad3d, Conv1d, Conv2d, Conv3d,
    ConvTranspose2d, CosineEmbeddingLoss, CrossEntropyLoss, Fold, GroupNorm, Hardshrink, Hardsigmoid, Hardswish, Hardtanh,
    KLDivLoss, LogSoftmax, MaxUnpool2d, NLLLoss, PReLU, ReflectionPad1d, ReflectionPad2d, ReflectionPad3d,
    ReplicationPad1d, ReplicationPad2d, ReplicationPad3d, ReLU6, SiLU, SmoothL1Loss, Softmax, SoftMarginLoss,
    Threshold, Unfold, UpsamplingBilinear2d, UpsamplingNearest2d, ZeroPad1d, ZeroPad2d, ZeroPad3d,
)
from sporax.mint.nn import functional
from sporax.mint.nn.layers.sync_batch_norm import SyncBatchNorm
