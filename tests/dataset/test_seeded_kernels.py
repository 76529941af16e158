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
