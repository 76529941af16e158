"""ops.coo_concat against outputs recorded from MindSpore 2.10 (tests/fixtures/msst2/record_coo_concat.py),
and its error types."""
import json
import os

import numpy as np
import pytest

from sporax import COOTensor, Tensor, ops

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "msst2", "coo_concat.json")
CASES = json.load(open(FIXTURE))


def _coos(inputs, values_dtype=np.float32):
    return [COOTensor(Tensor(np.array(i, np.int64)), Tensor(np.array(v, values_dtype)), tuple(s))
            for i, v, s in inputs]


@pytest.mark.parametrize("case", CASES, ids=[f"dim{case['concat_dim']}-{len(case['inputs'])}" for case in CASES])
def test_coo_concat_matches_mindspore(case):
    out = ops.coo_concat(_coos(case["inputs"]), case["concat_dim"])
    np.testing.assert_array_equal(out.indices.asnumpy(), np.array(case["indices"], np.int64))
    np.testing.assert_array_equal(out.values.asnumpy(), np.array(case["values"], np.float32))
    assert list(out.shape) == case["shape"]


@pytest.mark.parametrize("inputs, dim, error", [
    (CASES[0]["inputs"], 2, IndexError),
    (CASES[0]["inputs"], -1.0, TypeError),
    (CASES[0]["inputs"][:1], 1, ValueError),
    ([CASES[0]["inputs"][0], [[[0, 0]], [1.0], [4, 4]]], 1, RuntimeError),
])
def test_coo_concat_errors(inputs, dim, error):
    with pytest.raises(error, match="coo_concat"):
        ops.coo_concat(_coos(inputs), dim)
