"""Bounding-box Primitives against MindSpore 2.10 (tests/fixtures/api/bbox.npz)."""
import os
import sys

import numpy as np
import pytest

import sporax as ms
from sporax import ops

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "fixtures", "api"))
from record_bbox import run  # noqa: E402  (imports mindspore only when run as a script)

ORACLE = np.load(os.path.join(HERE, "..", "fixtures", "api", "bbox.npz"))
GOT = {}


@pytest.mark.parametrize("key", sorted(ORACLE))
def test_matches_oracle(key):
    if not GOT:
        GOT.update(run(ms, ops))
    assert GOT[key].dtype == ORACLE[key].dtype
    np.testing.assert_allclose(GOT[key], ORACLE[key], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("make, error", [
    (lambda: ops.IOU(mode="giou"), KeyError),
    (lambda: ops.ROIAlign(2, 2, 1.0, sample_num=0), NotImplementedError),
    (lambda: ops.BoundingBoxEncode(means=(0.0, 0.0)), ValueError),
    (lambda: ops.NMSWithMask(1), TypeError),
    (lambda: ops.IOU()(ms.Tensor(np.ones((2, 3), np.float32)), ms.Tensor(np.ones((2, 4), np.float32))), ValueError),
])
def test_bad_arguments(make, error):
    with pytest.raises(error):
        make()
