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


def test_a_label_equal_to_the_blank_index_is_a_plain_label():
    # MindSpore 2.10 neither refuses nor drops a target equal to ``blank``: its path goes through that class's row
    # like any other label (recorded by /tmp/semantics22-x/ctc.py: T=5, N=2, C=4, default_rng(0) log-softmax).
    logits = np.random.default_rng(0).standard_normal((5, 2, 4)).astype(np.float32)
    log_probs = Tensor(logits - np.log(np.exp(logits).sum(-1, keepdims=True)))
    lengths, target_lengths = Tensor(np.array([5, 5], np.int32)), Tensor(np.array([2, 2], np.int32))
    recorded = [([[0, 2], [3, 1]], 0, [4.197350025177002, 3.992875814437866]),
                ([[0, 0], [0, 0]], 0, [5.018445014953613, 9.1283540725708]),
                ([[0, 2], [3, 1]], 3, [3.7417378425598145, 1.9478061199188232])]
    for targets, blank, expect in recorded:
        targets = Tensor(np.array(targets, np.int32))
        loss = nn.CTCLoss(blank=blank, reduction="none")(log_probs, targets, lengths, target_lengths)
        np.testing.assert_allclose(loss.asnumpy(), expect, rtol=1e-5)  # (ops.ctc_loss: the same values)
