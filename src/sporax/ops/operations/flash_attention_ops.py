"""``FlashAttentionScore``: MindSpore's fused attention Primitive (``ops.operations.nn_ops``), computed by
``ops.flash_attention_score``'s kernel, with the softmax statistics its backward pass on Ascend keeps.

MindSpore 2.10 registers the kernel for Ascend only (its CPU build imports the class but cannot run it);
libraries build one in their attention layers (mindone's ``FlashAttention2`` takes output ``[3]``).

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.ops.operations import FlashAttentionScore
    >>> q = Tensor(np.ones((1, 4, 8), np.float32))
    >>> softmax_max, softmax_sum, _, out = FlashAttentionScore(head_num=2)(q, q, q)
    >>> out.shape, softmax_max.shape
    ((1, 4, 8), (1, 2, 4, 8))
"""
import jax.numpy as jnp

from sporax.core.tensor import Tensor
from sporax.ops._dispatch import array_of
from sporax.ops.functional.flash_attention import flash_attention_score, softmax_statistics
from sporax.ops.primitive import Primitive, prim_attr_register


class FlashAttentionScore(Primitive):
    """Scaled dot-product attention in MindSpore's fused-kernel interface (see ``ops.flash_attention_score``).

    Args:
        head_num (int): query heads. keep_prob (float): 1 - attention dropout. scale_value (float): the score
            scale. pre_tokens, next_tokens (int): the band. inner_precise (int): kernel precision (no effect).
        input_layout (str): 'BSH', 'SBH', 'BSND' or 'BNSD'. sparse_mode (int): 0 to 4.

    Inputs:
        - **query**, **key**, **value** (Tensor) - in ``input_layout``.
        - **real_shift**, **drop_mask**, **padding_mask**, **attn_mask**, **prefix**, **actual_seq_qlen**,
          **actual_seq_kvlen** - as ``ops.flash_attention_score``.

    Outputs:
        Tuple of 4 Tensors: ``softmax_max``, ``softmax_sum`` (Float32 (B, N, Sq, 8)), ``softmax_out`` (unused,
        shape ()) and ``attention_out`` (query's shape and dtype).
    """

    @prim_attr_register
    def __init__(self, head_num, keep_prob=1.0, scale_value=1.0, pre_tokens=2147483647, next_tokens=2147483647,
                 inner_precise=0, input_layout="BSH", sparse_mode=0):
        if isinstance(head_num, bool) or not isinstance(head_num, int) or head_num <= 0:
            raise ValueError(f"For 'FlashAttentionScore', 'head_num' must be a positive int, but got {head_num!r}.")
        self.head_num, self.keep_prob, self.scale_value = head_num, keep_prob, scale_value
        self.pre_tokens, self.next_tokens = pre_tokens, next_tokens
        self.input_layout, self.sparse_mode = input_layout, sparse_mode

    def __call__(self, query, key, value, real_shift=None, drop_mask=None, padding_mask=None, attn_mask=None,
                 prefix=None, actual_seq_qlen=None, actual_seq_kvlen=None):
        out = flash_attention_score(query, key, value, self.head_num, real_shift, drop_mask, padding_mask, attn_mask,
                                    prefix, actual_seq_qlen, actual_seq_kvlen, keep_prob=self.keep_prob,
                                    scalar_value=self.scale_value, pre_tokens=self.pre_tokens,
                                    next_tokens=self.next_tokens, input_layout=self.input_layout,
                                    sparse_mode=self.sparse_mode)
        softmax_max, softmax_sum = softmax_statistics(query, key, value, self.head_num, real_shift, attn_mask,
                                                      self.scale_value, self.pre_tokens, self.next_tokens,
                                                      self.input_layout, self.sparse_mode)
        unused = jnp.zeros((), array_of("FlashAttentionScore", "query", query).dtype)
        return Tensor._wrap(softmax_max), Tensor._wrap(softmax_sum), Tensor._wrap(unused), out
