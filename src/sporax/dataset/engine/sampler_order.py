"""The row order of MindSpore's RandomSampler, reproduced so that seeded pipelines read the same rows.

MindSpore 2.10's sampler (C++) seeds a 32-bit Mersenne Twister (``std::mt19937``) with the dataset
seed and permutes the row ids with GCC's ``std::shuffle``. Every later pass over the rows (the next
epoch, or the next ``repeat`` pass) re-seeds with seed + 1, seed + 2, ... and shuffles the previous
pass's order again; its DistributedSampler does the same from seed + 1 and then takes every
``num_shards``-th row from ``shard_id`` on. With replacement, a pass is ``num_samples``
independent draws below the row count. The draws are bounded the way GCC's
``uniform_int_distribution`` bounds them: by division, rejecting the top partial bucket.
Recorded on MindSpore 2.10 (``ds.config.set_seed(1)``, 10 rows): pass 1 [9, 0, 2, 5, 7, 4, 6, 3,
1, 8], pass 2 [4, 9, 5, 0, 1, 7, 6, 2, 3, 8]; the 50000- and 70000-row permutations of seeds 7
and 2 are identical too.

Interface for samplers::

    order = PassOrders()          # one per sampler: caches the last pass so epochs cost O(n) each
    order.permutation(n, seed, k) # the k-th pass (k = 0 first) over n rows, a list of ints
    draws(n, seed, k, count)      # k-th pass with replacement: count row ids below n

Shared with MindRecord's reader order (``mindrecord_order``): the engines' outputs
(``TwisterWords``, ``MinimalStandard``), ``below`` and ``shuffle``; GCC's real distributions
(``canonical``, ``uniform_float``) for the random transforms that draw as MindSpore's kernels.
"""
import math

import numpy as np


class TwisterWords:
    """The 32-bit outputs of ``std::mt19937(seed)``, in order; ``span`` is their max - min."""

    span = 0xFFFFFFFF

    def __init__(self, seed):
        # RandomState's integer seeding is the reference Mersenne Twister's init_genrand, the same
        # as std::mt19937's constructor; its state then drives a plain MT19937 bit generator.
        _, key, pos = np.random.RandomState(int(seed) & 0xFFFFFFFF).get_state()[:3]
        self._bits = np.random.MT19937()
        self._bits.state = {"bit_generator": "MT19937", "state": {"key": key, "pos": pos}}
        self._buffer, self._next = [], 0

    def __call__(self):
        if self._next == len(self._buffer):
            self._buffer, self._next = self._bits.random_raw(4096).tolist(), 0
        word = self._buffer[self._next]
        self._next += 1
        return word


_UPPER, _LOWER = np.uint64(0xFFFFFFFF80000000), np.uint64(0x7FFFFFFF)
_MATRIX = np.uint64(0xB5026F5AA96619E9)


def _mix64(high, low):
    bits = (high & _UPPER) | (low & _LOWER)
    return (bits >> np.uint64(1)) ^ ((bits & np.uint64(1)) * _MATRIX)


class Twister64Words:
    """The 64-bit outputs of ``std::mt19937_64(seed)``, in order (the engine of MindSpore's shuffle buffer).

    Example:
        >>> Twister64Words(5489)()   # std::mt19937_64 with its default seed
        14514284786278117030
    """

    def __init__(self, seed):
        state = [int(seed) & 0xFFFFFFFFFFFFFFFF]
        for index in range(1, 312):
            previous = state[-1]
            state.append((6364136223846793005 * (previous ^ (previous >> 62)) + index) & 0xFFFFFFFFFFFFFFFF)
        self._state = np.array(state, np.uint64)
        self._buffer, self._next = [], 0

    def _twist(self):
        # the reference generation step, in three vector pieces: each reads the words it would read one by one
        mt = self._state
        mt[:156] = mt[156:312] ^ _mix64(mt[:156], mt[1:157])
        mt[156:311] = mt[0:155] ^ _mix64(mt[156:311], mt[157:312])
        mt[311] = mt[155] ^ _mix64(mt[311:312], mt[0:1])[0]
        words = mt.copy()
        words ^= (words >> np.uint64(29)) & np.uint64(0x5555555555555555)
        words ^= (words << np.uint64(17)) & np.uint64(0x71D67FFFEDA60000)
        words ^= (words << np.uint64(37)) & np.uint64(0xFFF7EEE000000000)
        words ^= words >> np.uint64(43)
        return words.tolist()

    def __call__(self):
        if self._next == len(self._buffer):
            self._buffer, self._next = self._twist(), 0
        word = self._buffer[self._next]
        self._next += 1
        return word


class MinimalStandard:
    """The outputs of GCC's ``std::default_random_engine(seed)`` (``minstd_rand0``) less its minimum 1.

    x -> 16807 x mod (2**31 - 1); a seed that is 0 modulo the modulus starts at 1.

    Example:
        >>> MinimalStandard(1)()   # 16807 - 1
        16806
    """

    _MODULUS = 2147483647
    span = _MODULUS - 2  # outputs run from 1 to modulus - 1

    def __init__(self, seed):
        self._state = int(seed) % self._MODULUS or 1

    def __call__(self):
        self._state = self._state * 16807 % self._MODULUS
        return self._state - 1


def below(words, bound):
    """A uniform integer in [0, bound) as GCC's ``uniform_int_distribution`` draws it from ``words``:
    the word's bucket of size ``words.span // bound``, rejecting the top partial bucket."""
    scaling = words.span // bound
    past = bound * scaling
    while True:
        word = words()
        if word < past:
            return word // scaling


def canonical(words):
    """GCC's ``generate_canonical<double, 53>``: a double in [0, 1) from two 32-bit words (what
    ``std::bernoulli_distribution`` and ``uniform_real_distribution<double>`` draw)."""
    value = (words() + words() * 2.0 ** 32) / 2.0 ** 64
    return value if value < 1.0 else math.nextafter(1.0, 0.0)


def uniform_float(words, low, high):
    """GCC's ``uniform_real_distribution<float>(low, high)`` over one 32-bit word, in float32."""
    unit = np.float32(words() / 2.0 ** 32)
    if unit >= 1.0:
        unit = np.nextafter(np.float32(1.0), np.float32(0.0))
    low, high = np.float32(low), np.float32(high)
    return float((high - low) * unit + low)


def shuffle(order, words):
    """GCC's ``std::shuffle(order, engine)`` in place, ``words`` giving the engine's outputs.

    While two swap positions fit in one draw (``span // n >= n``) GCC draws them in pairs.
    """
    n = len(order)
    if n < 2:
        return order
    if words.span // n < n:
        for i in range(1, n):
            j = below(words, i + 1)
            order[i], order[j] = order[j], order[i]
        return order
    i = 1
    if n % 2 == 0:  # an odd number of swaps is left: do one first, then pairs
        j = below(words, 2)
        order[1], order[j] = order[j], order[1]
        i = 2
    while i < n:
        span = i + 1
        first, second = divmod(below(words, span * (span + 1)), span + 1)
        order[i], order[first] = order[first], order[i]
        order[i + 1], order[second] = order[second], order[i + 1]
        i += 2
    return order


class PassOrders:
    """Permutations of successive passes, remembering the last one (pass k shuffles pass k - 1)."""

    def __init__(self):
        self._last = None  # (n, seed, k, order)

    def permutation(self, n, seed, k):
        """The row order of pass ``k`` (0 first) over ``n`` rows under dataset seed ``seed``."""
        last = self._last
        if last is not None and last[:2] == (n, seed) and last[2] <= k:
            done, order = last[2], list(last[3])
        else:
            done, order = -1, list(range(n))
        for step in range(done + 1, k + 1):
            shuffle(order, TwisterWords(seed + step))
        self._last = (n, seed, k, tuple(order))
        return order


def draws(n, seed, k, count):
    """Pass ``k``'s ``count`` row ids drawn with replacement below ``n``."""
    words = TwisterWords(seed + k)
    return [below(words, n) for _ in range(count)]
