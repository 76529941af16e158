"""Bind values into Parameters for the length of a trace, read them back, restore them.

The mechanics under ``sporax.state.lift.Lift`` (the one lift every transform uses): incoming
values (tracers) are bound into the Parameters' slots while an active scope owns them, the
user's Python runs and may rebind slots (``ops.assign``, ``set_data``), every slot is read
back, and the original arrays are restored in ``finally`` — so a failed trace never leaves a
tracer behind.

Example:
    >>> import jax.numpy as jnp
    >>> from sporax import Tensor
    >>> from sporax.state.binding import Bound
    >>> state = Tensor([1.0])
    >>> with Bound([state], [jnp.full(1, 3.0)], "example") as binding:
    ...     state._array = state._value + 1
    >>> float(binding.new_values[0][0]), float(state.asnumpy()[0])
    (4.0, 1.0)
"""
from sporax.core.tensor import Tensor
from sporax.state.arguments import MutableScalar
from sporax.state import guards
from sporax.state.ordered_outputs import dict_kind, same_kind
from sporax.state.scope import pop_scope, push_scope


def read_values(states):
    """The current arrays of ``states``, materialising lazily initialised Parameters."""
    return [state._value for state in states]


def bind_values(states, values):
    for state, value in zip(states, values):
        state._array = value


def detach_outputs(value, bound=frozenset()):
    """Replace every Tensor subclass (Parameter) in an output structure, and the plain Tensors whose ids are in
    ``bound`` (inputs bound by ``arguments.bound_inputs``), by a plain Tensor.

    Outputs are read while the traced values are still bound: a returned Parameter must
    carry the value it had at the end of the function, not the one restored afterwards.
    """
    if isinstance(value, Tensor):
        if (type(value) is Tensor and id(value) not in bound) or type(value) is MutableScalar:
            return value  # a mutable number holds no bound state
        return Tensor._wrap(value._value)
    if isinstance(value, tuple):
        items = [detach_outputs(item, bound) for item in value]
        if hasattr(value, "_fields"):
            return type(value)(*items)
        return tuple(items)
    if isinstance(value, list):
        return [detach_outputs(item, bound) for item in value]
    if isinstance(value, dict):  # of its own class (an OrderedDict, a ModelOutput), as MindSpore returns it
        return same_kind(dict_kind(value), ((key, detach_outputs(item, bound)) for key, item in value.items()))
    return value


class Bound:
    """Context manager: ``states`` hold ``values`` (and an active scope owns them) inside.

    On exit the arrays present at the end are kept in ``new_values`` and the originals are
    restored. The leak guard runs on a clean exit.
    """

    __slots__ = ("states", "values", "name", "saved", "scope", "new_values", "snapshot", "walked")

    def __init__(self, states, values, name, walked=None):
        self.states = states
        self.values = values
        self.name = name
        self.new_values = None
        self.walked = walked

    def __enter__(self):
        states = self.states
        self.saved = [state._array for state in states]
        self.snapshot = guards.snapshot_unowned(states)
        self.scope = push_scope(states, self.name, self.walked)
        bind_values(states, self.values)
        return self

    def __exit__(self, exc_type, exc, traceback):
        states = self.states
        try:
            self.new_values = [state._array for state in states]
        finally:
            bind_values(states, self.saved)
            pop_scope(self.scope)
            leaked = guards.restore_leaks(self.snapshot)
        if leaked and exc_type is None:
            raise guards.leak_error(leaked, self.name)
        return False
