"""Conv2DBackpropInput against values recorded from MindSpore 2.10
(tests/fixtures/msst2/record_conv2d_backprop_input.py): valid/same/pad, strides, dilation, groups."""
import json
import os

import numpy as np
import pytest

from sporax import Tensor, ops

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "msst2", "conv2d_backprop_input.json")
CASES = json.load(open(FIXTURE))


@pytest.mark.parametrize("case", CASES, ids=[c["kwargs"]["pad_mode"] + str(i) for i, c in enumerate(CASES)])
def test_conv2d_backprop_input_matches_mindspore(case):
    weight = np.array(case["weight"], np.float32)
    kwargs = {key: tuple(value) if isinstance(value, list) else value for key, value in case["kwargs"].items()}
    dx = ops.Conv2DBackpropInput(weight.shape[0], weight.shape[2:], **kwargs)(
        Tensor(np.array(case["dout"], np.float32)), Tensor(weight), tuple(case["input_size"]))
    np.testing.assert_allclose(dx.asnumpy(), np.array(case["expect"], np.float32), rtol=1e-5, atol=1e-5)
