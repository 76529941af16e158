"""The SGD update's FFI kernel (sgd_cpu) gives XLA's results bit for bit, and nn.SGD takes it on CPU unless
the plain lowering is asked for."""
import functools

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from sporax import nn
from sporax.ops.functional.update import sgd_step
from sporax.ops.lowering import onednn, plain_lowering, sgd_cpu
from tests.ops.lowering.helpers import assert_optimizer_kernel_matches_plain

pytestmark = pytest.mark.skipif(onednn.library() is None, reason="sporax's kernel library is not available here")

_SETTINGS = [(0.9, 0.0, False), (0.9, 0.0, True), (0.5, 0.3, False), (0.0, 0.0, False)]


def _operands(shape, seed, first):
    rng = np.random.default_rng(seed)
    weight, accum, gradient = (jnp.asarray(rng.standard_normal(shape, dtype=np.float32)) for _ in range(3))
    stat = jnp.full(shape, 1.0 if first else 0.0, jnp.float32)
    return weight, accum, stat, gradient


@functools.lru_cache(maxsize=None)
def _plain_and_kernel_steps(dampening, nesterov):
    """The SGD step of one setting jitted twice, to be traced with XLA's form and with the kernel (two functions:
    jax.jit caches a trace by function, not by lowering). ``first`` is the stat operand's value and the momentum
    a traced operand, so the cases of a shape share the two compiled programs."""
    def step(weight, accum, stat, gradient, rate, factor):
        return [values[0] for values in sgd_step([weight], [accum], [stat], [gradient], [rate], factor, dampening,
                                                 nesterov)]
    return jax.jit(lambda *a: step(*a)), jax.jit(lambda *a: step(*a))


@pytest.mark.parametrize("momentum, dampening, nesterov", _SETTINGS)
@pytest.mark.parametrize("shape", [(1,), (7,), (40,), (3, 5, 17), (64, 3, 3, 3)])
@pytest.mark.parametrize("first", [False, True])
def test_kernel_equals_xla_form_bit_for_bit(shape, momentum, dampening, nesterov, first):
    weight, accum, stat, gradient = _operands(shape, len(shape), first)
    rate, factor = jnp.float32(0.0137), jnp.float32(momentum)
    operands = weight, accum, stat, gradient, rate, factor
    plain, kernel = _plain_and_kernel_steps(dampening, nesterov)
    with plain_lowering():
        expected = plain(*operands)
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


@pytest.mark.parametrize("mode", ["GRAPH_MODE", "PYNATIVE_MODE"])
@pytest.mark.parametrize("momentum, dampening, nesterov", _SETTINGS)
def test_sgd_optimizer_with_kernel_equals_plain_form(mode, momentum, dampening, nesterov, monkeypatch):
    assert_optimizer_kernel_matches_plain(
        mode, lambda params: nn.SGD(params, 0.05, momentum, dampening, weight_decay=0.01, nesterov=nesterov),
        sgd_cpu, ["sgd"], sgd_cpu._TARGET, monkeypatch)
