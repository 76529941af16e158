"""``sporax.nn`` (``mindspore.nn``): ``Cell``, containers, layers, losses, optimizers, wrappers."""
from sporax.nn.cell import Cell
from sporax.nn.container import CellDict, CellList, SequentialCell
from sporax.nn.layer.activation import (CELU, ELU, GELU, FastGelu, HSigmoid, HSwish, Hardtanh, LeakyReLU,
                                        LogSigmoid, LogSoftmax, Mish, PReLU, ReLU, ReLU6, SeLU, Sigmoid, SiLU,
                                        Softmax, Softmin, Softsign, Tanh, Tanhshrink, get_activation)
from sporax.nn.layer.basic import Dense, Dropout, Flatten, Identity, Pad, Unflatten

# --- losses, optimizers, wrappers, metrics (owner: training) ---
