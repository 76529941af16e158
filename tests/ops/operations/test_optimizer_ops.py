"""Optimizer-update Primitives against MindSpore 2.10's recorded outputs."""
import numpy as np

from sporax import Parameter, Tensor, ops

START = np.array([0.59021956, 0.6402413, 0.26803252])


def test_apply_adagrad_v2_on_float64_computes_in_float32_as_mindspore():
    # MindSpore 2.10 (CPU) outputs for var = accum = START, lr = 0.1, grad = [0, 1, 2], epsilon = 1e-6:
    # float64 Tensors holding float32-rounded values (it has no float64 kernel).
    var, accum = Parameter(START.copy(), name="var"), Parameter(START.copy(), name="accum")
    new_var, new_accum = ops.ApplyAdagradV2(1e-6)(var, accum, Tensor(0.1, np.float64), Tensor(np.arange(3.0)))
    assert new_var.asnumpy().dtype == np.float64 and new_accum.asnumpy().dtype == np.float64
    np.testing.assert_array_equal(new_var.asnumpy(), [0.5902195572853088, 0.5621602535247803, 0.1712234765291214])
    np.testing.assert_array_equal(new_accum.asnumpy(), [0.5902195572853088, 1.6402413845062256, 4.268032550811768])


def test_apply_adagrad_v2_keeps_float32_math_on_float32():
    var = Parameter(START.astype(np.float32), name="var")
    accum = Parameter(START.astype(np.float32), name="accum")
    gradient = np.arange(3.0, dtype=np.float32)
    new_var, _ = ops.ApplyAdagradV2(1e-6)(var, accum, 0.1, Tensor(gradient))
    expected_accum = START.astype(np.float32) + gradient * gradient
    expected = START.astype(np.float32) - np.float32(0.1) * gradient / (np.sqrt(expected_accum) + np.float32(1e-6))
    assert new_var.asnumpy().dtype == np.float32
    np.testing.assert_allclose(new_var.asnumpy(), expected, rtol=1e-6)
