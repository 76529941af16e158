"""``mindspore.nn.probability.distribution.Laplace``: the Laplace (double exponential) distribution.

As MindSpore 2.10, only ``prob`` and ``log_prob`` exist (the other methods raise NotImplementedError);
``sd`` is the scale ``b`` of the density ``exp(-|x - mean| / b) / (2 b)``.

Example:
    >>> import sporax as ms
    >>> from sporax.nn.probability.distribution import Laplace
    >>> round(float(Laplace(0.0, 1.0).log_prob(ms.Tensor([1.0]))[0]), 6)
    -1.693147
"""
from sporax import ops
from sporax.core import dtype as mstype
from sporax.nn.probability.distribution.location_scale import MeanSdDistribution


class Laplace(MeanSdDistribution):
    """The Laplace distribution of location ``mean`` and scale ``sd``.

    Args:
        mean (Union[int, float, list, numpy.ndarray, Tensor, None]): the location. Default: None.
        sd (Union[int, float, list, numpy.ndarray, Tensor, None]): the scale, > 0. Default: None.
        seed (int): the sampling seed. Default: None (0).
        dtype (mindspore.dtype): a float type, of the results. Default: mindspore.float32.
        name (str): the distribution's name. Default: 'Laplace'.

    Inputs (of ``prob``, ``log_prob``):
        - **value** (Tensor) -- the points.
        - **mean**, **sd** (Tensor) -- optional: the parameters for this call.

    Outputs:
        Tensor of ``dtype``: the broadcast shape of value and the parameters.
    """

    _repr_labels = ()  # MindSpore prints none

    def __init__(self, mean=None, sd=None, seed=None, dtype=mstype.float32, name="Laplace"):
        super().__init__(mean, sd, seed, dtype, name, dict(locals()))

    def _log_prob(self, value, mean=None, sd=None):
        value = self._check_value(value, "value")
        mean, sd = self._check_param_type(mean, sd)
        return -ops.abs((value - mean) / sd) - ops.log(2.0 * sd)
