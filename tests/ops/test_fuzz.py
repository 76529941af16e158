"""Public ops and Cells called with bad arguments raise a Python error naming the op.

Every case runs in a child process (``fuzz_cases.run_in_children``), so a call that would abort
the process in XLA fails the test instead of killing pytest. The default run takes the known
findings and a fixed sample; the whole sweep (~5200 calls: the listed ops and Cells and every op-table
entry, PyNative and GRAPH) is slow.
"""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn, ops

from tests.ops import fuzz_cases


def _failures(results):
    return {case: outcome for case, outcome in results.items()
            if outcome[0] not in ("clear", "returned")}


def test_known_findings_and_a_sample_give_clear_errors():
    results = fuzz_cases.run_in_children(fuzz_cases.sample_ids(40))
    assert _failures(results) == {}
    for name, label in fuzz_cases.FINDINGS:  # each of these must be refused, not computed
        for case in fuzz_cases.ids_of(name, label):
            assert results[case][0] == "clear", (case, results[case])


@pytest.mark.slow
def test_every_case_gives_a_clear_error_or_a_result():
    results = fuzz_cases.run_in_children(fuzz_cases.all_ids())
    assert _failures(results) == {}, fuzz_cases.counts(results)


def test_the_case_generator_covers_every_kind_of_bad_argument():
    labels = {label.split(" ", 1)[1] for name, function, args in fuzz_cases._table()
              for label, _ in fuzz_cases.cases(name, function, args)}
    assert {"int32", "bool", "0-d", "5-d", "empty", "nan", "inf", "None", "list", "str",
            "negative dim", "huge dim", "huge shape", "negative", "huge"} <= labels


def test_a_crash_in_a_child_is_reported_not_fatal(monkeypatch):
    monkeypatch.setenv("SPORAX_FUZZ_ABORT", "1")
    case = fuzz_cases.ids_of("abs", "arg0 None", ("pynative",))[0]
    results = fuzz_cases.run_in_children([case])
    assert results[case][0] == "crash"


# --- results MindSpore 2.10 refuses, which XLA would compute silently ----------------------------
def test_embedding_ids_out_of_range_raise_and_negative_ids_wrap():
    table = Tensor(np.arange(10, dtype=np.float32).reshape(5, 2))
    embedding = nn.Embedding(5, 2, embedding_table=table)
    # MindSpore 2.10: [-1, 0] -> rows 4 and 0; -5 -> row 0; 5 and -6 raise RuntimeError
    np.testing.assert_array_equal(embedding(Tensor(np.array([-1, 0], np.int32))).asnumpy(),
                                  [[8, 9], [0, 1]])
    np.testing.assert_array_equal(embedding(Tensor(np.array([-5], np.int32))).asnumpy(), [[0, 1]])
    for ids in ([5], [0, -6]):
        with pytest.raises(RuntimeError, match=r"For 'Embedding'.*\[-5, 5\)"):
            embedding(Tensor(np.array(ids, np.int32)))


def test_cross_entropy_label_out_of_range_raises_and_ignore_index_is_kept():
    logits = Tensor(np.ones((2, 3), np.float32))
    for labels in ([0, 3], [0, -4]):  # MindSpore 2.10: RuntimeError, index must be in [-3, 3)
        with pytest.raises(RuntimeError, match=r"For 'cross_entropy'.*\[-3, 3\)"):
            ops.cross_entropy(logits, Tensor(np.array(labels, np.int32)))
        with pytest.raises(RuntimeError, match="cross_entropy"):
            nn.CrossEntropyLoss()(logits, Tensor(np.array(labels, np.int32)))
    loss = ops.cross_entropy(logits, Tensor(np.array([0, -100], np.int32)))
    np.testing.assert_allclose(loss.asnumpy(), np.log(3), rtol=1e-6)  # MindSpore: 1.0986123


@pytest.mark.parametrize("padding", [-1, (-1, 1), (0, 0, -1, 0)])
def test_conv2d_negative_padding_raises(padding):
    image, weight = Tensor(np.ones((1, 1, 5, 5), np.float32)), Tensor(np.ones((2, 1, 3, 3), np.float32))
    with pytest.raises(ValueError, match=r"For 'conv2d'.*'padding'.*>= 0"):
        ops.conv2d(image, weight, pad_mode="pad", padding=padding)


def test_argmax_of_a_scalar_is_zero_as_in_mindspore():
    assert int(ops.argmax(Tensor(np.float32(3.0)))) == 0
    assert int(ops.argmax(Tensor(np.float32(3.0)), 0)) == 0
    with pytest.raises(ValueError, match="argmax"):
        ops.argmax(Tensor(np.float32(3.0)), 1)


def test_graph_mode_raises_the_same_clear_errors():
    function = ms.jit(lambda x: ops.softmax(x))
    with pytest.raises(ValueError, match="For 'softmax'"):
        function(Tensor(np.float32(1.0)))
