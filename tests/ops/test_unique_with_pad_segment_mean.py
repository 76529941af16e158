"""UniqueWithPad and SparseSegmentMean Primitives (values recorded from MindSpore 2.10)."""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn, vmap
from sporax.ops.operations import SparseSegmentMean, UniqueWithPad


@pytest.mark.parametrize("dtype, pad, idx_dtype", [(np.int64, 0, np.int64), (np.int32, -1, np.int32),
                                                   (np.float32, 0.5, np.int32)])
def test_unique_with_pad_keeps_first_appearance_order(dtype, pad, idx_dtype):
    y, idx = UniqueWithPad()(Tensor(np.array([3, 1, 3, 2], dtype)), pad)
    assert y.asnumpy().tolist() == [3, 1, 2, pad] and y.asnumpy().dtype == dtype
    assert idx.asnumpy().tolist() == [0, 1, 0, 2] and idx.asnumpy().dtype == idx_dtype


def test_unique_with_pad_vmaps():
    rows = Tensor(np.array([[1, 2, 5, 2], [7, 7, 7, 7]], np.int32))
    y, idx = vmap(lambda row: UniqueWithPad()(row, -1))(rows)
    assert y.asnumpy().tolist() == [[1, 2, 5, -1], [7, -1, -1, -1]]
    assert idx.asnumpy().tolist() == [[0, 1, 2, 1], [0, 0, 0, 0]]


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_sparse_segment_mean(mode):
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.op = SparseSegmentMean()

        def construct(self, x, indices, segment_ids):
            return self.op(x, indices, segment_ids)

    ms.set_context(mode=mode)
    try:
        out = Net()(Tensor(np.arange(6, dtype=np.float32).reshape(3, 2)), Tensor(np.array([0, 2, 1], np.int32)),
                    Tensor(np.array([0, 0, 2], np.int32)))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert out.asnumpy().tolist() == [[2.0, 3.0], [0.0, 0.0], [2.0, 3.0]]
