"""The location-scale distributions' shared part: the two parameters, the positive scale's check and (for
``loc``/``scale`` ones) the standardized value.

Example:
    >>> import sporax as ms
    >>> from sporax.nn.probability.distribution import Logistic
    >>> float(Logistic(0.5, 2.0).scale.asnumpy())
    2.0
"""
import numpy as np

from sporax.nn.probability.distribution.distribution import Distribution, check_float_dtype, check_positive


def check_standard_deviation(tensor):
    """MindSpore's construction-time ValueError for a standard deviation that is not > 0."""
    if tensor is not None and not bool(np.all(tensor.asnumpy() > 0)):
        raise ValueError("Standard deviation must be greater than zero.")


class LocationScaleDistribution(Distribution):
    """A distribution of a location ``loc`` and a scale ``scale`` > 0 (Cauchy, Gumbel, Logistic, LogNormal).

    Args:
        loc, scale: the parameters (None: given to each call).
        seed (int): the sampling seed.
        dtype (mindspore.dtype): a float type, of the samples and results.
        name (str): the distribution's name.
        param (dict): the subclass constructor's arguments.

    Inputs (of ``construct``):
        - **name** (str) -- the method to call.

    Outputs:
        Tensor, the method's result.
    """

    def __init__(self, loc, scale, seed, dtype, name, param):
        param["param_dict"] = {"loc": loc, "scale": scale}
        check_float_dtype(dtype, type(self).__name__)
        super().__init__(seed, dtype, name, param)
        self._loc = self._add_parameter(loc, "loc")
        self._scale = self._add_parameter(scale, "scale")
        check_positive(self._scale, "scale")

    @property
    def loc(self):
        """The location given at construction."""
        return self._loc

    @property
    def scale(self):
        """The scale given at construction."""
        return self._scale

    def _standardized(self, value, loc=None, scale=None):
        """``((value - loc) / scale, scale)`` with the given or own parameters."""
        loc, scale = self._check_param_type(loc, scale)
        return (self._check_value(value, "value") - loc) / scale, scale


class MeanSdDistribution(Distribution):
    """A distribution of ``mean`` and a scale ``sd`` > 0 named so (Normal, HalfNormal, Laplace).

    Args:
        mean, sd: the parameters (None: given to each call).
        seed (int): the sampling seed.
        dtype (mindspore.dtype): a float type, of the samples and results.
        name (str): the distribution's name.
        param (dict): the subclass constructor's arguments.

    Inputs (of ``construct``):
        - **name** (str) -- the method to call.

    Outputs:
        Tensor, the method's result.
    """

    def __init__(self, mean, sd, seed, dtype, name, param):
        param["param_dict"] = {"mean": mean, "sd": sd}
        check_float_dtype(dtype, type(self).__name__)
        super().__init__(seed, dtype, name, param)
        self._mean_value = self._add_parameter(mean, "mean")
        self._sd_value = self._add_parameter(sd, "sd")
        check_standard_deviation(self._sd_value)
