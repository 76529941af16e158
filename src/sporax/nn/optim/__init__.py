"""Optimizers (``mindspore.nn`` optimizers)."""
from sporax.nn.optim.adaptive import Adagrad, Adam, AdamWeightDecay, Lamb, RMSProp
from sporax.nn.optim.momentum import SGD, Momentum
from sporax.nn.optim.optimizer import Optimizer
