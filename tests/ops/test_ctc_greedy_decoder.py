"""CTCGreedyDecoder against values recorded from MindSpore 2.10 (see each assertion)."""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, ops

X = np.array([[[0.6, 0.4, 0.2], [0.8, 0.6, 0.3]], [[0.0, 0.6, 0.0], [0.5, 0.4, 0.5]]], np.float32)


def _lists(outputs):
    return [output.asnumpy().tolist() for output in outputs]


def test_merge_repeated_and_blank():
    indices, values, shape, log_prob = ops.CTCGreedyDecoder()(Tensor(X), Tensor(np.array([2, 2], np.int32)))
    assert indices.dtype == ms.int64 and values.dtype == ms.int64 and shape.dtype == ms.int64
    assert _lists((indices, values, shape)) == [[[0, 0], [0, 1], [1, 0]], [0, 1, 0], [2, 2]]
    np.testing.assert_allclose(log_prob.asnumpy(), [[-1.2], [-1.3]], rtol=1e-6)
    outputs = ops.CTCGreedyDecoder(merge_repeated=False)(Tensor(X), Tensor(np.array([2, 2], np.int32)))
    assert _lists(outputs[:3]) == [[[0, 0], [0, 1], [1, 0], [1, 1]], [0, 1, 0, 0], [2, 2]]


def test_sequence_lengths_cut_each_example():
    x = np.random.default_rng(0).standard_normal((5, 3, 4)).astype(np.float32)
    indices, values, shape, log_prob = ops.ctc_greedy_decoder(Tensor(x), Tensor(np.array([5, 3, 1], np.int32)))
    # MindSpore 2.10 on the same input
    assert _lists((indices, values, shape)) == [[[0, 0], [0, 1], [0, 2], [0, 3], [1, 0], [1, 1]],
                                                [2, 1, 0, 0, 2, 1], [3, 4]]
    np.testing.assert_allclose(log_prob.asnumpy().ravel(), [-4.620167255401611, -2.5667083263397217,
                                                          -0.04132597893476486], rtol=1e-5)


def test_errors():
    with pytest.raises(RuntimeError, match=r"sequence_length\[0\] 3 should be less than 2"):
        ops.CTCGreedyDecoder()(Tensor(X), Tensor(np.array([3, 2], np.int32)))


def test_compiled_caller_runs_the_decoder_eagerly():
    # the output size depends on the data: ms.jit runs the function op by op, with the same result
    with pytest.warns(Warning, match="CTCGreedyDecoder"):
        values = ms.jit(lambda x, s: ops.CTCGreedyDecoder()(x, s)[1])(Tensor(X), Tensor(np.array([2, 2], np.int32)))
    assert values.asnumpy().tolist() == [0, 1, 0]


def test_float64_and_unmerged_like_mindspore():
    # the op-table entry's samples (seeded logits) as MindSpore 2.10 decodes them
    x = np.random.RandomState(3).randn(4, 3, 5)
    indices, values, shape, log_prob = ops.ctc_greedy_decoder(Tensor(x), Tensor(np.array([4, 2, 0], np.int32)))
    assert log_prob.dtype == ms.float64
    assert _lists((indices, values, shape)) == [[[0, 0], [0, 1], [0, 2], [0, 3], [1, 0], [1, 1]],
                                                [0, 3, 1, 2, 3, 2], [3, 4]]
    # MindSpore's Float64 sums differ from a plain float64 sum in the 8th digit
    np.testing.assert_allclose(log_prob.asnumpy().ravel(), [-4.776820546016097, -1.442330189049244, 0.0],
                               rtol=1e-7)
    outputs = ops.CTCGreedyDecoder(False)(Tensor(x.astype(np.float32)), Tensor(np.array([4, 2, 3], np.int32)))
    assert _lists(outputs[:3]) == [[[0, 0], [0, 1], [0, 2], [0, 3], [1, 0], [1, 1], [2, 0], [2, 1], [2, 2]],
                                   [0, 3, 1, 2, 3, 2, 3, 1, 1], [3, 4]]
    np.testing.assert_allclose(outputs[3].asnumpy().ravel(), [-4.776820182800293, -1.442330241203308,
                                                              -2.9814934730529785], rtol=1e-6)


def test_dtype_errors_like_mindspore():
    lengths = Tensor(np.array([2, 2], np.int32))
    with pytest.raises(TypeError, match="CTCGreedyDecoder.*Float32 or Float64"):
        ops.ctc_greedy_decoder(Tensor(X.astype(np.float16)), lengths)
    with pytest.raises(TypeError, match="CTCGreedyDecoder.*Int32"):
        ops.ctc_greedy_decoder(Tensor(X), Tensor(np.array([2, 2], np.int64)))
    with pytest.raises(TypeError, match="'merge_repeated' should be 'bool', but got type 'int'"):
        ops.ctc_greedy_decoder(Tensor(X), lengths, merge_repeated=1)
