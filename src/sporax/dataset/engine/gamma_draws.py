"""GCC's ``std::gamma_distribution<float>`` over ``std::mt19937`` words, as MindSpore 2.10's C++ kernels draw it.

MindSpore's MixUpBatch and CutMixBatch draw a Beta(alpha, alpha) weight as ``x1 / (x1 + x2)`` of two
``std::gamma_distribution<float>(alpha, 1)`` draws. libstdc++ implements it as Marsaglia and Tsang's
method over a ``std::normal_distribution<float>`` (Marsaglia's polar method, which caches its
second value for the next call) and ``generate_canonical<float, 24>`` (one word each). Reproducing
the draws exactly needs float32 arithmetic where GCC's code has float operands and double where a
double literal promotes them, and the C library's ``logf``/``powf`` (the kernel calls them).

Interface::

    gamma = Gamma(alpha)             # one distribution object (its normal keeps a cached value)
    gamma(words)                     # one float32 draw from TwisterWords-like ``words``
    beta_draw(first, second, words)  # x1 / (x1 + x2) in float32, x1 from ``first``, x2 from ``second``
"""
import ctypes
import ctypes.util

import numpy as np

_float = np.float32


def _c_math():
    """The C library's float ``logf``/``powf`` (what GCC's ``std::log``/``std::pow`` of floats call),
    or NumPy's float32 versions where no C math library loads."""
    name = ctypes.util.find_library("m")
    try:
        library = ctypes.CDLL(name)
        log, power = library.logf, library.powf
    except (OSError, TypeError, AttributeError):
        return (lambda value: np.log(_float(value))), (lambda base, exponent: np.power(_float(base), _float(exponent)))
    log.restype, log.argtypes = ctypes.c_float, [ctypes.c_float]
    power.restype, power.argtypes = ctypes.c_float, [ctypes.c_float, ctypes.c_float]
    return (lambda value: _float(log(float(value)))), (lambda base, exponent: _float(power(float(base),
                                                                                            float(exponent))))


_logf, _powf = _c_math()
_TWO_TO_32 = _float(2.0 ** 32)
_BELOW_ONE = np.nextafter(_float(1.0), _float(0.0))
_FLOAT_MAX = np.finfo(np.float32).max


def canonical_float(words):
    """GCC's ``generate_canonical<float, 24>`` over one 32-bit word: a float32 in [0, 1)."""
    value = _float(words()) / _TWO_TO_32
    return value if value < 1.0 else _BELOW_ONE


class Normal:
    """GCC's ``std::normal_distribution<float>(0, 1)``: the polar method, its second value kept for
    the next call (so a fresh object per kernel call matters, as in MindSpore)."""

    def __init__(self):
        self.saved = None

    def __call__(self, words):
        if self.saved is not None:
            value, self.saved = self.saved, None
            return value
        while True:
            # 2.0f * u - 1.0 is a double subtraction stored in a float: exact either way.
            x = _float(2.0 * float(canonical_float(words)) - 1.0)
            y = _float(2.0 * float(canonical_float(words)) - 1.0)
            radius = x * x + y * y
            if not (radius > 1.0 or radius == 0.0):
                break
        multiplier = np.sqrt(_float(-2) * _logf(radius) / radius)
        self.saved = x * multiplier
        return y * multiplier


class Gamma:
    """GCC's ``std::gamma_distribution<float>(alpha, 1)`` (Marsaglia-Tsang; alpha < 1 boosted by
    ``u ** (1 / alpha)``).

    Args:
        alpha (float): the shape (> 0), taken as a float32 like MindSpore's kernels.
    """

    def __init__(self, alpha):
        self.alpha = _float(alpha)
        self.boosted = self.alpha + _float(1.0) if self.alpha < 1.0 else self.alpha
        self.shifted = self.boosted - _float(1.0) / _float(3.0)
        self.scale = _float(1.0) / np.sqrt(_float(9.0) * self.shifted)
        self.normal = Normal()

    def __call__(self, words):
        shifted = self.shifted
        while True:
            while True:
                normal = self.normal(words)
                cube = _float(1.0) + self.scale * normal
                if cube > 0.0:
                    break
            cube = cube * cube * cube
            uniform = canonical_float(words)
            n = float(normal)
            # The squeeze test and the log test compare in double (GCC's double literals promote them).
            if not (float(uniform) > 1.0 - 0.0331 * n * n * n * n and float(_logf(uniform)) > (
                    0.5 * n * n + float(shifted) * (1.0 - float(cube) + float(_logf(cube))))):
                break
        if self.alpha == self.boosted:
            return shifted * cube
        uniform = canonical_float(words)
        while uniform == 0.0:
            uniform = canonical_float(words)
        return _powf(uniform, _float(1.0) / self.alpha) * shifted * cube


def beta_draw(first, second, words):
    """A Beta(alpha, alpha) float32 draw as MindSpore's kernels make it: ``x1 / (x1 + x2)`` of two
    separate Gamma objects (each keeps its own cached normal), redrawn while the sum would overflow."""
    while True:
        x1, x2 = first(words), second(words)
        if not x2 > _FLOAT_MAX - x1:
            return x1 / (x1 + x2)

