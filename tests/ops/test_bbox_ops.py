"""Bounding-box Primitives against MindSpore 2.10 (tests/fixtures/api/bbox.npz)."""
import os
import sys

import numpy as np
import pytest

import sporax as ms
from sporax import ops

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "fixtures", "api"))
from record_bbox import ARRAYS as ORACLE_INPUTS, run  # noqa: E402  (imports mindspore only when run as a script)

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
    (lambda: ops.BoundingBoxEncode(means=(0.0, 0.0)), ValueError),
    (lambda: ops.NMSWithMask(1), TypeError),
    (lambda: ops.IOU()(ms.Tensor(np.ones((2, 3), np.float32)), ms.Tensor(np.ones((2, 4), np.float32))), ValueError),
])
def test_bad_arguments(make, error):
    with pytest.raises(error):
        make()


def test_adaptive_roi_align_under_jit_runs_eagerly_with_the_same_values():
    # The adaptive grid's size comes from the ROI values: ms.jit falls back to eager; a raw trace is refused.
    import jax

    features = ms.Tensor(ORACLE_INPUTS["FEATURES"])
    rois = ms.Tensor(ORACLE_INPUTS["ROIS"])
    align = ops.ROIAlign(1, 2, 1.0, sample_num=-1, roi_end_mode=0)
    with pytest.warns(Warning, match="eagerly"):
        got = ms.jit(lambda f, r: align(f, r))(features, rois)
    np.testing.assert_allclose(got.asnumpy(), ORACLE["roi_align_adaptive_end0"], rtol=1e-5)
    with pytest.raises(ValueError, match="ROIAlign.*positive sample_num"):
        jax.jit(lambda f, r: align(ms.Tensor(f), ms.Tensor(r))._value)(features._value, rois._value)


def test_edit_distance_of_its_docstring_with_indices_past_a_shape():
    # MindSpore 2.10's EditDistance docstring: the hypothesis has indices past its shape [1, 1, 2]; MindSpore
    # accepts them and prints [[1. 1.] [1. 1.]] (the output covers the larger shape, [2, 2, 2]).
    Tensor = ms.Tensor
    out = ops.EditDistance(True)(
        Tensor(np.array([[0, 0, 0], [1, 0, 1], [1, 1, 1]], np.int64)), Tensor(np.array([1, 2, 3], np.float32)),
        Tensor(np.array([1, 1, 2], np.int64)),
        Tensor(np.array([[0, 1, 0], [0, 0, 1], [1, 1, 0], [1, 0, 1]], np.int64)),
        Tensor(np.array([1, 3, 2, 1], np.float32)), Tensor(np.array([2, 2, 2], np.int64)))
    assert out.asnumpy().tolist() == [[1.0, 1.0], [1.0, 1.0]]
