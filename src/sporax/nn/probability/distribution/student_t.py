"""``mindspore.nn.probability.distribution.StudentT``: Student's t distribution of ``df``, ``mean``, ``sd``.

As MindSpore 2.10, only ``prob`` and ``log_prob`` exist (the other methods raise NotImplementedError).

Example:
    >>> import sporax as ms
    >>> from sporax.nn.probability.distribution import StudentT
    >>> round(float(StudentT(1.0, 0.0, 1.0).prob(ms.Tensor([0.0]))[0]), 6)
    0.31831
"""
import math

import numpy as np

from sporax import ops
from sporax.core import dtype as mstype
from sporax.nn.probability.distribution.distribution import Distribution, check_float_dtype
from sporax.nn.probability.distribution.location_scale import check_standard_deviation


class StudentT(Distribution):
    """Student's t distribution: ``mean + sd * T`` for T of ``df`` degrees of freedom.

    Args:
        df (Union[int, float, list, numpy.ndarray, Tensor, None]): the degrees of freedom, > 0. Default: None.
        mean (Union[int, float, list, numpy.ndarray, Tensor, None]): the location. Default: None.
        sd (Union[int, float, list, numpy.ndarray, Tensor, None]): the scale, > 0. Default: None.
        seed (int): the sampling seed. Default: None (0).
        dtype (mindspore.dtype): a float type, of the results. Default: mindspore.float32.
        name (str): the distribution's name. Default: 'StudentT'.

    Inputs (of ``prob``, ``log_prob``):
        - **value** (Tensor) -- the points.
        - **df**, **mean**, **sd** (Tensor) -- optional: the parameters for this call.

    Outputs:
        Tensor of ``dtype``: the broadcast shape of value and the parameters.
    """

    _repr_labels = ()  # MindSpore prints none

    def __init__(self, df=None, mean=None, sd=None, seed=None, dtype=mstype.float32, name="StudentT"):
        param = dict(locals())
        param["param_dict"] = {"df": df, "mean": mean, "sd": sd}
        check_float_dtype(dtype, type(self).__name__)
        super().__init__(seed, dtype, name, param)
        self._df_value = self._add_parameter(df, "df")
        self._mean_value = self._add_parameter(mean, "mean")
        self._sd_value = self._add_parameter(sd, "sd")
        check_standard_deviation(self._sd_value)
        if self._df_value is not None and not bool(np.all(self._df_value.asnumpy() > 0)):
            raise ValueError("Degrees of freedom must be greater than zero.")

    def _log_prob(self, value, df=None, mean=None, sd=None):
        value = self._check_value(value, "value")
        df, mean, sd = self._check_param_type(df, mean, sd)
        standardized = (value - mean) / sd
        unnormalized = -0.5 * (df + 1.0) * ops.log1p(ops.square(standardized) / df)
        normalization = (ops.log(ops.abs(sd)) + 0.5 * ops.log(df) + 0.5 * math.log(math.pi)
                         + ops.lgamma(0.5 * df) - ops.lgamma(0.5 * (df + 1.0)))
        return unnormalized - normalization
