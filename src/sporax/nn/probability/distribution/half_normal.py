"""``mindspore.nn.probability.distribution.HalfNormal``: a normal density folded onto x >= 0.

As MindSpore 2.10, only ``prob`` and ``log_prob`` exist (the other methods raise NotImplementedError), and the
density is ``sqrt(2 / pi) / sd * exp(-((x - mean) / sd)^2 / 2)`` for x >= 0, 0 below.

Example:
    >>> import sporax as ms
    >>> from sporax.nn.probability.distribution import HalfNormal
    >>> round(float(HalfNormal(0.0, 1.0).prob(ms.Tensor([0.0]))[0]), 6)
    0.797885
"""
import math

from sporax import ops
from sporax.core import dtype as mstype
from sporax.nn.probability.distribution.location_scale import MeanSdDistribution


class HalfNormal(MeanSdDistribution):
    """The half-normal distribution of ``mean`` and ``sd``.

    Args:
        mean (Union[int, float, list, numpy.ndarray, Tensor, None]): the mean. Default: None.
        sd (Union[int, float, list, numpy.ndarray, Tensor, None]): the standard deviation, > 0. Default: None.
        seed (int): the sampling seed. Default: None (0).
        dtype (mindspore.dtype): a float type, of the results. Default: mindspore.float32.
        name (str): the distribution's name. Default: 'HalfNormal'.

    Inputs (of ``prob``, ``log_prob``):
        - **value** (Tensor) -- the points.
        - **mean**, **sd** (Tensor) -- optional: the parameters for this call.

    Outputs:
        Tensor of ``dtype``: the broadcast shape of value and the parameters.
    """

    _repr_labels = ()  # MindSpore prints none

    def __init__(self, mean=None, sd=None, seed=None, dtype=mstype.float32, name="HalfNormal"):
        super().__init__(mean, sd, seed, dtype, name, dict(locals()))

    def _prob(self, value, mean=None, sd=None):
        value = self._check_value(value, "value")
        mean, sd = self._check_param_type(mean, sd)
        density = math.sqrt(2.0 / math.pi) / sd * ops.exp(-0.5 * ops.square((value - mean) / sd))
        return density * ops.cast(value >= 0.0, self.dtype)
