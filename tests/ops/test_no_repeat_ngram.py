"""NoRepeatNGram against outputs recorded from MindSpore 2.10 (tests/fixtures/msst2/record_no_repeat_ngram.py)."""
import json
import os

import numpy as np
import pytest

from sporax import Tensor, ops

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "msst2", "no_repeat_ngram.json")
CASES = json.load(open(FIXTURE))


@pytest.mark.parametrize("case", CASES, ids=[f"n{case['ngram_size']}" for case in CASES])
def test_no_repeat_ngram_matches_mindspore(case):
    out = ops.NoRepeatNGram(case["ngram_size"])(Tensor(np.array(case["state_seq"], np.int32)),
                                                Tensor(np.array(case["log_probs"], np.float32)))
    np.testing.assert_array_equal(out.asnumpy(), np.array(case["expect"], np.float32))


def test_no_repeat_ngram_rejects_bad_size():
    with pytest.raises(ValueError, match="NoRepeatNGram"):
        ops.NoRepeatNGram(0)


def test_no_repeat_ngram_rejects_rank_2():
    with pytest.raises(ValueError, match="3-D"):
        ops.NoRepeatNGram(2)(Tensor(np.zeros((2, 5), np.int32)), Tensor(np.zeros((2, 4), np.float32)))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_no_repeat_ngram_bans_with_the_dtypes_lowest_value(dtype):
    # MindSpore 2.10 (recorded): a banned token gets the dtype's lowest finite value (Float16 -65504, not -inf)
    tokens = Tensor(np.array([[[3, 1, 3, 1, 2, 3, 1], [0, 4, 0, 4, 0, 2, 0]]], np.int32))
    out = ops.NoRepeatNGram(ngram_size=3)(tokens, Tensor(np.full((1, 2, 6), 0.5, dtype))).asnumpy()
    lowest = np.finfo(dtype).min
    assert out.dtype == dtype
    np.testing.assert_array_equal(out, [[[0.5, 0.5, lowest, lowest, 0.5, 0.5], [0.5] * 6]])
