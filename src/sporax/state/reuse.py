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
                values_read(fn))
    return ("object", id(fn))


_IMMUTABLE = (bool, int, float, complex, str, bytes, type(None))


@functools.lru_cache(maxsize=1024)
def _names_read(code):
    names = set(code.co_names)
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):  # a lambda, comprehension or nested def
            names.update(_names_read(constant))
    return tuple(sorted(names))


class _Same:
    """A key item equal only to one holding the same object; it keeps the object alive, so that no other
    object can take its ``id`` while a cache holds the key (a rebound global freed, its successor at the
    same address, would otherwise read as unchanged)."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __eq__(self, other):
        return type(other) is _Same and other.value is self.value

    def __hash__(self):
        return id(self.value)


def _value_key(value):
    return (type(value), value) if isinstance(value, _IMMUTABLE) else _Same(value)


def values_read(fn):
    """The module globals and closure variables ``fn``'s code reads, as a hashable key: numbers and strings
    by value, other objects by identity.

    A compiled program bakes in the values of the globals and closure variables its trace read, while
    MindSpore's PyNative gradient reads them afresh each call (``for k in ...: grad(lambda x: (x * k).sum())``
    sees each ``k``, as does a function whose enclosing scope rebinds ``scale`` between calls); a changed
    key means the program must not be reused.

    Args:
        fn (Callable): a function, bound method or Cell (its ``construct``).

    Example:
        >>> def make(scale):
        ...     return lambda x: x * scale
        >>> values_read(make(2.0)) == values_read(make(2.0)), values_read(make(2.0)) == values_read(make(3.0))
        (True, False)
    """
    function = _code_function(fn)
    if function is None:
        return ()
    namespace, key = function.__globals__, []
    for name in _names_read(function.__code__):
        if name in namespace:
            key.append((name, _value_key(namespace[name])))
    for cell in function.__closure__ or ():
        try:
            key.append(_value_key(cell.cell_contents))
        except ValueError:  # not assigned yet
            key.append(_ABSENT)
    return tuple(key)


_ABSENT = object()
_cell_contents = operator.attrgetter("cell_contents")


def _code_function(fn):
    """The Python function whose code a call of ``fn`` runs (a Cell's ``construct``), or None."""
    if isinstance(fn, types.MethodType):
        fn = fn.__func__
    if not isinstance(fn, types.FunctionType):
        fn = getattr(type(fn), "construct", None)
    return fn if isinstance(fn, types.FunctionType) else None


def references_snapshot(fn):
    """What a compiled call of ``fn`` took from its function object, kept by identity: its code, defaults,
    closure variables and the globals its code names (``references_unchanged`` re-checks it).

    Args:
        fn (Callable): a function, bound method or Cell (its ``construct``).

    Returns:
        tuple, or None when a closure variable is not assigned yet (the caller then takes its full path).

    Example:
        >>> scale = [1.0]
        >>> def f(x):
        ...     return x * scale[0]
        >>> snapshot = references_snapshot(f)
        >>> references_unchanged(snapshot)
        True
    """
    function = _code_function(fn)
    if function is None:
        return None, None, None, None, (), (), {}, (), ()
    names = _names_read(function.__code__)
    namespace = function.__globals__
    cells = function.__closure__ or ()
    try:
        contents = list(map(_cell_contents, cells))
    except ValueError:  # an empty cell
        return None
    return (function, function.__code__, function.__defaults__, function.__kwdefaults__, cells, contents, namespace, names,
            [namespace.get(name, _ABSENT) for name in names])


def references_unchanged(snapshot):
    """Whether everything ``references_snapshot`` kept is still the same object (a global still unbound)."""
    function, code, defaults, keyword_defaults, cells, contents, namespace, names, values = snapshot
    try:
        return ((function is None or (function.__code__ is code and function.__defaults__ is defaults
                                      and function.__kwdefaults__ is keyword_defaults))
                and all(map(operator.is_, map(_cell_contents, cells), contents))
                and all(map(operator.is_, map(namespace.get, names, itertools.repeat(_ABSENT)), values)))
    except ValueError:  # a closure variable was deleted
        return False


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
