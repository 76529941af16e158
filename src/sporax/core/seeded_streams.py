"""How MindSpore 2.10's random ops turn seeds into streams, reproduced so that seeded scripts print its numbers.

Observed on MindSpore 2.10 (CPU) and reproduced value for value:

1. Op seeds (``op_seeds``): a functional random op (``ops.standard_normal``, ``ops.rand`` ...) asks for a
   seed pair under its kernel name. The global seed is ``set_seed``'s value (0 reads as 87654321, unset as 0);
   the op seed is the ``seed`` argument (None reads as 0). Both 0: the pair is (0, 0), an unseeded kernel.
   Otherwise the pair is ``(global % (2**31 - 1), counter % (2**31 - 1))`` where ``counter`` starts at the op
   seed and grows by ``3528531795 ^ 3449720151`` after every call of that (kernel name, op seed); ``set_seed``
   resets every counter. So each kernel name (``randn``, ``standard_normal``, ...) has its own sequence, and
   under ``jit`` the pair is taken once, when the function is compiled.
2. Kernel seed (``mixed_seed``): the kernel scrambles its ``(seed, seed2)`` into one 64-bit seed with one
   Philox-4x32-10 block (key ``0x3ec8f720, 0x02461e29``, counter ``(seed lo, seed hi, seed2 lo, seed2 hi)``;
   the first two output words, low first).
3. Engines, seeded with that value and kept by the kernel, so a Primitive instance (and a compiled op)
   continues its stream from call to call while each functional call builds a fresh one:

   - ``MinstdStream`` (StandardNormal, StandardLaplace, Dropout): C++'s ``default_random_engine`` (``x <- 16807 x mod (2**31 - 1)``,
     seeded with the seed mod the modulus) under libstdc++'s ``normal_distribution<float>``: Marsaglia's
     polar method on pairs of float uniforms ``(x - 1) / 2**31`` (as float32), rejecting pairs outside the unit
     disc; an accepted pair yields ``y * m`` and then ``x * m``, ``m = sqrt(-2 logf(r2) / r2)`` in float32 with
     the C library's ``logf`` (glibc's is not correctly rounded: 1 ulp off in ~0.7% of samples otherwise; for
     large draws called over the array from C, ``use_array_logf``).
     Dropout keeps an element when its float uniform (``uniform_real_distribution<float>``, the same
     ``(x - 1) / 2**31``) is below ``keep_prob`` (float32).
   - Permutations (RandomShuffle over ``MinstdStream``, Randperm over ``TwisterStream`` seeded with its plain
     ``seed``): libstdc++'s ``std::shuffle`` of ``0 .. n-1`` (``gcc_shuffle``).
   - ``TwisterStream`` (UniformReal, UniformInt): ``std::mt19937``. Reals are libstdc++'s
     ``generate_canonical<double>``: ``(w0 + w1 * 2**32) / 2**64`` from two words, rounded to float32;
     integers in ``[low, high)`` divide a word by ``(2**32 - 1) // (high - low)`` after rejecting words at or
     above the last whole bucket.

Everything runs on the host in NumPy, vectorised (the LCG by jumps of ``16807**k``, the twister by NumPy's
MT19937 bit generator, which ``RandomState``'s integer seeding initialises as ``std::mt19937`` does).

Example:
    >>> from sporax.core.seeded_streams import MinstdStream, mixed_seed
    >>> MinstdStream(mixed_seed(1, 2)).normal(2).tolist()
    [0.5644662380218506, 1.3602391481399536]
"""
import ctypes
import ctypes.util
import functools
import math

import numpy as np

from sporax.core import random_state

_KEY_STEP = 3528531795 ^ 3449720151
_DEFAULT_GRAPH_SEED = 87654321
_MAX_INT32 = 2**31 - 1
_PHILOX_KEY = (0x3EC8F720, 0x02461E29)
_MASK32 = 0xFFFFFFFF

# (kernel name, op seed) -> the op seed of its next call; set_seed resets each to its op seed.
_op_seed_counters = {}


def _reset_counters(_seed):
    for kernel_name, op_seed in _op_seed_counters:
        _op_seed_counters[(kernel_name, op_seed)] = op_seed


random_state.on_set_seed(_reset_counters)


_pairs_taken = [0]  # seed pairs op_seeds handed out so far (a trace that took some is told by the count)


def pairs_taken():
    """How many seed pairs ``op_seeds`` has handed out in this process."""
    return _pairs_taken[0]


def op_seeds(op_seed, kernel_name):
    """The ``(seed, seed2)`` pair a functional random op named ``kernel_name`` builds its kernel with; (0, 0)
    when neither a global nor an op seed is set. Advances that op's counter."""
    global_seed = random_state.get_seed()
    global_seed = 0 if global_seed is None else (_DEFAULT_GRAPH_SEED if global_seed == 0 else global_seed)
    op_seed = 0 if op_seed is None else int(op_seed)
    if global_seed == 0 and op_seed == 0:
        return 0, 0
    counter = _op_seed_counters.setdefault((kernel_name, op_seed), op_seed)
    _op_seed_counters[(kernel_name, op_seed)] = counter + _KEY_STEP
    _pairs_taken[0] += 1
    return global_seed % _MAX_INT32, counter % _MAX_INT32


def graph_seed(op_seed, kernel_name):
    """``op_seeds`` as MindSpore's ``mindspore.common.seed._get_graph_seed`` checks it: a seeded pair needs a
    non-negative int op seed.

    Raises:
        ValueError: ``op_seed`` is negative or not an int while a global or op seed is set.
    """
    seeded = random_state.get_seed() is not None or op_seed not in (None, 0)
    if seeded and op_seed is not None and (not isinstance(op_seed, int) or isinstance(op_seed, bool) or op_seed < 0):
        raise ValueError(f"For '{kernel_name}', the 'seed' must be int and must >= 0, but got '{op_seed}' with type "
                         f"'{type(op_seed).__name__}'.")
    return op_seeds(op_seed, kernel_name)


def _philox(counters, key):
    """Philox-4x32-10 of the blocks ``counters`` (four uint64 arrays of 32-bit words) under ``key`` (two ints):
    the four output words of each block, as uint64 arrays."""
    mask = np.uint64(_MASK32)
    counters, key = [np.asarray(word, np.uint64) for word in counters], list(key)
    for _ in range(10):
        first, second = np.uint64(0xD2511F53) * counters[0], np.uint64(0xCD9E8D57) * counters[2]
        counters = [(second >> np.uint64(32)) ^ counters[1] ^ np.uint64(key[0]), second & mask,
                    (first >> np.uint64(32)) ^ counters[3] ^ np.uint64(key[1]), first & mask]
        key = [(key[0] + 0x9E3779B9) & _MASK32, (key[1] + 0xBB67AE85) & _MASK32]
    return counters


def op_seed_counters():
    """A copy of the op-seed counters (a trace that falls back to eager puts them back: its calls never ran)."""
    return dict(_op_seed_counters)


def restore_op_seed_counters(saved):
    """Put back counters taken by ``op_seed_counters``."""
    _op_seed_counters.clear()
    _op_seed_counters.update(saved)


def mixed_seed(seed, seed2):
    """MindSpore's 64-bit kernel seed from two seeds: one Philox-4x32-10 block over them (Python ints)."""
    seed, seed2 = seed % 2**64, seed2 % 2**64  # negative seeds wrap as uint64
    words = _philox([seed & _MASK32, seed >> 32, seed2 & _MASK32, seed2 >> 32], _PHILOX_KEY)
    return int(words[0]) | (int(words[1]) << 32)


# MindSpore's PyNative kernel cache, for the kernels whose stream outlives a launch without a seed pair of their
# own (Bernoulli, Dropout2D/3D): one kernel per (Primitive, attributes, input shapes and dtypes), shared by every
# Primitive instance and functional call that matches; set_seed leaves them be.
_eager_kernels = {}


def eager_kernel(signature, build):
    """The stream of the PyNative kernel ``signature`` (a hashable tuple), ``build()`` at its first launch."""
    if signature not in _eager_kernels:
        _eager_kernels[signature] = build()
    return _eager_kernels[signature]


class SeedPair:
    """A kernel's ``(seed, seed2)``: what a seeded functional random op hands its kernel in place of a key.

    Example:
        >>> SeedPair(1, 2).minstd_stream().normal(1).tolist()
        [0.5644662380218506]
    """

    __slots__ = ("seed", "seed2")

    def __init__(self, seed, seed2):
        self.seed, self.seed2 = int(seed), int(seed2)

    def minstd_stream(self):
        return MinstdStream(mixed_seed(self.seed, self.seed2))

    def twister_stream(self):
        return TwisterStream(mixed_seed(self.seed, self.seed2))

    def poisson_stream(self):
        """MindSpore's RandomPoisson kernel twister (``poisson_stream``)."""
        from sporax.core import poisson_stream  # it builds on this module's twister

        return poisson_stream.PoissonStream(mixed_seed(self.seed, self.seed2))

    def guarded_philox(self):
        """TensorFlow's ``GuardedPhiloxRandom`` over the plain pair (RandomGamma: ``philox_samplers``)."""
        from sporax.core import philox_samplers  # it builds on this module's Philox

        return philox_samplers.GuardedPhilox(self.seed, self.seed2)

    def __repr__(self):
        return f"SeedPair({self.seed}, {self.seed2})"


def gcc_shuffle(values, word, span):
    """libstdc++'s ``std::shuffle`` of the list ``values``, in place: ``word()`` is the engine's next output less
    its minimum, ``span`` its max - min. While two swap positions fit one draw (``span // n >= n``) it draws
    them in pairs; each draw is bounded by division, rejecting the top partial bucket."""
    def below(bound):  # uniform in [0, bound)
        scaling = span // bound
        past = bound * scaling
        while True:
            drawn = word()
            if drawn < past:
                return drawn // scaling

    size = len(values)
    if size < 2:
        return values
    if span // size < size:
        for position in range(1, size):
            other = below(position + 1)
            values[position], values[other] = values[other], values[position]
        return values
    position = 1
    if size % 2 == 0:  # an odd number of swaps is left: one first, then pairs
        other = below(2)
        values[1], values[other] = values[other], values[1]
        position = 2
    while position < size:
        bound = position + 1
        first, second = divmod(below(bound * (bound + 1)), bound + 1)
        values[position], values[first] = values[first], values[position]
        values[position + 1], values[second] = values[second], values[position + 1]
        position += 2
    return values


def _word_reader(words, minimum):
    """``word()``: the next output of a vectorised ``words(count)`` less the engine's ``minimum`` (buffered: the
    stream runs past what is read)."""
    buffer, position = [], [0]

    def word():
        if position[0] == len(buffer):
            buffer[:] = (words(1024) - np.uint64(minimum)).tolist()
            position[0] = 0
        position[0] += 1
        return buffer[position[0] - 1]
    return word


class NumberedDraws:
    """A stream owned by a Primitive, its draws numbered by a counter the Primitive keeps as lifted state:
    ``draw(index, method, count, *args)`` returns draw ``index``; asked again for a recent index (a recomputed
    forward pass, ``jax.checkpoint``), it returns the same values instead of advancing.

    Example:
        >>> draws = NumberedDraws(SeedPair(1, 2).minstd_stream())
        >>> bool((draws.draw(0, "units", 3) == draws.draw(0, "units", 3)).all())
        True
    """

    _KEPT = 8

    def __init__(self, stream):
        self._stream, self._next, self._recent = stream, 0, {}

    def draw(self, index, method, count, *args):
        index = int(index)
        if index in self._recent:
            return self._recent[index]
        if index != self._next:
            raise RuntimeError(f"seeded random stream: draw {index} asked for, but the stream stands at draw "
                               f"{self._next} (its counter was restored without the stream).")
        values = getattr(self._stream, method)(count, *args)
        self._recent = {kept: old for kept, old in self._recent.items() if kept > index - self._KEPT}
        self._recent[index] = values
        self._next += 1
        return values


_LCG_MODULUS = 2**31 - 1
_LCG_MULTIPLIER = 16807
_LCG_BLOCK = 4096
_LCG_POWERS = None


def _lcg_powers():
    """``16807**k mod (2**31 - 1)`` for k = 1 .. _LCG_BLOCK (uint64; a state times a power fits in 62 bits)."""
    global _LCG_POWERS
    if _LCG_POWERS is None:
        powers, value = [], 1
        for _ in range(_LCG_BLOCK):
            value = value * _LCG_MULTIPLIER % _LCG_MODULUS
            powers.append(value)
        _LCG_POWERS = np.array(powers, np.uint64)
    return _LCG_POWERS


@functools.cache
def _c_logf():
    """The C library's ``logf`` (what MindSpore's kernel calls), or None where it cannot be loaded; looked up at
    the first normal draw (``find_library`` runs ``ldconfig``: not at import)."""
    name = ctypes.util.find_library("m")
    if name is None:
        return None
    function = ctypes.CDLL(name).logf
    function.restype, function.argtypes = ctypes.c_float, [ctypes.c_float]
    return np.frompyfunc(function, 1, 1)


# ``provider()`` -> a function computing the C library's logf over a float32 array in C, or None: the ops layer
# registers the one it compiles (``ops.lowering.float_log``; core builds nothing), asked at the first large draw
_array_logf_provider = [None]
_ARRAY_LOGF_FROM = 4096  # below, logf per element through ctypes costs under ~15 ms: no compiler started


def use_array_logf(provider):
    """Register ``provider``, a function returning an array ``logf`` (or None) for the large normal draws."""
    _array_logf_provider[0] = provider


@functools.cache
def _array_logf():
    provider = _array_logf_provider[0]
    return None if provider is None else provider()


def _logf(values):
    """float32 ``logf`` of float32 ``values``: the C library's (over the array in C for a large draw, else per
    element through ctypes), else the float64 log rounded (1 ulp off at times)."""
    if values.size >= _ARRAY_LOGF_FROM and _array_logf() is not None:
        return _array_logf()(values)
    logf = _c_logf()
    if logf is None:
        return np.log(values.astype(np.float64)).astype(np.float32)
    return logf(values).astype(np.float32)


def _units(words):
    """Engine outputs (1 .. 2**31 - 2) -> float32 in [0, 1): ``float(x - 1) / float(2**31 - 2)``, the divisor
    rounding to 2**31, a quotient of 1 taken as the float below 1."""
    unit = (words - np.uint64(1)).astype(np.float32) / np.float32(2.0**31)
    return np.minimum(unit, np.nextafter(np.float32(1), np.float32(0)))


class MinstdStream:
    """``default_random_engine`` under libstdc++'s ``normal_distribution<float>`` (see the module doc)."""

    def __init__(self, seed):
        self._state = int(seed) % _LCG_MODULUS or 1

    def _words(self, count):
        """The next ``count`` engine outputs (1 .. 2**31 - 2) as uint64."""
        powers, out = _lcg_powers(), np.empty(count, np.uint64)
        for start in range(0, count, _LCG_BLOCK):
            size = min(_LCG_BLOCK, count - start)
            out[start:start + size] = np.uint64(self._state) * powers[:size] % np.uint64(_LCG_MODULUS)
            self._state = int(out[start + size - 1])
        return out

    def permutation(self, count):
        """``std::shuffle`` of ``0 .. count-1`` (int64); the stream is left past the words it buffered."""
        return np.array(gcc_shuffle(list(range(count)), _word_reader(self._words, 1),
                                    _LCG_MODULUS - 2), np.int64)

    def units(self, count):
        """The next ``count`` float32 uniforms in [0, 1) (libstdc++'s ``generate_canonical<float>``)."""
        return _units(self._words(count))

    def bernoulli(self, count, probability):
        """The next ``count`` draws of libstdc++'s ``bernoulli_distribution(probability)`` (bool): a
        ``generate_canonical<double>`` of two words ``(w0 - 1 + (w1 - 1) * r) / r**2`` (``r = 2**31 - 2``, in double)
        below ``probability``."""
        words = self._words(2 * count).astype(np.float64) - 1
        span = float(_LCG_MODULUS - 1)
        canonical = np.minimum((words[0::2] + words[1::2] * span) / (span * span), math.nextafter(1.0, 0.0))
        return canonical < probability

    def laplace(self, count):
        """The next ``count`` float32 samples of the standard Laplace distribution (StandardLaplace): a float
        uniform ``v`` in (-1, 1) (``u * 2 + nextafter(-1, 0)`` in float32), ``-sign(v) * log(1 - |v|)`` in double."""
        lowest = np.nextafter(np.float32(-1), np.float32(0))
        value = self.units(count) * np.float32(2) + lowest
        return (-np.copysign(1.0, value) * np.log(1.0 - np.abs(value.astype(np.float64)))).astype(np.float32)

    def normal(self, count):
        """The next ``count`` float32 samples of N(0, 1). An odd count drops the last pair's second value: the
        kernel builds its distribution afresh per launch, only the engine carries over."""
        out, needed = [], count
        while needed > 0:
            values = self._accepted((needed + 1) // 2).reshape(-1)
            out.append(values[:needed])
            needed -= min(needed, values.size)
        return np.concatenate(out) if out else np.zeros(0, np.float32)

    def _accepted(self, wanted):
        """Polar-method pairs ``(y * m, x * m)`` from the accepted candidate pairs, consuming the engine only up
        to the ``wanted``-th accepted pair (pi/4 of the candidates are accepted: draw a few more)."""
        candidates = int(wanted * 1.3) + 8
        saved_state = self._state
        unit = _units(self._words(2 * candidates))
        x, y = np.float32(2) * unit[0::2] - np.float32(1), np.float32(2) * unit[1::2] - np.float32(1)
        radius = x * x + y * y
        accepted = np.flatnonzero((radius <= 1) & (radius != 0))[:wanted]
        if accepted.size == wanted:  # rewind the engine to just after the last accepted pair
            self._state = saved_state
            self._words(2 * (int(accepted[-1]) + 1))
        x, y, radius = x[accepted], y[accepted], radius[accepted]
        log = _logf(radius)
        multiplier = np.sqrt(np.float32(-2) * log / radius)
        return np.stack([y * multiplier, x * multiplier], axis=1)


class TwisterStream:
    """``std::mt19937`` under libstdc++'s real and integer distributions (see the module doc)."""

    def __init__(self, seed):
        _, key, position = np.random.RandomState(int(seed) & _MASK32).get_state()[:3]
        self._bits = np.random.MT19937()
        self._bits.state = {"bit_generator": "MT19937", "state": {"key": key, "pos": position}}

    def words(self, count):
        """The next ``count`` 32-bit outputs, as uint64."""
        return self._bits.random_raw(count).astype(np.uint64)

    def permutation(self, count):
        """``std::shuffle`` of ``0 .. count-1`` (int64); the stream is left past the words it buffered."""
        return np.array(gcc_shuffle(list(range(count)), _word_reader(self.words, 0), _MASK32), np.int64)

    def uniform(self, count):
        """The next ``count`` float32 samples in [0, 1) (``uniform_real_distribution<double>(0, 1)``)."""
        words = self.words(2 * count).astype(np.float64)
        value = (words[0::2] + words[1::2] * 2.0**32) / 2.0**64
        return np.minimum(value, math.nextafter(1.0, 0.0)).astype(np.float32)

    def integers(self, count, low, high):
        """The next ``count`` int64 samples in [``low``, ``high``) (``uniform_int_distribution``)."""
        span = int(high) - int(low)
        scaling = _MASK32 // span
        past = span * scaling
        out = np.empty(0, np.uint64)
        while out.size < count:
            # rejection keeps a word with probability past / 2**32 >= 1/2: draw what that asks for, the
            # words after the last kept one are not consumed (the state is rewound and replayed)
            state = self._bits.state
            words = self.words(2 * (count - out.size) + 16)
            kept = np.flatnonzero(words < past)[:count - out.size]
            self._bits.state = state
            self.words(int(kept[-1]) + 1 if kept.size == count - out.size else words.size)
            out = np.concatenate([out, words[kept]])
        return (out // np.uint64(scaling)).astype(np.int64) + int(low)
