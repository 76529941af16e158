"""``mindspore.nn.probability.bijector``: invertible transformations (Exp, PowerTransform, ScalarAffine,
Softplus, GumbelCDF, Invert), for TransformedDistribution.

Example:
    >>> import sporax as ms
    >>> from sporax.nn.probability import bijector
    >>> bijector.Exp().inverse(ms.Tensor([1.0])).asnumpy().tolist()
    [0.0]
"""
from sporax.nn.probability.bijector.bijector import Bijector
from sporax.nn.probability.bijector.exp import Exp
from sporax.nn.probability.bijector.gumbel_cdf import GumbelCDF
from sporax.nn.probability.bijector.invert import Invert
from sporax.nn.probability.bijector.power_transform import PowerTransform
from sporax.nn.probability.bijector.scalar_affine import ScalarAffine
from sporax.nn.probability.bijector.softplus import Softplus

__all__ = ["Bijector", "PowerTransform", "Exp", "ScalarAffine", "Softplus", "GumbelCDF", "Invert"]
