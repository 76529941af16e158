"""SpaceToBatchND / ops.space_to_batch_nd against outputs recorded from MindSpore 2.10
(tests/fixtures/msst2/record_space_to_batch_nd.py)."""
import json
import os

import numpy as np
import pytest

from sporax import Tensor, ops

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "msst2", "space_to_batch_nd.json")
CASES = json.load(open(FIXTURE))


@pytest.mark.parametrize("case", CASES, ids=[str(case["shape"]) for case in CASES])
def test_space_to_batch_nd_matches_mindspore(case):
    x = np.arange(np.prod(case["shape"])).reshape(case["shape"]).astype(np.float32)
    expect = np.array(case["expect"], np.float32)
    np.testing.assert_array_equal(ops.SpaceToBatchND(case["block"], case["paddings"])(Tensor(x)).asnumpy(), expect)
    np.testing.assert_array_equal(ops.space_to_batch_nd(Tensor(x), case["block"], case["paddings"]).asnumpy(), expect)


def test_space_to_batch_nd_rejects_indivisible_shape():
    with pytest.raises(ValueError, match="space_to_batch_nd"):
        ops.space_to_batch_nd(Tensor(np.zeros((1, 1, 3, 4), np.float32)), 2, [[0, 0], [0, 0]])
