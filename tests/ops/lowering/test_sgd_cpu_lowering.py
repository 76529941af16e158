"""The SGD update's FFI kernel (sgd_cpu) gives XLA's results bit for bit, and nn.SGD takes it on CPU unless
the plain lowering is asked for."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import sporax
from sporax import nn
from sporax.ops.functional.update import sgd_step
from sporax.ops.lowering import onednn, plain_lowering, sgd_cpu
from sporax.state import program_cache

pytestmark = pytest.mark.skipif(onednn.library() is None, reason="sporax's kernel library is not available here")

_SETTINGS = [(0.9, 0.0, False), (0.9, 0.0, True), (0.5, 0.3, False), (0.0, 0.0, False)]


def _operands(shape, seed, first):
    rng = np.random.default_rng(seed)
    weight, accum, gradient = (jnp.asarray(rng.standard_normal(shape, dtype=np.float32)) for _ in range(3))
    stat = jnp.full(shape, 1.0 if first else 0.0, jnp.float32)
    return weight, accum, stat, gradient


@pytest.mark.parametrize("momentum, dampening, nesterov", _SETTINGS)
@pytest.mark.parametrize("shape", [(1,), (7,), (40,), (3, 5, 17), (64, 3, 3, 3)])
@pytest.mark.parametrize("first", [False, True])
def test_kernel_equals_xla_form_bit_for_bit(shape, momentum, dampening, nesterov, first):
    weight, accum, stat, gradient = _operands(shape, len(shape), first)
    rate, factor = jnp.float32(0.0137), jnp.float32(momentum)

    def step(weight, accum, stat, gradient, rate, factor):
        return [values[0] for values in sgd_step([weight], [accum], [stat], [gradient], [rate], factor, dampening,
                                                 nesterov)]
    operands = weight, accum, stat, gradient, rate, factor
    with plain_lowering():  # a new function each time: jax.jit caches a trace by function, not by lowering
        expected = jax.jit(lambda *a: step(*a))(*operands)
    kernel = jax.jit(lambda *a: step(*a))
    assert sgd_cpu._TARGET in kernel.lower(*operands).as_text()
    got = kernel(*operands)
    for want, have in zip(expected, got):
        if dampening and np.prod(shape) < 32 and momentum and not first:
            # With dampening the accumulator adds two products; XLA:CPU fuses the first around the rounded
            # second (as the kernel) for 32 elements and more, and the other way round below: one rounding apart.
            np.testing.assert_array_max_ulp(np.asarray(have), np.asarray(want), maxulp=1)
        else:
            np.testing.assert_array_equal(np.asarray(have), np.asarray(want))
    # and the values are the rule's (PyTorch's SGD)
    w, a, g = (np.asarray(value, np.float64) for value in (weight, accum, gradient))
    if momentum:
        a = g if first else momentum * a + (1 - dampening) * g
        direction = g + momentum * a if nesterov else a
        np.testing.assert_allclose(np.asarray(got[1]), a, rtol=1e-5, atol=1e-6)
        assert not np.asarray(got[2]).any()
    else:
        direction = g
        np.testing.assert_array_equal(np.asarray(got[1]), np.asarray(accum))  # untouched
        np.testing.assert_array_equal(np.asarray(got[2]), np.asarray(stat))
    np.testing.assert_allclose(np.asarray(got[0]), w - 0.0137 * direction, rtol=1e-5, atol=1e-6)


def test_applies_only_to_traced_float32_operands_of_one_shape():
    ones = jnp.ones((4, 3), jnp.float32)
    rate, factor = jnp.float32(0.1), jnp.float32(0.9)

    def applies(*operands):
        answers = []
        jax.jit(lambda *traced: answers.append(sgd_cpu.applies(*traced)))(*operands)
        return answers[0]
    assert applies(ones, ones, ones, ones, rate, factor)
    assert not sgd_cpu.applies(ones, ones, ones, ones, rate, factor)  # eager: the rule op by op
    assert not applies(ones, ones.astype(jnp.float16), ones, ones, rate, factor)
    assert not applies(ones, ones, ones[:2], ones, rate, factor)
    with plain_lowering():
        assert not applies(ones, ones, ones, ones, rate, factor)


def _train(mode, momentum, dampening, nesterov, steps=3):
    sporax.set_context(mode=mode)
    sporax.set_seed(1)
    network = nn.SequentialCell(nn.Dense(5, 7), nn.ReLU(), nn.Dense(7, 3))
    optimizer = nn.SGD(network.trainable_params(), 0.05, momentum, dampening, weight_decay=0.01, nesterov=nesterov)
    step = nn.TrainOneStepCell(nn.WithLossCell(network, nn.SoftmaxCrossEntropyWithLogits(sparse=True,
                                                                                        reduction="mean")), optimizer)
    rng = np.random.default_rng(2)
    x = sporax.Tensor(rng.standard_normal((4, 5)).astype(np.float32))
    y = sporax.Tensor(np.array([0, 2, 1, 2], np.int32))
    losses = [float(step(x, y).asnumpy()) for _ in range(steps)]
    if mode == sporax.GRAPH_MODE:  # the step program XLA compiled calls the kernel, or does not
        program, shapes = program_cache.last_built("eval")
        losses.append(sgd_cpu._TARGET in program.lower(shapes).as_text())
    state = network.trainable_params() + list(optimizer.accum) + list(optimizer.stat)
    return losses, [p.asnumpy() for p in state]


@pytest.mark.parametrize("mode", ["GRAPH_MODE", "PYNATIVE_MODE"])
@pytest.mark.parametrize("momentum, dampening, nesterov", _SETTINGS)
def test_sgd_optimizer_with_kernel_equals_plain_form(mode, momentum, dampening, nesterov, monkeypatch):
    mode = getattr(sporax, mode)
    try:
        calls = []
        original = sgd_cpu.sgd
        monkeypatch.setattr(sgd_cpu, "sgd", lambda *a, **k: calls.append(1) or original(*a, **k))
        losses, values = _train(mode, momentum, dampening, nesterov)
        assert calls, "nn.SGD did not take the CPU kernel"  # PyNative compiles the optimizer's step too
        monkeypatch.setenv("SPORAX_PLAIN_LOWERING", "optimizer")
        calls.clear()
        plain_losses, plain_values = _train(mode, momentum, dampening, nesterov)
        assert not calls
    finally:
        sporax.set_context(mode=sporax.PYNATIVE_MODE)
    if mode == sporax.GRAPH_MODE:
        assert losses.pop() and not plain_losses.pop()
    assert losses == plain_losses and losses[-1] < losses[0]
    for have, want in zip(values, plain_values):
        np.testing.assert_array_equal(have, want)
