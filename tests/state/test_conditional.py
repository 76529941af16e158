"""run_if: a traced condition keeps or drops a function's state writes, and is computed once.
update_if: an update that runs only when a condition holds, in place under a trace."""
import jax
import jax.numpy as jnp
import numpy as np

from sporax.core.tensor import Tensor
from sporax.nn.wrap.loss_scale import all_finite
from sporax.state.conditional import run_if, update_if

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


def _momentum_step(parameters, moments, grads, momentum, select=False):
    """SGD whose moments accumulate only with momentum > 0 (``nn.SGD``'s structure): ``update_if``,
    or with ``select`` the ``where`` form it replaces."""
    def accumulate(moments, grads):
        return [momentum * moment + grad for moment, grad in zip(moments, grads)]

    uses_momentum = momentum > 0
    if select:
        moments = [jnp.where(uses_momentum, new, old) for new, old in zip(accumulate(moments, grads), moments)]
    else:
        moments = update_if(uses_momentum, accumulate, moments, grads)
    parameters = [parameter - 0.5 * jnp.where(uses_momentum, moment, grad)
                  for parameter, moment, grad in zip(parameters, moments, grads)]
    return parameters, moments


def test_update_if_runs_the_update_only_when_the_condition_holds():
    parameters, moments, grads = _arrays(0)[:3], _arrays(1)[:3], _arrays(2)[:3]
    step = jax.jit(_momentum_step, static_argnums=4)
    for momentum in (0.0, 0.9):
        for run in (_momentum_step, step):  # eager (a Python if) and traced (a loop)
            expected = run(parameters, moments, grads, jnp.float32(momentum), True)
            got = run(parameters, moments, grads, jnp.float32(momentum), False)
            for want, have in zip(jax.tree_util.tree_leaves(expected), jax.tree_util.tree_leaves(got)):
                np.testing.assert_array_equal(np.asarray(have), np.asarray(want))
    with_momentum = _momentum_step(parameters, moments, grads, jnp.float32(0.9))[1]
    np.testing.assert_allclose(np.asarray(with_momentum[0]), 0.9 * np.asarray(moments[0]) + np.asarray(grads[0]),
                               rtol=1e-6)
    np.testing.assert_array_equal(np.asarray(_momentum_step(parameters, moments, grads, jnp.float32(0))[1][0]),
                                  np.asarray(moments[0]))


def test_update_if_promotes_like_the_where_form():
    # float16 moments with a float32 momentum (nn.SGD on a float16 network): the where form's result
    # is float32, and a loop must carry that dtype, not fail on the mismatch.
    parameters = [value.astype(jnp.float16) for value in _arrays(0)[:2]]
    moments = [value.astype(jnp.float16) for value in _arrays(1)[:2]]
    grads = [value.astype(jnp.float16) for value in _arrays(2)[:2]]
    step = jax.jit(_momentum_step, static_argnums=4)
    for momentum in (0.0, 0.9):
        expected = step(parameters, moments, grads, jnp.float32(momentum), True)
        got = step(parameters, moments, grads, jnp.float32(momentum), False)
        for want, have in zip(jax.tree_util.tree_leaves(expected), jax.tree_util.tree_leaves(got)):
            assert have.dtype == want.dtype == jnp.float32
            np.testing.assert_array_equal(np.asarray(have), np.asarray(want))


def test_update_if_leaves_the_values_untouched_outside_its_loop():
    # The where form reads and rewrites every moment in the step itself (and, where other fusions
    # read them too, copies each donated moment first): the seed MLP's SGD step cost 1.37x
    # hand-written JAX. With update_if only the loop, which may not run, sees them.
    parameters, moments, grads = _arrays(0)[:4], _arrays(1)[:4], _arrays(2)[:4]

    def fusions_reading_moments(select):
        def step(parameters, moments, grads, momentum):
            return _momentum_step(parameters, moments, grads, momentum, select)

        text = jax.jit(step, donate_argnums=(0, 1)).lower(parameters, moments, grads, jnp.float32(0)).compile().as_text()
        entry = text[text.index("\nENTRY"):]
        return sum("fusion(" in line and "%moments_" in line for line in entry.splitlines())

    assert fusions_reading_moments(select=False) == 0
    assert fusions_reading_moments(select=True) == len(moments)  # what the test guards against
