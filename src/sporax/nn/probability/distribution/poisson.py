"""``mindspore.nn.probability.distribution.Poisson``: the Poisson distribution of ``rate``.

MindSpore 2.10 refuses a Python scalar rate (pass a list), has no entropy or KL divergence for it
(NotImplementedError) and cannot sample it on CPU (RuntimeError); sporax samples it.

Example:
    >>> import sporax as ms
    >>> from sporax.nn.probability.distribution import Poisson
    >>> round(float(Poisson([2.0]).prob(ms.Tensor([1.0]))[0]), 5)
    0.27067
"""
from sporax import ops
from sporax.core import dtype as mstype
from sporax.nn.probability.distribution.distribution import Distribution, check_not_scalar, check_positive


class Poisson(Distribution):
    """The Poisson distribution, ``P(k) = rate^k exp(-rate) / k!`` for integers k >= 0.

    Args:
        rate (Union[list, numpy.ndarray, Tensor, None]): the rate, > 0. Default: None.
        seed (int): the sampling seed. Default: None (0).
        dtype (mindspore.dtype): the type of the samples and results. Default: mindspore.float32.
        name (str): the distribution's name. Default: 'Poisson'.

    Inputs (of ``prob``, ``log_prob``, ``cdf``, ...):
        - **value** (Tensor) -- the counts.
        - **rate** (Tensor) -- optional: the rate for this call.

    Outputs:
        Tensor: the broadcast shape of value and rate.
    """

    def __init__(self, rate=None, seed=None, dtype=mstype.float32, name="Poisson"):
        param = dict(locals())
        param["param_dict"] = {"rate": rate}
        check_not_scalar(rate, "rate")
        super().__init__(seed, dtype, name, param)
        self._rate = self._add_parameter(rate, "rate")
        check_positive(self._rate, "rate")

    @property
    def rate(self):
        """The rate given at construction."""
        return self._rate

    def _mean(self, rate=None):
        return self._check_param_type(rate)

    def _mode(self, rate=None):
        return ops.floor(self._check_param_type(rate))

    def _var(self, rate=None):
        return self._check_param_type(rate)

    def _log_prob(self, value, rate=None):
        value = self._check_value(value, "value")
        rate = self._check_param_type(rate)
        log_prob = ops.xlogy(value, rate) - rate - ops.lgamma(value + 1.0)
        # Zero probability off the non-negative integers.
        valid = ops.logical_and(value >= 0.0, ops.floor(value) == value)
        return ops.where(valid, log_prob, ops.fill(log_prob.dtype, log_prob.shape, float("-inf")))

    def _cdf(self, value, rate=None):
        value = self._check_value(value, "value")
        rate = self._check_param_type(rate)
        count = ops.floor(value) + 1.0
        shape = (count * rate).shape
        cdf = ops.igammac(ops.broadcast_to(ops.maximum(count, ops.ones_like(count)), shape),
                          ops.broadcast_to(rate, shape))
        return ops.where(ops.broadcast_to(value < 0.0, shape), ops.zeros_like(cdf), cdf)

    def _sample(self, shape=(), rate=None):
        rate = self._check_param_type(rate)
        samples = ops.poisson(tuple(shape), rate)
        return ops.cast(samples, self.dtype)
