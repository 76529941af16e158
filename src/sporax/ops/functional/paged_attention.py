"""Attention over a paged key/value cache (MindSpore's ``PagedAttention``/``PagedAttentionMask``), an op-table entry.

Layout (MindSpore's): caches are (num_blocks, block_size, kv_heads * head_dim) (or with separate (kv_heads,
head_dim) axes); token ``i`` of a sequence lives in block ``block_tables[b, i // block_size]`` at offset
``i % block_size``. Queries are (batch, q_len, heads * head_dim) or (batch, heads * head_dim). Attention is plain
softmax attention in Float32 over the first ``context_lens[b]`` cached tokens (grouped-query heads share a kv
head), with an optional additive ``alibi_mask`` (batch, heads, q_len, positions). The entry is Primitive-only
(MindSpore has no functional name); its classes are in ``sporax.ops.operations.paged_attention_ops``.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.ops.functional.paged_attention import paged_attention
    >>> cache = Tensor(np.ones((2, 2, 4), np.float32))
    >>> out = paged_attention(Tensor(np.ones((1, 1, 4), np.float32)), cache, cache, Tensor(np.array([[1, 0]], np.int32)),
    ...                       Tensor(np.array([3], np.int32)), head_num=1, scale_value=0.5, kv_head_num=1)
    >>> out.asnumpy().tolist()
    [[[1.0, 1.0, 1.0, 1.0]]]
"""
import jax
import jax.numpy as jnp
import numpy as np

from sporax.ops.op_table import ANY, FLOAT, Sample, op


def _samples(dtype):
    generator = np.random.default_rng(0)
    query = generator.uniform(-1, 1, (2, 1, 8)).astype(dtype)
    keys, values = (generator.uniform(-1, 1, (3, 2, 4)).astype(dtype) for _ in range(2))
    tables = np.array([[2, 0], [1, 2]], np.int32)
    lengths = np.array([3, 2], np.int32)
    mask = generator.uniform(-1, 1, (2, 2, 1, 3)).astype(np.float32)
    settings = {"head_num": 2, "scale_value": 0.5, "kv_head_num": 1}
    return [Sample((query, keys, values, tables, lengths), settings),
            Sample((query, keys, values, tables, lengths, mask), settings)]


def _reference(query, key_cache, value_cache, block_tables, context_lens, alibi_mask=None, *, head_num,
               scale_value, kv_head_num):
    query = np.asarray(query, np.float64)
    batch, q_len, hidden = query.reshape(query.shape[0], -1, query.shape[-1]).shape
    head_dim, group = hidden // head_num, head_num // kv_head_num
    block_size = key_cache.shape[1]
    out = np.zeros((batch, q_len, head_num, head_dim))
    for b in range(batch):
        slots = [(block_tables[b][i // block_size], i % block_size) for i in range(int(context_lens[b]))]
        keys = np.array([key_cache[block][offset] for block, offset in slots], np.float64).reshape(len(slots),
                                                                                                   kv_head_num, -1)
        values = np.array([value_cache[block][offset] for block, offset in slots], np.float64).reshape(
            len(slots), kv_head_num, -1)
        for q in range(q_len):
            for h in range(head_num):
                scores = keys[:, h // group] @ query.reshape(batch, q_len, head_num, head_dim)[b, q, h] * scale_value
                if alibi_mask is not None:
                    scores = scores + np.asarray(alibi_mask, np.float64)[b, h, q, :len(slots)]
                weights = np.exp(scores - scores.max())
                out[b, q, h] = weights / weights.sum() @ values[:, h // group]
    return out.reshape(query.shape)


@op(inputs=("query", "key_cache", "value_cache", "block_tables", "context_lens", "alibi_mask"), dtypes=FLOAT,
    input_dtypes={"block_tables": ANY, "context_lens": ANY, "alibi_mask": ANY}, grad_check=False,
    samples=_samples, reference=_reference)
def paged_attention(query, key_cache, value_cache, block_tables, context_lens, alibi_mask=None, *, head_num,
                    scale_value, kv_head_num):
    """Softmax attention of ``query`` to the cached keys/values its ``block_tables`` row lists (the first
    ``context_lens[b]`` tokens), plus ``alibi_mask`` on the scores when given; ``query``'s shape and dtype."""
    op_name = "PagedAttentionMask" if alibi_mask is not None else "PagedAttention"
    q = query[:, None, :] if query.ndim == 2 else query
    lengths = context_lens.reshape(-1)
    batch, q_len, hidden = q.shape
    kv_heads = kv_head_num or head_num
    if hidden % head_num or head_num % kv_heads:
        raise ValueError(f"For '{op_name}', the query hidden size {hidden} must split into head_num={head_num} heads "
                         f"grouped over kv_head_num={kv_heads}.")
    head_dim = hidden // head_num
    blocks, block_size = key_cache.shape[:2]
    keys = key_cache.reshape(blocks, block_size, kv_heads, -1)
    values = value_cache.reshape(blocks, block_size, kv_heads, -1)
    if block_tables.ndim != 2 or block_tables.shape[0] != batch or lengths.shape[0] != batch:
        raise ValueError(f"For '{op_name}', 'block_tables' must be (batch={batch}, max_blocks) and 'context_lens' "
                         f"(batch,), but got {tuple(block_tables.shape)} and {tuple(lengths.shape)}.")
    capacity = block_tables.shape[1] * block_size
    position = jnp.arange(capacity)
    block_ids = jnp.take_along_axis(block_tables, jnp.broadcast_to(position // block_size, (batch, capacity)), axis=1)
    gathered_k = keys[jnp.clip(block_ids, 0, blocks - 1), position % block_size]  # (B, L, kv, D)
    gathered_v = values[jnp.clip(block_ids, 0, blocks - 1), position % block_size]
    group = head_num // kv_heads
    gathered_k = jnp.repeat(gathered_k, group, axis=2).astype(jnp.float32)
    gathered_v = jnp.repeat(gathered_v, group, axis=2).astype(jnp.float32)
    q_heads = q.reshape(batch, q_len, head_num, head_dim).astype(jnp.float32)
    scores = jnp.einsum("bqhd,blhd->bhql", q_heads, gathered_k) * scale_value
    if alibi_mask is not None:
        pad = capacity - alibi_mask.shape[-1]
        if pad < 0:
            raise ValueError(f"For '{op_name}', 'alibi_mask' covers {alibi_mask.shape[-1]} positions but the block "
                             f"table only {capacity}.")
        scores = scores + jnp.pad(alibi_mask.astype(jnp.float32), [(0, 0)] * (alibi_mask.ndim - 1) + [(0, pad)])
    valid = position[None, :] < lengths[:, None]
    scores = jnp.where(valid[:, None, None, :], scores, -jnp.inf)
    weights = jax.nn.softmax(scores, axis=-1)
    out = jnp.einsum("bhql,blhd->bqhd", weights, gathered_v)
    return out.reshape(query.shape).astype(query.dtype)


def _cache_samples(dtype):
    generator = np.random.default_rng(1)
    cache = generator.uniform(-1, 1, (2, 2, 4)).astype(dtype)
    rows = generator.uniform(-1, 1, (3, 4)).astype(dtype)
    return [Sample((rows, cache, np.array([3, -1, 0], np.int32))),
            Sample((rows.reshape(1, 3, 2, 2), cache.reshape(2, 2, 2, 2), np.array([1, 2, -1], np.int32)))]


def _cache_reference(key, cache, slot_mapping):
    updated = np.array(cache, copy=True)
    flat = updated.reshape(cache.shape[0] * cache.shape[1], -1)
    for row, slot in zip(np.asarray(key).reshape(len(slot_mapping), -1), np.asarray(slot_mapping).tolist()):
        if slot >= 0:
            flat[slot] = row
    return updated


@op(inputs=("key", "cache", "slot_mapping"), dtypes=ANY, input_dtypes={"cache": ANY, "slot_mapping": ANY},
    grad_check=False, samples=_cache_samples, reference=_cache_reference)
def reshape_and_cache(key, cache, slot_mapping):
    """``ReshapeAndCache``'s write as a value: ``cache`` (num_blocks, block_size, ...) with each token row of ``key``
    stored at its slot ``slot_mapping[i]`` (block * block_size + offset; a negative slot is skipped)."""
    slots = slot_mapping.reshape(-1)
    blocks, block_size = cache.shape[:2]
    flat_cache = cache.reshape((blocks * block_size, -1))
    rows = key.reshape((-1, flat_cache.shape[1]))
    if rows.shape[0] != slots.shape[0]:
        raise ValueError(f"For 'ReshapeAndCache', 'key' (or 'value') has {rows.shape[0]} tokens but 'slot_mapping' "
                         f"{slots.shape[0]}.")
    target = jnp.where(slots >= 0, slots, blocks * block_size)  # out of range: dropped
    return flat_cache.at[target].set(rows.astype(flat_cache.dtype), mode="drop").reshape(cache.shape)
