"""Dropout2D / Dropout3D against values recorded from MindSpore 2.10 (tests/fixtures/msst2/record_dropout_nd.py):
kept channels are ``x / keep_prob`` cast back to the input dtype, ``keep_prob=0`` gives zeros (no division)."""
import numpy as np
import pytest

from sporax.ops import operations as P
from sporax import Tensor

# (input dtype, keep_prob, the set of output values MindSpore 2.10 gives for an all-3 input)
CASES = [
    (np.int8, 0.0, {0}), (np.int8, 0.4, {0, 7}), (np.int8, 1.0, {3}),
    (np.int32, 0.0, {0}), (np.int32, 0.4, {0, 7}), (np.int32, 1.0, {3}),
    (np.float16, 0.0, {0.0}), (np.float16, 0.4, {0.0, 7.5}), (np.float16, 1.0, {3.0}),
    (np.float64, 0.0, {0.0}), (np.float64, 0.4, {0.0, 7.5}), (np.float64, 1.0, {3.0}),
]


@pytest.mark.parametrize("primitive, spatial", [(P.Dropout2D, 2), (P.Dropout3D, 3)])
@pytest.mark.parametrize("dtype, keep_prob, values", CASES)
def test_channel_dropout_values(primitive, spatial, dtype, keep_prob, values):
    x = np.full((8, 8) + (2,) * spatial, 3, dtype)
    output, mask = primitive(keep_prob)(Tensor(x))
    output, mask = output.asnumpy(), mask.asnumpy()
    assert output.dtype == dtype and mask.dtype == np.bool_
    assert set(np.unique(output).tolist()) <= values
    if len(values) == 1:
        assert set(np.unique(output).tolist()) == values
    # a channel is kept or dropped whole, and the mask says which
    channels = output.reshape(64, -1)
    assert np.all((channels == channels[:, :1]).all(axis=1))
    np.testing.assert_array_equal(mask.reshape(64, -1)[:, 0], channels[:, 0] != 0)
