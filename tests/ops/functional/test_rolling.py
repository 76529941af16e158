"""A script's own ``Shift(PrimitiveWithInfer)`` (attributes and inference only) runs the op-table kernel of that
name, as MindSpore 2.10 runs its CPU ``Shift`` kernel: pandas' ``shift`` with a fill value."""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn
from sporax.ops import PrimitiveWithInfer, prim_attr_register


class Shift(PrimitiveWithInfer):
    @prim_attr_register
    def __init__(self, periods=1, axis=-1):
        self.init_prim_io_names(inputs=["x", "fill_value"], outputs=["output"])


class ShiftNet(nn.Cell):
    def __init__(self, periods, axis):
        super().__init__()
        self.shift = Shift(periods, axis)

    def construct(self, x, fill_value):
        return self.shift(x, fill_value)


@pytest.mark.parametrize("dtype, fill", [(np.float32, np.nan), (np.float64, -5.5), (np.int32, -4), (np.int64, 1),
                                         (np.bool_, True)])
@pytest.mark.parametrize("periods, axis", [(2, 1), (-3, 0), (0, 1), (7, 1), (-12, 0)])
def test_user_shift_primitive_in_graph_mode(dtype, fill, periods, axis):
    x = (np.arange(24).reshape(4, 6) % 5).astype(dtype)
    moved = np.moveaxis(x, axis, -1)
    expect = np.full(moved.shape, fill, dtype)
    length = moved.shape[-1]
    if periods >= 0:
        expect[..., periods:] = moved[..., :max(length - periods, 0)]
    else:
        expect[..., :max(length + periods, 0)] = moved[..., -periods:]
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        got = ShiftNet(periods, axis)(Tensor(x), fill).asnumpy()
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert got.dtype == dtype
    np.testing.assert_array_equal(got, np.moveaxis(expect, -1, axis))
