"""The Adam and AdamWeightDecay updates' FFI kernels (adam_cpu) give XLA's results bit for bit, and nn.Adam /
nn.AdamWeightDecay take them on CPU unless the plain lowering is asked for."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

from sporax import nn
from sporax.ops.functional.update import adam_step, adam_weight_decay_step
from sporax.ops.lowering import adam_cpu, onednn, plain_lowering
from tests.ops.lowering.helpers import assert_optimizer_kernel_matches_plain

pytestmark = pytest.mark.skipif(onednn.library() is None, reason="sporax's kernel library is not available here")


def _operands(shape, seed):
    rng = np.random.default_rng(seed)
    weight, m, gradient = (jnp.asarray(rng.standard_normal(shape, dtype=np.float32)) for _ in range(3))
    v = jnp.asarray(np.abs(rng.standard_normal(shape, dtype=np.float32)))
    return weight, m, v, gradient


def _compiled_both_ways(step, *operands):
    """``step`` compiled with XLA's form and with the kernel, and whether the kernel's program calls it."""
    with plain_lowering():  # a new function each time: jax.jit caches a trace by function, not by lowering
        expected = jax.jit(lambda *a: step(*a))(*operands)
    kernel = jax.jit(lambda *a: step(*a))
    return expected, kernel(*operands), "sporax_adam" in kernel.lower(*operands).as_text()


@pytest.mark.parametrize("shape", [(1,), (7,), (3, 5, 17), (64, 3, 3, 3)])
def test_adam_kernel_equals_xla_form_bit_for_bit(shape):
    weight, m, v, gradient = _operands(shape, len(shape))
    powers = jnp.float32(0.9 ** 3), jnp.float32(0.999 ** 3)

    def step(weight, m, v, gradient, beta1_power, beta2_power, rate):
        return adam_step(weight, m, v, beta1_power, beta2_power, rate, 0.9, 0.999, 1e-8, gradient)
    expected, got, called = _compiled_both_ways(step, weight, m, v, gradient, *powers, jnp.float32(1e-3))
    assert called
    for want, have in zip(expected, got):
        np.testing.assert_array_equal(np.asarray(have), np.asarray(want))
    # and the values are Adam's, with bias correction
    g, m0, v0 = (np.asarray(value, np.float64) for value in (gradient, m, v))
    new_m, new_v = 0.9 * m0 + 0.1 * g, 0.999 * v0 + 0.001 * g * g
    rate = 1e-3 * np.sqrt(1 - 0.999 ** 3) / (1 - 0.9 ** 3)
    np.testing.assert_allclose(np.asarray(got[1]), new_m, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(np.asarray(got[2]), new_v, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(np.asarray(got[0]), np.asarray(weight) - rate * new_m / (np.sqrt(new_v) + 1e-8),
                               rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("decay", [None, 0.01])
@pytest.mark.parametrize("shape", [(7,), (64, 3, 3, 3)])
def test_adam_weight_decay_kernel_equals_xla_form_bit_for_bit(shape, decay):
    weight, m, v, gradient = _operands(shape, 5 + len(shape))

    def step(weight, m, v, gradient, rate):
        return adam_weight_decay_step(weight, m, v, rate, 0.9, 0.999, 1e-6, gradient, decay)
    expected, got, called = _compiled_both_ways(step, weight, m, v, gradient, jnp.float32(1e-3))
    assert called
    for want, have in zip(expected, got):
        np.testing.assert_array_equal(np.asarray(have), np.asarray(want))
    w, g, m0, v0 = (np.asarray(value, np.float64) for value in (weight, gradient, m, v))
    new_m, new_v = 0.9 * m0 + 0.1 * g, 0.999 * v0 + 0.001 * g * g
    update = new_m / (np.sqrt(new_v) + 1e-6) + (decay or 0.0) * w
    np.testing.assert_allclose(np.asarray(got[0]), w - 1e-3 * update, rtol=1e-5, atol=1e-6)


def test_kernel_only_for_traced_float32_operands_and_constant_betas():
    ones = jnp.ones((4, 3), jnp.float32)
    rate = jnp.float32(0.1)
    assert not adam_cpu.applies(ones, ones, ones, ones, rate)  # eager: the rule op by op

    def called(step, *operands):
        return "sporax_adam" in jax.jit(step).lower(*operands).as_text()
    assert called(lambda w, r: adam_step(w, w, w, r, r, r, 0.9, 0.999, 1e-8, w), ones, rate)
    assert not called(lambda w, r: adam_step(w, w, w, r, r, r, 0.9, 0.999, 1e-8, w, use_nesterov=True), ones, rate)
    assert not called(lambda w, r, b: adam_step(w, w, w, r, r, r, b, 0.999, 1e-8, w), ones, rate, rate)
    assert not called(lambda w, r: adam_step(w, w, w, r, r, r, 0.9, 0.999, 1e-8, w), ones.astype(jnp.float16), rate)
    with plain_lowering():
        assert not called(lambda w, r: adam_weight_decay_step(w, w, w, r, 0.9, 0.999, 1e-6, w), ones, rate)


_OPTIMIZERS = {"Adam": lambda params: nn.Adam(params, 0.01),
               "AdamWeightDecay": lambda params: nn.AdamWeightDecay(params, 0.01, weight_decay=0.05)}


@pytest.mark.parametrize("mode", ["GRAPH_MODE", "PYNATIVE_MODE"])
@pytest.mark.parametrize("name", sorted(_OPTIMIZERS))
def test_optimizer_with_kernel_equals_plain_form(mode, name, monkeypatch):
    assert_optimizer_kernel_matches_plain(mode, _OPTIMIZERS[name], adam_cpu, ["adam", "adam_weight_decay"],
                                          "sporax_adam", monkeypatch)
