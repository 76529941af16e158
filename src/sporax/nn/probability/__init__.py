"""``mindspore.nn.probability``: probability distributions (only ``distribution.Bernoulli`` so far).

Example:
    >>> from sporax.nn.probability import distribution
    >>> distribution.Bernoulli(0.3).probs
    Tensor(shape=[], dtype=Float32, value= 0.3)
"""
from sporax.nn.probability import distribution  # noqa: F401
