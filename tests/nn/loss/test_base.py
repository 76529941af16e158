"""``nn.LossBase.get_loss``: the reductions, valued as MindSpore 2.10 values them (recorded from it)."""
import numpy as np

import sporax as ms
from sporax import nn, ops


class _AbsoluteError(nn.LossBase):
    def construct(self, base, target):
        return self.get_loss(ops.abs(base - target))


class _Weighted(nn.LossBase):
    def construct(self, x, weights):
        return self.get_loss(x, weights)


def test_mean_divides_rather_than_multiplying_by_a_rounded_reciprocal():
    # |[0.1, 0.2, 0.3] - [0.1, 0.2, 0.2]| sums to 0.10000000894 in Float32; / 3 rounds to 0.033333335 in
    # MindSpore 2.10, where a multiplication by float32(1/3) gives 0.03333334 (one ulp above).
    base = ms.Tensor(np.array([0.1, 0.2, 0.3], np.float32))
    target = ms.Tensor(np.array([0.1, 0.2, 0.2], np.float32))
    out = _AbsoluteError()(base, target)
    assert out.dtype == ms.float32
    assert out.asnumpy().item() == 0.03333333507180214


def test_weighted_reductions_and_float16_input_match_mindspore():
    x = ms.Tensor(np.array([[0.5, 0.25, 1.0], [0.75, 2.0, 0.125]], np.float32))
    weights = ms.Tensor(np.array([[1.0], [3.0]], np.float32))
    assert _Weighted()(x, weights).asnumpy().item() == 1.7291666269302368
    assert _Weighted("sum")(x, weights).asnumpy().item() == 10.375
    assert _Weighted("none")(x, weights).asnumpy().tolist() == [[0.5, 0.25, 1.0], [2.25, 6.0, 0.375]]
    half = ms.Tensor(np.array([0.1, 0.2, 0.4], np.float16))
    out = _AbsoluteError()(half, half * 0)
    assert out.dtype == ms.float16 and out.asnumpy().item() == 0.2332763671875


def test_python_weight_and_pynative_gradient_that_reads_values():
    # A Python weight other than 1 scales in Float32, as a Tensor weight does.
    x = ms.Tensor(np.array([0.1, 0.2, 0.7], np.float32))
    assert _Weighted()(x, 0.1).asnumpy().item() == _Weighted()(x, ms.Tensor(np.float32(0.1))).asnumpy().item()
    # A function that reads a value on the host runs op by op in PyNative (its Python sees real values);
    # its loss and gradient are those of the compiled gradient, bit for bit.
    ms.set_context(mode=ms.PYNATIVE_MODE)
    loss_fn = nn.MSELoss()
    target = ms.Tensor(np.array([0.5, -0.25, 1.5], np.float32))
    seen = []

    def reading(w):
        loss = loss_fn(w * w, target)
        seen.append(loss.asnumpy().item())
        return loss

    w = ms.Tensor(np.array([0.3, -1.1, 2.0], np.float32))
    eager = ms.value_and_grad(reading)(w)
    compiled = ms.value_and_grad(lambda v: loss_fn(v * v, target))(w)
    assert seen == [eager[0].asnumpy().item()]
    for a, b in zip(eager, compiled):
        np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())
    # d/dw mean((w^2 - t)^2) = 4 w (w^2 - t) / 3
    expected = 4 * w.asnumpy() * (w.asnumpy() ** 2 - target.asnumpy()) / 3
    np.testing.assert_allclose(eager[1].asnumpy(), expected, rtol=1e-6)
