"""Lifting scopes: which Parameters the traces now running own.

A scope is pushed while a jit or grad traces a user's Python with its Parameters bound to
tracers. Scopes nest (grad inside jit); the stack is thread-local, because a data pipeline's
worker threads may run eager ops while the main thread traces.

Example:
    >>> from sporax.state.scope import is_tracing
    >>> is_tracing()
    False
"""
import contextlib
import threading

from sporax.core import jax_private
from sporax.core.parameter import CREATION_LISTENERS, slot_writes
from sporax.core.tensor import Tensor


class LiftScope:
    """One active trace: the Parameters (and the RNG state) it binds, its function's name, and ``walked``:
    ``(structure version, ids of the Cells)`` whose trees the discovery of those Parameters walked, or None.
    ``joined``: whether a compiled join (``note_control_flow_join``) ran in it; ``updated``: ids of the Tensors
    that ``x += y`` updated in place in it; ``branch_inputs``: ids of the Tensors a converted branch's trace got
    as its variables (``x += y`` may update those in place, though they hold the enclosing trace's values).
    ``calls``: the last call of each Cell run inline in it (``note_cell_call``). ``constants``: what
    ``constexpr`` functions returned while it traced, and other per-graph memos (``graph_constant_cache``; used on
    the outermost scope). ``parameter_results``: the results of ``x op= y`` on a Parameter, by id, with that
    Parameter (``parameter_behind``)."""

    __slots__ = ("owned", "name", "states", "walked", "joined", "updated", "branch_inputs", "calls", "constants",
                 "parameter_results")

    def __init__(self, owned_states, name, walked=None):
        self.owned = {id(state) for state in owned_states}
        self.name = name
        self.states = owned_states
        self.walked = walked
        self.joined = False
        self.updated = set()
        self.branch_inputs = ()
        self.calls = {}
        self.constants = None
        self.parameter_results = {}


class _ScopeStack(threading.local):
    def __init__(self):
        self.scopes = []


_stack = _ScopeStack()


def is_tracing():
    """True while a sporax jit/grad traces Python (Parameters then hold tracers)."""
    return bool(_stack.scopes)


def active_scopes():
    """The scopes now active, innermost last (do not mutate)."""
    return _stack.scopes


def current_scope():
    """The innermost active scope, or None."""
    scopes = _stack.scopes
    return scopes[-1] if scopes else None


def owned_by_active_scope(state):
    """True when some active scope binds ``state`` (a Parameter or the RNG state Tensor)."""
    key = id(state)
    for scope in _stack.scopes:
        if key in scope.owned:
            return True
    return False


def lifted_states():
    """Every state the active scopes bind (de-duplicated, outermost first)."""
    seen, states = set(), []
    for scope in _stack.scopes:
        for state in scope.states:
            if id(state) not in seen:
                seen.add(id(state))
                states.append(state)
    return states


def note_control_flow_join():
    """A compiled loop on a tensor condition (or an ``if`` whose branches write a Parameter) just ended in the
    running trace. MindSpore's graph runs the code after it as another graph that takes the variables as
    inputs: an input Tensor that no ``x += y`` had updated before reaches it as a copy, so an update there
    stays local (the caller's Tensor keeps its value) while one updated before stays the caller's."""
    scope = current_scope()
    if scope is not None:
        scope.joined = True


def may_update_in_place(tensor):
    """Whether ``x += y`` in the running trace may update ``tensor`` in place (see ``note_control_flow_join``);
    records it when so."""
    scope = current_scope()
    if scope is None:
        return True
    if scope.joined and id(tensor) not in scope.updated:
        return False
    scope.updated.add(id(tensor))
    return True


def note_parameter_result(result, parameter):
    """``result`` is what ``x op= y`` stored into ``parameter``: MindSpore's graph keeps the name bound to the
    Parameter, so a further ``x op= z`` updates it too (``x -= 1; x *= 3``)."""
    scope = current_scope()
    if scope is not None:
        scope.parameter_results[id(result)] = (result, parameter)


def parameter_behind(tensor):
    """The Parameter an ``x op= y`` result of the running trace stands for (``note_parameter_result``), or None."""
    scope = current_scope()
    entry = scope.parameter_results.get(id(tensor)) if scope is not None else None
    return entry[1] if entry is not None and entry[0] is tensor else None


def is_branch_input(tensor):
    """Whether ``tensor`` is one of the variables the running converted branch got (``LiftScope.branch_inputs``)."""
    scope = current_scope()
    return scope is not None and id(tensor) in scope.branch_inputs


def note_cell_call(cell, args):
    """A Cell just ran inline in the running trace: remember its arguments and how many Parameter writes had
    happened by then (for ``forward_already_ran``)."""
    scope = current_scope()
    if scope is not None:
        scope.calls[id(cell)] = (cell, args, slot_writes[0])


def forward_already_ran(cell, args):
    """Whether the running trace's last call of ``cell`` had these very arguments and no Parameter was written
    since. MindSpore's graph compiler merges ``loss = net(x)`` and a gradient of ``net`` at ``x`` that follows
    into one forward pass (a BatchNorm in ``net`` moves its statistics once); PyNative runs both. Asked
    before the gradient's own forward pass runs."""
    scope = current_scope()
    record = scope.calls.get(id(cell)) if scope is not None else None
    if record is None or record[0] is not cell or len(record[1]) != len(args) or record[2] != slot_writes[0]:
        return False
    return all(given is seen for given, seen in zip(args, record[1]))


def graph_constant_cache(kind="constexpr"):
    """A dict the outermost running trace keeps until it ends (None when nothing traces): ``kind`` names its
    user (``constexpr`` results; ``fusion``: products a graph compiler would fuse with the op that follows)."""
    scopes = _stack.scopes
    if not scopes:
        return None
    if scopes[0].constants is None:
        scopes[0].constants = {}
    return scopes[0].constants.setdefault(kind, {})


def push_scope(owned_states, name, walked=None):
    scope = LiftScope(owned_states, name, walked)
    _stack.scopes.append(scope)
    return scope


def pop_scope(scope):
    scopes = _stack.scopes
    if scopes and scopes[-1] is scope:
        scopes.pop()
    elif scope in scopes:
        scopes.remove(scope)


def _own_created_parameter(parameter):
    # A Parameter created while a trace runs is initialised inside it (its value is that trace's
    # constant or tracer): the innermost trace owns it, so Cells built in the trace can run there.
    scopes = _stack.scopes
    if scopes:
        scopes[-1].owned.add(id(parameter))


CREATION_LISTENERS.append(_own_created_parameter)


class _CompiledDepth(threading.local):
    depth = 0


_compiled_depth = _CompiledDepth()


@contextlib.contextmanager
def compiling():
    """Mark the trace that runs inside as an ``ms.jit`` compilation (not a PyNative gradient)."""
    _compiled_depth.depth += 1
    try:
        yield
    finally:
        _compiled_depth.depth -= 1


def compiled_depth():
    """How many ``ms.jit`` compilations run nested here (1: the outermost one only)."""
    return _compiled_depth.depth


def compiling_graph():
    """True while ``ms.jit`` compiles (before its trace starts too) or in GRAPH_MODE: MindSpore's graph
    syntax rules apply to the Python being compiled."""
    from sporax.core.context import GRAPH_MODE, get_mode

    return _compiled_depth.depth > 0 or get_mode() == GRAPH_MODE


def in_compiled_trace():
    """True while Python runs to build a graph: inside an ``ms.jit`` trace, or any trace in GRAPH_MODE.

    (A PyNative gradient traces too, but it stands for eager execution: False there.) Ops whose
    result MindSpore's graph compiler types differently from PyNative (``Tensor.max(axis)``) read it."""
    from sporax.core.context import GRAPH_MODE, get_mode

    return is_tracing() and (_compiled_depth.depth > 0 or get_mode() == GRAPH_MODE)


class _AttributeWrites(threading.local):
    def __init__(self):
        self.logs = []


_attribute_writes = _AttributeWrites()


@contextlib.contextmanager
def recording_attribute_writes():
    """While a program traces its Python: the ``(cell, name)`` pairs it sets to a traced Tensor, in order.

    MindSpore's graph writes such an attribute's run-time value back to the Cell (``self.last = x + 1``
    in ``construct``); the program returns those values and sets them after each run."""
    log = []
    _attribute_writes.logs.append(log)
    try:
        yield log
    finally:
        _attribute_writes.logs.pop()


def note_attribute_write(owner, name):
    """Called by ``Cell.__setattr__`` when ``owner.name`` receives a Tensor being traced."""
    logs = _attribute_writes.logs
    if logs:
        logs[-1].append((owner, name))


def traced_attributes(writes):
    """``[(cell, name, tensor)]``: each attribute in ``writes`` (a ``recording_attribute_writes`` log)
    that still holds a Tensor traced by the trace running now, in the order first written."""
    seen, attributes = set(), []
    for owner, name in reversed(writes):
        key = (id(owner), name)
        if key in seen:
            continue
        seen.add(key)
        value = owner.__dict__.get(name)
        if isinstance(value, Tensor) and jax_private.of_current_trace(value._array):
            attributes.append((owner, name, value))
    return attributes[::-1]

