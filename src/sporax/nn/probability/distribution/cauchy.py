"""``mindspore.nn.probability.distribution.Cauchy``: the Cauchy distribution of ``loc`` and ``scale``.

Its mean, standard deviation and variance are undefined: MindSpore 2.10 raises ValueError for them.

Example:
    >>> import sporax as ms
    >>> from sporax.nn.probability.distribution import Cauchy
    >>> float(Cauchy(0.5, 2.0).cdf(ms.Tensor([0.5]))[0])
    0.5
"""
import math

from sporax import ops
from sporax.core import dtype as mstype
from sporax.nn.probability.distribution.location_scale import LocationScaleDistribution


class Cauchy(LocationScaleDistribution):
    """The Cauchy distribution, density ``1 / (pi scale (1 + ((x - loc) / scale)^2))``.

    Args:
        loc (Union[int, float, list, numpy.ndarray, Tensor, None]): the location. Default: None.
        scale (Union[int, float, list, numpy.ndarray, Tensor, None]): the scale, > 0. Default: None.
        seed (int): the sampling seed. Default: None (0).
        dtype (mindspore.dtype): a float type, of the samples and results. Default: mindspore.float32.
        name (str): the distribution's name. Default: 'Cauchy'.

    Inputs (of ``prob``, ``log_prob``, ``cdf``, ...):
        - **value** (Tensor) -- the points.
        - **loc**, **scale** (Tensor) -- optional: the parameters for this call.

    Outputs:
        Tensor of ``dtype``: the broadcast shape of value and the parameters.
    """

    _repr_labels = ("location", "scale")

    def __init__(self, loc=None, scale=None, seed=None, dtype=mstype.float32, name="Cauchy"):
        super().__init__(loc, scale, seed, dtype, name, dict(locals()))

    def _mean(self, *args, **kwargs):
        raise ValueError(f"mean is undefined for {self.name} distribution.")

    def _sd(self, *args, **kwargs):
        raise ValueError(f"standard deviation is undefined for {self.name} distribution.")

    def _var(self, *args, **kwargs):
        raise ValueError(f"variance is undefined for {self.name} distribution.")

    def _mode(self, loc=None, scale=None):
        return self._check_param_type(loc, scale)[0]

    def _entropy(self, loc=None, scale=None):
        return ops.log(4.0 * math.pi * self._check_param_type(loc, scale)[1])

    def _log_prob(self, value, loc=None, scale=None):
        z, scale = self._standardized(value, loc, scale)
        return -math.log(math.pi) - ops.log(scale) - ops.log1p(ops.square(z))

    def _cdf(self, value, loc=None, scale=None):
        return ops.atan(self._standardized(value, loc, scale)[0]) / math.pi + 0.5

    def _kl_loss(self, dist, loc_b, scale_b, loc=None, scale=None):
        self._check_dist_name(dist)
        loc_b, scale_b = self._check_value(loc_b, "loc_b"), self._check_value(scale_b, "scale_b")
        loc_a, scale_a = self._check_param_type(loc, scale)
        return (ops.log(ops.square(scale_a + scale_b) + ops.square(loc_a - loc_b))
                - ops.log(4.0 * scale_a * scale_b))

    def _sample(self, shape=(), loc=None, scale=None):
        loc, scale = self._check_param_type(loc, scale)
        uniform = self._uniform(tuple(shape) + tuple(loc.shape))
        return ops.cast(loc + scale * ops.tan(math.pi * (uniform - 0.5)), self.dtype)
