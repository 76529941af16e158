"""The THOR layers: outputs, gradients and their A/G statistics against MindSpore 2.10 (DenseThor,
EmbeddingThor; tests/fixtures/nn/thor_layers_mindspore.json) and NumPy (Conv2dThor, EmbeddingLookupThor,
which MindSpore's CPU build cannot run)."""
import json
import os

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn
from sporax.core import context

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "..", "fixtures", "nn", "thor_layers_mindspore.json")


def _recorded():
    with open(FIXTURE) as handle:
        return json.load(handle)


@pytest.mark.parametrize("mode", [context.PYNATIVE_MODE, context.GRAPH_MODE])
def test_dense_thor_matches_mindspore(mode):
    data = _recorded()["dense"]
    previous = context.get_context("mode")
    context.set_context(mode=mode)
    try:
        net = nn.DenseThor(3, 2, weight_init=Tensor(np.array(data["w"], np.float32)),
                           bias_init=Tensor(np.array(data["b"], np.float32)), activation="tanh")
        x = Tensor(np.array(data["x"], np.float32))
        grads = ms.grad(lambda t: (net(t) ** 2).sum(), None, net.trainable_params())(x)
        out = net(x)
    finally:
        context.set_context(mode=previous)
    np.testing.assert_allclose(out.asnumpy(), data["out"], rtol=1e-3, atol=1e-4)
    for grad, expected in zip(grads, data["grads"]):
        np.testing.assert_allclose(grad.asnumpy(), expected, rtol=1e-3, atol=1e-3)
    # A = x^T x / in_channels (MindSpore's GPU/CPU normaliser); G = dy^T dy / N.
    np.testing.assert_allclose(net.matrix_a.asnumpy(), data["a"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(net.matrix_g.asnumpy(), data["g"], rtol=1e-4, atol=1e-5)
    assert [p.name for p in net.trainable_params()] == ["weight", "bias"]


def test_embedding_thor_matches_mindspore():
    data = _recorded()["emb"]
    emb = nn.EmbeddingThor(5, 3, embedding_table=Tensor(np.array(data["table"], np.float32)))
    grads = ms.grad(lambda t: (emb(t) ** 2).sum(), None, emb.trainable_params())(Tensor(np.array(data["ids"], np.int32)))
    np.testing.assert_allclose(grads[0].asnumpy(), data["grads"][0], rtol=1e-5)
    np.testing.assert_array_equal(emb.matrix_a.asnumpy(), data["a"])
    np.testing.assert_allclose(emb.matrix_g.asnumpy(), data["g"], rtol=1e-5)


def test_conv2d_thor_statistics_match_numpy():
    rng = np.random.RandomState(1)
    x = rng.randn(2, 2, 4, 5).astype(np.float32)
    net = nn.Conv2dThor(2, 3, 2, stride=2, has_bias=True, weight_init=Tensor(rng.randn(3, 2, 2, 2).astype(np.float32)))
    plain = nn.Conv2d(2, 3, 2, stride=2, has_bias=True, weight_init=net.weight, bias_init=net.bias)
    grads = ms.grad(lambda t: (net(t) ** 2).sum(), 0)(Tensor(x))
    plain_grads = ms.grad(lambda t: (plain(t) ** 2).sum(), 0)(Tensor(x))
    np.testing.assert_allclose(grads.asnumpy(), plain_grads.asnumpy(), rtol=1e-5)
    # A: 'same'-padded 2x2 patches at stride 2, channel-major, batch-averaged, P P^T / positions.
    out_h, out_w = 2, 3
    padded = np.pad(x, ((0, 0), (0, 0), (0, 0), (0, 1)))
    patches = np.zeros((2, 8, out_h * out_w))
    for i in range(out_h):
        for j in range(out_w):
            patches[:, :, i * out_w + j] = padded[:, :, 2 * i:2 * i + 2, 2 * j:2 * j + 2].reshape(2, 8)
    mean = patches.mean(0)
    np.testing.assert_allclose(net.matrix_a_cov.asnumpy(), mean @ mean.T / 6, rtol=1e-4, atol=1e-6)
    assert float(net.a_normalizer.asnumpy()[0]) == 6.0
    # G: the output gradient 2 * y, batch-averaged, D D^T / positions.
    dy = (2 * net(Tensor(x)).asnumpy()).mean(0).reshape(3, -1)
    np.testing.assert_allclose(net.matrix_g_cov.asnumpy(), dy @ dy.T / dy.shape[1], rtol=1e-4)
    assert float(net.g_normalizer.asnumpy()[0]) == 6.0


def test_embedding_lookup_thor_device_statistics_and_cpu_target():
    rng = np.random.RandomState(2)
    table = rng.randn(5, 3).astype(np.float32)
    ids = np.array([[1, 2, 1], [4, 0, 1]], np.int32)
    lookup = nn.EmbeddingLookupThor(5, 3, param_init=Tensor(table), target="DEVICE", max_norm=1.0)
    grads = ms.grad(lambda t: (lookup(t) ** 2).sum(), None, lookup.trainable_params())(Tensor(ids))
    rows = table[ids]
    norms = np.linalg.norm(rows, axis=-1, keepdims=True)
    clipped = rows / np.maximum(norms, 1.0)
    np.testing.assert_allclose(lookup(Tensor(ids)).asnumpy(), clipped, rtol=1e-5)
    np.testing.assert_array_equal(lookup.matrix_a.asnumpy(), [1, 3, 1, 0, 1])
    # G is taken from the gradient of the rows before clipping.
    scale = 1.0 / np.maximum(norms, 1.0)
    flat = (2 * clipped * scale).reshape(-1, 3)
    inner = (2 * clipped * rows).sum(-1, keepdims=True) * np.where(norms > 1.0, -scale / norms ** 2, 0.0)
    flat = flat + (inner * rows).reshape(-1, 3)
    np.testing.assert_allclose(lookup.matrix_g.asnumpy(), flat.T @ flat / 2, rtol=2e-3, atol=1e-3)
    assert grads[0].shape == (5, 3)
    cpu = nn.EmbeddingLookupThor(5, 3, param_init=Tensor(table))
    ms.grad(lambda t: cpu(t).sum(), None, cpu.trainable_params())(Tensor(ids))
    assert not cpu.matrix_a.asnumpy().any() and not cpu.matrix_g.asnumpy().any()
