"""The pieces of MindSpore's functional multi-head attention that libraries import from its private path.

MindSpore 2.10 builds ``nn.MultiheadAttention`` from helpers in ``mindspore.ops.function.nn_func``
(``linear``, ``_in_projection_packed``, ``_check_qkv_shape`` ...). They are not public API, but
ecosystem libraries (mindone's ``MultiheadAttention`` adapter) import them by name to assemble their
own attention; the compat table serves them at that path (``PRIVATE_HOMES``). Each works on Tensors
with MindSpore's shapes, results and error messages. sporax's own ``nn.MultiheadAttention`` runs one
fused kernel and does not use them.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.ops.functional import multihead_attention_pieces as pieces
    >>> x = Tensor(np.ones((2, 3, 4), np.float32))
    >>> q, k, v = pieces._in_projection_packed(x, x, x, Tensor(np.ones((12, 4), np.float32)), None, True, True)
    >>> q.shape, pieces._check_qkv_shape(3, 3, 3)
    ((2, 3, 4), True)
"""
import math

from sporax.core import dtype as mstype
from sporax.ops.functional.softmax import softmax
from sporax.ops.functional.array import cast, swapaxes
from sporax.ops.functional.array_joining import concat, split, tensor_split
from sporax.ops.functional.creation import ones, zeros
from sporax.ops.functional.dropouts import dropout
from sporax.ops.functional.linalg import matmul
from sporax.ops.functional.math_counting import is_floating_point
from sporax.ops.functional.sampling import pad


def linear(x, w, b):
    """``x @ w.T + b`` over the last axis of ``x`` (``b`` may be None): a Dense layer's product."""
    out = matmul(x, swapaxes(w, -1, -2))
    return out if b is None else out + b


def _inner_dropout(x, p, training):
    """Dropout of ``x`` with probability ``p`` while ``training``; ``x`` itself otherwise or when ``p`` is 0."""
    if training and 0.0 < p <= 1.0:
        return dropout(x, p=p, training=True)
    return x


def _in_projection(q, k, v, w_q, w_k, w_v, b_q=None, b_k=None, b_v=None):
    """Project query, key and value by their own weights ``(E, E)``, ``(E, Ek)``, ``(E, Ev)`` and biases ``(E,)``.

    Raises:
        ValueError: a weight or bias shape does not fit the embedding sizes of ``q``, ``k``, ``v``.
    """
    embed, key_embed, value_embed = q.shape[-1], k.shape[-1], v.shape[-1]
    for role, weight, expected in (("query", w_q, (embed, embed)), ("key", w_k, (embed, key_embed)),
                                   ("value", w_v, (embed, value_embed))):
        if tuple(weight.shape) != expected:
            raise ValueError(f"Expecting {role} weights shape of {expected}, but got {tuple(weight.shape)}")
    for role, bias in (("query", b_q), ("key", b_k), ("value", b_v)):
        if bias is not None and tuple(bias.shape) != (embed,):
            raise ValueError(f"Expecting {role} bias shape of {(embed,)}, but got {tuple(bias.shape)}")
    return linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)


def _in_projection_packed(q, k, v, w, b, k_is_v, q_is_k):
    """Project query, key and value by one packed weight ``(3E, E)`` (and bias ``(3E,)``, or None).

    ``k_is_v`` and ``q_is_k`` say which inputs are the same tensor: self-attention projects once and
    splits three ways, encoder-decoder attention projects key and value together.
    """
    embed = q.shape[-1]
    if k_is_v and q_is_k:
        return tuple(tensor_split(linear(q, w, b), 3, axis=-1))
    if k_is_v:
        w_q, w_kv = split(w, [embed, 2 * embed])
        b_q, b_kv = (None, None) if b is None else split(b, [embed, 2 * embed])
        return (linear(q, w_q, b_q),) + tuple(tensor_split(linear(k, w_kv, b_kv), 2, axis=-1))
    w_q, w_k, w_v = tensor_split(w, 3)
    b_q, b_k, b_v = (None, None, None) if b is None else tensor_split(b, 3)
    return linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)


def _check_qkv_shape(query_ndim, key_ndim, value_ndim):
    """Whether the attention inputs are batched (3-D) rather than unbatched (2-D); ValueError for any other mix."""
    if query_ndim == 3:
        if key_ndim != 3 or value_ndim != 3:
            raise ValueError(f"For batched `query`, the `key` and `value` must be 3D tensor, "
                             f"but got `key` with {key_ndim}D and `value` with {value_ndim}D.")
        return True
    if query_ndim == 2:
        if key_ndim != 2 or value_ndim != 2:
            raise ValueError(f"For unbatched `query`, the `key` and `value` must be 2D tensor, "
                             f"but got `key` with {key_ndim}D and `value` with {value_ndim}D.")
        return False
    raise ValueError(f"The `query` should be unbatched 2D or batched 3D tensor, but got `query` with {query_ndim}D.")


def _check_kpm_shape(query_ndim, kmp_ndim):
    """ValueError unless ``key_padding_mask`` is 2-D for a batched query, 1-D for an unbatched one."""
    if query_ndim == 3 and kmp_ndim != 2:
        raise ValueError(f"For batched `query`, the `key_padding_mask` must be `None` or 2D, "
                         f"but got `key_padding_mask` with {kmp_ndim}D.")
    if query_ndim == 2 and kmp_ndim != 1:
        raise ValueError(f"For unbatched `query`, the `key_padding_mask` must be `None` or 1D, "
                         f"but got `key_padding_mask` with {kmp_ndim}D.")


def _check_attn_mask_shape(query_ndim, query_shape, key_shape, attn_mask_ndim, attn_mask_shape, num_heads):
    """ValueError unless ``attn_mask`` is 2-D or 3-D; an unbatched query's 3-D mask is (heads, L, S)."""
    if query_ndim not in (2, 3):
        return
    batching = "batched" if query_ndim == 3 else "unbatched"
    if attn_mask_ndim not in (2, 3):
        # MindSpore's message, its missing space included (libraries match on it).
        raise ValueError(f"For {batching} `query`, the `attn_mask` must be `None`, 2-D or 3-D, "
                         f"but got `attn_mask` with{attn_mask_ndim}D.")
    if query_ndim == 2 and attn_mask_ndim == 3:
        expected = (num_heads, query_shape[0], key_shape[0])
        if tuple(attn_mask_shape) != expected:
            raise ValueError(f"The shape of `attn_mask` must to be {expected}, but got {tuple(attn_mask_shape)}.")


def _inner_pad(x, padding, value=None):
    """``ops.pad`` that also pads a bool mask (as 0/1 integers; the result keeps ``x``'s dtype)."""
    if x.dtype == mstype.bool_:
        return cast(pad(cast(x, mstype.int32), padding, value=value), mstype.bool_)
    return pad(x, padding, value=value)


def _scaled_dot_product_attention(query, key, value, attn_mask, dropout_p, is_causal, is_training):
    """Softmax attention of (N, H, L, D) heads; returns the output and the attention weights."""
    scale = math.sqrt(math.sqrt(query.shape[-1]))  # split between query and key, as MindSpore scales
    if is_causal:
        # MindSpore adds its lower-triangular bool mask as 0/1 (it does not mask with -inf); kept for parity.
        attn_mask = ones((query.shape[-2], key.shape[-2]), mstype.bool_).tril()
    scores = matmul(query / scale, swapaxes(key, -2, -1) / scale)
    if attn_mask is not None:
        scores = scores + attn_mask
    weights = _inner_dropout(softmax(scores, -1), dropout_p, is_training)
    return matmul(weights, value), weights


def _checked_attn_mask(attn_mask, tgt_len, src_len, heads):
    """The attention mask as (1 or N*H, L, S): uint8 read as bool; only float and bool otherwise."""
    if attn_mask.dtype == mstype.uint8:
        attn_mask = attn_mask.astype(mstype.bool_)
    elif not is_floating_point(attn_mask) and attn_mask.dtype != mstype.bool_:
        raise ValueError(f"`attn_mask` only support float, byte, and bool types, but got not {attn_mask.dtype}.")
    expected = {2: (tgt_len, src_len), 3: (heads, tgt_len, src_len)}.get(attn_mask.ndim)
    if expected is None:
        raise ValueError(f"The ndim of `attn_mask` only support 2 or 3, but got {attn_mask.ndim}.")
    if tuple(attn_mask.shape) != expected:
        raise ValueError(f"The shape of the `attn_mask` should be {expected}, but got {tuple(attn_mask.shape)}.")
    return attn_mask.expand_dims(0) if attn_mask.ndim == 2 else attn_mask


def _heads(x, length, heads, head_dim, static, name):
    """(S, N, E) projections as (N*H, S, D) heads, or the caller's precomputed ``static_k``/``static_v``."""
    if static is None:
        return swapaxes(x.reshape((length, heads, head_dim)), 0, 1)
    if static.shape[0] != heads:
        raise ValueError(f"The shape[0] of `{name}` should be {heads}, but got {static.shape[0]}")
    if static.shape[2] != head_dim:
        raise ValueError(f"The shape[2] of `{name}` should be {head_dim}, but got {static.shape[2]}")
    return static


def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads, in_proj_weight,
                                 in_proj_bias, bias_k, bias_v, add_zero_attn, dropout_p, out_proj_weight,
                                 out_proj_bias, training=True, key_padding_mask=None, attn_mask=None,
                                 use_separate_proj_weight=False, q_proj_weight=None, k_proj_weight=None,
                                 v_proj_weight=None, static_k=None, static_v=None, average_attn_weights=True,
                                 is_causal=False, k_is_v=False, q_is_k=False, dtype=mstype.float32):
    """Multi-head attention of sequence-first inputs, with the weights passed in (``nn.MultiheadAttention``'s math).

    Args:
        query, key, value (Tensor): (L, N, E), (S, N, Ek), (S, N, Ev); or unbatched (L, E), (S, Ek), (S, Ev).
        embed_dim_to_check (int): E, checked against ``query``. num_heads (int): H, dividing E.
        in_proj_weight, in_proj_bias (Tensor): the packed (3E, E) projection and (3E,) bias (bias may be None).
        bias_k, bias_v (Tensor): (1, 1, E) rows appended to key and value, or None (both or neither).
        add_zero_attn (bool): append a zero key/value row. dropout_p (float): attention-weight dropout.
        out_proj_weight, out_proj_bias (Tensor): the output projection.
        training (bool): apply dropout. key_padding_mask (Tensor): (N, S) bool (True: padding) or float (added).
        attn_mask (Tensor): (L, S) or (N*H, L, S), bool, uint8 or float.
        use_separate_proj_weight (bool): project with ``q/k/v_proj_weight`` instead of ``in_proj_weight``.
        static_k, static_v (Tensor): precomputed (N*H, S, D) key/value heads.
        average_attn_weights (bool): average the returned weights over heads.
        is_causal (bool): add MindSpore's lower-triangular mask. k_is_v, q_is_k (bool): which inputs are one tensor.
        dtype: unused by sporax (MindSpore's scaling dtype; the scale is computed in Python floats).

    Returns:
        Tuple of the output (L, N, E) and the weights (N, L, S), or (N, H, L, S) without averaging.
    """
    is_batched = _check_qkv_shape(query.ndim, key.ndim, value.ndim)
    if key_padding_mask is not None:
        _check_kpm_shape(query.ndim, key_padding_mask.ndim)
    if attn_mask is not None:
        _check_attn_mask_shape(query.ndim, query.shape, key.shape, attn_mask.ndim, attn_mask.shape, num_heads)
    if not is_batched:
        query, key, value = query.expand_dims(1), key.expand_dims(1), value.expand_dims(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.expand_dims(0)
    tgt_len, bsz, embed_dim = query.shape
    src_len = key.shape[0]
    if key_padding_mask is not None and key_padding_mask.dtype != mstype.bool_ \
            and not is_floating_point(key_padding_mask):
        raise ValueError("The `key_padding_mask` only supports bool and floating dtypes.")
    if embed_dim != embed_dim_to_check:
        raise ValueError(f"The `embed_dim` should be {embed_dim_to_check}, but got {embed_dim}.")
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise ValueError(f"The `embed_dim` {embed_dim} can not be divisible by `num_heads` {num_heads}.")
    heads = bsz * num_heads

    if use_separate_proj_weight:
        if tuple(key.shape[:2]) != tuple(value.shape[:2]):
            raise ValueError(f"The sequence length and batch dims of `key`: {tuple(key.shape[:2])} do not match "
                             f"`value`: {tuple(value.shape[:2])}.")
        for name, weight in (("q_proj_weight", q_proj_weight), ("k_proj_weight", k_proj_weight),
                             ("v_proj_weight", v_proj_weight)):
            if weight is None:
                raise ValueError(f"`use_separate_proj_weight` is ``True`` but `{name}` got ``None``.")
        biases = (None, None, None) if in_proj_bias is None else tensor_split(in_proj_bias, 3)
        q, k, v = _in_projection(query, key, value, q_proj_weight, k_proj_weight, v_proj_weight, *biases)
    else:
        if tuple(key.shape) != tuple(value.shape):
            raise ValueError(f"The shape of `key` {tuple(key.shape)} does not match `value` {tuple(value.shape)}.")
        if in_proj_weight is None:
            raise ValueError("`use_separate_proj_weight` is ``False`` but `in_proj_weight` got ``None``.")
        q, k, v = _in_projection_packed(query, key, value, in_proj_weight, in_proj_bias, k_is_v, q_is_k)

    if attn_mask is not None:
        attn_mask = _checked_attn_mask(attn_mask, tgt_len, src_len, heads)
    if (bias_k is None) != (bias_v is None):
        raise ValueError("The bias_k and bias_v should be ``None``at the same time.")
    if bias_k is not None:
        if static_k is not None:
            raise ValueError("The bias_k cannot be added to static_k.")
        if static_v is not None:
            raise ValueError("The bias_v cannot be added to static_v.")
        k, v = concat([k, bias_k.tile((1, bsz, 1))]), concat([v, bias_v.tile((1, bsz, 1))])
        attn_mask = None if attn_mask is None else _inner_pad(attn_mask, (0, 1))
        key_padding_mask = None if key_padding_mask is None else _inner_pad(key_padding_mask, (0, 1))

    q = swapaxes(q.reshape((tgt_len, heads, head_dim)), 0, 1)
    k = _heads(k, k.shape[0], heads, head_dim, static_k, "static_k")
    v = _heads(v, v.shape[0], heads, head_dim, static_v, "static_v")
    if add_zero_attn:
        k = concat([k, zeros((heads, 1, head_dim), k.dtype)], axis=1)
        v = concat([v, zeros((heads, 1, head_dim), v.dtype)], axis=1)
        attn_mask = None if attn_mask is None else _inner_pad(attn_mask, (0, 1))
        key_padding_mask = None if key_padding_mask is None else _inner_pad(key_padding_mask, (0, 1))
    src_len = k.shape[1]

    if key_padding_mask is not None:
        if tuple(key_padding_mask.shape) != (bsz, src_len):
            raise ValueError(f"The shape of `key_padding_mask` should be {(bsz, src_len)}, "
                             f"but got {tuple(key_padding_mask.shape)}.")
        key_padding_mask = key_padding_mask.reshape((bsz, 1, 1, src_len)).tile((1, num_heads, 1, 1)) \
            .reshape((heads, 1, src_len))
        if attn_mask is None:
            attn_mask = key_padding_mask
        elif attn_mask.dtype == mstype.bool_:
            attn_mask = attn_mask.logical_or(key_padding_mask)
        else:
            attn_mask = attn_mask + key_padding_mask
    if attn_mask is not None and attn_mask.dtype == mstype.bool_:
        attn_mask = zeros(attn_mask.shape, q.dtype).masked_fill(attn_mask, float("-inf"))
    if attn_mask is not None:
        attn_mask = attn_mask.expand_dims(0) if attn_mask.shape[0] == 1 \
            else attn_mask.reshape((bsz, num_heads, -1, src_len))

    output, weights = _scaled_dot_product_attention(
        q.reshape((bsz, num_heads, tgt_len, head_dim)), k.reshape((bsz, num_heads, src_len, head_dim)),
        v.reshape((bsz, num_heads, src_len, head_dim)), attn_mask, dropout_p, is_causal, training)
    output = output.transpose(2, 0, 1, 3).reshape((bsz * tgt_len, embed_dim))
    output = linear(output, out_proj_weight, out_proj_bias).reshape((tgt_len, bsz, -1))
    weights = weights.reshape((bsz, num_heads, tgt_len, src_len))
    if average_attn_weights:
        weights = weights.sum(axis=1) / num_heads
    if not is_batched:
        output, weights = output.squeeze(1), weights.squeeze(0)
    return output, weights
