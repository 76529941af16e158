"""``mindspore.mint.nn.functional``: PyTorch-style functional layers as a name table onto ``sporax.ops`` (where the
signature is the op's), the op table's spellings (``mint.spellings``: PyTorch's parameter names for an op) and the
thin adapters beside this module (overloads and compositions no single op spells)."""
from sporax.ops import (
    adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_avg_pool3d, adaptive_max_pool2d, conv_transpose2d,
    cosine_embedding_loss, cross_entropy, embedding, fold, gelu, grid_sample, group_norm, hardshrink, hardsigmoid,
    hardswish, interpolate, l1_loss, layer_norm, mse_loss, pixel_shuffle, prelu, relu, sigmoid, soft_margin_loss,
    softplus, softshrink, tanh, unfold, upsample,
)
from sporax.mint.nn.activations import elu, hardtanh, relu6, silu, threshold
from sporax.mint.nn.dropouts import dropout, dropout2d
from sporax.mint.nn.pooling import adaptive_max_pool1d
from sporax.mint.nn.tensor_ops import normalize, one_hot
from sporax.mint.spellings import SPELLED as _SPELLED

# The spelled faces, by name (their list is the op table's ``spelling`` rows for "mint.nn.functional").
globals().update(_SPELLED["mint.nn.functional"])
