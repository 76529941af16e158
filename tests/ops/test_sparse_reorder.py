"""SparseReorder against outputs recorded from MindSpore 2.10 (tests/fixtures/msst2/record_sparse_reorder.py)."""
import json
import os

import numpy as np
import pytest

from sporax import Tensor
from sporax.ops.operations import SparseReorder

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "msst2", "sparse_reorder.json")
CASES = json.load(open(FIXTURE))


@pytest.mark.parametrize("case", CASES, ids=[f"rank{len(c['shape'])}" for c in CASES])
def test_sparse_reorder_matches_mindspore(case):
    y_indices, y_values = SparseReorder()(Tensor(np.array(case["indices"], np.int64)),
                                          Tensor(np.array(case["values"], np.float32)),
                                          Tensor(np.array(case["shape"], np.int64)))
    np.testing.assert_array_equal(y_indices.asnumpy(), np.array(case["y_indices"], np.int64))
    np.testing.assert_array_equal(y_values.asnumpy(), np.array(case["y_values"], np.float32))


def test_sparse_reorder_rejects_mismatched_rank():
    with pytest.raises(ValueError, match="SparseReorder"):
        SparseReorder()(Tensor(np.zeros((2, 2), np.int64)), Tensor(np.zeros(2, np.float32)),
                        Tensor(np.array([3, 3, 3], np.int64)))
