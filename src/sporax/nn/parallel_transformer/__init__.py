"""The parallel transformer API of MindSpore 1.x (``mindspore.nn.transformer``, later
``mindspore.parallel._transformer``): configs, layers, attention, encoder/decoder stacks, masked loss.

Real layers on sporax ops with MindSpore's parameter names and compute dtypes; the parallel
configs are validated and recorded (one device runs them as data parallel 1). Mixture of experts
(``MoEConfig.expert_num > 1``) and the incremental ``use_past`` cache raise ``NotImplementedError``.
"""
from sporax.nn.parallel_transformer.attention import MultiHeadAttention
from sporax.nn.parallel_transformer.blocks import (Transformer, TransformerDecoder, TransformerDecoderLayer,
                                                   TransformerEncoder, TransformerEncoderLayer)
from sporax.nn.parallel_transformer.config import (EmbeddingOpParallelConfig, MoEConfig, OpParallelConfig,
                                                   TransformerOpParallelConfig, TransformerRecomputeConfig,
                                                   default_dpmp_config, default_embedding_parallel_config,
                                                   default_moe_config, default_transformer_config,
                                                   default_transformer_recompute_config)
from sporax.nn.parallel_transformer.layers import (AttentionMask, CrossEntropyLoss, FeedForward, VocabEmbedding,
                                                   _LayerNorm, _Linear)
