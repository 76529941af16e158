"""ReLU and ReLU6 gradients at the kinks, as MindSpore 2.10's ReluGrad/ReLU6Grad give them.

Expected values were read from real MindSpore 2.10 (CPU, PyNative): ``ms.grad`` of
``ops.relu(x).sum()`` at x = [-1, 0, 2] is [0, 0, 1]; of ``ops.relu6(x).sum()`` at x = [0, 6, 3]
is [0, 1, 1] (the kink at 6 passes the gradient, the one at 0 does not). At
x = [nan, -1, 0, 2, inf, -inf] ``ops.relu`` gives [0, 0, 0, 2, inf, 0] (NaN becomes 0, Float32 and Float16,
PyNative and ``ms.jit``) and the gradient of ``(ops.relu(x) * 3).sum()`` is [0, 0, 0, 3, 3, 0]; with 7 and 6
appended, ``ops.relu6`` gives [0, 0, 0, 2, 6, 0, 6, 6] and its gradient [0, 0, 0, 3, 0, 0, 0, 3].
"""
import numpy as np
import pytest

import sporax as ms
from sporax import nn, ops

RELU_AT = np.array([-1.0, 0.0, 2.0], np.float32)
RELU6_AT = np.array([0.0, 6.0, 3.0, 7.0], np.float32)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
@pytest.mark.parametrize("relu", [ops.relu, nn.ReLU(), ops.ReLU()], ids=["ops.relu", "nn.ReLU", "ops.ReLU"])
def test_relu_gradient_is_zero_at_zero(mode, relu):
    ms.set_context(mode=mode)
    try:
        grad = ms.jit(ms.grad(lambda x: relu(x).sum())) if mode == ms.GRAPH_MODE else ms.grad(lambda x: relu(x).sum())
        np.testing.assert_array_equal(grad(ms.Tensor(RELU_AT)).asnumpy(), [0.0, 0.0, 1.0])
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


@pytest.mark.parametrize("relu6", [ops.relu6, nn.ReLU6()], ids=["ops.relu6", "nn.ReLU6"])
def test_relu6_gradient_passes_at_six_not_at_zero(relu6):
    grad = ms.grad(lambda x: relu6(x).sum())(ms.Tensor(RELU6_AT))
    np.testing.assert_array_equal(grad.asnumpy(), [0.0, 1.0, 1.0, 0.0])


def test_relu_keeps_integer_dtype_and_values():
    out = ops.relu(ms.Tensor(np.array([-3, 0, 4], np.int32)))
    assert out.dtype == ms.int32
    np.testing.assert_array_equal(out.asnumpy(), [0, 0, 4])


def test_relu_gradient_matches_finite_differences_away_from_zero():
    x = np.array([-1.5, -0.2, 0.3, 2.0], np.float32)
    grad = ms.grad(lambda t: (ops.relu(t) ** 2).sum())(ms.Tensor(x)).asnumpy()
    np.testing.assert_allclose(grad, 2 * np.maximum(x, 0) * (x > 0), rtol=1e-6)


NON_FINITE = np.array([np.nan, -1.0, 0.0, 2.0, np.inf, -np.inf], np.float32)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
@pytest.mark.parametrize("dtype", [ms.float32, ms.float16], ids=["float32", "float16"])
def test_relu_and_relu6_map_nan_to_zero(mode, dtype):
    # MindSpore's kernel is `x > 0 ? x : 0`: a network whose weights went NaN (an fp16 step that overflowed
    # with drop_overflow_update=False) keeps a finite loss on MindSpore, so it must here too
    ms.set_context(mode=mode)
    try:
        def forward(x):
            return ops.relu(x)

        def loss(x):
            return (ops.relu(x) * 3).sum()

        run, grad = (ms.jit(forward), ms.jit(ms.grad(loss))) if mode == ms.GRAPH_MODE else (forward, ms.grad(loss))
        x = ms.Tensor(NON_FINITE, dtype)
        np.testing.assert_array_equal(run(x).asnumpy(), [0.0, 0.0, 0.0, 2.0, np.inf, 0.0])
        np.testing.assert_array_equal(nn.ReLU()(x).asnumpy(), [0.0, 0.0, 0.0, 2.0, np.inf, 0.0])
        np.testing.assert_array_equal(grad(x).asnumpy(), [0.0, 0.0, 0.0, 3.0, 3.0, 0.0])
        wide = ms.Tensor(np.append(NON_FINITE, [7.0, 6.0]), dtype)
        np.testing.assert_array_equal(nn.ReLU6()(wide).asnumpy(), [0.0, 0.0, 0.0, 2.0, 6.0, 0.0, 6.0, 6.0])
        np.testing.assert_array_equal(ms.grad(lambda t: (ops.relu6(t) * 3).sum())(wide).asnumpy(),
                                      [0.0, 0.0, 0.0, 3.0, 0.0, 0.0, 0.0, 3.0])
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
