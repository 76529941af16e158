"""Float32 sums and means over every axis round as MindSpore 2.10's CPU kernels do (one rounding of the exact
sum), so the losses a script prints carry MindSpore's last digit.

The values were recorded on MindSpore 2.10 (CPU) from the NumPy data below; XLA's Float32 running sum differed in
the last one or two digits of each (e.g. 271.99948 for the 16x16 sum, 2.5786262 for the L1 loss).
"""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn, ops

_RS = np.random.RandomState(3)
A = (_RS.randn(16, 16) * 3 + 1).astype(np.float32)
X = (_RS.randn(8, 33) * 3).astype(np.float32)
Y = _RS.randn(8, 33).astype(np.float32)

RECORDED = {  # MindSpore 2.10, repr(float(...))
    "ops.sum": 271.9994201660156,
    "Tensor.mean": 1.0624977350234985,
    "MSELoss": 10.16667652130127,
    "L1Loss": 2.5786259174346924,
    "mse_loss(sum)": 2684.002685546875,
}


def _values():
    return {
        "ops.sum": ops.sum(Tensor(A)),
        "Tensor.mean": Tensor(A).mean(),
        "MSELoss": nn.MSELoss()(Tensor(X), Tensor(Y)),
        "L1Loss": nn.L1Loss()(Tensor(X), Tensor(Y)),
        "mse_loss(sum)": ops.mse_loss(Tensor(X), Tensor(Y), "sum"),
    }


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_float32_full_reductions_equal_mindspores_rounding(name):
    value = _values()[name]
    assert value.dtype == ms.float32
    assert float(value.asnumpy()) == RECORDED[name]


def test_same_rounding_inside_a_compiled_function():
    @ms.jit
    def total_and_mean(a):
        return a.sum(), ops.mean(a), ops.ReduceSum()(a, (0, 1))

    total, mean, explicit_axes = total_and_mean(Tensor(A))
    assert float(total.asnumpy()) == float(explicit_axes.asnumpy()) == RECORDED["ops.sum"]
    assert float(mean.asnumpy()) == RECORDED["Tensor.mean"]


def test_partial_reductions_and_float16_keep_their_dtypes():
    assert ops.sum(Tensor(A), 1).dtype == ms.float32
    half = Tensor(A.astype(np.float16))
    assert half.sum().dtype == ms.float16 and half.mean().dtype == ms.float16
    np.testing.assert_allclose(half.sum().asnumpy(), A.astype(np.float16).astype(np.float64).sum(), rtol=1e-3)


def test_sums_past_a_million_elements_stay_in_float32():
    big = np.full((1 << 20) + 1, 0.1, np.float32)
    total = Tensor(big).sum()
    assert total.dtype == ms.float32
    np.testing.assert_allclose(float(total.asnumpy()), big.size * 0.1, rtol=1e-4)
