"""Reuse of compiled wrappers across equivalent function objects.

``grad(lambda x: net(x))`` written inside a training loop makes a new function object every
step; compiling each would cost a trace and an XLA compile per step. Two function objects with
the same code, the same closure contents, the same values of the module globals they read and the same
defaults behave identically, so the wrapper (and its compiled programs) made for the first one
serves the others.
"""
import collections
import functools
import itertools
import operator
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
        return ("function", fn.__code__, tuple(closure), id(fn.__globals__), defaults, keyword_defaults,
                globals_read(fn))
    return ("object", id(fn))


_IMMUTABLE = (bool, int, float, complex, str, bytes, type(None))


@functools.lru_cache(maxsize=1024)
def _names_read(code):
    names = set(code.co_names)
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):  # a lambda, comprehension or nested def
            names.update(_names_read(constant))
    return tuple(sorted(names))


def globals_read(fn):
    """The module globals ``fn``'s code reads, as a hashable key: numbers and strings by value, other
    objects by identity.

    A compiled program bakes in the values of the globals its trace read, while MindSpore's PyNative
    gradient reads them afresh each call (``for k in ...: grad(lambda x: (x * k).sum())`` sees each
    ``k``); a changed key means the program must not be reused.
    """
    if isinstance(fn, types.MethodType):
        fn = fn.__func__
    if not isinstance(fn, types.FunctionType):
        construct = getattr(type(fn), "construct", None)
        if not isinstance(construct, types.FunctionType):
            return ()
        fn = construct
    namespace, key = fn.__globals__, []
    for name in _names_read(fn.__code__):
        if name in namespace:
            value = namespace[name]
            key.append((name, type(value), value) if isinstance(value, _IMMUTABLE) else (name, id(value)))
    return tuple(key)


_ABSENT = object()


def globals_snapshot(fn):
    """``(namespace, names, values)``: the globals ``globals_read(fn)`` reads, each value (or a marker when
    unbound) kept by identity; ``globals_unchanged`` tells whether a later call would read the same key."""
    if isinstance(fn, types.MethodType):
        fn = fn.__func__
    if not isinstance(fn, types.FunctionType):
        fn = getattr(type(fn), "construct", None)
        if not isinstance(fn, types.FunctionType):
            return {}, (), []
    names = _names_read(fn.__code__)
    namespace = fn.__globals__
    return namespace, names, [namespace.get(name, _ABSENT) for name in names]


def globals_unchanged(snapshot):
    """Whether every global of ``globals_snapshot``'s answer is still the same object (or still unbound)."""
    namespace, names, values = snapshot
    return all(map(operator.is_, map(namespace.get, names, itertools.repeat(_ABSENT)), values))


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
