"""oneDNN's fused LSTM kernel (an XLA FFI call) equals the plain scan in value and derivatives."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import sporax as ms
from sporax import nn
from sporax.ops import layer_forms
from sporax.ops.lowering import lstm_onednn, plain_lowering

needs_onednn = pytest.mark.skipif(not lstm_onednn.available(),
                                  reason=f"oneDNN's LSTM kernel is not available here: {lstm_onednn.unavailable_reason()}")


def _plain(inputs, h0, c0, weight_ih, weight_hh, bias):
    def body(carry, step_input):
        h, c = carry
        i, f, g, o = jnp.split(step_input @ weight_ih.T + h @ weight_hh.T + bias, 4, axis=-1)
        c = jax.nn.sigmoid(f) * c + jax.nn.sigmoid(i) * jnp.tanh(g)
        h = jax.nn.sigmoid(o) * jnp.tanh(c)
        return (h, c), h
    (h, c), outputs = jax.lax.scan(body, (h0, c0), inputs)
    return outputs, h, c


def _operands(steps, batch, features, hidden, seed=0, scale=None):
    rng = np.random.default_rng(seed)
    scale = 1 / np.sqrt(hidden) if scale is None else scale
    shapes = [((steps, batch, features), 1.0), ((batch, hidden), 1.0), ((batch, hidden), 1.0),
              ((4 * hidden, features), scale), ((4 * hidden, hidden), scale), ((4 * hidden,), scale)]
    return [jnp.asarray((rng.standard_normal(shape) * size).astype(np.float32)) for shape, size in shapes]


def _loss(function):
    def loss(*operands):
        outputs, h, c = function(*operands)
        # every output reaches the loss with its own weight, so each cotangent is distinct
        return (outputs * outputs).sum() * 0.5 + (h * 1.5).sum() + (c * c).sum()
    return loss


def _assert_close(got, expected, tolerance=2e-5):
    scale = float(np.abs(np.asarray(expected)).max()) or 1.0
    np.testing.assert_allclose(np.asarray(got), np.asarray(expected), rtol=tolerance, atol=tolerance * scale)


@needs_onednn
@pytest.mark.parametrize("steps, batch, features, hidden", [(6, 3, 5, 7), (64, 32, 128, 256)])
def test_values_and_gradients_match_the_plain_scan(steps, batch, features, hidden):
    operands = _operands(steps, batch, features, hidden)
    for got, expected in zip(jax.jit(lstm_onednn.lstm)(*operands), _plain(*operands)):
        _assert_close(got, expected)
    arguments = tuple(range(6))
    got = jax.jit(jax.grad(_loss(lstm_onednn.lstm), arguments))(*operands)
    expected = jax.grad(_loss(_plain), arguments)(*operands)
    for got_gradient, expected_gradient in zip(got, expected):
        _assert_close(got_gradient, expected_gradient)


@needs_onednn
def test_saturated_gates_match_float64_reference():
    # Pre-activations up to |z| ~ 40: sigmoid and tanh round to 0 or 1 in float32.
    inputs, h0, c0, weight_ih, weight_hh, bias = _operands(5, 3, 4, 4, seed=7, scale=5.0)
    outputs, h, c = (np.asarray(value) for value in lstm_onednn.lstm(inputs, h0, c0, weight_ih, weight_hh, bias))
    as64 = [np.asarray(value, np.float64) for value in (inputs, h0, c0, weight_ih, weight_hh, bias)]
    h_ref, c_ref, expected = as64[1], as64[2], []
    for step in as64[0]:
        i, f, g, o = np.split(step @ as64[3].T + h_ref @ as64[4].T + as64[5], 4, axis=-1)
        c_ref = c_ref / (1 + np.exp(-f)) + np.tanh(g) / (1 + np.exp(-i))
        h_ref = np.tanh(c_ref) / (1 + np.exp(-o))
        expected.append(h_ref)
    np.testing.assert_allclose(outputs, np.stack(expected), atol=1e-5)
    np.testing.assert_allclose(c, c_ref, rtol=1e-5, atol=1e-5)


@needs_onednn
def test_second_order_derivatives_match_the_plain_scan():
    operands = _operands(4, 2, 3, 5, seed=2)

    def gradient_norm(function):
        def norm(*operands):
            gradients = jax.grad(_loss(function), (0, 3, 4))(*operands)
            return sum((gradient * gradient).sum() for gradient in gradients)
        return norm

    got = jax.jit(jax.grad(gradient_norm(lstm_onednn.lstm), (0, 3, 4, 5)))(*operands)
    expected = jax.jit(jax.grad(gradient_norm(_plain), (0, 3, 4, 5)))(*operands)  # eager: an op-by-op compile each
    for got_gradient, expected_gradient in zip(got, expected):
        _assert_close(got_gradient, expected_gradient, 1e-4)


@needs_onednn
def test_vmap_runs_one_call_per_element():
    operands = _operands(5, 2, 3, 4, seed=3)
    batched = [jnp.stack([value, value * 0.5]) for value in operands]
    got = jax.vmap(lstm_onednn.lstm)(*batched)
    for index in range(2):
        expected = _plain(*(value[index] for value in batched))
        for got_value, expected_value in zip(got, expected):
            _assert_close(got_value[index], expected_value)


def _program(lstm, x):
    return str(jax.make_jaxpr(lambda a: lstm(ms.Tensor(a))[0]._value)(x._value))


@needs_onednn
def test_nn_lstm_takes_the_kernel_unless_switched_off(monkeypatch):
    lstm = nn.LSTM(4, 3, batch_first=True, bidirectional=True)
    x = ms.Tensor(np.ones((2, 5, 4), np.float32))
    assert lstm_onednn._FORWARD in _program(lstm, x)
    monkeypatch.setenv("SPORAX_ONEDNN", "off")
    assert lstm_onednn.unavailable_reason() == "SPORAX_ONEDNN switches it off"
    assert lstm_onednn._FORWARD not in _program(lstm, x)
    assert "custom_vjp" in _program(lstm, x)  # lstm_cpu's loop
    monkeypatch.delenv("SPORAX_ONEDNN")
    with plain_lowering():
        assert lstm_onednn._FORWARD not in _program(lstm, x)
    # a float64 layer and a masked one (seq_length) keep the XLA loops
    lengths = ms.Tensor(np.array([5, 3], np.int32))
    masked = str(jax.make_jaxpr(lambda a: lstm(ms.Tensor(a), seq_length=lengths)[0]._value)(x._value))
    assert lstm_onednn._FORWARD not in masked
    assert not lstm_onednn.applies("LSTM", jnp.zeros((2, 1, 4), jnp.float64))
    assert not lstm_onednn.applies("GRU", jnp.zeros((2, 1, 4), jnp.float32))


def test_nn_lstm_falls_back_to_the_xla_loop_without_onednn(monkeypatch):
    monkeypatch.setattr(lstm_onednn, "available", lambda: False)
    assert layer_forms.recurrent_loop_form("LSTM") == ("xla" if jax.default_backend() == "cpu" else False)
    ms.set_seed(4)
    lstm = nn.LSTM(4, 3, batch_first=True)
    x = ms.Tensor(np.random.default_rng(5).standard_normal((2, 5, 4)).astype(np.float32))
    assert lstm_onednn._FORWARD not in _program(lstm, x)
    with plain_lowering():
        expected = lstm(x)[0].asnumpy()
    np.testing.assert_allclose(lstm(x)[0].asnumpy(), expected, rtol=1e-5, atol=1e-6)

