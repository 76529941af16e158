"""ops.MaxPoolWithArgmax against MindSpore 2.10 (tests/fixtures/msops/record_max_pool_with_argmax.py):
VALID/SAME padding, rectangular windows and strides, float16/32; values and Int32 argmax."""
import json
import os

import numpy as np
import pytest

from sporax import Tensor, ops

DATA = json.load(open(os.path.join(os.path.dirname(__file__), "..", "fixtures", "msops", "max_pool_with_argmax.json")))
X = np.array(DATA["x"], np.float32)


def _key(value):
    return tuple(value) if isinstance(value, list) else value


@pytest.mark.parametrize("case", DATA["cases"],
                         ids=lambda c: f"{c['kernel']}-{c['strides']}-{c['pad_mode']}-{c['dtype']}")
def test_matches_mindspore(case):
    out, argmax = ops.MaxPoolWithArgmax(kernel_size=_key(case["kernel"]), strides=_key(case["strides"]),
                                        pad_mode=case["pad_mode"])(Tensor(X.astype(case["dtype"])))
    np.testing.assert_array_equal(out.asnumpy().astype(np.float32), case["out"])
    np.testing.assert_array_equal(argmax.asnumpy(), case["argmax"])
    assert str(argmax.asnumpy().dtype) == case["argmax_dtype"]
    # each argmax points at its maximum in the input plane
    samples = X.astype(case["dtype"]).reshape(X.shape[0], -1)
    gathered = np.take_along_axis(samples, argmax.asnumpy().reshape(X.shape[0], -1), axis=1)
    np.testing.assert_array_equal(gathered.reshape(out.shape), out.asnumpy())


def test_rejects_non_4d_input():
    with pytest.raises(ValueError, match="4-D"):
        ops.MaxPoolWithArgmax(kernel_size=2)(Tensor(np.zeros((3, 4, 4), np.float32)))
