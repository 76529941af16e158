"""The building layers of the parallel transformer API: ``_LayerNorm``, ``_Linear``, ``FeedForward``,
``VocabEmbedding``, ``AttentionMask`` and the masked ``CrossEntropyLoss``.

These are MindSpore 1.x's ``mindspore.nn.transformer`` layers (later ``mindspore.parallel._transformer``),
with their parameter names and shapes, so checkpoints carry over. Matrix products run in
``compute_dtype`` (float16 by default, as MindSpore) and normalisation in float32.
"""
import numpy as np

from sporax import ops
from sporax.core import dtype as mstype
from sporax.core.initializer import initializer
from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor
from sporax.nn.cell import Cell
from sporax.nn.layer.activation import get_activation
from sporax.nn.layer.basic import Dropout
from sporax.nn.parallel_transformer.config import default_dpmp_config, default_embedding_parallel_config


def _check_dtype(value, name, owner, allowed=(mstype.float32, mstype.float16, mstype.bfloat16)):
    if value not in allowed:
        raise TypeError(f"For '{owner}', {name} must be one of {[str(a) for a in allowed]}, got {value!r}.")
    return value


class _LayerNorm(Cell):
    """Layer normalisation over the last axis, with ``gamma`` (ones) and ``beta`` (zeros).

    Args:
        normalized_shape (tuple[int]): the last dimension(s).
        eps (float): Default: 1e-5.
        param_init_type (mstype): Default: float32.
        is_self_defined (bool): compute with elementary ops instead of the fused kernel. Default: False.

    Inputs:
        - **x** (Tensor) -- shape (..., normalized_shape).

    Outputs:
        Tensor, like ``x``.
    """

    def __init__(self, normalized_shape, eps=1e-5, param_init_type=mstype.float32, is_self_defined=False):
        super().__init__()
        _check_dtype(param_init_type, "param_init_type", "_LayerNorm")
        shape = tuple(normalized_shape) if isinstance(normalized_shape, (tuple, list)) else (normalized_shape,)
        self.gamma = Parameter(initializer("ones", shape, param_init_type), name="gamma", parallel_optimizer=False)
        self.beta = Parameter(initializer("zeros", shape, param_init_type), name="beta", parallel_optimizer=False)
        self.is_self_defined = is_self_defined
        self.eps = eps
        self.layer_norm = ops.LayerNorm(begin_norm_axis=-1, begin_params_axis=-1, epsilon=eps)
        self.cast = ops.Cast()

    def construct(self, x):
        if self.is_self_defined:
            mean = x.mean(-1, keep_dims=True)
            variance = ((x - mean) ** 2).mean(-1, keep_dims=True)
            output = (x - mean) / ops.sqrt(variance + self.eps)
            return output * self.cast(self.gamma, x.dtype) + self.cast(self.beta, x.dtype)
        output, _, _ = self.layer_norm(x, self.cast(self.gamma, x.dtype), self.cast(self.beta, x.dtype))
        return output

    def shard(self, strategy):
        """Record a sharding strategy (one device: no effect)."""
        self.layer_norm.shard(strategy)
        return self


class _Linear(Cell):
    """A dense layer over the last axis, computing in ``compute_dtype``.

    Args:
        in_channels (int), out_channels (int).
        weight_init (str): Default: 'normal'. bias_init (str): Default: 'zeros'.
        has_bias (bool): Default: True.
        activation (str): applied after the bias (e.g. 'gelu'). Default: None.
        transpose_b (bool): the weight is (out, in) when True, (in, out) when False. Default: True.
        expert_num (int), outer_batch (int): mixture-of-experts layout (only 1 is supported).
        param_init_type (mstype): Default: float32. compute_dtype (mstype): Default: float16.

    Inputs:
        - **x** (Tensor) -- shape (..., in_channels).

    Outputs:
        Tensor of shape (..., out_channels) in ``compute_dtype``.
    """

    def __init__(self, in_channels, out_channels, weight_init="normal", bias_init="zeros", has_bias=True,
                 activation=None, transpose_b=True, expert_num=1, outer_batch=1, param_init_type=mstype.float32,
                 compute_dtype=mstype.float16):
        super().__init__()
        if expert_num != 1:
            raise NotImplementedError("_Linear: expert_num > 1 (mixture of experts) is not supported by sporax.")
        _check_dtype(param_init_type, "param_init_type", "_Linear")
        _check_dtype(compute_dtype, "compute_dtype", "_Linear")
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.transpose_b = transpose_b
        shape = (out_channels, in_channels) if transpose_b else (in_channels, out_channels)
        self.weight = Parameter(initializer(weight_init, shape, param_init_type), name="weight")
        self.has_bias = has_bias
        if has_bias:
            self.bias = Parameter(initializer(bias_init, (out_channels,), param_init_type), name="bias")
        self.activation = get_activation(activation) if isinstance(activation, str) else activation
        self.activation_flag = self.activation is not None
        self.matmul = ops.MatMul(transpose_b=transpose_b)
        self.dtype = compute_dtype
        self.cast = ops.Cast()

    def construct(self, x):
        out_shape = x.shape[:-1] + (self.out_channels,)
        x = x.reshape(-1, self.in_channels)
        x = self.matmul(self.cast(x, self.dtype), self.cast(self.weight, self.dtype))
        if self.has_bias:
            x = x + self.cast(self.bias, self.dtype)
        if self.activation_flag:
            x = self.activation(x)
        return x.reshape(out_shape)

    def shard(self, strategy_matmul, strategy_bias=None, strategy_activation=None):
        """Record sharding strategies (one device: no effect)."""
        self.matmul.shard(strategy_matmul)
        return self


class FeedForward(Cell):
    """The transformer's two-layer perceptron: ``hidden -> ffn_hidden (activation) -> hidden``, dropout.

    Args:
        hidden_size (int), ffn_hidden_size (int).
        dropout_rate (float): dropout on the output.
        hidden_act (str): Default: 'gelu'.
        expert_num (int): Default: 1 (mixture of experts is not supported).
        param_init_type (mstype): Default: float32.
        parallel_config (OpParallelConfig): ``model_parallel`` must divide both sizes.

    Inputs:
        - **x** (Tensor) -- shape (..., hidden_size).

    Outputs:
        Tensor, shape (..., hidden_size), float16.
    """

    def __init__(self, hidden_size, ffn_hidden_size, dropout_rate, hidden_act="gelu", expert_num=1,
                 expert_group_size=None, param_init_type=mstype.float32, parallel_config=default_dpmp_config,
                 compute_dtype=mstype.float16):
        super().__init__()
        model_parallel = getattr(parallel_config, "model_parallel", 1)
        if ffn_hidden_size % model_parallel or hidden_size % model_parallel:
            raise ValueError(f"For 'FeedForward', ffn_hidden_size ({ffn_hidden_size}) and hidden_size "
                             f"({hidden_size}) must be multiples of model_parallel ({model_parallel}).")
        if not 0 <= dropout_rate < 1:
            raise ValueError(f"For 'FeedForward', dropout_rate must be in [0, 1), got {dropout_rate!r}.")
        self.mapping = _Linear(hidden_size, ffn_hidden_size, activation=hidden_act, transpose_b=False,
                               expert_num=expert_num, param_init_type=param_init_type, compute_dtype=compute_dtype)
        self.projection = _Linear(ffn_hidden_size, hidden_size, transpose_b=False, expert_num=expert_num,
                                  param_init_type=param_init_type, compute_dtype=compute_dtype)
        self.dropout = Dropout(p=dropout_rate)
        self.cast = ops.Cast()
        self.dtype = compute_dtype

    def construct(self, x):
        x = self.cast(x, self.dtype)
        return self.dropout(self.projection(self.mapping(x)))


class VocabEmbedding(Cell):
    """The token embedding table; returns the embeddings and the table (for a tied output layer).

    Args:
        vocab_size (int), embedding_size (int).
        parallel_config (EmbeddingOpParallelConfig): Default: data parallel 1.
        param_init (str): Default: 'normal'.

    Inputs:
        - **input_ids** (Tensor) -- int32, shape (batch, seq).

    Outputs:
        Tuple of (embeddings (batch, seq, embedding_size), embedding_table (vocab, embedding_size)).
    """

    def __init__(self, vocab_size, embedding_size, parallel_config=default_embedding_parallel_config,
                 param_init="normal"):
        super().__init__()
        self.vocab_size = vocab_size
        self.embedding_size = embedding_size
        self.embedding_table = Parameter(initializer(param_init, [vocab_size, embedding_size]),
                                         name="embedding_table", parallel_optimizer=False)
        self.gather = ops.Gather()

    def construct(self, input_ids):
        return self.gather(self.embedding_table, input_ids, 0), self.embedding_table.value()


class AttentionMask(Cell):
    """The causal attention mask from a padding mask: ``mask[b, i, j] = pad[b, i] * pad[b, j] * (j <= i)``.

    Args:
        seq_length (int).
        parallel_config (OpParallelConfig): Default: data parallel 1.

    Inputs:
        - **input_mask** (Tensor) -- shape (batch, seq_length); non-zero marks real tokens.

    Outputs:
        Tensor of shape (batch, seq_length, seq_length), float16 (1 attend, 0 masked).
    """

    def __init__(self, seq_length, parallel_config=default_dpmp_config):
        super().__init__()
        self.seq_length = seq_length
        self.not_equal = ops.NotEqual()
        self.batch_matmul = ops.BatchMatMul()
        self.lower_triangle_mask = Tensor(np.tril(np.ones((seq_length, seq_length), np.float16)))

    def construct(self, input_mask):
        if input_mask.shape[-1] != self.seq_length:
            raise ValueError(f"For 'AttentionMask', input_mask's last dimension must be seq_length "
                             f"({self.seq_length}), got shape {input_mask.shape}.")
        mask = ops.cast(self.not_equal(input_mask, 0), mstype.float16)
        left = mask.reshape(mask.shape[0], self.seq_length, 1)
        right = mask.reshape(mask.shape[0], 1, self.seq_length)
        return self.batch_matmul(left, right) * self.lower_triangle_mask.reshape(1, self.seq_length,
                                                                                  self.seq_length)


class CrossEntropyLoss(Cell):
    """Softmax cross entropy averaged over the positions ``input_mask`` keeps.

    Args:
        parallel_config (OpParallelConfig): Default: data parallel 1.

    Inputs:
        - **logits** (Tensor) -- shape (N, C), float16 or float32.
        - **label** (Tensor) -- shape (N,), int32 class indices.
        - **input_mask** (Tensor) -- shape (N,), 1 for positions that count, 0 otherwise.

    Outputs:
        Tensor, scalar float32: ``sum(ce * mask) / (sum(mask) + 1e-5)``.
    """

    def __init__(self, parallel_config=default_dpmp_config):
        super().__init__()
        self.log_softmax = ops.LogSoftmax(axis=-1)
        self.one_hot = ops.OneHot()

    def construct(self, logits, label, input_mask):
        logits = ops.cast(logits, mstype.float32)
        label = label.reshape(-1)
        log_probabilities = self.log_softmax(logits)
        on_value = Tensor(np.float32(1.0))
        off_value = Tensor(np.float32(0.0))
        one_hot = self.one_hot(label, logits.shape[-1], on_value, off_value)
        per_position = -(log_probabilities * one_hot).sum(-1)
        mask = ops.cast(input_mask.reshape(-1), mstype.float32)
        return (per_position * mask).sum() / (mask.sum() + 1e-5)
