"""MindSpore 2.10's Philox-based CPU sampling kernels, reproduced value for value (``seeded_streams`` holds the
seeds, the kernel cache and the other engines).

- ``PhiloxStream`` (Bernoulli): ``PhiloxRandom(seed)``, a float per word from its low 23 bits.
- ``GuardedPhilox`` (RandomGamma): TensorFlow's ``GuardedPhiloxRandom(seed, seed2)`` (key ``seed``, the high
  counter half ``seed2``); a launch reserves 256 blocks per output, output ``i`` (alpha-major) reads blocks from
  ``256 i`` on: doubles from 52-bit mantissas (two words), normals by Box-Muller on two such doubles (sine then
  cosine, read last first), and Marsaglia-Tsang's gamma over them as TensorFlow's ``random_gamma`` (alpha 1: an
  exponential of one uniform; alpha below 1: boosted by a uniform to the power ``1 / alpha``).

Vectorised over outputs in NumPy float64 (the kernels compute in double).

Example:
    >>> GuardedPhilox(0, 3).gamma(2, np.array([2.5], np.float32)).astype(np.float32).tolist()
    [3.966470718383789, 0.29939547181129456]
"""
import numpy as np

from sporax.core.seeded_streams import _MASK32, _philox

_RESERVED_BLOCKS = 256


class PhiloxStream:
    """MindSpore's Bernoulli CPU kernel's stream: ``PhiloxRandom(seed)`` (key: the seed's two 32-bit halves;
    counter: the block number) restarted from block 0 at every launch, while the words of the last block a launch
    left unread are read first by the next launch; a float is a word's low 23 bits as the mantissa of a float in
    [1, 2), less 1. So launches of 6 draws read words 0-5, then 6, 7, 0, 1, 2, 3, then 0-5 again.

    Example:
        >>> stream = PhiloxStream(5)
        >>> stream.units(3).tolist(), stream.units(2).tolist()
        ([0.18286478519439697, 0.6899895668029785, 0.6732248067855835], [0.4522237777709961, 0.18286478519439697])
    """

    def __init__(self, seed):
        seed = int(seed) % 2**64
        self._key, self._left = (seed & _MASK32, seed >> 32), np.zeros(0, np.uint64)

    def _words(self, blocks):
        """The first ``blocks`` blocks' words, as uint64."""
        numbers = np.arange(blocks, dtype=np.uint64)
        zero = np.zeros_like(numbers)
        words = _philox([numbers & np.uint64(_MASK32), numbers >> np.uint64(32), zero, zero], self._key)
        return np.stack(words, axis=1).reshape(-1)

    def units(self, count):
        """One launch's ``count`` float32 uniforms in [0, 1)."""
        left, self._left = self._left[:count], self._left[count:]
        needed = count - left.size
        if needed:
            fresh = self._words(-(-needed // 4))
            left, self._left = np.concatenate([left, fresh[:needed]]), fresh[needed:]
        bits = (left & np.uint64(0x7FFFFF)) | np.uint64(127 << 23)
        return bits.astype(np.uint32).view(np.float32) - np.float32(1)


class OffsetPhiloxStream:
    """MindSpore 2.10's ``Uniform(minval, maxval, seed, offset)`` CPU stream: ``PhiloxRandom`` keyed by ``seed``'s
    two 32-bit halves, counter ``(block, offset)``, a float per word from its low 23 bits; the stream runs on across
    launches (a launch first reads the words the previous one left in its last block).

    Example:
        >>> stream = OffsetPhiloxStream(3, 2)
        >>> np.round(stream.units(2).astype(float), 4).tolist(), np.round(stream.units(1).astype(float), 4).tolist()
        ([0.851, 0.1455], [0.1624])
    """

    def __init__(self, seed, offset):
        seed, offset = int(seed) % 2**64, int(offset) % 2**64
        self._key, self._offset = (seed & _MASK32, seed >> 32), (offset & _MASK32, offset >> 32)
        self._block, self._left = 0, np.zeros(0, np.uint64)

    def units(self, count):
        """The next ``count`` float32 uniforms in [0, 1)."""
        left, self._left = self._left[:count], self._left[count:]
        needed = count - left.size
        if needed:
            numbers = np.arange(self._block, self._block + -(-needed // 4), dtype=np.uint64)
            self._block += numbers.size
            high = [np.full_like(numbers, half) for half in self._offset]
            fresh = np.stack(_philox([numbers & np.uint64(_MASK32), numbers >> np.uint64(32), *high], self._key),
                             axis=1).reshape(-1)
            left, self._left = np.concatenate([left, fresh[:needed]]), fresh[needed:]
        bits = (left & np.uint64(0x7FFFFF)) | np.uint64(127 << 23)
        return bits.astype(np.uint32).view(np.float32) - np.float32(1)


def _doubles(first, second):
    """TensorFlow's ``Uint64ToDouble``: the low 20 bits of ``first`` and all of ``second`` as the mantissa of a
    double in [1, 2), less 1 (uint64 arrays of 32-bit words)."""
    bits = ((first & np.uint64(0xFFFFF)) << np.uint64(32)) | second | np.uint64(1023 << 52)
    return bits.view(np.float64) - 1.0


class GuardedPhilox:
    """TensorFlow's ``GuardedPhiloxRandom(seed, seed2)`` under its ``random_gamma`` (see the module doc); a
    kernel instance keeps it, each launch reserving ``256`` blocks per output."""

    def __init__(self, seed, seed2):
        seed, seed2 = int(seed) % 2**64, int(seed2) % 2**64
        self._key, self._high = (seed & _MASK32, seed >> 32), seed2
        self._reserved = 0

    def _blocks(self, numbers):
        """The four words of the blocks ``numbers`` (uint64 counters' low halves), each a uint64 array."""
        high = np.full_like(numbers, self._high)
        return _philox([numbers & np.uint64(_MASK32), numbers >> np.uint64(32), high & np.uint64(_MASK32),
                        high >> np.uint64(32)], self._key)

    def _normals(self, numbers):
        """Box-Muller's pair of the blocks ``numbers``: (sine, cosine) times the radius, shape (n, 2)."""
        words = self._blocks(numbers)
        first = np.maximum(_doubles(words[0], words[1]), 1e-7)
        angle = 2 * np.pi * _doubles(words[2], words[3])
        radius = np.sqrt(-2.0 * np.log(first))
        return np.stack([np.sin(angle) * radius, np.cos(angle) * radius], axis=1)

    def _uniforms(self, numbers):
        words = self._blocks(numbers)
        return np.stack([_doubles(words[0], words[1]), _doubles(words[2], words[3])], axis=1)

    def gamma(self, outputs, alphas):
        """One launch of ``outputs`` samples, ``outputs / alphas.size`` per alpha (``alphas`` any float array):
        float64, flat, in the order of an output shape ``shape + alphas.shape``."""
        alpha_flat = np.asarray(alphas, np.float64).reshape(-1)
        count = outputs // max(alpha_flat.size, 1)
        start, self._reserved = self._reserved, self._reserved + outputs * _RESERVED_BLOCKS
        alpha = np.repeat(alpha_flat, count)  # output i: alpha i // count, sample i % count
        block = (start + _RESERVED_BLOCKS * np.arange(outputs, dtype=np.uint64)).astype(np.uint64)
        result = np.zeros(outputs)
        exponential = alpha == 1.0
        if exponential.any():
            result[exponential] = -np.log(1.0 - self._uniforms(block[exponential])[:, 1])
        less = alpha < 1
        d = alpha + np.where(less, 2.0 / 3, -1.0 / 3)
        c = 1.0 / 3 / np.sqrt(d)
        normals, uniforms = np.zeros((outputs, 2)), np.zeros((outputs, 2))
        normals_left, uniforms_left = np.zeros(outputs, np.int64), np.zeros(outputs, np.int64)
        rows = np.arange(outputs)

        def take(buffer, left, where, draw):
            """Each ``where`` output's next value from its two-value ``buffer``, drawing a block when empty."""
            empty = where & (left == 0)
            if empty.any():
                buffer[empty], left[empty] = draw(block[empty]), 2
                block[empty] += np.uint64(1)
            left[where] -= 1
            return buffer[rows, np.maximum(left, 0)]

        active = ~exponential & ~np.isnan(alpha)
        while active.any():
            x = take(normals, normals_left, active, self._normals)
            v = 1 + c * x
            trying = active & (v > 0)
            v = v * v * v
            u = take(uniforms, uniforms_left, trying, self._uniforms)
            with np.errstate(divide="ignore", invalid="ignore"):
                accepted = trying & ((u < 1 - 0.0331 * (x * x) * (x * x))
                                     | (np.log(u) < 0.5 * x * x + d * (1 - v + np.log(v))))
            value = d * v
            boosted = accepted & less
            if boosted.any():
                b = take(uniforms, uniforms_left, boosted, self._uniforms)
                value[boosted] *= np.power(b[boosted], 1 / alpha[boosted])
            result[accepted] = value[accepted]
            active &= ~accepted
        result[np.isnan(alpha)] = np.nan
        return result.reshape(alpha_flat.size, count).T.reshape(-1)
