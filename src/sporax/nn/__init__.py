"""``sporax.nn`` (``mindspore.nn``): ``Cell``, containers, layers, losses, optimizers, wrappers."""
from sporax.nn.cell import Cell
from sporax.nn.container import CellDict, CellList, SequentialCell
from sporax.nn.layer.activation import (CELU, ELU, GELU, FastGelu, HSigmoid, HSwish, Hardtanh, LeakyReLU,
                                        LogSigmoid, LogSoftmax, Mish, PReLU, ReLU, ReLU6, SeLU, Sigmoid, SiLU,
                                        Softmax, Softmin, Softsign, Tanh, Tanhshrink, get_activation)
from sporax.nn.layer.basic import Dense, Dropout, Flatten, Identity, Pad, Unflatten
from sporax.nn.layer.conv import Conv1d, Conv1dTranspose, Conv2d, Conv2dTranspose
from sporax.nn.layer.embedding import Embedding
from sporax.nn.layer.normalization import BatchNorm1d, BatchNorm2d, BatchNorm3d, GroupNorm, LayerNorm
from sporax.nn.layer.pooling import (AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveMaxPool2d, AvgPool1d, AvgPool2d,
                                     MaxPool1d, MaxPool2d)

# --- losses, optimizers, wrappers, metrics (owner: training) ---
