"""Large-model building blocks of ``mindspore.ops`` written as plain math: ``rotary_position_embedding``,
``moe_token_permute``/``moe_token_unpermute``, ``moe_init_routing_v2``, ``ring_attention_update`` and
``multi_scale_deformable_attn_function``.

MindSpore ships them as fused Ascend kernels; here each is the documented computation in
``jax.numpy``, so it runs (and differentiates) on any XLA backend. rotary_position_embedding, the
two moe_token ops and ring_attention_update are op-table entries (``sporax.ops.op_table``) with samples
and NumPy references.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> tokens = Tensor(np.array([[1.0], [2.0]], np.float32))
    >>> permuted, order = ops.moe_token_permute(tokens, Tensor(np.array([[1], [0]], np.int32)))
    >>> permuted.asnumpy().tolist(), order.asnumpy().tolist()
    ([[2.0], [1.0]], [1, 0])
"""
import itertools
import math

import jax.numpy as jnp
import ml_dtypes
import numpy as np

from sporax.ops.op_table import ANY, Sample, op


def _uniform(shape, dtype, seed, low=-2.0, high=2.0):
    return np.random.default_rng(seed).uniform(low, high, size=shape).astype(
        np.dtype(ml_dtypes.bfloat16) if dtype == "bfloat16" else np.dtype(dtype))


def _rotary_reference(x, cos, sin, mode=0):
    if mode == 0:
        first, second = np.split(x, 2, axis=-1)
        rotated = np.concatenate([-second, first], axis=-1)
    else:
        rotated = np.empty_like(x)
        rotated[..., 0::2], rotated[..., 1::2] = -x[..., 1::2], x[..., 0::2]
    return x * cos + rotated * sin


def _rotary_samples(dtype):
    x, cos, sin = (_uniform(shape, dtype, seed) for seed, shape in enumerate(((2, 3, 4), (3, 4), (3, 4))))
    return [Sample((x, cos, sin)), Sample((x, cos, sin), {"mode": 1}),
            Sample((x[0], cos[:1], sin[:1]), {"mode": 0})]


@op(inputs=("x", "cos", "sin"), samples=_rotary_samples, reference=_rotary_reference)
def rotary_position_embedding(x, cos, sin, mode=0):
    """Rotate pairs of features of ``x`` by the angles whose ``cos``/``sin`` are given (broadcast to ``x``).

    ``mode`` 0 (rotate-half) pairs feature ``i`` with ``i + D/2``; ``mode`` 1 (interleaved) pairs ``2i`` with
    ``2i + 1``: ``out = x * cos + rotate(x) * sin``.
    """
    if mode not in (0, 1):
        raise ValueError(f"For 'rotary_position_embedding', 'mode' must be 0 or 1, but got {mode!r}.")
    if x.shape[-1] % 2:
        raise ValueError(f"For 'rotary_position_embedding', the last dimension of 'x' must be even, but got "
                         f"{x.shape[-1]}.")
    if mode == 0:
        first, second = jnp.split(x, 2, axis=-1)
        rotated = jnp.concatenate([-second, first], axis=-1)
    else:
        pairs = x.reshape(x.shape[:-1] + (-1, 2))
        rotated = jnp.stack([-pairs[..., 1], pairs[..., 0]], axis=-1).reshape(x.shape)
    return (x * cos + rotated * sin).astype(x.dtype)


_EXPERTS = np.array([[1, 0], [2, 1], [0, 2], [1, 1]], np.int32)  # (T, K): 4 tokens, 2 experts each


def _permute_reference(tokens, indices, num_out_tokens=None, padded_mode=False):
    top_k = 1 if indices.ndim == 1 else indices.shape[1]
    order = np.argsort(indices.reshape(-1), kind="stable")[:num_out_tokens or None]
    return tokens[order // top_k], order.astype(np.int32)


@op(inputs=("tokens", "indices"), dtypes=ANY, grad_check=False, reference=_permute_reference,
    samples=lambda dtype: [Sample((_uniform((4, 3), dtype, 0), _EXPERTS)),
                           Sample((_uniform((4, 3), dtype, 1), _EXPERTS[:, 0]), {"num_out_tokens": 3})])
def moe_token_permute(tokens, indices, num_out_tokens=None, padded_mode=False):
    """``(permuted_tokens, sorted_indices)``: the tokens copied once per chosen expert, grouped by expert.

    Args:
        tokens (Tensor): (T, H). indices (Tensor): (T,) or (T, K) expert ids per token.
        num_out_tokens (int): keep the first so many permuted rows (None or 0: all).
        padded_mode (bool): must be False (the padded layout is not supported).
    """
    if padded_mode:
        raise NotImplementedError("moe_token_permute: padded_mode=True is not supported by sporax.")
    if indices.dtype.kind not in "iu" or tokens.ndim != 2 or indices.shape[0] != tokens.shape[0] or indices.ndim > 2:
        raise ValueError(f"For 'moe_token_permute', 'tokens' must be (T, H) and 'indices' an integer (T,) or (T, K), "
                         f"but got {tuple(tokens.shape)} and {indices.dtype} {tuple(indices.shape)}.")
    top_k = 1 if indices.ndim == 1 else indices.shape[1]
    order = jnp.argsort(indices.reshape(-1), stable=True)
    if num_out_tokens:
        order = order[:num_out_tokens]
    return tokens[order // top_k], order.astype(jnp.int32)


def _unpermute_reference(permuted_tokens, sorted_indices, probs=None, padded_mode=False, restore_shape=None):
    top_k = 1 if probs is None else probs.shape[-1]
    total = sorted_indices.shape[0] if probs is None else probs.shape[0] * top_k
    scattered = np.zeros((total, permuted_tokens.shape[1]), permuted_tokens.dtype)
    scattered[sorted_indices[:permuted_tokens.shape[0]]] = permuted_tokens
    grouped = scattered.reshape(total // top_k, top_k, -1)
    return np.sum(grouped if probs is None else grouped * probs[..., None], axis=1)


_ORDER = np.argsort(_EXPERTS.reshape(-1), kind="stable").astype(np.int32)


@op(inputs=("permuted_tokens", "sorted_indices", "probs"), dtypes=ANY, reference=_unpermute_reference,
    samples=lambda dtype: [Sample((_uniform((8, 3), dtype, 0), _ORDER)),
                           Sample((_uniform((8, 3), dtype, 1), _ORDER, _uniform((4, 2), dtype, 2, 0.0, 1.0)))])
def moe_token_unpermute(permuted_tokens, sorted_indices, probs=None, padded_mode=False, restore_shape=None):
    """The inverse of ``moe_token_permute``: each token's expert outputs put back in place and summed, weighted by
    ``probs`` (T, K) when given."""
    if padded_mode:
        raise NotImplementedError("moe_token_unpermute: padded_mode=True is not supported by sporax.")
    rows, order, weights = permuted_tokens, sorted_indices, probs
    top_k = 1 if weights is None else weights.shape[-1]
    total = order.shape[0] if weights is None else weights.shape[0] * top_k
    if rows.ndim != 2 or order.ndim != 1 or rows.shape[0] > order.shape[0]:
        raise ValueError(f"For 'moe_token_unpermute', 'permuted_tokens' must be (N, H) and 'sorted_indices' (M,) with "
                         f"N <= M, but got {tuple(rows.shape)} and {tuple(order.shape)}.")
    scattered = jnp.zeros((total, rows.shape[1]), rows.dtype).at[order[:rows.shape[0]]].set(rows)
    grouped = scattered.reshape(total // top_k, top_k, rows.shape[1])
    if weights is not None:
        grouped = grouped * weights[..., None].astype(rows.dtype)
    return jnp.sum(grouped, axis=1)


def _ring_reference(prev_attn_out, prev_softmax_max, prev_softmax_sum, cur_attn_out, cur_softmax_max,
                    cur_softmax_sum, actual_seq_qlen=None, layout="SBH"):
    # each block's output weighs by its unnormalised softmax mass exp(max) * sum (no max shift in float64)
    seq, batch, hidden = prev_attn_out.shape
    heads = prev_softmax_max.shape[1]
    masses = [np.exp(maximum) * total for maximum, total in ((prev_softmax_max, prev_softmax_sum),
                                                             (cur_softmax_max, cur_softmax_sum))]
    out = np.zeros((seq, batch, hidden))
    for s, b, n in np.ndindex(seq, batch, heads):
        features = slice(n * hidden // heads, (n + 1) * hidden // heads)
        mass = [one[b, n, s, 0] for one in masses]
        weighted = prev_attn_out[s, b, features] * mass[0] + cur_attn_out[s, b, features] * mass[1]
        out[s, b, features] = weighted / sum(mass)
    new_max = np.maximum(prev_softmax_max, cur_softmax_max)
    return out, new_max, (masses[0] + masses[1]) * np.exp(-new_max)


def _ring_samples(dtype):
    """Two blocks' (S=3, B=2, H=4) outputs with N=2 heads and their (B, N, S, 8) row statistics."""
    def block(seed):
        rows = np.random.default_rng(seed)
        statistic = rows.uniform(-1.0, 1.0, (2, 2, 3, 1)).repeat(8, axis=-1)
        total = rows.uniform(0.5, 2.0, (2, 2, 3, 1)).repeat(8, axis=-1)
        return (_uniform((3, 2, 4), dtype, seed + 10), statistic.astype(np.float32), total.astype(np.float32))

    return [Sample(block(0) + block(1))]


@op(inputs=("prev_attn_out", "prev_softmax_max", "prev_softmax_sum", "cur_attn_out", "cur_softmax_max",
            "cur_softmax_sum"), grad_check=False, samples=_ring_samples, reference=_ring_reference)
def ring_attention_update(prev_attn_out, prev_softmax_max, prev_softmax_sum, cur_attn_out, cur_softmax_max,
                          cur_softmax_sum, actual_seq_qlen=None, layout="SBH"):
    """Merge two partial attention results over disjoint key blocks (ring attention).

    Args:
        prev_attn_out, cur_attn_out (Tensor): (S, B, H) outputs, H = N * D.
        prev_softmax_max, prev_softmax_sum, cur_softmax_max, cur_softmax_sum (Tensor): (B, N, S, 8), the row
            maxima and exponent sums (replicated over the last axis).
        layout (str): 'SBH' only.

    Returns:
        ``(attn_out, softmax_max, softmax_sum)`` of the union of the key blocks.
    """
    if layout != "SBH" or actual_seq_qlen is not None:
        raise NotImplementedError("ring_attention_update: sporax supports layout='SBH' without actual_seq_qlen.")
    name = "ring_attention_update"
    if prev_attn_out.ndim != 3 or prev_softmax_max.ndim != 4 or prev_attn_out.shape != cur_attn_out.shape:
        raise ValueError(f"For '{name}', the outputs must be (S, B, H) and the statistics (B, N, S, 8), but got "
                         f"{tuple(prev_attn_out.shape)} and {tuple(prev_softmax_max.shape)}.")
    seq, batch, hidden = prev_attn_out.shape
    heads = prev_softmax_max.shape[1]
    new_max = jnp.maximum(prev_softmax_max, cur_softmax_max)
    prev_scale = jnp.exp(prev_softmax_max - new_max) * prev_softmax_sum
    cur_scale = jnp.exp(cur_softmax_max - new_max) * cur_softmax_sum
    new_sum = prev_scale + cur_scale

    def per_row(statistic):  # (B, N, S, 8) -> (S, B, N, 1), broadcast over each head's features
        return jnp.transpose(statistic[..., :1], (2, 0, 1, 3))

    def heads_of(out):
        return out.reshape(seq, batch, heads, hidden // heads).astype(jnp.float32)

    merged = (heads_of(prev_attn_out) * per_row(prev_scale) + heads_of(cur_attn_out) * per_row(cur_scale)) / per_row(
        new_sum)
    return merged.reshape(seq, batch, hidden).astype(prev_attn_out.dtype), new_max, new_sum


def _bilinear_sample(plane, x, y):
    """Bilinear samples of ``plane`` (B, heads, H, W, C) at pixel coordinates ``x``, ``y`` (B, heads, P); zero
    outside the plane."""
    height, width = plane.shape[2:4]
    flat = plane.reshape(plane.shape[:2] + (height * width, plane.shape[-1]))
    x0, y0 = jnp.floor(x), jnp.floor(y)
    total = 0.0
    for dx, dy in ((0, 0), (1, 0), (0, 1), (1, 1)):
        xi, yi = x0 + dx, y0 + dy
        weight = (1 - jnp.abs(x - xi)) * (1 - jnp.abs(y - yi))
        inside = (xi >= 0) & (xi < width) & (yi >= 0) & (yi < height)
        index = (jnp.clip(yi, 0, height - 1) * width + jnp.clip(xi, 0, width - 1)).astype(jnp.int32)
        corner = jnp.take_along_axis(flat, index[..., None], axis=2)
        total = total + corner * jnp.where(inside, weight, 0.0)[..., None]
    return total


def _deformable_attention_reference(value, locations, weight, shape=(), offset=()):
    """Point by point: each sampling location read bilinearly from its level's map (pixel centres at
    ``(i + 0.5) / size``, zero outside), times its weight, summed over levels and points."""
    batch, _, heads, channels = value.shape
    queries, levels, points = locations.shape[1], locations.shape[3], locations.shape[4]
    output = np.zeros((batch, queries, heads, channels))
    for b, q, h, level, p in itertools.product(range(batch), range(queries), range(heads), range(levels),
                                               range(points)):
        (height, width), start = shape[level], offset[level]
        x = locations[b, q, h, level, p, 0] * width - 0.5
        y = locations[b, q, h, level, p, 1] * height - 0.5
        for row in (math.floor(y), math.floor(y) + 1):
            for column in (math.floor(x), math.floor(x) + 1):
                if 0 <= row < height and 0 <= column < width:
                    share = (1 - abs(y - row)) * (1 - abs(x - column)) * weight[b, q, h, level, p]
                    output[b, q, h] += share * value[b, start + row * width + column, h]
    return output.reshape(batch, queries, heads * channels)


def _deformable_attention_samples(dtype):
    value = _uniform((1, 7, 2, 3), dtype, 0)  # levels of 2 x 3 and 1 x 1
    locations = _uniform((1, 2, 2, 2, 2, 2), dtype, 1, -0.2, 1.2)
    return [Sample((value, locations, _uniform((1, 2, 2, 2, 2), dtype, 2, 0.0, 1.0)),
                   {"shape": ((2, 3), (1, 1)), "offset": (0, 6)})]


@op(inputs=("value", "locations", "weight"), samples=_deformable_attention_samples,
    reference=_deformable_attention_reference, grad_check=False)
def multi_scale_deformable_attn_function(value, shape, offset, locations, weight):
    """Multi-scale deformable attention: per query and head, the ``weight``-ed sum of bilinear samples of each
    level's feature map at the normalised ``locations`` (x, y in [0, 1]; pixel centres at (i + 0.5) / size;
    zero outside).

    Args:
        value (Tensor): (B, keys, heads, C), the levels' maps flattened one after another.
        shape (Tensor): (levels, 2) int, each level's (H, W). offset (Tensor): (levels,) int, where each level
            starts in ``keys``.
        locations (Tensor): (B, queries, heads, levels, points, 2). weight (Tensor): (B, queries, heads, levels,
            points).

    Returns:
        Tensor (B, queries, heads * C).
    """
    name = "multi_scale_deformable_attn_function"
    features, points, weights = value, locations, weight
    sizes = [tuple(int(v) for v in row) for row in np.reshape(shape, (-1, 2))]  # the levels' sizes: settings
    starts = [int(v) for v in np.reshape(offset, -1)]
    batch, _, heads, channels = features.shape
    queries, levels, count = points.shape[1], points.shape[3], points.shape[4]
    if len(sizes) != levels or len(starts) != levels or weights.shape != points.shape[:-1]:
        raise ValueError(f"For '{name}', 'shape' and 'offset' must describe the {levels} levels of 'locations' and "
                         f"'weight' must be {tuple(points.shape[:-1])}, but got {len(sizes)}, {len(starts)} levels "
                         f"and {tuple(weights.shape)}.")
    output = 0.0
    for level, ((height, width), start) in enumerate(zip(sizes, starts)):
        plane = features[:, start:start + height * width].reshape(batch, height, width, heads, channels)
        plane = jnp.transpose(plane, (0, 3, 1, 2, 4)).astype(jnp.float32)           # (B, heads, H, W, C)
        where = jnp.transpose(points[:, :, :, level], (0, 2, 1, 3, 4)).reshape(batch, heads, queries * count, 2)
        sampled = _bilinear_sample(plane, where[..., 0] * width - 0.5, where[..., 1] * height - 0.5)
        sampled = sampled.reshape(batch, heads, queries, count, channels)
        level_weight = jnp.transpose(weights[:, :, :, level], (0, 2, 1, 3))[..., None]   # (B, heads, Q, P, 1)
        output = output + jnp.sum(sampled * level_weight, axis=3)                      # (B, heads, Q, C)
    result = jnp.transpose(output, (0, 2, 1, 3)).reshape(batch, queries, heads * channels)
    return result.astype(features.dtype)


def _routing_reference(x, expert_idx, active_num, expert_capacity, expert_num, drop_pad_mode,
                       expert_tokens_count_or_cumsum_flag, expert_tokens_before_capacity_flag):
    """Choice ``j = k * N + n`` goes to expert ``expert_idx[n, k]``; choices sorted by (expert, j); each expert's
    first ``expert_capacity`` choices fill its slots in the drop/pad mode."""
    count, top_k = expert_idx.shape
    experts = {k * count + n: int(expert_idx[n, k]) for n in range(count) for k in range(top_k)}
    ordered = sorted(experts, key=lambda j: (experts[j], j))
    histogram = np.array([sum(1 for e in experts.values() if e == expert) for expert in range(expert_num)], np.int64)
    empty = np.zeros((0,), np.int64)
    row_index = np.zeros(count * top_k, np.int32)
    if drop_pad_mode == 0:
        kept = len(ordered) if not active_num else min(active_num, len(ordered))
        for position, j in enumerate(ordered):
            row_index[j] = position
        tokens = {0: empty, 1: np.cumsum(histogram), 2: histogram}[expert_tokens_count_or_cumsum_flag]
        return np.stack([x[j % count] for j in ordered[:kept]]), row_index, tokens, empty
    expanded = np.zeros((expert_num, expert_capacity, x.shape[1]), x.dtype)
    filled = {}
    for j in ordered:
        rank = filled.get(experts[j], 0)
        filled[experts[j]] = rank + 1
        if rank < expert_capacity:
            expanded[experts[j], rank] = x[j % count]
        row_index[j] = experts[j] * expert_capacity + rank if rank < expert_capacity else -1
    return expanded, row_index, empty, histogram if expert_tokens_before_capacity_flag else empty


_ROUTING = dict(active_num=0, expert_capacity=0, expert_num=3, drop_pad_mode=0, expert_tokens_count_or_cumsum_flag=1,
                expert_tokens_before_capacity_flag=False)


@op(inputs=("x", "expert_idx"), dtypes=ANY, indices="expert_idx", grad_check=False, reference=_routing_reference,
    samples=lambda dtype: [Sample((_uniform((4, 3), dtype, 0), _EXPERTS), _ROUTING),
                           Sample((_uniform((4, 3), dtype, 1), _EXPERTS),
                                  dict(_ROUTING, expert_capacity=2, drop_pad_mode=1,
                                       expert_tokens_count_or_cumsum_flag=0, expert_tokens_before_capacity_flag=True)),
                           Sample((_uniform((4, 3), dtype, 2), _EXPERTS),
                                  dict(_ROUTING, active_num=5, expert_tokens_count_or_cumsum_flag=2))])
def moe_init_routing_v2(x, expert_idx, active_num, expert_capacity, expert_num, drop_pad_mode,
                        expert_tokens_count_or_cumsum_flag, expert_tokens_before_capacity_flag):
    """MoE routing: the token rows copied once per chosen expert, grouped by expert.

    The (N, K) choices are numbered column-major (``k * N + n``) and stably sorted by expert; ``expanded_row_idx``
    maps each choice to its row in ``expanded_x``. Dropless (``drop_pad_mode`` 0): ``expanded_x`` holds the first
    ``active_num`` (all when 0) sorted rows. Drop/pad (1): ``expanded_x`` is (expert_num, expert_capacity, H), rows
    past an expert's capacity are dropped (index -1) and missing ones are zeros.

    Returns:
        ``(expanded_x, expanded_row_idx, expert_tokens_count_or_cumsum, expert_tokens_before_capacity)``: the counts
        per expert (flag 1: cumulative, 2: counts; dropless mode) and the counts before dropping (drop mode, when
        its flag is True); an output not requested is an empty Int64 Tensor.
    """
    name = "moe_init_routing_v2"
    rows, choices = x, expert_idx
    if rows.ndim != 2 or choices.ndim != 2 or choices.shape[0] != rows.shape[0]:
        raise ValueError(f"For '{name}', 'x' must be (N, H) and 'expert_idx' an integer (N, K), but got "
                         f"{tuple(rows.shape)} and {choices.dtype} {tuple(choices.shape)}.")
    if drop_pad_mode not in (0, 1) or expert_tokens_count_or_cumsum_flag not in (0, 1, 2):
        raise ValueError(f"For '{name}', 'drop_pad_mode' must be 0 or 1 and 'expert_tokens_count_or_cumsum_flag' "
                         f"0, 1 or 2, but got {drop_pad_mode!r} and {expert_tokens_count_or_cumsum_flag!r}.")
    count = rows.shape[0]
    flat = choices.T.reshape(-1)
    order = jnp.argsort(flat, stable=True)
    sorted_experts = flat[order]
    empty = jnp.zeros((0,), jnp.int64)
    histogram = jnp.zeros((expert_num,), jnp.int64).at[sorted_experts].add(1, mode="drop")
    if drop_pad_mode == 0:
        kept = flat.shape[0] if not active_num else min(int(active_num), flat.shape[0])
        row_index = jnp.zeros_like(order).at[order].set(jnp.arange(order.shape[0], dtype=order.dtype))
        expanded = rows[order[:kept] % count]
        tokens = empty
        if expert_tokens_count_or_cumsum_flag:
            tokens = jnp.cumsum(histogram) if expert_tokens_count_or_cumsum_flag == 1 else histogram
        return expanded, row_index.astype(jnp.int32), tokens, empty
    starts = jnp.cumsum(histogram) - histogram
    rank = jnp.arange(order.shape[0]) - starts[sorted_experts]
    fits = rank < expert_capacity
    target = jnp.where(fits, sorted_experts * expert_capacity + rank, -1)
    expanded = jnp.zeros((expert_num * expert_capacity, rows.shape[1]), rows.dtype)
    expanded = expanded.at[jnp.where(fits, target, expert_num * expert_capacity)].set(rows[order % count], mode="drop")
    row_index = jnp.zeros_like(order).at[order].set(target)
    before = histogram if expert_tokens_before_capacity_flag else empty
    return expanded.reshape(expert_num, expert_capacity, rows.shape[1]), row_index.astype(jnp.int32), empty, before


def _no_repeat_ngram_reference(state_seq, log_probs, ngram_size=1):
    result = np.array(log_probs, copy=True)
    tokens = np.asarray(state_seq)
    length = tokens.shape[-1]
    for place in np.ndindex(tokens.shape[:-1]):
        sequence = tokens[place].tolist()
        tail = sequence[length - ngram_size + 1:]
        for start in range(length - ngram_size + 1):
            if sequence[start:start + ngram_size - 1] == tail:
                result[place + (sequence[start + ngram_size - 1],)] = np.finfo(np.float32).min
    return result


def _no_repeat_ngram_samples(dtype):
    tokens = np.array([[[1, 2, 1, 2, 1], [3, 3, 3, 0, 3]]], np.int32)
    # Float32 alone: the reference sees Float64 scores, and each dtype's own lowest value is pinned in
    # tests/ops/test_no_repeat_ngram.py
    scores = np.zeros((1, 2, 5), np.float32)
    return [Sample((tokens, scores), {"ngram_size": 2}), Sample((tokens, scores), {"ngram_size": 3})] \
        if dtype == "float32" else []


@op(inputs=("state_seq", "log_probs"), input_dtypes={"state_seq": ANY}, grad_check=False,
    samples=_no_repeat_ngram_samples, reference=_no_repeat_ngram_reference)
def no_repeat_ngram(state_seq, log_probs, ngram_size=1):
    """``NoRepeatNGram``: ``log_probs`` (batch, beam, vocab) with its dtype's lowest value at each token that would repeat an
    n-gram of ``state_seq`` (batch, beam, seq_len): wherever the ``ngram_size - 1`` tokens before a position equal
    the sequence's last ``ngram_size - 1`` tokens, the token at that position is banned."""
    if state_seq.ndim != 3 or log_probs.ndim != 3:
        raise ValueError(f"For 'NoRepeatNGram', 'state_seq' and 'log_probs' must be 3-D (batch, beam, length), "
                         f"but got ranks {state_seq.ndim} and {log_probs.ndim}.")
    if state_seq.shape[:-1] != log_probs.shape[:-1]:
        raise ValueError(f"For 'NoRepeatNGram', 'state_seq' {state_seq.shape} and 'log_probs' {log_probs.shape} "
                         f"must share all dimensions but the last.")
    length, vocab, n = state_seq.shape[-1], log_probs.shape[-1], ngram_size
    tail = state_seq[..., length - n + 1:]
    banned = jnp.zeros(log_probs.shape, bool)
    for start in range(length - n + 1):
        match = jnp.all(state_seq[..., start:start + n - 1] == tail, axis=-1, keepdims=True)
        hit = jnp.arange(vocab) == state_seq[..., start + n - 1:start + n]
        banned = banned | (match & hit)
    # MindSpore 2.10 writes the dtype's lowest value (Float16 -65504, Float64 -1.797e308; recorded), not -inf
    return jnp.where(banned, jnp.asarray(jnp.finfo(log_probs.dtype).min, log_probs.dtype), log_probs)
