"""The leak guard: a traced value must never stay in a Parameter no active trace owns.

A Parameter that a jit/grad did not lift but that the user's function assigns to would keep a
tracer after the trace ends; JAX would fail much later with an unreadable error. sporax keeps a
weak registry of the Parameters it has seen (through Cell trees, function closures and the
Parameter constructor when it reports them), snapshots those a trace does not own, and after the
trace restores any that received a tracer and raises ``StateLeakError`` naming the Parameter and
the function.

Setters that can cheaply check at store time (``Parameter.set_data``, ``ops.assign``) call
``check_store(parameter, value, op_name)``.
"""
import weakref

import jax

from sporax.state.scope import active_scopes, current_scope, owned_by_active_scope

# id -> weak reference. (A WeakSet would compare Tensors with ==, which is elementwise.)
_known_states = {}


class StateLeakError(RuntimeError):
    """A value being compiled was stored into a Parameter that the compiled function does not own."""


def remember(states):
    """Add Parameters (or state Tensors) to the registry the leak guard watches."""
    for state in states:
        key = id(state)
        if key not in _known_states:
            _known_states[key] = weakref.ref(state, lambda _, key=key: _known_states.pop(key, None))


def known_states():
    """The registered states still alive."""
    states = []
    for reference in list(_known_states.values()):
        state = reference()
        if state is not None:
            states.append(state)
    return states


def _describe(state):
    name = getattr(state, "name", None)
    return f"Parameter '{name}'" if name else f"state tensor {type(state).__name__}(shape={state.shape})"


def snapshot_unowned(owned_states):
    """Arrays of the known states that neither this trace nor an enclosing one owns."""
    owned = {id(state) for state in owned_states}
    snapshot = []
    for state in known_states():
        if id(state) not in owned and not owned_by_active_scope(state):
            snapshot.append((state, state._array))
    return snapshot


def restore_leaks(snapshot):
    """Put back the original arrays of snapshot states that now hold a tracer; return them."""
    leaked = []
    for state, original in snapshot:
        current = state._array
        if current is not original and isinstance(current, jax.core.Tracer):
            state._array = original
            leaked.append(state)
    return leaked


def leak_error(leaked, function_name):
    names = ", ".join(_describe(state) for state in leaked)
    error = StateLeakError(
        f"{function_name}: {names} was assigned a value computed inside the compiled or "
        f"differentiated function '{function_name}', but that function does not own it, so the "
        "new value would be lost (it only exists while compiling). Make the Parameter reachable "
        "from the function: an attribute of the Cell being compiled, a variable the function "
        "closes over, or an argument; or update it outside the compiled function.")
    error.states = list(leaked)
    return error


def check_store(state, value, op_name="assign"):
    """Raise StateLeakError when ``value`` is a tracer and no active trace owns ``state``.

    Cheap when nothing is being traced: one isinstance check.
    """
    array = getattr(value, "_array", value)
    # A Tensor that already holds a tracer was made inside the running trace (an intermediate such as
    # ``y = x * x`` before ``y.add_(1)``): rebinding it changes only values of that trace.
    if (isinstance(array, jax.core.Tracer) and active_scopes() and not isinstance(state._array, jax.core.Tracer)
            and not owned_by_active_scope(state)):
        scope = current_scope()
        raise leak_error([state], scope.name if scope is not None else op_name)
