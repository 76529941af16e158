"""CTC against values recorded from MindSpore 2.10 (tests/fixtures/msops/record_ctc.py): nn.CTCLoss with labels
past the class axis, and the TF-style ops.CTCLoss primitive (loss, gradient) under its flags."""
import json
import os

import numpy as np
import pytest

from sporax import Tensor, nn, ops

DATA = json.load(open(os.path.join(os.path.dirname(__file__), "..", "fixtures", "msops", "ctc.json")))


@pytest.mark.parametrize("case", DATA["out_of_range"], ids=lambda c: f"{c['offset']}-{c['reduction']}")
def test_ctc_loss_labels_past_class_axis_read_the_flat_buffer(case):
    t, c, n = 10, 4, 2
    log_probs = (np.arange(t * n * c).reshape(t, n, c) + case["offset"]).astype(np.float32)
    targets = np.arange(n * 5).reshape(n, 5).astype(np.int32)
    loss = nn.CTCLoss(blank=0, reduction=case["reduction"])(
        Tensor(log_probs), Tensor(targets), Tensor(np.full(n, t, np.int32)), Tensor(np.full(n, 3, np.int32)))
    np.testing.assert_allclose(loss.asnumpy(), np.array(case["expect"], np.float32), rtol=1e-5)


@pytest.mark.parametrize("case", DATA["primitive"], ids=lambda c: f"collapse={c['collapse']}-merge={c['merge']}")
def test_ctc_loss_primitive_matches_mindspore(case):
    lengths = np.array(DATA["lengths"], np.int32)
    loss, grad = ops.CTCLoss(case["collapse"], case["merge"])(
        Tensor(np.array(DATA["x"], np.float32)), Tensor(np.array(DATA["indices"], np.int64)),
        Tensor(np.array(DATA["values"], np.int32)), Tensor(lengths))
    np.testing.assert_allclose(loss.asnumpy(), case["loss"], rtol=1e-5)
    expect = np.array(case["grad"], np.float32)
    for sample, steps in enumerate(lengths):  # MindSpore leaves steps past a sequence's length unwritten
        np.testing.assert_allclose(grad.asnumpy()[:steps, sample], expect[:steps, sample], atol=1e-5)
        assert np.all(grad.asnumpy()[steps:, sample] == 0)


def test_ctc_loss_primitive_rejects_bad_flags():
    with pytest.raises(TypeError, match="ctc_merge_repeated"):
        ops.CTCLoss(ctc_merge_repeated=1)


@pytest.mark.parametrize("merge, expect", [(True, [5.352034, 6.266297]), (False, [8.141538, 6.827549])])
def test_ctc_loss_primitive_drops_blank_padding_in_labels(merge, expect):
    # Fixed-width label rows padded with the blank class (num_classes - 1), as CRNN's data set writes them:
    # MindSpore 2.10 scores only the real labels (losses recorded from it; its loss and gradient equal
    # those of the unpadded rows exactly).
    x = Tensor(np.random.default_rng(0).normal(size=(6, 2, 5)).astype(np.float32))

    def run(rows):
        indices = np.array([[i, j] for i, row in enumerate(rows) for j in range(len(row))], np.int64)
        values = np.array([value for row in rows for value in row], np.int32)
        return ops.CTCLoss(ctc_merge_repeated=merge)(x, Tensor(indices), Tensor(values),
                                                     Tensor(np.array([6, 6], np.int32)))

    loss, grad = run([[1, 2, 4, 4], [3, 3, 1, 4]])
    np.testing.assert_allclose(loss.asnumpy(), expect, rtol=1e-5)
    unpadded_loss, unpadded_grad = run([[1, 2], [3, 3, 1]])
    np.testing.assert_allclose(loss.asnumpy(), unpadded_loss.asnumpy(), rtol=1e-6)
    np.testing.assert_allclose(grad.asnumpy(), unpadded_grad.asnumpy(), atol=1e-6)


def _run_rows(rows, collapse=False):
    x = Tensor(np.random.default_rng(0).normal(size=(6, 2, 5)).astype(np.float32))
    indices = np.array([[i, j] for i, row in enumerate(rows) for j in range(len(row))], np.int64)
    values = np.array([value for row in rows for value in row], np.int32)
    return ops.CTCLoss(collapse)(x, Tensor(indices), Tensor(values), Tensor(np.array([6, 6], np.int32)))


def test_ctc_loss_primitive_negative_values_are_padding():
    # MindSpore 2.10 (PyNative and GRAPH) reads label values as unsigned: -1 and -7, like the blank 4 above,
    # end the row; the losses equal those of [[1, 2], [3, 3, 1]].
    loss, _ = _run_rows([[1, 2, -1, -1], [3, 3, 1, -7]])
    np.testing.assert_allclose(loss.asnumpy(), [5.352034, 6.266297], rtol=1e-5)
    # Rows interleaved in the indices: row 0 still reads the first 4 values [1, 2, 4, 4] and row 1 the next
    # [3, 3, 1, 4] (MindSpore 2.10 gives the same losses); the same shapes, so no second compile.
    x = Tensor(np.random.default_rng(0).normal(size=(6, 2, 5)).astype(np.float32))
    indices = np.array([[1, 0], [0, 0], [1, 1], [0, 1], [1, 2], [0, 2], [1, 3], [0, 3]], np.int64)
    values = np.array([1, 2, 4, 4, 3, 3, 1, 4], np.int32)
    loss, _ = ops.CTCLoss(False)(x, Tensor(indices), Tensor(values), Tensor(np.array([6, 6], np.int32)))
    np.testing.assert_allclose(loss.asnumpy(), [5.352034, 6.266297], rtol=1e-5)


@pytest.mark.parametrize("rows, position, value", [([[1, 4, 2], [3]], 2, 2), ([[1, 2], [4, 3, 1]], 1, 3),
                                                   ([[1, -1, 2], [3]], 2, 2)])
def test_ctc_loss_primitive_rejects_a_label_after_padding(rows, position, value):
    # MindSpore 2.10's message (RuntimeError, both modes): the position is within the row.
    with pytest.raises(RuntimeError, match=rf"For 'CTCLoss', the value of labels_values\[{position}\] must be in "
                                           rf"the range of \[0, num_classes\), but got {value}\."):
        _run_rows(rows)


def _run_unsorted(indices, values):
    x = Tensor(np.random.default_rng(0).uniform(-1, 1, (5, 2, 4)).astype(np.float32))
    return ops.CTCLoss()(x, Tensor(np.array(indices, np.int64)), Tensor(np.array(values, np.int32)),
                         Tensor(np.array([5, 5], np.int32)))


@pytest.mark.parametrize("indices, values, position, value", [
    ([[0, 0], [0, 1], [1, 0], [0, 2]], [1, 3, 1, 2], 2, 1), ([[0, 0], [1, 0], [1, 1], [1, 2]], [3, 1, 3, 2], 2, 2),
    ([[0, 0], [0, 1], [1, 0]], [3, 1, 2], 1, 1)])
def test_ctc_loss_rows_of_unsorted_indices_are_runs_of_the_values(indices, values, position, value):
    # MindSpore 2.10 (CPU): row b is the next count(indices[:, 0] == b) values, in row order, whatever the indices'
    # order; a real label after padding in that run raises, at its position in the run.
    with pytest.raises(RuntimeError, match=rf"labels_values\[{position}\] must be in the range of \[0, num_classes\), "
                                           rf"but got {value}\."):
        _run_unsorted(indices, values)
