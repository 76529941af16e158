"""The parallel transformer API (mindspore.nn.transformer): layers against NumPy, a small encoder learns."""
import numpy as np
import pytest

import sporax
from sporax import Tensor, nn
import sporax.nn.parallel_transformer as T


def _softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def test_attention_mask_is_causal_and_padded():
    pad = np.array([[1, 1, 1, 0], [1, 1, 0, 0]], np.int32)
    mask = T.AttentionMask(4)(Tensor(pad)).asnumpy()
    expected = pad[:, :, None] * pad[:, None, :] * np.tril(np.ones((4, 4)))
    np.testing.assert_array_equal(mask, expected)
    with pytest.raises(ValueError, match="AttentionMask"):
        T.AttentionMask(5)(Tensor(pad))


def test_cross_entropy_loss_averages_over_the_mask():
    rng = np.random.default_rng(0)
    logits = rng.normal(size=(6, 5)).astype(np.float32)
    label = rng.integers(0, 5, 6).astype(np.int32)
    mask = np.array([1, 1, 0, 1, 0, 1], np.float32)
    loss = T.CrossEntropyLoss(T.TransformerOpParallelConfig().dp_mp_config)(Tensor(logits), Tensor(label),
                                                                            Tensor(mask))
    ce = -np.log(_softmax(logits.astype(np.float64))[np.arange(6), label])
    np.testing.assert_allclose(loss.asnumpy(), (ce * mask).sum() / (mask.sum() + 1e-5), rtol=1e-5)


def test_multi_head_attention_matches_numpy():
    rng = np.random.default_rng(1)
    batch, seq, hidden, heads = 2, 3, 8, 2
    attention = T.MultiHeadAttention(batch, seq, seq, hidden, heads, hidden_dropout_rate=0.0,
                                     attention_dropout_rate=0.0, compute_dtype=sporax.float32)
    x = rng.normal(size=(batch, seq, hidden)).astype(np.float32)
    mask = np.tril(np.ones((seq, seq), np.float32))[None].repeat(batch, 0)
    out, (key, value) = attention(Tensor(x), Tensor(x), Tensor(x), Tensor(mask))
    w = {name: p.asnumpy().astype(np.float64) for name, p in attention.parameters_and_names()}

    def heads_of(y):
        return y.reshape(batch, seq, heads, hidden // heads).transpose(0, 2, 1, 3)
    q = heads_of(x @ w["dense1.weight"].T + w["dense1.bias"])
    k = heads_of(x @ w["dense2.weight"].T + w["dense2.bias"])
    v = heads_of(x @ w["dense3.weight"].T + w["dense3.bias"])
    score = q @ k.transpose(0, 1, 3, 2) / np.sqrt(hidden // heads) + (1 - mask[:, None]) * -10000.0
    merged = (_softmax(score) @ v).transpose(0, 2, 1, 3).reshape(batch, seq, hidden)
    expected = merged @ w["projection.weight"] + w["projection.bias"]
    np.testing.assert_allclose(out.asnumpy(), expected, rtol=1e-4, atol=1e-5)
    assert key.shape == (batch, heads, hidden // heads, seq) and value.shape == (batch, heads, seq, hidden // heads)


def test_parameter_names_and_shapes_follow_mindspore():
    layer = T.TransformerEncoderLayer(batch_size=2, hidden_size=8, ffn_hidden_size=32, num_heads=2, seq_length=4)
    shapes = {p.name: p.shape for p in layer.get_parameters()}
    assert shapes["output.mapping.weight"] == (8, 32) and shapes["output.projection.weight"] == (32, 8)
    assert shapes["attention.dense1.weight"] == (8, 8) and shapes["layernorm1.gamma"] == (8,)


def test_configs_validate():
    config = T.TransformerOpParallelConfig(data_parallel=2, model_parallel=1, recompute=True)
    assert config.dp_mp_config.data_parallel == 2 and config.recompute.recompute
    with pytest.raises(ValueError, match="data_parallel"):
        T.OpParallelConfig(data_parallel=0)
    with pytest.raises(NotImplementedError, match="mixture of experts"):
        T.TransformerEncoderLayer(2, 8, 16, 2, 4, moe_config=T.MoEConfig(expert_num=2))
    with pytest.raises(ValueError, match="model_parallel"):
        T.FeedForward(8, 30, 0.0, parallel_config=T.OpParallelConfig(model_parallel=4))


class TinyLM(nn.Cell):
    def __init__(self, vocab=11, hidden=16, seq=6):
        super().__init__()
        self.embedding = T.VocabEmbedding(vocab, hidden, param_init="normal")
        self.mask = T.AttentionMask(seq)
        self.encoder = T.TransformerEncoder(batch_size=4, num_layers=1, hidden_size=hidden, ffn_hidden_size=32,
                                            seq_length=seq, num_heads=2, hidden_dropout_rate=0.0,
                                            attention_dropout_rate=0.0)
        self.norm = T._LayerNorm((hidden,))
        self.loss = T.CrossEntropyLoss()

    def construct(self, tokens, labels, pad):
        states, table = self.embedding(tokens)
        states, _ = self.encoder(states, self.mask(pad))
        states = self.norm(sporax.ops.cast(states, sporax.float32))
        logits = sporax.ops.matmul(states.reshape(-1, states.shape[-1]), table.T)
        return self.loss(logits, labels.reshape(-1), pad.reshape(-1))


@pytest.mark.parametrize("mode", [sporax.PYNATIVE_MODE, sporax.GRAPH_MODE])
def test_tiny_language_model_learns(mode):
    sporax.set_context(mode=mode)
    try:
        sporax.set_seed(0)
        net = TinyLM()
        step = nn.TrainOneStepCell(net, nn.Adam(net.trainable_params(), 0.01))
        rng = np.random.default_rng(0)
        tokens = rng.integers(0, 11, (4, 6)).astype(np.int32)
        labels = np.roll(tokens, -1, axis=1)
        pad = np.ones((4, 6), np.float32)
        losses = [float(step(Tensor(tokens), Tensor(labels), Tensor(pad)).asnumpy()) for _ in range(15)]
        assert losses[-1] < 0.7 * losses[0]
    finally:
        sporax.set_context(mode=sporax.PYNATIVE_MODE)


def test_clip_by_norm_matches_mindspore():
    # Values recorded from MindSpore 2.10's nn.ClipByNorm.
    x = np.arange(-3, 3, dtype=np.float32).reshape(2, 3)
    np.testing.assert_allclose(nn.ClipByNorm()(Tensor(x), Tensor(np.float32(1.0))).asnumpy(),
                               [[-0.6882472, -0.45883146, -0.22941573], [0.0, 0.22941573, 0.45883146]], rtol=1e-6)
    np.testing.assert_allclose(nn.ClipByNorm(axis=1)(Tensor(x), Tensor(np.float32(2.5))).asnumpy(),
                               [[-2.0044591, -1.3363062, -0.6681531], [0.0, 1.0, 2.0]], rtol=1e-6)
    np.testing.assert_array_equal(nn.ClipByNorm()(Tensor(x), Tensor(np.float32(100.0))).asnumpy(), x)
    assert nn.ClipByNorm()(Tensor(x.astype(np.float16)), 1.0).dtype == sporax.float32
