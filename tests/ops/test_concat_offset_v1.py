"""ConcatOffsetV1 (values recorded from MindSpore 2.10: offsets [0,0,0], [0,2,0], [0,7,0])."""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn
from sporax.ops.operations import ConcatOffsetV1

SHAPES = [np.array(shape, np.int32) for shape in ([1, 2, 3], [1, 5, 3], [1, 4, 3])]


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_offsets_along_axis(mode):
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.offsets = ConcatOffsetV1()

        def construct(self, axis, x, y, z):
            return self.offsets(axis, (x, y, z))

    ms.set_context(mode=mode)
    try:
        out = Net()(Tensor(1, ms.int32), *[Tensor(shape) for shape in SHAPES])
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert [offset.asnumpy().tolist() for offset in out] == [[0, 0, 0], [0, 2, 0], [0, 7, 0]]
    assert all(offset.dtype == ms.int32 for offset in out)


def test_negative_axis_and_bad_shapes():
    out = ConcatOffsetV1()(Tensor(-3, ms.int32), (Tensor(SHAPES[0]), Tensor(np.array([4, 2, 3], np.int32))))
    assert [offset.asnumpy().tolist() for offset in out] == [[0, 0, 0], [1, 0, 0]]
    with pytest.raises(ValueError, match="ConcatOffsetV1"):
        ConcatOffsetV1()(Tensor(0, ms.int32), (Tensor(SHAPES[0]), Tensor(np.array([1, 2], np.int32))))
