"""The host random streams MindSpore's initializers draw from, reproduced value for value.

Contract: ``uniform``, ``normal`` and ``truncated_normal`` return float32 NumPy arrays equal (up to
the last bit or two of float32 rounding in ``log``/``sin``/``cos``/the inverse normal CDF) to what
MindSpore 2.10's initializers write for the same seed, and ``initializer_seed()`` draws that seed
from NumPy's global stream exactly as MindSpore does. So ``mindspore.set_seed(42)`` (or a bare
``np.random.seed(42)``) followed by building a network gives MindSpore's initial weights, and the
loss curves of a script match MindSpore's step for step.

Algorithm:

1. Seed: one ``np.random.randint(1, 2**63, dtype=int64)`` draw from NumPy's global RandomState per
   initialised array.
2. Bits: the counter-based Philox4x32-10 generator (Salmon et al., "Parallel random numbers: as easy
   as 1, 2, 3", SC 2011) with the 64-bit seed as its key and as the high half of its 128-bit
   counter; block ``k`` (counter low half = ``k``) yields the uint32 values ``4k .. 4k+3`` of the
   stream. Being counter based, the stream is computed for all elements at once (vectorised).
3. Distributions: parameters rounded to float32, arithmetic in float64, results rounded to float32:
   - uniform on [a, b): ``(b - a) * s + a`` with ``s = bits / 2**32``;
   - normal: Box-Muller on consecutive pairs of bits, each mapped to [0, 1) through the 23 mantissa
     bits (``bits & 0x7fffff | 0x3f800000`` read as a float, minus 1) and floored at 1e-7;
     element ``2i`` takes the cosine branch, ``2i + 1`` the sine branch;
   - truncated normal: inverse CDF, ``mean + sigma * Phi^-1(Phi(alpha) + s * (Phi(beta) - Phi(alpha)))``
     with one uniform ``s`` per element, ``alpha = (a - mean) / sigma``, ``beta = (b - mean) / sigma``.

Example:
    >>> import numpy as np
    >>> from sporax.core.host_random import uniform
    >>> uniform(7, (3,), -1.0, 1.0).dtype
    dtype('float32')
"""
import math

import numpy as np

_MULTIPLIERS = (np.uint64(0xD2511F53), np.uint64(0xCD9E8D57))
_KEY_STEPS = (0x9E3779B9, 0xBB67AE85)
_CHUNK_BLOCKS = 1 << 18
_LOW = np.uint64(0xFFFFFFFF)
_SHIFT = np.uint64(32)
_ROUNDS = 10


def initializer_seed():
    """The next initializer seed from NumPy's global stream (one draw, as MindSpore takes it)."""
    return int(np.random.randint(low=1, high=1 << 63, dtype=np.int64))


def philox_bits(seed, count):
    """The first ``count`` uint32 values of the Philox4x32-10 stream of ``seed`` (see the module doc)."""
    blocks = (count + 3) // 4
    output = np.empty((blocks, 4), np.uint32)
    for start in range(0, blocks, _CHUNK_BLOCKS):
        output[start:start + _CHUNK_BLOCKS] = _philox_blocks(seed, start, min(blocks, start + _CHUNK_BLOCKS))
    return output.reshape(-1)[:count]


def _philox_blocks(seed, start, stop):
    # uint64 lanes holding 32-bit words: products of two words fit, no casts inside the rounds.
    seed_low, seed_high = np.uint64(seed & 0xFFFFFFFF), np.uint64((seed >> 32) & 0xFFFFFFFF)
    index = np.arange(start, stop, dtype=np.uint64)
    c0, c1 = index & _LOW, index >> _SHIFT
    c2, c3 = np.full_like(index, seed_low), np.full_like(index, seed_high)
    k0, k1 = int(seed_low), int(seed_high)
    for round_number in range(_ROUNDS):
        if round_number:
            k0, k1 = (k0 + _KEY_STEPS[0]) & 0xFFFFFFFF, (k1 + _KEY_STEPS[1]) & 0xFFFFFFFF
        product0 = c0 * _MULTIPLIERS[0]
        product1 = c2 * _MULTIPLIERS[1]
        c0 = (product1 >> _SHIFT) ^ c1 ^ np.uint64(k0)
        c2 = (product0 >> _SHIFT) ^ c3 ^ np.uint64(k1)
        c1 = product1 & _LOW
        c3 = product0 & _LOW
    return np.stack([c0, c1, c2, c3], axis=1).astype(np.uint32)


def _unit_uniform(bits):
    """Bits -> [0, 1) in float64: the uint32 over 2**32."""
    return bits.astype(np.float64) * 2.0 ** -32


def _as_float32(*values):
    """Distribution parameters arrive as float32, the arithmetic runs in float64 (as MindSpore's kernels)."""
    return [float(np.float32(value)) for value in values]


def uniform(seed, shape, low, high):
    """Uniform float32 samples on [``low``, ``high``)."""
    count = int(np.prod(shape, dtype=np.int64))
    low, high = _as_float32(low, high)
    values = (high - low) * _unit_uniform(philox_bits(seed, count)) + low
    return values.astype(np.float32).reshape(shape)


def _mantissa_uniform(bits):
    return (((bits & np.uint32(0x7FFFFF)) | np.uint32(127 << 23)).view(np.float32) - np.float32(1))


def normal(seed, shape, mean, sigma):
    """Normal float32 samples N(``mean``, ``sigma``^2) by Box-Muller on pairs of stream values."""
    count = int(np.prod(shape, dtype=np.int64))
    pairs = (count + 1) // 2
    units = _mantissa_uniform(philox_bits(seed, 2 * pairs)).astype(np.float64)
    units = np.maximum(units, float(np.float32(1e-7))).reshape(pairs, 2)
    mean, sigma = _as_float32(mean, sigma)
    radius = np.sqrt(-2.0 * np.log(units[:, 0])) * sigma
    angle = 2.0 * float(np.float32(3.1415926)) * units[:, 1]
    values = np.stack([mean + radius * np.cos(angle), mean + radius * np.sin(angle)], axis=1)
    return values.reshape(-1)[:count].astype(np.float32).reshape(shape)


def _normal_cdf(x):
    return math.erfc(-x / math.sqrt(2.0)) / 2.0


# Rational approximation of the inverse normal CDF (P. J. Acklam, relative error < 1.2e-9 in double).
_A = (-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02, 1.383577518672690e+02,
      -3.066479806614716e+01, 2.506628277459239e+00)
_B = (-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02, 6.680131188771972e+01,
      -1.328068155288572e+01)
_C = (-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00, -2.549732539343734e+00,
      4.374664141464968e+00, 2.938163982698783e+00)
_D = (7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00)


def _polynomial(coefficients, x):
    result = np.zeros_like(x)
    for coefficient in coefficients:
        result = result * x + coefficient
    return result


def _inverse_normal_cdf(p):
    """Phi^-1(p) in float64 for p in (0, 1), vectorised."""
    p = np.clip(np.asarray(p, np.float64), np.finfo(np.float64).tiny, 1 - 2.0 ** -53)
    result = np.empty_like(p)
    low_tail, high_tail = p < 0.02425, p > 1 - 0.02425
    middle = ~(low_tail | high_tail)
    q = p[middle] - 0.5
    r = q * q
    result[middle] = q * _polynomial(_A, r) / (_polynomial(_B, r) * r + 1)
    for tail, sign in ((low_tail, 1.0), (high_tail, -1.0)):
        edge = p[tail] if sign > 0 else 1 - p[tail]
        t = np.sqrt(-2 * np.log(edge))
        result[tail] = sign * _polynomial(_C, t) / (_polynomial(_D, t) * t + 1)
    return result


def truncated_normal(seed, shape, low, high, mean, sigma):
    """float32 samples of N(``mean``, ``sigma``^2) restricted to the absolute bounds [``low``, ``high``]."""
    if sigma <= 0:
        raise ValueError(f"TruncatedNormal: sigma must be positive, but got {sigma}.")
    count = int(np.prod(shape, dtype=np.int64))
    low, high, mean, sigma = _as_float32(low, high, mean, sigma)
    cdf_low = _normal_cdf((low - mean) / sigma)
    cdf_high = _normal_cdf((high - mean) / sigma)
    probability = cdf_low + _unit_uniform(philox_bits(seed, count)) * (cdf_high - cdf_low)
    values = mean + _inverse_normal_cdf(probability) * sigma
    return values.astype(np.float32).reshape(shape)
