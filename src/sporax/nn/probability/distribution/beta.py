"""``mindspore.nn.probability.distribution.Beta``: the beta distribution on (0, 1).

MindSpore 2.10 refuses Python scalars for the parameters (pass lists), has no cdf for it
(NotImplementedError) and cannot sample it on CPU (RuntimeError); sporax samples it.

Example:
    >>> import sporax as ms
    >>> from sporax.nn.probability.distribution import Beta
    >>> [round(float(x), 6) for x in Beta([2.0], [3.0]).mean().asnumpy()]
    [0.4]
"""
from sporax import ops
from sporax.core import dtype as mstype
from sporax.nn.probability.distribution.distribution import (Distribution, check_float_dtype, check_not_scalar,
                                                             check_positive)


def log_beta(a, b):
    """``log B(a, b) = lgamma(a) + lgamma(b) - lgamma(a + b)``."""
    return ops.lgamma(a) + ops.lgamma(b) - ops.lgamma(a + b)


class Beta(Distribution):
    """The beta distribution, density ``x^(c1-1) (1-x)^(c0-1) / B(c1, c0)``.

    Args:
        concentration1 (Union[list, numpy.ndarray, Tensor, None]): ``c1`` (alpha), > 0. Default: None.
        concentration0 (Union[list, numpy.ndarray, Tensor, None]): ``c0`` (beta), > 0. Default: None.
        seed (int): the sampling seed. Default: None (0).
        dtype (mindspore.dtype): a float type, of the samples and results. Default: mindspore.float32.
        name (str): the distribution's name. Default: 'Beta'.

    Inputs (of ``prob``, ``log_prob``):
        - **value** (Tensor) -- the points in (0, 1).
        - **concentration1**, **concentration0** (Tensor) -- optional: the parameters for this call.

    Outputs:
        Tensor of ``dtype``: the broadcast shape of value and the parameters.
    """

    def __init__(self, concentration1=None, concentration0=None, seed=None, dtype=mstype.float32, name="Beta"):
        param = dict(locals())
        param["param_dict"] = {"concentration1": concentration1, "concentration0": concentration0}
        check_float_dtype(dtype, type(self).__name__)
        check_not_scalar(concentration0, "concentration0")
        check_not_scalar(concentration1, "concentration1")
        super().__init__(seed, dtype, name, param)
        self._concentration1 = self._add_parameter(concentration1, "concentration1")
        self._concentration0 = self._add_parameter(concentration0, "concentration0")
        check_positive(self._concentration1, "concentration1")
        check_positive(self._concentration0, "concentration0")

    @property
    def concentration1(self):
        """``c1`` given at construction."""
        return self._concentration1

    @property
    def concentration0(self):
        """``c0`` given at construction."""
        return self._concentration0

    def _mean(self, concentration1=None, concentration0=None):
        concentration1, concentration0 = self._check_param_type(concentration1, concentration0)
        return concentration1 / (concentration1 + concentration0)

    def _var(self, concentration1=None, concentration0=None):
        concentration1, concentration0 = self._check_param_type(concentration1, concentration0)
        total = concentration1 + concentration0
        return concentration1 * concentration0 / (ops.square(total) * (total + 1.0))

    def _mode(self, concentration1=None, concentration0=None):
        concentration1, concentration0 = self._check_param_type(concentration1, concentration0)
        mode = (concentration1 - 1.0) / (concentration1 + concentration0 - 2.0)
        # NaN (as MindSpore) unless both concentrations exceed 1: no interior maximum.
        interior = ops.logical_and(concentration1 > 1.0, concentration0 > 1.0)
        return ops.where(interior, mode, ops.fill(mode.dtype, mode.shape, float("nan")))

    def _entropy(self, concentration1=None, concentration0=None):
        concentration1, concentration0 = self._check_param_type(concentration1, concentration0)
        total = concentration1 + concentration0
        return (log_beta(concentration1, concentration0) - (concentration1 - 1.0) * ops.digamma(concentration1)
                - (concentration0 - 1.0) * ops.digamma(concentration0) + (total - 2.0) * ops.digamma(total))

    def _log_prob(self, value, concentration1=None, concentration0=None):
        value = self._check_value(value, "value")
        concentration1, concentration0 = self._check_param_type(concentration1, concentration0)
        return ((concentration1 - 1.0) * ops.log(value) + (concentration0 - 1.0) * ops.log1p(-value)
                - log_beta(concentration1, concentration0))

    def _kl_loss(self, dist, concentration1_b, concentration0_b, concentration1=None, concentration0=None):
        self._check_dist_name(dist)
        concentration1_b = self._check_value(concentration1_b, "concentration1_b")
        concentration0_b = self._check_value(concentration0_b, "concentration0_b")
        concentration1_a, concentration0_a = self._check_param_type(concentration1, concentration0)
        total_a = concentration1_a + concentration0_a
        return (log_beta(concentration1_b, concentration0_b) - log_beta(concentration1_a, concentration0_a)
                + (concentration1_a - concentration1_b) * ops.digamma(concentration1_a)
                + (concentration0_a - concentration0_b) * ops.digamma(concentration0_a)
                + (concentration1_b - concentration1_a + concentration0_b - concentration0_a) * ops.digamma(total_a))

    def _sample(self, shape=(), concentration1=None, concentration0=None):
        concentration1, concentration0 = self._check_param_type(concentration1, concentration0)
        one = ops.ones_like(concentration1)
        # X / (X + Y) for X ~ Gamma(c1, 1), Y ~ Gamma(c0, 1).
        full = tuple(shape) + tuple(concentration1.shape)
        first = ops.gamma(full, concentration1, one)
        second = ops.gamma(full, concentration0, one)
        return ops.cast(first / (first + second), self.dtype)
