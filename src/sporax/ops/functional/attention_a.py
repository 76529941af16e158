"""``flash_attention_score``: scaled dot-product attention in MindSpore's fused-kernel interface, computed
with plain math (``softmax(q k^T * scale + shift, masked) v``).

Contract: layouts 'BSH' (batch, seq, heads*dim), 'SBH', 'BSND' and 'BNSD'; ``head_num`` query heads,
key/value may have fewer heads that divide it (grouped-query attention). ``attn_mask`` holds 1 (or
True) where a query may NOT attend; ``sparse_mode`` 0/1 use ``attn_mask`` (0 also the band
``pre_tokens``/``next_tokens``), 2 is causal from the top left, 3 causal from the bottom right, 4 the
band aligned at the bottom right. ``drop_mask`` (1 keeps) with ``keep_prob`` applies dropout to the
attention weights. Rows with no visible key give zeros.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> q = Tensor(np.ones((1, 4, 8), np.float32))
    >>> ops.flash_attention_score(q, q, q, head_num=2).shape
    (1, 4, 8)
"""
import jax
import jax.numpy as jnp

from sporax.ops._dispatch import array_of, describe, wrap

_LAYOUTS = ("BSH", "SBH", "BSND", "BNSD")


def _to_bnsd(array, layout, heads):
    if layout == "BNSD":
        return array
    if layout == "BSND":
        return jnp.swapaxes(array, 1, 2)
    if layout == "SBH":
        array = jnp.swapaxes(array, 0, 1)
    batch, seq, hidden = array.shape
    return jnp.swapaxes(array.reshape(batch, seq, heads, hidden // heads), 1, 2)


def _from_bnsd(array, layout):
    if layout == "BNSD":
        return array
    array = jnp.swapaxes(array, 1, 2)  # B S N D
    if layout == "BSND":
        return array
    array = array.reshape(array.shape[0], array.shape[1], -1)
    return jnp.swapaxes(array, 0, 1) if layout == "SBH" else array


def _visible(sparse_mode, q_len, kv_len, pre_tokens, next_tokens):
    """Bool (q_len, kv_len): which keys each query may see, from the sparse mode (None: all)."""
    rows = jnp.arange(q_len)[:, None]
    cols = jnp.arange(kv_len)[None, :]
    if sparse_mode == 0:
        if pre_tokens >= kv_len + q_len and next_tokens >= kv_len + q_len:
            return None
        return (cols >= rows - pre_tokens) & (cols <= rows + next_tokens)
    if sparse_mode == 1:
        return None
    shift = kv_len - q_len
    if sparse_mode == 2:
        return cols <= rows
    if sparse_mode == 3:
        return cols <= rows + shift
    if sparse_mode == 4:
        return (cols >= rows + shift - pre_tokens) & (cols <= rows + shift + next_tokens)
    raise NotImplementedError(f"ops.flash_attention_score: sparse_mode={sparse_mode} is not supported by sporax "
                              "(supported: 0 to 4).")


def flash_attention_score(query, key, value, head_num, real_shift=None, drop_mask=None, padding_mask=None,
                          attn_mask=None, prefix=None, actual_seq_qlen=None, actual_seq_kvlen=None, keep_prob=1.0,
                          scalar_value=1.0, pre_tokens=2147483647, next_tokens=2147483647, inner_precise=0,
                          input_layout="BSH", sparse_mode=0):
    """Attention ``softmax(query key^T * scalar_value + real_shift, masked) value`` (see the module doc).

    Args:
        query, key, value (Tensor): in ``input_layout``. head_num (int): the query heads.
        real_shift (Tensor): an additive bias broadcast to (B, N, Sq, Skv). drop_mask (Tensor): 1 keeps.
        attn_mask (Tensor): 1/True masks out, broadcast to (B, N, Sq, Skv). keep_prob (float): Default: 1.0.
        scalar_value (float): the scale of ``q k^T``. pre_tokens, next_tokens (int): the band.
        input_layout (str): 'BSH', 'SBH', 'BSND' or 'BNSD'. sparse_mode (int): 0 to 4.

    Returns:
        Tensor in ``query``'s layout, shape and dtype.
    """
    if input_layout not in _LAYOUTS:
        if input_layout == "TND":
            raise NotImplementedError("ops.flash_attention_score: input_layout='TND' is not supported by sporax; "
                                      f"use one of {_LAYOUTS}.")
        raise ValueError(f"For 'flash_attention_score', 'input_layout' must be one of {_LAYOUTS} or 'TND', but got "
                         f"{input_layout!r}.")
    for name, given in (("padding_mask", padding_mask), ("prefix", prefix), ("actual_seq_qlen", actual_seq_qlen),
                        ("actual_seq_kvlen", actual_seq_kvlen)):
        if given is not None:
            raise NotImplementedError(f"ops.flash_attention_score: '{name}' is not supported by sporax.")
    q = array_of("flash_attention_score", "query", query)
    k = array_of("flash_attention_score", "key", key)
    v = array_of("flash_attention_score", "value", value)
    if q.ndim != len(input_layout) or k.ndim != q.ndim or v.ndim != q.ndim:
        raise ValueError(f"For 'flash_attention_score', query, key and value must be {len(input_layout)}-D for layout "
                         f"{input_layout!r}, but got {describe(query)}, {describe(key)} and {describe(value)}.")
    hidden = q.shape[-1]
    if input_layout in ("BSH", "SBH") and hidden % head_num:
        raise ValueError(f"For 'flash_attention_score', the hidden size {hidden} must be divisible by head_num "
                         f"{head_num}.")
    dim = hidden // head_num if input_layout in ("BSH", "SBH") else q.shape[-1]
    kv_heads = k.shape[-1] // dim if input_layout in ("BSH", "SBH") else k.shape[1 if input_layout == "BNSD" else 2]
    qh = _to_bnsd(q, input_layout, head_num).astype(jnp.float32)
    kh = _to_bnsd(k, input_layout, kv_heads).astype(jnp.float32)
    vh = _to_bnsd(v, input_layout, kv_heads).astype(jnp.float32)
    if head_num % kv_heads:
        raise ValueError(f"For 'flash_attention_score', the key/value heads ({kv_heads}) must divide head_num "
                         f"({head_num}).")
    kh = jnp.repeat(kh, head_num // kv_heads, axis=1)
    vh = jnp.repeat(vh, head_num // kv_heads, axis=1)
    scores = jnp.einsum("bnqd,bnkd->bnqk", qh, kh) * scalar_value
    if real_shift is not None:
        scores = scores + array_of("flash_attention_score", "real_shift", real_shift).astype(jnp.float32)
    visible = jnp.ones(scores.shape, bool)
    if attn_mask is not None:
        visible = visible & ~array_of("flash_attention_score", "attn_mask", attn_mask).astype(bool)
    band = _visible(sparse_mode, scores.shape[-2], scores.shape[-1], pre_tokens, next_tokens)
    if band is not None:
        visible = visible & band
    scores = jnp.where(visible, scores, -jnp.inf)
    weights = jax.nn.softmax(scores, axis=-1)
    weights = jnp.where(visible.any(axis=-1, keepdims=True), weights, 0.0)
    if drop_mask is not None and keep_prob < 1.0:
        keep = array_of("flash_attention_score", "drop_mask", drop_mask).astype(jnp.float32)
        weights = weights * keep / keep_prob
    out = jnp.einsum("bnqk,bnkd->bnqd", weights, vh)
    return wrap(_from_bnsd(out, input_layout).astype(q.dtype))
