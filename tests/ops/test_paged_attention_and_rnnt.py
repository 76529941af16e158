"""Paged KV cache Primitives against dense attention, RNNTLoss against brute-force path enumeration."""
import itertools

import numpy as np
import pytest

from sporax import Parameter, Tensor, ops

rng = np.random.default_rng(0)


def t(a, dtype=None):
    return Tensor(np.asarray(a, dtype))


def test_reshape_and_cache_then_paged_attention_equals_dense_attention():
    blocks, block_size, kv_heads, head_dim, heads = 4, 2, 1, 4, 2
    key_cache = Parameter(t(np.zeros((blocks, block_size, kv_heads * head_dim)), np.float32), name="k")
    value_cache = Parameter(t(np.zeros((blocks, block_size, kv_heads * head_dim)), np.float32), name="v")
    keys = rng.standard_normal((3, kv_heads * head_dim)).astype(np.float32)
    values = rng.standard_normal((3, kv_heads * head_dim)).astype(np.float32)
    table = np.array([[2, 0]], np.int32)  # tokens 0, 1 in block 2; token 2 in block 0
    slots = np.array([4, 5, 0, -1][:3], np.int32)
    ops.ReshapeAndCache()(t(keys), t(values), key_cache, value_cache, t(slots))
    assert key_cache.asnumpy()[2, 1].tolist() == keys[1].tolist() and key_cache.asnumpy()[0, 0].tolist() == keys[
        2].tolist()
    query = rng.standard_normal((1, 1, heads * head_dim)).astype(np.float32)
    out = ops.PagedAttention(heads, 0.5, kv_heads)(t(query), key_cache, value_cache, t(table), t([3], np.int32))
    q = query.reshape(heads, head_dim)
    scores = q @ keys.T * 0.5
    weights = np.exp(scores - scores.max(1, keepdims=True))
    expected = (weights / weights.sum(1, keepdims=True)) @ values
    np.testing.assert_allclose(out.asnumpy().reshape(heads, head_dim), expected, rtol=1e-5, atol=1e-6)
    bias = rng.standard_normal((1, heads, 1, 3)).astype(np.float32)
    masked = ops.PagedAttentionMask(heads, 0.5, kv_heads)(t(query), key_cache, value_cache, t(table),
                                                         t([3], np.int32), None, None, t(bias))
    scores = scores + bias[0, :, 0]
    weights = np.exp(scores - scores.max(1, keepdims=True))
    np.testing.assert_allclose(masked.asnumpy().reshape(heads, head_dim),
                               (weights / weights.sum(1, keepdims=True)) @ values, rtol=1e-5, atol=1e-6)
    with pytest.raises(NotImplementedError, match="PagedAttention"):
        ops.PagedAttention(heads, 0.5, kv_heads, kv_cache_quant_mode="PER_TOKEN")


def _brute_force_cost(acts, labels, frames, count, blank=0):
    log_probs = acts - np.log(np.exp(acts).sum(-1, keepdims=True))
    total = -np.inf
    # A path: for each of the U emissions, the frame at which it happens (non-decreasing).
    for frames_of in itertools.combinations_with_replacement(range(frames), count):
        score, u = 0.0, 0
        for step in range(frames):
            while u < count and frames_of[u] == step:
                score += log_probs[step, u, labels[u]]
                u += 1
            score += log_probs[step, u, blank]
        total = np.logaddexp(total, score)
    return -total


def test_rnnt_loss_matches_path_enumeration_and_gradient():
    acts = rng.standard_normal((2, 4, 3, 5)).astype(np.float32)
    labels = np.array([[1, 3], [2, 0]], np.int32)
    frames, counts = np.array([4, 3], np.int32), np.array([2, 1], np.int32)
    costs, grads = ops.RNNTLoss()(t(acts), t(labels), t(frames), t(counts))
    expected = [_brute_force_cost(acts[b].astype(np.float64), labels[b], frames[b], counts[b]) for b in range(2)]
    np.testing.assert_allclose(costs.asnumpy(), expected, rtol=1e-5)
    direction = rng.standard_normal(acts.shape)
    eps = 1e-3
    up = sum(_brute_force_cost(acts[b] + eps * direction[b], labels[b], frames[b], counts[b]) for b in range(2))
    down = sum(_brute_force_cost(acts[b] - eps * direction[b], labels[b], frames[b], counts[b]) for b in range(2))
    np.testing.assert_allclose(np.sum(grads.asnumpy() * direction), (up - down) / (2 * eps), rtol=1e-3)
    assert not grads.asnumpy()[1, 3].any()  # frames past input_length get no gradient
    with pytest.raises(ValueError, match="RNNTLoss"):
        ops.RNNTLoss()(t(acts), t(labels[:, :1]), t(frames), t(counts))


def test_lstm_primitive_checks_its_input_shapes():
    with pytest.raises(ValueError, match="LSTM"):
        ops.LSTM(3, 2, 1, True, False, 0.0)(t(np.zeros((2, 1, 3)), np.float32), t(np.zeros((1, 1, 2)), np.float32),
                                           t(np.zeros((1, 1, 2)), np.float32), t(np.zeros((10, 1, 1)), np.float32))
