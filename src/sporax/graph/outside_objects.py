"""Python objects that live outside a compiled function: lists it returns, lists and attributes it changes.

MindSpore's graph keeps a Python list or dict that exists before the call -- a module-level list, an item of
one, a list argument, a list attribute of a Cell or of a ``jit_class`` instance -- as that Python
object: ``return global_list``, ``return self.x[0]`` or ``y = x[0]; y.reverse(); return y`` give
back the object itself (``id(output) == id(global_list)``), its in-place changes included. A
compiled sporax program rebuilds its outputs from a tree structure, which makes copies; ``Outside``
records, while the function is traced, which output positions hold such an outside list, and
``restore`` puts the objects back after each call. A list created by the function itself stays a
fresh copy per call, and so does any list that holds a traced value.

MindSpore also runs list and dict changes (``append``, ``reverse``, ``pop``, ``d[k] = v``, ...) on
outside lists and dicts, and
attribute updates that read the attribute first (``self.count = self.count + 1``, ``obj.x += 1`` on a
number, a Tensor or a NumPy array that is no Parameter), at every call, where a trace runs the
Python once (it drops a change to a container that the function neither reads afterwards nor returns,
``log.append(x)``; so does ``undo_changes``). A function that does either has its trace's changes
undone (``Outside.undo_changes``) and runs eagerly on every call.

Example:
    >>> outside = Outside(function, args, kwargs)              # in the trace, before the call
    >>> outputs = function(*args, **kwargs)
    >>> outputs, sources = outside.returned_sources(outputs)
    >>> rerun = outside.undo_changes()
    >>> outputs = restore(program(arrays), sources, args)      # after each compiled call
"""
import dis
import types

import jax
import numpy as np

from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor
from sporax.state.fallback import ExplainedFallback, warn_fallback

_DEPTH = 4  # how deep containers and objects are searched for outside lists
_MISSING = object()
_MUTATORS = {"append", "extend", "insert", "reverse", "remove", "clear", "sort", "update", "setdefault", "pop",
             "popitem"}


def _is_object(value):
    """A user object whose attributes may hold lists (not a module, function, class or Tensor)."""
    return (hasattr(value, "__dict__") and not isinstance(value, (type, types.ModuleType, types.FunctionType,
                                                                    types.MethodType, Tensor)))


def _public(obj):
    return {name: value for name, value in vars(obj).items() if not name.startswith("_")}


class _Walk:
    """The lists and dicts (id -> ``(path, container)``) and objects (id -> object) reachable from some roots
    through sequences, dicts and public attributes; ``path`` (indices and keys) locates a container among the
    positional arguments."""

    def __init__(self):
        self.lists, self.objects, self.names = {}, {}, {}

    def visit(self, value, name, path=None, depth=_DEPTH):
        """``name``: the variable or attribute name the code reaches ``value`` (or what holds it) by."""
        if depth < 0:
            return
        if type(value) in (list, dict):
            self.lists.setdefault(id(value), (path, value))
            self.names.setdefault(id(value), set()).add(name)
        if isinstance(value, (list, tuple, dict)):
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for index, item in items:
                if isinstance(item, (list, tuple, dict)) or _is_object(item):
                    self.visit(item, name, _step(path, index), depth - 1)
        elif _is_object(value) and id(value) not in self.objects:
            self.objects[id(value)] = value
            for attribute, item in _public(value).items():
                if isinstance(item, (list, tuple, dict)) or _is_object(item):
                    self.visit(item, attribute, None, depth - 1)


def _names(code):
    names = set(code.co_names)
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            names |= _names(constant)
    return names


def _read_names(code):
    """The names ``code`` (and the functions it defines) loads for another use than calling a list or dict
    method that changes it (``lst.append(...)``): MindSpore's graph drops a change to a container that
    nothing reads or returns."""
    instructions = list(dis.get_instructions(code))
    names = set()
    for current, following in zip(instructions, instructions[1:] + [None]):
        if current.opname in ("LOAD_GLOBAL", "LOAD_NAME", "LOAD_FAST", "LOAD_DEREF", "LOAD_ATTR", "LOAD_METHOD"):
            if following is not None and following.opname in ("LOAD_METHOD", "LOAD_ATTR") \
                    and following.argval in _MUTATORS:
                continue
            names.add(current.argval)
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            names |= _read_names(constant)
    return names


def _read_attributes(code):
    """The attribute names ``code`` (and the functions it defines) reads before it first stores them: an
    update from the attribute's own value (``self.a = self.a + 1``), not a value stored and read back."""
    loads, stores = {}, {}
    for index, instruction in enumerate(dis.get_instructions(code)):
        if instruction.opname in ("LOAD_ATTR", "LOAD_METHOD"):
            loads.setdefault(instruction.argval, index)
        elif instruction.opname == "STORE_ATTR":
            stores.setdefault(instruction.argval, index)
    names = {name for name, index in loads.items() if index < stores.get(name, index + 1)}
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            names |= _read_attributes(constant)
    return names


def _traced(value):
    leaves = jax.tree_util.tree_leaves(value, is_leaf=lambda leaf: isinstance(leaf, Tensor))
    return any(isinstance(leaf._array if isinstance(leaf, Tensor) else leaf, jax.core.Tracer) for leaf in leaves)


def _containers(value, found=None):
    """The ids of the lists and dicts in ``value`` (nested in tuples, lists and dicts)."""
    found = set() if found is None else found
    if isinstance(value, (list, tuple, dict)) and id(value) not in found:
        if type(value) in (list, dict):
            found.add(id(value))
        for item in value.values() if isinstance(value, dict) else value:
            _containers(item, found)
    return found


def _accumulates(old, new):
    """Whether ``old`` -> ``new`` is the update of a number, Tensor or array attribute (no Parameter) that
    MindSpore's graph makes at every call."""
    numbers = (int, float)
    if isinstance(old, numbers) and isinstance(new, numbers):
        return not isinstance(old, bool) and not isinstance(new, bool) and old != new
    arrays = (Tensor, np.ndarray)
    return isinstance(old, arrays) and isinstance(new, arrays) and not isinstance(old, Parameter) \
        and not isinstance(new, Parameter)


class Outside:
    """The lists and objects that exist before ``function`` runs on ``args``/``kwargs``: list arguments,
    module-level lists and objects ``function`` names, its closure, ``owner`` (a Cell) and what is
    reachable from these (see ``_Walk``)."""

    def __init__(self, function, args, kwargs, owner=None):
        walk = _Walk()
        bound = hasattr(function, "__self__")
        function = getattr(function, "__func__", function)
        code = getattr(function, "__code__", None)
        parameters = code.co_varnames[int(bound):code.co_argcount] if code is not None else ()
        for position, item in enumerate(args):
            walk.visit(item, parameters[position] if position < len(parameters) else None, (position,))
        for name, item in kwargs.items():
            walk.visit(item, name)
        self.read = _read_attributes(code) if code is not None else set()
        self.read_names = _read_names(code) if code is not None else set()
        if code is not None:
            globals_ = getattr(function, "__globals__", {})
            for name in _names(code):
                if name in globals_:
                    walk.visit(globals_[name], name)
            for name, cell in zip(code.co_freevars, getattr(function, "__closure__", None) or ()):
                try:
                    walk.visit(cell.cell_contents, name)
                except ValueError:  # an empty closure cell
                    continue
        if owner is not None:
            walk.visit(owner, "self")
        self.names = walk.names
        self.lists = walk.lists
        self.returned = None  # the ids of the lists and dicts the function returned (returned_sources)
        self.list_items = [(value, dict(value) if isinstance(value, dict) else list(value))
                           for _, value in walk.lists.values()]
        self.attributes = [(obj, _public(obj)) for obj in walk.objects.values()]

    def returned_sources(self, outputs):
        """``(outputs, sources)``: ``sources`` the output positions (index paths and keys into nested tuples,
        lists and dicts) that hold an outside list or dict, with where it comes from: ``(position,
        ("argument", path))`` or ``(position, ("object", container))``; ``outputs`` with such containers
        copied, so that ``undo_changes`` leaves what the trace returned as it was."""
        sources = []

        def visit(value, position):
            entry = self.lists.get(id(value)) if type(value) in (list, dict) and position is not None else None
            if entry is not None and entry[1] is value and not _traced(value):
                path, _ = entry
                sources.append((position, ("argument", path) if path is not None else ("object", value)))
                position = None  # the object itself comes back, with all it holds
            if isinstance(value, (list, tuple)) and not hasattr(value, "_fields"):
                items = [visit(item, _step(position, index)) for index, item in enumerate(value)]
                return items if type(value) is list else type(value)(items)
            if type(value) is dict:
                return {key: visit(item, _step(position, key)) for key, item in value.items()}
            return value

        copied = visit(outputs, ())
        self.returned = None if outputs is None else _containers(outputs)
        return copied, tuple(sources)

    def undo_changes(self):
        """Put back what the trace changed in outside lists and attributes; True when a change must run at
        every call (see the module doc), so the function runs eagerly."""
        rerun = False
        for value, items in self.list_items:
            if isinstance(value, dict):
                changed = value.keys() != items.keys() or any(value[key] is not then for key, then in items.items())
            else:
                changed = len(value) != len(items) or any(now is not then for now, then in zip(value, items))
            if changed:
                # MindSpore's graph drops a change to a container nothing reads or returns (keeps all in a
                # function returning None)
                used = self.returned is None or id(value) in self.returned or self.names[id(value)] & self.read_names
                rerun = rerun or (bool(used) and not _traced(value))
                if isinstance(value, dict):
                    value.clear()
                    value.update(items)
                else:
                    value[:] = items
        for obj, before in self.attributes:
            for name, value in _public(obj).items():
                old = before.get(name, _MISSING)
                if value is not old and name in self.read and _accumulates(old, value):
                    rerun = True
        if rerun:
            for obj, before in self.attributes:
                state = vars(obj)
                for name in [name for name in _public(obj) if name not in before]:
                    del state[name]
                state.update(before)
        return rerun


def _step(position, index):
    return None if position is None else position + (index,)


def _resolve(source, args):
    kind, where = source
    if kind == "object":
        return where
    value = args
    for index in where:
        if isinstance(value, dict) and index in value or isinstance(value, (list, tuple)) and index < len(value):
            value = value[index]
        else:
            return None
    return value if type(value) in (list, dict) else None


def _replace(value, position, new):
    if not position:
        return new
    if isinstance(value, dict) and position[0] in value:
        items = dict(value)
        items[position[0]] = _replace(items[position[0]], position[1:], new)
        return type(value)(items)
    if not isinstance(value, (list, tuple)) or position[0] >= len(value):
        return value
    items = list(value)
    items[position[0]] = _replace(items[position[0]], position[1:], new)
    return type(value)(items)


def restore(outputs, sources, args):
    """``outputs`` of a compiled call with the outside lists ``Outside.returned_sources`` found put back."""
    for position, source in sources:
        original = _resolve(source, args)
        if original is not None:
            outputs = _replace(outputs, position, original)
    return outputs


def warn_outside_changes(name):
    """Warn once that ``name`` runs eagerly because it changes outside lists or attributes at every call."""
    warn_fallback(name, ExplainedFallback(
        "it changes a list, dict or attribute that lives outside it (an append/pop/reverse on a module-level or "
        "Cell list, or `self.x = self.x + 1` on a Python number, Tensor or array), which MindSpore's graph "
        "repeats at every call; a trace would run it once. Keep such bookkeeping outside the compiled function, "
        "or make the value a Parameter updated with ops.assign, to compile it."))
