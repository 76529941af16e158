"""Random transforms called eagerly under a dataset seed: MindSpore 2.10 builds a fresh kernel per call,
seeded with the dataset seed, so every call repeats the same draws; RandomCrop and the flips draw as
its kernels do (std::mt19937: the crop's x, then y; a flip compares std::bernoulli_distribution's
double with the probability). Values recorded on MindSpore 2.10 for an 8 x 10 image whose pixel
(y, x) holds 10 y + x; a crop is named by its top-left pixel (y, x), a flip by 1/0.
"""
import numpy as np
import pytest

import sporax.dataset as ds
import sporax.dataset.vision as vision
from sporax.dataset.core import config

IMAGE = (np.arange(8)[:, None] * 10 + np.arange(10)[None, :]).astype(np.uint8)[:, :, None]


def corner(crop):
    value = int(crop[0, 0, 0])
    return [value // 10, value % 10]


def flipped(image):
    return int(image[0, 0, 0] != 0)


@pytest.mark.parametrize("seed, crop4, crop3x5, hflip05, vflip03, hflip09", [
    (0, [2, 3], [3, 3], 0, 0, 1), (1, [4, 2], [5, 2], 0, 0, 0), (2, [0, 3], [1, 2], 1, 1, 1),
    (4, [4, 6], [5, 5], 0, 0, 0), (5, [0, 1], [0, 1], 1, 1, 1), (7, [1, 0], [1, 0], 1, 1, 1),
])
def test_eager_draws_are_mindspores(seeded, seed, crop4, crop3x5, hflip05, vflip03, hflip09):
    seeded(seed)
    assert corner(vision.RandomCrop(4)(IMAGE)) == crop4
    assert corner(vision.RandomCrop((3, 5))(IMAGE)) == crop3x5
    assert flipped(vision.RandomHorizontalFlip(0.5)(IMAGE)) == hflip05
    assert flipped(vision.RandomVerticalFlip(0.3)(IMAGE)) == vflip03
    assert flipped(vision.RandomHorizontalFlip(0.9)(IMAGE)) == hflip09


def test_every_eager_call_repeats_under_a_seed(seeded):
    seeded(0)
    crop = vision.RandomCrop(4)
    assert [corner(crop(IMAGE)) for _ in range(3)] == [[2, 3]] * 3
    seeded(4)
    padded = vision.RandomCrop(6, padding=2)(IMAGE)[:, :, 0]
    assert padded.tolist() == [[46, 47, 48, 49, 0, 0], [56, 57, 58, 59, 0, 0], [66, 67, 68, 69, 0, 0],
                               [76, 77, 78, 79, 0, 0], [0] * 6, [0] * 6]
    # Other random transforms repeat too (their draws are sporax's own).
    jitter = vision.RandomRotation(30)
    assert np.array_equal(jitter(IMAGE), jitter(IMAGE))


def test_without_a_seed_eager_calls_differ(seeded):
    config._state["seed_set"] = False  # restored by the fixture
    crop = vision.RandomCrop(2)
    image = np.arange(400, dtype=np.uint8).reshape(20, 20, 1)
    assert len({int(crop(image)[0, 0, 0]) for _ in range(20)}) > 1
