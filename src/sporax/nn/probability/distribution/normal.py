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
from sporax.nn.cell import Cell


class Normal(Cell):
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

    def __init__(self, mean=None, sd=None, seed=None, dtype=mstype.float32, name="Normal"):
        super().__init__()
        self._dtype, self._name, self._seed = dtype, name, 0 if seed is None else seed
        self._mean = None if mean is None else self._as_tensor(mean)
        self._sd = None if sd is None else self._as_tensor(sd)
        if self._sd is not None and not bool(np.all(self._sd.asnumpy() > 0)):
            raise ValueError("Standard deviation must be greater than zero.")

    def _as_tensor(self, value):
        if isinstance(value, Tensor):
            return ops.cast(value, self._dtype)
        return Tensor(np.asarray(value, mstype.dtype_to_nptype(self._dtype)))

    @property
    def dtype(self):
        return self._dtype

    @property
    def name(self):
        return self._name

    @property
    def seed(self):
        return self._seed

    @property
    def batch_shape(self):
        if self._mean is None or self._sd is None:
            return ()
        return tuple(np.broadcast_shapes(self._mean.shape, self._sd.shape))

    def extend_repr(self):
        if self._mean is not None and self._sd is not None and self.batch_shape:
            return f"batch_shape = {self.batch_shape}"
        return f"mean = {self._mean}, standard deviation = {self._sd}"

    def __repr__(self):
        return f"{type(self).__name__}({self.extend_repr()})"

    def _parameters(self, mean, sd):
        """(mean, sd): the given ones or the distribution's, broadcast to one shape."""
        mean = self._pick(mean, self._mean, "mean")
        sd = self._pick(sd, self._sd, "sd")
        shape = tuple(np.broadcast_shapes(mean.shape, sd.shape))
        return ops.broadcast_to(mean, shape), ops.broadcast_to(sd, shape)

    def _pick(self, given, own, label):
        if given is not None:
            return self._as_tensor(given)
        if own is None:
            raise TypeError(f"the type {label} must be subclass of Tensor. It can not be None since it is not "
                            "specified during initialization.")
        return own

    def _value(self, value):
        return ops.cast(value if isinstance(value, Tensor) else Tensor(value), self._dtype)

    def mean(self, mean=None, sd=None):
        """The mean."""
        return self._parameters(mean, sd)[0]

    def mode(self, mean=None, sd=None):
        """The mode, the mean."""
        return self._parameters(mean, sd)[0]

    def sd(self, mean=None, sd=None):
        """The standard deviation."""
        return self._parameters(mean, sd)[1]

    def var(self, mean=None, sd=None):
        """The variance, ``sd ** 2``."""
        return ops.square(self._parameters(mean, sd)[1])

    def entropy(self, mean=None, sd=None):
        """``log(sqrt(2 pi e)) + log(sd)``."""
        _, sd = self._parameters(mean, sd)
        return ops.log(ops.sqrt(Tensor(np.float32(np.e * 2.0 * np.pi)))) + ops.log(sd)

    def log_prob(self, value, mean=None, sd=None):
        """The log density at ``value``."""
        value = self._value(value)
        mean, sd = self._parameters(mean, sd)
        unnormalized = -1.0 * ops.square(value - mean) / (2.0 * ops.square(sd))
        normalization = -1.0 * ops.log(Tensor(np.float32(2.0 * np.pi))) / 2.0 - ops.log(sd)
        return unnormalized + normalization

    def prob(self, value, mean=None, sd=None):
        """The density at ``value``."""
        return ops.exp(self.log_prob(value, mean, sd))

    def cdf(self, value, mean=None, sd=None):
        """``P(X <= value)``."""
        value = self._value(value)
        mean, sd = self._parameters(mean, sd)
        return 0.5 * (1.0 + ops.erf((value - mean) / (sd * math.sqrt(2.0))))

    def log_cdf(self, value, mean=None, sd=None):
        """``log P(X <= value)``."""
        return ops.log(self.cdf(value, mean, sd))

    def survival_function(self, value, mean=None, sd=None):
        """``P(X > value)``."""
        return 1.0 - self.cdf(value, mean, sd)

    def log_survival(self, value, mean=None, sd=None):
        """``log P(X > value)``."""
        return ops.log(self.survival_function(value, mean, sd))

    def _check_dist(self, dist):
        if dist != "Normal":
            raise ValueError(f"Expected dist input is Normal, but got {dist}.")

    def kl_loss(self, dist, mean_b, sd_b, mean=None, sd=None):
        """KL(self || Normal(mean_b, sd_b))."""
        self._check_dist(dist)
        mean_b, sd_b = self._as_tensor(mean_b), self._as_tensor(sd_b)
        mean_a, sd_a = self._parameters(mean, sd)
        log_ratio = ops.log(sd_a / sd_b)
        squared = ops.square(mean_a / sd_b - mean_b / sd_b)
        return 0.5 * squared + 0.5 * ops.expm1(2 * log_ratio) - log_ratio

    def cross_entropy(self, dist, mean_b, sd_b, mean=None, sd=None):
        """The cross entropy with Normal(mean_b, sd_b): entropy plus KL divergence."""
        self._check_dist(dist)
        return self.entropy(mean, sd) + self.kl_loss(dist, mean_b, sd_b, mean, sd)

    def sample(self, shape=(), mean=None, sd=None):
        """Samples of shape ``shape + batch shape``."""
        mean, sd = self._parameters(mean, sd)
        noise = ops.standard_normal(tuple(shape) + tuple(mean.shape))
        return ops.cast(noise, self._dtype) * sd + mean

    def construct(self, name, *args, **kwargs):
        return getattr(self, name)(*args, **kwargs)
