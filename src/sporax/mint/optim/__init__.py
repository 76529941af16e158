"""PyTorch-style optimizers: ``mindspore.mint.optim`` and ``mindspore.experimental.optim``."""
from sporax.mint.optim import lr_scheduler
from sporax.mint.optim.adam import Adam, Adamax, AdamW, FusedAdamW, NAdam, RAdam
from sporax.mint.optim.adaptive import ASGD, Adadelta, Adagrad, RMSprop, Rprop
from sporax.mint.optim.optimizer import Optimizer
from sporax.mint.optim.sgd import SGD

__all__ = ["Optimizer", "AdamW", "SGD", "Adam", "Adadelta", "Adagrad", "ASGD", "Adamax", "RMSprop", "Rprop",
           "RAdam", "NAdam", "FusedAdamW", "lr_scheduler"]
