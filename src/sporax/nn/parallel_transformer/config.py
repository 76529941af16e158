"""Parallel configurations of the transformer layers: how each layer would split over devices.

``OpParallelConfig`` (data x model parallel of one op), ``EmbeddingOpParallelConfig``,
``TransformerRecomputeConfig``, ``TransformerOpParallelConfig`` (the whole network: data, model,
expert and pipeline parallelism, recomputation, optimizer sharding) and ``MoEConfig``. The layers
read them to check divisibility (heads and hidden sizes by ``model_parallel``) and to apply
recomputation; on one device the values change nothing else.
"""


def _positive_int(value, name, owner):
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError(f"For '{owner}', {name} must be a positive int, got {value!r}.")
    return value


def _bool(value, name, owner):
    if not isinstance(value, bool):
        raise TypeError(f"For '{owner}', {name} must be a bool, got {type(value).__name__}.")
    return value


class OpParallelConfig:
    """Data- and model-parallel degrees of one op.

    Args:
        data_parallel (int): Default: 1.
        model_parallel (int): Default: 1.
        use_seq_parallel (bool), select_recompute (bool), context_parallel (int): Default: False/False/1.
    """

    def __init__(self, data_parallel=1, model_parallel=1, use_seq_parallel=False, select_recompute=False,
                 context_parallel=1):
        self.data_parallel = data_parallel
        self.model_parallel = model_parallel
        self.use_seq_parallel = _bool(use_seq_parallel, "use_seq_parallel", "OpParallelConfig")
        self.select_recompute = _bool(select_recompute, "select_recompute", "OpParallelConfig")
        self.context_parallel = _positive_int(context_parallel, "context_parallel", "OpParallelConfig")

    @property
    def data_parallel(self):
        return self._data_parallel

    @data_parallel.setter
    def data_parallel(self, value):
        self._data_parallel = _positive_int(value, "data_parallel", type(self).__name__)

    @property
    def model_parallel(self):
        return self._model_parallel

    @model_parallel.setter
    def model_parallel(self, value):
        self._model_parallel = _positive_int(value, "model_parallel", type(self).__name__)

    def __repr__(self):
        return f"{type(self).__name__}(data_parallel={self.data_parallel}, model_parallel={self.model_parallel})"


class EmbeddingOpParallelConfig(OpParallelConfig):
    """The embedding's parallel degrees; ``vocab_emb_dp`` keeps the table whole (data parallel only).

    Args:
        data_parallel (int), model_parallel (int): Default: 1.
        vocab_emb_dp (bool): Default: True.
    """

    def __init__(self, data_parallel=1, model_parallel=1, vocab_emb_dp=True):
        super().__init__(data_parallel, model_parallel)
        self.vocab_emb_dp = _bool(vocab_emb_dp, "vocab_emb_dp", "EmbeddingOpParallelConfig")

    @property
    def dp_mp_config(self):
        """The same degrees as an ``OpParallelConfig``."""
        return OpParallelConfig(self.data_parallel, self.model_parallel)


class TransformerRecomputeConfig:
    """Which activations to recompute in the backward pass instead of keeping them.

    Args:
        recompute (bool): recompute each layer. Default: False.
        parallel_optimizer_comm_recompute (bool), mp_comm_recompute (bool),
        recompute_slice_activation (bool): finer distributed options. Default: False/True/False.
    """

    def __init__(self, recompute=False, parallel_optimizer_comm_recompute=False, mp_comm_recompute=True,
                 recompute_slice_activation=False):
        owner = "TransformerRecomputeConfig"
        self.recompute = _bool(recompute, "recompute", owner)
        self.parallel_optimizer_comm_recompute = _bool(parallel_optimizer_comm_recompute,
                                                       "parallel_optimizer_comm_recompute", owner)
        self.mp_comm_recompute = _bool(mp_comm_recompute, "mp_comm_recompute", owner)
        self.recompute_slice_activation = _bool(recompute_slice_activation, "recompute_slice_activation", owner)


class MoEConfig:
    """Mixture-of-experts settings of the feed-forward layers.

    Args:
        expert_num (int): number of experts; 1 means a plain feed-forward layer. Default: 1.
        capacity_factor (float): Default: 1.1.
        aux_loss_factor (float): Default: 0.05.
        num_experts_chosen (int): Default: 1.
        expert_group_size (int), group_wise_a2a (bool), comp_comm_parallel (bool),
        comp_comm_parallel_degree (int): distributed options.
    """

    def __init__(self, expert_num=1, capacity_factor=1.1, aux_loss_factor=0.05, num_experts_chosen=1,
                 expert_group_size=None, group_wise_a2a=False, comp_comm_parallel=False, comp_comm_parallel_degree=2):
        self.expert_num = _positive_int(expert_num, "expert_num", "MoEConfig")
        if not isinstance(capacity_factor, (int, float)) or capacity_factor < 0:
            raise ValueError(f"For 'MoEConfig', capacity_factor must be a float >= 0, got {capacity_factor!r}.")
        self.capacity_factor = float(capacity_factor)
        if not isinstance(aux_loss_factor, (int, float)) or not 0 <= aux_loss_factor < 1:
            raise ValueError(f"For 'MoEConfig', aux_loss_factor must be in [0, 1), got {aux_loss_factor!r}.")
        self.aux_loss_factor = float(aux_loss_factor)
        self.num_experts_chosen = _positive_int(num_experts_chosen, "num_experts_chosen", "MoEConfig")
        if self.num_experts_chosen > self.expert_num:
            raise ValueError("For 'MoEConfig', num_experts_chosen must not exceed expert_num.")
        self.expert_group_size = expert_group_size
        self.group_wise_a2a = _bool(group_wise_a2a, "group_wise_a2a", "MoEConfig")
        self.comp_comm_parallel = _bool(comp_comm_parallel, "comp_comm_parallel", "MoEConfig")
        self.comp_comm_parallel_degree = _positive_int(comp_comm_parallel_degree, "comp_comm_parallel_degree",
                                                       "MoEConfig")


class _MoEParallelConfig:
    def __init__(self, data_parallel, model_parallel, expert_parallel):
        self.data_parallel = data_parallel
        self.model_parallel = model_parallel
        self.expert_parallel = expert_parallel


class TransformerOpParallelConfig:
    """Parallel settings of a whole transformer network.

    Args:
        data_parallel (int), model_parallel (int), expert_parallel (int): Default: 1.
        pipeline_stage (int): Default: 1.
        micro_batch_num (int): micro batches of pipeline parallelism, >= pipeline_stage. Default: 1.
        recompute (Union[TransformerRecomputeConfig, bool]): Default: no recomputation.
        optimizer_shard (bool): Default: False.
        gradient_aggregation_group (int): Default: 4.
        vocab_emb_dp (bool): Default: True.

    Example:
        >>> config = TransformerOpParallelConfig(data_parallel=1, model_parallel=1)
        >>> config.dp_mp_config.model_parallel
        1
    """

    def __init__(self, data_parallel=1, model_parallel=1, expert_parallel=1, pipeline_stage=1, micro_batch_num=1,
                 recompute=None, optimizer_shard=False, gradient_aggregation_group=4, vocab_emb_dp=True,
                 context_parallel=1, use_seq_parallel=False, select_recompute=False):
        owner = "TransformerOpParallelConfig"
        if recompute is None:
            recompute = TransformerRecomputeConfig()
        elif isinstance(recompute, bool):
            recompute = TransformerRecomputeConfig(recompute=recompute)
        elif not isinstance(recompute, TransformerRecomputeConfig):
            raise TypeError(f"For '{owner}', recompute must be a bool or a TransformerRecomputeConfig.")
        self.recompute = recompute
        self.pipeline_stage = _positive_int(pipeline_stage, "pipeline_stage", owner)
        self.micro_batch_num = _positive_int(micro_batch_num, "micro_batch_num", owner)
        if self.micro_batch_num < self.pipeline_stage:
            raise ValueError(f"For '{owner}', micro_batch_num ({micro_batch_num}) must be >= pipeline_stage "
                             f"({pipeline_stage}).")
        self.expert_parallel = _positive_int(expert_parallel, "expert_parallel", owner)
        self.optimizer_shard = _bool(optimizer_shard, "optimizer_shard", owner)
        self.gradient_aggregation_group = _positive_int(gradient_aggregation_group, "gradient_aggregation_group",
                                                        owner)
        self._embedding = EmbeddingOpParallelConfig(data_parallel, model_parallel, vocab_emb_dp)
        self.context_parallel = _positive_int(context_parallel, "context_parallel", owner)
        self.use_seq_parallel = _bool(use_seq_parallel, "use_seq_parallel", owner)
        self.select_recompute = _bool(select_recompute, "select_recompute", owner)

    data_parallel = property(lambda self: self._embedding.data_parallel,
                             lambda self, value: setattr(self._embedding, "data_parallel", value))
    model_parallel = property(lambda self: self._embedding.model_parallel,
                              lambda self, value: setattr(self._embedding, "model_parallel", value))
    vocab_emb_dp = property(lambda self: self._embedding.vocab_emb_dp)

    @property
    def dp_mp_config(self):
        """The data/model degrees as an ``OpParallelConfig`` (what most layers take)."""
        return OpParallelConfig(self.data_parallel, self.model_parallel, self.use_seq_parallel,
                                self.select_recompute, self.context_parallel)

    @property
    def embedding_dp_mp_config(self):
        """The embedding's ``EmbeddingOpParallelConfig``."""
        return self._embedding

    @property
    def moe_parallel_config(self):
        """Data/model/expert degrees of mixture-of-experts layers."""
        return _MoEParallelConfig(self.data_parallel, self.model_parallel, self.expert_parallel)


default_transformer_recompute_config = TransformerRecomputeConfig()
default_transformer_config = TransformerOpParallelConfig()
default_embedding_parallel_config = EmbeddingOpParallelConfig()
default_dpmp_config = OpParallelConfig()
default_moe_config = MoEConfig()
