"""The Momentum update's FFI kernel (momentum_cpu) gives XLA's results bit for bit, and the Momentum
optimizer takes it on CPU unless the plain lowering is asked for."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import sporax
from sporax import nn
from sporax.ops.functional.update import momentum_rule
from sporax.ops.lowering import momentum_cpu, onednn, plain_lowering
from tests.ops.lowering.helpers import assert_optimizer_kernel_matches_plain

pytestmark = pytest.mark.skipif(onednn.library() is None, reason="sporax's kernel library is not available here")


@pytest.mark.parametrize("nesterov", [False, True])
@pytest.mark.parametrize("shape", [(1,), (7,), (8,), (3, 5, 17), (64, 3, 3, 3)])
def test_kernel_equals_xla_form_bit_for_bit(shape, nesterov):
    rng = np.random.default_rng(len(shape) + nesterov)
    weight, moment, gradient = (jnp.asarray(rng.standard_normal(shape, dtype=np.float32)) for _ in range(3))
    rate, factor = jnp.float32(0.0137), jnp.float32(0.9)
    expected = jax.jit(lambda *a: momentum_rule(*a, use_nesterov=nesterov))(weight, moment, rate, gradient, factor)
    got = jax.jit(lambda *a: momentum_cpu.momentum(*a, use_nesterov=nesterov))(weight, moment, rate, gradient, factor)
    for want, have in zip(expected, got):
        np.testing.assert_array_equal(np.asarray(have), np.asarray(want))
    # and the values are the rule's: moment * momentum + gradient, then the step
    new_moment = np.asarray(moment) * np.float32(0.9) + np.asarray(gradient)
    np.testing.assert_allclose(np.asarray(got[1]), new_moment, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("split", ["on", "off"])
def test_large_update_split_over_two_threads_is_bit_equal(split, monkeypatch):
    # 300,001 elements: above the handler's 2**18 split size, halves of whole 64-byte lines plus a ragged tail
    monkeypatch.setenv("SPORAX_SPLIT_UPDATES", split)
    rng = np.random.default_rng(5)
    weight, moment, gradient = (jnp.asarray(rng.standard_normal(300_001, dtype=np.float32)) for _ in range(3))
    rate, factor = jnp.float32(0.0137), jnp.float32(0.9)
    expected = jax.jit(lambda *a: momentum_rule(*a, use_nesterov=True))(weight, moment, rate, gradient, factor)
    step = jax.jit(lambda *a: momentum_cpu.momentum(*a, use_nesterov=True))
    text = step.lower(weight, moment, rate, gradient, factor).as_text()
    assert f"threads = {2 if split == 'on' else 1} : i64" in text
    for want, have in zip(expected, step(weight, moment, rate, gradient, factor)):
        np.testing.assert_array_equal(np.asarray(have), np.asarray(want))


def test_applies_only_to_traced_float32_operands_of_one_shape_on_the_cpu_form():
    ones = jnp.ones((4, 3), jnp.float32)
    rate, factor = jnp.float32(0.1), jnp.float32(0.9)

    def applies(*operands):
        answers = []
        jax.jit(lambda *traced: answers.append(momentum_cpu.applies(*traced)))(*operands)
        return answers[0]
    assert applies(ones, ones, rate, ones, factor)
    assert not momentum_cpu.applies(ones, ones, rate, ones, factor)  # eager: the rule op by op
    assert not applies(ones.astype(jnp.float16), ones, rate, ones, factor)
    assert not applies(ones, ones[:2], rate, ones, factor)
    assert not applies(ones, ones, jnp.ones(2, jnp.float32), ones, factor)
    answers = []
    jax.jit(lambda *traced: answers.append(momentum_cpu.applies(*traced, 0.9)))(ones, ones, rate, ones)
    assert answers == [False]  # a Python float: no buffer to pass
    with plain_lowering():
        assert not applies(ones, ones, rate, ones, factor)


@pytest.mark.parametrize("mode", ["GRAPH_MODE", "PYNATIVE_MODE"])
@pytest.mark.parametrize("nesterov", [False, True])
def test_momentum_optimizer_with_kernel_equals_plain_form(mode, nesterov, monkeypatch):
    assert_optimizer_kernel_matches_plain(
        mode, lambda params: nn.Momentum(params, 0.05, 0.9, use_nesterov=nesterov), momentum_cpu, ["momentum"],
        momentum_cpu._TARGET, monkeypatch)


def test_apply_momentum_primitive_takes_the_kernel_when_compiled(monkeypatch):
    rng = np.random.default_rng(3)
    start, accumulated, gradient = (rng.standard_normal((6, 5)).astype(np.float32) for _ in range(3))

    def run():
        variable = sporax.Parameter(sporax.Tensor(start), name="w")
        accumulation = sporax.Parameter(sporax.Tensor(accumulated), name="acc")
        update = sporax.jit(lambda rate, grad, factor: sporax.ops.ApplyMomentum()(variable, accumulation, rate, grad,
                                                                                  factor))
        update(sporax.Tensor(np.float32(0.1)), sporax.Tensor(gradient), sporax.Tensor(np.float32(0.9)))
        return variable.asnumpy(), accumulation.asnumpy()

    calls = []
    original = momentum_cpu.momentum
    monkeypatch.setattr(momentum_cpu, "momentum", lambda *a, **k: calls.append(1) or original(*a, **k))
    weight, moment = run()
    assert calls
    monkeypatch.setenv("SPORAX_PLAIN_LOWERING", "optimizer")
    plain_weight, plain_moment = run()
    np.testing.assert_array_equal(weight, plain_weight)
    np.testing.assert_array_equal(moment, plain_moment)
    expected_moment = accumulated * np.float32(0.9) + gradient
    np.testing.assert_allclose(moment, expected_moment, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(weight, start - np.float32(0.1) * expected_moment, rtol=1e-5, atol=1e-6)
