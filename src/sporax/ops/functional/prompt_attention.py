"""``prompt_flash_attention``: full-sequence (prefill) attention as plain masked softmax attention.

Layouts 'BSH' (hidden = heads * D), 'BSND' and 'BNSD'; grouped-query attention when
``num_key_value_heads`` divides ``num_heads``. Masking follows the documented sparse modes 0
(default: with ``attn_mask``, the True/1 entries are masked and keys outside
``[i - pre_tokens, i + next_tokens]`` too; without a mask nothing is masked) and 1 (the full
mask only). ``actual_seq_lengths_kv`` masks keys past each batch's length; query rows past
``actual_seq_lengths`` give zeros. Quantisation inputs and the compressed-mask modes 2-4 raise
NotImplementedError.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> q = Tensor(np.ones((1, 2, 4), np.float32))
    >>> ops.prompt_flash_attention(q, q, q, num_heads=2).shape
    (1, 2, 4)
"""
import jax
import jax.numpy as jnp

from sporax.core.tensor import Tensor
from sporax.ops._dispatch import array_of, wrap

_LAYOUTS = ("BSH", "BSND", "BNSD")


def _to_bnsd(array, layout, heads):
    if layout == "BSH":
        batch, seq, hidden = array.shape
        return jnp.transpose(array.reshape(batch, seq, heads, hidden // heads), (0, 2, 1, 3))
    if layout == "BSND":
        return jnp.transpose(array, (0, 2, 1, 3))
    return array


def _from_bnsd(array, layout):
    if layout == "BSH":
        batch, heads, seq, dim = array.shape
        return jnp.transpose(array, (0, 2, 1, 3)).reshape(batch, seq, heads * dim)
    if layout == "BSND":
        return jnp.transpose(array, (0, 2, 1, 3))
    return array


def _lengths(name, arg_name, value, batch):
    if value is None:
        return None
    array = array_of(name, arg_name, value) if isinstance(value, Tensor) else jnp.asarray(value)
    return jnp.broadcast_to(array.reshape(-1), (batch,))


def prompt_flash_attention(query, key, value, attn_mask=None, actual_seq_lengths=None, actual_seq_lengths_kv=None,
                           pse_shift=None, deq_scale1=None, quant_scale1=None, deq_scale2=None, quant_scale2=None,
                           quant_offset2=None, num_heads=1, scale_value=1.0, pre_tokens=2147483647, next_tokens=0,
                           input_layout="BSH", num_key_value_heads=0, sparse_mode=0, inner_precise=1):
    """``softmax(mask(scale_value * Q K^T + pse_shift)) V`` for prefill; see the module docstring for masking."""
    name = "prompt_flash_attention"
    if any(v is not None for v in (deq_scale1, quant_scale1, deq_scale2, quant_scale2, quant_offset2)):
        raise NotImplementedError("prompt_flash_attention: the quantisation inputs are not supported by sporax.")
    if sparse_mode not in (0, 1):
        raise NotImplementedError(f"prompt_flash_attention: sparse_mode={sparse_mode} (compressed masks) is not "
                                  "supported by sporax; pass the full attn_mask with sparse_mode 0 or 1.")
    if input_layout not in _LAYOUTS:
        raise ValueError(f"For '{name}', 'input_layout' must be one of {_LAYOUTS}, but got {input_layout!r}.")
    q_raw = array_of(name, "query", query)
    kv_heads = num_key_value_heads or num_heads
    if num_heads % kv_heads:
        raise ValueError(f"For '{name}', 'num_heads' ({num_heads}) must be a multiple of 'num_key_value_heads' "
                         f"({kv_heads}).")
    q = _to_bnsd(q_raw, input_layout, num_heads).astype(jnp.float32)
    k = _to_bnsd(array_of(name, "key", key), input_layout, kv_heads).astype(jnp.float32)
    v = _to_bnsd(array_of(name, "value", value), input_layout, kv_heads).astype(jnp.float32)
    group = num_heads // kv_heads
    k, v = jnp.repeat(k, group, axis=1), jnp.repeat(v, group, axis=1)
    batch, _, q_len, _ = q.shape
    kv_len = k.shape[2]
    scores = jnp.einsum("bnqd,bnkd->bnqk", q, k) * scale_value
    if pse_shift is not None:
        scores = scores + array_of(name, "pse_shift", pse_shift).astype(jnp.float32)
    masked = jnp.zeros((1, 1, q_len, kv_len), bool)
    if attn_mask is not None:
        mask = array_of(name, "attn_mask", attn_mask)
        mask = mask.astype(bool) if mask.dtype.kind in "biu" else mask != 0
        masked = masked | mask.reshape((mask.shape[0] if mask.ndim > 2 else 1, 1, q_len, kv_len))
        if sparse_mode == 0:
            rows, columns = jnp.arange(q_len)[:, None], jnp.arange(kv_len)[None, :]
            masked = masked | (columns < rows - pre_tokens) | (columns > rows + next_tokens)
    kv_lengths = _lengths(name, "actual_seq_lengths_kv", actual_seq_lengths_kv, batch)
    if kv_lengths is not None:
        masked = masked | (jnp.arange(kv_len)[None, None, None, :] >= kv_lengths[:, None, None, None])
    scores = jnp.where(masked, -jnp.inf, scores)
    weights = jax.nn.softmax(scores, axis=-1)
    weights = jnp.where(jnp.all(masked, axis=-1, keepdims=True), 0.0, weights)  # a fully masked row gives zeros
    out = jnp.einsum("bnqk,bnkd->bnqd", weights, v)
    q_lengths = _lengths(name, "actual_seq_lengths", actual_seq_lengths, batch)
    if q_lengths is not None:
        out = jnp.where(jnp.arange(q_len)[None, None, :, None] < q_lengths[:, None, None, None], out, 0.0)
    return wrap(_from_bnsd(out, input_layout).astype(q_raw.dtype))
