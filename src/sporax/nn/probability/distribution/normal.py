"""``mindspore.nn.probability.distribution.Normal``: the normal distribution as a Cell.

The closed forms are MindSpore 2.10's (the same expressions, so float32 results round alike): the log
density, ``0.5 * (1 + erf((x - mean) / (sd * sqrt(2))))`` for the cdf, the KL divergence through ``expm1``.
Every method takes ``mean`` and ``sd`` after its own arguments; when given they override the distribution's.

Example:
    >>> import sporax as ms
    >>> from sporax.nn.probability.distribution import Normal
    >>> round(float(Normal(0.0, 1.0).cdf(ms.Tensor([1.0]))[0]), 6)
    0.841345
"""
import math

import numpy as np

from sporax import ops
from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor
from sporax.nn.probability.distribution.location_scale import MeanSdDistribution


class Normal(MeanSdDistribution):
    """A normal distribution of ``mean`` and standard deviation ``sd``.

    Args:
        mean (Union[int, float, list, numpy.ndarray, Tensor, None]): the mean. When None, every method takes it.
            Default: None.
        sd (Union[int, float, list, numpy.ndarray, Tensor, None]): the standard deviation, > 0. Default: None.
        seed (int): the sampling seed. Default: None (0).
        dtype (mindspore.dtype): the float type of the samples and results. Default: mindspore.float32.
        name (str): the distribution's name. Default: 'Normal'.

    Inputs (of ``prob``, ``log_prob``, ``cdf``, ``log_cdf``, ``survival_function``, ``log_survival``):
        - **value** (Tensor) -- the points.
        - **mean**, **sd** (Tensor) -- optional: this distribution's parameters, overriding its own.

    Outputs:
        Tensor of ``dtype``, the broadcast shape of value and the parameters.
    """

    _repr_labels = ("mean", "standard deviation")

    def __init__(self, mean=None, sd=None, seed=None, dtype=mstype.float32, name="Normal"):
        super().__init__(mean, sd, seed, dtype, name, dict(locals()))

    def _mean(self, mean=None, sd=None):
        """The mean."""
        return self._check_param_type(mean, sd)[0]

    def _mode(self, mean=None, sd=None):
        """The mode, the mean."""
        return self._check_param_type(mean, sd)[0]

    def _sd(self, mean=None, sd=None):
        """The standard deviation."""
        return self._check_param_type(mean, sd)[1]

    def _var(self, mean=None, sd=None):
        """The variance, ``sd ** 2``."""
        return ops.square(self._check_param_type(mean, sd)[1])

    def _entropy(self, mean=None, sd=None):
        """``log(sqrt(2 pi e)) + log(sd)``."""
        _, sd = self._check_param_type(mean, sd)
        return ops.log(ops.sqrt(Tensor(np.float32(np.e * 2.0 * np.pi)))) + ops.log(sd)

    def _log_prob(self, value, mean=None, sd=None):
        """The log density at ``value``."""
        value = self._check_value(value, "value")
        mean, sd = self._check_param_type(mean, sd)
        unnormalized = -1.0 * ops.square(value - mean) / (2.0 * ops.square(sd))
        normalization = -1.0 * ops.log(Tensor(np.float32(2.0 * np.pi))) / 2.0 - ops.log(sd)
        return unnormalized + normalization

    def _cdf(self, value, mean=None, sd=None):
        """``P(X <= value)``."""
        value = self._check_value(value, "value")
        mean, sd = self._check_param_type(mean, sd)
        return 0.5 * (1.0 + ops.erf((value - mean) / (sd * math.sqrt(2.0))))

    def _kl_loss(self, dist, mean_b, sd_b, mean=None, sd=None):
        """KL(self || Normal(mean_b, sd_b))."""
        self._check_dist_name(dist)
        mean_b, sd_b = self._check_value(mean_b, "mean_b"), self._check_value(sd_b, "sd_b")
        mean_a, sd_a = self._check_param_type(mean, sd)
        log_ratio = ops.log(sd_a / sd_b)
        squared = ops.square(mean_a / sd_b - mean_b / sd_b)
        return 0.5 * squared + 0.5 * ops.expm1(2 * log_ratio) - log_ratio

    def _sample(self, shape=(), mean=None, sd=None):
        """Samples of shape ``shape + batch shape``."""
        mean, sd = self._check_param_type(mean, sd)
        # MindSpore's: ops.normal over shape + the parameters' broadcast shape, with the distribution's seed
        batch = tuple((mean + sd).shape)
        return ops.cast(self._seeded_draw(ops.normal, tuple(shape) + batch, mean, sd), self.dtype)
