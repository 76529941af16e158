"""``sporax run lpcnet_silent_checkpoint.py CKPT`` (the zoo's LPCNet folder on PYTHONPATH): saves the zoo's
WithLossLPCNet whose output layer (MDense into the 8-level bit tree of u-law samples) puts all probability
on u-law 128, the zero sample, so eval.py's sampled speech is silence whatever the GRUs compute."""
import sys

import numpy as np
import mindspore

from src import lpcnet

mindspore.set_seed(1)
network = lpcnet.WithLossLPCNet()
output_layer = network.backbone.decoder.md
bias = np.zeros(256, np.float32)
bias[1] = 10.0  # the root node's probability of a first bit 1
for level in range(1, 8):
    bias[2 ** level + 2 ** (level - 1)] = -10.0  # the node on the path to 128 at each level: next bit 0
for dense, factor in zip(output_layer.dense_layers, output_layer.factor):
    dense.weight.set_data(mindspore.Tensor(np.zeros(dense.weight.shape, np.float32)))
    dense.bias.set_data(mindspore.Tensor(bias))
    factor.set_data(mindspore.Tensor(np.full(factor.shape, 10.0, np.float32)))  # sigmoid(+-20): 0 or 1
mindspore.save_checkpoint(network, sys.argv[1])
