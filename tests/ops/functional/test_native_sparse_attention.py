"""ops.nsa_compress (MindSpore runs it on Ascend only): windows never cross a segment, and its arguments'
errors; values against NumPy are the op table's."""
import numpy as np
import pytest

from sporax import Tensor, ops


def test_windows_stay_inside_their_segments():
    x = Tensor(np.arange(10, dtype=np.float32).reshape(10, 1, 1))
    weight = Tensor(np.ones((3, 1), np.float32))
    # segments [0, 4) and [4, 10): windows at 0, 1 | 4, 5, 6, 7 (a 2-token segment would give none)
    out = ops.nsa_compress(x, weight, 3, 1, actual_seq_len=(4, 10)).asnumpy().ravel()
    np.testing.assert_array_equal(out, [3, 6, 15, 18, 21, 24])
    assert ops.nsa_compress(x, weight, 3, 1, actual_seq_len=(2, 2, 10)).shape == (6, 1, 1)


@pytest.mark.parametrize("call, error, match", [
    (lambda x, w: ops.nsa_compress(x, w, 2, 1, actual_seq_len=(4, 7)), ValueError, "ending at T=8"),
    (lambda x, w: ops.nsa_compress(x, w, 2, 1, actual_seq_len=(5, 4, 8)), ValueError, "non-decreasing"),
    (lambda x, w: ops.nsa_compress(x, w, 2, 3, actual_seq_len=(8,)), ValueError, "must not exceed"),
    (lambda x, w: ops.nsa_compress(x, w, 3, 1, actual_seq_len=(8,)), ValueError, r"'weight' must have shape"),
    (lambda x, w: ops.nsa_compress(x, w.astype(np.float16), 2, 1, actual_seq_len=(8,)), TypeError, "dtype"),
    (lambda x, w: ops.nsa_compress(x, w, 2, 1, actual_seq_len=8), TypeError, "tuple or list of ints"),
])
def test_arguments_are_checked(call, error, match):
    x, weight = Tensor(np.ones((8, 2, 4), np.float32)), Tensor(np.ones((2, 2), np.float32))
    with pytest.raises(error, match=match):
        call(x, weight)
