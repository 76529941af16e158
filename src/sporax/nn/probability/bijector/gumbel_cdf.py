"""``mindspore.nn.probability.bijector.GumbelCDF``: ``y = exp(-exp(-(x - loc) / scale))``, the Gumbel cdf.

Example:
    >>> import sporax as ms
    >>> from sporax.nn.probability.bijector import GumbelCDF
    >>> round(GumbelCDF(0.5, 2.0).forward(ms.Tensor([0.5])).asnumpy().tolist()[0], 6)
    0.367879
"""
from sporax import ops
from sporax.nn.probability.bijector.bijector import Bijector, check_positive


class GumbelCDF(Bijector):
    """The Gumbel cdf as a bijector from the real line to (0, 1).

    Args:
        loc (Union[float, list, numpy.ndarray, Tensor]): the location. Default: 0.0.
        scale (Union[float, list, numpy.ndarray, Tensor]): the scale, > 0. Default: 1.0.
        name (str): the bijector's name. Default: 'GumbelCDF'.

    Inputs (of ``forward``, ``inverse``, ``forward_log_jacobian``, ``inverse_log_jacobian``):
        - **value** (Tensor) -- a float Tensor (``inverse`` takes values in (0, 1)).

    Outputs:
        Tensor of value's type: the broadcast shape of value and the parameters.
    """

    def __init__(self, loc=0.0, scale=1.0, name="GumbelCDF"):
        param = {"loc": loc, "scale": scale, "name": name, "param_dict": {"loc": loc, "scale": scale}}
        super().__init__(name=name, param=param)
        self._loc = self._as_float(loc, "loc")
        self._scale = self._as_float(scale, "scale")
        check_positive(self._scale, "scale")

    @property
    def loc(self):
        """The location."""
        return self._loc

    @property
    def scale(self):
        """The scale."""
        return self._scale

    def _standardized(self, x):
        return (x - self.cast_param_by_value(x, self._loc)) / self.cast_param_by_value(x, self._scale)

    def _forward(self, x):
        return ops.exp(-ops.exp(-self._standardized(x)))

    def _inverse(self, y):
        return self.cast_param_by_value(y, self._loc) - self.cast_param_by_value(y, self._scale) * ops.log(-ops.log(y))

    def _forward_log_jacobian(self, x):
        z = self._standardized(x)
        return -z - ops.exp(-z) - ops.log(self.cast_param_by_value(x, self._scale))

    def _inverse_log_jacobian(self, y):
        return ops.log(self.cast_param_by_value(y, self._scale) / (-ops.log(y) * y))
