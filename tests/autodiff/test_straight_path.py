"""The straight path of a repeated PyNative gradient call and of the optimizer step after it
(sporax.autodiff.straight_path, sporax.state.lazy): a training loop skips the program lookups, and
whatever changes between calls (hooks of every kind, rebound globals, no-grad
blocks, the mode, an input Tensor with a hook) is still seen on the next call, with real values.
Expected values are NumPy's: loss = sum(x @ w.T + b) * K of a Dense(2, 1)."""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn
from sporax.state.program_cache import ProgramCache

K = 1.0  # read by ``scaled_loss`` as a global: a rebinding must reach the next call
X = np.array([[1.0, 2.0], [3.0, -1.0]], np.float32)


def expected_grads(k=1.0):
    """dLoss/dw, dLoss/db of sum(x @ w.T + b) * k (independent of w and b)."""
    return [X.sum(axis=0, keepdims=True) * k, np.array([2.0 * k], np.float32)]


def make(rate=0.0):
    ms.set_context(mode=ms.PYNATIVE_MODE)
    net = nn.Dense(2, 1)
    optimizer = nn.SGD(net.trainable_params(), learning_rate=rate)

    def scaled_loss(x):
        return net(x).sum() * K

    return net, optimizer, ms.value_and_grad(scaled_loss, None, optimizer.parameters)


def close(grads, expected):
    for grad, value in zip(grads, expected):
        np.testing.assert_allclose(grad.asnumpy(), value, rtol=1e-6)


@pytest.fixture
def lookups(monkeypatch):
    """Counts ``ProgramCache.lookup`` calls (the full path's program lookups)."""
    calls = []
    real = ProgramCache.lookup

    def counted(self, *args, **kwargs):
        calls.append(self.name)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(ProgramCache, "lookup", counted)
    return calls


def test_training_loop_skips_lookups_and_matches_numpy(lookups):
    net, optimizer, grad_fn = make(rate=0.1)
    x = Tensor(X)
    w, b = net.weight.asnumpy().copy(), net.bias.asnumpy().copy()
    for _ in range(3):  # compile, fuse: the full path
        _, grads = grad_fn(x)
        optimizer(grads)
    lookups.clear()
    for _ in range(4):
        loss, grads = grad_fn(x)
        optimizer(grads)
    assert lookups == []  # every call took the straight path
    dw, db = expected_grads()
    # Seven float32 updates of size ~0.4 on a random weight: an element near zero keeps ~1e-7 absolute error.
    np.testing.assert_allclose(net.weight.asnumpy(), w - 0.1 * 7 * dw, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(net.bias.asnumpy(), b - 0.1 * 7 * db, rtol=1e-5, atol=1e-6)
    w6, b6 = w - 0.1 * 6 * dw, b - 0.1 * 6 * db
    np.testing.assert_allclose(loss.asnumpy(), (X @ w6.T + b6).sum(), rtol=1e-5)


def test_hooks_registered_later_run_with_real_values():
    net, _, grad_fn = make()
    x = Tensor(X)
    for _ in range(2):
        grad_fn(x)
    seen = []
    handle = net.weight.register_hook(lambda grad: seen.append(grad.asnumpy().copy()))
    _, grads = grad_fn(x)
    assert len(seen) == 1
    np.testing.assert_allclose(seen[0], expected_grads()[0], rtol=1e-6)
    handle.remove()
    grad_fn(x)
    grad_fn(x)
    assert len(seen) == 1
    cell_seen = []
    handle = net.register_backward_hook(lambda cell, grad_input, grad_output: cell_seen.append(
        grad_output[0].asnumpy().copy()))
    grad_fn(x)
    assert len(cell_seen) == 1
    np.testing.assert_allclose(cell_seen[0], np.ones((2, 1), np.float32))
    handle.remove()
    close(grad_fn(x)[1], expected_grads())


def test_saved_tensor_hooks_and_hooked_inputs_are_seen():
    net, _, grad_fn = make()
    x = Tensor(X)
    for _ in range(2):
        grad_fn(x)
    packed = []
    with ms.saved_tensors_hooks(lambda t: packed.append(1) or t, lambda t: t):
        close(grad_fn(x)[1], expected_grads())
    assert packed
    grad_fn(x)
    # A Tensor hooked before the straight path was remembered, passed as the input afterwards.
    positions = ms.grad(lambda x: net(x).sum(), grad_position=0)
    plain, hooked = Tensor(X), Tensor(X)
    seen = []
    hooked.register_hook(lambda grad: seen.append(grad.asnumpy().copy()))
    for _ in range(2):
        positions(plain)
    np.testing.assert_allclose(positions(hooked).asnumpy(), np.repeat(net.weight.asnumpy(), 2, axis=0), rtol=1e-6)
    assert len(seen) == 1


def test_rebound_global():
    global K
    net, _, grad_fn = make()
    x = Tensor(X)
    for _ in range(2):
        grad_fn(x)
    try:
        K = 3.0
        close(grad_fn(x)[1], expected_grads(3.0))
    finally:
        K = 1.0
    close(grad_fn(x)[1], expected_grads())


def test_no_grad_mode_and_repeated_inputs_take_the_full_path():
    net, _, grad_fn = make()
    x = Tensor(X)
    for _ in range(2):
        grad_fn(x)
    with ms._no_grad():
        with pytest.raises(RuntimeError, match="no_grad"):
            grad_fn(x)
    pair = ms.grad(lambda a, b: (a * b).sum(), grad_position=(0, 1))
    a, b = Tensor(X), Tensor(X * 2)
    for _ in range(2):
        grads = pair(a, b)
    np.testing.assert_allclose(grads[0].asnumpy(), X * 2)
    grads = pair(a, a)  # one Tensor at both positions: PyNative sums its gradients (2 * a), as MindSpore
    np.testing.assert_allclose(grads[0].asnumpy(), X * 2)
    np.testing.assert_allclose(grads[1].asnumpy(), X * 2)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        grads = pair(a, a)  # GRAPH keeps one gradient per slot
        np.testing.assert_allclose(grads[0].asnumpy(), X)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
