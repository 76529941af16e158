"""``mindspore.nn.probability``: probability distributions and bijectors (MindSpore 2.10 exposes these two;
``bnn_layers`` is not offered).

Example:
    >>> from sporax.nn.probability import distribution
    >>> distribution.Bernoulli(0.3).probs
    Tensor(shape=[], dtype=Float32, value= 0.3)
"""
from sporax.nn.probability import bijector, distribution  # noqa: F401
