"""MindSpore's Python transforms draw from Python's ``random`` and ``np.random``, which its set_seed seeds.

Recorded on MindSpore 2.10.
"""
import random

import numpy as np

import sporax.dataset as ds
import sporax.dataset.vision as vision


def test_set_seed_seeds_python_and_numpy(seeded):
    seeded(7)
    assert (random.random(), np.random.random()) == (0.32383276483316237, 0.07630828937395717)


# ToTensor + RandomErasing(prob=0.5) on 12 images RandomState(0).randint(0, 256, (12, 16, 16, 3)), seed 5, one
# worker, two iterators of two epochs: each erased box as (top, left, height, width), None when not erased.
# The second iterator goes on with Python's generator (not restarted as the C++ transforms' streams are).
# With two workers MindSpore's threads share Python's generator: two runs of it give different boxes.
ERASED = [[[None, None, None, None, None, None, (10, 0, 4, 11), None, (8, 1, 7, 7), None, (12, 6, 4, 5),
            (4, 7, 10, 7)],
           [(6, 12, 1, 4), (8, 3, 3, 9), (3, 4, 10, 9), (4, 0, 4, 11), (9, 2, 6, 12), (11, 5, 5, 6), (4, 0, 7, 6),
            None, (6, 5, 5, 9), (2, 4, 7, 11), None, (7, 1, 5, 14)]],
          [[None, None, (12, 5, 4, 9), None, (2, 8, 12, 7), None, None, (4, 2, 6, 12), (4, 3, 6, 12), (8, 6, 2, 5),
            (4, 7, 7, 9), None],
           [(7, 1, 6, 14), None, (10, 1, 4, 14), (6, 4, 7, 5), (2, 3, 6, 13), None, None, (2, 1, 4, 7),
            (5, 1, 6, 10), (13, 8, 3, 8), (11, 0, 5, 13), None]]]


def erased_box(image):
    mask = (image == 0).all(0)
    if not mask.any():
        return None
    ys, xs = np.nonzero(mask)
    return int(ys.min()), int(xs.min()), int(ys.max() - ys.min() + 1), int(xs.max() - xs.min() + 1)


def test_seeded_random_erasing_erases_mindspores_boxes(seeded):
    # MindSpore's draws: random() < prob, then per attempt uniform(scale) * area, uniform(ratio) (not its log),
    # width round(sqrt(area * ratio)), height round(width / ratio), randint top and left.
    seeded(5)
    images = np.random.RandomState(0).randint(0, 256, (12, 16, 16, 3)).astype(np.uint8)
    data = ds.NumpySlicesDataset({"image": images}, shuffle=False).map(
        [vision.ToTensor(), vision.RandomErasing(prob=0.5)], input_columns=["image"], num_parallel_workers=1)
    boxes = []
    for _ in range(2):
        iterator = data.create_tuple_iterator(num_epochs=2, output_numpy=True)
        boxes.append([[erased_box(row[0]) for row in iterator] for _ in range(2)])
    assert boxes == ERASED
