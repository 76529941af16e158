"""MindSpore 2.10's RandomPoisson CPU kernel stream, reproduced value for value (``seeded_streams`` holds the
seeds and the twister).

The kernel seeds a ``std::mt19937`` with the low 32 bits of ``mixed_seed(seed, seed2) * 6364136223846793005 +
0xda3e39cb94b95bdb`` (mod 2**64) and keeps it, so a Primitive instance continues its stream from call to call. It
fills the output rate by rate (output ``j`` takes rate ``j % rates``, all of rate 0's outputs first), each sample
from ``uniform_real_distribution<double>(0, 1)`` draws (two words each): Knuth's product of uniforms below rate
10, else Hormann's transformed rejection (PTRS), as TensorFlow's random_poisson.

Sampling is sequential (a rejection consumes a variable number of words), a Python loop over the samples.

Example:
    >>> PoissonStream(mixed_seed(2, 3)).poisson(3, np.array([0.5, 5.0, 50.0])).tolist()
    [1.0, 5.0, 37.0]
"""
import math

import numpy as np

from sporax.core.seeded_streams import TwisterStream, mixed_seed  # noqa: F401 - mixed_seed: for the example

_PCG_MULTIPLIER, _PCG_INCREMENT = 6364136223846793005, 0xDA3E39CB94B95BDB
_BELOW_ONE = math.nextafter(1.0, 0.0)
_BLOCK = 4096


class PoissonStream(TwisterStream):
    """The twister of MindSpore's RandomPoisson kernel, built from its 64-bit kernel seed (``mixed_seed``)."""

    def __init__(self, kernel_seed):
        super().__init__((int(kernel_seed) * _PCG_MULTIPLIER + _PCG_INCREMENT) % 2**64)

    def poisson(self, count, rates):
        """One launch of ``count`` samples (float64, flat, in the order of an output ``shape + rates.shape``)."""
        rates = np.asarray(rates, np.float64).reshape(-1)
        out = np.zeros(count)
        state = self._bits.state
        reader = _UniformReader(self.words)
        for index, rate in enumerate(rates.tolist()):
            for place in range(index, count, rates.size):
                out[place] = _sample(rate, reader.next)
        # the words drawn past the last one read stay unread: rewind, then read exactly what the samples took
        self._bits.state = state
        self.words(2 * reader.read)
        return out


class _UniformReader:
    """Doubles in [0, 1) from a twister's words, two each (libstdc++'s ``generate_canonical<double>``), drawn in
    blocks; ``read`` counts those handed out."""

    def __init__(self, words):
        self._words, self._values, self.read = words, [], 0

    def next(self):
        position = self.read % _BLOCK
        if position == 0:
            words = self._words(2 * _BLOCK).astype(np.float64)
            self._values = np.minimum((words[0::2] + words[1::2] * 2.0**32) / 2.0**64, _BELOW_ONE).tolist()
        self.read += 1
        return self._values[position]


def _sample(rate, uniform):
    """One Poisson(``rate``) sample from the uniform doubles ``uniform()`` returns."""
    if rate < 10:
        # Knuth: multiply uniforms until the product falls to exp(-rate)
        limit, product, value = math.exp(-rate), 1.0, 0
        while True:
            product *= uniform()
            if product <= limit:
                return value
            value += 1
    if math.isinf(rate) or math.isnan(rate):
        return rate  # the kernel returns infinity; a NaN rate would never be accepted (it loops): NaN here
    log_rate, b = math.log(rate), 0.931 + 2.53 * math.sqrt(rate)
    a, inverse_alpha, v_r = -0.059 + 0.02483 * b, 1.1239 + 1.1328 / (b - 3.4), 0.9277 - 3.6224 / (b - 2)
    while True:
        u = uniform() - 0.5
        v = uniform()
        u_s = 0.5 - abs(u)
        k = math.floor((2 * a / u_s + b) * u + rate + 0.43)
        if u_s >= 0.07 and v <= v_r:
            return k
        if k < 0 or (u_s < 0.013 and v > u_s):
            continue
        if math.log(v * inverse_alpha / (a / (u_s * u_s) + b)) <= -rate + k * log_rate - math.lgamma(k + 1):
            return k
