"""The location-scale distributions' shared part: a location, a positive scale and the standardized value.

MindSpore names the pair ``loc``/``scale`` (Cauchy, Gumbel, Logistic, LogNormal) or ``mean``/``sd`` (Normal,
HalfNormal, Laplace: ``MeanSdDistribution``); the names are the per-call argument names and appear in errors.

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
    """A distribution of a location and a scale > 0 (Cauchy, Gumbel, Logistic, LogNormal).

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

    _pair = ("loc", "scale")

    def __init__(self, loc, scale, seed, dtype, name, param):
        location_name, scale_name = self._pair
        param["param_dict"] = {location_name: loc, scale_name: scale}
        check_float_dtype(dtype, type(self).__name__)
        super().__init__(seed, dtype, name, param)
        self._loc = self._add_parameter(loc, location_name)
        self._scale = self._add_parameter(scale, scale_name)
        self._check_scale(self._scale)

    @staticmethod
    def _check_scale(scale):
        check_positive(scale, "scale")

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


class MeanSdDistribution(LocationScaleDistribution):
    """A location-scale distribution whose parameters MindSpore names ``mean`` and ``sd`` (Normal, HalfNormal,
    Laplace), with its "Standard deviation must be greater than zero." check.

    Args:
        mean, sd, seed, dtype, name, param: as LocationScaleDistribution's ``loc``, ``scale``, ...

    Inputs (of ``construct``):
        - **name** (str) -- the method to call.

    Outputs:
        Tensor, the method's result.
    """

    _pair = ("mean", "sd")

    @staticmethod
    def _check_scale(scale):
        check_standard_deviation(scale)
