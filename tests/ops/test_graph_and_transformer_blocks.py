"""linearize, switch_layer, control-flow and callback Primitives, row tensors, and the large-model blocks."""
import numpy as np
import pytest

from sporax import Tensor, float32, jit, ops
from sporax.core.sparse import COOTensor

rng = np.random.default_rng(0)


def t(a, dtype=None):
    return Tensor(np.asarray(a, dtype))


def close(result, expected, rtol=1e-5, atol=1e-5):
    np.testing.assert_allclose(result.asnumpy() if hasattr(result, "asnumpy") else result, expected, rtol=rtol,
                               atol=atol)


def test_linearize_is_the_jacobian_vector_product():
    x, y = t([1.0, 2.0], np.float32), t([3.0, 4.0], np.float32)
    output, jvp_fn = ops.linearize(lambda a, b: a * b * b, (x, y))
    close(output, [9.0, 32.0])
    close(jvp_fn((t([1.0, 0.0], np.float32), t([0.0, 1.0], np.float32))), [9.0, 16.0])  # oracle
    output, jvp_fn = ops.linearize(lambda a: a * a, x)
    close(jvp_fn(t([1.0, 1.0], np.float32)), [2.0, 4.0])
    with pytest.raises(ValueError, match="linearize"):
        ops.linearize(lambda a, b: a * b, (x, y))[1]((x,))


def test_switch_layer_and_loops_eager_and_compiled():
    branches = (lambda a: a + 1, lambda a: a * 10)
    x = t([1.0, 2.0], np.float32)
    close(ops.switch_layer(t(1, np.int32), branches)(x), [10.0, 20.0])
    close(jit(lambda i, a: ops.switch_layer(i, branches)(a))(t(0, np.int32), x), [2.0, 3.0])
    with pytest.raises(IndexError, match="switch_layer"):
        ops.switch_layer(2, branches)
    loop = ops.WhileLoop()
    assert loop(lambda v: v < 10, lambda v: v * 2, t(1)).asnumpy() == 16
    assert jit(lambda v: loop(lambda w: w < 10, lambda w: w * 2, v))(t(3)).asnumpy() == 12
    carry, ys = ops.Scan()(lambda c, item: (c + item, c * item), t(0.0, np.float32), t([1.0, 2.0, 3.0], np.float32))
    close(carry, 6.0)
    close(ys, [0.0, 2.0, 9.0])
    with pytest.raises(ValueError, match="Scan"):
        ops.Scan()(lambda c, item: (c, c), t(0.0), None)


def test_python_callbacks():
    doubler = ops.PyFunc(lambda a: a * 2, [float32], [(2,)], [float32], [(2,)])
    x = t([1.0, 2.0], np.float32)
    close(doubler(x)[0], [2.0, 4.0])
    close(jit(lambda a: doubler(a)[0] + 1)(x), [3.0, 5.0])
    close(ops.Morph(lambda a: a + 1, lambda s: s, lambda d: d)(x), [2.0, 3.0])
    with pytest.raises(TypeError, match="bprop_fn"):
        ops.Morph(lambda a: a, None, None, bprop_fn=3)


@pytest.mark.parametrize("mode", ["PYNATIVE", "GRAPH"])
def test_morph_bprop_fn_gives_the_gradients_mindspore_gives(mode):
    import sporax as ms
    from sporax import nn

    def bprop(x, y, out, dout):
        return dout * 10.0, dout * 20.0

    morph = ops.Morph(lambda x, y: x * y + 1.0, lambda a, b: a, lambda a, b: a, bprop_fn=bprop)

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.morph = morph

        def construct(self, x, y):
            return self.morph(x, y).sum()

    x, y = t([1.0, 2.0], np.float32), t([3.0, 4.0], np.float32)
    previous = ms.get_context("mode")
    ms.set_context(mode=getattr(ms, f"{mode}_MODE"))
    try:
        # MindSpore 2.10 (GRAPH_MODE): value 13, gradients [10, 10] and [20, 20] from the bprop, not x*y's own.
        assert float(Net()(x, y).asnumpy()) == 13.0
        grad_x, grad_y = ms.grad(Net(), grad_position=(0, 1))(x, y)
    finally:
        ms.set_context(mode=previous)
    close(grad_x, [10.0, 10.0])
    close(grad_y, [20.0, 20.0])


def test_sparse_builders_and_getters():
    row = ops.make_row_tensor_inner(t([1]), t(np.ones((1, 2)), np.float32), (3, 2))
    assert ops.row_tensor_get_indices(row).asnumpy().tolist() == [1]
    assert ops.row_tensor_get_values(row).shape == (1, 2)
    assert ops.row_tensor_get_dense_shape(row) == (3, 2)
    coo = ops.make_sparse_tensor(t([[0, 1]]), t([5.0], np.float32), (2, 2))
    assert isinstance(coo, COOTensor) and coo.to_dense().asnumpy().tolist() == [[0, 5], [0, 0]]
    with pytest.raises(TypeError, match="row_tensor_get_values"):
        ops.row_tensor_get_values(t([1.0]))


def test_moe_permute_round_trip():
    tokens = rng.standard_normal((4, 3)).astype(np.float32)
    experts = np.array([[0, 2], [1, 0], [2, 1], [1, 2]], np.int32)
    permuted, order = ops.moe_token_permute(t(tokens), t(experts))
    expected_order = np.argsort(experts.reshape(-1), kind="stable")
    assert order.asnumpy().tolist() == expected_order.tolist()
    close(permuted, tokens[expected_order // 2])
    probs = rng.random((4, 2)).astype(np.float32)
    close(ops.moe_token_unpermute(permuted, order, t(probs)), tokens * probs.sum(1, keepdims=True))
    close(ops.moe_token_unpermute(permuted, order, t(np.ones((4, 2), np.float32))), tokens * 2)


def test_ring_attention_update_equals_attention_over_both_blocks():
    seq, batch, heads, dim, keys = 3, 1, 2, 4, 5
    q = rng.standard_normal((batch, heads, seq, dim))
    k = rng.standard_normal((batch, heads, 2 * keys, dim))
    v = rng.standard_normal((batch, heads, 2 * keys, dim))

    def partial(block):
        scores = q @ k[:, :, block].transpose(0, 1, 3, 2)
        top = scores.max(-1, keepdims=True)
        weights = np.exp(scores - top)
        out = (weights / weights.sum(-1, keepdims=True)) @ v[:, :, block]
        sbh = out.transpose(2, 0, 1, 3).reshape(seq, batch, heads * dim)
        stats = [np.repeat(s, 8, -1).astype(np.float32) for s in (top, weights.sum(-1, keepdims=True))]
        return [sbh.astype(np.float32)] + stats

    first, second = partial(slice(0, keys)), partial(slice(keys, 2 * keys))
    merged = ops.ring_attention_update(*(t(a) for a in first), *(t(a) for a in second))
    full = partial(slice(0, 2 * keys))
    close(merged[0], full[0], rtol=1e-4, atol=1e-5)
    close(merged[1], full[1], rtol=1e-5)
    close(merged[2], full[2], rtol=1e-4)


def test_iteration_helpers_quantile_move_and_reshard():
    from sporax.parallel.layout import Layout

    assert ops.ms_next((1, 2, 3)) == (1, (2, 3)) and ops.ms_hasnext([]) is False
    head, rest = ops.ms_next(t([[1.0], [2.0]], np.float32))
    assert head.asnumpy().tolist() == [1.0] and rest.shape == (1, 1)
    with pytest.raises(ValueError, match="ms_next"):
        ops.ms_next(())
    x = rng.standard_normal((2, 5)).astype(np.float32)
    q = t([0.25, 0.5], np.float32)
    close(ops.Quantile(dim=1, keep_dims=True)(t(x), q), np.quantile(x, [0.25, 0.5], axis=1, keepdims=True))
    x[0, 1] = np.nan
    close(ops.Quantile(dim=1, ignore_nan=True)(t(x), q), np.nanquantile(x, [0.25, 0.5], axis=1))
    close(ops.MoveTo()(t(x), "CPU"), x)
    layout = Layout((1, 1), ("dp", "mp"))("dp", "mp")
    close(ops.reshard(t(x), layout), x)
    close(ops.Reshard(layout, layout, None)(t(x)), x)
    with pytest.raises(TypeError, match="reshard"):
        ops.reshard(t(x), ("dp", "mp"))


def test_multi_scale_deformable_attention_samples_bilinearly():
    batch, heads, channels = 1, 2, 3
    value = rng.standard_normal((batch, 2 * 3 + 1, heads, channels)).astype(np.float32)  # levels 2x3 and 1x1
    shape, offset = t([[2, 3], [1, 1]]), t([0, 6])
    locations = np.zeros((batch, 2, heads, 2, 2, 2), np.float32)
    weights = rng.random((batch, 2, heads, 2, 2)).astype(np.float32)
    locations[:, 0, :, 0, 0] = [(2 + 0.5) / 3, (1 + 0.5) / 2]   # centre of pixel (row 1, column 2)
    locations[:, 0, :, 0, 1] = [1.0 / 3, 0.25]                  # between columns 0 and 1 of row 0
    locations[:, 1, :, 0, 0] = [1.0, 0.25]                      # half outside the right edge of row 0
    locations[:, 1, :, 0, 1] = [-1.0, -1.0]                     # outside: zero
    locations[:, :, :, 1] = 0.5                                 # the 1x1 level's only pixel
    out = ops.multi_scale_deformable_attn_function(t(value), shape, offset, t(locations), t(weights))
    level0 = value[0, :6].reshape(2, 3, heads, channels)
    w = weights[0][..., None]
    first = w[0, :, 0, 0] * level0[1, 2] + w[0, :, 0, 1] * (level0[0, 0] + level0[0, 1]) / 2
    second = w[1, :, 0, 0] * level0[0, 2] / 2
    expected = np.stack([first, second]) + (w[:, :, 1, 0] + w[:, :, 1, 1]) * value[0, 6]
    close(out, expected.reshape(1, 2, heads * channels), rtol=1e-5, atol=1e-6)


def test_prompt_flash_attention_refuses_compressed_masks():
    # layouts, masks, grouped heads and lengths: the op table (attention_samples.py)
    q = rng.standard_normal((2, 4, 3, 2)).astype(np.float32)
    k = rng.standard_normal((2, 2, 3, 2)).astype(np.float32)
    heads, v = 4, k
    with pytest.raises(NotImplementedError, match="sparse_mode"):
        ops.prompt_flash_attention(t(q), t(k), t(v), num_heads=heads, input_layout="BNSD", sparse_mode=3)
