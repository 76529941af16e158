"""``mindspore.nn.probability.distribution.LogNormal``: ``exp(X)`` for X normal of ``loc`` and ``scale``.

Example:
    >>> import sporax as ms
    >>> from sporax.nn.probability.distribution import LogNormal
    >>> round(float(LogNormal(0.0, 1.0).cdf(ms.Tensor([1.0]))[0]), 6)
    0.5
"""
import math

from sporax import ops
from sporax.core import dtype as mstype
from sporax.nn.probability.distribution.location_scale import LocationScaleDistribution


class LogNormal(LocationScaleDistribution):
    """The log-normal distribution: ``log X`` is normal of mean ``loc`` and standard deviation ``scale``.

    Args:
        loc (Union[int, float, list, numpy.ndarray, Tensor, None]): the mean of ``log X``. Default: None.
        scale (Union[int, float, list, numpy.ndarray, Tensor, None]): the standard deviation of ``log X``, > 0.
            Default: None.
        seed (int): the sampling seed. Default: 0.
        dtype (mindspore.dtype): a float type, of the samples and results. Default: mindspore.float32.
        name (str): the distribution's name. Default: 'LogNormal'.

    Inputs (of ``prob``, ``log_prob``, ``cdf``, ...):
        - **value** (Tensor) -- the points, > 0.
        - **loc**, **scale** (Tensor) -- optional: the parameters for this call.

    Outputs:
        Tensor of ``dtype``: the broadcast shape of value and the parameters.
    """

    def __init__(self, loc=None, scale=None, seed=0, dtype=mstype.float32, name="LogNormal"):
        super().__init__(loc, scale, seed, dtype, name, dict(locals()))

    def _mean(self, loc=None, scale=None):
        loc, scale = self._check_param_type(loc, scale)
        return ops.exp(loc + ops.square(scale) / 2.0)

    def _mode(self, loc=None, scale=None):
        loc, scale = self._check_param_type(loc, scale)
        return ops.exp(loc - ops.square(scale))

    def _var(self, loc=None, scale=None):
        loc, scale = self._check_param_type(loc, scale)
        return ops.expm1(ops.square(scale)) * ops.exp(2.0 * loc + ops.square(scale))

    def _entropy(self, loc=None, scale=None):
        loc, scale = self._check_param_type(loc, scale)
        return loc + 0.5 + ops.log(scale) + 0.5 * math.log(2.0 * math.pi)

    def _log_prob(self, value, loc=None, scale=None):
        log_value = ops.log(self._check_value(value, "value"))
        loc, scale = self._check_param_type(loc, scale)
        return (-ops.square(log_value - loc) / (2.0 * ops.square(scale)) - 0.5 * math.log(2.0 * math.pi)
                - ops.log(scale) - log_value)

    def _cdf(self, value, loc=None, scale=None):
        log_value = ops.log(self._check_value(value, "value"))
        loc, scale = self._check_param_type(loc, scale)
        return 0.5 * (1.0 + ops.erf((log_value - loc) / (scale * math.sqrt(2.0))))

    def _kl_loss(self, dist, loc_b, scale_b, loc=None, scale=None):
        self._check_dist_name(dist)
        loc_b, scale_b = self._check_value(loc_b, "loc_b"), self._check_value(scale_b, "scale_b")
        loc_a, scale_a = self._check_param_type(loc, scale)
        # The KL divergence of the underlying normals (exp is a bijection).
        log_ratio = ops.log(scale_a / scale_b)
        return 0.5 * ops.square((loc_a - loc_b) / scale_b) + 0.5 * ops.expm1(2.0 * log_ratio) - log_ratio

    def _sample(self, shape=(), loc=None, scale=None):
        loc, scale = self._check_param_type(loc, scale)
        noise = ops.cast(ops.standard_normal(tuple(shape) + tuple(loc.shape)), self.parameter_type)
        return ops.cast(ops.exp(loc + scale * noise), self.dtype)
