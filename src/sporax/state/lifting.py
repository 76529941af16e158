"""The one lift: a stateful function as the pure function a JAX transform takes, and its write-back.

Every transform sporax applies to user Python — a compiled program, the sink loop's ``scan``,
``grad``, ``vjp``/``jvp``/``vmap``/jacobians, ``recompute``, Cell backward hooks, a custom
``bprop``, converted ``if``/``while``, ``export`` — lifts state through ``Lift`` (DESIGN 2.3):

``Lift(function, states, name)`` is ``pure(values, *args, **kwargs) -> (outputs, new_values)``.
While ``pure`` runs, each of ``states`` holds its entry of ``values`` and an active scope owns it
(so ``ops.assign`` may store tracers there); the function runs; every slot is read into
``new_values`` (outputs are read first, so a returned Parameter carries its value at the end);
then the original arrays are restored, whatever happened. The leak guard
(``sporax.state.guards``) checks Parameters no scope owns.

**The write-back rule.**

* *Which slots:* exactly the *written* states — those whose slot the function rebound
  (``new is not old``: ``ops.assign``, ``set_data``, an in-place method, an optimizer update),
  as recorded by the latest run of ``pure``. A state the function only read is never rebound,
  so its buffer is neither copied nor donated.
* *When:* once per user call, outside the transform, after it returned (``write_back``): the
  stored values are what came out of the transform — concrete arrays, or an enclosing trace's
  tracers, which that trace's own lift writes back in turn. Nesting composes level by level.
  Only the run that produces the user's result writes back; a transform's replays of the
  function (a backward pass that recomputes the forward pass, a shadow run) do not, so an update
  happens once.
* *On error:* nothing is written back: an exception in the function or in the transform leaves
  every slot holding exactly what it held before the call.

A converted ``if``/``switch`` writes back the states any branch wrote (each selected by the
condition). Where a transform's outputs cannot carry a state's new value, the state is read-only
there and its writes are dropped: ``export`` freezes a graph (no state survives it); ``vmap`` has
no single value to store for per-example state (it writes back the Tensor arguments it maps,
along their axis); ``linearize`` and the bodies of the functional ``switch``/``while_loop`` ops
take arrays only (``sporax.autodiff.transforms``).

Example:
    >>> import jax
    >>> from sporax import Tensor
    >>> from sporax.state.lifting import Lift
    >>> counter = Tensor([1.0])
    >>> def step(x):
    ...     counter._array = counter._value + x._value
    ...     return x
    >>> lifted = Lift(step, [counter], "step")
    >>> _, new_values = jax.jit(lifted)(lifted.values(), Tensor([2.0]))
    >>> lifted.write_back(new_values)
    >>> float(counter.asnumpy()[0])
    3.0
"""
from sporax.state.binding import Bound, detach_outputs, read_values
from sporax.state.parameter_storage import after_store


class Lift:
    """``function`` with ``states`` lifted: call it as ``pure(values, *args, **kwargs)``.

    Args:
        function (Callable): the stateful function (a Cell, a construct, a user function).
        states (list): the Parameters and state Tensors it may touch, ordered and de-duplicated.
        name (str): the function's name in errors.

    Attributes:
        written (list[bool]): per state, whether the latest run rebound its slot (None before a run).
    """

    __slots__ = ("function", "states", "name", "written", "_written_states", "walked", "joined", "__weakref__")

    def __init__(self, function, states, name, walked=None):
        self.function = function
        self.states = list(states)
        self.name = name
        self.written = None
        self._written_states = None
        self.walked = walked  # the scope's ``walked`` (``sporax.state.scope.LiftScope``)
        self.joined = False  # the latest run's scope saw a compiled join (``sporax.state.scope``)

    def values(self):
        """The states' current arrays (what ``pure`` takes), materialising lazily initialised ones."""
        return read_values(self.states)

    def __call__(self, values, *args, **kwargs):
        with Bound(self.states, values, self.name, self.walked) as binding:
            outputs = detach_outputs(self.function(*args, **kwargs))
        new_values = binding.new_values
        self.joined = binding.scope.joined
        self.written = [new is not old for new, old in zip(new_values, values)]
        self._written_states = None
        return outputs, new_values

    def written_states(self):
        """The states the latest run wrote, in order."""
        if self._written_states is None:
            self._written_states = [state for state, flag in zip(self.states, self.written) if flag]
        return self._written_states

    def written_values(self, new_values):
        """The entries of ``new_values`` (one per state) that belong to written states."""
        return [value for value, flag in zip(new_values, self.written) if flag]

    def write_back(self, new_values):
        """Store ``new_values`` (one per state, as ``pure`` returns them) into the written states."""
        for state, value, flag in zip(self.states, new_values, self.written):
            if flag:
                state._array = value
        after_store(self.written_states())

    def store_written(self, written_values):
        """Store ``written_values`` (one per written state, in order) into the written states."""
        store(self.written_states(), written_values)


def store(written_states, written_values):
    """The write-back itself: rebind each written state to its new value.

    For holders of ``Lift.written_states()`` that should not keep the Lift (and the function it
    references) alive: a compiled program keeps only the states it writes.
    """
    for state, value in zip(written_states, written_values):
        state._array = value
    after_store(written_states)


def lift(function, states, name=None):
    """``Lift(function, states, name)``, named after the function when ``name`` is None."""
    return Lift(function, states, name or getattr(function, "__qualname__", None) or type(function).__name__)
