"""``mindspore.nn.probability``: probability distributions, bijectors and the Bayesian layers (``bnn_layers``,
imported on demand as in MindSpore 2.10: ``from mindspore.nn.probability import bnn_layers``).

Example:
    >>> from sporax.nn.probability import distribution
    >>> distribution.Bernoulli(0.3).probs
    Tensor(shape=[], dtype=Float32, value= 0.3)
"""
from sporax.nn.probability import bijector, distribution  # noqa: F401
