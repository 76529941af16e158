"""``mindspore.nn.probability.distribution.Bernoulli``: the Bernoulli distribution as a Cell.

Example:
    >>> import sporax as ms
    >>> from sporax.nn.probability import distribution
    >>> b = distribution.Bernoulli(None, 10, ms.int32, "Bernoulli")
    >>> round(float(b.kl_loss("Bernoulli", ms.Tensor(0.9), ms.Tensor(0.2)).asnumpy()), 4)
    1.3627
"""
import numpy as np

from sporax import ops
from sporax.core import dtype as mstype
from sporax.nn.probability.distribution.distribution import Distribution


class Bernoulli(Distribution):
    """A Bernoulli distribution: 1 with probability ``probs``, else 0.

    Args:
        probs (Union[float, Tensor, None]): the probability of 1. When None, every method takes it as its
            last argument (``probs1``). Default: None.
        seed (int): the sampling seed (kept; sporax samples from its global generator). Default: None.
        dtype (mindspore.dtype): the type of the samples. Default: mindspore.int32.
        name (str): the distribution's name. Default: 'Bernoulli'.

    Inputs (of ``kl_loss``/``cross_entropy``):
        - **dist** (str) -- 'Bernoulli', the other distribution's kind.
        - **probs1_b** (Tensor) -- the other distribution's probability of 1.
        - **probs1** (Tensor) -- this distribution's probability of 1, when not given at construction.

    Outputs:
        Tensor (float32) of the divergence or cross entropy, elementwise.
    """

    def __init__(self, probs=None, seed=None, dtype=mstype.int32, name="Bernoulli"):
        param = dict(locals())
        param["param_dict"] = {"probs": probs}
        super().__init__(seed, dtype, name, param)
        self._probs = self._add_parameter(probs, "probs")

    @property
    def probs(self):
        """The probability of 1 given at construction, or None."""
        return self._probs

    def _mean(self, probs1=None):
        """The mean, ``probs``."""
        return self._check_param_type(probs1)

    def _entropy(self, probs1=None):
        """The entropy ``-p log p - (1 - p) log(1 - p)``."""
        p = self._check_param_type(probs1)
        return -(p * ops.log(p) + (1 - p) * ops.log(1 - p))

    def _kl_loss(self, dist, probs1_b, probs1=None):
        """KL(self || Bernoulli(probs1_b)) = ``a log(a/b) + (1-a) log((1-a)/(1-b))``."""
        self._check_dist_name(dist)
        a, b = self._check_param_type(probs1), self._check_value(probs1_b, "probs1_b")
        return a * ops.log(a / b) + (1 - a) * ops.log((1 - a) / (1 - b))

    def _log_prob(self, value, probs1=None):
        """``log p`` where value is 1, ``log(1 - p)`` where 0."""
        p = self._check_param_type(probs1)
        value = self._check_value(value, "value")
        return ops.log(p) * value + ops.log(1 - p) * (1 - value)

    def _cdf(self, value, probs1=None):
        """``P(X <= value)``: 0 below 0, ``1 - p`` on [0, 1), 1 from 1."""
        p = self._check_param_type(probs1)
        value = ops.floor(self._check_value(value, "value"))
        shape = tuple(np.broadcast_shapes(value.shape, p.shape))
        below_one = ops.select(ops.broadcast_to(value < 0.0, shape), ops.zeros(shape, mstype.float32),
                               ops.broadcast_to(1 - p, shape))
        return ops.select(ops.broadcast_to(value < 1.0, shape), below_one, ops.ones(shape, mstype.float32))

    def _var(self, probs1=None):
        """``p (1 - p)``, as MindSpore computes it: ``exp(log(1 - p) + log p)``."""
        p = self._check_param_type(probs1)
        return ops.exp(ops.log(1 - p) + ops.log(p))

    def _mode(self, probs1=None):
        """Refused with MindSpore 2.10's TypeError (its mode compares a float with a Tensor)."""
        raise TypeError('Failed calling Less with "Less()(input=float, other=Tensor)": Bernoulli.mode fails in '
                        "MindSpore 2.10 (it compares a Python float with the probabilities).")

    def _sample(self, shape=(), probs1=None):
        """Samples of shape ``shape + probs' shape``, of ``dtype``."""
        p = self._check_param_type(probs1)
        return ops.cast(self._uniform(tuple(shape) + tuple(p.shape)) < p, self.dtype)
