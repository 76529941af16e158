"""``flash_attention_score``, ``fused_infer_attention_score``, ``incre_flash_attention``,
``prompt_flash_attention``: scaled dot-product attention in MindSpore's fused-kernel interfaces, computed
with plain math (``softmax(q k^T * scale + shift, masked) v``). All four are op-table entries whose kernels
call the one attention kernel ``_attend``.

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

from sporax.ops._dispatch import array_of, describe
from sporax.ops.functional import attention_samples as samples
from sporax.ops.op_table import ANY, op

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


def _masked_scores(qh, kh, scale, shift, mask, sparse_mode, pre_tokens, next_tokens):
    """``(scores, visible)``: scaled (B, N, Sq, Skv) scores, -inf where ``visible`` is False; kv heads repeated."""
    heads, kv_heads = qh.shape[1], kh.shape[1]
    if heads % kv_heads:
        raise ValueError(f"For attention, the key/value heads ({kv_heads}) must divide the query heads ({heads}).")
    kh = jnp.repeat(kh, heads // kv_heads, axis=1)
    scores = jnp.einsum("bnqd,bnkd->bnqk", qh, kh) * scale
    if shift is not None:
        scores = scores + array_of("attention", "shift", shift).astype(jnp.float32)
    visible = jnp.ones(scores.shape, bool)
    if mask is not None:
        visible = visible & ~array_of("attention", "attn_mask", mask).astype(bool)
    band = _visible(sparse_mode, scores.shape[-2], scores.shape[-1], pre_tokens, next_tokens)
    if band is not None:
        visible = visible & band
    return jnp.where(visible, scores, -jnp.inf), visible


def _attend(qh, kh, vh, scale, shift, mask, sparse_mode, pre_tokens, next_tokens, keep=None):
    """``(out, lse)`` of attention on (B, N, S, D) float32 arrays; kv heads are repeated to N."""
    scores, visible = _masked_scores(qh, kh, scale, shift, mask, sparse_mode, pre_tokens, next_tokens)
    vh = jnp.repeat(vh, qh.shape[1] // vh.shape[1], axis=1)
    lse = jax.nn.logsumexp(scores, axis=-1, keepdims=True)
    any_visible = visible.any(axis=-1, keepdims=True)
    weights = jnp.where(any_visible, jnp.exp(scores - jnp.where(any_visible, lse, 0.0)), 0.0)
    if keep is not None:
        weights = weights * keep
    return jnp.einsum("bnqk,bnkd->bnqd", weights, vh), lse


def softmax_statistics(query, key, value, head_num, real_shift=None, attn_mask=None, scalar_value=1.0,
                       pre_tokens=2147483647, next_tokens=2147483647, input_layout="BSH", sparse_mode=0):
    """FlashAttentionScore's ``(softmax_max, softmax_sum)``: each query row's largest visible score and the sum
    of ``exp(score - max)``, Float32 (B, N, Sq, 8) (the value repeated over the last axis, as MindSpore lays
    it out); a row with no visible key gives max 0 and sum 0."""
    _, qh, kh, _ = heads_of("FlashAttentionScore", query, key, value, head_num, input_layout)
    scores, visible = _masked_scores(qh, kh, scalar_value, real_shift, attn_mask, sparse_mode, pre_tokens,
                                     next_tokens)
    any_visible = visible.any(axis=-1, keepdims=True)
    row_max = jnp.where(any_visible, scores.max(axis=-1, keepdims=True), 0.0)
    row_sum = jnp.where(visible, jnp.exp(scores - row_max), 0.0).sum(axis=-1, keepdims=True)
    shape = row_max.shape[:-1] + (8,)
    return jnp.broadcast_to(row_max, shape), jnp.broadcast_to(row_sum, shape)


def heads_of(op_name, query, key, value, head_num, input_layout):
    """Check query/key/value against ``input_layout`` and ``head_num``; returns ``(query array, q, k, v)`` with
    q/k/v float32 (B, N, S, D) (k and v keep their own head count, which divides ``head_num``)."""
    q = array_of(op_name, "query", query)
    k = array_of(op_name, "key", key)
    v = array_of(op_name, "value", value)
    if q.ndim != len(input_layout) or k.ndim != q.ndim or v.ndim != q.ndim:
        raise ValueError(f"For '{op_name}', query, key and value must be {len(input_layout)}-D for layout "
                         f"{input_layout!r}, but got {describe(query)}, {describe(key)} and {describe(value)}.")
    hidden = q.shape[-1]
    if input_layout in ("BSH", "SBH") and hidden % head_num:
        raise ValueError(f"For '{op_name}', the hidden size {hidden} must be divisible by head_num {head_num}.")
    dim = hidden // head_num if input_layout in ("BSH", "SBH") else q.shape[-1]
    kv_heads = k.shape[-1] // dim if input_layout in ("BSH", "SBH") else k.shape[1 if input_layout == "BNSD" else 2]
    if head_num % kv_heads:
        raise ValueError(f"For '{op_name}', the key/value heads ({kv_heads}) must divide head_num ({head_num}).")
    return (q, _to_bnsd(q, input_layout, head_num).astype(jnp.float32),
            _to_bnsd(k, input_layout, kv_heads).astype(jnp.float32),
            _to_bnsd(v, input_layout, kv_heads).astype(jnp.float32))


_FLASH_INPUTS = ("query", "key", "value", "real_shift", "drop_mask", "padding_mask", "attn_mask", "prefix",
                 "actual_seq_qlen", "actual_seq_kvlen")


@op(inputs=_FLASH_INPUTS, input_dtypes={name: ANY for name in _FLASH_INPUTS[3:8]},
    indices=("actual_seq_qlen", "actual_seq_kvlen"), samples=samples.flash_attention_score_samples,
    reference=samples.numpy_flash_attention_score)
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
    q, qh, kh, vh = heads_of("flash_attention_score", query, key, value, head_num, input_layout)
    keep = None
    if drop_mask is not None and keep_prob < 1.0:
        keep = drop_mask.astype(jnp.float32) / keep_prob
    out, _ = _attend(qh, kh, vh, scalar_value, real_shift, attn_mask, sparse_mode, pre_tokens, next_tokens, keep)
    return _from_bnsd(out, input_layout).astype(q.dtype)


def _inference_attention(op_name, query, key, value, shift, mask, num_heads, num_key_value_heads, scale, layout,
                         sparse_mode, pre_tokens, next_tokens, unsupported):
    """Shared body of the inference attention ops: ``(out in query's layout, lse (B, N, Sq, 1))``."""
    for name, given in unsupported.items():
        if given is not None:
            raise NotImplementedError(f"ops.{op_name}: '{name}' (quantization, paging or varying lengths) is not "
                                      "supported by sporax.")
    if layout not in ("BSH", "BSND", "BNSD"):
        raise ValueError(f"For '{op_name}', 'input_layout' must be 'BSH', 'BSND' or 'BNSD', but got {layout!r}.")
    q, k, v = query, key, value
    kv_heads = num_key_value_heads or num_heads
    if q.ndim != len(layout) or k.ndim != q.ndim or v.ndim != q.ndim:
        raise ValueError(f"For '{op_name}', query, key and value must match layout {layout!r}, but got shapes "
                         f"{q.shape}, {k.shape} and {v.shape}.")
    if layout == "BSH" and q.shape[-1] % num_heads:
        raise ValueError(f"For '{op_name}', the hidden size {q.shape[-1]} must be divisible by num_heads {num_heads}.")
    qh = _to_bnsd(q, layout, num_heads).astype(jnp.float32)
    kh = _to_bnsd(k, layout, kv_heads).astype(jnp.float32)
    vh = _to_bnsd(v, layout, kv_heads).astype(jnp.float32)
    out, lse = _attend(qh, kh, vh, scale, shift, mask, sparse_mode, pre_tokens, next_tokens)
    return _from_bnsd(out, layout).astype(q.dtype), lse


_FUSED_INPUTS = ("query", "key", "value", "pse_shift", "atten_mask", "actual_seq_lengths", "actual_seq_lengths_kv",
                 "dequant_scale1", "quant_scale1", "dequant_scale2", "quant_scale2", "quant_offset2", "antiquant_scale",
                 "antiquant_offset", "key_antiquant_scale", "key_antiquant_offset", "value_antiquant_scale",
                 "value_antiquant_offset", "block_table", "query_padding_size", "kv_padding_size", "key_shared_prefix",
                 "value_shared_prefix", "actual_shared_prefix_len")


@op(inputs=_FUSED_INPUTS, input_dtypes={name: ANY for name in _FUSED_INPUTS[3:]},
    samples=samples.fused_infer_attention_score_samples, reference=samples.numpy_fused_infer_attention_score,
    grad_check=False)
def fused_infer_attention_score(query, key, value, *, pse_shift=None, atten_mask=None, actual_seq_lengths=None,
                                actual_seq_lengths_kv=None, dequant_scale1=None, quant_scale1=None,
                                dequant_scale2=None, quant_scale2=None, quant_offset2=None, antiquant_scale=None,
                                antiquant_offset=None, key_antiquant_scale=None, key_antiquant_offset=None,
                                value_antiquant_scale=None, value_antiquant_offset=None, block_table=None,
                                query_padding_size=None, kv_padding_size=None, key_shared_prefix=None,
                                value_shared_prefix=None, actual_shared_prefix_len=None, num_heads=1, scale=1.0,
                                pre_tokens=2147483647, next_tokens=2147483647, input_layout="BSH",
                                num_key_value_heads=0, sparse_mode=0, inner_precise=1, block_size=0,
                                antiquant_mode=0, key_antiquant_mode=0, value_antiquant_mode=0,
                                softmax_lse_flag=False):
    """Inference attention (prefill or decode): ``(attention_out, softmax_lse)``; ``softmax_lse`` is the
    (B, N, Sq, 1) log-sum-exp of the scores with ``softmax_lse_flag``, else a (1,) zero.

    ``atten_mask`` holds 1 where attention is masked out; ``pse_shift`` is added to the scores; quantization,
    paged KV cache, shared prefixes and per-batch lengths raise NotImplementedError.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> q = Tensor(np.ones((1, 1, 8), np.float32))
        >>> out, lse = ops.fused_infer_attention_score(q, q, q, num_heads=2, softmax_lse_flag=True)
        >>> out.shape, lse.shape
        ((1, 1, 8), (1, 2, 1, 1))
    """
    unsupported = {name: value for name, value in locals().items() if name in (
        "actual_seq_lengths", "actual_seq_lengths_kv", "dequant_scale1", "quant_scale1", "dequant_scale2",
        "quant_scale2", "quant_offset2", "antiquant_scale", "antiquant_offset", "key_antiquant_scale",
        "key_antiquant_offset", "value_antiquant_scale", "value_antiquant_offset", "block_table",
        "query_padding_size", "kv_padding_size", "key_shared_prefix", "value_shared_prefix",
        "actual_shared_prefix_len")}
    out, lse = _inference_attention("fused_infer_attention_score", query, key, value, pse_shift, atten_mask, num_heads,
                                    num_key_value_heads, scale, input_layout, sparse_mode, pre_tokens, next_tokens,
                                    unsupported)
    return out, lse if softmax_lse_flag else jnp.zeros((1,), jnp.float32)


_INCREMENTAL_INPUTS = ("query", "key", "value", "attn_mask", "actual_seq_lengths", "pse_shift", "dequant_scale1",
                       "quant_scale1", "dequant_scale2", "quant_scale2", "quant_offset2", "antiquant_scale",
                       "antiquant_offset", "block_table", "kv_padding_size")


def _joined_cache(name, tensors, layout):
    """``incre_flash_attention``'s ``key``/``value``: one Tensor, or MindSpore's list of them (one per batch
    row, each of batch 1), joined on the batch axis."""
    if len(tensors) == 1:
        return tensors[0]
    shapes = {tuple(tensor.shape) for tensor in tensors}
    if len(shapes) != 1:
        raise NotImplementedError(f"ops.incre_flash_attention: a '{name}' list of Tensors of different shapes "
                                  f"{[tuple(tensor.shape) for tensor in tensors]} (per-batch cache lengths) is not "
                                  "supported by sporax: pad them to one length and pass one Tensor.")
    return jnp.concatenate(tensors, axis=layout.index("B"))


@op(inputs=_INCREMENTAL_INPUTS, input_dtypes={name: ANY for name in _INCREMENTAL_INPUTS[3:]},
    one_or_many=("key", "value"), samples=samples.incre_flash_attention_samples,
    reference=samples.numpy_incre_flash_attention, grad_check=False)
def incre_flash_attention(query, key, value, attn_mask=None, actual_seq_lengths=None, pse_shift=None,
                          dequant_scale1=None, quant_scale1=None, dequant_scale2=None, quant_scale2=None,
                          quant_offset2=None, antiquant_scale=None, antiquant_offset=None, block_table=None,
                          num_heads=1, input_layout="BSH", scale_value=1.0, num_key_value_heads=0, block_size=0,
                          inner_precise=1, kv_padding_size=None):
    """Incremental (decode-step) attention of ``query`` over the cached ``key``/``value``: Tensors, or as
    MindSpore takes them, lists of Tensors (one per batch row, joined on the batch axis).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> q, kv = Tensor(np.ones((1, 1, 8), np.float32)), Tensor(np.ones((1, 5, 8), np.float32))
        >>> ops.incre_flash_attention(q, kv, kv, num_heads=2).shape
        (1, 1, 8)
    """
    unsupported = {name: value for name, value in locals().items() if name in (
        "actual_seq_lengths", "dequant_scale1", "quant_scale1", "dequant_scale2", "quant_scale2", "quant_offset2",
        "antiquant_scale", "antiquant_offset", "block_table", "kv_padding_size")}
    key, value = _joined_cache("key", key, input_layout), _joined_cache("value", value, input_layout)
    out, _ = _inference_attention("incre_flash_attention", query, key, value, pse_shift, attn_mask, num_heads,
                                  num_key_value_heads, scale_value, input_layout, 0, 2147483647, 2147483647,
                                  unsupported)
    return out


# prompt_flash_attention takes no SBH layout.
_PROMPT_LAYOUTS = ("BSH", "BSND", "BNSD")


def _lengths(value, batch):
    return None if value is None else jnp.broadcast_to(value.reshape(-1), (batch,))


_PROMPT_INPUTS = ("query", "key", "value", "attn_mask", "actual_seq_lengths", "actual_seq_lengths_kv", "pse_shift",
                  "deq_scale1", "quant_scale1", "deq_scale2", "quant_scale2", "quant_offset2")


@op(inputs=_PROMPT_INPUTS, input_dtypes={name: ANY for name in _PROMPT_INPUTS[6:] + ("attn_mask",)},
    indices=("actual_seq_lengths", "actual_seq_lengths_kv"), samples=samples.prompt_flash_attention_samples,
    reference=samples.numpy_prompt_flash_attention, grad_check=False)
def prompt_flash_attention(query, key, value, attn_mask=None, actual_seq_lengths=None, actual_seq_lengths_kv=None,
                           pse_shift=None, deq_scale1=None, quant_scale1=None, deq_scale2=None, quant_scale2=None,
                           quant_offset2=None, num_heads=1, scale_value=1.0, pre_tokens=2147483647, next_tokens=0,
                           input_layout="BSH", num_key_value_heads=0, sparse_mode=0, inner_precise=1):
    """``softmax(mask(scale_value * Q K^T + pse_shift)) V``: full-sequence (prefill) attention.

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
        >>> float(ops.prompt_flash_attention(q, q, 2 * q, num_heads=2).asnumpy().max())  # weights sum to 1
        2.0
    """
    name = "prompt_flash_attention"
    if any(v is not None for v in (deq_scale1, quant_scale1, deq_scale2, quant_scale2, quant_offset2)):
        raise NotImplementedError("prompt_flash_attention: the quantisation inputs are not supported by sporax.")
    if sparse_mode not in (0, 1):
        raise NotImplementedError(f"prompt_flash_attention: sparse_mode={sparse_mode} (compressed masks) is not "
                                  "supported by sporax; pass the full attn_mask with sparse_mode 0 or 1.")
    if input_layout not in _PROMPT_LAYOUTS:
        raise ValueError(f"For '{name}', 'input_layout' must be one of {_PROMPT_LAYOUTS}, but got {input_layout!r}.")
    kv_heads = num_key_value_heads or num_heads
    if num_heads % kv_heads:
        raise ValueError(f"For '{name}', 'num_heads' ({num_heads}) must be a multiple of 'num_key_value_heads' "
                         f"({kv_heads}).")
    q = _to_bnsd(query, input_layout, num_heads).astype(jnp.float32)
    k = _to_bnsd(key, input_layout, kv_heads).astype(jnp.float32)
    v = _to_bnsd(value, input_layout, kv_heads).astype(jnp.float32)
    batch, _, q_len, _ = q.shape
    kv_len = k.shape[2]
    masked = jnp.zeros((1, 1, q_len, kv_len), bool)
    if attn_mask is not None:
        mask = attn_mask.astype(bool) if attn_mask.dtype.kind in "biu" else attn_mask != 0
        masked = masked | mask.reshape((mask.shape[0] if mask.ndim > 2 else 1, 1, q_len, kv_len))
        if sparse_mode == 0:
            rows, columns = jnp.arange(q_len)[:, None], jnp.arange(kv_len)[None, :]
            masked = masked | (columns < rows - pre_tokens) | (columns > rows + next_tokens)
    kv_lengths = _lengths(actual_seq_lengths_kv, batch)
    if kv_lengths is not None:
        masked = masked | (jnp.arange(kv_len)[None, None, None, :] >= kv_lengths[:, None, None, None])
    # the masks are composed here: the one attention kernel applies them, no band of its own (sparse mode 1)
    out, _ = _attend(q, k, v, scale_value, pse_shift, masked, 1, pre_tokens, next_tokens)
    q_lengths = _lengths(actual_seq_lengths, batch)
    if q_lengths is not None:
        out = jnp.where(jnp.arange(q_len)[None, None, :, None] < q_lengths[:, None, None, None], out, 0.0)
    return _from_bnsd(out, input_layout).astype(query.dtype)
