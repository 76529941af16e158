"""``mindspore.nn.probability.distribution.Gumbel``: the Gumbel (type-I extreme value) distribution.

As in MindSpore 2.10 ``loc`` and ``scale`` are required and fixed: the methods take no per-call parameters.

Example:
    >>> import sporax as ms
    >>> from sporax.nn.probability.distribution import Gumbel
    >>> round(float(Gumbel(0.5, 2.0).cdf(ms.Tensor([0.5]))[0]), 6)
    0.367879
"""
import math

import numpy as np

from sporax import ops
from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor
from sporax.nn.probability.distribution.location_scale import LocationScaleDistribution

EULER_GAMMA = 0.5772156649015329


class Gumbel(LocationScaleDistribution):
    """The Gumbel distribution, cdf ``exp(-exp(-(x - loc) / scale))``.

    Args:
        loc (Union[int, float, list, numpy.ndarray, Tensor]): the location.
        scale (Union[int, float, list, numpy.ndarray, Tensor]): the scale, > 0.
        seed (int): the sampling seed. Default: 0.
        dtype (mindspore.dtype): a float type, of the samples and results. Default: mindspore.float32.
        name (str): the distribution's name. Default: 'Gumbel'.

    Inputs (of ``prob``, ``log_prob``, ``cdf``, ...):
        - **value** (Tensor) -- the points.

    Outputs:
        Tensor of ``dtype``: the broadcast shape of value and the parameters.
    """

    def __init__(self, loc, scale, seed=0, dtype=mstype.float32, name="Gumbel"):
        super().__init__(loc, scale, seed, dtype, name, dict(locals()))

    def _mean(self):
        loc, scale = self._check_param_type(None, None)
        return loc + scale * EULER_GAMMA

    def _mode(self):
        return self._check_param_type(None, None)[0]

    def _sd(self):
        return self._check_param_type(None, None)[1] * (math.pi / math.sqrt(6.0))

    def _entropy(self):
        return ops.log(self._check_param_type(None, None)[1]) + 1.0 + EULER_GAMMA

    def _log_prob(self, value):
        z, scale = self._standardized(value)
        return -(z + ops.exp(-z)) - ops.log(scale)

    def _cdf(self, value):
        z, _ = self._standardized(value)
        return ops.exp(-ops.exp(-z))

    def _log_cdf(self, value):
        z, _ = self._standardized(value)
        return -ops.exp(-z)

    def _kl_loss(self, dist, loc_b, scale_b):
        self._check_dist_name(dist)
        loc_b, scale_b = self._check_value(loc_b, "loc_b"), self._check_value(scale_b, "scale_b")
        loc_a, scale_a = self._check_param_type(None, None)
        ratio = scale_a / scale_b
        return (ops.log(scale_b) - ops.log(scale_a) + EULER_GAMMA * (ratio - 1.0)
                + ops.exp((loc_b - loc_a) / scale_b + ops.lgamma(ratio + 1.0)) - 1.0 + (loc_a - loc_b) / scale_b)

    def _sample(self, shape=()):
        loc, scale = self._check_param_type(None, None)
        # MindSpore's Gumbel transforms the samples of its inner Uniform(0, 1), built without a seed: the global
        # seed alone seeds them (op seed 0), not the Gumbel's own seed
        def unseeded(shape, low, high, seed):
            return ops.uniform(shape, low, high)

        uniform = ops.cast(self._seeded_draw(unseeded, tuple(shape) + tuple(np.broadcast_shapes(loc.shape, scale.shape)),
                                             Tensor(0.0), Tensor(1.0)), self.parameter_type)
        return ops.cast(loc - scale * ops.log(-ops.log(uniform)), self.dtype)
