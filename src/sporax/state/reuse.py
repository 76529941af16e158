"""Reuse of compiled wrappers across equivalent function objects.

``grad(lambda x: net(x))`` written inside a training loop makes a new function object every
step; compiling each would cost a trace and an XLA compile per step. Two function objects with
the same code, the same closure contents, the same values of what they read from outside (globals,
helpers, attributes) and the same defaults behave identically, so the wrapper (and its compiled programs) made for the first one
serves the others.
"""
import collections
import types

from sporax.state.outside_reads import OutsideReads

_MAX_ENTRIES = 256
_entries = collections.OrderedDict()


def function_identity(fn):
    """A hashable key equal for behaviourally identical callables, or None when unknown."""
    if isinstance(fn, types.MethodType):
        inner = function_identity(fn.__func__)
        return None if inner is None else ("method", id(fn.__self__), inner, values_read(fn))
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


def values_read(fn):
    """What ``fn`` reads from outside its arguments (``outside_reads.OutsideReads``), as a hashable key:
    numbers and strings by value, other objects by identity.

    A compiled program bakes in the values of the globals and closure variables its trace read, while
    MindSpore's PyNative gradient reads them afresh each call (``for k in ...: grad(lambda x: (x * k).sum())``
    sees each ``k``, as does a function whose enclosing scope rebinds ``scale`` between calls, or whose
    helper reads a rebound global); a changed key means the program must not be reused.

    Args:
        fn (Callable): a function, bound method or Cell.

    Example:
        >>> def make(scale):
        ...     return lambda x: x * scale
        >>> values_read(make(2.0)) == values_read(make(2.0)), values_read(make(2.0)) == values_read(make(3.0))
        (True, False)
    """
    return OutsideReads(fn).key()


def _code_function(fn):
    """The Python function whose code a call of ``fn`` runs (a Cell's ``construct``), or None."""
    if isinstance(fn, types.MethodType):
        fn = fn.__func__
    if not isinstance(fn, types.FunctionType):
        fn = getattr(type(fn), "construct", None)
    return fn if isinstance(fn, types.FunctionType) else None


def references_snapshot(fn, reads):
    """What a compiled call of ``fn`` took from its function object and from outside its arguments, kept by
    identity: its code and defaults, and ``reads`` (its ``OutsideReads``); ``references_unchanged`` re-checks it.

    Args:
        fn (Callable): a function, bound method or Cell (its ``construct``).
        reads (OutsideReads): what ``fn`` reads, walked for this call.

    Returns:
        tuple, or None when a closure variable is not assigned yet (the caller then takes its full path).

    Example:
        >>> scale = [1.0]
        >>> def f(x):
        ...     return x * scale[0]
        >>> snapshot = references_snapshot(f, OutsideReads(f))
        >>> references_unchanged(snapshot), scale.__setitem__(0, 2.0), references_unchanged(snapshot)
        (True, None, False)
    """
    if not reads.complete:
        return None
    function = _code_function(fn)
    if function is None:
        return None, None, None, None, reads
    return function, function.__code__, function.__defaults__, function.__kwdefaults__, reads


def references_unchanged(snapshot):
    """Whether everything ``references_snapshot`` kept is still the same object."""
    function, code, defaults, keyword_defaults, reads = snapshot
    return ((function is None or (function.__code__ is code and function.__defaults__ is defaults
                                  and function.__kwdefaults__ is keyword_defaults))
            and reads.unchanged())


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
