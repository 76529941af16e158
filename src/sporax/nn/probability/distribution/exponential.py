"""``mindspore.nn.probability.distribution.Exponential``: the exponential distribution of ``rate``.

Example:
    >>> import sporax as ms
    >>> from sporax.nn.probability.distribution import Exponential
    >>> round(float(Exponential(0.5).cdf(ms.Tensor([2.0]))[0]), 6)
    0.632121
"""
from sporax import ops
from sporax.core import dtype as mstype
from sporax.nn.probability.distribution.distribution import Distribution, check_float_dtype, check_positive


class Exponential(Distribution):
    """The exponential distribution, density ``rate * exp(-rate * x)`` on x >= 0.

    Args:
        rate (Union[int, float, list, numpy.ndarray, Tensor, None]): the rate, > 0. When None, every method takes
            it as its last argument. Default: None.
        seed (int): the sampling seed. Default: None (0).
        dtype (mindspore.dtype): a float type, of the samples and results. Default: mindspore.float32.
        name (str): the distribution's name. Default: 'Exponential'.

    Inputs (of ``prob``, ``log_prob``, ``cdf``, ``log_cdf``, ``survival_function``, ``log_survival``):
        - **value** (Tensor) -- the points.
        - **rate** (Tensor) -- optional: the rate for this call.

    Outputs:
        Tensor of ``dtype``: the broadcast shape of value and rate.
    """

    def __init__(self, rate=None, seed=None, dtype=mstype.float32, name="Exponential"):
        param = dict(locals())
        param["param_dict"] = {"rate": rate}
        check_float_dtype(dtype, type(self).__name__)
        super().__init__(seed, dtype, name, param)
        self._rate = self._add_parameter(rate, "rate")
        check_positive(self._rate, "rate")

    @property
    def rate(self):
        """The rate given at construction."""
        return self._rate

    def _mean(self, rate=None):
        return 1.0 / self._check_param_type(rate)

    def _mode(self, rate=None):
        return ops.zeros_like(self._check_param_type(rate))

    def _sd(self, rate=None):
        return 1.0 / self._check_param_type(rate)

    def _entropy(self, rate=None):
        return 1.0 - ops.log(self._check_param_type(rate))

    def _log_prob(self, value, rate=None):
        value = self._check_value(value, "value")
        rate = self._check_param_type(rate)
        log_density = ops.log(rate) - rate * value
        return ops.where(value < 0.0, ops.fill(log_density.dtype, log_density.shape, float("-inf")), log_density)

    def _cdf(self, value, rate=None):
        value = self._check_value(value, "value")
        cdf = -ops.expm1(-self._check_param_type(rate) * value)
        return ops.where(value < 0.0, ops.zeros_like(cdf), cdf)

    def _log_survival(self, value, rate=None):
        value = self._check_value(value, "value")
        log_survival = -self._check_param_type(rate) * value
        return ops.where(value < 0.0, ops.zeros_like(log_survival), log_survival)

    def _kl_loss(self, dist, rate_b, rate=None):
        self._check_dist_name(dist)
        rate_b = self._check_value(rate_b, "rate_b")
        rate_a = self._check_param_type(rate)
        return ops.log(rate_a) - ops.log(rate_b) + rate_b / rate_a - 1.0

    def _sample(self, shape=(), rate=None):
        rate = self._check_param_type(rate)
        uniform = self._uniform(tuple(shape) + tuple(rate.shape))
        return ops.cast(-(ops.log(uniform) / rate), self.dtype)  # MindSpore's: -log(u) / rate
