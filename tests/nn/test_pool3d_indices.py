"""3-d max pooling with return_indices (ops.max_pool3d, nn.MaxPool3d, nn.AdaptiveMaxPool3d) against MindSpore 2.10
values and indices (tests/fixtures/nn/pool3d_indices_mindspore.json, recorded by record_pool3d_indices_oracle.py)."""
import json
import os

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn, ops
from sporax.core import context

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "nn", "pool3d_indices_mindspore.json")
X = np.random.RandomState(0).rand(1, 2, 3, 4, 5).astype(np.float32)

CASES = {
    "adaptive": lambda x: nn.AdaptiveMaxPool3d((2, 3, 2), return_indices=True)(x),
    "pool_pad": lambda x: ops.max_pool3d(x, 2, 1, 1, return_indices=True),
    "pool_ceil": lambda x: ops.max_pool3d(x, (2, 3, 2), (1, 2, 2), (1, 1, 0), ceil_mode=True, return_indices=True),
    "pool_dilated": lambda x: ops.max_pool3d(x, 2, 1, 0, dilation=(1, 2, 2), return_indices=True),
    "cell_pad": lambda x: nn.MaxPool3d(kernel_size=2, stride=1, pad_mode="pad", padding=1, return_indices=True)(x),
}


@pytest.fixture(params=["pynative", "graph"])
def mode(request):
    previous = context.get_context("mode")
    context.set_context(mode=context.GRAPH_MODE if request.param == "graph" else context.PYNATIVE_MODE)
    yield
    context.set_context(mode=previous)


@pytest.mark.parametrize("case", sorted(CASES))
def test_values_and_indices_match_mindspore(case, mode):
    with open(FIXTURE) as handle:
        values, indices, dtype = json.load(handle)[case]
    out, index = CASES[case](Tensor(X))
    np.testing.assert_allclose(out.asnumpy(), values, atol=1e-6)
    np.testing.assert_array_equal(index.asnumpy(), indices)
    assert str(index.dtype) == dtype
    # Each index points at its value in the flat (D*H*W) input.
    flat = X.reshape(1, 2, -1)
    picked = np.take_along_axis(flat, index.asnumpy().reshape(1, 2, -1).astype(np.int64), -1)
    np.testing.assert_allclose(picked.reshape(out.shape), out.asnumpy())


def test_gradient_goes_to_the_maxima():
    x = Tensor(X)
    grad = ms.grad(lambda t: ops.max_pool3d(t, 2, 2, 0, return_indices=True)[0].sum())(x).asnumpy()
    _, index = ops.max_pool3d(x, 2, 2, 0, return_indices=True)
    expected = np.zeros((1, 2, X[0, 0].size), np.float32)
    for channel in range(2):
        np.add.at(expected[0, channel], index.asnumpy()[0, channel].ravel(), 1.0)
    np.testing.assert_allclose(grad.reshape(1, 2, -1), expected)


def test_same_padding_with_indices_raises_as_mindspore():
    with pytest.raises(ValueError, match="pad_mode must be 'pad'"):
        nn.MaxPool3d(kernel_size=2, stride=2, pad_mode="same", return_indices=True)
