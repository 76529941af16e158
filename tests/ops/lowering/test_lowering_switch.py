"""The lowering switch: CPU-only by default, forced plain by context or environment; a network
trains to the same loss and gradients under both lowerings."""
import jax
import numpy as np
import pytest

import sporax
from sporax import nn
from sporax.ops.lowering import fast_lowering, plain_lowering


def test_context_and_environment(monkeypatch):
    monkeypatch.delenv("SPORAX_PLAIN_LOWERING", raising=False)
    assert fast_lowering("pool") == (jax.default_backend() == "cpu")
    with plain_lowering():
        assert not fast_lowering("pool")
        with plain_lowering():
            assert not fast_lowering("pool")
        assert not fast_lowering("pool")
    assert fast_lowering("pool") == (jax.default_backend() == "cpu")
    monkeypatch.setenv("SPORAX_PLAIN_LOWERING", "conv, pool")
    assert not fast_lowering("pool")
    monkeypatch.setenv("SPORAX_PLAIN_LOWERING", "conv")
    assert fast_lowering("pool") == (jax.default_backend() == "cpu")
    monkeypatch.setenv("SPORAX_PLAIN_LOWERING", "1")
    assert not fast_lowering("pool")


class _Nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


@pytest.mark.parametrize("mode", ["PYNATIVE_MODE", "GRAPH_MODE"])
def test_lenet_like_loss_and_gradients_match_plain(mode):
    sporax.set_context(mode=getattr(sporax, mode))
    try:
        results = []
        for plain in (False, True):
            sporax.set_seed(3)
            net = nn.SequentialCell([nn.Conv2d(1, 4, 5, pad_mode="valid"), nn.ReLU(), nn.MaxPool2d(2, 2),
                                     nn.Conv2d(4, 6, 3, pad_mode="same"), nn.ReLU(), nn.MaxPool2d(2, 2),
                                     nn.Flatten(), nn.Dense(6 * 2 * 2, 5)])  # 15 -> 11 -> 5 -> 5 -> 2
            loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
            rng = np.random.default_rng(4)
            x = sporax.Tensor(rng.standard_normal((8, 1, 15, 15)).astype(np.float32))
            y = sporax.Tensor(rng.integers(0, 5, 8).astype(np.int32))
            grad_fn = sporax.value_and_grad(lambda x, y: loss_fn(net(x), y), None, net.trainable_params())
            with plain_lowering() if plain else _Nothing():
                loss, grads = grad_fn(x, y)
            results.append((loss.asnumpy(), [g.asnumpy() for g in grads]))
        (fast_loss, fast_grads), (plain_loss, plain_grads) = results
        np.testing.assert_array_equal(fast_loss, plain_loss)
        for got, expected in zip(fast_grads, plain_grads):
            np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-7)
    finally:
        sporax.set_context(mode=sporax.PYNATIVE_MODE)
