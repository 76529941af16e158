"""TensorCopySlices (MindSpore's ``_inner_ops`` slice assignment): values recorded from MindSpore 2.10."""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn
from sporax.ops.operations import TensorCopySlices

X = np.arange(20, dtype=np.float32).reshape(4, 5)


@pytest.mark.parametrize("value, begin, end, rows", [
    (np.full((2, 5), -1, np.float32), (1, 0), (3, 5), [1, 2]),
    (np.full((5,), -3, np.float32), (2,), (3,), [2]),  # as many elements as the slice, read row-major
])
def test_tensor_copy_slices_replaces_the_slice(value, begin, end, rows):
    out = TensorCopySlices()(Tensor(X), Tensor(value), begin, end, (1,) * len(begin))
    expect = X.copy()
    expect[rows] = value.reshape(len(rows), 5)
    np.testing.assert_array_equal(out.asnumpy(), expect)
    np.testing.assert_array_equal(X, np.arange(20, dtype=np.float32).reshape(4, 5))  # x is not written


def test_tensor_copy_slices_in_graph_mode_with_int32():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.op = TensorCopySlices()

        def construct(self, x, value):
            return self.op(x, value, (3, 0), (5, 5), (1, 1))

    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        out = Net()(Tensor(np.zeros((5, 5), np.int32)), Tensor(np.ones((2, 5), np.int32)))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert out.asnumpy().dtype == np.int32
    np.testing.assert_array_equal(out.asnumpy(), [[0] * 5] * 3 + [[1] * 5] * 2)


def test_tensor_copy_slices_refuses_strides_and_wrong_sizes():
    with pytest.raises(RuntimeError, match="strides"):  # MindSpore: "The element in step only support 1"
        TensorCopySlices()(Tensor(X), Tensor(np.zeros((2, 3), np.float32)), (0, 0), (4, 5), (2, 2))
    with pytest.raises(ValueError, match="as many elements"):  # MindSpore reads past the value's memory
        TensorCopySlices()(Tensor(X), Tensor(np.zeros((1,), np.float32)), (1, 1), (2, 4), (1, 1))
