"""``MultiHeadAttention`` of the parallel transformer API (query/key/value ``dense1/2/3``, ``projection``)."""
import math

import numpy as np

from sporax import ops
from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor
from sporax.nn.cell import Cell
from sporax.nn.layer.basic import Dropout
from sporax.nn.parallel_transformer.config import default_dpmp_config
from sporax.nn.parallel_transformer.layers import _check_dtype, _Linear


class MultiHeadAttention(Cell):
    """Scaled dot-product attention over ``num_heads`` heads, with a 0/1 attention mask.

    ``score = (q / d**0.25) @ (k / d**0.25)^T`` (d = hidden_size / num_heads), masked positions get
    ``-10000``, softmax in ``softmax_compute_type``, then ``projection`` and dropout.

    Args:
        batch_size (int), src_seq_length (int), tgt_seq_length (int), hidden_size (int), num_heads (int).
        hidden_dropout_rate (float), attention_dropout_rate (float): Default: 0.1.
        compute_dtype (mstype): matrix products. Default: float16.
        softmax_compute_type (mstype): Default: float32.
        param_init_type (mstype): Default: float32.
        use_past (bool): incremental decoding with a key/value cache (not supported). Default: False.
        parallel_config (OpParallelConfig): ``model_parallel`` must divide num_heads and hidden_size.

    Inputs:
        - **query_tensor** (Tensor) -- (batch, src_seq_length, hidden_size) or flattened (batch*src, hidden).
        - **key_tensor**, **value_tensor** (Tensor) -- (batch, tgt_seq_length, hidden_size) or flattened.
        - **attention_mask** (Tensor) -- (batch, src_seq_length, tgt_seq_length), 1 attend / 0 masked; or None.

    Outputs:
        Tuple of (output shaped like query_tensor, (key, value) of this layer: (batch, heads, size, tgt),
        (batch, heads, tgt, size)).
    """

    def __init__(self, batch_size, src_seq_length, tgt_seq_length, hidden_size, num_heads, hidden_dropout_rate=0.1,
                 attention_dropout_rate=0.1, compute_dtype=mstype.float16, softmax_compute_type=mstype.float32,
                 param_init_type=mstype.float32, use_past=False, parallel_config=default_dpmp_config):
        super().__init__()
        if use_past:
            raise NotImplementedError("MultiHeadAttention(use_past=True): the incremental key/value cache is not "
                                      "supported by sporax.")
        if hidden_size % num_heads:
            raise ValueError(f"For 'MultiHeadAttention', hidden_size ({hidden_size}) must be a multiple of "
                             f"num_heads ({num_heads}).")
        model_parallel = getattr(parallel_config, "model_parallel", 1)
        if num_heads % model_parallel or hidden_size % model_parallel:
            raise ValueError(f"For 'MultiHeadAttention', num_heads ({num_heads}) and hidden_size ({hidden_size}) "
                             f"must be multiples of model_parallel ({model_parallel}).")
        for rate, name in ((hidden_dropout_rate, "hidden_dropout_rate"), (attention_dropout_rate,
                                                                          "attention_dropout_rate")):
            if not 0 <= rate < 1:
                raise ValueError(f"For 'MultiHeadAttention', {name} must be in [0, 1), got {rate!r}.")
        self.src_seq_length = src_seq_length
        self.tgt_seq_length = tgt_seq_length
        self.hidden_size = hidden_size
        self.n_head = num_heads
        self.size_per_head = hidden_size // num_heads
        self.dtype = _check_dtype(compute_dtype, "compute_dtype", "MultiHeadAttention")
        self.softmax_dtype = _check_dtype(softmax_compute_type, "softmax_compute_type", "MultiHeadAttention")
        self.use_past = use_past
        self.scale_factor = Tensor(np.float32(math.sqrt(math.sqrt(self.size_per_head))))
        self.projection = _Linear(hidden_size, hidden_size, transpose_b=False, compute_dtype=compute_dtype,
                                  param_init_type=param_init_type)
        self.dense1 = _Linear(hidden_size, hidden_size, compute_dtype=compute_dtype, param_init_type=param_init_type)
        self.dense2 = _Linear(hidden_size, hidden_size, compute_dtype=compute_dtype, param_init_type=param_init_type)
        self.dense3 = _Linear(hidden_size, hidden_size, compute_dtype=compute_dtype, param_init_type=param_init_type)
        self.dropout = Dropout(p=hidden_dropout_rate)
        self.prob_dropout = Dropout(p=attention_dropout_rate)
        self.softmax = ops.Softmax(axis=-1)
        self.batch_matmul = ops.BatchMatMul()
        self.cast = ops.Cast()

    def _heads(self, x, length):
        return x.reshape(-1, length, self.n_head, self.size_per_head).transpose(0, 2, 1, 3)

    def construct(self, query_tensor, key_tensor, value_tensor, attention_mask, key_past=None, value_past=None,
                  batch_valid_length=None):
        query_shape = query_tensor.shape
        scale = self.cast(self.scale_factor, self.dtype)
        query = self._heads(self.dense1(query_tensor), self.src_seq_length) / scale
        key = self._heads(self.dense2(key_tensor), self.tgt_seq_length).transpose(0, 1, 3, 2) / scale
        value = self._heads(self.dense3(value_tensor), self.tgt_seq_length)
        score = self.cast(self.batch_matmul(query, key), self.softmax_dtype)
        if attention_mask is not None:
            mask = self.cast(attention_mask, self.softmax_dtype).reshape(-1, 1, self.src_seq_length,
                                                                          self.tgt_seq_length)
            score = score + (1.0 - mask) * -10000.0
        probabilities = self.prob_dropout(self.cast(self.softmax(score), self.dtype))
        weighted = self.batch_matmul(probabilities, value)
        merged = weighted.transpose(0, 2, 1, 3).reshape(-1, self.src_seq_length, self.hidden_size)
        output = self.dropout(self.projection(merged)).reshape(query_shape[:-1] + (self.hidden_size,))
        return output, (key, value)
