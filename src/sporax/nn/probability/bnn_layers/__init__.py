"""``mindspore.nn.probability.bnn_layers``: Bayesian layers whose weights are sampled from trainable normal
posteriors, and the loss wrapper that adds their KL divergence to the network's loss.

Example:
    >>> import numpy as np
    >>> import sporax as ms
    >>> from sporax.nn.probability import bnn_layers
    >>> layer = bnn_layers.DenseReparam(3, 2)
    >>> layer(ms.Tensor(np.ones((4, 3), np.float32))).shape
    (4, 2)
"""
from sporax.nn.probability.bnn_layers.bnn_cell_wrapper import WithBNNLossCell
from sporax.nn.probability.bnn_layers.conv_variational import ConvReparam
from sporax.nn.probability.bnn_layers.dense_variational import DenseLocalReparam, DenseReparam
from sporax.nn.probability.bnn_layers.layer_distribution import NormalPosterior, NormalPrior

__all__ = ["ConvReparam", "DenseReparam", "DenseLocalReparam", "NormalPrior", "NormalPosterior", "WithBNNLossCell"]
