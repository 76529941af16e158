"""ops.SampleDistortedBoundingBoxV2: every sampled crop meets the documented constraints; seeds repeat streams."""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, ops

SIZE = Tensor(np.array([20, 30, 3], np.int32))
BOX = np.array([[[0.2, 0.1, 0.6, 0.5]]], np.float32)


def _draw(op, covered=0.5, boxes=BOX):
    begin, size, box = op(SIZE, Tensor(boxes), Tensor(np.array([covered], np.float32)))
    return begin.asnumpy(), size.asnumpy(), box.asnumpy()


def test_every_crop_fits_the_image_the_ranges_and_the_cover():
    op = ops.SampleDistortedBoundingBoxV2(seed=5, aspect_ratio_range=(0.5, 2.0), area_range=(0.1, 0.6))
    for _ in range(30):
        (y, x, zero), (h, w, last), box = _draw(op)
        assert zero == 0 and last == -1
        assert 0 <= y and y + h <= 20 and 0 <= x and x + w <= 30
        assert 0.1 * 600 - 1e-9 <= h * w <= 0.6 * 600 + 1e-9
        assert 0.5 - 0.1 <= w / h <= 2.0 + 0.1  # rounding of the width
        top, left, bottom, right = 0.2 * 20, 0.1 * 30, 0.6 * 20, 0.5 * 30
        overlap = max(0, min(bottom, y + h) - max(top, y)) * max(0, min(right, x + w) - max(left, x))
        assert overlap / ((bottom - top) * (right - left)) >= 0.5
        np.testing.assert_allclose(box, [[[y / 20, x / 30, (y + h) / 20, (x + w) / 30]]], rtol=1e-6)


def test_seeds_repeat_the_stream_and_the_global_seed_too():
    op_a, op_b = ops.SampleDistortedBoundingBoxV2(seed=1, seed2=2), ops.SampleDistortedBoundingBoxV2(seed=1, seed2=2)
    draws_a = [_draw(op_a)[0].tolist() + _draw(op_a)[1].tolist() for _ in range(5)]
    draws_b = [_draw(op_b)[0].tolist() + _draw(op_b)[1].tolist() for _ in range(5)]
    assert draws_a == draws_b
    ms.set_seed(7)
    global_a = [_draw(ops.SampleDistortedBoundingBoxV2())[1].tolist() for _ in range(5)]
    ms.set_seed(7)
    global_b = [_draw(ops.SampleDistortedBoundingBoxV2())[1].tolist() for _ in range(5)]
    assert global_a == global_b


def test_impossible_constraints_give_the_whole_image():
    op = ops.SampleDistortedBoundingBoxV2(seed=3, area_range=(0.05, 0.06), max_attempts=5)
    begin, size, box = _draw(op, covered=1.0)  # a 6% crop can not cover all of a 16% box
    assert begin.tolist() == [0, 0, 0] and size.tolist() == [20, 30, -1]
    np.testing.assert_array_equal(box, [[[0.0, 0.0, 1.0, 1.0]]])


def test_arguments_are_checked():
    with pytest.raises(ValueError, match="area_range"):
        ops.SampleDistortedBoundingBoxV2(area_range=(0.5, 1.5))
    with pytest.raises(ValueError, match="no bounding boxes"):
        _draw(ops.SampleDistortedBoundingBoxV2(), boxes=np.zeros((1, 0, 4), np.float32))
    begin, size, _ = _draw(ops.SampleDistortedBoundingBoxV2(use_image_if_no_bounding_boxes=True),
                           boxes=np.zeros((1, 0, 4), np.float32))
    assert size[2] == -1
    with pytest.raises(ValueError, match="min_object_covered"):
        ops.SampleDistortedBoundingBoxV2()(SIZE, Tensor(BOX), Tensor(np.zeros(0, np.float32)))
