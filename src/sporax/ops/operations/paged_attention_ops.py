"""Paged key/value cache Primitives of incremental decoding: ``ReshapeAndCache`` writes each new token's key and
value into a cache slot; ``PagedAttention``/``PagedAttentionMask`` attend a query to the cached tokens that a
block table lists.

Layout (MindSpore's): caches are (num_blocks, block_size, kv_heads * head_dim) (or with separate
(kv_heads, head_dim) axes); token ``i`` of a sequence lives in block ``block_tables[b, i // block_size]`` at
offset ``i % block_size``; a slot number is ``block * block_size + offset``. Queries are
(batch, q_len, heads * head_dim). Attention is plain softmax attention in Float32 over the first
``context_lens[b]`` cached tokens (grouped-query heads share a kv head). Quantised caches are not
supported (the antiquant inputs must be None).

Example:
    >>> import numpy as np
    >>> from sporax import Parameter, Tensor, ops
    >>> cache = Parameter(Tensor(np.zeros((2, 2, 4), np.float32)), name="k")
    >>> values = Parameter(Tensor(np.zeros((2, 2, 4), np.float32)), name="v")
    >>> _ = ops.ReshapeAndCache()(Tensor(np.ones((1, 4), np.float32)), Tensor(np.ones((1, 4), np.float32)), cache, values, Tensor(np.array([3], np.int32)))
    >>> cache.asnumpy()[1, 1].tolist()
    [1.0, 1.0, 1.0, 1.0]
"""

from sporax.core.tensor import Tensor
from sporax.ops._dispatch import array_of, describe
from sporax.ops.functional.paged_attention import paged_attention, reshape_and_cache
from sporax.ops.primitive import Primitive, prim_attr_register
from sporax.state.assign import write


class ReshapeAndCache(Primitive):
    """Write ``key``/``value`` (tokens, hidden) into the cache slots ``slot_mapping`` (negative: skipped), in place.

    Inputs:
        - **key** (Tensor) - (tokens, kv_hidden) or (batch, seq, kv_hidden). **value** (Tensor) - like ``key``.
        - **key_cache**, **value_cache** (Parameter) - (num_blocks, block_size, kv_hidden) or
          (num_blocks, block_size, kv_heads, head_dim). **slot_mapping** (Tensor[int32]) - (tokens,).

    Outputs:
        ``key_cache`` (updated).
    """

    def __call__(self, key, value, key_cache, value_cache=None, slot_mapping=None):
        if slot_mapping is None:
            raise TypeError("For 'ReshapeAndCache', 'slot_mapping' must be a Tensor of cache slots, but got None.")
        pairs = [("key", key, "key_cache", key_cache)]
        if value_cache is not None:
            pairs.append(("value", value, "value_cache", value_cache))
        for name, data, cache_name, cache in pairs:
            if not isinstance(cache, Tensor):
                raise TypeError(f"For 'ReshapeAndCache', '{cache_name}' must be a Parameter, but got "
                                f"{describe(cache)}.")
            array_of("ReshapeAndCache", name, data)
            write(cache, reshape_and_cache(data, cache, slot_mapping), "ReshapeAndCache")
        return key_cache


class PagedAttention(Primitive):
    """Softmax attention of ``query`` to the cached keys/values its ``block_tables`` row lists.

    Args:
        head_num (int): query heads. scale_value (float): the score scale. kv_head_num (int): cache heads.
        kv_cache_quant_mode, mask_mode (str): 'DEFAULT' and 'MASK_DEFAULT' only. mla_v_dim (int): 0 only.

    Inputs:
        - **query** (Tensor) - (batch, q_len, head_num * head_dim). **key_cache**, **value_cache** (Tensor).
          **block_tables** (Tensor[int32]) - (batch, max_blocks). **context_lens** (Tensor[int32]) - (batch,).
        - **antiquant_scale**, **antiquant_offset**, **attn_mask**, **q_seq_lens**, **alibi_mask** - None only.
    """

    @prim_attr_register
    def __init__(self, head_num, scale_value, kv_head_num, kv_cache_quant_mode="DEFAULT", mask_mode="MASK_DEFAULT",
                 mla_v_dim=0):
        if kv_cache_quant_mode != "DEFAULT" or mask_mode != "MASK_DEFAULT" or mla_v_dim:
            raise NotImplementedError(f"{self.name}: sporax supports kv_cache_quant_mode='DEFAULT', "
                                      "mask_mode='MASK_DEFAULT' and mla_v_dim=0 only.")
        self.head_num, self.scale_value, self.kv_head_num = head_num, scale_value, kv_head_num

    def __call__(self, query, key_cache, value_cache, block_tables, context_lens, antiquant_scale=None,
                 antiquant_offset=None, attn_mask=None, q_seq_lens=None, alibi_mask=None):
        if any(v is not None for v in (antiquant_scale, antiquant_offset, attn_mask, q_seq_lens, alibi_mask)):
            raise NotImplementedError(f"{self.name}: the quantisation, mask and q_seq_lens inputs are not supported "
                                      "by sporax (pass None).")
        return paged_attention(query, key_cache, value_cache, block_tables, context_lens, head_num=self.head_num,
                               scale_value=self.scale_value, kv_head_num=self.kv_head_num)


class PagedAttentionMask(Primitive):
    """``PagedAttention`` with an additive ``alibi_mask`` (batch, head_num, q_len, max_context) on the scores.

    Inputs:
        - **query**, **key_cache**, **value_cache**, **block_tables**, **context_lens** - as ``PagedAttention``.
        - **antiquant_scale**, **antiquant_offset** - None only. **alibi_mask** (Tensor).
    """

    @prim_attr_register
    def __init__(self, head_num, scale_value, kv_head_num, kv_cache_quant_mode="DEFAULT"):
        if kv_cache_quant_mode != "DEFAULT":
            raise NotImplementedError("PagedAttentionMask: sporax supports kv_cache_quant_mode='DEFAULT' only.")
        self.head_num, self.scale_value, self.kv_head_num = head_num, scale_value, kv_head_num

    def __call__(self, query, key_cache, value_cache, block_tables, context_lens, antiquant_scale=None,
                 antiquant_offset=None, alibi_mask=None):
        if antiquant_scale is not None or antiquant_offset is not None:
            raise NotImplementedError("PagedAttentionMask: the antiquant inputs are not supported by sporax.")
        return paged_attention(query, key_cache, value_cache, block_tables, context_lens, alibi_mask,
                               head_num=self.head_num, scale_value=self.scale_value, kv_head_num=self.kv_head_num)
