"""``mindspore.mint.nn.functional``: PyTorch-style functional layers as a name table onto ``sporax.ops``
(where the signature is the op's) and the thin adapters beside this module."""
from sporax.ops import (
    adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_max_pool2d, conv_transpose2d, cosine_embedding_loss,
    cross_entropy, embedding, gelu, group_norm, interpolate, layer_norm, mse_loss, pixel_shuffle, prelu, relu,
    sigmoid, soft_margin_loss, tanh, upsample,
)
from sporax.mint.nn.activations import (
    elu, elu_, glu, hardtanh, hardtanh_, leaky_relu, log_softmax, logsigmoid, relu6, relu_, sigmoid_, silu,
    softmax, threshold, threshold_,
)
from sporax.mint.nn.convolution import conv1d, conv2d, conv3d, fold, unfold
from sporax.mint.nn.losses import binary_cross_entropy, binary_cross_entropy_with_logits, kl_div, nll_loss
from sporax.mint.nn.pooling import (
    adaptive_avg_pool3d, adaptive_max_pool1d, avg_pool1d, avg_pool2d, avg_pool3d, max_pool2d, max_unpool2d,
)
from sporax.mint.nn.tensor_ops import (
    batch_norm, dropout, dropout2d, flatten, grid_sample, linear, normalize, one_hot, pad,
)
