"""``mindspore.experimental.optim``: mint.optim's optimizers, except its older ``Adam``.

MindSpore 2.10 keeps two PyTorch-style Adams: ``mint.optim.Adam`` follows PyTorch exactly, while
``experimental.optim.Adam`` runs the fused ``ops.Adam`` kernel, whose ``eps`` is added outside the
second moment's bias correction and which ignores ``amsgrad``. Both are reproduced.
"""
from sporax.mint.optim import adam, lr_scheduler
from sporax.mint.optim.adam import Adamax, AdamW, NAdam, RAdam
from sporax.mint.optim.adaptive import ASGD, Adadelta, Adagrad, RMSprop, Rprop
from sporax.mint.optim.optimizer import Optimizer
from sporax.mint.optim.sgd import SGD

__all__ = ["Optimizer", "AdamW", "SGD", "Adam", "Adadelta", "Adagrad", "ASGD", "Adamax", "RMSprop", "Rprop",
           "RAdam", "NAdam", "lr_scheduler"]


class Adam(adam.Adam):
    """Adam as ``mindspore.experimental.optim`` computes it: ``lr * sqrt(1 - beta2^t) / (1 - beta1^t)``
    times ``m / (sqrt(v) + eps)``; ``amsgrad`` is accepted and, as in MindSpore 2.10, not applied.

    Args, Inputs: as ``sporax.mint.optim.Adam``.

    Example:
        >>> import sporax as ms
        >>> optimizer = Adam(ms.nn.Dense(3, 2).trainable_params(), lr=0.01)
    """

    _adam_kernel = True
