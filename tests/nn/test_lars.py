"""nn.LARS: the trust-ratio-scaled gradient reaches the wrapped optimizer (NumPy reference)."""
import numpy as np
import pytest

import sporax as ms
from sporax import nn, Tensor

W = np.array([[0.1, 0.2, 0.3], [0.4, -0.5, 0.6]], np.float32)
G = np.array([[0.5, -1.0, 2.0], [0.1, 0.2, 0.3]], np.float32)
GB = np.array([0.3, -0.2], np.float32)


def _trust(weight, gradient, decay, coefficient, epsilon=1e-5):
    w, g = np.linalg.norm(weight), np.linalg.norm(gradient)
    return coefficient * w / (g + decay * w + epsilon)


@pytest.mark.parametrize("loss_scale,use_clip", [(1.0, False), (4.0, False), (1.0, True)])
def test_sgd_step_uses_lars_gradient(loss_scale, use_clip):
    net = nn.Dense(3, 2, weight_init=Tensor(W), bias_init="zeros")
    opt = nn.SGD(net.trainable_params(), 0.1, weight_decay=0.01, loss_scale=loss_scale)
    lars = nn.LARS(opt, coefficient=0.02, use_clip=use_clip)
    assert lars.parameters is opt.parameters
    lars((Tensor(G * loss_scale), Tensor(GB * loss_scale)))
    decay = 0.01  # gradients are unscaled first; MindSpore scales the decay by loss_scale to match
    trust = _trust(W, G, decay, 0.02)
    if use_clip:
        trust = min(trust / 0.1, 1.0)
    np.testing.assert_allclose(net.weight.asnumpy(), W - 0.1 * trust * (G + decay * W), rtol=1e-5)
    np.testing.assert_allclose(net.bias.asnumpy(), -0.1 * GB, rtol=1e-5)  # filtered out: plain gradient


def test_momentum_two_steps():
    net = nn.Dense(3, 2, weight_init=Tensor(W), has_bias=False)
    lars = nn.LARS(nn.Momentum(net.trainable_params(), 0.1, 0.9), coefficient=0.5)
    weight, moment = W.copy(), np.zeros_like(W)
    for _ in range(2):
        lars((Tensor(G),))
        moment = 0.9 * moment + _trust(weight, G, 0.0, 0.5) * G
        weight = weight - 0.1 * moment
    np.testing.assert_allclose(net.weight.asnumpy(), weight, rtol=1e-5)


def test_errors():
    net = nn.Dense(3, 2)
    with pytest.raises(TypeError, match="optimizer"):
        nn.LARS(net)
    with pytest.raises(TypeError, match="coefficient"):
        nn.LARS(nn.SGD(net.trainable_params()), coefficient=1)
