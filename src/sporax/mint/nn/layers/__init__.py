"""``mindspore.mint.nn`` Cells that sporax.nn does not already provide with PyTorch's signature."""
from sporax.mint.nn.layers.activation import (
    GELU, ELU, GLU, SELU, Hardshrink, Hardsigmoid, Hardswish, Hardtanh, LogSoftmax, PReLU, ReLU6, SiLU, Softmax,
    Threshold,
)
from sporax.mint.nn.layers.conv import Conv1d, Conv2d, Conv3d, ConvTranspose2d
from sporax.mint.nn.layers.loss import (
    BCEWithLogitsLoss, CosineEmbeddingLoss, CrossEntropyLoss, KLDivLoss, NLLLoss, SmoothL1Loss, SoftMarginLoss,
)
from sporax.mint.nn.layers.norm import BatchNorm1d, BatchNorm2d, BatchNorm3d, GroupNorm
from sporax.mint.nn.layers.padding import (
    ConstantPad1d, ConstantPad2d, ConstantPad3d, ReflectionPad1d, ReflectionPad2d, ReflectionPad3d,
    ReplicationPad1d, ReplicationPad2d, ReplicationPad3d, ZeroPad1d, ZeroPad2d, ZeroPad3d,
)
from sporax.mint.nn.layers.pooling import (
    AdaptiveAvgPool3d, AdaptiveMaxPool1d, AvgPool1d, AvgPool2d, AvgPool3d, MaxUnpool2d,
)
from sporax.mint.nn.layers.sampling import Fold, Unfold, UpsamplingBilinear2d, UpsamplingNearest2d
