"""Float32/Float16 ``tanh`` and its gradient as MindSpore 2.10's CPU kernel computes them: a rational
approximation that passes 1 near +-5 (``tanh(5.0)`` is 1.0000098) and is +-1 beyond.

The literals were printed by MindSpore 2.10 CPU. The NumPy reference below (the [7/6] Pade approximant with
fused multiply-adds, +-1 beyond +-5; gradient ``dy * fma(-y, y, 1)``) equalled MindSpore's values on 240016
Float32 points in [-12, 12] and on 20000 random ones (forward and gradient, Float32 and Float16); an exact tanh
differed in 65% of them."""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn, ops

_X = [-6.0, -5.0, -4.9719, -2.5, -0.3, -0.0, 1e-30, 0.7, 1.9, 3.3, 4.99, 5.0, 5.001, 9.5, np.inf]


def test_recorded_float32_values_and_gradient():
    x = Tensor(np.array(_X, np.float32))
    forward = [-1.0, -1.0000097751617432, -1.0000001192092896, -0.986614465713501, -0.29131263494491577, -0.0,
               1.0000000031710769e-30, 0.6043677926063538, 0.9562374353408813, 0.9972853064537048, 1.0000064373016357,
               1.0000097751617432, 1.0, 1.0, 1.0]
    gradient = [0.0, -5.865126149728894e-05, -7.152557373046875e-07, 0.07977568358182907, 2.745410919189453, 3.0, 3.0,
                1.9042186737060547, 0.2568298876285553, 0.016266051679849625, -3.8623933505732566e-05,
                -5.865126149728894e-05, 0.0, 0.0, 0.0]
    for result in (ops.tanh(x), ops.Tanh()(x), nn.Tanh()(x), x.tanh(), ms.mint.tanh(x), ms.jit(ops.tanh)(x)):
        np.testing.assert_array_equal(result.asnumpy(), np.array(forward, np.float32))
    assert np.signbit(ops.tanh(x).asnumpy()[5])
    grads = ms.grad(lambda t: (ops.tanh(t) * 3).sum())(x)
    np.testing.assert_array_equal(grads.asnumpy(), np.array(gradient, np.float32))


def test_recorded_float16_values_and_gradient():
    h = Tensor(np.array([-3.7, 0.45, 2.2, 4.99], np.float16))
    np.testing.assert_array_equal(ops.tanh(h).asnumpy(), np.array([-0.9990234375, 0.421875, 0.9755859375, 1.0], np.float16))
    np.testing.assert_array_equal(ms.grad(lambda t: ops.tanh(t).sum())(h).asnumpy(),
                                  np.array([0.0019521713256835938, 0.822265625, 0.0482177734375, 0.0], np.float16))


def _fused(a, b, c):
    return (np.float64(a) * np.float64(b) + c).astype(np.float32)


def _reference(x):
    square = x * x
    numerator = _fused(_fused(square + np.float32(378), square, 17325), square, 135135) * x
    denominator = _fused(_fused(_fused(square, 28, 3150), square, 62370), square, 135135)
    return np.where(x > 5, np.float32(1), np.where(x < -5, np.float32(-1), numerator / denominator))


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_random_points_match_the_rational_kernel(dtype):
    rng = np.random.default_rng(5)
    x = (rng.standard_normal(5000) * 3).astype(dtype)
    cotangent = rng.standard_normal(5000).astype(dtype)
    y = _reference(x.astype(np.float32)).astype(dtype)
    wide = y.astype(np.float32)
    dx = (cotangent.astype(np.float32) * _fused(-wide, wide, 1)).astype(dtype)
    result, vjp = ms.vjp(ops.tanh, Tensor(x))
    np.testing.assert_array_equal(result.asnumpy(), y)
    np.testing.assert_array_equal(vjp(Tensor(cotangent))[0].asnumpy(), dx)
    if dtype == np.float32:
        assert (y != np.tanh(x.astype(np.float64)).astype(dtype)).mean() > 0.3  # not an exact tanh
