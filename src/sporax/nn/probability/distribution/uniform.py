"""``mindspore.nn.probability.distribution.Uniform``: the continuous uniform distribution on [low, high].

Example:
    >>> import sporax as ms
    >>> from sporax.nn.probability.distribution import Uniform
    >>> float(Uniform(0.0, 2.0).cdf(ms.Tensor([0.5]))[0])
    0.25
"""
import numpy as np

from sporax import ops
from sporax.core import dtype as mstype
from sporax.nn.probability.distribution.distribution import Distribution, check_float_dtype


class Uniform(Distribution):
    """The uniform distribution of density ``1 / (high - low)`` on [low, high].

    Args:
        low (Union[int, float, list, numpy.ndarray, Tensor, None]): the lower bound. Default: None.
        high (Union[int, float, list, numpy.ndarray, Tensor, None]): the upper bound, > low. Default: None.
        seed (int): the sampling seed. Default: None (0).
        dtype (mindspore.dtype): a float type, of the samples and results. Default: mindspore.float32.
        name (str): the distribution's name. Default: 'Uniform'.

    Inputs (of ``prob``, ``log_prob``, ``cdf``, ...):
        - **value** (Tensor) -- the points.
        - **low**, **high** (Tensor) -- optional: the bounds for this call.

    Outputs:
        Tensor of ``dtype``: the broadcast shape of value and the bounds.
    """

    def __init__(self, low=None, high=None, seed=None, dtype=mstype.float32, name="Uniform"):
        param = dict(locals())
        param["param_dict"] = {"low": low, "high": high}
        check_float_dtype(dtype, type(self).__name__)
        super().__init__(seed, dtype, name, param)
        self._low = self._add_parameter(low, "low")
        self._high = self._add_parameter(high, "high")
        if self._low is not None and self._high is not None and \
                not bool(np.all(self._low.asnumpy() < self._high.asnumpy())):
            raise ValueError("low must be less than high")

    @property
    def low(self):
        """The lower bound given at construction."""
        return self._low

    @property
    def high(self):
        """The upper bound given at construction."""
        return self._high

    def _mean(self, low=None, high=None):
        low, high = self._check_param_type(low, high)
        return (low + high) / 2.0

    def _var(self, low=None, high=None):
        low, high = self._check_param_type(low, high)
        return ops.square(high - low) / 12.0

    def _entropy(self, low=None, high=None):
        low, high = self._check_param_type(low, high)
        return ops.log(high - low)

    def _prob(self, value, low=None, high=None):
        value = self._check_value(value, "value")
        low, high = self._check_param_type(low, high)
        density = ops.broadcast_to(1.0 / (high - low), np.broadcast_shapes(value.shape, low.shape))
        inside = ops.logical_and(value >= low, value <= high)
        return ops.where(inside, density, ops.zeros_like(density))

    def _cdf(self, value, low=None, high=None):
        value = self._check_value(value, "value")
        low, high = self._check_param_type(low, high)
        return ops.clamp((value - low) / (high - low), 0.0, 1.0)

    def _kl_loss(self, dist, low_b, high_b, low=None, high=None):
        self._check_dist_name(dist)
        low_b, high_b = self._check_value(low_b, "low_b"), self._check_value(high_b, "high_b")
        low_a, high_a = self._check_param_type(low, high)
        kl = ops.log(high_b - low_b) - ops.log(high_a - low_a)
        # Infinite where the other distribution does not cover this one.
        covered = ops.logical_and(low_b <= low_a, high_a <= high_b)
        return ops.where(covered, kl, ops.fill(kl.dtype, kl.shape, float("inf")))

    def _sample(self, shape=(), low=None, high=None):
        low, high = self._check_param_type(low, high)
        uniform = self._uniform(tuple(shape) + tuple(low.shape))
        return ops.cast(low + (high - low) * uniform, self.dtype)
