"""``mindspore.nn.probability.bijector.PowerTransform``: ``y = (1 + power x)^(1 / power)``, ``exp`` at 0.

Example:
    >>> import sporax as ms
    >>> from sporax.nn.probability.bijector import PowerTransform
    >>> PowerTransform(0.5).forward(ms.Tensor([1.0])).asnumpy().tolist()
    [2.25]
"""
from sporax import ops
from sporax.nn.probability.bijector.bijector import Bijector


class PowerTransform(Bijector):
    """The power bijector ``y = (1 + power x)^(1 / power)`` (the Box-Cox inverse), ``exp(x)`` for power 0.

    Args:
        power (Union[float, list, numpy.ndarray, Tensor]): the power, >= 0. Default: 0.
        name (str): the bijector's name. Default: 'PowerTransform'.

    Inputs (of ``forward``, ``inverse``, ``forward_log_jacobian``, ``inverse_log_jacobian``):
        - **value** (Tensor) -- a float Tensor.

    Outputs:
        Tensor of value's type: the broadcast shape of value and power.
    """

    def __init__(self, power=0.0, name="PowerTransform"):
        param = {"power": power, "name": name, "param_dict": {"power": power}}
        super().__init__(name=name, param=param)
        self._power = self._as_float(power, "power")

    @property
    def power(self):
        """The power."""
        return self._power

    def _zero(self, x):
        power = self.cast_param_by_value(x, self._power)
        return power, power == 0.0

    def _forward(self, x):
        power, zero = self._zero(x)
        safe = ops.where(zero, ops.ones_like(power), power)
        return ops.where(zero, ops.exp(x), ops.pow(1.0 + x * safe, 1.0 / safe))

    def _inverse(self, y):
        power, zero = self._zero(y)
        safe = ops.where(zero, ops.ones_like(power), power)
        return ops.where(zero, ops.log(y), (ops.pow(y, safe) - 1.0) / safe)

    def _forward_log_jacobian(self, x):
        power, zero = self._zero(x)
        safe = ops.where(zero, ops.ones_like(power), power)
        return ops.where(zero, x, (1.0 / safe - 1.0) * ops.log1p(x * safe))

    def _inverse_log_jacobian(self, y):
        power, zero = self._zero(y)
        return ops.where(zero, -ops.log(y), (power - 1.0) * ops.log(y))
