"""Which Parameters a call may touch (DESIGN section 2.2), ordered and de-duplicated.

* A Cell: its whole tree, trainable and not (``parameters_and_names``), plus Parameters held in
  plain attributes (ParameterTuples of an optimizer, lists) and in objects that say what they reach
  (``_sporax_reachable``: a seeded Primitive's stream counter, a grad function's weights).
* A free function: what its code can reach — closure variables, the globals its code names,
  default arguments, bound ``self`` — walked recursively through functions, Cells, containers
  and sporax's own wrappers (a ``grad`` function exposes the function it differentiates).
  The walk runs once per function; later calls only re-check that the directly referenced
  objects are the same ones (a few dictionary lookups).
* Always the global RNG state, so random ops under jit advance it (section 2.6).

The trace that follows is the recording pass: a Parameter the walk missed but the function
reads shows up as a captured constant, one it writes trips the leak guard
(``sporax.state.guards``), and the caller re-traces with it added.
"""
import functools
import types
import weakref

from sporax.core import random_state
from sporax.core.tensor import Tensor
from sporax.state import guards

_MAX_CONTAINER_ITEMS = 4096
_MAX_OBJECT_DEPTH = 3
_SKIP_TYPES = (str, bytes, int, float, complex, bool, type(None), types.ModuleType, type,
               types.BuiltinFunctionType, types.CodeType)


def is_parameter(value):
    """A Parameter: a Tensor subclass that carries a name (``sporax.core.parameter.Parameter``)."""
    return isinstance(value, Tensor) and type(value) is not Tensor and hasattr(value, "requires_grad")


def is_cell(value):
    return hasattr(value, "parameters_and_names") and hasattr(value, "construct") and not isinstance(value, type)


def rng_state():
    """The Tensor holding the global RNG key."""
    return random_state.global_state


class Discovered:
    """The lifted state of one callable: ``states`` (RNG first) and the Cells whose flags matter."""

    __slots__ = ("states", "cells", "extra", "_flags", "_flags_epoch", "_phase_flags")

    def __init__(self, states, cells):
        self.states = states
        self.cells = cells
        self.extra = []
        self._flags_epoch = None
        self._phase_flags = None

    def training_flags(self):
        # The static epoch changes when Cell hooks/recompute change: programs traced before recompile.
        # The flags are read again only after some Cell's ``training`` changed (a per-call walk
        # of the tree would be host time on every compiled step).
        epoch = (_training_epoch[0], _static_epoch[0])
        if epoch != self._flags_epoch:
            self._flags = tuple([cell.training for cell in self.cells]) + (_static_epoch[0],)
            self._flags_epoch = epoch
        return self._flags

    def phase_flags(self, phase):
        """The static signature of a GRAPH_MODE Cell's call: its own phase and the static epoch (the
        same object while neither changes, as ``training_flags``)."""
        flags = self._phase_flags
        if flags is None or flags[0] != phase or flags[1] != _static_epoch[0]:
            flags = self._phase_flags = (phase, _static_epoch[0])
        return flags

    def add(self, states):
        """Add Parameters found by a recording trace; returns True when any was new."""
        present = {id(state) for state in self.states}
        new = [state for state in states if id(state) not in present]
        self.states.extend(new)
        self.extra.extend(new)
        return bool(new)


class _Walker:
    def __init__(self):
        self.states = []
        self.cells = []
        self.seen = set()

    def add_state(self, state):
        self.states.append(state)

    def walk(self, value, depth=0):
        if isinstance(value, _SKIP_TYPES):
            return
        key = id(value)
        if key in self.seen:
            return
        self.seen.add(key)
        if isinstance(value, Tensor):
            if is_parameter(value):
                self.add_state(value)
            return
        if is_cell(value):
            self.walk_cell(value)
            return
        states_of = getattr(type(value), "_sporax_reachable", None)
        if states_of is not None:
            for item in states_of(value):
                self.walk(item, depth)
            return
        if isinstance(value, types.FunctionType):
            self.walk_function(value)
        elif isinstance(value, types.MethodType):
            self.walk(value.__self__, depth)
            self.walk(value.__func__, depth)
        elif isinstance(value, functools.partial):
            self.walk(value.func, depth)
            for item in value.args:
                self.walk(item, depth)
            for item in value.keywords.values():
                self.walk(item, depth)
        elif isinstance(value, (list, tuple, set, frozenset)):
            for item in list(value)[:_MAX_CONTAINER_ITEMS]:
                self.walk(item, depth)
        elif isinstance(value, dict):
            for item in list(value.values())[:_MAX_CONTAINER_ITEMS]:
                self.walk(item, depth)
        elif depth < _MAX_OBJECT_DEPTH and hasattr(value, "__dict__") and not callable(getattr(value, "__array__", None)):
            for item in list(vars(value).values()):
                self.walk(item, depth + 1)

    def walk_cell(self, cell):
        subs = [sub for _, sub in _cells_of(cell)]
        self.cells.extend(subs)
        for _, parameter in cell.parameters_and_names():
            self.add_state(parameter)
        # Every Cell below is covered by the loop below: marked seen first, so a child met in a parent's
        # ``_cells`` dict is not walked again with its own subtree (one pass over the tree, not one per level).
        self.seen.update(id(sub) for sub in subs)
        for sub in subs:
            for value in vars(sub).values():
                if isinstance(value, (list, tuple, dict)) or is_parameter(value):
                    self.walk(value, 1)
                elif isinstance(value, (types.FunctionType, types.MethodType, functools.partial)):
                    self.walk(value, 1)
                elif getattr(type(value), "_sporax_reachable", None) is not None:  # a Primitive, a grad function
                    self.walk(value, 1)

    def walk_function(self, function):
        for item in direct_references(function):
            self.walk(item)


def _cells_of(cell):
    cells_and_names = getattr(cell, "cells_and_names", None)
    if cells_and_names is not None:
        return list(cells_and_names())
    return [("", cell)]


def _code_names(code, names):
    names.update(code.co_names)
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            _code_names(constant, names)
    return names


_names_of_code = weakref.WeakKeyDictionary() if hasattr(types.CodeType, "__weakref__") else {}


def code_names(code):
    """The global names ``code`` (and the code nested in it) refers to, sorted."""
    names = _names_of_code.get(code)
    if names is None:
        names = tuple(sorted(_code_names(code, set())))
        _names_of_code[code] = names
    return names


def direct_references(function, names=None):
    """The objects a function's code can reach directly: closure cells, named globals, defaults.

    ``names``: ``code_names(function.__code__)`` when the caller keeps it (the per-call check)."""
    if names is None:
        names = code_names(function.__code__)
    references = []
    for cell in function.__closure__ or ():
        try:
            references.append(cell.cell_contents)
        except ValueError:  # an empty cell: the variable is not assigned yet
            pass
    global_names = function.__globals__
    for name in names:
        value = global_names.get(name, None)
        if value is not None:
            references.append(value)
    references.extend(function.__defaults__ or ())
    if function.__kwdefaults__:
        references.extend(function.__kwdefaults__.values())
    wrapped = getattr(function, "__wrapped__", None)
    if wrapped is not None:
        references.append(wrapped)
    return references


def discover(*roots):
    """Walk ``roots`` (functions, Cells, Parameters, containers); RNG state first."""
    walker = _Walker()
    walker.add_state(rng_state())
    for root in roots:
        walker.walk(root)
    states = _unique(walker.states)
    cells = _unique(walker.cells)
    guards.remember(states)
    return Discovered(states, cells)


def _unique(values):
    seen, result = set(), []
    for value in values:
        if id(value) not in seen:
            seen.add(id(value))
            result.append(value)
    return result


# Bumped with each counter below and whenever hooks change (Tensor, Cell and saved-tensor hooks): one
# integer that a PyNative step's straight path compares (``change_count``, issue 26), where the path it
# replaces re-checks hooks, discovery and flags on every call.
_changes = [0]


def hooks_changed():
    """Tell the straight paths that some hook was registered, removed, entered or left."""
    _changes[0] += 1


def change_count():
    """A count that moves whenever a Cell tree, a ``training`` flag or any hook changed."""
    return _changes[0]


# Bumped by nn's Cell whenever a Cell or Parameter is attached, replaced or removed anywhere, so
# cached discoveries know when to walk again (one integer compare per call otherwise).
_structure_version = [0]


def structure_changed():
    """Tell the discovery caches that some Cell tree changed (called by ``nn.Cell``)."""
    _structure_version[0] += 1
    _changes[0] += 1


def structure_version():
    return _structure_version[0]


# Bumped when something a trace bakes in besides the training flags changes (a Cell hook is
# registered or removed, ``recompute()`` is set): compile caches key on it.
_static_epoch = [0]


def static_signature_changed():
    """Tell the compile caches that programs traced so far may be stale (called by Cell hooks)."""
    _static_epoch[0] += 1
    _changes[0] += 1


# Bumped whenever a Cell's ``training`` flag is set (``set_train``, assignment).
_training_epoch = [0]


def training_changed():
    """Tell the compile caches to read the ``training`` flags again (called when one is set)."""
    _training_epoch[0] += 1
    _changes[0] += 1


def training_epoch():
    """The count of ``training_changed`` calls (when a GRAPH_MODE gradient function was made: its phase)."""
    return _training_epoch[0]


def static_epoch():
    """The count of ``static_signature_changed`` calls (a cache key for what Cell hooks decide)."""
    return _static_epoch[0]


def reaches_cell_hooks(discovered, cache, forward):
    """True when a Cell the function reaches has backward (pre-)hooks, or, with ``forward``, forward
    (pre-)hooks or saved-tensor hooks (see ``sporax.nn.cell_hooks``).

    Hooks run on every call with real values: a hook may print them, keep them (a list of features
    or gradients) or count its calls, none of which a program compiled once can replay. GRAPH_MODE
    compiles forward hooks into the program, as MindSpore does. Registering or removing a hook bumps
    the static epoch, so the answer is cached per discovery, epoch and ``forward``."""
    epoch = _static_epoch[0]
    if cache and cache[0] is discovered and cache[1] == (epoch, forward):
        return cache[2]
    found = any(hooks is not None and bool(hooks.backward or hooks.backward_pre
                                           or (forward and (hooks.forward_pre or hooks.forward
                                                            or hooks.saved_tensors)))
                for hooks in (cell.__dict__.get("_hooks") for cell in discovered.cells))
    cache[:] = [discovered, (epoch, forward), found]
    return found


def _same(first, second):
    return ([id(s) for s in first.states] == [id(s) for s in second.states]
            and [id(c) for c in first.cells] == [id(c) for c in second.cells])


class DiscoveryCache:
    """Discovery of some roots, re-walked only when what their functions reference changed or
    a Cell tree changed; the same ``Discovered`` object is kept when the walk finds the same state."""

    __slots__ = ("roots", "fingerprint", "discovered", "version", "_functions")

    def __init__(self, *roots):
        self.roots = roots
        self.fingerprint = None
        self.discovered = None
        self.version = -1
        functions = [root.__func__ if isinstance(root, types.MethodType) else root for root in roots]
        # [function, its code, that code's global names]: checked on every call, the names found once per code.
        self._functions = [[function, None, None] for function in functions if isinstance(function, types.FunctionType)]

    def _fingerprint(self):
        fingerprint = []
        for entry in self._functions:
            function, code = entry[0], entry[0].__code__
            if code is not entry[1]:
                entry[1], entry[2] = code, code_names(code)
            fingerprint.extend(map(id, direct_references(function, entry[2])))
        return tuple(fingerprint)

    def unchanged(self):
        """Whether ``get()`` would answer what it answered last, without a walk (nothing it checks moved)."""
        return (self.discovered is not None and self.version == _structure_version[0]
                and (not self._functions or self._fingerprint() == self.fingerprint))

    def get(self):
        fingerprint = self._fingerprint()
        discovered = self.discovered
        version = _structure_version[0]
        if discovered is None or fingerprint != self.fingerprint or version != self.version:
            extra = discovered.extra if discovered is not None else []
            fresh = discover(*self.roots)
            fresh.add(extra)
            if discovered is None or not _same(fresh, discovered):
                self.discovered = discovered = fresh
            self.fingerprint = fingerprint
            self.version = version
        return discovered
