"""The LSTM loop with the hand-written backward pass equals the plain scan in value and gradient.
nn.LSTM takes oneDNN's kernel where it is available (test_lstm_onednn_lowering.py): the layer-level
tests here run with it switched off, and once more with it where it is on."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import sporax as ms
from sporax import nn, ops
from sporax.ops.lowering import lstm_cpu, plain_lowering

CASES = [  # (num_layers, bidirectional, has_bias, batch_first, with_hx)
    (1, False, True, True, False),
    (2, True, True, False, True),
    (1, True, False, True, True),
]


def _loss_and_grads_over(weights):
    """The loss-and-gradients function over ``weights`` (read outside: MindSpore refuses
    ``Cell.trainable_params`` in compiled code)."""
    return lambda lstm, x, hx: _loss_and_grads(lstm, x, hx, weights)


def _loss_and_grads(lstm, x, hx, weights):
    def forward(x, h0, c0):
        out, (h, c) = lstm(x, None if h0 is None else (h0, c0))
        # every output reaches the loss with its own weight, so each cotangent is distinct
        return (out * out).sum() * 0.5 + (h * 1.5).sum() + (c * c).sum()

    if hx is None:
        grad_fn = ms.value_and_grad(lambda x: forward(x, None, None), 0, weights)
        loss, (dx, dw) = grad_fn(x)
        return loss, [dx] + list(dw)
    grad_fn = ms.value_and_grad(forward, (0, 1, 2), weights)
    loss, (dinputs, dw) = grad_fn(x, *hx)
    return loss, list(dinputs) + list(dw)


def _grid():
    """Every case in both modes with the hand-written loop; with the default kernel (oneDNN's where it is
    available, checked on its own in test_lstm_onednn_lowering.py) the stacked bidirectional case alone runs
    by default, the others are slow."""
    for case in CASES:
        for mode, mode_id in ((ms.PYNATIVE_MODE, "pynative"), (ms.GRAPH_MODE, "graph")):
            for kernel in ("xla-loop", "default"):
                marks = pytest.mark.slow if kernel == "default" and case is not CASES[1] else ()
                yield pytest.param(*case, mode, kernel, marks=marks,
                                   id="-".join(map(str, case)) + f"-{mode_id}-{kernel}")


_PLAIN_RESULTS = {}  # (case, mode): the plain loop's loss and gradients (NumPy)


@pytest.mark.parametrize("layers, bidirectional, has_bias, batch_first, with_hx, mode, kernel", list(_grid()))
def test_lstm_matches_plain_scan(layers, bidirectional, has_bias, batch_first, with_hx, mode, kernel, monkeypatch):
    if kernel == "xla-loop":
        monkeypatch.setenv("SPORAX_ONEDNN", "off")
    ms.set_context(mode=mode)
    try:
        ms.set_seed(3)
        lstm = nn.LSTM(5, 7, num_layers=layers, has_bias=has_bias, batch_first=batch_first,
                       bidirectional=bidirectional)
        rng = np.random.default_rng(0)
        shape = (3, 6, 5) if batch_first else (6, 3, 5)
        x = ms.Tensor(rng.standard_normal(shape).astype(np.float32))
        states = layers * (2 if bidirectional else 1)
        hx = (ms.Tensor(rng.standard_normal((states, 3, 7)).astype(np.float32)),
              ms.Tensor(rng.standard_normal((states, 3, 7)).astype(np.float32))) if with_hx else None
        step = _loss_and_grads_over(lstm.trainable_params())
        run = ms.jit(step) if mode == ms.GRAPH_MODE else step
        fast_loss, fast_grads = run(lstm, x, hx)
        key = (layers, bidirectional, has_bias, batch_first, with_hx, mode)
        if key not in _PLAIN_RESULTS:  # the plain loop's values, the same for both kernels: computed once
            with plain_lowering():
                loss, grads = (ms.jit(step) if mode == ms.GRAPH_MODE else step)(lstm, x, hx)
            _PLAIN_RESULTS[key] = loss.asnumpy(), [grad.asnumpy() for grad in grads]
        plain_loss, plain_grads = _PLAIN_RESULTS[key]
        np.testing.assert_allclose(fast_loss.asnumpy(), plain_loss, rtol=1e-5)
        assert len(fast_grads) == len(plain_grads)
        for fast, plain in zip(fast_grads, plain_grads):
            np.testing.assert_allclose(fast.asnumpy(), plain, rtol=2e-5, atol=2e-5)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_recurrence_gradient_matches_finite_differences():
    rng = np.random.default_rng(1)
    hidden = 3
    args = [jnp.asarray(rng.standard_normal(shape).astype(np.float64)) for shape in
            ((4, 2, 4 * hidden), (2, hidden), (2, hidden), (4 * hidden, hidden), (4 * hidden,))]

    # compiled once: eager JAX would compile each operation of the loop and its gradient on its own
    @jax.jit
    def loss(*args):
        out, h, c = lstm_cpu.lstm_recurrence(*args)
        return (out ** 2).sum() + h.sum() + (c ** 3).sum()

    assert args[0].dtype == jnp.float64  # sporax runs JAX with x64 on: central differences in float64
    grads = jax.jit(jax.grad(loss, argnums=tuple(range(5))))(*args)
    for index, grad in enumerate(grads):
        direction = jnp.asarray(rng.standard_normal(args[index].shape))
        step = 1e-6
        moved = list(args)
        moved[index] = args[index] + step * direction
        back = list(args)
        back[index] = args[index] - step * direction
        numeric = (loss(*moved) - loss(*back)) / (2 * step)
        np.testing.assert_allclose(float((grad * direction).sum()), float(numeric), rtol=1e-6)


def test_applies_to_floating_lstm_only():
    assert lstm_cpu.applies("LSTM", jnp.zeros((2, 1, 8), jnp.float32))
    assert not lstm_cpu.applies("GRU", jnp.zeros((2, 1, 6), jnp.float32))
    assert not lstm_cpu.applies("LSTM", jnp.zeros((2, 1, 8), jnp.int32))


def test_cpu_trace_takes_the_hand_written_loop(monkeypatch):
    monkeypatch.setenv("SPORAX_ONEDNN", "off")
    lstm = nn.LSTM(4, 3, batch_first=True)
    x = ms.Tensor(np.ones((2, 5, 4), np.float32))
    jaxpr = str(jax.make_jaxpr(lambda a: lstm(ms.Tensor(a))[0]._value)(x._value))
    assert ("custom_vjp" in jaxpr) == (jax.default_backend() == "cpu")
    with plain_lowering():
        assert "custom_vjp" not in str(jax.make_jaxpr(lambda a: lstm(ms.Tensor(a))[0]._value)(x._value))
    out = lstm(x)[0]
    assert out.shape == (2, 5, 3) and np.all(np.isfinite(ops.abs(out).asnumpy()))


def test_forward_mode_through_lstm_uses_the_plain_loop():
    # The hand-written loop defines only a VJP: ops.jvp and ops.jacfwd trace with the plain scan.
    ms.set_seed(5)
    lstm = nn.LSTM(3, 4, batch_first=True)
    rng = np.random.default_rng(2)
    x = rng.standard_normal((2, 5, 3)).astype(np.float32)
    v = rng.standard_normal((2, 5, 3)).astype(np.float32)

    def f(data):
        return lstm(data)[0]

    _, tangent = ops.jvp(f, ms.Tensor(x), ms.Tensor(v))
    step = 1e-3
    numeric = (f(ms.Tensor(x + step * v)).asnumpy() - f(ms.Tensor(x - step * v)).asnumpy()) / (2 * step)
    np.testing.assert_allclose(tangent.asnumpy(), numeric, rtol=1e-2, atol=1e-3)
    jacobian = ops.jacfwd(lambda data: f(data).sum())(ms.Tensor(x))
    reverse = ms.grad(lambda data: f(data).sum())(ms.Tensor(x))
    np.testing.assert_allclose(jacobian.asnumpy(), reverse.asnumpy(), rtol=1e-5, atol=1e-6)


def test_linearize_through_lstm():
    ms.set_seed(6)
    lstm = nn.LSTM(3, 4, batch_first=True)
    x = ms.Tensor(np.random.default_rng(3).standard_normal((2, 5, 3)).astype(np.float32))
    v = ms.Tensor(np.random.default_rng(4).standard_normal((2, 5, 3)).astype(np.float32))
    output, jvp_fn = ops.linearize(lambda data: lstm(data)[0], x)
    _, expected = ops.jvp(lambda data: lstm(data)[0], x, v)
    np.testing.assert_allclose(output.asnumpy(), lstm(x)[0].asnumpy(), rtol=1e-6)
    np.testing.assert_allclose(jvp_fn(v).asnumpy(), expected.asnumpy(), rtol=1e-5, atol=1e-6)


def test_saturated_gates_match_float64_reference():
    # Gates far into saturation (|z| up to ~40), where sigmoid and the cell gate's
    # 2 sigmoid(2z) - 1 round to 0 or 1: outputs and gradients still equal a float64 NumPy LSTM.
    rng = np.random.default_rng(7)
    steps, batch, hidden = 5, 3, 4
    projected = (rng.standard_normal((steps, batch, 4 * hidden)) * 20).astype(np.float32)
    h0, c0 = (rng.standard_normal((2, batch, hidden))).astype(np.float32)
    weight = (rng.standard_normal((4 * hidden, hidden)) * 5).astype(np.float32)
    bias = rng.standard_normal(4 * hidden).astype(np.float32)

    def sigmoid(z):
        return 1 / (1 + np.exp(-z))

    h, c, outputs = h0.astype(np.float64), c0.astype(np.float64), []
    for step in range(steps):
        z = projected[step] + h @ weight.T.astype(np.float64) + bias
        i, f, g, o = np.split(z, 4, axis=-1)
        c = sigmoid(f) * c + sigmoid(i) * np.tanh(g)
        h = sigmoid(o) * np.tanh(c)
        outputs.append(h)
    out, h_last, c_last = lstm_cpu.lstm_recurrence(*map(jnp.asarray, (projected, h0, c0, weight, bias)))
    np.testing.assert_allclose(np.asarray(out), np.stack(outputs), atol=2e-6)
    np.testing.assert_allclose(np.asarray(c_last), c, rtol=1e-6, atol=2e-6)

    def loss(function, *args):
        out, h, c = function(*args)
        return (out * out).sum() + (c * 0.5).sum()

    args = tuple(map(jnp.asarray, (projected, h0, c0, weight, bias)))
    fast = jax.grad(lambda *a: loss(lstm_cpu.lstm_recurrence, *a), argnums=tuple(range(5)))(*args)

    def plain(projected, h0, c0, weight, bias):
        def body(carry, step_input):
            h, c = carry
            i, f, g, o = jnp.split(step_input + h @ weight.T + bias, 4, axis=-1)
            c = jax.nn.sigmoid(f) * c + jax.nn.sigmoid(i) * jnp.tanh(g)
            h = jax.nn.sigmoid(o) * jnp.tanh(c)
            return (h, c), h
        (h, c), out = jax.lax.scan(body, (h0, c0), projected)
        return out, h, c

    reference = jax.grad(lambda *a: loss(plain, *a), argnums=tuple(range(5)))(*args)
    for got, want in zip(fast, reference):
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-5, atol=1e-5)
