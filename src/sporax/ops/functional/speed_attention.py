"""``ops.speed_fusion_attention``: self-attention with a position bias, a mask, sparse modes and dropout, returning
the softmax statistics the backward pass of MindSpore's fused kernel uses.

``attention_out = Dropout(Softmax(Mask(scale * (pse + q k^T))), keep_prob) v`` for ``pse_type=1``, and
``Softmax(Mask(scale * q k^T + pse))`` for ``pse_type=0``. ``atten_mask`` holds 1/True where a query may
NOT attend; ``sparse_mode`` 0/1 use it (0 also the ``pre_tokens``/``next_tokens`` band), 2 is causal from
the top left, 3 causal from the bottom right, 4 the band at the bottom right (the band replaces the
compressed 2048 x 2048 mask MindSpore takes in modes 2 to 4). Layouts 'BSH', 'SBH', 'BSND', 'BNSD';
key/value may have fewer heads that divide ``head_num``. Dropout draws its keep-mask from the global
random state (``ms.set_seed``); rows with no visible key give zeros.

Returns ``(attention_out, softmax_max, softmax_sum, softmax_out, seed, offset, numels)``:
``softmax_max``/``softmax_sum`` are the row max of the masked scores and ``sum(exp(score - max))``,
float32 of shape (B, N1, S1, 8) (the value repeated 8 times, as MindSpore's kernel stores it);
``softmax_out`` is reserved (an empty tensor); ``seed``/``offset`` identify the dropout stream and
``numels`` is the number of dropout decisions (0 without dropout).

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> q = Tensor(np.ones((1, 4, 8), np.float32))
    >>> out = ops.speed_fusion_attention(q, q, q, 2, "BSH", scale=0.25)
    >>> out[0].shape, out[1].shape
    ((1, 4, 8), (1, 2, 4, 8))
"""
import jax
import jax.numpy as jnp
import numpy as np

from sporax.core import random_state
from sporax.ops.functional.flash_attention import _LAYOUTS, _from_bnsd, _visible, heads_of
from sporax.ops.op_table import ANY, FLOAT, Sample, op
from sporax.ops.samples import values


def _unsupported(name, value, default, why):
    if value != default:
        raise NotImplementedError(f"ops.speed_fusion_attention: {name}={value!r} is not supported by sporax ({why}).")


def _numpy_attention(query, key, value, atten_mask=None, *, head_num, input_layout, scale=1.0):
    """The reference of a 'BSH' or 'BNSD' sample without dropout: the seven outputs, from NumPy."""
    if input_layout == "BSH":
        batch, length, hidden = query.shape
        query, key, value = (np.asarray(array, np.float64).reshape(batch, -1, head_num, hidden // head_num)
                             .transpose(0, 2, 1, 3) for array in (query, key, value))
    scores = np.einsum("bnqd,bnkd->bnqk", query, key) * scale
    if atten_mask is not None:
        scores = np.where(np.asarray(atten_mask, bool), -np.inf, scores)
    row_max = scores.max(axis=-1, keepdims=True)
    exponentials = np.exp(scores - row_max)
    row_sum = exponentials.sum(axis=-1, keepdims=True)
    out = np.einsum("bnqk,bnkd->bnqd", exponentials / row_sum, value)
    if input_layout == "BSH":
        out = out.transpose(0, 2, 1, 3).reshape(batch, length, -1)
    eight = row_max.shape[:-1] + (8,)
    return (out, np.broadcast_to(row_max, eight), np.broadcast_to(row_sum, eight), np.zeros((0,)), np.int64(0),
            np.int64(0), np.int64(0))


def _attention_samples(dtype):
    mask = np.triu(np.ones((3, 3), bool), 1)  # causal: a query sees no later key
    return [Sample((values((1, 4, 8), dtype, seed=1), values((1, 4, 8), dtype, seed=2), values((1, 4, 8), dtype, seed=3)),
                   {"head_num": 2, "input_layout": "BSH", "scale": 0.5}),
            Sample((values((1, 2, 3, 4), dtype, seed=4), values((1, 2, 3, 4), dtype, seed=5),
                    values((1, 2, 3, 4), dtype, seed=6), mask), {"head_num": 2, "input_layout": "BNSD", "scale": 0.25})]


# eager: the dropout's seed and offset are read on the host (as MindSpore's kernel reports them), and its keep-mask
# draws from the global random state per call; without dropout a compiled caller traces it as one program.
@op(inputs=("query", "key", "value", "atten_mask", "pse"), input_dtypes={"atten_mask": ANY}, dtypes=FLOAT,
    eager=True, grad_check=False, samples=_attention_samples, reference=_numpy_attention)
def speed_fusion_attention(query, key, value, head_num, input_layout, *, pse=None, padding_mask=None,
                           atten_mask=None, scale=1.0, keep_prob=1.0, pre_tokens=2147483647, next_tokens=2147483647,
                           inner_precise=0, prefix=None, actual_seq_qlen=None, actual_seq_kvlen=None, sparse_mode=0,
                           gen_mask_parallel=True, sync=False, pse_type=1, q_start_idx=None, kv_start_idx=None):
    """Attention with MindSpore's fused-kernel interface (see the module doc).

    Args:
        query, key, value (Tensor): in ``input_layout``. head_num (int): the query heads.
        input_layout (str): 'BSH', 'SBH', 'BSND' or 'BNSD'.
        pse (Tensor, optional): position bias broadcast to (B, N1, S1, S2). atten_mask (Tensor, optional): 1 masks.
        scale (float): the score scale. keep_prob (float): dropout keep probability in (0, 1].
        pre_tokens, next_tokens (int): the band. sparse_mode (int): 0 to 4. pse_type (int): 0 or 1.

    Returns:
        tuple of 7 Tensors (see the module doc).
    """
    if input_layout not in _LAYOUTS:
        raise NotImplementedError(f"ops.speed_fusion_attention: input_layout={input_layout!r} is not supported by "
                                  f"sporax; use one of {_LAYOUTS}.")
    for name, given in (("padding_mask", padding_mask), ("prefix", prefix), ("actual_seq_qlen", actual_seq_qlen),
                        ("actual_seq_kvlen", actual_seq_kvlen), ("q_start_idx", q_start_idx),
                        ("kv_start_idx", kv_start_idx)):
        _unsupported(name, given, None, "varying sequence lengths, prefixes and generated ALiBi are Ascend kernel "
                                        "features")
    if pse_type not in (0, 1):
        _unsupported("pse_type", pse_type, 1, "the ALiBi bias is generated inside the Ascend kernel; pass it as pse "
                                              "with pse_type 0 instead")
    if not 0.0 < keep_prob <= 1.0:
        raise ValueError(f"For 'speed_fusion_attention', keep_prob must be in (0, 1], but got {keep_prob}.")
    q, qh, kh, vh = heads_of("speed_fusion_attention", query, key, value, head_num, input_layout)
    kh = jnp.repeat(kh, head_num // kh.shape[1], axis=1)
    vh = jnp.repeat(vh, head_num // vh.shape[1], axis=1)
    scores = jnp.einsum("bnqd,bnkd->bnqk", qh, kh)
    bias = None if pse is None else pse.astype(jnp.float32)
    if bias is not None and pse_type == 1:
        scores = (scores + bias) * scale
    else:
        scores = scores * scale + (0.0 if bias is None else bias)
    visible = jnp.ones(scores.shape, bool)
    if atten_mask is not None and sparse_mode in (0, 1):
        visible = visible & ~atten_mask.astype(bool)
    # mode 0 without a mask ignores the band, as MindSpore's kernel does (mode 1: no band)
    band_mode = 1 if sparse_mode == 0 and atten_mask is None else sparse_mode
    band = _visible(band_mode, scores.shape[-2], scores.shape[-1], pre_tokens, next_tokens)
    if band is not None:
        visible = visible & band
    masked = jnp.where(visible, scores, -jnp.inf)
    any_visible = visible.any(axis=-1, keepdims=True)
    row_max = jnp.where(any_visible, masked.max(axis=-1, keepdims=True), 0.0)
    exponentials = jnp.where(visible, jnp.exp(masked - row_max), 0.0)
    row_sum = exponentials.sum(axis=-1, keepdims=True)
    weights = jnp.where(any_visible, exponentials / jnp.where(any_visible, row_sum, 1.0), 0.0)
    numels = 0
    seed = offset = 0
    if keep_prob < 1.0:
        stream = random_state.next_key()
        seed, offset = (int(part) for part in jax.random.key_data(stream).reshape(-1)[:2])
        keep = jax.random.bernoulli(stream, keep_prob, weights.shape)
        weights = jnp.where(keep, weights / keep_prob, 0.0)
        numels = int(weights.size)
    out = jnp.einsum("bnqk,bnkd->bnqd", weights, vh)
    statistics = [jnp.broadcast_to(stat, stat.shape[:-1] + (8,)) for stat in (row_max, row_sum)]
    return (_from_bnsd(out, input_layout).astype(q.dtype), statistics[0], statistics[1], jnp.zeros((0,), q.dtype),
            jnp.asarray(seed, jnp.int64), jnp.asarray(offset, jnp.int64), jnp.asarray(numels, jnp.int64))
