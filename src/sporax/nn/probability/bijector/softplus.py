"""``mindspore.nn.probability.bijector.Softplus``: ``y = log(1 + exp(sharpness x)) / sharpness``.

Example:
    >>> import sporax as ms
    >>> from sporax.nn.probability.bijector import Softplus
    >>> round(Softplus(2.0).forward(ms.Tensor([1.0])).asnumpy().tolist()[0], 5)
    1.06346
"""
from sporax import ops
from sporax.nn.probability.bijector.bijector import Bijector


class Softplus(Bijector):
    """The softplus bijector ``y = softplus(sharpness x) / sharpness``.

    Args:
        sharpness (Union[float, list, numpy.ndarray, Tensor]): the sharpness. Default: 1.0.
        name (str): the bijector's name. Default: 'Softplus'.

    Inputs (of ``forward``, ``inverse``, ``forward_log_jacobian``, ``inverse_log_jacobian``):
        - **value** (Tensor) -- a float Tensor (``inverse`` takes y > 0).

    Outputs:
        Tensor of value's type: the broadcast shape of value and sharpness.
    """

    def __init__(self, sharpness=1.0, name="Softplus"):
        param = {"sharpness": sharpness, "name": name, "param_dict": {"sharpness": sharpness}}
        super().__init__(name=name, param=param)
        self._sharpness = self._as_float(sharpness, "sharpness")

    @property
    def sharpness(self):
        """The sharpness."""
        return self._sharpness

    def _forward(self, x):
        sharpness = self.cast_param_by_value(x, self._sharpness)
        return ops.softplus(sharpness * x) / sharpness

    def _inverse(self, y):
        sharpness = self.cast_param_by_value(y, self._sharpness)
        # log(expm1(k y)) = k y + log(-expm1(-k y)): stable for large y.
        scaled = sharpness * y
        return (scaled + ops.log(-ops.expm1(-scaled))) / sharpness

    def _forward_log_jacobian(self, x):
        # d/dx softplus(k x) / k = sigmoid(k x).
        return -ops.softplus(-self.cast_param_by_value(x, self._sharpness) * x)

    def _inverse_log_jacobian(self, y):
        scaled = self.cast_param_by_value(y, self._sharpness) * y
        return scaled - ops.log(ops.expm1(scaled))
