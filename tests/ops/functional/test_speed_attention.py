"""ops.speed_fusion_attention against a NumPy reference written from MindSpore's documented formula."""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, ops


def _reference(q, k, v, pse, mask, scale, pse_type, visible_band=None):
    """q (B, N, S1, D), k/v (B, N, S2, D) -> out, row max, row sum."""
    scores = np.einsum("bnqd,bnkd->bnqk", q, k)
    if pse is not None:
        scores = (scores + pse) * scale if pse_type == 1 else scores * scale + pse
    else:
        scores = scores * scale
    visible = np.ones(scores.shape, bool)
    if mask is not None:
        visible &= ~mask.astype(bool)
    if visible_band is not None:
        visible &= visible_band
    masked = np.where(visible, scores, -np.inf)
    row_max = masked.max(-1, keepdims=True)
    exps = np.where(visible, np.exp(masked - row_max), 0.0)
    row_sum = exps.sum(-1, keepdims=True)
    return np.einsum("bnqk,bnkd->bnqd", exps / row_sum, v), row_max, row_sum


@pytest.mark.parametrize("pse_type", [0, 1])
def test_bnsd_with_bias_and_mask_matches_the_formula(pse_type):
    rng = np.random.default_rng(0)
    q, k, v = (rng.standard_normal((2, 2, 3, 4)).astype(np.float32) for _ in range(3))
    pse = rng.standard_normal((1, 2, 3, 3)).astype(np.float32)
    mask = np.zeros((3, 3), np.uint8)
    mask[0, 2] = 1
    out, row_max, row_sum, reserved, _, _, numels = ops.speed_fusion_attention(
        Tensor(q), Tensor(k), Tensor(v), 2, "BNSD", pse=Tensor(pse), atten_mask=Tensor(mask), scale=0.5,
        pse_type=pse_type)
    expected, expected_max, expected_sum = _reference(q, k, v, pse, mask, 0.5, pse_type)
    np.testing.assert_allclose(out.asnumpy(), expected, rtol=1e-5, atol=1e-6)
    assert row_max.shape == (2, 2, 3, 8)
    np.testing.assert_allclose(row_max.asnumpy(), np.broadcast_to(expected_max, (2, 2, 3, 8)), rtol=1e-5)
    np.testing.assert_allclose(row_sum.asnumpy(), np.broadcast_to(expected_sum, (2, 2, 3, 8)), rtol=1e-5)
    assert reserved.shape == (0,) and int(numels) == 0


def test_bsh_causal_grouped_heads():
    rng = np.random.default_rng(1)
    q = rng.standard_normal((1, 4, 8)).astype(np.float32)  # 2 heads of 4
    kv = rng.standard_normal((1, 4, 4)).astype(np.float32)  # 1 key/value head
    out = ops.speed_fusion_attention(Tensor(q), Tensor(kv), Tensor(kv), 2, "BSH", scale=0.5, sparse_mode=2)[0]
    heads = q.reshape(1, 4, 2, 4).transpose(0, 2, 1, 3)
    kvh = np.repeat(kv.reshape(1, 4, 1, 4).transpose(0, 2, 1, 3), 2, axis=1)
    expected = _reference(heads, kvh, kvh, None, None, 0.5, 1, np.tril(np.ones((4, 4), bool)))[0]
    np.testing.assert_allclose(out.asnumpy(), expected.transpose(0, 2, 1, 3).reshape(1, 4, 8), rtol=1e-5, atol=1e-6)


def test_dropout_keeps_the_expected_share_and_follows_the_seed():
    q = Tensor(np.ones((1, 1, 64, 4), np.float32))
    ms.set_seed(3)
    first = ops.speed_fusion_attention(q, q, q, 1, "BNSD", keep_prob=0.5)
    ms.set_seed(3)
    again = ops.speed_fusion_attention(q, q, q, 1, "BNSD", keep_prob=0.5)
    np.testing.assert_array_equal(first[0].asnumpy(), again[0].asnumpy())
    assert int(first[6]) == 64 * 64
    # uniform weights 1/64, kept ones scaled by 2: each output is 2 * (kept share) in expectation 1
    assert abs(float(first[0].asnumpy().mean()) - 1.0) < 0.1


def test_unsupported_options_say_so():
    q = Tensor(np.ones((1, 1, 2, 4), np.float32))
    with pytest.raises(NotImplementedError, match="TND"):
        ops.speed_fusion_attention(q, q, q, 1, "TND")
    with pytest.raises(NotImplementedError, match="pse_type=2"):
        ops.speed_fusion_attention(q, q, q, 1, "BNSD", pse_type=2)
