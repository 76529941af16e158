"""``mindspore.nn.probability.distribution.TransformedDistribution``: ``Y = bijector(X)`` for X a distribution.

``log_prob`` is ``distribution.log_prob(inverse(y)) + inverse_log_jacobian(y)``; the cdf family goes through
``inverse`` (an increasing bijector, as MindSpore assumes). The mean exists for affine (constant-jacobian)
bijectors only; sd, var, mode, entropy and the KL divergence raise NotImplementedError, as MindSpore 2.10.

Example:
    >>> import sporax as ms
    >>> from sporax.nn.probability import bijector, distribution
    >>> lognormal = distribution.TransformedDistribution(bijector.Exp(), distribution.Normal(0.0, 1.0))
    >>> float(lognormal.cdf(ms.Tensor([1.0]))[0])
    0.5
"""
from sporax import ops
from sporax.nn.probability.bijector.bijector import Bijector
from sporax.nn.probability.distribution.distribution import Distribution


class TransformedDistribution(Distribution):
    """The distribution of ``bijector.forward(X)`` for ``X ~ distribution``.

    Args:
        bijector (Bijector): the transformation.
        distribution (Distribution): the distribution of X (a continuous one).
        seed (int): the sampling seed. Default: None (0).
        name (str): the distribution's name. Default: 'transformed_distribution'.

    Inputs (of ``prob``, ``log_prob``, ``cdf``, ...):
        - **value** (Tensor) -- the points, in the bijector's output space.
        - **args** (Tensor) -- optional: the underlying distribution's parameters for this call.

    Outputs:
        Tensor: the broadcast shape of value and the parameters.
    """

    def __init__(self, bijector, distribution, seed=None, name="transformed_distribution"):
        if not isinstance(bijector, Bijector):
            raise TypeError(f"For 'TransformedDistribution', the type of 'bijector' should be 'Bijector', but got "
                            f"type '{type(bijector).__name__}'.")
        if not isinstance(distribution, Distribution):
            raise TypeError(f"For 'TransformedDistribution', the type of 'distribution' should be 'Distribution', "
                            f"but got type '{type(distribution).__name__}'.")
        param = dict(locals())
        param["param_dict"] = {}
        super().__init__(seed, distribution.dtype, name, param)
        self._bijector = bijector
        self._distribution = distribution
        self._is_linear_transformation = bijector.is_constant_jacobian

    @property
    def bijector(self):
        """The transformation."""
        return self._bijector

    @property
    def distribution(self):
        """The underlying distribution."""
        return self._distribution

    @property
    def is_linear_transformation(self):
        """Whether the bijector is affine (a constant jacobian)."""
        return self._is_linear_transformation

    def _log_prob(self, value, *args, **kwargs):
        inverse = self._bijector.inverse(value)
        return (self._distribution.log_prob(inverse, *args, **kwargs)
                + self._bijector.inverse_log_jacobian(value))

    def _prob(self, value, *args, **kwargs):
        return ops.exp(self._log_prob(value, *args, **kwargs))

    def _cdf(self, value, *args, **kwargs):
        return self._distribution.cdf(self._bijector.inverse(value), *args, **kwargs)

    def _log_cdf(self, value, *args, **kwargs):
        return self._distribution.log_cdf(self._bijector.inverse(value), *args, **kwargs)

    def _survival_function(self, value, *args, **kwargs):
        return self._distribution.survival_function(self._bijector.inverse(value), *args, **kwargs)

    def _log_survival(self, value, *args, **kwargs):
        return self._distribution.log_survival(self._bijector.inverse(value), *args, **kwargs)

    def _mean(self, *args, **kwargs):
        if not self._is_linear_transformation:
            raise ValueError("mean function must be implemented for non-linear transformation")
        return self._bijector.forward(self._distribution.mean(*args, **kwargs))

    def _sample(self, *args, **kwargs):
        return self._bijector.forward(self._distribution.sample(*args, **kwargs))

    def extend_repr(self):
        return ""

