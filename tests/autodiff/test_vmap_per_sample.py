"""Per-sample gradients: ``ms.vmap`` over ``ms.grad`` (of a function and of a Cell's weights), eager and
under ``ms.jit``, against the closed-form NumPy gradient (issue 7, item 5)."""
import numpy as np

import sporax as ms
from sporax import Tensor, nn, ops

RNG = np.random.default_rng(0)
X = RNG.normal(size=(5, 3)).astype(np.float32)
Y = RNG.normal(size=(5,)).astype(np.float32)
W = np.array([0.5, -1.0, 2.0], np.float32)


def loss(w, xi, yi):
    return (ops.tanh((w * xi).sum()) - yi) ** 2


# ops.tanh is MindSpore CPU's approximation (up to ~1e-4 from np.tanh near +-5): atol 1e-4 against np.tanh
def reference_per_sample():
    activation = np.tanh(X @ W)
    return (2 * (activation - Y) * (1 - activation ** 2))[:, None] * X


def test_vmap_over_grad_gives_per_sample_gradients():
    per_sample = ms.vmap(ms.grad(loss), in_axes=(None, 0, 0))(Tensor(W), Tensor(X), Tensor(Y))
    assert isinstance(per_sample, Tensor) and per_sample.shape == (5, 3)
    np.testing.assert_allclose(per_sample.asnumpy(), reference_per_sample(), rtol=1e-5, atol=1e-4)


def test_vmap_over_grad_inside_jit():
    per_sample_grad = ms.vmap(ms.grad(loss), in_axes=(None, 0, 0))
    compiled = ms.jit(lambda w, x, y: per_sample_grad(w, x, y))
    np.testing.assert_allclose(compiled(Tensor(W), Tensor(X), Tensor(Y)).asnumpy(), reference_per_sample(),
                               rtol=1e-5, atol=1e-4)


def test_vmap_over_weight_grad_of_a_cell():
    net = nn.Dense(3, 1)

    def cell_loss(xi, yi):
        return (net(xi.reshape(1, 3)).reshape(()) - yi) ** 2

    weight_grad = ms.grad(cell_loss, grad_position=None, weights=net.trainable_params())
    per_sample = ms.vmap(weight_grad, in_axes=(0, 0))(Tensor(X), Tensor(Y))
    assert [tuple(g.shape) for g in per_sample] == [(5, 1, 3), (5, 1)]
    weight, bias = (p.asnumpy() for p in net.trainable_params())
    residual = 2 * (X @ weight[0] + bias[0] - Y)
    np.testing.assert_allclose(per_sample[0].asnumpy()[:, 0], residual[:, None] * X, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(per_sample[1].asnumpy()[:, 0], residual, rtol=1e-5, atol=1e-5)
