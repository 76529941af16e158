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


def run_with_states(states, values, function):
    """Run ``function()`` with ``values`` bound into ``states``; return ``(result, values_after)``.

    The converted control flow of GRAPH mode (``sporax.graph.control_flow``) traces each branch
    and loop body as a function of the lifted state: the Parameters hold the branch's tracers only
    while it runs, and their previous arrays are restored whatever happens.
    """
    saved = [state._array for state in states]
    try:
        for state, value in zip(states, values):
            state._array = value
        result = function()
        after = [state._array for state in states]
    finally:
        for state, value in zip(states, saved):
            state._array = value
    return result, after


def write_states(states, values):
    """Rebind ``states`` to ``values`` (the results of a converted ``if`` or loop)."""
    for state, value in zip(states, values):
        state._array = value
