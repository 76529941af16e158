"""run_if: a traced condition keeps or drops a function's state writes, and is computed once."""
import jax
import jax.numpy as jnp
import numpy as np

from sporax.core.tensor import Tensor
from sporax.nn.wrap.loss_scale import all_finite
from sporax.state.conditional import run_if

COUNT = 40
SHAPES = [(3, 4 + index % 3) for index in range(COUNT)]


def _guarded_step(values, grads):
    """An SGD update of ``values`` kept only when every gradient is finite (a loss-scaled step's skip)."""
    states = [Tensor._wrap(value) for value in values]

    def update():
        for state, grad in zip(states, grads):
            state._array = state._array - 0.5 * grad

    run_if(all_finite([Tensor._wrap(grad) for grad in grads]), update, states)
    return [state._array for state in states]


def _arrays(seed):
    rng = np.random.default_rng(seed)
    return [jnp.asarray(rng.standard_normal(shape), jnp.float32) for shape in SHAPES]


def test_traced_condition_keeps_or_drops_every_write():
    values, grads = _arrays(0), _arrays(1)
    step = jax.jit(_guarded_step)
    updated = step(values, grads)
    for value, grad, new in zip(values, grads, updated):
        np.testing.assert_array_equal(np.asarray(new), np.asarray(value) - np.float32(0.5) * np.asarray(grad))
    overflowing = list(grads)
    overflowing[17] = overflowing[17].at[1, 2].set(jnp.inf)
    for value, kept in zip(values, step(values, overflowing)):
        np.testing.assert_array_equal(np.asarray(kept), np.asarray(value))
    eager = _guarded_step(values, overflowing)  # outside a trace the update does not run at all
    assert all(kept is value for kept, value in zip(eager, values))


def test_overflow_check_is_not_copied_into_each_select():
    # Before, XLA fused the chain of COUNT scalar ands (one per gradient) into every state's select:
    # COUNT * COUNT ands, a program (and a compile) quadratic in the parameter count.
    values, grads = _arrays(0), _arrays(1)
    text = jax.jit(_guarded_step).lower(values, grads).compile().as_text()
    assert text.count(" and(") <= 4 * COUNT, text.count(" and(")
    assert text.count(" select(") <= 2 * COUNT
