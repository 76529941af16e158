"""nn.Unfold (ExtractImagePatches) against a NumPy loop with TensorFlow's padding rule."""
import math

import numpy as np
import pytest

import sporax as ms
from sporax import nn


def _reference(x, window, strides, rates, padding):
    n, c, h, w = x.shape
    (kh, kw), (sh, sw), (rh, rw) = window, strides, rates
    span_h, span_w = (kh - 1) * rh + 1, (kw - 1) * rw + 1
    if padding == "valid":
        oh, ow = (h - span_h) // sh + 1, (w - span_w) // sw + 1
        top = left = 0
    else:
        oh, ow = math.ceil(h / sh), math.ceil(w / sw)
        top = max((oh - 1) * sh + span_h - h, 0) // 2
        left = max((ow - 1) * sw + span_w - w, 0) // 2
    out = np.zeros((n, kh * kw * c, oh, ow), x.dtype)
    for i in range(kh):
        for j in range(kw):
            for y in range(oh):
                for z in range(ow):
                    row, col = y * sh + i * rh - top, z * sw + j * rw - left
                    if 0 <= row < h and 0 <= col < w:
                        out[:, (i * kw + j) * c:(i * kw + j + 1) * c, y, z] = x[:, :, row, col]
    return out


@pytest.mark.parametrize("window,strides,rates,padding", [
    ((2, 2), (1, 1), (1, 1), "valid"), ((3, 2), (2, 1), (1, 2), "valid"),
    ((3, 3), (2, 2), (1, 1), "same"), ((2, 3), (1, 2), (2, 1), "SAME")])
def test_matches_reference(window, strides, rates, padding):
    x = np.random.default_rng(0).random((2, 3, 7, 6)).astype(np.float32)
    unfold = nn.Unfold([1, *window, 1], [1, *strides, 1], [1, *rates, 1], padding)
    np.testing.assert_array_equal(unfold(ms.Tensor(x)).asnumpy(), _reference(x, window, strides, rates,
                                                                              padding.lower()))


def test_errors():
    with pytest.raises(ValueError, match="ksizes"):
        nn.Unfold([2, 2], [1, 1, 1, 1], [1, 1, 1, 1])
    with pytest.raises(ValueError, match="padding"):
        nn.Unfold([1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1], "full")
    with pytest.raises(ValueError, match="4-D"):
        nn.Unfold([1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1])(ms.Tensor(np.ones((3, 4, 4), np.float32)))
