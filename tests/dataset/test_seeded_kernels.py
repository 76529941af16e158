"""Random kernels give MindSpore 2.10's exact values under a dataset seed, eagerly and in a map of 1 or 2
workers (``seeded_kernel_cases.py``): RandomColor, RandomLighting, CutOut, UniformAugment,
RandomSelectSubpolicy, RandomOrder, the bounding-box transforms (BoundingBoxAugment too), the random
spectrogram masks and Dither's RPDF/GPDF noise."""
import os

import numpy as np
import pytest

import sporax.dataset as ds
import sporax.dataset.vision as vision
from tests.dataset import seeded_kernel_cases

ORACLE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "dataset", "seeded_kernels_oracle.npz")
CASES = dict(seeded_kernel_cases.keys())


@pytest.fixture(scope="module")
def oracle():
    with np.load(ORACLE) as recorded:
        return dict(recorded)


@pytest.mark.parametrize("key", sorted(CASES))
def test_seeded_kernel_equals_mindspores(oracle, key):
    np.testing.assert_array_equal(CASES[key](ds, vision), oracle[key])


def test_cropped_boxes_outside_the_window_are_dropped():
    # A box wholly right of the crop goes; one touching the crop's right edge stays, zero wide (MindSpore 2.10).
    from sporax.dataset.vision.bbox import crop_boxes

    boxes = np.array([[1, 1, 2, 2], [10, 0, 3, 3], [11, 0, 2, 2]], np.float32)
    np.testing.assert_array_equal(crop_boxes(boxes, 0, 0, 10, 10), [[1, 1, 2, 2], [10, 0, 0, 3]])


def test_uniform_augment_inside_compose_draws_as_mindspore():
    # MindSpore's UniformAugment docstring maps Compose([UniformAugment(...), ToTensor()]). Recorded on
    # MindSpore 2.10 under seed 12345: per row, the output shape and its pixel sum modulo 1000, the same
    # with or without the Compose (only row 2 picks CenterCrop).
    from sporax.dataset.transforms import Compose
    data = np.random.RandomState(1).randint(0, 255, size=(6, 100, 100, 3)).astype(np.uint8)
    recorded = [((100, 100, 3), 698), ((100, 100, 3), 477), ((64, 64, 3), 987), ((100, 100, 3), 991),
                ((100, 100, 3), 178), ((100, 100, 3), 51)]
    with_to_tensor = [((3, 100, 100), 885), ((3, 100, 100), 833), ((3, 64, 64), 113), ((3, 100, 100), 925),
                      ((3, 100, 100), 965), ((3, 100, 100), 960)]
    seed = ds.config.get_seed()
    try:
        for extra, expected in (([], recorded), ([vision.ToTensor()], with_to_tensor)):
            ds.config.set_seed(12345)
            members = [vision.CenterCrop(64), vision.RandomColor(), vision.RandomSharpness(), vision.RandomRotation(30)]
            pipeline = ds.NumpySlicesDataset(data, ["image"], shuffle=False).map(
                operations=Compose([vision.UniformAugment(members)] + extra), input_columns="image")
            rows = [row["image"] for row in pipeline.create_dict_iterator(num_epochs=1, output_numpy=True)]
            assert [(row.shape, int(row.astype(np.float64).sum()) % 1000) for row in rows] == expected
    finally:
        ds.config.set_seed(seed)
