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
from sporax.nn.probability.distribution.location_scale import LocationScaleDistribution


class Logistic(LocationScaleDistribution):
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
        super().__init__(loc, scale, seed, dtype, name, dict(locals()))

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
