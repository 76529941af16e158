"""Outside lists and dicts that a helper function, called from compiled code, changes.

MindSpore 2.10's graph inlines a plain Python function that a GRAPH_MODE ``construct`` or an ``@jit`` function
calls (a "helper"), and the helper works on its own copy of each list or dict that exists before the call (a
module-level container it names, a list argument, a Cell's list attribute passed in). Recorded, with ``h(items)``
changing ``items`` and the caller reading ``items`` afterwards:

* the caller never sees the helper's changes: ``len(items)`` after ``h`` is the length before it, at every
  call (a module-level container and a GRAPH_MODE Cell attribute keep the length they had when first compiled;
  a Cell attribute under ``@jit`` on ``construct`` is read anew at each call, so that function runs eagerly);
* ``extend``, ``insert``, ``pop``, ``reverse`` on a list and ``d[k] = v`` on a dict (the changes
  ``outside_objects.every_call_methods`` names) still change the Python object at every call, after the graph
  ran: ``return items`` gives the object itself, changed; ``append``, ``clear``, ``x[i] = v``, ``x += y``,
  ``d.update``, ``d.pop`` change only the helper's copy;
* STRICT GRAPH_MODE changes no outside container, STRICT ``@jit`` in PyNative mode no argument
  (``outside_objects.Outside``);
* ``d |= e`` raises RuntimeError, ``d.pop(k)`` in GRAPH_MODE below LAX AttributeError, and a helper that returns a
  dict it popped from TypeError ("For 'TupleGetItem', input[0] should be Sequence").

A compiled program runs the helper once, while it is traced: ``HelperChanges`` gives it copies (``_HelperList``,
``_HelperDict``) of the outside containers its code changes (no others: a copy is no list to JAX) and records the changes MindSpore makes at every call, which ``replay`` applies to the Python
objects after each run of the program (and at the end of an eager run).

Example:
    >>> with helper_changes(outside) as changes:     # in the trace of the outermost compiled function
    ...     outputs = function(*args)
    >>> program.helper_replays = changes.pending
    >>> replay(program.helper_replays, args)        # after each run of the program
"""
import contextlib
import threading

from sporax.graph.outside_objects import Outside, container_changes, dict_pop_error, \
    dict_read_after_pop_error, dict_union_error, every_call_methods, holds_traced, resolve_source

_EVERY_CALL = {list: every_call_methods(list), dict: every_call_methods(dict)}
_CHANGES = {list: _EVERY_CALL[list] | {"append", "clear", "__setitem__", "__iadd__", "__delitem__"},
            dict: _EVERY_CALL[dict] | {"update", "pop", "__delitem__"}}
_active = threading.local()


class HelperChanges:
    """The outside containers of one compiled call (ids) and the changes its helpers make at every call."""

    def __init__(self, lists, from_arguments=(), graph_only=False, arguments_graph_only=False,
                 refuse_dict_pop=False):
        # id -> the argument path of each outside container (None: reached otherwise); see ``Outside.lists``
        self.paths = {key: path for key, (path, _) in lists.items()}
        self.outside, self.from_arguments = set(lists), from_arguments
        # a change of a container an argument holds (a Cell's list attribute under ``@jit`` on ``construct``): the
        # next call sees it, as MindSpore's graph reads such a container at each call, so the function runs eagerly
        self.rerun = False
        self.graph_only, self.arguments_graph_only = graph_only, arguments_graph_only
        self.refuse_dict_pop = refuse_dict_pop
        self.pending = []  # (where the container is: see ``outside_objects.restore``, method name, arguments)

    def every_call(self, original):
        """Whether MindSpore repeats a change of ``original`` at every call (see the module doc)."""
        return not self.graph_only and not (self.arguments_graph_only and self.paths.get(id(original)) is not None)

    def record(self, original, name, values):
        """A change MindSpore's graph makes to ``original`` at every call; an argument is found again by its
        position at each call (a compiled call gets rebuilt containers)."""
        path = self.paths.get(id(original))
        self.rerun = self.rerun or path is None and id(original) in self.from_arguments
        self.pending.append((("argument", path) if path is not None else ("object", original), name, values))

    def call(self, function, source, args, kwargs):
        """``function`` (``source`` converted) called with copies of the outside containers it gets or names."""
        code = getattr(source, "__code__", None)
        if code is None:
            return function(*args, **kwargs)
        # only the containers the helper changes get a copy: a copy is no list to JAX's tree functions
        changed = container_changes(code)
        parameters = code.co_varnames[:code.co_argcount]
        bound = int(hasattr(function, "__self__"))
        names = [parameters[index + bound] if index + bound < len(parameters) else None for index in range(len(args))]
        args = [self._view(value, name) if name in changed else value for value, name in zip(args, names)]
        kwargs = {name: self._view(value, name) if name in changed else value for name, value in kwargs.items()}
        namespace = getattr(source, "__globals__", None) or {}
        installed = {}
        for name in changed:
            value = namespace.get(name)
            if type(value) in (list, dict):
                self.outside.add(id(value))
                installed[name] = value
        self._refuse(code, installed, dict(zip(names, args)) | kwargs)
        for name, value in installed.items():
            namespace[name] = self._view(value, name)
        try:
            outputs = function(*args, **kwargs)
        finally:
            for name, value in installed.items():
                namespace[name] = value
        return _unwrap(outputs)

    def _view(self, value, name):
        if type(value) in (list, dict) and id(value) in self.outside:
            return (_HelperList if type(value) is list else _HelperDict)(value, name, self)
        return value

    def _refuse(self, code, named_globals, named_arguments):
        """MindSpore's errors for ``d |= e`` and (GRAPH_MODE below LAX) ``d.pop(k)`` on an outside dict."""
        for name, methods in container_changes(code).items():
            value = named_globals.get(name, named_arguments.get(name))
            if isinstance(value, dict) and (type(value) is _HelperDict or id(value) in self.outside):
                if "__ior__" in methods:
                    raise dict_union_error(name)
                if "pop" in methods and self.refuse_dict_pop:
                    raise dict_pop_error(name)


def _change(kind, name):
    """``name`` of ``kind`` on a helper's copy; recorded for the object itself where MindSpore repeats it."""
    python = getattr(kind, name)

    def run(self, *args):
        values = [list(value) if name in ("extend", "__iadd__") else value for value in args]
        result = python(self, *values)
        self.changed = True
        if name in _EVERY_CALL[kind] and self.changes.every_call(self.original) and not holds_traced(values):
            self.changes.record(self.original, name, values)
        if kind is dict and name == "pop":
            self.popped = True
        return self if name == "__iadd__" else result

    run.__name__ = name
    return run


class _HelperList(list):
    """A helper's copy of the outside list ``original`` (the name the helper reaches it by)."""

    outside_copy = True  # a declared global's read copies it (control_flow.module_globals.declared_global)

    def __init__(self, original, name, changes):
        super().__init__(original)
        self.original, self.name, self.changes, self.changed = original, name, changes, False


class _HelperDict(dict):
    """A helper's copy of the outside dict ``original``; ``popped`` once the helper called ``pop`` on it."""

    outside_copy = True

    def __init__(self, original, name, changes):
        super().__init__(original)
        self.original, self.name, self.changes, self.popped, self.changed = original, name, changes, False, False


for _kind, _view_type in ((list, _HelperList), (dict, _HelperDict)):
    for _name in _CHANGES[_kind]:
        if hasattr(_kind, _name):
            setattr(_view_type, _name, _change(_kind, _name))
_HelperList.__name__, _HelperDict.__name__ = "list", "dict"  # error messages name the type the user wrote


def _unwrap(value, depth=4):
    """A helper's outputs with its copies as the outside objects, or as plain lists and dicts where it changed
    them (the graph's own copies)."""
    if type(value) is _HelperDict and value.popped:
        raise dict_read_after_pop_error(value.name)
    if type(value) in (_HelperList, _HelperDict):  # the object itself, unless the helper changed its copy
        return (list if type(value) is _HelperList else dict)(value) if value.changed else value.original
    if depth and type(value) in (list, tuple, dict):  # rebuilt only around a copy: an outside list stays itself
        items = dict(value) if type(value) is dict else dict(enumerate(value))
        unwrapped = {key: _unwrap(item, depth - 1) for key, item in items.items()}
        if any(unwrapped[key] is not item for key, item in items.items()):
            return unwrapped if type(value) is dict else type(value)(unwrapped.values())
    return value


def active():
    """The ``HelperChanges`` of the compiled call now running, or None."""
    return getattr(_active, "changes", None)


@contextlib.contextmanager
def helper_changes(outside=None, graph_only=False, arguments_graph_only=False, refuse_dict_pop=False,
                   apply=None):
    """For the time of a compiled call: helpers get copies of ``outside``'s containers (an ``Outside``) and of the
    module-level ones they name; yields the ``HelperChanges``. ``apply``: the arguments of an eager run, whose
    recorded changes are applied at its end."""
    changes = HelperChanges(outside.lists, outside.from_arguments, graph_only, arguments_graph_only,
                            refuse_dict_pop) if outside is not None else HelperChanges({})
    outer, _active.changes = active(), changes
    try:
        yield changes
    finally:
        _active.changes = outer
    if apply is not None:
        replay(changes.pending, apply)


def eager_outside(function, args, kwargs, owner=None):
    """The ``Outside`` of an eager run of ``function`` (the containers its helpers get copies of), or None when
    MindSpore would refuse it (the trace raised that error already)."""
    try:
        return Outside(function, args, kwargs, owner=owner)
    except (AttributeError, RuntimeError):
        return None


def replay(pending, args):
    """Apply the changes a helper makes at every call (``HelperChanges.pending``) to the Python objects, those
    among the call's positional ``args`` found by their position."""
    for source, name, values in pending or ():
        container = resolve_source(source, args)
        if container is not None:
            with contextlib.suppress(IndexError, KeyError, ValueError):  # pop from a list earlier calls emptied
                getattr(type(container), name)(container, *values)
