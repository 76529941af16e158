"""ResizeNearestNeighbor / ResizeNearestNeighborV2 with aligned corners: a source position half-way between two
pixels takes the later pixel, as MindSpore 2.10's CPU kernels (values recorded there)."""
import numpy as np
import pytest

from sporax import Tensor
from sporax.ops import operations as P

IMAGE = np.arange(9, dtype=np.float32).reshape(1, 1, 3, 3)


@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_aligned_corners_take_the_later_pixel_at_a_half(dtype):
    # size 5 from 3: sources 0, 0.5, 1, 1.5, 2 -> rows 0, 1, 1, 2, 2 (MindSpore 2.10)
    out = P.ResizeNearestNeighbor((5, 5), align_corners=True)(Tensor(IMAGE.astype(dtype))).asnumpy()[0, 0]
    np.testing.assert_array_equal(out[:, 0], np.array([0, 3, 3, 6, 6], dtype))
    np.testing.assert_array_equal(out[0], np.array([0, 1, 1, 2, 2], dtype))
    # size 9 from 3: sources 0, 0.25, 0.5, ... -> columns recorded from MindSpore 2.10
    out = P.ResizeNearestNeighbor((9, 9), align_corners=True)(Tensor(IMAGE)).asnumpy()[0, 0]
    np.testing.assert_array_equal(out[0], [0, 0, 1, 1, 1, 1, 2, 2, 2])


def test_v2_aligned_corners_take_the_later_pixel_at_a_half():
    out = P.ResizeNearestNeighborV2(align_corners=True)(Tensor(IMAGE), Tensor(np.array([5, 5], np.int32)))
    np.testing.assert_array_equal(out.asnumpy()[0, 0, :, 0], [0, 3, 3, 6, 6])


def test_unaligned_sizes_keep_floor_and_aligned_ones_round():
    # MindSpore 2.10: (7, 3) unaligned rows 0 0 0 1 1 2 2, aligned (sources k/3) rows 0 0 1 1 1 2 2
    out = P.ResizeNearestNeighbor((7, 3))(Tensor(IMAGE)).asnumpy()[0, 0]
    np.testing.assert_array_equal(out[:, 0], [0, 0, 0, 3, 3, 6, 6])
    out = P.ResizeNearestNeighbor((7, 3), align_corners=True)(Tensor(IMAGE)).asnumpy()[0, 0]
    np.testing.assert_array_equal(out[:, 0], [0, 0, 3, 3, 3, 6, 6])
