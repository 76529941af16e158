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
