"""Means and average pools divide once, as MindSpore 2.10's CPU kernels do.

XLA rewrites a division by a constant into a multiplication by the rounded reciprocal, one ulp off the
quotient (127 / 9: 14.111112 instead of 14.111111). Expected values recorded from MindSpore 2.10 (they
equal NumPy's float32 division)."""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, context, nn, ops
from sporax.ops import composite as C

ROWS = np.array([[14, -15, -16], [20, 21, 22], [26, 27, 28]], np.float32)
IMAGE = np.array([[[[0, 1, 2, 3, -4, -5], [6, 7, 8, 9, -10, -11], [12, 13, 14, -15, -16, -17],
                    [18, 19, 20, 21, 22, 23], [24, 25, 26, 27, 28, 29], [30, 31, 32, 33, 34, 35]]]], np.float32)


class _Means(nn.Cell):
    def construct(self, x):
        return ops.mean(x), x.mean(), ops.ReduceMean()(x, 1)


class _AvgPoolSame(nn.Cell):
    def __init__(self):
        super().__init__()
        self.pool = ops.AvgPool(kernel_size=3, strides=2, pad_mode="SAME")

    def construct(self, x):
        return self.pool(x)


@pytest.mark.parametrize("mode", [context.PYNATIVE_MODE, context.GRAPH_MODE])
def test_mean_is_the_quotient_rounded_once(mode):
    context.set_context(mode=mode)
    try:
        whole, method, rows = _Means()(Tensor(ROWS))
    finally:
        context.set_context(mode=context.PYNATIVE_MODE)
    # MindSpore 2.10: 14.111111 (127 / 9) and [-5.6666665, 21, 27] (-17 / 3 ...), NumPy's float32 quotients
    assert whole.asnumpy() == np.float32(127) / np.float32(9) == np.float32(14.111111)
    assert method.asnumpy() == np.float32(14.111111)
    np.testing.assert_array_equal(rows.asnumpy(), np.array([-5.6666665, 21.0, 27.0], np.float32))


@pytest.mark.parametrize("mode", [context.PYNATIVE_MODE, context.GRAPH_MODE])
def test_avg_pool_same_forward_and_gradient_match_mindspore(mode):
    context.set_context(mode=mode)
    try:
        net = _AvgPoolSame()
        out = net(Tensor(IMAGE))
        sens = Tensor(np.arange(1, 10, dtype=np.float32).reshape(1, 1, 3, 3))
        grad = C.GradOperation(get_all=True, sens_param=True)(net)(Tensor(IMAGE), sens)[0]
    finally:
        context.set_context(mode=context.PYNATIVE_MODE)
    # recorded from MindSpore 2.10 (exact equality, as its own system test checks)
    np.testing.assert_array_equal(out.asnumpy(), np.array(
        [[[[7.0, -1.0, -10.5], [19.0, 14.111111, 11.5], [28.0, 30.0, 31.5]]]], np.float32))
    np.testing.assert_array_equal(grad.asnumpy()[0, 0, 4:], np.array(
        [[1.611111, 1.611111, 3.5, 1.888889, 5.138889, 3.25],
         [1.1666666, 1.1666666, 2.5, 1.3333334, 3.5833335, 2.25]], np.float32))


def test_float16_mean_keeps_its_dtype():
    out = ops.mean(Tensor(np.array([1.0, 2.0, 4.0], np.float16)))
    assert out.dtype == ms.float16 and out.asnumpy() == np.float16(7 / 3)


class _Spreads(nn.Cell):
    def construct(self, x):
        return ops.std_mean(x, ddof=False, keepdims=False) + (ops.var(x), ops.std(x, axis=1, ddof=1))


@pytest.mark.parametrize("mode", [context.PYNATIVE_MODE, context.GRAPH_MODE])
def test_variance_and_std_divide_once(mode):
    # MindSpore 2.10 (tests/st/ops/cpu reduce_std: compared with ==): std 6.3126855 (XLA's reciprocal
    # multiply gives 6.312686), mean 5.5, var 39.85 (not 39.850002); per-row std with ddof=1 as NumPy's
    x = np.array([8., -3., 0., 10, 1., 21., 3, 4, 5, 6], np.float32).reshape(2, 5)
    context.set_context(mode=mode)
    try:
        std, mean_, var_, row_std = _Spreads()(Tensor(x))
    finally:
        context.set_context(mode=context.PYNATIVE_MODE)
    assert std.asnumpy() == np.float32(6.3126855) == np.std(x)
    assert mean_.asnumpy() == np.float32(5.5) and var_.asnumpy() == np.float32(39.85) == np.var(x)
    np.testing.assert_array_equal(row_std.asnumpy(), np.std(x, axis=1, ddof=1))
