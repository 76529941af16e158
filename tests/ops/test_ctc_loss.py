"""nn.CTCLoss / ops.ctc_loss against values recorded from MindSpore 2.10 (tests/fixtures/msst2/record_ctc_loss.py):
full and short input lengths, repeated labels, impossible alignments (inf), every reduction, log_alpha."""
import json
import os

import numpy as np
import pytest

from sporax import Tensor, nn, ops

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "msst2", "ctc_loss.json")
DATA = json.load(open(FIXTURE))
LOG_PROBS = np.array(DATA["log_probs"], np.float32)
TARGETS = np.array(DATA["targets"], np.int32)


@pytest.mark.parametrize("case", DATA["cases"], ids=[
    f"{c['input_lengths']}-{c['reduction']}-{c['zero_infinity']}" for c in DATA["cases"]])
def test_ctc_loss_matches_mindspore(case):
    loss = nn.CTCLoss(0, case["reduction"], case["zero_infinity"])(
        Tensor(LOG_PROBS), Tensor(TARGETS), Tensor(np.array(case["input_lengths"], np.int32)),
        Tensor(np.array(case["target_lengths"], np.int32)))
    np.testing.assert_allclose(loss.asnumpy(), np.array(case["expect"], np.float32), rtol=1e-5)


def test_ctc_log_alpha_matches_mindspore():
    _, log_alpha = ops.ctc_loss(Tensor(LOG_PROBS), Tensor(TARGETS), Tensor(np.array([6, 8, 5], np.int32)),
                                Tensor(np.array([3, 1, 4], np.int32)), reduction="none")
    expect = np.array(DATA["log_alpha"], np.float32)
    got = log_alpha.asnumpy()
    assert got.shape == expect.shape
    # MindSpore's log_alpha is kept up to each sample's input length and target states
    for sample, (steps, length) in enumerate(((6, 3), (8, 1), (5, 4))):
        window = (slice(sample, sample + 1), slice(0, steps), slice(0, 2 * length + 1))
        finite = expect[window] > -1e29
        np.testing.assert_allclose(got[window][finite], expect[window][finite], rtol=1e-5, atol=1e-5)
        assert np.all(got[window][~finite] < -1e29)
