"""Lists a compiled function returns that live outside it come back as those very objects.

MindSpore's graph keeps a Python list that exists before the call -- a module-level list, an item of
one, a list argument, a list attribute of a Cell or of a ``jit_class`` instance -- as that Python
object: ``return global_list``, ``return self.x[0]`` or ``y = x[0]; y.reverse(); return y`` give
back the object itself (``id(output) == id(global_list)``), its in-place changes included. A
compiled sporax program rebuilds its outputs from a tree structure, which makes copies; this module
records, while the function is traced, which output positions hold such an outside list, and puts
the objects back after each call. A list created by the function itself stays a fresh copy per
call, and so does any list that holds a traced value.

MindSpore runs such list methods (``append``, ``reverse``, ``pop``, ...) on the outside list at every
call, where a trace runs the Python once: a function that changes an outside list (to values known
while tracing) has its trace's changes undone (``undo_changes``) and runs eagerly on every call.

Example:
    >>> known = outside_lists(function, args, kwargs)          # in the trace, before the call
    >>> sources = returned_sources(outputs, known)               # in the trace, after it
    >>> outputs = restore(program(arrays), sources, args)  # after each compiled call
"""
import types

import jax

from sporax.core.tensor import Tensor

_DEPTH = 4  # how deep containers and objects are searched for outside lists


def _walk(value, path, found, depth):
    """Record in ``found`` (id -> path) every list reachable from ``value`` through sequences, dicts and
    plain objects' attributes."""
    if depth < 0:
        return
    if type(value) is list:
        found.setdefault(id(value), (path, value))
    if isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            if isinstance(item, (list, tuple, dict)) or _is_object(item):
                _walk(item, path + (index,) if path is not None else None, found, depth - 1)
    elif isinstance(value, dict):
        for item in value.values():
            if isinstance(item, (list, tuple, dict)) or _is_object(item):
                _walk(item, None, found, depth - 1)
    elif _is_object(value):
        for name, item in vars(value).items():
            if not name.startswith("_") and (isinstance(item, (list, tuple, dict)) or _is_object(item)):
                _walk(item, None, found, depth - 1)


def _is_object(value):
    """A user object whose attributes may hold lists (not a module, function, class or Tensor)."""
    return (hasattr(value, "__dict__") and not isinstance(value, (type, types.ModuleType, types.FunctionType,
                                                                    types.MethodType, Tensor)))


def _names(code):
    names = set(code.co_names)
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            names |= _names(constant)
    return names


def outside_lists(function, args, kwargs, owner=None):
    """The lists that exist before ``function`` runs on ``args``/``kwargs``: id -> ``(path, list)``, where
    ``path`` locates an argument's list among the positional arguments (None for the others: module-level
    lists ``function`` names, lists in its closure, and list attributes of ``owner`` -- a Cell -- or of the
    objects reachable from these)."""
    found = {}
    for position, item in enumerate(args):
        _walk(item, (position,), found, _DEPTH)
    for item in kwargs.values():
        _walk(item, None, found, _DEPTH)
    function = getattr(function, "__func__", function)
    code = getattr(function, "__code__", None)
    if code is not None:
        globals_ = getattr(function, "__globals__", {})
        for name in _names(code):
            if name in globals_:
                _walk(globals_[name], None, found, _DEPTH)
    for cell in getattr(function, "__closure__", None) or ():
        try:
            _walk(cell.cell_contents, None, found, _DEPTH)
        except ValueError:  # an empty closure cell
            continue
    if owner is not None:
        _walk(owner, None, found, _DEPTH)
    return found


def snapshot(known):
    """The items of every outside list in ``known`` (``outside_lists``), for ``undo_changes``."""
    return [(value, list(value)) for _, value in known.values()]


def undo_changes(before):
    """Put back the items of the outside lists a trace changed; True when one changed to values known while
    tracing (the function then runs eagerly, changing them at every call as MindSpore does)."""
    changed = False
    for value, items in before:
        if len(value) != len(items) or any(now is not then for now, then in zip(value, items)):
            changed = changed or not _traced(value)
            value[:] = items
    return changed


def _traced(value):
    leaves = jax.tree_util.tree_leaves(value, is_leaf=lambda leaf: isinstance(leaf, Tensor))
    return any(isinstance(leaf._array if isinstance(leaf, Tensor) else leaf, jax.core.Tracer) for leaf in leaves)


def returned_sources(outputs, known):
    """The output positions (index paths into nested tuples and lists) that hold an outside list, with where
    the list comes from: ``(position, ("argument", path))`` or ``(position, ("object", list))``."""
    sources = []

    def visit(value, position):
        entry = known.get(id(value)) if type(value) is list else None
        if entry is not None and entry[1] is value and not _traced(value):
            path, _ = entry
            sources.append((position, ("argument", path) if path is not None else ("object", value)))
            return
        if isinstance(value, (list, tuple)) and not hasattr(value, "_fields"):
            for index, item in enumerate(value):
                visit(item, position + (index,))

    visit(outputs, ())
    return tuple(sources)


def _resolve(source, args):
    kind, where = source
    if kind == "object":
        return where
    value = args
    for index in where:
        if not isinstance(value, (list, tuple)) or index >= len(value):
            return None
        value = value[index]
    return value if type(value) is list else None


def _replace(value, position, new):
    if not position:
        return new
    if not isinstance(value, (list, tuple)) or position[0] >= len(value):
        return value
    items = list(value)
    items[position[0]] = _replace(items[position[0]], position[1:], new)
    return type(value)(items)


def restore(outputs, sources, args):
    """``outputs`` of a compiled call with the outside lists ``returned_sources`` found put back."""
    for position, source in sources:
        original = _resolve(source, args)
        if original is not None:
            outputs = _replace(outputs, position, original)
    return outputs
