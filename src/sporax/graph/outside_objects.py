"""Python objects that live outside a compiled function: lists it returns, lists and attributes it changes.

MindSpore's graph keeps a Python list or dict that exists before the call -- a module-level list, an item of
one, a list argument, a list attribute of a Cell or of a ``jit_class`` instance -- as that Python
object: ``return global_list``, ``return self.x[0]`` or ``y = x[0]; y.reverse(); return y`` give
back the object itself (``id(output) == id(global_list)``), its in-place changes included. A
compiled sporax program rebuilds its outputs from a tree structure, which makes copies; ``Outside``
records, while the function is traced, which output positions hold such an outside list, and
``restore`` puts the objects back after each call. A list created by the function itself stays a
fresh copy per call, and so does any list that holds a traced value.

What MindSpore 2.10's graph does with a change to such a container (recorded: module-level lists and dicts, list
arguments, in GRAPH_MODE Cells and ``@jit`` functions; Cell attributes follow ``graph.attribute_views``):
``append``, ``clear``, ``x[i] = v``, ``x += y`` on a list and ``update``, ``pop`` on a dict change only the
graph's own copy: the function sees them, the caller's container keeps its items, and returning it gives
that new copy. ``extend``, ``insert``, ``pop``, ``reverse`` (and the methods not recorded) on a list and
``d[k] = v`` on a dict change the caller's container at every call, whether or not the function reads it
afterwards; under STRICT in GRAPH_MODE none does (``graph_only``), and under STRICT ``@jit`` in PyNative mode
changes no list or dict argument (``arguments_graph_only``) but still the module-level ones. A change of a list
inside such a container (``x[0].append(v)``) follows the same rules; a dict inside changes at every call. The
graph keeps the length a module-level container had when first compiled, its own changes included
(``attribute_views.global_views``: ``len`` is folded, item reads see the list as it is now). ``d |= e`` on
a dict raises RuntimeError, ``d.pop(k)`` in GRAPH_MODE below LAX AttributeError, and reading ``d`` after
``d.pop(k)`` TypeError; on a dict inside one (``x["a"].pop(k)``, ``x["a"] |= e``) they raise at every level.
Under STRICT a returned container MindSpore only copies is a new one; ``global x; x += y; return x`` returns
``x`` itself. A helper function the compiled one calls works on copies (``graph.helper_changes``). An attribute
update that reads
the attribute first (``self.count = self.count + 1``, ``obj.x += 1`` on a number, a Tensor or a NumPy array
that is no Parameter) also runs at every call. A trace runs the Python once, so ``undo_changes`` puts back what
it changed, and a function whose changes run at every call runs eagerly on every call; the methods are told
apart by the bytecode (``container_changes``).

Example:
    >>> outside = Outside(function, args, kwargs)              # in the trace, before the call
    >>> outputs = function(*args, **kwargs)
    >>> outputs, sources = outside.returned_sources(outputs)
    >>> rerun = outside.undo_changes()
    >>> outputs = restore(program(arrays), sources, args)      # after each compiled call
"""
import dis
import functools
import types

import jax
import numpy as np

from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor
from sporax.graph.control_flow.module_globals import collect_copies
from sporax.state.fallback import ExplainedFallback, warn_fallback

_DEPTH = 4  # how deep containers and objects are searched for outside lists
_MISSING = object()
_LOADS = ("LOAD_GLOBAL", "LOAD_NAME", "LOAD_FAST", "LOAD_DEREF", "LOAD_ATTR", "LOAD_METHOD")
# the changes MindSpore 2.10's graph makes to its own copy of an outside list or dict only (recorded): the caller's
# container keeps its items; every other change runs at every call (graph.attribute_views for Cell attributes)
_GRAPH_ONLY = {list: {"append", "clear", "__setitem__", "__iadd__"}, dict: {"update", "pop"}}
_AUGMENTED = {"+=": "__iadd__", "|=": "__ior__"}  # x += y on a list, d |= e on a dict
_DICT_ONLY = {"update", "setdefault", "popitem"}
_MUTATORS = {"append", "extend", "insert", "reverse", "remove", "clear", "sort", "update", "setdefault", "pop",
             "popitem"}


def every_call_methods(kind):
    """The methods of ``kind`` (list or dict) whose change to an outside container MindSpore's graph repeats at
    every call."""
    methods = {name for name in _MUTATORS if hasattr(kind, name)} | ({"__setitem__"} if kind is dict else set())
    return methods - _GRAPH_ONLY[kind]


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


def code_names(code):
    """The global and attribute names ``code`` and the functions it defines use."""
    names = set(code.co_names)
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            names |= code_names(constant)
    return names


@functools.lru_cache(maxsize=1024)
def container_changes(code):
    """The list and dict methods (and ``__setitem__`` for ``x[i] = v``, ``__iadd__`` for ``x += y``) ``code``
    (and the functions it defines) calls on each name it loads: a read-only name -> frozenset of methods.

    Cached per code object: every Cell call inside a trace asks for its ``construct``'s (``attribute_views``),
    and disassembling them was ~7% of the CIFAR ResNet-18's trace (84 calls, one code per Cell class;
    benchmarks/first_step.md)."""
    instructions = list(dis.get_instructions(code))
    found = {}
    for index, current in enumerate(instructions):
        following = instructions[index + 1] if index + 1 < len(instructions) else None
        if following is not None and following.opname in ("LOAD_METHOD", "LOAD_ATTR") and following.argval in _MUTATORS:
            if current.opname in _LOADS:
                found.setdefault(current.argval, set()).add(following.argval)
            elif current.opname == "BINARY_SUBSCR" and index >= 2 and instructions[index - 2].opname in _LOADS \
                    and following.argval not in _DICT_ONLY:
                # ``x[0].append(v)``: a change of a list inside ``x`` (one plain index or key); MindSpore changes a
                # dict inside at every call (``x["a"].update(...)``, recorded), as it does for unknown methods
                found.setdefault(instructions[index - 2].argval, set()).add(following.argval)
        elif current.opname == "STORE_SUBSCR" and index >= 2 and instructions[index - 2].opname in _LOADS:
            found.setdefault(instructions[index - 2].argval, set()).add("__setitem__")
        elif current.opname == "STORE_SUBSCR" and index >= 4 and instructions[index - 2].opname == "BINARY_SUBSCR" \
                and instructions[index - 4].opname in _LOADS:  # x[0][i] = v
            found.setdefault(instructions[index - 4].argval, set()).add("__setitem__")
        elif current.opname.startswith("STORE_") and _augmented(instructions, index) in _AUGMENTED:
            found.setdefault(current.argval, set()).add(_AUGMENTED[_augmented(instructions, index)])
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            for name, methods in container_changes(constant).items():
                found.setdefault(name, set()).update(methods)
    return types.MappingProxyType({name: frozenset(methods) for name, methods in found.items()})


def _nested_dict_changes(code):
    """``(name, key, method)`` for each ``name[key].pop(...)`` (method 'pop') and ``name[key] |= ...``
    ('__ior__') in ``code`` and the functions it defines, ``key`` a constant."""
    instructions = list(dis.get_instructions(code))
    found = []
    for index, current in enumerate(instructions):
        start = index - 1
        while start >= 0 and instructions[start].opname == "COPY":  # x[k] op= y copies x and k first
            start -= 1
        if current.opname != "BINARY_SUBSCR" or start < 1 or instructions[start].opname != "LOAD_CONST" \
                or instructions[start - 1].opname not in _LOADS:
            continue
        name, key = instructions[start - 1].argval, instructions[start].argval
        following = instructions[index + 1] if index + 1 < len(instructions) else None
        if following is not None and following.opname in ("LOAD_METHOD", "LOAD_ATTR") and following.argval == "pop":
            found.append((name, key, "pop"))
        elif start < index - 1:  # the augmented operator comes after its right operand
            operator = next((item for item in instructions[index + 1:] if item.opname == "BINARY_OP"), None)
            if operator is not None and operator.argrepr == "|=":
                found.append((name, key, "__ior__"))
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            found.extend(_nested_dict_changes(constant))
    return found


def _read_after_pop(code, name):
    """Whether ``code`` reads ``name`` again after calling ``name.pop(...)``."""
    instructions = list(dis.get_instructions(code))
    popped = False
    for index, current in enumerate(instructions):
        if current.opname in _LOADS and current.argval == name:
            following = instructions[index + 1] if index + 1 < len(instructions) else None
            if popped:
                return True
            popped = following is not None and following.opname in ("LOAD_METHOD", "LOAD_ATTR") \
                and following.argval == "pop"
    return False


def _augmented(instructions, index):
    """The operator of the augmented assignment whose result the store at ``index`` takes ('+=', '|=', ...);
    Python 3.11 puts a SWAP between the operator and an attribute or item store."""
    index -= 1
    while index >= 0 and instructions[index].opname == "SWAP":
        index -= 1
    return instructions[index].argrepr if index >= 0 else None


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


def holds_traced(value):
    """Whether ``value`` (a tree of containers) holds a traced Tensor or array."""
    leaves = jax.tree_util.tree_leaves(value, is_leaf=lambda leaf: isinstance(leaf, Tensor))
    return any(isinstance(leaf._array if isinstance(leaf, Tensor) else leaf, jax.core.Tracer) for leaf in leaves)


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

    def __init__(self, function, args, kwargs, owner=None, graph_only=False, arguments_graph_only=False,
                 refuse_dict_pop=False):
        self.graph_only = graph_only  # STRICT GRAPH_MODE: MindSpore changes only its own copies
        self.arguments_graph_only = arguments_graph_only  # STRICT @jit in PyNative: of the arguments only
        self.refuse_dict_pop = refuse_dict_pop
        walk = _Walk()
        self.globals, self.frozen = [], []  # (namespace, name, container); see ``undo_changes``
        bound = hasattr(function, "__self__")
        function = getattr(function, "__func__", function)
        code = getattr(function, "__code__", None)
        parameters = code.co_varnames[int(bound):code.co_argcount] if code is not None else ()
        for position, item in enumerate(args):
            walk.visit(item, parameters[position] if position < len(parameters) else None, (position,))
        for name, item in kwargs.items():
            walk.visit(item, name)
        self.from_arguments = set(walk.lists)  # the containers reached from the arguments
        self.declared = {}  # the copies of declared globals (``global x``) the function reads
        collect_copies(self.declared)
        self.read = _read_attributes(code) if code is not None else set()
        self.changes = container_changes(code) if code is not None else {}
        if code is not None:
            globals_ = getattr(function, "__globals__", {})
            for name in code_names(code):
                if name in globals_:
                    walk.visit(globals_[name], name)
                    if type(globals_[name]) in (list, dict):
                        self.globals.append((globals_, name, globals_[name]))
            for name, cell in zip(code.co_freevars, getattr(function, "__closure__", None) or ()):
                try:
                    walk.visit(cell.cell_contents, name)
                except ValueError:  # an empty closure cell
                    continue
        # MindSpore's errors for ``d |= e`` and (``refuse_dict_pop``: GRAPH_MODE below LAX) ``d.pop(k)`` on a dict
        # argument or module-level dict (attributes, a Cell's included, follow graph.attribute_views)
        direct = {id(value) for _, _, value in self.globals}
        for name, methods in self.changes.items():
            if any(type(value) is dict and name in walk.names[key] and (path is not None or key in direct)
                   for key, (path, value) in walk.lists.items()):
                if "__ior__" in methods:
                    raise dict_union_error(name)
                if "pop" in methods and refuse_dict_pop:
                    raise dict_pop_error(name)
                if "pop" in methods and _read_after_pop(code, name):
                    raise dict_read_after_pop_error(name)
        if owner is not None:
            walk.visit(owner, "self")
        for name, key, method in _nested_dict_changes(code) if code is not None else ():
            # recorded: ``x["a"].pop(k)`` and ``x["a"] |= e`` on a dict inside an outside list or dict, a Cell
            # attribute's included, raise at every syntax level whether or not the function reads it afterwards
            for path, value in walk.lists.values():
                inner = value.get(key) if isinstance(value, dict) else None
                if type(inner) is dict and name in walk.names[id(value)]:
                    raise (dict_union_error if method == "__ior__" else dict_read_after_pop_error)(f"{name}[{key!r}]")
        self.names = walk.names
        self.lists = walk.lists
        self.list_items = [(value, dict(value) if isinstance(value, dict) else list(value))
                           for _, value in walk.lists.values()]
        self.snapshots = {id(value): items for value, items in self.list_items}
        self.attributes = [(obj, _public(obj)) for obj in walk.objects.values()]

    def returned_sources(self, outputs):
        """``(outputs, sources)``: ``sources`` the output positions (index paths and keys into nested tuples,
        lists and dicts) that hold an outside list or dict, with where it comes from: ``(position,
        ("argument", path))`` or ``(position, ("object", container))``; ``outputs`` with such containers
        copied, so that ``undo_changes`` leaves what the trace returned as it was."""
        sources = []

        def visit(value, position):
            copied = self.declared.get(id(value)) if position is not None else None
            if copied is not None and copied[0] is value and not self.graph_only and _same_items(value, copied[1]):
                # ``global x; x += [3]; return x``: MindSpore drops the change and returns the global itself
                sources.append((position, ("object", copied[1])))
                return value
            entry = self.lists.get(id(value)) if type(value) in (list, dict) and position is not None else None
            if entry is not None and entry[1] is value and not holds_traced(value) and not self._copied(value) \
                    and not (self._changed(value) and not self._every_call(value)):  # else the graph's own copy
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
        return copied, tuple(sources)

    def _changed(self, value, depth=_DEPTH):
        """Whether the trace changed the outside list or dict ``value``, or one it holds."""
        items = self.snapshots[id(value)]
        if isinstance(value, dict):
            if value.keys() != items.keys() or any(value[key] is not then for key, then in items.items()):
                return True
        elif len(value) != len(items) or any(now is not then for now, then in zip(value, items)):
            return True
        inner = value.values() if isinstance(value, dict) else value
        return depth > 0 and any(id(item) in self.snapshots and self._changed(item, depth - 1) for item in inner)

    def _copied(self, value):
        """Whether MindSpore's graph holds only its own copy of ``value`` (STRICT; see the module doc), which it
        returns whether or not it changed it."""
        return self.graph_only or self.arguments_graph_only and self.lists[id(value)][0] is not None

    def _every_call(self, value):
        """Whether MindSpore repeats the change of ``value`` at every call (``_GRAPH_ONLY``): by the methods
        called on the names it is reached by, else on any name (``y = x[0]; y.reverse()``); True when none."""
        if self._copied(value):
            return False
        methods = set().union(*(self.changes.get(name, set()) for name in self.names.get(id(value), ())))
        methods = methods or set().union(*self.changes.values())
        return not methods or bool(methods - _GRAPH_ONLY[type(value)])

    def undo_changes(self):
        """Put back what the trace changed in outside lists and attributes; True when a change must run at
        every call (see the module doc), so the function runs eagerly."""
        rerun = False
        # MindSpore's graph keeps seeing a module-level container as it was when first compiled, the changes that
        # run at every call included (``attribute_views.global_views``)
        self.frozen = [(namespace, name, value, self.snapshots[id(value)]) for namespace, name, value in self.globals
                       if self._changed(value) and self._every_call(value) and not holds_traced(value)]
        for value, items in self.list_items:
            if self._changed(value):
                rerun = rerun or (self._every_call(value) and not holds_traced(value))
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


def _same_items(one, other):
    if isinstance(one, dict):
        return one.keys() == other.keys() and all(one[key] is other[key] for key in one)
    return len(one) == len(other) and all(left is right for left, right in zip(one, other))


def _step(position, index):
    return None if position is None else position + (index,)


def resolve_source(source, args):
    """The outside list or dict ``source`` (see ``Outside.returned_sources``) names, found among ``args``."""
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
        original = resolve_source(source, args)
        if original is not None:
            outputs = _replace(outputs, position, original)
    return outputs


def dict_union_error(name):
    """MindSpore 2.10's error for ``d |= e`` on a dict ``name`` that lives outside compiled code (recorded: a
    module-level dict, a dict argument, a Cell's dict attribute at LAX; ``@jit`` and GRAPH_MODE alike)."""
    return RuntimeError(
        f"For operation 'bitwise_or', current input arguments types are <Dictionary, Dictionary>. The 1-th "
        f"argument type 'Dictionary' is not supported now (`{name} |= ...` in compiled code). Build the new dict "
        f"outside the compiled function and pass it in.")


def dict_pop_error(name):
    """MindSpore 2.10's error for ``d.pop(k)`` in GRAPH_MODE below the LAX syntax level, ``d`` a dict argument,
    module-level dict or Cell attribute (recorded)."""
    return AttributeError(
        f"In JIT strict mode, cannot get attributes pop or the dict object has no attribute: 'pop' ({name}). "
        f"Make it a Parameter, or set jit_syntax_level to mindspore.LAX (MS_DEV_JIT_SYNTAX_LEVEL=2).")


def dict_read_after_pop_error(name):
    """MindSpore 2.10's error for reading a dict argument or module-level dict after ``d.pop(k)`` in compiled code
    (``len(d)``, ``return d``; recorded: ``@jit`` and GRAPH_MODE at LAX, and a helper function that returns it),
    where its graph makes ``pop`` give the pair of the new dict and the item."""
    return TypeError(
        f"For 'TupleGetItem', input[0] should be Sequence, but got Int64. (`{name}` is read after `{name}.pop(...)` "
        f"in compiled code, which MindSpore's graph does not support.) Keep the popped value, or build a new dict "
        f"without the key: {{k: v for k, v in {name}.items() if k != key}}.")


def warn_outside_changes(name):
    """Warn once that ``name`` runs eagerly because it changes outside lists or attributes at every call."""
    warn_fallback(name, ExplainedFallback(
        "it changes a list, dict or attribute that lives outside it (an append/pop/reverse on a module-level or "
        "Cell list, or `self.x = self.x + 1` on a Python number, Tensor or array), which MindSpore's graph "
        "repeats at every call; a trace would run it once. Keep such bookkeeping outside the compiled function, "
        "or make the value a Parameter updated with ops.assign, to compile it."))
