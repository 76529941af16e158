"""MultiheadAttention and the Transformer layers vs MindSpore 2.10 (eval mode); names; gradients."""
import numpy as np
import pytest

from sporax import nn
from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor
from tests.nn.helpers import FIXTURES, check_gradient

ORACLE = np.load(f"{FIXTURES}/nn/oracle_attention.npz")


def fill(prefix, cell):
    for parameter in cell.get_parameters():
        parameter.set_data(Tensor(ORACLE[f"{prefix}/{parameter.name}"]))
    return cell


def close(actual, key):
    np.testing.assert_allclose(actual.asnumpy(), ORACLE[key], rtol=1e-5, atol=2e-6)


def test_multihead_attention_matches_mindspore():
    attention = fill("mha", nn.MultiheadAttention(8, 2))
    q, k, v = (Tensor(ORACLE[f"mha/{n}"]) for n in "qkv")
    output, weights = attention(q, k, v, key_padding_mask=Tensor(ORACLE["mha/key_padding_mask"]),
                                attn_mask=Tensor(ORACLE["mha/attn_mask"]))
    close(output, "mha/out")
    close(weights, "mha/weights")
    output, weights = attention(q, k, v, average_attn_weights=False)
    close(output, "mha/out_nomask")
    close(weights, "mha/weights_heads")
    close(attention(q, k, v, attn_mask=Tensor(ORACLE["mha/float_mask"]))[0], "mha/out_float_mask")
    only = attention(q, k, v, need_weights=False)
    assert isinstance(only, tuple) and len(only) == 1
    unbatched, weights = attention(Tensor(ORACLE["mha/q"][:, 0]), Tensor(ORACLE["mha/k"][:, 0]),
                                   Tensor(ORACLE["mha/v"][:, 0]))
    np.testing.assert_allclose(unbatched.asnumpy(), ORACLE["mha/out_nomask"][:, 0], rtol=1e-5, atol=2e-6)
    assert weights.shape == (3, 5)


def test_multihead_attention_kdim_vdim_bias_kv_batch_first():
    attention = fill("mha_kv", nn.MultiheadAttention(8, 2, kdim=4, vdim=6, add_bias_kv=True, batch_first=True))
    assert [p.name for p in attention.get_parameters()] == [
        "q_proj_weight", "k_proj_weight", "v_proj_weight", "in_proj_bias", "bias_k", "bias_v", "out_proj.weight",
        "out_proj.bias"]
    output, weights = attention(*(Tensor(ORACLE[f"mha_kv/{n}"]) for n in "qkv"))
    close(output, "mha_kv/out")
    close(weights, "mha_kv/weights")


@pytest.mark.parametrize("norm_first", [False, True])
def test_encoder_layer_matches_mindspore(norm_first):
    layer = nn.TransformerEncoderLayer(8, 2, 16, activation="gelu" if norm_first else "relu", norm_first=norm_first)
    fill(f"enc{int(norm_first)}", layer.set_train(False))
    close(layer(Tensor(ORACLE["tf/src"]), src_mask=Tensor(ORACLE["tf/src_mask"])), f"enc{int(norm_first)}/out")


def test_decoder_layer_matches_mindspore():
    layer = fill("dec", nn.TransformerDecoderLayer(8, 2, 16).set_train(False))
    close(layer(Tensor(ORACLE["tf/tgt"]), Tensor(ORACLE["tf/src"]), tgt_mask=Tensor(ORACLE["tf/tgt_mask"])),
          "dec/out")


def test_names_reprs_and_stacks():
    layer = nn.TransformerEncoderLayer(8, 2, 16)
    assert [n for n, _ in layer.parameters_and_names()] == [
        "self_attn.in_proj_weight", "self_attn.in_proj_bias", "self_attn.out_proj.weight", "self_attn.out_proj.bias",
        "dense1.weight", "dense1.bias", "dense2.weight", "dense2.bias", "norm1.gamma", "norm1.beta", "norm2.gamma",
        "norm2.beta"]
    assert "(activation)" not in repr(layer) and repr(layer).startswith(
        "TransformerEncoderLayer(\n  (self_attn): MultiheadAttention(\n    (out_proj): Dense(")
    encoder = nn.TransformerEncoder(layer, 2, nn.LayerNorm((8,)))
    names = [p.name for p in encoder.get_parameters()]
    assert names[0] == "layers.0.self_attn.in_proj_weight" and names[12] == "layers.1.self_attn.in_proj_weight"
    assert names[-2:] == ["norm.gamma", "norm.beta"]
    assert encoder.layers[0].self_attn.in_proj_weight is not encoder.layers[1].self_attn.in_proj_weight
    model = nn.Transformer(8, 2, 1, 1, 16)
    assert len(list(model.get_parameters())) == 34
    assert [p.name for p in model.get_parameters()][-2:] == ["decoder.norm.gamma", "decoder.norm.beta"]
    src, tgt = Tensor(ORACLE["tf/src"]), Tensor(ORACLE["tf/tgt"])
    assert model.set_train(False)(src, tgt).shape == (3, 2, 8)
    with pytest.raises(ValueError, match="divisible"):
        nn.MultiheadAttention(6, 4)


def test_attention_gradient_matches_finite_differences():
    attention = nn.MultiheadAttention(4, 2, dtype=mstype.float64)

    class SelfAttention(nn.Cell):
        def __init__(self):
            super().__init__()
            self.attention = attention

        def construct(self, x):
            return self.attention(x, x, x)[0]

    x = np.random.default_rng(9).standard_normal((3, 2, 4))
    check_gradient(SelfAttention(), x, [attention.in_proj_weight, attention.out_proj.weight])


def test_packed_batch_major_self_attention_equals_general_path():
    # Self-attention (one Tensor as query, key and value) with batch_first takes one packed
    # projection in batch-major layout; it must equal three projections in time-major layout.
    import sporax as ms

    attention = nn.MultiheadAttention(8, 2, batch_first=True)
    general = nn.MultiheadAttention(8, 2, batch_first=False)
    for mine, other in zip(attention.get_parameters(), general.get_parameters()):
        other.set_data(Tensor(mine.asnumpy()))
    x = np.random.default_rng(4).standard_normal((3, 5, 8)).astype(np.float32)
    mask = Tensor(np.triu(np.ones((5, 5), np.bool_), 1))

    def packed_loss(data):
        return (attention(data, data, data, attn_mask=mask)[0] ** 2).sum()

    def general_loss(data):
        time_major = data.swapaxes(0, 1)
        copies = [time_major + 0 for _ in range(3)]  # three distinct Tensors: the unpacked path
        return (general(*copies, attn_mask=mask)[0] ** 2).sum()

    packed_value, packed_grads = ms.value_and_grad(packed_loss, 0, attention.trainable_params())(Tensor(x))
    general_value, general_grads = ms.value_and_grad(general_loss, 0, general.trainable_params())(Tensor(x))
    np.testing.assert_allclose(packed_value.asnumpy(), general_value.asnumpy(), rtol=1e-5)
    np.testing.assert_allclose(packed_grads[0].asnumpy(), general_grads[0].asnumpy(), rtol=1e-4, atol=1e-5)
    for mine, other in zip(packed_grads[1], general_grads[1]):
        np.testing.assert_allclose(mine.asnumpy(), other.asnumpy(), rtol=1e-4, atol=1e-5)


def test_initial_parameters_follow_mindspores_draws():
    # MindSpore 2.10, set_seed(11): out_proj keeps Dense's uniform bias (only in_proj_bias starts at 0); the
    # sums of a layer's initial parameters, recorded
    import sporax

    sporax.set_seed(11)
    attention = nn.MultiheadAttention(16, 2)
    sums = {name: float(p.asnumpy().astype(np.float64).sum()) for name, p in attention.parameters_and_names()}
    np.testing.assert_allclose([sums["in_proj_weight"], sums["in_proj_bias"], sums["out_proj.weight"],
                                sums["out_proj.bias"]], [-2.4783, 0.0, 3.34186, 1.15565], atol=1e-4)
    sporax.set_seed(11)
    layer = nn.TransformerEncoderLayer(16, 2, dim_feedforward=32, dropout=0.0, batch_first=True)
    sums = {name: float(p.asnumpy().astype(np.float64).sum()) for name, p in layer.parameters_and_names()}
    np.testing.assert_allclose([sums["dense1.weight"], sums["dense2.bias"]], [-0.74055, -0.49621], atol=1e-4)


def test_stacks_hold_fresh_draws_and_transformer_redraws_matrices():
    # MindSpore 2.10, set_seed(11): TransformerEncoder/Decoder copies hold the parameters a layer built next would
    # draw (all copies alike, the given layer unchanged); nn.Transformer draws every matrix again (XavierUniform)
    import sporax

    def total(parameter):
        return float(parameter.asnumpy().astype(np.float64).sum())

    sporax.set_seed(11)
    layer = nn.TransformerEncoderLayer(16, 2, dim_feedforward=32, dropout=0.0, batch_first=True)
    encoder = nn.TransformerEncoder(layer, 2)
    np.testing.assert_allclose([total(encoder.layers[0].self_attn.in_proj_weight),
                                total(layer.self_attn.in_proj_weight), total(encoder.layers[1].dense1.weight),
                                total(layer.dense1.weight)],
                               [-8.67154, -2.4783, 1.7138, -0.74055], atol=1e-4)
    sporax.set_seed(11)
    decoder_layer = nn.TransformerDecoderLayer(16, 2, dim_feedforward=32, dropout=0.0, batch_first=True)
    decoder = nn.TransformerDecoder(decoder_layer, 2)
    after = nn.Dense(4, 4)
    np.testing.assert_allclose([total(decoder.layers[1].multihead_attn.in_proj_weight), total(after.weight)],
                               [6.06933, 0.58244], atol=1e-4)
    sporax.set_seed(11)
    transformer = nn.Transformer(16, 2, 2, 2, 32, 0.0)
    np.testing.assert_allclose([total(p) for p in transformer.trainable_params()[:3]] +
                               [total(transformer.decoder.layers[1].dense2.weight)],
                               [1.89005, 0.0, 3.94419, -1.95178], atol=1e-4)
