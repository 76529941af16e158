"""Transformer blocks of the parallel transformer API: encoder/decoder layers, their stacks, ``Transformer``.

Pre-layer-norm residual blocks (``post_layernorm_residual=False``, the default) compute
``x + attention(layernorm1(x))`` then ``x + feedforward(layernorm2(x))``; with
``post_layernorm_residual=True`` the residual starts from the normalised input instead. A stack
calls ``lambda_func(block, layer_id=..., layers=..., offset=..., parallel_config=...)`` on each
block (the default applies ``parallel_config.recompute``).
"""
from sporax import ops
from sporax.core import dtype as mstype
from sporax.nn.cell import Cell
from sporax.nn.container import CellList
from sporax.nn.parallel_transformer.attention import MultiHeadAttention
from sporax.nn.parallel_transformer.config import default_moe_config, default_transformer_config
from sporax.nn.parallel_transformer.layers import FeedForward, _LayerNorm


def _check_moe(moe_config, owner):
    if moe_config is not None and moe_config.expert_num > 1:
        raise NotImplementedError(f"{owner}: mixture of experts (MoEConfig.expert_num > 1) is not supported by "
                                  "sporax.")


def _default_lambda(block, layer_id, layers, offset, parallel_config):
    recompute = getattr(parallel_config, "recompute", None)
    if getattr(recompute, "recompute", False):
        block.recompute()


def _layer_config(parallel_config):
    return getattr(parallel_config, "dp_mp_config", parallel_config)


class _ResidualBlock(Cell):
    """The sub-blocks encoder and decoder layers share: layer norm, a sub-layer, the residual add."""

    def _residual(self, normalised, x, update):
        # Post-norm residuals start from the normalised input, pre-norm ones from the block's input.
        return (normalised if self.post_layernorm_residual else x) + update

    def _self_attention(self, x, mask):
        """``x`` after the self-attention sub-block, and the attention's (key, value)."""
        x = self.cast(x, self.dtype)
        normalised = self.cast(self.layernorm1(x), self.dtype)
        attention, present = self.attention(normalised, normalised, normalised, mask)
        return self._residual(normalised, x, attention), present

    def _feed_forward(self, x):
        normalised = self.cast(self.layernorm2(x), self.dtype)
        return self._residual(normalised, x, self.output(normalised))


class TransformerEncoderLayer(_ResidualBlock):
    """One encoder block: self-attention and feed-forward, each with a layer norm and a residual.

    Args:
        batch_size (int), hidden_size (int), ffn_hidden_size (int), num_heads (int), seq_length (int).
        attention_dropout_rate (float), hidden_dropout_rate (float): Default: 0.1.
        post_layernorm_residual (bool): Default: False.
        layernorm_compute_type, softmax_compute_type, param_init_type (mstype): Default: float32.
        hidden_act (str): Default: 'gelu'.
        use_past (bool): not supported. moe_config (MoEConfig): expert_num 1 only.
        parallel_config (OpParallelConfig or TransformerOpParallelConfig).

    Inputs:
        - **x** (Tensor) -- (batch, seq_length, hidden_size).
        - **input_mask** (Tensor) -- (batch, seq_length, seq_length) 0/1, or None.

    Outputs:
        Tuple of (output (batch, seq_length, hidden_size) float16, (key, value) of the attention).
    """

    def __init__(self, batch_size, hidden_size, ffn_hidden_size, num_heads, seq_length, attention_dropout_rate=0.1,
                 hidden_dropout_rate=0.1, post_layernorm_residual=False, layernorm_compute_type=mstype.float32,
                 softmax_compute_type=mstype.float32, param_init_type=mstype.float32, hidden_act="gelu",
                 use_past=False, moe_config=default_moe_config, parallel_config=default_transformer_config):
        super().__init__()
        _check_moe(moe_config, "TransformerEncoderLayer")
        config = _layer_config(parallel_config)
        self.layernorm1 = _LayerNorm((hidden_size,)).to_float(layernorm_compute_type)
        self.layernorm2 = _LayerNorm((hidden_size,)).to_float(layernorm_compute_type)
        self.attention = MultiHeadAttention(batch_size, seq_length, seq_length, hidden_size, num_heads,
                                            hidden_dropout_rate, attention_dropout_rate,
                                            softmax_compute_type=softmax_compute_type,
                                            param_init_type=param_init_type, use_past=use_past,
                                            parallel_config=config)
        self.output = FeedForward(hidden_size, ffn_hidden_size, hidden_dropout_rate, hidden_act,
                                  param_init_type=param_init_type, parallel_config=config)
        self.post_layernorm_residual = post_layernorm_residual
        self.dtype = mstype.float16
        self.cast = ops.Cast()

    def construct(self, x, input_mask=None, init_reset=True, batch_valid_length=None):
        x, layer_present = self._self_attention(x, input_mask)
        return self._feed_forward(x), layer_present


class TransformerDecoderLayer(_ResidualBlock):
    """One decoder block: masked self-attention, cross-attention on the encoder output, feed-forward.

    Args:
        hidden_size, ffn_hidden_size, num_heads, batch_size, src_seq_length, tgt_seq_length (int); the
        rest as ``TransformerEncoderLayer``.

    Inputs:
        - **hidden_stats** (Tensor) -- (batch, tgt_seq_length, hidden_size).
        - **decoder_mask** (Tensor) -- (batch, tgt_seq_length, tgt_seq_length).
        - **encoder_output** (Tensor) -- (batch, src_seq_length, hidden_size) or None (no cross-attention).
        - **memory_mask** (Tensor) -- (batch, tgt_seq_length, src_seq_length).

    Outputs:
        Tuple of (output (batch, tgt_seq_length, hidden_size), self- and cross-attention (key, value)s).
    """

    def __init__(self, hidden_size, ffn_hidden_size, num_heads, batch_size, src_seq_length, tgt_seq_length,
                 attention_dropout_rate=0.1, hidden_dropout_rate=0.1, post_layernorm_residual=False, use_past=False,
                 layernorm_compute_type=mstype.float32, softmax_compute_type=mstype.float32,
                 param_init_type=mstype.float32, hidden_act="gelu", moe_config=default_moe_config,
                 parallel_config=default_transformer_config):
        super().__init__()
        _check_moe(moe_config, "TransformerDecoderLayer")
        config = _layer_config(parallel_config)
        self.layernorm1 = _LayerNorm((hidden_size,)).to_float(layernorm_compute_type)
        self.layernorm2 = _LayerNorm((hidden_size,)).to_float(layernorm_compute_type)
        self.cross_attention_layernorm = _LayerNorm((hidden_size,)).to_float(layernorm_compute_type)
        common = dict(hidden_dropout_rate=hidden_dropout_rate, attention_dropout_rate=attention_dropout_rate,
                      softmax_compute_type=softmax_compute_type, param_init_type=param_init_type, use_past=use_past,
                      parallel_config=config)
        self.attention = MultiHeadAttention(batch_size, tgt_seq_length, tgt_seq_length, hidden_size, num_heads,
                                            **common)
        self.cross_attention = MultiHeadAttention(batch_size, tgt_seq_length, src_seq_length, hidden_size,
                                                  num_heads, **common)
        self.output = FeedForward(hidden_size, ffn_hidden_size, hidden_dropout_rate, hidden_act,
                                  param_init_type=param_init_type, parallel_config=config)
        self.post_layernorm_residual = post_layernorm_residual
        self.dtype = mstype.float16
        self.cast = ops.Cast()

    def construct(self, hidden_stats, decoder_mask, encoder_output=None, memory_mask=None, init_reset=True,
                  batch_valid_length=None):
        x, layer_present = self._self_attention(hidden_stats, decoder_mask)
        if encoder_output is not None:
            middle = self.cast(self.cross_attention_layernorm(x), self.dtype)
            encoder_output = self.cast(encoder_output, self.dtype)
            cross, cross_present = self.cross_attention(middle, encoder_output, encoder_output, memory_mask)
            layer_present = layer_present + cross_present
            x = self._residual(middle, x, cross)
        return self._feed_forward(x), layer_present


class _BlockStack(Cell):
    """What encoder and decoder stacks share: building ``blocks`` and running them in turn."""

    def _build(self, num_layers, make_block, lambda_func, offset, parallel_config):
        self.num_layers = num_layers
        self.blocks = CellList()
        configure = lambda_func or _default_lambda
        for layer_id in range(num_layers):
            block = make_block()
            configure(block, layer_id=layer_id, layers=num_layers, offset=offset, parallel_config=parallel_config)
            self.blocks.append(block)

    def _run(self, hidden_states, *inputs):
        """The last block's output and the tuple of every block's attention state."""
        present_layer = ()
        for block in self.blocks:
            hidden_states, present = block(hidden_states, *inputs)
            present_layer = present_layer + (present,)
        return hidden_states, present_layer


class TransformerEncoder(_BlockStack):
    """``num_layers`` encoder blocks (``blocks``).

    Args:
        batch_size, num_layers, hidden_size, ffn_hidden_size, seq_length, num_heads (int); the rest as
        ``TransformerEncoderLayer``; lambda_func (callable) and offset (int) configure each block.

    Inputs:
        - **hidden_states** (Tensor) -- (batch, seq_length, hidden_size).
        - **attention_mask** (Tensor) -- (batch, seq_length, seq_length).

    Outputs:
        Tuple of (output, tuple of each block's (key, value)).

    Example:
        >>> encoder = TransformerEncoder(batch_size=2, num_layers=2, hidden_size=8, ffn_hidden_size=32,
        ...                              seq_length=4, num_heads=2)
    """

    def __init__(self, batch_size, num_layers, hidden_size, ffn_hidden_size, seq_length, num_heads,
                 attention_dropout_rate=0.1, hidden_dropout_rate=0.1, hidden_act="gelu",
                 post_layernorm_residual=False, layernorm_compute_type=mstype.float32,
                 softmax_compute_type=mstype.float32, param_init_type=mstype.float32, lambda_func=None, offset=0,
                 use_past=False, moe_config=default_moe_config, parallel_config=default_transformer_config):
        super().__init__()
        self._build(num_layers, lambda: TransformerEncoderLayer(
            batch_size, hidden_size, ffn_hidden_size, num_heads, seq_length, attention_dropout_rate,
            hidden_dropout_rate, post_layernorm_residual, layernorm_compute_type, softmax_compute_type,
            param_init_type, hidden_act, use_past, moe_config, parallel_config), lambda_func, offset, parallel_config)

    def construct(self, hidden_states, attention_mask, init_reset=True, batch_valid_length=None):
        return self._run(hidden_states, attention_mask)


class TransformerDecoder(_BlockStack):
    """``num_layers`` decoder blocks (``blocks``); arguments as ``TransformerDecoderLayer`` plus num_layers.

    Inputs:
        - **hidden_states**, **attention_mask**, **encoder_output**, **memory_mask** (Tensor).

    Outputs:
        Tuple of (output, tuple of each block's attention (key, value)s).
    """

    def __init__(self, num_layers, batch_size, hidden_size, ffn_hidden_size, src_seq_length, tgt_seq_length,
                 num_heads, attention_dropout_rate=0.1, hidden_dropout_rate=0.1, post_layernorm_residual=False,
                 layernorm_compute_type=mstype.float32, softmax_compute_type=mstype.float32,
                 param_init_type=mstype.float32, hidden_act="gelu", lambda_func=None, use_past=False, offset=0,
                 moe_config=default_moe_config, parallel_config=default_transformer_config):
        super().__init__()
        self._build(num_layers, lambda: TransformerDecoderLayer(
            hidden_size, ffn_hidden_size, num_heads, batch_size, src_seq_length, tgt_seq_length,
            attention_dropout_rate, hidden_dropout_rate, post_layernorm_residual, use_past, layernorm_compute_type,
            softmax_compute_type, param_init_type, hidden_act, moe_config, parallel_config),
            lambda_func, offset, parallel_config)

    def construct(self, hidden_states, attention_mask, encoder_output=None, memory_mask=None, init_reset=True,
                  batch_valid_length=None):
        return self._run(hidden_states, attention_mask, encoder_output, memory_mask)


class Transformer(Cell):
    """An encoder-decoder transformer (``encoder``, ``decoder``; either may have 0 layers, not both).

    Args:
        hidden_size, batch_size, ffn_hidden_size, src_seq_length, tgt_seq_length (int).
        encoder_layers (int), decoder_layers (int): Default: 3 each.
        num_heads (int): Default: 2. The rest as ``TransformerEncoder``.

    Inputs:
        - **encoder_inputs** (Tensor) -- (batch, src_seq_length, hidden_size).
        - **encoder_masks** (Tensor) -- (batch, src_seq_length, src_seq_length).
        - **decoder_inputs** (Tensor) -- (batch, tgt_seq_length, hidden_size), or None.
        - **decoder_masks** (Tensor) -- (batch, tgt_seq_length, tgt_seq_length).
        - **memory_mask** (Tensor) -- (batch, tgt_seq_length, src_seq_length).

    Outputs:
        Tuple of (output, encoder_layer_present, decoder_layer_present).
    """

    def __init__(self, hidden_size, batch_size, ffn_hidden_size, src_seq_length, tgt_seq_length, encoder_layers=3,
                 decoder_layers=3, num_heads=2, attention_dropout_rate=0.1, hidden_dropout_rate=0.1,
                 hidden_act="gelu", post_layernorm_residual=False, layernorm_compute_type=mstype.float32,
                 softmax_compute_type=mstype.float32, param_init_type=mstype.float32, lambda_func=None,
                 use_past=False, moe_config=default_moe_config, parallel_config=default_transformer_config):
        super().__init__()
        if encoder_layers <= 0 and decoder_layers <= 0:
            raise ValueError("For 'Transformer', encoder_layers and decoder_layers cannot both be 0.")
        common = dict(attention_dropout_rate=attention_dropout_rate, hidden_dropout_rate=hidden_dropout_rate,
                      hidden_act=hidden_act, post_layernorm_residual=post_layernorm_residual,
                      layernorm_compute_type=layernorm_compute_type, softmax_compute_type=softmax_compute_type,
                      param_init_type=param_init_type, lambda_func=lambda_func, use_past=use_past,
                      moe_config=moe_config, parallel_config=parallel_config)
        self.encoder = None
        self.decoder = None
        if encoder_layers > 0:
            self.encoder = TransformerEncoder(batch_size, encoder_layers, hidden_size, ffn_hidden_size,
                                              src_seq_length, num_heads, **common)
        if decoder_layers > 0:
            self.decoder = TransformerDecoder(decoder_layers, batch_size, hidden_size, ffn_hidden_size,
                                              src_seq_length, tgt_seq_length, num_heads,
                                              offset=encoder_layers, **common)

    def construct(self, encoder_inputs, encoder_masks, decoder_inputs=None, decoder_masks=None, memory_mask=None,
                  init_reset=True, batch_valid_length=None):
        encoder_present = ()
        decoder_present = ()
        output = None
        if self.encoder is not None:
            output, encoder_present = self.encoder(encoder_inputs, encoder_masks)
        if self.decoder is not None and decoder_inputs is not None:
            output, decoder_present = self.decoder(decoder_inputs, decoder_masks, output, memory_mask)
        return output, encoder_present, decoder_present
