"""Optimizers (``mindspore.nn`` optimizers)."""
from sporax.nn.optim.adaptive import Adagrad, Adam, AdamWeightDecay, Lamb, RMSProp
from sporax.nn.optim.momentum import SGD, Momentum
from sporax.nn.optim.optimizer import Optimizer
from sporax.nn.optim.ftrl import FTRL
from sporax.nn.optim.optimizer import opt_init_args_register
from sporax.nn.optim.thor import thor
from sporax.nn.optim.adamax_adadelta import AdaMax, Adadelta
