"""sporax.numpy is differentiable (gradients against finite differences) and runs in both modes."""
import numpy as np
import pytest

import sporax as ms
import sporax.numpy as mnp

X = np.array([[0.3, -0.7, 1.2], [0.9, 0.4, -0.2]], np.float64)
Y = np.array([[1.1, 0.5, -0.4], [0.2, 1.3, 0.8]], np.float64)

# (name, function of two Tensors returning a scalar Tensor)
CASES = [
    ("sin*exp", lambda x, y: mnp.sum(mnp.sin(x) * mnp.exp(y))),
    ("tanh/divide", lambda x, y: mnp.mean(mnp.tanh(mnp.divide(x, y + 2.0)))),
    ("dot", lambda x, y: mnp.sum(mnp.dot(x, mnp.transpose(y)) ** 2)),
    ("norm", lambda x, y: mnp.norm(x - y)),
    ("std+var", lambda x, y: mnp.std(x, axis=0).sum() + mnp.var(y)),
    ("concatenate/flip", lambda x, y: mnp.sum(mnp.cumsum(mnp.concatenate((x, mnp.flip(y, 1))), axis=0) * 0.1)),
    ("logaddexp/where", lambda x, y: mnp.sum(mnp.where(x > 0, mnp.logaddexp(x, y), mnp.square(y)))),
    ("amax/pad", lambda x, y: mnp.amax(mnp.pad(x * y, 1), axis=1).sum()),
    ("kron/trace", lambda x, y: mnp.trace(mnp.kron(x[:, :2], y[:, :2]))),
    ("polyval/diff", lambda x, y: mnp.sum(mnp.polyval(mnp.ravel(x), y) + mnp.diff(x, axis=1).sum())),
]


def _finite_difference(function, x, y, step=1e-6):
    grads = []
    for index, argument in enumerate((x, y)):
        grad = np.zeros_like(argument)
        for position in np.ndindex(argument.shape):
            plus, minus = [a.copy() for a in (x, y)], [a.copy() for a in (x, y)]
            plus[index][position] += step
            minus[index][position] -= step
            grad[position] = (float(function(*map(ms.Tensor, plus)).asnumpy()) -
                              float(function(*map(ms.Tensor, minus)).asnumpy())) / (2 * step)
        grads.append(grad)
    return grads


@pytest.mark.parametrize("name, function", CASES, ids=[case[0] for case in CASES])
def test_gradient_matches_finite_differences(name, function):
    grads = ms.grad(function, grad_position=(0, 1))(ms.Tensor(X), ms.Tensor(Y))
    for grad, expected in zip(grads, _finite_difference(function, X, Y)):
        np.testing.assert_allclose(grad.asnumpy(), expected, rtol=1e-5, atol=1e-6)


class _Net(ms.nn.Cell):
    def __init__(self):
        super().__init__()
        self.weight = ms.Parameter(ms.Tensor(np.ones((3, 2), np.float32)), name="weight")

    def construct(self, x):
        hidden = mnp.tanh(mnp.matmul(x, self.weight))
        return mnp.mean(mnp.concatenate((hidden, mnp.square(hidden)), axis=1))


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE], ids=["pynative", "graph"])
def test_cell_with_numpy_ops_in_both_modes(mode):
    ms.set_context(mode=mode)
    try:
        net = _Net()
        x = ms.Tensor(X.astype(np.float32))
        loss, grads = ms.value_and_grad(net, None, net.trainable_params())(x)
        hidden = np.tanh(X.astype(np.float32) @ np.ones((3, 2), np.float32))
        np.testing.assert_allclose(loss.asnumpy(), np.concatenate((hidden, hidden ** 2), 1).mean(), rtol=1e-6)
        step = 1e-3
        weight = np.ones((3, 2), np.float64)
        numeric = np.zeros_like(weight)
        for position in np.ndindex(weight.shape):
            for sign in (1, -1):
                shifted = weight.copy()
                shifted[position] += sign * step
                h = np.tanh(X @ shifted)
                numeric[position] += sign * np.concatenate((h, h ** 2), 1).mean() / (2 * step)
        np.testing.assert_allclose(grads[0].asnumpy(), numeric, rtol=1e-3, atol=1e-5)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_jit_function():
    @ms.jit
    def f(x):
        return mnp.sum(mnp.exp(x) * mnp.arange(3))

    np.testing.assert_allclose(f(ms.Tensor(X.astype(np.float32))).asnumpy(),
                               (np.exp(X.astype(np.float32)) * np.arange(3)).sum(), rtol=1e-6)


def test_errors_name_the_function():
    with pytest.raises(TypeError, match="mindspore.numpy.add"):
        mnp.add(ms.Tensor(X))
    with pytest.raises(TypeError, match="mindspore.numpy.sqrt"):
        mnp.sqrt("text")
    with pytest.raises(ValueError, match="mindspore.numpy.reshape"):
        mnp.reshape(ms.Tensor(X), (4, 2))
