"""A Cell's list and dict attributes as a compiled ``construct`` sees them (GRAPH_MODE and ``@jit`` methods).

MindSpore 2.10's graph does not run every list or dict method on a Cell attribute the Python way; recorded
(``self.items = [1, 2]``, ``construct`` calls the method, then reads ``len(self.items)`` or returns it):

============  ===============================  ===============================  ===============
method        LAX (the default)                COMPATIBLE                       STRICT
============  ===============================  ===============================  ===============
append        dropped                          dropped                          dropped
clear         dropped                          dropped                          dropped
extend        every call, the graph sees it    every call, the graph does not   dropped
insert        every call, the graph sees it    every call, the graph does not   dropped
``+=``        every call, the graph sees it    TypeError (attribute write)      TypeError
pop           every call, the graph does not   every call, the graph does not   dropped
reverse       every call, the graph does not   every call, the graph does not   dropped
``[i] = v``   the graph only (a new list)      TypeError                        TypeError
dict[k] = v   every call, the graph sees it    TypeError                        TypeError
dict.update   dropped                          dropped                          dropped
dict.pop      dropped                          AttributeError                   AttributeError
dict ``|=``   RuntimeError (no dict ``|``)     TypeError (attribute write)      TypeError
============  ===============================  ===============================  ===============

("dropped": the attribute keeps its items and later reads see them unchanged; "every call": the Python
attribute changes at each call, which makes the caller run eagerly (``graph.outside_objects``); "the graph
does not": it keeps seeing the items the attribute had when the Cell was first compiled.) ``return
self.items`` gives the attribute's list itself, except after ``[i] = v`` and under STRICT, where it is a new
list. ``@jit`` on ``construct`` in PyNative mode follows LAX whatever the syntax level. Only the attributes
``construct`` itself changes get a view (``outside_objects.container_changes``); other methods (``remove``,
``sort``, ``setdefault``, ...) were not recorded and run as in Python.

Example:
    >>> with attribute_views(cell, type(cell).construct) as views:
    ...     outputs = views.unwrap(cell.construct(x))
"""
import contextlib
import threading

from sporax.core import context
from sporax.graph.outside_objects import container_changes, dict_pop_error, dict_union_error, \
    every_call_methods

_DROP, _BOTH, _ORIGINAL, _VIEW, _NEW, _REFUSE, _UNSUPPORTED = "drop", "both", "original", "view", "new", "refuse", \
    "unsupported"
# method -> what it does at the levels (LAX, COMPATIBLE, STRICT); see the module doc. _ORIGINAL: the
# attribute changes, the graph keeps the items it had when the Cell was first compiled; _NEW: a new list for
# the attribute write that follows (``+=``), which refuses it below LAX; _REFUSE: MindSpore's error.
_LIST_RULES = {
    "append": (_DROP, _DROP, _DROP),
    "clear": (_DROP, _DROP, _DROP),
    "extend": (_BOTH, _ORIGINAL, _DROP),
    "insert": (_BOTH, _ORIGINAL, _DROP),
    "__iadd__": (_BOTH, _NEW, _NEW),
    "pop": (_ORIGINAL, _ORIGINAL, _DROP),
    "reverse": (_ORIGINAL, _ORIGINAL, _DROP),
    "__setitem__": (_VIEW, _REFUSE, _REFUSE),
}
_DICT_RULES = {
    "__setitem__": (_BOTH, _REFUSE, _REFUSE),
    "update": (_DROP, _DROP, _DROP),
    "pop": (_DROP, _REFUSE, _REFUSE),
    "__ior__": (_UNSUPPORTED, _NEW, _NEW),
}
_LEVELS = {context.LAX: 0, context.COMPATIBLE: 1, context.STRICT: 2}
# in a Cell's __dict__: attribute name -> (the attribute, a copy of its items when first compiled)
_SNAPSHOTS = "_sporax_graph_attributes"


def _refuse(view, name):
    fix = "Make it a Parameter, or set jit_syntax_level to mindspore.LAX (MS_DEV_JIT_SYNTAX_LEVEL=2)."
    if name == "pop":
        return dict_pop_error(f"self.{view.name}")
    return TypeError(f"When JIT_SYNTAX_LEVEL is not set to LAXself.{view.name} should be initialized as a "
                     f"'Parameter' in the '__init__' function to perform assign subscript, but got: "
                     f"{view.original}. {fix}")


def _dropped_pop(view, kind, args):
    """What a dropped ``pop`` gives: the item it would take."""
    if kind is dict:
        return view[args[0]] if args[0] in view else (args[1] if len(args) > 1 else None)
    return view[args[0] if args else -1]


def _method(kind, name, rules):
    """``name`` of ``kind`` (list or dict) on a view, applied where ``rules`` says for the view's level."""
    python = getattr(kind, name)

    def run(self, *args):
        rule = rules[name][self.level]
        if rule == _DROP:
            return _dropped_pop(self, kind, args) if name == "pop" else None
        if rule == _REFUSE:
            raise _refuse(self, name)
        if rule == _UNSUPPORTED:
            raise dict_union_error(f"self.{self.name}")
        if rule == _NEW:
            return kind(self) | args[0] if kind is dict else list(self) + list(args[0])
        if rule == _VIEW:
            self.rebound = True  # the graph's own copy from now on
            return python(self, *args)
        values = [list(value) if name in ("extend", "__iadd__") else value for value in args]
        result = python(self.original, *values)
        self.changed_original = True
        if rule == _ORIGINAL:
            list.__setitem__(self, slice(None), self.snapshot)
            return result
        python(self, *values)
        return self if name == "__iadd__" else result

    run.__name__ = name
    return run


class _ListView(list):
    """A copy of a Cell's list attribute ``name`` whose methods follow ``_LIST_RULES`` at ``level``."""

    def __init__(self, original, name, level, snapshot):
        super().__init__(original)
        self.original, self.name, self.level, self.snapshot = original, name, level, snapshot
        self.rebound = self.changed_original = False


class _DictView(dict):
    """A copy of a Cell's dict attribute ``name`` whose methods follow ``_DICT_RULES`` at ``level``."""

    def __init__(self, original, name, level, snapshot):
        super().__init__(original)
        self.original, self.name, self.level, self.snapshot = original, name, level, snapshot
        self.rebound = self.changed_original = False


for _name in _LIST_RULES:
    setattr(_ListView, _name, _method(list, _name, _LIST_RULES))
for _name in _DICT_RULES:
    setattr(_DictView, _name, _method(dict, _name, _DICT_RULES))


def _global_method(kind, name, every_call):
    """``name`` of ``kind`` on a ``global_views`` view: on the view, on its first-compiled copy (whose length
    ``len`` gives), and when ``every_call`` on the module's object too."""
    python = getattr(kind, name)

    def run(self, *args):
        values = [list(value) if name in ("extend", "__iadd__") else value for value in args]
        with contextlib.suppress(IndexError, KeyError, ValueError):  # the first-compiled copy lacks the item:
            python(self.frozen, *values)  # its length stays
        if every_call:
            python(self.original, *values)
            self.changed_original = True
        return python(self, *values)

    run.__name__ = name
    return run


class _Frozen:
    """A module-level container as a compiled function that changes it at every call sees it (``global_views``):
    its items, and the length it had when first compiled (MindSpore's graph folds ``len``)."""

    def __init__(self, original, frozen):
        super().__init__(original)
        self.original, self.frozen, self.rebound, self.changed_original = original, frozen, False, False

    def __len__(self):
        return len(self.frozen)


class _GlobalListView(_Frozen, list):
    """A module-level list (``_Frozen``)."""


class _GlobalDictView(_Frozen, dict):
    """A module-level dict (``_Frozen``)."""


# the changes MindSpore repeats at every call (graph.outside_objects) change the module's object too
for _view, _kind in ((_GlobalListView, list), (_GlobalDictView, dict)):
    _every = every_call_methods(_kind)
    for _name in set(_LIST_RULES if _kind is list else _DICT_RULES) | _every:
        setattr(_view, _name, _global_method(_kind, _name, _name in _every))
# error messages about the attribute name the user's type
_ListView.__name__, _DictView.__name__ = "list", "dict"
_GlobalListView.__name__, _GlobalDictView.__name__ = "list", "dict"


_collecting = threading.local()


@contextlib.contextmanager
def collect_views():
    """The ``Views`` every ``attribute_views`` opened inside (a compiled call and the Cells it calls)."""
    outer = getattr(_collecting, "found", None)
    _collecting.found = found = []
    try:
        yield found
    finally:
        _collecting.found = outer
        if outer is not None:
            outer.extend(found)


class Views:
    """The views ``attribute_views`` installed."""

    def __init__(self, level):
        self.views, self.level = {}, level  # id(view) -> view

    @property
    def changed_originals(self):
        """Whether a method changed an attribute itself (MindSpore repeats that at every call)."""
        return any(view.changed_original for view in self.views.values())

    def unwrap(self, outputs):
        """``outputs`` with each view replaced by the attribute itself, or by a new list or dict where MindSpore
        returns one (after ``[i] = v``; under STRICT)."""
        if not self.views:
            return outputs
        strict = self.level == _LEVELS[context.STRICT]

        def visit(value):
            view = self.views.get(id(value))
            if view is not None and view is value:
                if view.rebound or strict:
                    return type(view.original)(view)
                return view.original
            # a list or dict holding no view is the object itself (``y = g[0]; y.reverse(); return y``)
            if type(value) in (list, tuple):
                items = [visit(item) for item in value]
                return value if all(new is old for new, old in zip(items, value)) else type(value)(items)
            if type(value) is dict:
                items = {key: visit(item) for key, item in value.items()}
                return value if all(items[key] is item for key, item in value.items()) else items
            return value

        return visit(outputs)


@contextlib.contextmanager
def attribute_views(cell, function, level=None):
    """Give ``cell``'s list and dict attributes that ``function`` (its ``construct``) changes, for the time of a
    compiled call, views that follow MindSpore's graph at ``level`` (the syntax level in force when None;
    module doc); the attributes themselves are put back afterwards."""
    level = _LEVELS.get(context.jit_syntax_level() if level is None else level, 0)
    code = getattr(getattr(function, "__func__", function), "__code__", None)
    changed = container_changes(code) if code is not None else {}
    views = Views(level)
    found = getattr(_collecting, "found", None)
    if found is not None:
        found.append(views)
    state = vars(cell)
    # only those: a view is no list to JAX or to ``type(x) is list``
    originals = {name: value for name, value in state.items()
                 if name in changed and not name.startswith("_") and type(value) in (list, dict)}
    snapshots = state.setdefault(_SNAPSHOTS, {}) if originals else {}
    for name, value in originals.items():
        if snapshots.get(name, (None,))[0] is not value:  # first compiled, or a new object since
            snapshots[name] = (value, type(value)(value))
        snapshot = snapshots[name][1]
        view = (_ListView if type(value) is list else _DictView)(value, name, level, snapshot)
        views.views[id(view)] = view
        state[name] = view
    try:
        yield views
    finally:
        for name, value in originals.items():
            state[name] = value


@contextlib.contextmanager
def global_views(frozen):
    """For the time of a call of a function that changes module-level lists or dicts at every call (run eagerly):
    ``frozen`` (``Outside.frozen``: namespace, name, the container, its items when first compiled) installed as
    views whose ``len`` is the one the graph was compiled with, as MindSpore's graph folds it (recorded:
    ``x + len(items)`` after ``items.extend(...)`` gives the first call's value at every call, while
    ``items[0]`` after ``items.reverse()`` reads the list as it is now); yields the ``Views``, whose ``unwrap``
    gives back the module's objects."""
    views = Views(0)
    installed = []
    for namespace, name, original, items in frozen or ():
        if namespace.get(name) is original:
            view = (_GlobalListView if type(original) is list else _GlobalDictView)(original, type(items)(items))
            views.views[id(view)] = namespace[name] = view
            installed.append((namespace, name, original))
    try:
        yield views
    finally:
        for namespace, name, original in installed:
            namespace[name] = original
