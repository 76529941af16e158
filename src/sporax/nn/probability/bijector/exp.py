"""``mindspore.nn.probability.bijector.Exp``: ``y = exp(x)``.

Example:
    >>> import sporax as ms
    >>> from sporax.nn.probability.bijector import Exp
    >>> Exp().forward_log_jacobian(ms.Tensor([2.0])).asnumpy().tolist()
    [2.0]
"""
from sporax import ops
from sporax.nn.probability.bijector.bijector import Bijector


class Exp(Bijector):
    """The exponential bijector ``y = exp(x)``.

    Args:
        name (str): the bijector's name. Default: 'Exp'.

    Inputs (of ``forward``, ``inverse``, ``forward_log_jacobian``, ``inverse_log_jacobian``):
        - **value** (Tensor) -- a float Tensor.

    Outputs:
        Tensor of value's type and shape.
    """

    def __init__(self, name="Exp"):
        super().__init__(name=name, param={"name": name})

    def _forward(self, x):
        return ops.exp(x)

    def _inverse(self, y):
        return ops.log(y)

    def _forward_log_jacobian(self, x):
        return x

    def _inverse_log_jacobian(self, y):
        return -ops.log(y)

    def extend_repr(self):
        return "exp"
