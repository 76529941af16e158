"""Interpolating Rotate/Affine/Perspective of uint8 images against MindSpore 2.10 (OpenCV's fixed-point warps).

The digests were recorded from MindSpore 2.10 with the same inputs; before the fixed-point arithmetic
sporax was up to 7 (bilinear) or 210 (bicubic, at the border) off on up to hundreds of pixels of these images.
"""
import hashlib

import numpy as np
import pytest

from sporax.dataset import vision

# (image shape, transform, output shape, sha256 prefix of MindSpore 2.10's output bytes)
CASES = [
    ((40, 56, 3), lambda: vision.Rotate(10.0, vision.Inter.BILINEAR), (40, 56, 3), "a350b10d61ee5292"),
    ((40, 56, 3), lambda: vision.Rotate(-45.0, vision.Inter.BILINEAR, expand=True, fill_value=(200, 30, 7)),
     (68, 68, 3), "c32b53679126dd33"),
    ((40, 56, 3), lambda: vision.Rotate(33.3, vision.Inter.BILINEAR, center=(5, 30), fill_value=90),
     (40, 56, 3), "f67b9ef22d999df2"),
    ((23, 17, 3), lambda: vision.Rotate(71.5, vision.Inter.BILINEAR, fill_value=(11, 222, 128)),
     (23, 17, 3), "c24fe75d974d0f12"),
    ((23, 17, 1), lambda: vision.Rotate(-12.25, vision.Inter.BILINEAR, expand=True, fill_value=40),
     (26, 21), "07094c67426aacca"),
    ((40, 56, 3), lambda: vision.Affine(-35.0, [0.05, 0.1], 1.2, [3.0, -4.0], vision.Inter.BILINEAR, 9),
     (40, 56, 3), "22d450e6d2185bbd"),
    ((23, 17, 3), lambda: vision.Affine(20.0, [-0.1, 0.2], 0.8, [10.0, 5.0], vision.Inter.BILINEAR, (250, 0, 60)),
     (23, 17, 3), "332685990f3875dd"),
    ((23, 17, 1), lambda: vision.Affine(0.0, [0.0, 0.0], 1.0, [17.0, 0.0], vision.Inter.BILINEAR, 123),
     (23, 17), "f6553011e37ec520"),
    ((40, 56, 3), lambda: vision.Rotate(26.666666, vision.Inter.BICUBIC), (40, 56, 3), "7c0f7bd3c484aa65"),
    ((23, 17, 3), lambda: vision.Affine(20.0, [-0.1, 0.2], 0.8, [10.0, 5.0], vision.Inter.BICUBIC, 7),
     (23, 17, 3), "f57fc7911f3e4964"),
]

PERSPECTIVE_START = [[0, 0], [40, 0], [40, 29], [0, 29]]
PERSPECTIVE_END = [[2, 1], [37, 3], [40, 27], [1, 28]]


@pytest.mark.parametrize("index", range(len(CASES)))
def test_affine_warp_matches_mindspore(index):
    shape, make, out_shape, digest = CASES[index]
    image = np.random.RandomState(shape[0]).randint(0, 256, shape).astype(np.uint8)
    if shape[2] == 1:
        image = image[..., 0]
    out = np.asarray(make()(image))
    assert out.shape == out_shape and out.dtype == np.uint8
    assert hashlib.sha256(np.ascontiguousarray(out).tobytes()).hexdigest()[:16] == digest


@pytest.mark.parametrize("mode, digest", [("BILINEAR", "40d7a8dfc3f7d358"), ("BICUBIC", "8ecfae386d6e2fe3")])
def test_perspective_matches_mindspore(mode, digest):
    image = np.random.RandomState(5).randint(0, 256, (30, 41, 3)).astype(np.uint8)
    out = vision.Perspective(PERSPECTIVE_START, PERSPECTIVE_END, vision.Inter[mode])(image)
    assert hashlib.sha256(np.ascontiguousarray(out).tobytes()).hexdigest()[:16] == digest


def test_bilinear_integer_shift_keeps_pixels():
    # A whole-pixel translation has zero fractions: every output pixel is one input pixel exactly.
    image = np.random.RandomState(3).randint(0, 256, (9, 11, 3)).astype(np.uint8)
    out = vision.Affine(0.0, [0.0, 0.0], 1.0, [0.0, 0.0], vision.Inter.BILINEAR, 0)(image)
    np.testing.assert_array_equal(out, image)


# MindSpore 2.10 on a 7x6x1 float32 ramp: Rotate(33, BICUBIC) and Affine(20, (-0.1, 0.2), 0.8, (10, 5), BILINEAR).
FLOAT_ROTATE_BICUBIC = np.array(
    [[ 0.056317,  0.460119,  2.005937,  4.199106,  2.091725, -0.151252],
    [ 0.492764,  2.385421,  3.351826,  1.942639,  1.420723,  0.904169],
    [ 1.979492,  2.446158,  0.235509,  1.400294,  3.483918,  1.760563],
    [ 4.925652,  3.570762,  1.421323,  3.748678,  1.599239,  1.034504],
    [ 2.718774,  1.946412,  3.769706,  4.93449 ,  2.708277,  3.267242],
    [ 0.607324,  4.180597,  3.227361,  1.818174,  3.269266,  5.020094],
    [-0.36645 ,  1.036419,  1.708276,  3.681766,  3.02381 ,  0.483907]], np.float32)
FLOAT_AFFINE_BILINEAR = np.array(
    [[0.      , 0.      , 0.      , 0.      , 0.      , 0.      ],
    [0.      , 0.      , 0.      , 0.      , 0.      , 0.      ],
    [0.      , 0.806484, 0.531875, 0.581738, 0.49791 , 0.153926],
    [1.983692, 3.757812, 2.46957 , 3.133438, 2.844375, 2.319726],
    [1.98375 , 2.409375, 1.347813, 1.070313, 1.574063, 0.75375 ],
    [3.201875, 4.486875, 4.29625 , 2.14375 , 2.674317, 0.      ],
    [2.869063, 2.522188, 2.408906, 1.955625, 0.160625, 0.      ]], np.float32)


def test_float_warps_match_mindspore():
    # float images keep float weights but share the fixed-point 1/32-pixel coordinates (was up to 0.1 off).
    image = (np.arange(42, dtype=np.float32).reshape(7, 6, 1) * 0.37 % 5).astype(np.float32)
    rotated = vision.Rotate(33.0, vision.Inter.BICUBIC)(image)
    warped = vision.Affine(20.0, [-0.1, 0.2], 0.8, [10.0, 5.0], vision.Inter.BILINEAR, 0)(image)
    np.testing.assert_allclose(rotated[..., 0], FLOAT_ROTATE_BICUBIC, atol=2e-6)
    np.testing.assert_allclose(warped[..., 0], FLOAT_AFFINE_BILINEAR, atol=2e-6)
