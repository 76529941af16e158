"""Random transforms inside a seeded pipeline draw as MindSpore 2.10 does.

MindSpore gives each map worker its own copy of a random op, seeded ``std::mt19937(seed + worker)``;
rows go to the workers in turn, the end of each epoch takes a turn too, and a new iterator starts every
stream afresh. Values recorded on MindSpore 2.10 (seed 5, NumpySlicesDataset of 12 images 10 x 10 x 3
whose channel 0 holds 10 y + x, shuffle=False, two iterators of two epochs each, num_parallel_workers 1
and 2): a crop is named by its top-left value, a flip by 1/0, RandomResizedCrop(5) by its first six values.
"""
import numpy as np
import pytest

import sporax.dataset as ds
import sporax.dataset.vision as vision

RECORDED = {
    ("crop", 1): [[1, 44, 11, 44, 2, 13, 13, 22, 41, 40, 30, 43], [12, 30, 4, 11, 2, 41, 23, 22, 32, 1, 1, 41]],
    ("crop", 2): [[1, 44, 44, 11, 11, 4, 44, 10, 2, 40, 13, 2], [32, 13, 22, 22, 21, 41, 43, 40, 32, 30, 13, 43]],
    ("flip", 1): [[1, 0, 1, 0, 1, 1, 1, 1, 0, 0, 0, 0], [1, 0, 1, 1, 1, 0, 0, 1, 0, 1, 1, 0]],
    ("flip", 2): [[1, 0, 0, 1, 1, 1, 0, 1, 1, 0, 1, 1], [0, 1, 0, 1, 1, 0, 0, 0, 0, 0, 1, 0]],
    ("crop_flip", 1): [[6, 44, 16, 44, 7, 18, 18, 27, 41, 40, 30, 43],
                       [17, 30, 9, 16, 7, 41, 23, 27, 32, 6, 6, 41]],
    ("crop_flip", 2): [[6, 44, 44, 16, 16, 9, 44, 15, 7, 40, 18, 7],
                       [32, 18, 22, 27, 26, 41, 43, 40, 32, 30, 18, 43]],
    ("rrc", 1): [[[46, 47, 48, 49, 50, 58], [55, 56, 57, 58, 59, 65], [16, 17, 18, 20, 21, 32],
                  [5, 7, 8, 10, 12, 23], [40, 42, 43, 44, 46, 50], [55, 56, 56, 57, 58, 62],
                  [32, 33, 34, 35, 37, 46], [5, 7, 9, 10, 12, 25], [33, 34, 35, 36, 38, 47],
                  [14, 16, 17, 19, 21, 30], [2, 4, 5, 7, 9, 16], [42, 43, 44, 45, 46, 54]],
                 [[41, 42, 44, 45, 47, 53], [35, 36, 37, 38, 39, 42], [20, 21, 23, 24, 25, 30],
                  [54, 55, 56, 57, 58, 61], [13, 15, 17, 19, 21, 29], [14, 16, 17, 19, 21, 32],
                  [33, 35, 36, 38, 40, 47], [44, 45, 47, 48, 49, 54], [14, 16, 18, 20, 22, 32],
                  [5, 6, 8, 9, 11, 19], [16, 17, 18, 20, 21, 30], [5, 7, 8, 10, 12, 21]]],
    ("rrc", 2): [[[46, 47, 48, 49, 50, 58], [6, 7, 8, 10, 11, 20], [55, 56, 57, 58, 59, 65],
                  [70, 70, 71, 72, 72, 74], [16, 17, 18, 20, 21, 32], [16, 17, 19, 20, 22, 34],
                  [5, 7, 8, 10, 12, 23], [13, 15, 16, 17, 19, 27], [40, 42, 43, 44, 46, 50],
                  [32, 34, 36, 38, 40, 46], [55, 56, 56, 57, 58, 62], [5, 7, 8, 10, 12, 23]],
                 [[16, 17, 19, 20, 22, 34], [32, 33, 34, 35, 37, 46], [14, 16, 18, 20, 22, 32],
                  [5, 7, 9, 10, 12, 25], [13, 15, 17, 19, 21, 29], [33, 34, 35, 36, 38, 47],
                  [15, 16, 16, 17, 18, 22], [14, 16, 17, 19, 21, 30], [6, 8, 10, 12, 14, 26],
                  [2, 4, 5, 7, 9, 16], [14, 16, 17, 19, 21, 30], [42, 43, 44, 45, 46, 54]]],
}
OPS = {"crop": lambda: [vision.RandomCrop(6)], "flip": lambda: [vision.RandomHorizontalFlip()],
       "crop_flip": lambda: [vision.RandomCrop(6), vision.RandomHorizontalFlip()],
       "rrc": lambda: [vision.RandomResizedCrop(5)]}


def images():
    base = np.zeros((12, 10, 10, 3), np.uint8)
    base[:, :, :, 0] = np.arange(100).reshape(10, 10)
    base[:, :, :, 1] = np.arange(12)[:, None, None]
    return base


def named(kind, image):
    plane = image[:, :, 0].astype(int)
    if kind == "flip":
        return int(plane[0, 0] > plane[0, -1])
    return plane.ravel()[:6].tolist() if kind == "rrc" else int(plane[0, 0])


@pytest.mark.parametrize("kind, workers", sorted(RECORDED))
def test_seeded_pipeline_draws_are_mindspores(seeded, kind, workers):
    seeded(5)
    data = ds.NumpySlicesDataset({"image": images()}, shuffle=False).map(
        OPS[kind](), input_columns=["image"], num_parallel_workers=workers)
    for _ in range(2):  # a new iterator starts every stream afresh
        iterator = data.create_tuple_iterator(num_epochs=2, output_numpy=True)
        epochs = [[named(kind, row[0]) for row in iterator] for _ in range(2)]
        assert epochs == RECORDED[kind, workers]


def test_processes_draw_as_the_threads_do(seeded):
    seeded(5)
    data = ds.NumpySlicesDataset({"image": images()}, shuffle=False).map(
        [vision.RandomCrop(6)], input_columns=["image"], num_parallel_workers=2, python_multiprocessing=True)
    assert [named("crop", row[0]) for row in data.create_tuple_iterator(output_numpy=True)] == \
        RECORDED["crop", 2][0]


@pytest.mark.parametrize("seed, values", [
    (0, [53, 62, 72, 72, 81, 90, 90, 100, 109, 109, 118, 128]),
    (5, [54, 59, 64, 75, 80, 85, 96, 101, 106, 117, 122, 127]),
    (7, [39, 44, 48, 54, 59, 63, 69, 74, 78, 84, 89, 93]),
])
def test_eager_random_resized_crop_is_mindspores(seeded, seed, values):
    seeded(seed)
    image = (np.arange(40)[:, None] * 3 + np.arange(30)[None, :]).astype(np.uint8)[:, :, None].repeat(3, 2)
    out = vision.RandomResizedCrop((4, 3), scale=(0.2, 0.9), ratio=(0.5, 2.0))(image)
    assert out[:, :, 0].ravel().tolist() == values


# Seed 5, RandomCrop(6) named by its top-left value, with the row's id (channel 1) where rows are shuffled.
PIPELINES = {
    "shuffled_batch": (lambda src: src(True).map([vision.RandomCrop(6)], num_parallel_workers=2).batch(5),
                       [[[1, 11], [44, 8], [44, 5], [11, 2], [11, 10], [4, 6], [44, 7], [10, 1], [2, 9], [40, 0],
                         [13, 4], [2, 3]],
                        [[32, 4], [13, 7], [22, 5], [22, 0], [21, 8], [41, 2], [43, 10], [40, 9], [32, 3], [30, 1],
                         [13, 11], [43, 6]]]),
    "two_maps": (lambda src: src().map([vision.RandomCrop(6)], num_parallel_workers=2).map(
        [vision.RandomHorizontalFlip()], num_parallel_workers=1),
        [[6, 44, 49, 11, 16, 9, 49, 15, 2, 40, 13, 2], [37, 13, 27, 27, 26, 41, 43, 45, 32, 35, 18, 43]]),
    "repeat_then_map": (lambda src: src().repeat(2).map([vision.RandomCrop(6)], num_parallel_workers=2),
                        [[1, 44, 44, 11, 11, 4, 44, 10, 2, 40, 13, 2, 13, 32, 22, 22, 41, 21, 40, 43, 30, 32, 43, 13],
                         [12, 12, 2, 30, 33, 4, 44, 11, 24, 2, 32, 41, 44, 23, 24, 22, 30, 32, 3, 1, 14, 1, 33, 41]]),
    "map_then_repeat": (lambda src: src().map([vision.RandomCrop(6)], num_parallel_workers=2).repeat(2),
                        [[1, 44, 44, 11, 11, 4, 44, 10, 2, 40, 13, 2, 32, 13, 22, 22, 21, 41, 43, 40, 32, 30, 13, 43],
                         [12, 12, 30, 2, 4, 33, 11, 44, 2, 24, 41, 32, 44, 23, 24, 22, 30, 32, 3, 1, 14, 1, 33, 41]]),
    "crop_then_python": (lambda src: src().map([vision.RandomCrop(6), lambda x: x], num_parallel_workers=2),
                         RECORDED["crop", 2]),
    # MindSpore's take drains its child to the epoch's end: the map draws for every row.
    "take": (lambda src: src().map([vision.RandomCrop(6)], num_parallel_workers=2).take(5),
             [[1, 44, 44, 11, 11], [32, 13, 22, 22, 21]]),
}


@pytest.mark.parametrize("case", sorted(PIPELINES))
def test_seeded_pipelines_draw_as_mindspores(seeded, case):
    build, expected = PIPELINES[case]
    seeded(5)
    data = build(lambda shuffle=False: ds.NumpySlicesDataset({"image": images()}, shuffle=shuffle))
    iterator = data.create_tuple_iterator(num_epochs=2, output_numpy=True)
    epochs = []
    for _ in range(2):
        rows = []
        for row in iterator:
            batch = row[0] if row[0].ndim == 4 else row[0][None]
            rows += [[int(image[0, 0, 0]), int(image[0, 0, 1])] for image in batch]
        epochs.append(rows)
    if not isinstance(expected[0][0], list):
        epochs = [[value for value, _ in rows] for rows in epochs]
    assert epochs == expected
