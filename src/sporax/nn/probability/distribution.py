"""``mindspore.nn.probability.distribution``: the Bernoulli distribution as a Cell.

``Normal`` (``sporax.nn.probability.normal``) and ``Bernoulli`` with its closed forms (``probs``, ``mean``,
``entropy``, ``kl_loss``, ``cross_entropy``) exist; MindSpore's other distributions, bijectors and Bernoulli's
sampling raise NotImplementedError naming them.

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
from sporax.nn.probability.normal import Normal  # noqa: F401  (MindSpore's path)


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

    def __getattr__(self, name):
        if name in ("sample", "prob", "log_prob", "cdf", "log_cdf", "survival_function", "log_survival", "var",
                    "sd", "mode"):
            raise NotImplementedError(f"Bernoulli.{name} is not implemented in sporax (only probs, mean, entropy, "
                                      "kl_loss and cross_entropy are).")
        return super().__getattr__(name)


def __getattr__(name):
    if name[:1].isupper():
        raise NotImplementedError(f"mindspore.nn.probability.distribution.{name} is not implemented in sporax "
                                  "(only Bernoulli and Normal are).")
    raise AttributeError(name)
