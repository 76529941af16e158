"""nn.MatMul against outputs recorded from MindSpore 2.10 (tests/fixtures/msst2/record_nn_matmul.py):
vectors, broadcast batch dimensions, both transposes; mixed dtypes raise TypeError as MindSpore does."""
import json
import os

import numpy as np
import pytest

from sporax import Tensor, nn

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "msst2", "nn_matmul.json")
CASES = json.load(open(FIXTURE))


@pytest.mark.parametrize("case", CASES, ids=[f"case{i}" for i in range(len(CASES))])
def test_nn_matmul_matches_mindspore(case):
    out = nn.MatMul(case["transpose_x1"], case["transpose_x2"])(Tensor(np.array(case["x1"], np.float32)),
                                                                 Tensor(np.array(case["x2"], np.float32)))
    np.testing.assert_allclose(out.asnumpy(), np.array(case["expect"], np.float32), rtol=1e-5, atol=1e-5)


def test_nn_matmul_rejects_mixed_dtypes():
    with pytest.raises(TypeError, match="MatMul"):
        nn.MatMul()(Tensor(np.ones((2, 3), np.int32)), Tensor(np.ones((3, 2), np.float32)))
