"""nn.MaxPool1d(return_indices=True) against values recorded from MindSpore 2.10 (tests/fixtures/proxy)."""
import json
import os

import numpy as np

import sporax as ms
from sporax import Tensor, nn

FIXTURE = json.load(open(os.path.join(os.path.dirname(__file__), "..", "fixtures", "proxy", "proxy.json")))


def test_maxpool1d_return_indices_batched():
    case = FIXTURE["maxpool1d"]
    pool = nn.MaxPool1d(kernel_size=2, stride=1, pad_mode="pad", padding=1, return_indices=True)
    values, indices = pool(Tensor(np.array(case["x"], np.float32)))
    np.testing.assert_array_equal(values.asnumpy(), case["values"])
    np.testing.assert_array_equal(indices.asnumpy(), case["indices"])
    assert indices.dtype == ms.int64


def test_maxpool1d_return_indices_unbatched_and_plain():
    x = np.array(FIXTURE["maxpool1d"]["x"], np.float32)[0]
    values, indices = nn.MaxPool1d(kernel_size=3, stride=2, pad_mode="pad", padding=1,
                                   return_indices=True)(Tensor(x))
    np.testing.assert_array_equal(values.asnumpy(), FIXTURE["maxpool1d_2d"]["values"])
    np.testing.assert_array_equal(indices.asnumpy(), FIXTURE["maxpool1d_2d"]["indices"])
    plain = nn.MaxPool1d(kernel_size=3, stride=2, pad_mode="pad", padding=1)(Tensor(x))
    np.testing.assert_array_equal(plain.asnumpy(), FIXTURE["maxpool1d_2d"]["values"])
