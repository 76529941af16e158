"""``mindspore.nn.probability.distribution``: probability distributions as Cells.

Every distribution of MindSpore 2.10. Parameters are given at construction or to each call (as Tensors); see
``Distribution``.

Example:
    >>> import sporax as ms
    >>> from sporax.nn.probability import distribution
    >>> distribution.Exponential().mean(ms.Tensor([0.5, 2.0])).asnumpy().tolist()
    [2.0, 0.5]
"""
from sporax.nn.probability.distribution.bernoulli import Bernoulli
from sporax.nn.probability.distribution.beta import Beta
from sporax.nn.probability.distribution.categorical import Categorical
from sporax.nn.probability.distribution.cauchy import Cauchy
from sporax.nn.probability.distribution.distribution import Distribution
from sporax.nn.probability.distribution.exponential import Exponential
from sporax.nn.probability.distribution.gamma import Gamma
from sporax.nn.probability.distribution.geometric import Geometric
from sporax.nn.probability.distribution.gumbel import Gumbel
from sporax.nn.probability.distribution.half_normal import HalfNormal
from sporax.nn.probability.distribution.laplace import Laplace
from sporax.nn.probability.distribution.log_normal import LogNormal
from sporax.nn.probability.distribution.logistic import Logistic
from sporax.nn.probability.distribution.normal import Normal
from sporax.nn.probability.distribution.poisson import Poisson
from sporax.nn.probability.distribution.student_t import StudentT
from sporax.nn.probability.distribution.transformed_distribution import TransformedDistribution
from sporax.nn.probability.distribution.uniform import Uniform

__all__ = ["Distribution", "TransformedDistribution", "Bernoulli", "Beta", "Categorical", "Cauchy", "Exponential",
           "Gamma", "Geometric", "Gumbel", "Logistic", "LogNormal", "Normal", "Poisson", "Uniform", "HalfNormal",
           "Laplace", "StudentT"]

