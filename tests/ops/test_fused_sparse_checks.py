"""FusedSparseFtrl input checks and values against MindSpore 2.10 (tests/fixtures/proxy/record_proxy.py)."""
import json
import os

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, ops

FIXTURE = json.load(open(os.path.join(os.path.dirname(__file__), "..", "fixtures", "proxy",
                                      "proxy.json")))["fused_sparse_ftrl"]


def run_case(case):
    ones, bad = np.ones([3, 3, 3], np.float32), np.ones([3, 2, 3], np.float32)
    var = ms.Parameter(Tensor(ones), name="var")
    accum = ms.Parameter(Tensor(bad if case == "accum" else ones), name="accum")
    linear = ms.Parameter(Tensor(bad if case == "linear" else ones), name="linear")
    grad = {"grad_rank": Tensor(3, ms.float32), "grad_shape": Tensor(bad),
            "grad_list": [Tensor(ones), Tensor(ones)]}.get(case, Tensor(ones))
    indices = {"indices_len": Tensor([0, 1], ms.int32), "indices_rank": Tensor(0, ms.int32),
               "indices_float": Tensor([0, 1, 2], ms.float32)}.get(case, Tensor([0, 1, 2], ms.int32))
    ops.FusedSparseFtrl(lr=0.001, l1=0.0, l2=0.0, lr_power=-0.5)(var, accum, linear, grad, indices)
    return var.asnumpy()


def test_fused_sparse_ftrl_values():
    np.testing.assert_allclose(run_case("ok"), FIXTURE["ok"], rtol=1e-6)


@pytest.mark.parametrize("case", [name for name in FIXTURE if name != "ok"])
def test_fused_sparse_ftrl_bad_input_error_type(case):
    with pytest.raises((TypeError, ValueError)) as info:
        run_case(case)
    assert type(info.value).__name__ == FIXTURE[case]
    assert "FusedSparseFtrl" in str(info.value)


def test_fused_sparse_ftrl_is_bit_exact():
    """MindSpore 2.10's kernel divides by ``lr``: var is float32(0.291479) exactly (XLA's rewrite of a division
    by a broadcast scalar into a multiplication by its reciprocal gave 0.29147896)."""
    assert (run_case("ok") == np.float32(0.291479)).all()


def test_apply_ftrl_is_bit_exact():
    """ApplyFtrl on MindSpore 2.10 (values recorded there, compared bit for bit)."""
    var = ms.Parameter(Tensor(np.ones([2, 3], np.float32)), name="var")
    accum = ms.Parameter(Tensor(np.full([2, 3], 0.5, np.float32)), name="accum")
    linear = ms.Parameter(Tensor(np.ones([2, 3], np.float32)), name="linear")
    grad = Tensor(np.array([[1, 2, 3], [0.5, -1, 0.25]], np.float32))
    ops.ApplyFtrl()(var, accum, linear, grad, 0.001, 0.0, 0.0, -0.5)
    expect_var = np.array([[0.42101675271987915, 0.6652524471282959, 0.7692865133285522],
                           [0.18177136778831482, 0.4226497709751129, 0.0555243119597435]], np.float32)
    expect_linear = np.array([[-515.6381225585938, -1411.21337890625, -2371.10009765625],
                              [-157.41860961914062, -517.6381225585938, -41.64323043823242]], np.float32)
    np.testing.assert_array_equal(var.asnumpy(), expect_var)
    np.testing.assert_array_equal(linear.asnumpy(), expect_linear)
