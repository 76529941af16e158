"""Integer ``Inv``: 1/0 is the most negative 32/64-bit integer, as MindSpore 2.10's kernel gives (recorded)."""
import numpy as np
import pytest

from sporax import Tensor, ops


@pytest.mark.parametrize("dtype, expected", [
    (np.int16, [0, 1, 0, -1, 0]),
    (np.int32, [-2147483648, 1, 0, -1, 0]),
    (np.int64, [-9223372036854775808, 1, 0, -1, 0]),
])
def test_integer_inv_truncates_and_maps_zero(dtype, expected):
    x = Tensor(np.array([0, 1, 2, -1, -7], dtype))
    out = ops.Inv()(x)
    assert out.asnumpy().dtype == dtype
    assert out.asnumpy().tolist() == expected
    assert ops.inv(x).asnumpy().tolist() == expected
