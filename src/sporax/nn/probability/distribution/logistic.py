"""``mindspore.nn.probability.distribution.Logistic``: the logistic distribution of ``loc`` and ``scale``.

Example:
    >>> import sporax as ms
    >>> from sporax.nn.probability.distribution import Logistic
    >>> float(Logistic(0.5, 2.0).cdf(ms.Tensor([0.5]))[0])
    0.5
"""
import math

from sporax import ops
from sporax.core import dtype as mstype
from sporax.nn.probability.distribution.distribution import Distribution, check_float_dtype, check_positive


class Logistic(Distribution):
    """The logistic distribution, cdf ``sigmoid((x - loc) / scale)``.

    Args:
        loc (Union[int, float, list, numpy.ndarray, Tensor, None]): the location. Default: None.
        scale (Union[int, float, list, numpy.ndarray, Tensor, None]): the scale, > 0. Default: None.
        seed (int): the sampling seed. Default: None (0).
        dtype (mindspore.dtype): a float type, of the samples and results. Default: mindspore.float32.
        name (str): the distribution's name. Default: 'Logistic'.

    Inputs (of ``prob``, ``log_prob``, ``cdf``, ...):
        - **value** (Tensor) -- the points.
        - **loc**, **scale** (Tensor) -- optional: the parameters for this call.

    Outputs:
        Tensor of ``dtype``: the broadcast shape of value and the parameters.
    """

    _repr_labels = ("location", "scale")

    def __init__(self, loc=None, scale=None, seed=None, dtype=mstype.float32, name="Logistic"):
        param = dict(locals())
        param["param_dict"] = {"loc": loc, "scale": scale}
        check_float_dtype(dtype, type(self).__name__)
        super().__init__(seed, dtype, name, param)
        self._loc = self._add_parameter(loc, "loc")
        self._scale = self._add_parameter(scale, "scale")
        check_positive(self._scale, "scale")

    @property
    def loc(self):
        """The location given at construction."""
        return self._loc

    @property
    def scale(self):
        """The scale given at construction."""
        return self._scale

    def _standardized(self, value, loc, scale):
        loc, scale = self._check_param_type(loc, scale)
        return (self._check_value(value, "value") - loc) / scale, scale

    def _mean(self, loc=None, scale=None):
        return self._check_param_type(loc, scale)[0]

    def _mode(self, loc=None, scale=None):
        return self._check_param_type(loc, scale)[0]

    def _sd(self, loc=None, scale=None):
        return self._check_param_type(loc, scale)[1] * (math.pi / math.sqrt(3.0))

    def _entropy(self, loc=None, scale=None):
        return ops.log(self._check_param_type(loc, scale)[1]) + 2.0

    def _log_prob(self, value, loc=None, scale=None):
        z, scale = self._standardized(value, loc, scale)
        return -z - 2.0 * ops.softplus(-z) - ops.log(scale)

    def _cdf(self, value, loc=None, scale=None):
        return ops.sigmoid(self._standardized(value, loc, scale)[0])

    def _log_cdf(self, value, loc=None, scale=None):
        return -ops.softplus(-self._standardized(value, loc, scale)[0])

    def _survival_function(self, value, loc=None, scale=None):
        return ops.sigmoid(-self._standardized(value, loc, scale)[0])

    def _log_survival(self, value, loc=None, scale=None):
        return -ops.softplus(self._standardized(value, loc, scale)[0])

    def _sample(self, shape=(), loc=None, scale=None):
        loc, scale = self._check_param_type(loc, scale)
        uniform = self._uniform(tuple(shape) + tuple(loc.shape))
        return ops.cast(loc + scale * (ops.log(uniform) - ops.log1p(-uniform)), self.dtype)
