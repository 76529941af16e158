"""nn.MultiFieldEmbeddingLookup: SUM/MEAN/MAX merges against MindSpore 2.10 values; max_norm against NumPy
(MindSpore 2.10's CPU ClipByNorm kernel mixes elements of neighbouring rows into the norm, so its
max_norm values are not the documented per-row clipping)."""
import numpy as np
import pytest

from sporax import Tensor, nn

TABLE = (np.arange(20, dtype=np.float32).reshape(5, 4) - 7) / 3
IDS = np.array([[0, 1, 4, 2], [3, 3, 1, 0]], np.int32)
VALUES = np.array([[1.0, -2.0, 0.5, 0.0], [0.0, 1.5, -1.0, 2.0]], np.float32)
FIELDS = np.array([[0, 0, 2, 1], [1, 1, 0, 0]], np.int32)
EXPECTED = {"SUM": [[[-0.3333300054073334, -0.666670024394989, -1.0, -1.3333300352096558], [0.0, 0.0, 0.0, 0.0], [1.5, 1.6666699647903442, 1.8333300352096558, 2.0]], [[-3.666670083999634, -3.333329916000366, -3.0, -2.666670083999634], [2.5, 3.0, 3.5, 4.0], [0.0, 0.0, 0.0, 0.0]]], "MEAN": [[[-0.11111000180244446, -0.22222000360488892, -0.3333300054073334, -0.44444000720977783], [0.0, 0.0, 0.0, 0.0], [3.0, 3.333329916000366, 3.666670083999634, 4.0]], [[-1.2222199440002441, -1.111109972000122, -1.0, -0.8888900279998779], [1.6666699647903442, 2.0, 2.333329916000366, 2.666670083999634], [0.0, 0.0, 0.0, 0.0]]], "MAX": [[[2.0, 1.3333300352096558, 0.666670024394989, -0.0], [-0.0, -0.0, -0.0, -0.0], [1.5, 1.6666699647903442, 1.8333300352096558, 2.0]], [[1.0, 0.666670024394989, 0.3333300054073334, -0.0], [2.5, 3.0, 3.5, 4.0], [-0.0, -0.0, -0.0, -0.0]]]}


def _run(operator, max_norm=None):
    net = nn.MultiFieldEmbeddingLookup(5, 4, 3, param_init=Tensor(TABLE), operator=operator, max_norm=max_norm)
    return net(Tensor(IDS), Tensor(VALUES), Tensor(FIELDS)).asnumpy()


@pytest.mark.parametrize("operator", ["SUM", "MEAN", "MAX"])
def test_merges_match_mindspore(operator):
    np.testing.assert_allclose(_run(operator), EXPECTED[operator], atol=1e-5)


def test_max_norm_clips_each_looked_up_row():
    rows = TABLE[IDS]
    norms = np.linalg.norm(rows, axis=-1, keepdims=True)
    rows = rows * 2.0 / np.maximum(norms, 2.0)
    expected = np.zeros((2, 3, 4), np.float32)
    for b in range(2):
        for s in range(4):
            expected[b, FIELDS[b, s]] += VALUES[b, s] * rows[b, s]
    np.testing.assert_allclose(_run("SUM", max_norm=2.0), expected, atol=1e-5)


def test_bad_inputs_are_named():
    net = nn.MultiFieldEmbeddingLookup(5, 4, 3)
    with pytest.raises(TypeError, match="field_ids"):
        net(Tensor(IDS), Tensor(VALUES), Tensor(FIELDS.astype(np.int64)))
    with pytest.raises(ValueError, match="input_values"):
        net(Tensor(IDS), Tensor(VALUES[0]), Tensor(FIELDS))
    with pytest.raises(ValueError, match="operator"):
        nn.MultiFieldEmbeddingLookup(5, 4, 3, operator="MIN")
