"""Ops at zeros, infinities and negative inputs, against MindSpore 2.10's recorded CPU results."""
import numpy as np

import sporax as ms
from sporax import Tensor, mint, ops

NAN, INF = float("nan"), float("inf")


def test_xlogy_is_the_plain_product_nan_at_zero_times_log_zero():
    x = Tensor([0.0, 0.0, 1.0, 2.0, 0.0])
    y = Tensor([0.0, INF, 0.0, -1.0, 1.0])
    recorded = [NAN, NAN, -INF, NAN, 0.0]  # MindSpore 2.10 CPU, ops.xlogy
    for result in (ops.xlogy(x, y), mint.xlogy(x, y), x.xlogy(y), ops.Xlogy()(x, y)):
        np.testing.assert_array_equal(result.asnumpy(), np.array(recorded, np.float32))
    float64 = ops.xlogy(Tensor([0.0], ms.float64), Tensor([0.0], ms.float64))
    assert float64.dtype == ms.float64 and np.isnan(float64.asnumpy()[0])


def test_xlogy_gradient_matches_mindspore():
    grads = ops.grad(lambda a, b: ops.xlogy(a, b).sum(), (0, 1))(Tensor([0.0, 2.0]), Tensor([1.0, 3.0]))
    np.testing.assert_allclose(grads[0].asnumpy(), [0.0, 1.0986123], rtol=1e-6)  # MindSpore 2.10
    np.testing.assert_allclose(grads[1].asnumpy(), [0.0, 0.6666667], rtol=1e-6)


def test_xdivy_stays_zero_where_x_is_zero():
    result = ops.xdivy(Tensor([0.0, 1.0, 0.0]), Tensor([0.0, 0.0, 2.0]))
    np.testing.assert_array_equal(result.asnumpy(), [0.0, INF, 0.0])  # MindSpore 2.10 CPU


def test_copysign_takes_the_sign_of_other_below_zero():
    # MindSpore 2.10: a -0.0 or -NaN `other` gives a positive result; a +0.0 `x` with a negative `other` gives -0.0
    x = Tensor(np.array([1.0, -1.0, 2.0, -2.0, 3.0, 0.0], np.float32))
    other = Tensor(np.array([-0.0, 0.0, -np.nan, np.nan, -np.inf, -1.0], np.float32))
    out = ops.copysign(x, other).asnumpy()
    np.testing.assert_array_equal(out, [1.0, 1.0, 2.0, 2.0, -3.0, -0.0])
    assert np.signbit(out[-1])
    np.testing.assert_array_equal(ops.copysign(Tensor(np.array([1, -2], np.int32)), -0.0).asnumpy(), [1.0, 2.0])
