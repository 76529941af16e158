"""``mindspore.nn.probability.distribution.Geometric``: failures before the first success.

Example:
    >>> import sporax as ms
    >>> from sporax.nn.probability.distribution import Geometric
    >>> round(float(Geometric(0.3).prob(ms.Tensor([1], ms.int32))[0]), 5)
    0.21
"""
import numpy as np

from sporax import ops
from sporax.core import dtype as mstype
from sporax.nn.probability.distribution.distribution import Distribution


class Geometric(Distribution):
    """The geometric distribution, ``P(k) = p (1 - p)^k`` for k = 0, 1, ... failures before a success.

    Args:
        probs (Union[float, list, numpy.ndarray, Tensor, None]): the success probability, in (0, 1).
            Default: None.
        seed (int): the sampling seed. Default: None (0).
        dtype (mindspore.dtype): the type of the samples (the results are float32). Default: mindspore.int32.
        name (str): the distribution's name. Default: 'Geometric'.

    Inputs (of ``prob``, ``log_prob``, ``cdf``, ...):
        - **value** (Tensor) -- the counts (rounded down).
        - **probs1** (Tensor) -- optional: the success probability for this call.

    Outputs:
        Tensor (float32): the broadcast shape of value and probs.
    """

    def __init__(self, probs=None, seed=None, dtype=mstype.int32, name="Geometric"):
        param = dict(locals())
        param["param_dict"] = {"probs": probs}
        super().__init__(seed, dtype, name, param)
        self._probs = self._add_parameter(probs, "probs")
        if self._probs is not None:
            values = self._probs.asnumpy()
            if not bool(np.all(values > 0)):
                raise ValueError("Probabilities must be greater than zero")
            if not bool(np.all(values < 1)):
                raise ValueError("Probabilities must be less than one")

    @property
    def probs(self):
        """The success probability given at construction."""
        return self._probs

    def _mean(self, probs1=None):
        probs = self._check_param_type(probs1)
        return (1.0 - probs) / probs

    def _mode(self, probs1=None):
        return ops.zeros_like(ops.cast(self._check_param_type(probs1), self.dtype))

    def _var(self, probs1=None):
        probs = self._check_param_type(probs1)
        return (1.0 - probs) / ops.square(probs)

    def _entropy(self, probs1=None):
        probs = self._check_param_type(probs1)
        return (-probs * ops.log(probs) - (1.0 - probs) * ops.log1p(-probs)) / probs

    def _prob(self, value, probs1=None):
        value = ops.floor(self._check_value(value, "value"))
        probs = self._check_param_type(probs1)
        prob = ops.pow(1.0 - probs, value) * probs
        return ops.where(value < 0.0, ops.zeros_like(prob), prob)

    def _cdf(self, value, probs1=None):
        value = ops.floor(self._check_value(value, "value"))
        probs = self._check_param_type(probs1)
        cdf = 1.0 - ops.pow(1.0 - probs, value + 1.0)
        return ops.where(value < 0.0, ops.zeros_like(cdf), cdf)

    def _kl_loss(self, dist, probs1_b, probs1=None):
        self._check_dist_name(dist)
        probs_b = self._check_value(probs1_b, "probs1_b")
        probs_a = self._check_param_type(probs1)
        return (ops.log(probs_a) - ops.log(probs_b)
                + (1.0 - probs_a) / probs_a * (ops.log1p(-probs_a) - ops.log1p(-probs_b)))

    def _sample(self, shape=(), probs1=None):
        probs = self._check_param_type(probs1)
        uniform = self._uniform(tuple(shape) + tuple(probs.shape))
        # MindSpore's inverse cdf: floor(log(u) / log(1 - p))
        return ops.cast(ops.floor(ops.log(uniform) / ops.log(1.0 - probs)), self.dtype)
