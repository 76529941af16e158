"""Attention layers: ``MultiheadAttention`` and the ``Transformer`` encoder/decoder family.

Conventions follow MindSpore 2.x (PyTorch's): inputs are (seq, batch, embed) unless
``batch_first``; a boolean mask marks positions to *ignore* (True), a float mask is added to the
scores; attention weights come back averaged over heads unless ``average_attn_weights=False``.
Layer attributes keep MindSpore's names (``self_attn``, ``dense1``, ``norm1`` ...) so checkpoint
names match.
"""
import copy
import functools
import math

import jax
import jax.numpy as jnp

from sporax.core import dtype as mstype
from sporax.core.initializer import XavierNormal, XavierUniform, initializer
from sporax.core.random_state import next_key
from sporax.core.tensor import Tensor
from sporax.nn.cell import Cell
from sporax.nn.container import CellList
from sporax.nn.layer.activation import GELU, ReLU
from sporax.nn.layer.basic import Dense, Dropout, _check_positive_int, make_parameter
from sporax.nn.layer.normalization import LayerNorm


def _mask_bias(mask, dtype):
    """A boolean mask (True = ignore) becomes -inf/0; a float mask is used as it is."""
    if mask.dtype == jnp.bool_:
        return jnp.where(mask, jnp.asarray(-jnp.inf, dtype), jnp.asarray(0, dtype))
    return mask.astype(dtype)


@functools.partial(jax.jit, static_argnums=(0, 1, 2, 3, 4), static_argnames=("head_split",))
def _attention(num_heads, dropout, add_zero_attn, average, batch_major, query, key, value, weights, masks, rng,
               packed=None, head_split=None):
    """Attention over query (L, N, E), key (S, N, Ek), value (S, N, Ev) -> ((L, N, E), weights);
    with ``batch_major`` the inputs and the output are (N, L, E) (no transposes around the heads).
    ``packed``: ``(in_proj_weight, in_proj_bias)`` for self-attention (query, key and value one
    array): one (3E, E) projection instead of three, and no slicing of the packed weight.
    ``head_split``: ``(projections, heads)`` shardings that split the heads over devices (set by
    AutoParallel's search, ``sporax.parallel.auto_parallel_search``): the packed weight viewed as
    (3, E, E) is laid out as ``projections`` and each (N, H, S, D) query/key/value as ``heads``."""
    w_q, w_k, w_v, b_q, b_k, b_v, bias_k, bias_v, w_out, b_out = weights
    key_padding_mask, attn_mask = masks
    time_axis = 1 if batch_major else 0
    length, batch, embed = query.shape[time_axis], query.shape[1 - time_axis], query.shape[2]
    head_dim = embed // num_heads
    if packed is not None and head_split is not None:
        # No sharding of the (3E, E) array splits each third by heads: split its (3, E, E) view.
        w_in, b_in = packed
        w_q, w_k, w_v = jax.lax.with_sharding_constraint(w_in.reshape(3, embed, embed), head_split[0])
        q, k, v = query @ w_q.T, query @ w_k.T, query @ w_v.T
        if b_in is not None:
            q, k, v = q + b_in[:embed], k + b_in[embed:2 * embed], v + b_in[2 * embed:]
    elif packed is not None:
        w_in, b_in = packed
        q, k, v = jnp.split(query @ w_in.T + (0 if b_in is None else b_in), 3, axis=-1)
    else:
        q = query @ w_q.T + (0 if b_q is None else b_q)
        k = key @ w_k.T + (0 if b_k is None else b_k)
        v = value @ w_v.T + (0 if b_v is None else b_v)
    bias = jnp.zeros((batch, num_heads, length, k.shape[time_axis]), q.dtype)
    extra = 0
    if bias_k is not None:
        learned_shape = (batch, 1, embed) if batch_major else (1, batch, embed)
        k = jnp.concatenate([k, jnp.broadcast_to(bias_k.reshape(1, 1, embed), learned_shape)], axis=time_axis)
        v = jnp.concatenate([v, jnp.broadcast_to(bias_v.reshape(1, 1, embed), learned_shape)], axis=time_axis)
        extra += 1

    def heads(x):  # (S, N, E) or (N, S, E) -> (N, H, S, D)
        if batch_major:
            return x.reshape(batch, x.shape[1], num_heads, head_dim).transpose(0, 2, 1, 3)
        return x.reshape(x.shape[0], batch, num_heads, head_dim).transpose(1, 2, 0, 3)

    q, k, v = heads(q), heads(k), heads(v)
    if head_split is not None:
        q, k, v = (jax.lax.with_sharding_constraint(x, head_split[1]) for x in (q, k, v))
    if add_zero_attn:
        k = jnp.concatenate([k, jnp.zeros(k.shape[:2] + (1, head_dim), k.dtype)], axis=2)
        v = jnp.concatenate([v, jnp.zeros(v.shape[:2] + (1, head_dim), v.dtype)], axis=2)
        extra += 1
    if extra:
        bias = jnp.pad(bias, ((0, 0), (0, 0), (0, 0), (0, extra)))
    if attn_mask is not None:
        mask = _mask_bias(attn_mask, q.dtype)
        mask = mask.reshape(batch, num_heads, length, -1) if mask.ndim == 3 else mask[None, None]
        bias = bias + jnp.pad(mask, ((0, 0), (0, 0), (0, 0), (0, extra)))
    if key_padding_mask is not None:
        mask = jnp.pad(_mask_bias(key_padding_mask, q.dtype), ((0, 0), (0, extra)))
        bias = bias + mask[:, None, None, :]
    scores = (q / jnp.asarray(math.sqrt(head_dim), q.dtype)) @ jnp.swapaxes(k, -1, -2) + bias
    probabilities = jax.nn.softmax(scores, axis=-1)
    attended = probabilities
    if dropout > 0:
        keep = jax.random.bernoulli(rng, 1 - dropout, probabilities.shape)
        attended = jnp.where(keep, probabilities / (1 - dropout), 0).astype(probabilities.dtype)
    output = attended @ v
    output = (output.transpose(0, 2, 1, 3).reshape(batch, length, embed) if batch_major
              else output.transpose(2, 0, 1, 3).reshape(length, batch, embed))
    output = output @ w_out.T + (0 if b_out is None else b_out)
    return output, (probabilities.mean(axis=1) if average else probabilities)


def _array(value):
    return None if value is None else value._value


class MultiheadAttention(Cell):
    """Multi-head scaled dot-product attention.

    Args:
        embed_dim (int): E, the model width; divisible by ``num_heads``.
        num_heads (int): the number of heads.
        dropout (float): dropout on the attention weights while training. Default: 0.0.
        has_bias (bool): biases on the projections. Default: True.
        add_bias_kv (bool): append learned bias_k/bias_v to key and value. Default: False.
        add_zero_attn (bool): append a zero key/value. Default: False.
        kdim (int): features of key. Default: embed_dim.
        vdim (int): features of value. Default: embed_dim.
        batch_first (bool): inputs are (batch, seq, feature). Default: False.
        dtype (mindspore.dtype): the dtype of the Parameters. Default: float32.

    Inputs:
        - **query** (Tensor) -- (L, N, E) ((N, L, E) with batch_first, or (L, E) unbatched).
        - **key** (Tensor) -- (S, N, kdim). **value** (Tensor) -- (S, N, vdim).
        - **key_padding_mask** (Tensor) -- (N, S), True or -inf where a key is padding.
        - **need_weights** (bool) -- also return the weights. Default: True.
        - **attn_mask** (Tensor) -- (L, S) or (N * num_heads, L, S).
        - **average_attn_weights** (bool) -- average the weights over heads. Default: True.

    Outputs:
        Tuple (attn_output (L, N, E), attn_weights (N, L, S) or (N, num_heads, L, S)); with
        need_weights=False, a tuple of attn_output alone.
    """

    def __init__(self, embed_dim, num_heads, dropout=0.0, has_bias=True, add_bias_kv=False, add_zero_attn=False,
                 kdim=None, vdim=None, batch_first=False, dtype=mstype.float32):
        super().__init__()
        self.embed_dim = _check_positive_int("MultiheadAttention", "embed_dim", embed_dim)
        self.num_heads = _check_positive_int("MultiheadAttention", "num_heads", num_heads)
        if embed_dim % num_heads:
            raise ValueError(f"For 'MultiheadAttention', the 'embed_dim' must be divisible by 'num_heads', but got "
                             f"embed_dim={embed_dim}, num_heads={num_heads}.")
        self.kdim = embed_dim if kdim is None else kdim
        self.vdim = embed_dim if vdim is None else vdim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.dropout, self.batch_first, self.has_bias = float(dropout), batch_first, has_bias
        self.add_zero_attn, self.head_dim = add_zero_attn, embed_dim // num_heads
        name = "MultiheadAttention"
        if self._qkv_same_embed_dim:
            self.in_proj_weight = make_parameter(name, "in_proj_weight", XavierUniform(), (3 * embed_dim, embed_dim),
                                                 dtype, "in_proj_weight")
        else:
            self.q_proj_weight = make_parameter(name, "q_proj_weight", XavierUniform(), (embed_dim, embed_dim), dtype,
                                                "q_proj_weight")
            self.k_proj_weight = make_parameter(name, "k_proj_weight", XavierUniform(), (embed_dim, self.kdim), dtype,
                                                "k_proj_weight")
            self.v_proj_weight = make_parameter(name, "v_proj_weight", XavierUniform(), (embed_dim, self.vdim), dtype,
                                                "v_proj_weight")
        self.in_proj_bias = make_parameter(name, "in_proj_bias", "zeros", (3 * embed_dim,), dtype, "in_proj_bias") \
            if has_bias else None
        if add_bias_kv:
            self.bias_k = make_parameter(name, "bias_k", XavierNormal(), (1, 1, embed_dim), dtype, "bias_k")
            self.bias_v = make_parameter(name, "bias_v", XavierNormal(), (1, 1, embed_dim), dtype, "bias_v")
        else:
            self.bias_k = self.bias_v = None
        # out_proj keeps Dense's own initial bias (MindSpore 2.10 does not zero it, unlike in_proj_bias)
        self.out_proj = Dense(embed_dim, embed_dim, has_bias=has_bias, dtype=dtype)

    def _weights(self):
        embed = self.embed_dim
        if self._qkv_same_embed_dim:
            packed = self.in_proj_weight._value
            w_q, w_k, w_v = packed[:embed], packed[embed:2 * embed], packed[2 * embed:]
        else:
            w_q, w_k, w_v = self.q_proj_weight._value, self.k_proj_weight._value, self.v_proj_weight._value
        if self.has_bias:
            packed_bias = self.in_proj_bias._value
            b_q, b_k, b_v = packed_bias[:embed], packed_bias[embed:2 * embed], packed_bias[2 * embed:]
        else:
            b_q = b_k = b_v = None
        return (w_q, w_k, w_v, b_q, b_k, b_v, _array(self.bias_k), _array(self.bias_v), self.out_proj.weight._value,
                _array(self.out_proj.bias))

    def construct(self, query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
                  average_attn_weights=True):
        arrays = []
        for arg_name, tensor in (("query", query), ("key", key), ("value", value)):
            if not isinstance(tensor, Tensor):
                raise TypeError(f"For 'MultiheadAttention', the '{arg_name}' must be a Tensor, but got "
                                f"{type(tensor).__name__}.")
            arrays.append(tensor._value)
        batched = arrays[0].ndim == 3
        if not batched:
            arrays = [a[:, None] for a in arrays]
        batch_major = batched and self.batch_first
        padding = _array(key_padding_mask)
        if padding is not None and not batched:
            padding = padding[None]
        dropout = self.dropout if self.training else 0.0
        rng = next_key() if dropout > 0 else None
        packed = None
        if self._qkv_same_embed_dim and query is key and key is value:  # self-attention: one projection
            packed = (self.in_proj_weight._value, _array(self.in_proj_bias))
        output, weights = _attention(self.num_heads, dropout, self.add_zero_attn, bool(average_attn_weights),
                                     batch_major, *arrays, self._weights(), (padding, _array(attn_mask)), rng,
                                     packed=packed, head_split=self.__dict__.get("_sporax_head_split"))
        if not batched:
            output, weights = output[:, 0], weights[0]
        if not need_weights:
            return (Tensor._wrap(output),)
        return Tensor._wrap(output), Tensor._wrap(weights)


def _activation(activation):
    if isinstance(activation, str):
        if activation == "relu":
            return ReLU()
        if activation == "gelu":
            return GELU(approximate=False)
        raise ValueError(f"For Transformer layers, the 'activation' must be 'relu', 'gelu', a Cell or a callable, "
                         f"but got {activation!r}.")
    return activation


def _set_activation(layer, activation):
    """A named activation ('relu', 'gelu') is a plain attribute, as in MindSpore's printed layers; a Cell is a child."""
    if isinstance(activation, Cell):
        layer.activation = activation
    else:
        layer.__dict__["activation"] = _activation(activation)


class _TransformerLayer(Cell):
    """What the encoder and decoder layers share: self-attention (then, with ``_memory_attention``,
    attention over the encoder's memory), the feed-forward block, and a LayerNorm and a Dropout per
    block, registered in MindSpore's order so parameter names and order match its checkpoints."""

    _memory_attention = False

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation="relu", layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, dtype=mstype.float32):
        super().__init__()
        object.__setattr__(self, "_construction", dict(
            d_model=d_model, nhead=nhead, dim_feedforward=dim_feedforward, dropout=dropout, activation=activation,
            layer_norm_eps=layer_norm_eps, batch_first=batch_first, norm_first=norm_first, dtype=dtype))
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first, dtype=dtype)
        if self._memory_attention:
            self.multihead_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first,
                                                     dtype=dtype)
        self.dense1 = Dense(d_model, dim_feedforward, dtype=dtype)
        self.dropout = Dropout(p=dropout)
        self.dense2 = Dense(dim_feedforward, d_model, dtype=dtype)
        self.norm_first = norm_first
        blocks = range(1, 4 if self._memory_attention else 3)
        for block in blocks:
            setattr(self, f"norm{block}", LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype))
        for block in blocks:
            setattr(self, f"dropout{block}", Dropout(p=dropout))
        _set_activation(self, activation)

    def _self_block(self, x, mask, padding):
        return self.dropout1(self.self_attn(x, x, x, attn_mask=mask, key_padding_mask=padding, need_weights=False)[0])


class TransformerEncoderLayer(_TransformerLayer):
    """Self-attention then a feed-forward block, each with a residual connection and LayerNorm.

    Args:
        d_model (int): the model width.
        nhead (int): attention heads.
        dim_feedforward (int): the hidden width of the feed-forward block. Default: 2048.
        dropout (float): Default: 0.1.
        activation (Union[str, Cell, callable]): 'relu' or 'gelu' or a Cell. Default: 'relu'.
        layer_norm_eps (float): Default: 1e-5.
        batch_first (bool): Default: False.
        norm_first (bool): normalise before (True) or after (False) each block. Default: False.
        dtype (mindspore.dtype): Default: float32.

    Inputs:
        - **src** (Tensor) -- (S, N, E). **src_mask**, **src_key_padding_mask** -- as MultiheadAttention.

    Outputs:
        Tensor, same shape as src.
    """

    def _feed_forward(self, x):
        return self.dropout2(self.dense2(self.dropout(self.activation(self.dense1(x)))))

    def construct(self, src, src_mask=None, src_key_padding_mask=None):
        x = src
        if self.norm_first:
            x = x + self._self_block(self.norm1(x), src_mask, src_key_padding_mask)
            return x + self._feed_forward(self.norm2(x))
        x = self.norm1(x + self._self_block(x, src_mask, src_key_padding_mask))
        return self.norm2(x + self._feed_forward(x))


class TransformerDecoderLayer(_TransformerLayer):
    """Self-attention, attention over the encoder's memory, then a feed-forward block (arguments as the encoder layer).

    Inputs:
        - **tgt** (Tensor) -- (T, N, E). **memory** (Tensor) -- (S, N, E).
        - **tgt_mask**, **memory_mask**, **tgt_key_padding_mask**, **memory_key_padding_mask** -- masks.

    Outputs:
        Tensor, same shape as tgt.
    """

    _memory_attention = True

    def _memory_block(self, x, memory, mask, padding):
        attended = self.multihead_attn(x, memory, memory, attn_mask=mask, key_padding_mask=padding,
                                       need_weights=False)[0]
        return self.dropout2(attended)

    def _feed_forward(self, x):
        return self.dropout3(self.dense2(self.dropout(self.activation(self.dense1(x)))))

    def construct(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                  memory_key_padding_mask=None):
        x = tgt
        if self.norm_first:
            x = x + self._self_block(self.norm1(x), tgt_mask, tgt_key_padding_mask)
            x = x + self._memory_block(self.norm2(x), memory, memory_mask, memory_key_padding_mask)
            return x + self._feed_forward(self.norm3(x))
        x = self.norm1(x + self._self_block(x, tgt_mask, tgt_key_padding_mask))
        x = self.norm2(x + self._memory_block(x, memory, memory_mask, memory_key_padding_mask))
        return self.norm3(x + self._feed_forward(x))


def _clones(layer, count):
    """``count`` copies of ``layer`` as MindSpore 2.10's TransformerEncoder/Decoder hold them: every copy has the
    initial parameters a layer built now with the same arguments draws (one set, shared by all copies; the given
    layer keeps its own), so a seeded network starts where MindSpore's does."""
    clone = copy.deepcopy(layer)
    if type(layer) in (TransformerEncoderLayer, TransformerDecoderLayer):
        fresh = type(layer)(**layer._construction)
        for mine, drawn in zip(clone.get_parameters(), fresh.get_parameters()):
            mine.set_data(drawn.value())
    return CellList([copy.deepcopy(clone) for _ in range(count)])


class TransformerEncoder(Cell):
    """``num_layers`` copies of ``encoder_layer`` in sequence, then ``norm`` (if given).

    Args:
        encoder_layer (TransformerEncoderLayer): the layer to copy.
        num_layers (int): how many copies.
        norm (Cell): applied to the output. Default: None.
    """

    def __init__(self, encoder_layer, num_layers, norm=None):
        super().__init__()
        _check_positive_int("TransformerEncoder", "num_layers", num_layers)
        self.layers = _clones(encoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm

    def construct(self, src, src_mask=None, src_key_padding_mask=None):
        output = src
        for layer in self.layers:
            output = layer(output, src_mask=src_mask, src_key_padding_mask=src_key_padding_mask)
        return output if self.norm is None else self.norm(output)


class TransformerDecoder(Cell):
    """``num_layers`` copies of ``decoder_layer`` in sequence, then ``norm`` (if given)."""

    def __init__(self, decoder_layer, num_layers, norm=None):
        super().__init__()
        _check_positive_int("TransformerDecoder", "num_layers", num_layers)
        self.layers = _clones(decoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm

    def construct(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                  memory_key_padding_mask=None):
        output = tgt
        for layer in self.layers:
            output = layer(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                           tgt_key_padding_mask=tgt_key_padding_mask,
                           memory_key_padding_mask=memory_key_padding_mask)
        return output if self.norm is None else self.norm(output)


class Transformer(Cell):
    """An encoder-decoder Transformer (arguments as MindSpore's ``nn.Transformer``).

    Inputs:
        - **src** (Tensor) -- (S, N, E). **tgt** (Tensor) -- (T, N, E).
        - **src_mask**, **tgt_mask**, **memory_mask**, and the three key padding masks.

    Outputs:
        Tensor (T, N, E).
    """

    def __init__(self, d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6, dim_feedforward=2048,
                 dropout=0.1, activation="relu", custom_encoder=None, custom_decoder=None, layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, dtype=mstype.float32):
        super().__init__()
        if custom_encoder is None:
            layer = TransformerEncoderLayer(d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                                            batch_first, norm_first, dtype)
            custom_encoder = TransformerEncoder(layer, num_encoder_layers,
                                                LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype))
        if custom_decoder is None:
            layer = TransformerDecoderLayer(d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                                            batch_first, norm_first, dtype)
            custom_decoder = TransformerDecoder(layer, num_decoder_layers,
                                                LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype))
        self.encoder, self.decoder = custom_encoder, custom_decoder
        self.d_model, self.nhead, self.batch_first = d_model, nhead, batch_first
        # as MindSpore 2.10: every matrix drawn again from XavierUniform, in parameter order
        for parameter in self.get_parameters():
            if parameter.ndim > 1:
                parameter.set_data(initializer(XavierUniform(), parameter.shape, parameter.dtype))

    def construct(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None, src_key_padding_mask=None,
                  tgt_key_padding_mask=None, memory_key_padding_mask=None):
        memory = self.encoder(src, src_mask=src_mask, src_key_padding_mask=src_key_padding_mask)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                            tgt_key_padding_mask=tgt_key_padding_mask,
                            memory_key_padding_mask=memory_key_padding_mask)
