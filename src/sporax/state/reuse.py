"""Reuse of compiled wrappers across equivalent function objects.

``grad(lambda x: net(x))`` written inside a training loop makes a new function object every
step; compiling each would cost a trace and an XLA compile per step. Two function objects with
the same code, the same closure contents, globals and defaults behave identically, so the
wrapper (and its compiled programs) made for the first one serves the others.
"""
import collections
import types

_MAX_ENTRIES = 256
_entries = collections.OrderedDict()


def function_identity(fn):
    """A hashable key equal for behaviourally identical callables, or None when unknown."""
    if isinstance(fn, types.MethodType):
        inner = function_identity(fn.__func__)
        return None if inner is None else ("method", id(fn.__self__), inner)
    if isinstance(fn, types.FunctionType):
        closure = []
        for cell in fn.__closure__ or ():
            try:
                closure.append(id(cell.cell_contents))
            except ValueError:
                closure.append(None)
        defaults = tuple(map(id, fn.__defaults__ or ()))
        keyword_defaults = tuple((k, id(v)) for k, v in (fn.__kwdefaults__ or {}).items())
        return ("function", fn.__code__, tuple(closure), id(fn.__globals__), defaults, keyword_defaults)
    return ("object", id(fn))


def shared(key, factory):
    """The wrapper cached under ``key``, made by ``factory()`` the first time (LRU-bounded)."""
    if key is None:
        return factory()
    entry = _entries.get(key)
    if entry is not None:
        _entries.move_to_end(key)
        return entry
    entry = factory()
    _entries[key] = entry
    if len(_entries) > _MAX_ENTRIES:
        _entries.popitem(last=False)
    return entry
