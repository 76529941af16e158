"""CTCGreedyDecoder against values recorded from MindSpore 2.10 (seeded logits, blank = last class)."""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn, ops

LOGITS = np.random.RandomState(0).randn(4, 2, 3).astype(np.float32)


def test_decodes_like_mindspore():
    indices, values, shape, log_probability = ops.CTCGreedyDecoder()(Tensor(LOGITS), Tensor(np.array([4, 3], np.int32)))
    assert indices.dtype == ms.int64 and values.dtype == ms.int64 and shape.dtype == ms.int64
    assert indices.asnumpy().tolist() == [[0, 0], [1, 0], [1, 1]]
    assert values.asnumpy().tolist() == [0, 0, 1]
    assert shape.asnumpy().tolist() == [2, 2]
    np.testing.assert_allclose(log_probability.asnumpy(), [[-3.7882464], [-5.1892457]], rtol=1e-6)


def test_graph_mode_and_sequence_length_check():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.decode = ops.CTCGreedyDecoder(merge_repeated=True)

        def construct(self, inputs, lengths):
            return self.decode(inputs, lengths)

    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        _, values, shape, _ = Net()(Tensor(LOGITS[:2]), Tensor(np.array([1, 1], np.int32)))
        assert shape.asnumpy().tolist() == [2, 1]
        with pytest.raises(RuntimeError, match="should be less than"):
            Net()(Tensor(LOGITS[:2]), Tensor(np.array([3, 3], np.int32)))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
