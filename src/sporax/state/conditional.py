"""Keep a function's Parameter writes only when a (possibly traced) condition holds.

A loss-scaled step must skip the optimizer update on overflow. Eagerly the update simply does
not run; under a trace both outcomes are computed and each written Parameter is rebound to
``where(condition, new, old)``, so the compiled step needs no host round trip.
"""
import jax
import jax.numpy as jnp

from sporax.core.tensor import Tensor


def run_if(condition, function, states):
    """Call ``function()`` and keep what it writes into ``states`` only where ``condition`` is true.

    Returns ``function``'s result when it ran (always under a trace), else None.
    """
    value = condition._value if isinstance(condition, Tensor) else condition
    if not isinstance(value, jax.core.Tracer):
        return function() if bool(value) else None
    before = [state._array for state in states]
    result = function()
    keep = jnp.asarray(value, bool).reshape(())
    for state, old in zip(states, before):
        new = state._array
        if new is not old:
            state._array = jnp.where(keep, new, old)
    return result


def write_states(states, values):
    """Rebind ``states`` to ``values``: the write-back of ``sporax.state.lifting`` for a converted ``if``
    or loop, whose written states are those any of its branches (``Lift.written``) wrote."""
    for state, value in zip(states, values):
        state._array = value
