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
