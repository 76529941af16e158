"""ops.crop_and_resize (the functional form of CropAndResize) against NumPy sampling."""
import numpy as np
import pytest

from sporax import Tensor, ops


def test_crop_and_resize_samples_the_box_corners_and_midpoints():
    image = np.arange(32, dtype=np.float32).reshape(2, 4, 4, 1)
    boxes = np.array([[0, 0, 1, 1], [0, 0, 0.5, 0.5]], np.float32)
    out = ops.crop_and_resize(Tensor(image), Tensor(boxes), Tensor(np.array([1, 0], np.int32)), (3, 3)).asnumpy()
    np.testing.assert_allclose(out[0, :, :, 0], [[16, 17.5, 19], [22, 23.5, 25], [28, 29.5, 31]])
    # box 2 spans rows/cols 0..1.5 of image 0: samples at 0, 0.75, 1.5
    grid = np.array([0, 0.75, 1.5])
    np.testing.assert_allclose(out[1, :, :, 0], grid[:, None] * 4 + grid[None, :], rtol=1e-6)
    nearest = ops.crop_and_resize(Tensor(image), Tensor(boxes[:1]), Tensor(np.array([0], np.int32)), (2, 2),
                                  method="nearest").asnumpy()
    np.testing.assert_array_equal(nearest[0, :, :, 0], [[0, 3], [12, 15]])


def test_crop_and_resize_refuses_an_unknown_method():
    with pytest.raises(ValueError, match="method"):
        ops.crop_and_resize(Tensor(np.zeros((1, 2, 2, 1), np.float32)), Tensor(np.zeros((1, 4), np.float32)),
                            Tensor(np.zeros(1, np.int32)), (1, 1), method="cubic")
