"""``mindspore.nn.probability.distribution.Gamma``: the gamma distribution of ``concentration`` and ``rate``.

MindSpore 2.10 refuses Python scalars for the parameters (pass lists) and cannot sample it on CPU
(RuntimeError); sporax samples it.

Example:
    >>> import sporax as ms
    >>> from sporax.nn.probability.distribution import Gamma
    >>> [round(float(x), 6) for x in Gamma([2.0], [1.5]).mean().asnumpy()]
    [1.333333]
"""
from sporax import ops
from sporax.core import dtype as mstype
from sporax.nn.probability.distribution.distribution import (Distribution, check_float_dtype, check_not_scalar,
                                                             check_positive)


class Gamma(Distribution):
    """The gamma distribution, density ``rate^c x^(c-1) exp(-rate x) / Gamma(c)`` on x > 0.

    Args:
        concentration (Union[list, numpy.ndarray, Tensor, None]): the shape ``c``, > 0. Default: None.
        rate (Union[list, numpy.ndarray, Tensor, None]): the rate, > 0. Default: None.
        seed (int): the sampling seed. Default: None (0).
        dtype (mindspore.dtype): a float type, of the samples and results. Default: mindspore.float32.
        name (str): the distribution's name. Default: 'Gamma'.

    Inputs (of ``prob``, ``log_prob``, ``cdf``, ...):
        - **value** (Tensor) -- the points.
        - **concentration**, **rate** (Tensor) -- optional: the parameters for this call.

    Outputs:
        Tensor of ``dtype``: the broadcast shape of value and the parameters.
    """

    def __init__(self, concentration=None, rate=None, seed=None, dtype=mstype.float32, name="Gamma"):
        param = dict(locals())
        param["param_dict"] = {"concentration": concentration, "rate": rate}
        check_float_dtype(dtype, type(self).__name__)
        check_not_scalar(concentration, "concentration")
        check_not_scalar(rate, "rate")
        super().__init__(seed, dtype, name, param)
        self._concentration = self._add_parameter(concentration, "concentration")
        self._rate = self._add_parameter(rate, "rate")
        check_positive(self._concentration, "concentration")
        check_positive(self._rate, "rate")

    @property
    def concentration(self):
        """The concentration given at construction."""
        return self._concentration

    @property
    def rate(self):
        """The rate given at construction."""
        return self._rate

    def _mean(self, concentration=None, rate=None):
        concentration, rate = self._check_param_type(concentration, rate)
        return concentration / rate

    def _var(self, concentration=None, rate=None):
        concentration, rate = self._check_param_type(concentration, rate)
        return concentration / ops.square(rate)

    def _mode(self, concentration=None, rate=None):
        concentration, rate = self._check_param_type(concentration, rate)
        mode = (concentration - 1.0) / rate
        # MindSpore gives NaN where the density has no interior maximum (concentration <= 1).
        return ops.where(concentration > 1.0, mode, ops.fill(mode.dtype, mode.shape, float("nan")))

    def _entropy(self, concentration=None, rate=None):
        concentration, rate = self._check_param_type(concentration, rate)
        return (concentration - ops.log(rate) + ops.lgamma(concentration)
                + (1.0 - concentration) * ops.digamma(concentration))

    def _log_prob(self, value, concentration=None, rate=None):
        value = self._check_value(value, "value")
        concentration, rate = self._check_param_type(concentration, rate)
        return (concentration * ops.log(rate) + (concentration - 1.0) * ops.log(value) - rate * value
                - ops.lgamma(concentration))

    def _cdf(self, value, concentration=None, rate=None):
        value = self._check_value(value, "value")
        concentration, rate = self._check_param_type(concentration, rate)
        shape = ops.broadcast_to(concentration, (value * concentration).shape)
        return ops.igamma(shape, ops.broadcast_to(rate * value, shape.shape))

    def _kl_loss(self, dist, concentration_b, rate_b, concentration=None, rate=None):
        self._check_dist_name(dist)
        concentration_b = self._check_value(concentration_b, "concentration_b")
        rate_b = self._check_value(rate_b, "rate_b")
        concentration_a, rate_a = self._check_param_type(concentration, rate)
        return ((concentration_a - concentration_b) * ops.digamma(concentration_a)
                + ops.lgamma(concentration_b) - ops.lgamma(concentration_a)
                + concentration_b * (ops.log(rate_a) - ops.log(rate_b))
                + concentration_a * (rate_b / rate_a - 1.0))

    def _sample(self, shape=(), concentration=None, rate=None):
        concentration, rate = self._check_param_type(concentration, rate)
        # ops.gamma broadcasts its shape with the parameters': give it the whole sample shape.
        samples = ops.gamma(tuple(shape) + tuple(concentration.shape), concentration, rate)
        return ops.cast(samples, self.dtype)
