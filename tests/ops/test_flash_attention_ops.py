"""FlashAttentionScore (ops.operations.nn_ops): its four outputs against NumPy. MindSpore 2.10 runs the
kernel on Ascend only, so the reference is the math its documentation states: softmax_max/softmax_sum are
each query row's largest visible score and sum of exp(score - max), repeated over a last axis of 8."""
import numpy as np
import pytest

import sporax
from sporax import Tensor, ops
from sporax.ops.operations import FlashAttentionScore

RNG = np.random.RandomState(0)
Q = RNG.randn(2, 3, 8).astype(np.float32)   # BSH: 2 heads of 4
K = RNG.randn(2, 5, 8).astype(np.float32)
V = RNG.randn(2, 5, 8).astype(np.float32)
MASK = (RNG.rand(2, 2, 3, 5) > 0.7).astype(np.uint8)  # 1: masked out
MASK[..., 0] = 0  # every row sees one key at least


def _reference(scale):
    q, k, v = (x.reshape(2, -1, 2, 4).transpose(0, 2, 1, 3).astype(np.float64) for x in (Q, K, V))
    scores = np.where(MASK.astype(bool), -np.inf, q @ k.transpose(0, 1, 3, 2) * scale)
    row_max = scores.max(-1, keepdims=True)
    weights = np.exp(scores - row_max)
    row_sum = weights.sum(-1, keepdims=True)
    out = (weights / row_sum) @ v
    return row_max, row_sum, out.transpose(0, 2, 1, 3).reshape(2, 3, 8)


@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_outputs_match_numpy(mode):
    primitive = FlashAttentionScore(head_num=2, scale_value=0.5)
    call = primitive if mode == "pynative" else sporax.jit(lambda *args: primitive(*args))
    softmax_max, softmax_sum, unused, out = call(Tensor(Q), Tensor(K), Tensor(V), None, None, None, Tensor(MASK))
    row_max, row_sum, expected = _reference(0.5)
    assert softmax_max.shape == (2, 2, 3, 8) and softmax_max.dtype == sporax.float32 and unused.shape == ()
    np.testing.assert_allclose(softmax_max.asnumpy(), np.broadcast_to(row_max, (2, 2, 3, 8)), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(softmax_sum.asnumpy(), np.broadcast_to(row_sum, (2, 2, 3, 8)), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(out.asnumpy(), expected, rtol=1e-5, atol=1e-5)
    functional = ops.flash_attention_score(Tensor(Q), Tensor(K), Tensor(V), 2, attn_mask=Tensor(MASK),
                                           scalar_value=0.5)
    np.testing.assert_array_equal(out.asnumpy(), functional.asnumpy())


def test_head_num_must_be_a_positive_int():
    with pytest.raises(ValueError, match="For 'FlashAttentionScore', 'head_num' must be a positive int"):
        FlashAttentionScore(head_num=0)
