"""Samples and NumPy references of the fused attention entries (``flash_attention_score``,
``fused_infer_attention_score``, ``incre_flash_attention``, ``prompt_flash_attention``).

The reference is attention written out in NumPy (float64): heads split from the layout, key/value heads repeated
to the query heads, ``softmax(q k^T * scale + shift)`` over the visible keys (a row with none gives zeros), times
``v``, put back into the layout. Each op's masks (sparse modes, lengths) are built from their documented rule.

Example:
    >>> import numpy as np
    >>> from sporax.ops.functional.attention_samples import numpy_attention
    >>> out, lse = numpy_attention(np.ones((1, 1, 2, 2)), np.ones((1, 1, 3, 2)), np.arange(6.0).reshape(1, 1, 3, 2), 1.0)
    >>> out[0, 0, 0].tolist()
    [2.0, 3.0]
"""
import numpy as np

from sporax.ops.op_table import Sample
from sporax.ops.samples import values

_HUGE = 2147483647


def to_heads(array, layout, heads):
    """(B, N, S, D) of an array in ``layout`` with ``heads`` heads (a 3-letter layout's H is N * D)."""
    if len(layout) == 3:
        array = array.reshape(array.shape[:2] + (heads, -1))
        layout = layout[:2] + "ND"
    return np.transpose(array, [layout.index(axis) for axis in "BNSD"])


def from_heads(array, layout):
    """The (B, N, S, D) ``array`` in ``layout``."""
    axes = layout if len(layout) == 4 else layout[:2] + "ND"
    array = np.transpose(array, ["BNSD".index(axis) for axis in axes])
    return array if len(layout) == 4 else array.reshape(array.shape[:2] + (-1,))


def numpy_attention(q, k, v, scale, shift=None, masked=None):
    """``(out, lse)`` of (B, N, S, D) ``q`` over (B, N_kv, S_kv, D) ``k``/``v``; ``masked`` True hides a key."""
    k, v = (np.repeat(array, q.shape[1] // k.shape[1], axis=1) for array in (k, v))
    scores = np.einsum("bnqd,bnkd->bnqk", q, k) * scale
    if shift is not None:
        scores = scores + shift
    visible = np.ones(scores.shape, bool) if masked is None else ~np.broadcast_to(masked, scores.shape)
    out = np.zeros(q.shape[:3] + (v.shape[-1],))
    lse = np.full(q.shape[:3] + (1,), -np.inf)
    for index in np.ndindex(*scores.shape[:3]):
        row, seen = scores[index], visible[index]
        if not seen.any():
            continue
        top = row[seen].max()
        weights = np.where(seen, np.exp(row - top), 0.0)
        lse[index] = top + np.log(weights.sum())
        out[index] = (weights / weights.sum()) @ v[index[:2]]
    return out, lse


def _band(sparse_mode, q_len, kv_len, pre_tokens, next_tokens):
    """True where the sparse mode hides a key (None: nothing hidden)."""
    rows, columns = np.arange(q_len)[:, None], np.arange(kv_len)[None, :]
    shift = kv_len - q_len
    if sparse_mode == 0:
        return (columns < rows - pre_tokens) | (columns > rows + next_tokens)
    if sparse_mode == 2:
        return columns > rows
    if sparse_mode == 3:
        return columns > rows + shift
    if sparse_mode == 4:
        return (columns < rows + shift - pre_tokens) | (columns > rows + shift + next_tokens)
    return None


def numpy_flash_attention_score(query, key, value, real_shift=None, drop_mask=None, padding_mask=None, attn_mask=None,
                                prefix=None, actual_seq_qlen=None, actual_seq_kvlen=None, head_num=1, keep_prob=1.0,
                                scalar_value=1.0, pre_tokens=_HUGE, next_tokens=_HUGE, inner_precise=0,
                                input_layout="BSH", sparse_mode=0):
    q = to_heads(query, input_layout, head_num)
    dim = q.shape[-1]
    kv_heads = key.shape[-1] // dim if input_layout in ("BSH", "SBH") else to_heads(key, input_layout, 1).shape[1]
    k, v = to_heads(key, input_layout, kv_heads), to_heads(value, input_layout, kv_heads)
    masked = _band(sparse_mode, q.shape[2], k.shape[2], pre_tokens, next_tokens)
    if attn_mask is not None:
        masked = np.asarray(attn_mask, bool) if masked is None else masked | np.asarray(attn_mask, bool)
    return from_heads(numpy_attention(q, k, v, scalar_value, real_shift, masked)[0], input_layout)


def flash_attention_score_samples(dtype):
    bsh_q, bsh_kv = values((1, 3, 8), dtype, seed=3), values((1, 5, 8), dtype, seed=4)
    return [Sample((values((2, 4, 3, 8), dtype, seed=0), values((2, 2, 5, 8), dtype, seed=1),
                    values((2, 2, 5, 8), dtype, seed=2)), {"head_num": 4, "scalar_value": 0.5, "input_layout": "BNSD"}),
            Sample((bsh_q, bsh_kv, bsh_kv * 0.5, values((1, 2, 3, 5), dtype, seed=5)),
                   {"head_num": 2, "sparse_mode": 3})]


def _inference(query, key, value, num_heads, num_key_value_heads, scale, layout, shift=None, masked=None):
    kv_heads = num_key_value_heads or num_heads
    q = to_heads(query, layout, num_heads)
    k, v = to_heads(key, layout, kv_heads), to_heads(value, layout, kv_heads)
    out, lse = numpy_attention(q, k, v, scale, shift, masked)
    return from_heads(out, layout), lse


def numpy_fused_infer_attention_score(query, key, value, pse_shift=None, atten_mask=None, *, num_heads=1, scale=1.0,
                                      pre_tokens=_HUGE, next_tokens=_HUGE, input_layout="BSH", num_key_value_heads=0,
                                      sparse_mode=0, softmax_lse_flag=False, **unsupported):
    out, lse = _inference(query, key, value, num_heads, num_key_value_heads, scale, input_layout, pse_shift,
                          None if atten_mask is None else np.asarray(atten_mask, bool))
    return out, lse if softmax_lse_flag else np.zeros((1,))


def fused_infer_attention_score_samples(dtype):
    return [Sample((values((2, 4, 1, 8), dtype, seed=0), values((2, 2, 6, 8), dtype, seed=1),
                    values((2, 2, 6, 8), dtype, seed=2)),
                   {"num_heads": 4, "num_key_value_heads": 2, "scale": 0.3, "input_layout": "BNSD",
                    "softmax_lse_flag": True}),
            Sample((values((1, 2, 8), dtype, seed=3), values((1, 4, 8), dtype, seed=4), values((1, 4, 8), dtype, seed=5)),
                   {"num_heads": 2})]


def numpy_incre_flash_attention(query, key, value, attn_mask=None, actual_seq_lengths=None, pse_shift=None, *,
                                num_heads=1, input_layout="BSH", scale_value=1.0, num_key_value_heads=0, **unsupported):
    return _inference(query, key, value, num_heads, num_key_value_heads, scale_value, input_layout, pse_shift,
                      None if attn_mask is None else np.asarray(attn_mask, bool))[0]


def incre_flash_attention_samples(dtype):
    return [Sample((values((2, 1, 16), dtype, seed=0), values((2, 6, 8), dtype, seed=1), values((2, 6, 8), dtype, seed=2)),
                   {"num_heads": 4, "num_key_value_heads": 2, "scale_value": 0.3})]


def numpy_prompt_flash_attention(query, key, value, attn_mask=None, actual_seq_lengths=None, actual_seq_lengths_kv=None,
                                 pse_shift=None, *, num_heads=1, scale_value=1.0, pre_tokens=_HUGE, next_tokens=0,
                                 input_layout="BSH", num_key_value_heads=0, sparse_mode=0, **unsupported):
    kv_heads = num_key_value_heads or num_heads
    q = to_heads(query, input_layout, num_heads)
    k, v = to_heads(key, input_layout, kv_heads), to_heads(value, input_layout, kv_heads)
    batch, q_len, kv_len = q.shape[0], q.shape[2], k.shape[2]
    masked = np.zeros((batch, 1, q_len, kv_len), bool)
    if attn_mask is not None:
        masked = masked | np.asarray(attn_mask, bool).reshape((-1, 1, q_len, kv_len))
        if sparse_mode == 0:
            masked = masked | _band(0, q_len, kv_len, pre_tokens, next_tokens)
    if actual_seq_lengths_kv is not None:
        lengths = np.broadcast_to(np.reshape(actual_seq_lengths_kv, -1), (batch,))
        masked = masked | (np.arange(kv_len)[None, None, None, :] >= lengths[:, None, None, None])
    out, _ = numpy_attention(q, k, v, scale_value, pse_shift, masked)
    if actual_seq_lengths is not None:
        lengths = np.broadcast_to(np.reshape(actual_seq_lengths, -1), (batch,))
        out = np.where(np.arange(q_len)[None, None, :, None] < lengths[:, None, None, None], out, 0.0)
    return from_heads(out, input_layout)


def prompt_flash_attention_samples(dtype):
    causal = np.triu(np.ones((3, 3), np.uint8), 1)
    return [Sample((values((2, 4, 3, 2), dtype, seed=0), values((2, 2, 3, 2), dtype, seed=1),
                    values((2, 2, 3, 2), dtype, seed=2)),
                   {"num_heads": 4, "scale_value": 0.5, "input_layout": "BNSD", "num_key_value_heads": 2}),
            Sample((values((2, 3, 8), dtype, seed=3), values((2, 3, 8), dtype, seed=4), values((2, 3, 8), dtype, seed=5),
                    causal), {"num_heads": 4, "scale_value": 0.5}),
            Sample((values((2, 4, 3, 2), dtype, seed=6), values((2, 4, 3, 2), dtype, seed=7),
                    values((2, 4, 3, 2), dtype, seed=8)),
                   {"num_heads": 4, "input_layout": "BNSD", "actual_seq_lengths_kv": [2, 3]})]
