"""Binding values into Parameters for a trace, reading them back, restoring them."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor
from sporax.state import Bound, is_tracing, lift
from sporax.state.scope import owned_by_active_scope
from tests.state.helpers import add, assign, tensor


def test_lift_returns_outputs_and_new_values_and_restores():
    state = Parameter(tensor([1.0]), name="state")

    def step(x):
        assign(state, add(state, x))
        return add(x, x)

    original = state._array
    outputs, new_values = lift(step, [state])([jnp.asarray([10.0], jnp.float32)], tensor([2.0]))
    np.testing.assert_allclose(outputs.asnumpy(), [4.0])
    np.testing.assert_allclose(np.asarray(new_values[0]), [12.0])
    assert state._array is original


def test_lift_composes_with_jax_jit():
    state = Parameter(tensor([1.0, 1.0]), name="state")

    def step(x):
        assign(state, add(state, x))
        return state

    pure = jax.jit(lift(step, [state]))
    outputs, new_values = pure([state._value], tensor([1.0, 2.0]))
    np.testing.assert_allclose(outputs.asnumpy(), [2.0, 3.0])
    assert type(outputs) is Tensor, "a returned Parameter leaves the trace as a plain Tensor"
    np.testing.assert_allclose(np.asarray(new_values[0]), [2.0, 3.0])
    np.testing.assert_allclose(state.asnumpy(), [1.0, 1.0])


def test_bound_restores_after_an_error_and_pops_the_scope():
    state = Parameter(tensor([1.0]), name="state")
    original = state._array
    with pytest.raises(ZeroDivisionError):
        with Bound([state], [jnp.zeros(1)], "failing"):
            assert is_tracing() and owned_by_active_scope(state)
            1 / 0
    assert state._array is original
    assert not is_tracing()


def test_scopes_nest():
    outer_state = Parameter(tensor([1.0]), name="outer")
    inner_state = Parameter(tensor([2.0]), name="inner")
    with Bound([outer_state], [jnp.zeros(1)], "outer"):
        with Bound([inner_state], [jnp.zeros(1)], "inner"):
            assert owned_by_active_scope(outer_state) and owned_by_active_scope(inner_state)
        assert not owned_by_active_scope(inner_state)
    np.testing.assert_allclose(inner_state.asnumpy(), [2.0])
