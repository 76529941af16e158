"""The layers give the same results in GRAPH_MODE (compiled construct) as in PYNATIVE_MODE."""
import numpy as np
import pytest

from sporax import nn
from sporax.core import context
from sporax.core.tensor import Tensor

RNG = np.random.default_rng(11)


def tensor(*shape):
    return Tensor(RNG.standard_normal(shape).astype(np.float32))


CASES = {
    "dense": (lambda: nn.Dense(3, 4, activation="relu"), lambda: (tensor(2, 3),)),
    "conv": (lambda: nn.Conv2d(2, 3, 3, stride=2, has_bias=True), lambda: (tensor(1, 2, 6, 6),)),
    "conv_transpose": (lambda: nn.Conv2dTranspose(2, 3, 3, stride=2), lambda: (tensor(1, 2, 4, 4),)),
    "pools": (lambda: nn.SequentialCell(nn.MaxPool2d(3, 2, pad_mode="same"),
                                        nn.AvgPool2d(2, 1, pad_mode="pad", padding=1), nn.AdaptiveAvgPool2d(2)),
              lambda: (tensor(1, 2, 7, 7),)),
    "norms": (lambda: nn.SequentialCell(nn.LayerNorm((5,)), nn.GroupNorm(2, 4)), lambda: (tensor(2, 4, 5),)),
    "lstm": (lambda: nn.LSTM(3, 4, bidirectional=True),
             lambda: (tensor(5, 2, 3), None, Tensor(np.array([5, 3], np.int32)))),
    "attention": (lambda: nn.MultiheadAttention(4, 2), lambda: (tensor(3, 2, 4),) * 3),
}


def _flatten(value):
    if isinstance(value, (tuple, list)):
        return [item for part in value for item in _flatten(part)]
    return [value.asnumpy()]


@pytest.fixture
def graph_mode():
    context.set_context(mode=context.GRAPH_MODE)
    yield
    context.set_context(mode=context.PYNATIVE_MODE)


@pytest.mark.parametrize("name", sorted(CASES))
def test_graph_mode_matches_pynative(name, graph_mode):
    make, inputs = CASES[name]
    layer, args = make(), inputs()
    context.set_context(mode=context.PYNATIVE_MODE)
    eager = _flatten(layer(*args))
    context.set_context(mode=context.GRAPH_MODE)
    for _ in range(2):  # the second call reuses the compiled program
        for actual, expected in zip(_flatten(layer(*args)), eager):
            np.testing.assert_allclose(actual, expected, rtol=1e-5, atol=1e-6)


def test_batch_norm_moving_statistics_update_in_graph_mode(graph_mode):
    x = tensor(4, 3, 2, 2)
    eager, compiled = nn.BatchNorm2d(3).set_train(), nn.BatchNorm2d(3).set_train()
    context.set_context(mode=context.PYNATIVE_MODE)
    expected = [eager(x).asnumpy() for _ in range(2)]
    context.set_context(mode=context.GRAPH_MODE)
    actual = [compiled(x).asnumpy() for _ in range(2)]
    np.testing.assert_allclose(actual, expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(compiled.moving_mean.asnumpy(), eager.moving_mean.asnumpy(), rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(compiled.moving_variance.asnumpy(), eager.moving_variance.asnumpy(), rtol=1e-6)
    compiled.set_train(False)
    np.testing.assert_allclose(compiled(x).asnumpy(), eager.set_train(False)(x).asnumpy(), rtol=1e-5, atol=1e-6)
