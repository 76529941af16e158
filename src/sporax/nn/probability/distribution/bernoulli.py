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
from sporax.core.tensor import Tensor
from sporax.nn.cell import Cell


class Bernoulli(Cell):
    """A Bernoulli distribution: 1 with probability ``probs``, else 0.

    Args:
        probs (Union[float, Tensor, None]): the probability of 1. When None, every method takes it as its
            last argument (``probs1``). Default: None.
        seed (int): the sampling seed (kept; sporax does not sample from it). Default: None.
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
        super().__init__()
        self._probs = None if probs is None else self._as_probs(probs)
        self._seed = seed
        self._sample_dtype = dtype
        self._dist_name = name

    @staticmethod
    def _as_probs(value):
        if isinstance(value, Tensor):
            return ops.cast(value, mstype.float32)
        return Tensor(np.asarray(value, np.float32))

    @property
    def probs(self):
        """The probability of 1 given at construction, or None."""
        return self._probs

    def _probs_or_own(self, probs1):
        if probs1 is not None:
            return self._as_probs(probs1)
        if self._probs is None:
            raise TypeError(f"For '{self._dist_name}', the type probs must be subclass of Tensor. It can not be None "
                            "since it is not specified during initialization: pass probs1.")
        return self._probs

    def _check_dist(self, dist):
        if dist != "Bernoulli":
            raise ValueError(f"For '{self._dist_name}', expected dist input is Bernoulli, but got {dist}.")

    def mean(self, probs1=None):
        """The mean, ``probs``."""
        return self._probs_or_own(probs1)

    def entropy(self, probs1=None):
        """The entropy ``-p log p - (1 - p) log(1 - p)``."""
        p = self._probs_or_own(probs1)
        return -(p * ops.log(p) + (1 - p) * ops.log(1 - p))

    def kl_loss(self, dist, probs1_b, probs1=None):
        """KL(self || Bernoulli(probs1_b)) = ``a log(a/b) + (1-a) log((1-a)/(1-b))``."""
        self._check_dist(dist)
        a, b = self._probs_or_own(probs1), self._as_probs(probs1_b)
        return a * ops.log(a / b) + (1 - a) * ops.log((1 - a) / (1 - b))

    def cross_entropy(self, dist, probs1_b, probs1=None):
        """The cross entropy of self and Bernoulli(probs1_b): the entropy of self plus their KL divergence."""
        self._check_dist(dist)
        return self.entropy(probs1) + self.kl_loss(dist, probs1_b, probs1)

    def log_prob(self, value, probs1=None):
        """``log p`` where value is 1, ``log(1 - p)`` where 0."""
        p = self._probs_or_own(probs1)
        value = ops.cast(value, mstype.float32)
        return ops.log(p) * value + ops.log(1 - p) * (1 - value)

    def prob(self, value, probs1=None):
        """The probability of ``value``: exp of the log probability, as MindSpore computes it."""
        return ops.exp(self.log_prob(value, probs1))

    def cdf(self, value, probs1=None):
        """``P(X <= value)``: 0 below 0, ``1 - p`` on [0, 1), 1 from 1."""
        p = self._probs_or_own(probs1)
        value = ops.floor(ops.cast(value, mstype.float32))
        shape = tuple(np.broadcast_shapes(value.shape, p.shape))
        below_one = ops.select(ops.broadcast_to(value < 0.0, shape), ops.zeros(shape, mstype.float32),
                               ops.broadcast_to(1 - p, shape))
        return ops.select(ops.broadcast_to(value < 1.0, shape), below_one, ops.ones(shape, mstype.float32))

    def log_cdf(self, value, probs1=None):
        """``log P(X <= value)``."""
        return ops.log(self.cdf(value, probs1))

    def survival_function(self, value, probs1=None):
        """``P(X > value)``."""
        return 1.0 - self.cdf(value, probs1)

    def log_survival(self, value, probs1=None):
        """``log P(X > value)``."""
        return ops.log(self.survival_function(value, probs1))

    def var(self, probs1=None):
        """``p (1 - p)``, as MindSpore computes it: ``exp(log(1 - p) + log p)``."""
        p = self._probs_or_own(probs1)
        return ops.exp(ops.log(1 - p) + ops.log(p))

    def sd(self, probs1=None):
        """The standard deviation, the square root of ``var``."""
        return ops.sqrt(self.var(probs1))

    def mode(self, probs1=None):
        """Refused with MindSpore 2.10's TypeError (its mode compares a float with a Tensor)."""
        raise TypeError('Failed calling Less with "Less()(input=float, other=Tensor)": Bernoulli.mode fails in '
                        "MindSpore 2.10 (it compares a Python float with the probabilities).")

    def sample(self, shape=(), probs1=None):
        """Samples of shape ``shape + probs' shape``, of ``dtype``."""
        p = self._probs_or_own(probs1)
        uniform = ops.uniform(tuple(shape) + tuple(p.shape), Tensor(0.0), Tensor(1.0))
        return ops.cast(uniform < p, self._sample_dtype)

    def extend_repr(self):
        """``probs = p``, or the batch shape of several probabilities."""
        if self._probs is not None and self._probs.shape:
            return f"batch_shape = {tuple(self._probs.shape)}"
        return f"probs = {self._probs}"

    def __repr__(self):
        return f"Bernoulli({self.extend_repr()})"
