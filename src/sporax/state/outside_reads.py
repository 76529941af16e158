"""What a function can read besides its arguments, followed through the helpers it calls.

A compiled PyNative gradient bakes in every value its trace read from outside its arguments, while
MindSpore's PyNative mode runs the Python again on each call and so sees a value rebound in between:
a global or closure variable of the differentiated function, and as well one read by a helper it
calls (its closure, its module's globals), a module attribute (``config.SCALE``), an attribute of an
object or of a Cell (``net.k = 2.0``, ``net.t = Tensor(...)``) and an element of a list or dict.
``OutsideReads`` walks those from the function's code, once, and keeps each place with the object it
held: ``unchanged()`` re-checks them by identity (the straight path of a repeated step), ``key()``
names them for the program cache (numbers and strings by value, other objects by identity). The walk
follows user code only: sporax's, JAX's, NumPy's and the standard library's objects and functions
are not user state. It is bounded (entries, depth, container items): past a bound it stops looking.
"""
import dis
import functools
import itertools
import operator
import sys
import types

import numpy as np

from sporax.core.tensor import Tensor
from sporax.state.discovery import is_cell

_LIBRARY_ROOTS = frozenset({"sporax", "jax", "jaxlib", "numpy", "scipy", "mindspore", "ml_dtypes"}) | frozenset(
    getattr(sys, "stdlib_module_names", ()))
_MAX_ENTRIES = 1024
_MAX_DEPTH = 8
_MAX_ITEMS = 64
_IMMUTABLE = (bool, int, float, complex, str, bytes, type(None))
_LEAVES = _IMMUTABLE + (Tensor, np.ndarray, np.generic, type, types.BuiltinFunctionType, types.CodeType)
ABSENT = object()
ITEMS = "[]"  # a pseudo-name: the code reads items of the containers it reaches
_ITEM_READS = frozenset({"BINARY_SUBSCR", "BINARY_SLICE", "GET_ITER", "UNPACK_SEQUENCE", "UNPACK_EX",
                         "CALL_FUNCTION_EX", "LIST_EXTEND", "DICT_MERGE", "DICT_UPDATE", "CONTAINS_OP"})
_ITEM_METHODS = frozenset({"get", "items", "values", "keys", "copy", "index", "count", "__getitem__"})
_LOADS = frozenset({"LOAD_GLOBAL", "LOAD_NAME", "LOAD_ATTR", "LOAD_METHOD", "LOAD_SUPER_ATTR",
                    "LOAD_FROM_DICT_OR_GLOBALS", "IMPORT_FROM"})
_cell_contents = operator.attrgetter("cell_contents")


def _is_library(module_name):
    return not isinstance(module_name, str) or module_name.partition(".")[0] in _LIBRARY_ROOTS


@functools.lru_cache(maxsize=2048)
def names_read(code):
    """The global and attribute names ``code`` (with its lambdas, comprehensions and nested defs) loads, and
    ``ITEMS`` when it reads items of a container (subscript, iteration, unpacking, ``.get``). A name only
    stored (``self.last = x`` in ``construct``) is a result, not a read; a list only appended to
    (``log.append(x)``) is not read either: its items are not part of what the call computes."""
    names = set()
    for instruction in dis.get_instructions(code):
        if instruction.opname in _LOADS:
            names.add(instruction.argval)
            if instruction.argval in _ITEM_METHODS and instruction.opname != "LOAD_GLOBAL":
                names.add(ITEMS)
        elif instruction.opname in _ITEM_READS:
            names.add(ITEMS)
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            names.update(names_read(constant))
    return tuple(sorted(names))


def value_key(value):
    """A key item for one read value: numbers and strings by value, other objects by identity (kept alive,
    so that no other object takes its ``id`` while a cache holds the key)."""
    if isinstance(value, _IMMUTABLE) or (type(value) is tuple and all(isinstance(item, _IMMUTABLE) for item in value)):
        return (type(value), value)  # a shape kept as ``self.shape = x.shape`` is the same shape next call
    return _Same(value)


class _Same:
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __eq__(self, other):
        return type(other) is _Same and other.value is self.value

    def __hash__(self):
        return id(self.value)


class OutsideReads:
    """The places a call of ``fn`` reads from outside its arguments, each with the object it held.

    Args:
        fn (Callable): a function, bound method, ``functools.partial`` or Cell.

    Example:
        >>> settings = {"scale": 2.0}
        >>> def helper(x):
        ...     return x * settings["scale"]
        >>> def loss(x):
        ...     return helper(x).sum()
        >>> reads = OutsideReads(loss)
        >>> before = reads.key()
        >>> settings["scale"] = 3.0
        >>> reads.unchanged(), OutsideReads(loss).key() == before
        (False, False)
    """

    __slots__ = ("cells", "contents", "dicts", "names", "values", "lists", "copies", "watched", "watched_copies",
                 "complete", "identities", "_seen")

    def __init__(self, fn):
        self.cells, self.contents = [], []
        self.dicts, self.names, self.values = [], [], []
        self.lists, self.copies = [], []
        self.watched, self.watched_copies = [], []  # containers the code reaches but reads no item of
        self.complete = True  # False: a closure variable is not assigned yet
        self._seen = set()
        self._value(fn, (), 0)
        self._seen = None
        # The ids of the Tensors it reads (values, dict keys, list items) and the integers (``id(x)`` kept
        # as a key): ``holds_any`` tells whether an input is one of them, so the Python compares identities.
        found = itertools.chain(self.contents, self.values, self.names, itertools.chain.from_iterable(self.copies))
        self.identities = frozenset(value if type(value) is int else id(value) for value in found
                                    if type(value) is int or isinstance(value, Tensor))

    def holds_any(self, values):
        """Whether one of ``values`` is a Tensor this function reads from outside (``a is x``, ``id(a)`` in a
        dict of ids, a dict keyed by Tensors, ``a in inputs``): a program compiled on one input would bake in
        the answer of its trace."""
        identities = self.identities
        return bool(identities) and any(id(value) in identities for value in values if isinstance(value, Tensor))

    def unchanged(self):
        """Whether every place still holds the object it held when walked."""
        try:
            return (all(map(operator.is_, map(_cell_contents, self.cells), self.contents))
                    and all(map(operator.is_, map(dict.get, self.dicts, self.names, itertools.repeat(ABSENT)),
                                self.values))
                    and all(map(_same_items, self.lists, self.copies)))
        except ValueError:  # a closure variable was deleted
            return False

    def key(self):
        """A hashable key of what the places hold."""
        return (tuple(map(value_key, self.contents)), tuple(self.names), tuple(map(value_key, self.values)),
                tuple(tuple(map(value_key, copy)) for copy in self.copies))

    # --- the walk -------------------------------------------------------------------------------
    def _full(self, depth):
        return depth > _MAX_DEPTH or len(self.values) + len(self.contents) > _MAX_ENTRIES

    def _entry(self, mapping, name, value, names, depth):
        self.dicts.append(mapping)
        self.names.append(name)
        self.values.append(value)
        self._value(value, names, depth + 1)

    def _value(self, value, names, depth):
        if isinstance(value, _LEAVES) or id(value) in self._seen or self._full(depth):
            return
        if type(value) in (list, dict) and ITEMS not in names:
            if len(value) <= _MAX_ITEMS:  # only written to (``log.append(x)``): a Python side effect to notice
                self.watched.append(value)
                self.watched_copies.append(_contents(value))
            return
        if type(value) is tuple and ITEMS not in names:
            return
        self._seen.add(id(value))
        if isinstance(value, types.FunctionType):
            self._function(value, depth)
        elif isinstance(value, types.MethodType):
            self._function(value.__func__, depth)
            self._attributes(value.__self__, names_read(value.__func__.__code__), depth)
        elif isinstance(value, functools.partial):
            for item in (value.func, *value.args, *value.keywords.values()):
                self._value(item, names, depth + 1)
        elif isinstance(value, types.ModuleType):
            if not _is_library(value.__name__):
                namespace = vars(value)
                for name in names:
                    if name in namespace:
                        self._entry(namespace, name, namespace[name], names, depth)
        elif type(value) is list:
            if len(value) <= _MAX_ITEMS:
                self.lists.append(value)
                self.copies.append(tuple(value))
            for item in value[:_MAX_ITEMS]:
                self._value(item, names, depth + 1)
        elif type(value) is tuple:
            for item in value[:_MAX_ITEMS]:
                self._value(item, names, depth + 1)
        elif type(value) is dict:
            for name, item in itertools.islice(list(value.items()), _MAX_ITEMS):
                self._entry(value, name, item, names, depth)
        elif is_cell(value):
            self._cell(value, depth)
        elif hasattr(value, "__dict__"):
            self._attributes(value, names, depth)

    def _function(self, function, depth):
        if _is_library(function.__module__):
            return
        names = names_read(function.__code__)
        namespace = function.__globals__
        for name in names:
            if name in namespace:
                self._entry(namespace, name, namespace[name], names, depth)
        for cell in function.__closure__ or ():
            try:
                value = cell.cell_contents
            except ValueError:  # not assigned yet: the caller takes its full path
                self.complete = False
                continue
            self.cells.append(cell)
            self.contents.append(value)
            self._value(value, names, depth + 1)

    def _methods_names(self, owner_type, names, depth):
        """``names`` with those read by the user methods of ``owner_type`` they name (``self.helper(x)``)."""
        found, pending = set(names), list(names)
        while pending:
            attribute = getattr(owner_type, pending.pop(), None)
            if isinstance(attribute, types.FunctionType) and not _is_library(attribute.__module__):
                self._function(attribute, depth + 1)
                new = set(names_read(attribute.__code__)) - found
                found |= new
                pending.extend(new)
        return found

    def _attributes(self, owner, names, depth):
        """The attributes ``names`` reads of a user object (and of the user methods they name)."""
        if _is_library(type(owner).__module__) or self._full(depth):
            return
        attributes = getattr(owner, "__dict__", None)
        if type(attributes) is not dict:
            return
        names = self._methods_names(type(owner), names, depth)
        for name in sorted(names):
            if name in attributes:
                self._entry(attributes, name, attributes[name], names, depth)

    def _cell(self, cell, depth):
        """A Cell: the plain attributes its ``construct`` (and the methods it names) reads, then its children
        (Parameters and Cells are lifted state and tree, watched by discovery)."""
        if not _is_library(type(cell).__module__):
            self._attributes(cell, ("construct",), depth)
        for child in cell.__dict__.get("_cells", {}).values():
            if child is not None and id(child) not in self._seen and not self._full(depth + 1):
                self._seen.add(id(child))
                self._cell(child, depth + 1)


def current_key(memo, fn):
    """The ``key()`` of what ``fn`` reads now; ``memo`` (a list, empty at first) keeps the last walk and its
    key, and the walk runs again only when a place it watches changed."""
    if not memo or not memo[0].unchanged():
        reads = OutsideReads(fn)
        memo[:] = [reads, reads.key()]
    return memo[1]


def reads_inputs(memo, fn, args, kwargs):
    """Whether one of the inputs ``args``/``kwargs`` is a Tensor ``fn`` reads from outside too (``current_key``'s
    ``memo``, filled here): MindSpore's PyNative Python compares it by identity on every call."""
    current_key(memo, fn)
    return memo[0].holds_any(itertools.chain(args, kwargs.values()))


def trace_effects(memo, fn, count, program):
    """After ``program``'s trace of ``fn``: 2 when it changed a list or dict it only writes to (``log.append(x)``:
    the change is undone and ``program`` made eager, so this call too runs the Python), else ``count + 1`` when
    it changed what it reads (a counter it increments: each call would compile again), else 0. ``memo``: the
    ``current_key`` memo of the call. A PyNative gradient runs eagerly from 2 on, as MindSpore runs the Python
    on each call; a single change (a cache filled on the first call) is not one."""
    if not memo:
        return 0
    reads = memo[0]
    if not all(_contents(container) == copy for container, copy in zip(reads.watched, reads.watched_copies)):
        # The trace appended placeholders: put the containers back, so the eager run of this very call
        # writes the real values (MindSpore's first call leaves real values there too).
        for container, copy in zip(reads.watched, reads.watched_copies):
            _restore(container, copy)
        program.eager = True
        return 2
    return count + 1 if OutsideReads(fn).key() != memo[1] else 0


def _contents(container):
    items = container.items() if type(container) is dict else enumerate(container)
    return tuple((name, _Same(item)) for name, item in items)


def _restore(container, copy):
    """Give ``container`` back the items ``_contents`` recorded of it."""
    if type(container) is dict:
        container.clear()
        container.update((name, same.value) for name, same in copy)
    else:
        container[:] = [same.value for _, same in copy]


def _same_items(sequence, copy):
    return len(sequence) == len(copy) and all(map(operator.is_, sequence, copy))
