"""Float floor division, ``remainder``/``floor_mod`` and ``fmod`` as MindSpore 2.10's CPU kernels compute them.

Recorded on MindSpore 2.10 CPU: FloorDiv floors the quotient taken in the next wider dtype (``1 // 0.1`` is 9,
``inf // 2`` inf); FloorMod is ``x - q * y`` with that quotient and a rounded product; Mod (``ops.fmod``) is
``x - trunc(x / y) * y`` in the operands' dtype. So a zero remainder is 0.0, never -0.0, and a remainder by an
infinity is NaN. On 20000 random pairs per dtype (Float16, Float32, Float64) MindSpore's values equalled these
formulas in NumPy exactly, which the random test below uses as its reference."""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, ops


def _bits(array):
    return np.asarray(array).tolist(), np.signbit(array).astype(int).tolist()


_X = [-4.0, 4.0, -3.0, 3.0, 0.0, -0.0, 6.0, -6.0, 2.5, -2.5]
_Y = [2.0, -2.0, 3.0, -3.0, 2.0, -2.0, -3.0, 3.0, -2.5, 2.5]


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_zero_remainders_are_positive_and_floor_quotients_keep_the_quotient_sign(dtype):
    x, y = Tensor(np.array(_X, dtype)), Tensor(np.array(_Y, dtype))
    zeros = ([0.0] * 10, [0] * 10)
    for remainder in (ops.remainder(x, y), ops.fmod(x, y), ops.floor_mod(x, y), ops.FloorMod()(x, y), ops.Mod()(x, y),
                      x % y, ms.mint.remainder(x, y), ms.mint.fmod(x, y)):
        assert _bits(remainder.asnumpy()) == zeros
    quotient = ([-2.0, -2.0, -1.0, -1.0, 0.0, 0.0, -2.0, -2.0, -1.0, -1.0], [1, 1, 1, 1, 0, 0, 1, 1, 1, 1])
    for floor in (x // y, ops.floor_divide(x, y), ops.FloorDiv()(x, y), ops.div(x, y, rounding_mode="floor")):
        assert _bits(floor.asnumpy()) == quotient


def test_infinite_and_zero_operands():
    x = Tensor(np.array([0.0, 0.0, -0.0, -0.0, 1.0, -1.0, 1.0, -1.0, 0.5, -0.5, np.inf, 3.0], np.float32))
    y = Tensor(np.array([2.0, -2.0, 2.0, -2.0, np.inf, np.inf, -np.inf, -np.inf, 3.0, -3.0, 2.0, 0.0], np.float32))
    assert _bits((x // y).asnumpy()) == ([0.0, -0.0, -0.0, 0.0, 0.0, -0.0, -0.0, 0.0, 0.0, 0.0, np.inf, np.inf],
                                         [0, 1, 1, 0, 0, 1, 1, 0, 0, 0, 0, 0])
    nan = float("nan")
    for remainder in (ops.remainder(x, y), ops.fmod(x, y)):
        values = remainder.asnumpy()
        np.testing.assert_array_equal(values, [0.0, 0.0, 0.0, 0.0, nan, nan, nan, nan, 0.5, -0.5, nan, nan])
        assert not np.signbit(values[:4]).any()
    # TruncateMod is C's fmod: the dividend's signed zero, and the dividend itself beside an infinity
    assert _bits(ops.truncate_mod(x, y).asnumpy()[:8]) == ([0.0, 0.0, -0.0, -0.0, 1.0, -1.0, 1.0, -1.0],
                                                           [0, 0, 1, 1, 0, 1, 0, 1])


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_recorded_float32_and_float16_values(mode):
    """Every value below was printed by MindSpore 2.10 CPU on the same operands."""
    ms.set_context(mode=mode)
    try:
        x = Tensor(np.array([1.0, 1.0, 7.0, 3.6159506, 1e8, -1e8, 2.2019513e02], np.float32))
        y = Tensor(np.array([0.1, 0.2, 0.7, -0.49372283, 3.0, 3.0, 1.4611363e-04], np.float32))
        expected = {
            "fd": [9.0, 4.0, 10.0, -8.0, 33333332.0, -33333334.0, 1507012.0],
            "rem": [0.09999996423721313, 0.19999998807907104, 0.0, -0.3338320255279541, 0.0, 0.0, 0.0001373291015625],
            "fmod": [0.0, 0.0, 0.0, 0.15989089012145996, 0.0, 0.0, 0.0],
            "rem_s": [0.09999996423721313, 0.09999996423721313, 0.09999990463256836, 0.015950441360473633, 0.0, 0.0,
                      0.2951202392578125],
            "fd_s": [3.0, 3.0, 23.0, 12.0, 333333312.0, -333333312.0, 733.0],
        }
        got = {"fd": x // y, "rem": ops.remainder(x, y), "fmod": ops.fmod(x, y), "rem_s": ops.remainder(x, 0.3),
               "fd_s": x // 0.3}
        for name, values in expected.items():
            np.testing.assert_array_equal(got[name].asnumpy(), np.array(values, np.float32), err_msg=name)
        np.testing.assert_array_equal(ops.fmod(x, 0.3).asnumpy(), np.array(expected["rem_s"], np.float32))
        h = Tensor(np.array([1.0, 7.0, 3.6159506, 1000.0, -100.0], np.float16))
        k = Tensor(np.array([0.1, 0.7, -0.49372283, 3.0, 3.0], np.float16))
        np.testing.assert_array_equal((h // k).asnumpy(), np.array([10.0, 9.0, -8.0, 333.0, -34.0], np.float16))
        np.testing.assert_array_equal(ops.remainder(h, k).asnumpy(),
                                      np.array([0.0, 0.69921875, -0.333984375, 1.0, 2.0], np.float16))
        np.testing.assert_array_equal(ops.fmod(h, k).asnumpy(), np.array([0.0, 0.0, 0.16015625, 1.0, -1.0], np.float16))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


@pytest.mark.parametrize("dtype, wide", [(np.float16, np.float32), (np.float32, np.float64), (np.float64, np.float64)])
def test_random_operands_match_the_kernels_formulas(dtype, wide):
    rng = np.random.default_rng(7)
    x = (rng.standard_normal(4000) * 10.0 ** rng.integers(-3, 4, 4000)).astype(dtype)
    y = (rng.standard_normal(4000) * 10.0 ** rng.integers(-3, 3, 4000)).astype(dtype)
    with np.errstate(all="ignore"):
        quotient = np.floor(x.astype(wide) / y.astype(wide)).astype(dtype)
        remainder = x - quotient * y  # NumPy rounds the product, then the difference, in ``dtype``
        truncated = x - np.trunc(x / y) * y
    np.testing.assert_array_equal((Tensor(x) // Tensor(y)).asnumpy(), quotient)
    np.testing.assert_array_equal(ops.remainder(Tensor(x), Tensor(y)).asnumpy(), remainder)
    np.testing.assert_array_equal(ops.fmod(Tensor(x), Tensor(y)).asnumpy(), truncated)
    # the fused multiply-add XLA would emit differs from the rounded product somewhere in these
    assert (remainder != (x.astype(np.float64) - quotient.astype(np.float64) * y).astype(dtype)).any() or dtype == np.float64
