"""nn.AvgPool3d(pad_mode='same') against MindSpore 2.10 (tests/fixtures/nn/avg_pool3d_same_mindspore.json)."""
import json
import os

import numpy as np
import pytest

from sporax import Tensor, nn

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "nn", "avg_pool3d_same_mindspore.json")
X = np.random.RandomState(0).rand(1, 2, 3, 4, 5).astype(np.float32)
CASES = {
    "avg_same_2_2": dict(kernel_size=2, stride=2),
    "avg_same_3_1": dict(kernel_size=3, stride=1),
    "avg_same_(2, 3, 2)_(1, 2, 2)": dict(kernel_size=(2, 3, 2), stride=(1, 2, 2)),
    "avg_same_cip_True": dict(kernel_size=3, stride=1, count_include_pad=True),
    "avg_same_cip_False": dict(kernel_size=3, stride=1, count_include_pad=False),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_same_padding_matches_mindspore(case):
    with open(FIXTURE) as handle:
        expected = json.load(handle)[case]
    out = nn.AvgPool3d(pad_mode="same", **CASES[case])(Tensor(X))
    np.testing.assert_allclose(out.asnumpy(), expected, rtol=1e-5, atol=1e-6)


def test_unbatched_input_and_padding_check():
    out = nn.AvgPool3d(kernel_size=2, stride=2, pad_mode="same")(Tensor(X[0]))
    assert out.shape == (2, 2, 2, 3)
    with pytest.raises(ValueError, match="padding"):
        nn.AvgPool3d(kernel_size=2, pad_mode="same", padding=1)
