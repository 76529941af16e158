"""Keep a function's Parameter writes only when a (possibly traced) condition holds.

A loss-scaled step must skip the optimizer update on overflow. Eagerly the update simply does
not run; under a trace both outcomes are computed and each written Parameter is rebound to
``where(condition, new, old)``, so the compiled step needs no host round trip.

``update_if`` is the in-place form for large state a condition rarely changes (SGD's moments
without momentum): a loop of zero or one trip, which leaves the arrays untouched when it does not run.
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
    keep = _shared_condition(jnp.asarray(value, bool).reshape(()))
    for state, old in zip(states, before):
        new = state._array
        if new is not old:
            state._array = jnp.where(keep, new, old)
    return result


def _shared_condition(flag):
    """``flag`` (a traced bool scalar) as the output of one non-elementwise op.

    An overflow check is a chain of scalar ``and``s, one per gradient. Elementwise and cheap, it
    is copied by XLA's fusion into every consumer, here every state's select: parameters x states
    operations, so a ConvNeXt's loss-scaled step compiled for many minutes. XLA does not duplicate
    a dynamic-update-slice, and the CPU compiler drops an ``optimization_barrier`` before fusion,
    so the flag is written into a two-element array and reduced once.
    """
    return jnp.all(jax.lax.dynamic_update_index_in_dim(jnp.ones(2, bool), flag, 0, 0))


def write_states(states, values):
    """Rebind ``states`` to ``values``: the write-back of ``sporax.state.lifting`` for a converted ``if``
    or loop, whose written states are those any of its branches (``Lift.written``) wrote."""
    for state, value in zip(states, values):
        state._array = value


def update_if(condition, update, values, *operands):
    """``update(values, *operands)`` when ``condition`` holds, else ``values`` unchanged, as arrays.

    ``values`` is a list of arrays that ``update`` returns new versions of (same shapes and dtypes).
    Eagerly (``condition`` concrete) it is a Python ``if``. Under a trace it is a loop that runs
    ``update`` once or not at all: XLA updates a loop's state in place, so when ``condition`` is false
    the arrays are neither read nor written, where ``where(condition, update(...), values)`` reads
    and rewrites every one of them (and, for donated buffers read elsewhere, copies them first).
    Values equal those of the ``where`` form bit for bit.

    Example:
        >>> import jax.numpy as jnp
        >>> from sporax.state.conditional import update_if
        >>> update_if(jnp.float32(0.9) > 0, lambda values, step: [v + step for v in values], [jnp.zeros(2, jnp.float32)], 1.0)
        [Array([1., 1.], dtype=float32)]
    """
    value = condition._value if isinstance(condition, Tensor) else condition
    if not isinstance(value, jax.core.Tracer):
        return list(update(list(values), *operands)) if bool(value) else list(values)
    # A loop keeps its state's dtypes; the where form promotes (float16 moments, a float32 momentum).
    results = jax.eval_shape(lambda values: list(update(values, *operands)), list(values))
    values = [old if old.dtype == new.dtype else old.astype(new.dtype) for old, new in zip(values, results)]

    def body(carry):
        _, current = carry
        return jnp.asarray(False), list(update(list(current), *operands))

    _, values = jax.lax.while_loop(lambda carry: carry[0], body,
                                   (jnp.asarray(value, bool).reshape(()), list(values)))
    return values
