"""Shared by the CPU-lowering tests: random operands, a float32 closeness check, a fast-vs-plain
comparison of a network's loss and gradients in one execution mode, and a fixture that runs a test
with oneDNN's convolutions and with XLA's."""
import contextlib

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import sporax
from sporax.ops.lowering import plain_lowering


@pytest.fixture(params=["onednn", "xla"])
def convolution_kernel(request, monkeypatch):
    """Runs a test with oneDNN's wide convolutions (skipped where they are unavailable) and with XLA's."""
    from sporax.ops.lowering import conv_onednn
    if request.param == "onednn" and not conv_onednn.available():
        pytest.skip("oneDNN's convolution kernels are not available here")
    if request.param == "xla":
        monkeypatch.setenv("SPORAX_ONEDNN", "off")
    jax.clear_caches()  # a jitted layer keeps the form it was traced with
    yield request.param
    jax.clear_caches()


def random_pair(x_shape, w_shape, seed=0):
    rng = np.random.default_rng(seed)
    return (jnp.asarray(rng.standard_normal(x_shape), jnp.float32),
            jnp.asarray(rng.standard_normal(w_shape), jnp.float32))


def same_padding_program(x, w):
    """The jaxpr text of sporax's convolution of ``x`` and ``w`` with 'SAME' padding, stride 1."""
    from sporax.ops.functional.convolution import _convolve
    return str(jax.make_jaxpr(lambda x, w: _convolve(x, w, (1, 1), "SAME", (1, 1), 1))(x, w))


def assert_close(got, expected):
    scale = float(np.abs(np.asarray(expected)).max()) or 1.0
    np.testing.assert_allclose(np.asarray(got), np.asarray(expected), rtol=1e-5, atol=1e-5 * scale)


def assert_fast_matches_plain(mode, build_loss, inputs, plain_results=None):
    """``build_loss()`` -> (loss function of ``inputs``, its Parameters), built afresh (seed 1) for the
    fast and the plain lowering; their loss, first input's gradient and Parameter gradients agree.
    ``plain_results``: a dict the calling test keeps for this ``build_loss``, where the plain lowering's results
    stay by mode: a test run with each fast kernel (``convolution_kernel``) then runs the plain form, the same
    for each, once."""
    sporax.set_context(mode=getattr(sporax, mode))
    try:
        results = []
        for plain in (False, True):
            if plain and plain_results is not None and mode in plain_results:
                results.append(plain_results[mode])
                continue
            sporax.set_seed(1)
            loss, params = build_loss()
            grad_fn = sporax.value_and_grad(loss, 0, params)
            with plain_lowering() if plain else contextlib.nullcontext():
                value, (dx, grads) = grad_fn(*inputs)
            results.append((value.asnumpy(), dx.asnumpy(), [g.asnumpy() for g in grads]))
            if plain and plain_results is not None:
                plain_results[mode] = results[-1]
        (fast_value, fast_dx, fast_grads), (plain_value, plain_dx, plain_grads) = results
        assert_close(fast_value, plain_value)
        assert_close(fast_dx, plain_dx)
        for got, expected in zip(fast_grads, plain_grads):
            assert_close(got, expected)
    finally:
        sporax.set_context(mode=sporax.PYNATIVE_MODE)


def assert_weight_gradient_matches_finite_differences(conv, x, w, equation):
    """The weight gradient of ``sum(tanh(conv(x, w, (2, 2), 1-pixel pads)))`` (a 3 x 3 kernel on a 5 x 5
    input) equals central differences of the same loss in float64 NumPy, where ``equation`` (an einsum of
    one padded 3 x 3 window and the weight) gives the output at one position."""
    pads = ((1, 1), (1, 1))
    grad = np.asarray(jax.grad(lambda w: jnp.sum(jnp.tanh(conv(x, w, (2, 2), pads))))(w))
    x64, w64 = np.asarray(x, np.float64), np.asarray(w, np.float64)

    def loss64(w):
        padded = np.pad(x64, ((0, 0), (0, 0), (1, 1), (1, 1)))
        out = np.zeros((x.shape[0], w.shape[0], 3, 3))
        for i in range(3):
            for j in range(3):
                out[:, :, i, j] = np.einsum(equation, padded[:, :, 2 * i:2 * i + 3, 2 * j:2 * j + 3], w)
        return np.tanh(out).sum()
    rng = np.random.default_rng(5)
    for _ in range(6):
        index = tuple(int(rng.integers(0, n)) for n in w.shape)
        step = np.zeros(w.shape)
        step[index] = 1e-5
        numeric = (loss64(w64 + step) - loss64(w64 - step)) / 2e-5
        assert abs(numeric - grad[index]) < 1e-3 * max(1.0, abs(numeric))


def _train_small_network(mode, make_optimizer, target, steps=3):
    """Losses (and, in GRAPH mode, whether the compiled step calls FFI ``target``) and every optimizer and network
    Parameter's value after ``steps`` steps of a small Dense network trained by ``make_optimizer(params)``."""
    from sporax import nn
    from sporax.state import program_cache
    sporax.set_context(mode=mode)
    sporax.set_seed(1)
    network = nn.SequentialCell(nn.Dense(5, 7), nn.ReLU(), nn.Dense(7, 3))
    optimizer = make_optimizer(network.trainable_params())
    step = nn.TrainOneStepCell(nn.WithLossCell(network, nn.SoftmaxCrossEntropyWithLogits(sparse=True,
                                                                                        reduction="mean")), optimizer)
    rng = np.random.default_rng(2)
    x = sporax.Tensor(rng.standard_normal((4, 5)).astype(np.float32))
    y = sporax.Tensor(np.array([0, 2, 1, 2], np.int32))
    losses = [float(step(x, y).asnumpy()) for _ in range(steps)]
    if mode == sporax.GRAPH_MODE:  # the step program XLA compiled calls the kernel, or does not
        program, shapes = program_cache.last_built("eval")
        losses.append(target in program.lower(shapes).as_text())
    return losses, [p.asnumpy() for p in list(optimizer.get_parameters()) + network.trainable_params()]


def assert_optimizer_kernel_matches_plain(mode_name, make_optimizer, module, functions, target, monkeypatch):
    """An optimizer trains a small network to the same losses and Parameters bit for bit with its CPU update kernel
    (``module``'s ``functions``, which must be called; the compiled step calls FFI ``target``) and with
    ``SPORAX_PLAIN_LOWERING=optimizer`` (never called); the loss falls."""
    mode = getattr(sporax, mode_name)
    try:
        calls = []
        for name in functions:
            original = getattr(module, name)
            monkeypatch.setattr(module, name, lambda *a, _original=original, **k: calls.append(1) or _original(*a, **k))
        losses, values = _train_small_network(mode, make_optimizer, target)
        assert calls, f"{module.__name__} was not called"  # PyNative compiles the optimizer's step too
        monkeypatch.setenv("SPORAX_PLAIN_LOWERING", "optimizer")
        calls.clear()
        plain_losses, plain_values = _train_small_network(mode, make_optimizer, target)
        assert not calls
    finally:
        sporax.set_context(mode=sporax.PYNATIVE_MODE)
    if mode == sporax.GRAPH_MODE:
        assert losses.pop() and not plain_losses.pop()
    assert losses == plain_losses and losses[-1] < losses[0]
    for have, want in zip(values, plain_values):
        np.testing.assert_array_equal(have, want)
