"""UpsampleNearest1D/2D against values recorded from MindSpore 2.10 (CPU), by output size and by scales."""
import numpy as np
import pytest

from sporax import Tensor, ops

X1 = np.arange(10, dtype=np.float32).reshape(1, 2, 5)
X2 = np.arange(12, dtype=np.float32).reshape(1, 2, 2, 3)


@pytest.mark.parametrize("primitive, x, output_size, scales, expected", [
    ("UpsampleNearest1D", X1, [8], None,
     [[[0, 0, 1, 1, 2, 3, 3, 4], [5, 5, 6, 6, 7, 8, 8, 9]]]),
    ("UpsampleNearest1D", X1, None, [1.5],
     [[[0, 0, 1, 2, 2, 3, 4], [5, 5, 6, 7, 7, 8, 9]]]),
    ("UpsampleNearest2D", X2, [4, 4], None,
     [[[[0, 0, 1, 2], [0, 0, 1, 2], [3, 3, 4, 5], [3, 3, 4, 5]],
       [[6, 6, 7, 8], [6, 6, 7, 8], [9, 9, 10, 11], [9, 9, 10, 11]]]]),
    ("UpsampleNearest2D", X2, None, [2.0, 1.7],
     [[[[0, 0, 1, 1, 2], [0, 0, 1, 1, 2], [3, 3, 4, 4, 5], [3, 3, 4, 4, 5]],
       [[6, 6, 7, 7, 8], [6, 6, 7, 7, 8], [9, 9, 10, 10, 11], [9, 9, 10, 10, 11]]]]),
])
def test_upsample_nearest_like_mindspore(primitive, x, output_size, scales, expected):
    output = getattr(ops, primitive)()(Tensor(x), output_size, scales)
    np.testing.assert_array_equal(output.asnumpy(), np.array(expected, np.float32))


def test_upsample_nearest_checks_the_rank_and_the_sizes():
    with pytest.raises(ValueError, match="UpsampleNearest2D.*4-D"):
        ops.UpsampleNearest2D()(Tensor(X1), [4, 4], None)
    with pytest.raises(ValueError, match="UpsampleNearest1D.*1 positive ints"):
        ops.UpsampleNearest1D()(Tensor(X1), [4, 4], None)
