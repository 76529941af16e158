"""CropAndResize against outputs recorded from MindSpore 2.10 (tests/fixtures/msst2/record_crop_and_resize.py):
boxes inside, reversed, partly outside the image; crops of one row/column; the three methods."""
import json
import os

import numpy as np
import pytest

from sporax import Tensor, ops

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "msst2", "crop_and_resize.json")
DATA = json.load(open(FIXTURE))


@pytest.mark.parametrize("case", DATA["cases"],
                         ids=[f"{c['method']}-{c['crop_size']}" for c in DATA["cases"]])
def test_crop_and_resize_matches_mindspore(case):
    out = ops.CropAndResize(case["method"], case["extrapolation_value"])(
        Tensor(np.array(DATA["image"], np.float32)), Tensor(np.array(DATA["boxes"], np.float32)),
        Tensor(np.array(DATA["box_index"], np.int32)), tuple(case["crop_size"]))
    assert out.asnumpy().dtype == np.float32
    np.testing.assert_allclose(out.asnumpy(), np.array(case["expect"], np.float32), rtol=1e-5, atol=1e-4)


def test_crop_and_resize_rejects_bad_method():
    with pytest.raises(ValueError, match="CropAndResize"):
        ops.CropAndResize("bicubic")
