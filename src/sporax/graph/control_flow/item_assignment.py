"""Item assignment and unpacking in compiled code, as MindSpore 2.10's graph runs them.

MindSpore's graph holds Tensors, lists and dicts as values: ``y[i] = v`` makes a new value and binds it to
``y``; another name for the old value keeps it (recorded, MindSpore 2.10 CPU, ``ms.jit`` and GRAPH_MODE):

* ``y = x; y[0] = 5`` changes ``y`` only, for a Tensor, a list and a dict alike;
* ``m[0][1] = 9`` changes ``m`` only: an item read out of ``m`` before (``inner = m[0]``) keeps its value, and
  so does a Tensor put into a list (``ys = [y]; ys[0][0] = 9`` leaves ``y``);
* ``z = y[0]; z[0] = 7`` leaves ``y`` (no view);
* a helper's ``items[0] = v`` on its argument does not reach the caller's list or Tensor.

A Parameter is a reference in the graph: ``w[0] = v`` writes the Parameter; so is an input Tensor that ``x += y``
updated in place before (``state.arguments``): ``x[0] = v`` then reaches the caller's Tensor. A list or dict that lives
outside the compiled function (an argument, a module-level or attribute container) keeps the rules of
``graph.outside_objects`` (it is changed as before, so those rules still see the change).

The same holds for ``m.append(v)``, ``m.clear()`` and ``m += v`` on a list and ``e.update(...)`` on a dict (another
name keeps the items; a helper's ``items.append(v)`` does not reach the caller), while ``extend``, ``insert``,
``pop`` and ``reverse`` change the one list every name holds (MindSpore's in-place list operations).

``ItemAssignments`` rewrites ``name[k] = v`` (and ``name[i][j] = v``, ``name[k] op= v``) into
``name = set_item(name, k, v)``, where ``name`` is a parameter or local of the function; a target under an
attribute (``self.p[0] = v``) keeps Python's statement. It also rewrites ``a, b = value`` into
``a, b = unpack(value, 2)``: MindSpore's graph takes the first items of a longer sequence (``a, b = (1, 2, 3)``
gives 1 and 2) and raises IndexError for a shorter one; a ``for a, b in items`` target unpacks each item so.

Example:
    >>> y = set_item(x, 0, 5)   # x keeps its value
"""
import ast
import copy
import weakref

from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor
from sporax.graph.control_flow import list_methods
from sporax.graph.control_flow.analysis import HELPER_PREFIX, UserStatementsPass, assigned_names
from sporax.graph.control_flow.dict_keys import subscript
from sporax.state.arguments import noted_in_place

_ELEMENT_GETTERS = {list: "list_getitem", tuple: "TupleGetItem"}
# the methods that change only the name they are called through (recorded: MindSpore 2.10 keeps another name's
# items after ``m.append(3)``, ``m.clear()``, ``e.update(...)``; ``extend``, ``insert``, ``pop``, ``reverse`` change
# the object every name holds)
_VALUE_METHODS = {list: ("append", "clear"), dict: ("update",)}
_METHOD_NAMES = frozenset(name for names in _VALUE_METHODS.values() for name in names)


def _root(target):
    """The Name a chain of subscripts ``name[i][j]`` starts from, or None."""
    while isinstance(target, ast.Subscript):
        target = target.value
    return target.id if isinstance(target, ast.Name) else None


def _plain_targets(target):
    """Whether an unpacking target holds names, subscripts and attributes only (no starred item)."""
    return all(not isinstance(item, ast.Starred) and
               (not isinstance(item, (ast.Tuple, ast.List)) or _plain_targets(item)) for item in target.elts)


def has_item_assignment(function_node):
    """Whether the function assigns to an item of a name, unpacks a value into names or calls ``append``,
    ``clear`` or ``update`` as a statement."""
    for node in ast.walk(function_node):
        targets = node.targets if isinstance(node, ast.Assign) else (
            [node.target] if isinstance(node, ast.AugAssign) else [])
        if isinstance(node, ast.For):
            targets = [node.target]
        for target in targets:
            if isinstance(target, ast.Subscript) and _root(target) is not None:
                return True
            if isinstance(target, (ast.Tuple, ast.List)) and _plain_targets(target):
                return True
        if (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
                and isinstance(node.value.func, ast.Attribute) and node.value.func.attr in _METHOD_NAMES):
            return True
    return False


def _runtime_call(runtime, name, args):
    return ast.Call(func=ast.Attribute(value=ast.Name(id=runtime, ctx=ast.Load()), attr=name, ctx=ast.Load()),
                    args=args, keywords=[])


def _load(node):
    """A load of the expression that ``node`` (a store target) names."""
    node = copy.deepcopy(node)
    for child in ast.walk(node):
        if hasattr(child, "ctx"):
            child.ctx = ast.Load()
    return node


class ItemAssignments(ast.NodeTransformer):
    """``name[k] = v`` -> ``name = runtime.set_item(name, k, v)``; ``a, b = v`` -> ``a, b = runtime.unpack(v, 2)``.

    Runs on the user's function before the control-flow rewrite, so a branch or loop body that assigns an item
    returns the new value as any other assignment. A nested function is rewritten with its own names."""

    def __init__(self, runtime, names):
        self.runtime = runtime
        self.names = set(names)  # the names this scope may rebind (its parameters and locals)

    def visit_FunctionDef(self, node):
        if node.name.startswith(HELPER_PREFIX):
            return self.generic_visit(node)
        arguments = node.args
        params = [item.arg for item in arguments.posonlyargs + arguments.args + arguments.kwonlyargs]
        params += [item.arg for item in (arguments.vararg, arguments.kwarg) if item is not None]
        declared = {name for child in ast.walk(node) if isinstance(child, (ast.Global, ast.Nonlocal))
                    for name in child.names}
        inner = ItemAssignments(self.runtime, (set(params) | set(assigned_names(node.body))) - declared)
        node.body = [inner.visit(statement) for statement in node.body]
        node.body = [item for statement in node.body
                     for item in (statement if isinstance(statement, list) else [statement])]
        return node

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node):
        return node

    def _set(self, target, value):
        """The value ``target`` (a chain of subscripts on a name) gets: ``set_item`` nested outwards."""
        while isinstance(target, ast.Subscript):
            value = _runtime_call(self.runtime, "set_item", [_load(target.value), target.slice, value])
            target = target.value
        return value

    def _rewritten(self, target):
        return isinstance(target, ast.Subscript) and _root(target) in self.names

    def visit_Assign(self, node):
        self.generic_visit(node)
        if len(node.targets) == 1 and self._rewritten(node.targets[0]):
            target = node.targets[0]
            return ast.copy_location(ast.Assign(targets=[ast.Name(id=_root(target), ctx=ast.Store())],
                                                value=self._set(target, node.value)), node)
        if len(node.targets) == 1 and isinstance(node.targets[0], (ast.Tuple, ast.List)) and \
                _plain_targets(node.targets[0]):
            return self._unpacked(node.targets[0], node.value, node)
        return node

    def _unpacked(self, target, value, node):
        """``a, b[0] = value``: the value cut to the targets' count, then one assignment per target."""
        value = _runtime_call(self.runtime, "unpack", [value, ast.Constant(value=len(target.elts))])
        nested = [item for item in target.elts if isinstance(item, (ast.Tuple, ast.List))]
        if not nested and not any(self._rewritten(item) for item in target.elts):
            return ast.copy_location(ast.Assign(targets=[target], value=value), node)
        # one temporary per target, in order, as Python assigns them left to right
        temporaries = [ast.Name(id=f"{HELPER_PREFIX}item_{id(item)}", ctx=ast.Store()) for item in target.elts]
        statements = [ast.Assign(targets=[ast.Tuple(elts=temporaries, ctx=ast.Store())], value=value)]
        for item, temporary in zip(target.elts, temporaries):
            loaded = ast.Name(id=temporary.id, ctx=ast.Load())
            if isinstance(item, (ast.Tuple, ast.List)):
                statements.extend(self._as_list(self._unpacked(item, loaded, node)))
            elif self._rewritten(item):
                statements.append(ast.Assign(targets=[ast.Name(id=_root(item), ctx=ast.Store())],
                                             value=self._set(item, loaded)))
            else:
                statements.append(ast.Assign(targets=[item], value=loaded))
        return [ast.copy_location(statement, node) for statement in statements]

    @staticmethod
    def _as_list(statements):
        return statements if isinstance(statements, list) else [statements]

    def visit_For(self, node):
        self.generic_visit(node)
        target = node.target
        if isinstance(target, (ast.Tuple, ast.List)) and _plain_targets(target):
            # ``for a, b in rows``: each item unpacks as ``a, b = item`` does (its first items)
            item = f"{HELPER_PREFIX}item_{id(node)}"
            node.target = ast.Name(id=item, ctx=ast.Store())
            unpacked = self._unpacked(target, ast.Name(id=item, ctx=ast.Load()), target)
            node.body = self._as_list(unpacked) + node.body
        return node

    def visit_Expr(self, node):
        self.generic_visit(node)
        call = node.value
        if (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr in _METHOD_NAMES
                and isinstance(call.func.value, ast.Name) and call.func.value.id in self.names):
            name = call.func.value.id
            changed = _runtime_call(self.runtime, "changed_copy", [ast.Name(id=name, ctx=ast.Load()),
                                                                   ast.Constant(value=call.func.attr), *call.args])
            changed.keywords = call.keywords
            return ast.copy_location(ast.Assign(targets=[ast.Name(id=name, ctx=ast.Store())], value=changed), node)
        return node

    def visit_AugAssign(self, node):
        self.generic_visit(node)
        if not self._rewritten(node.target):
            return node
        current = ast.BinOp(left=_load(node.target), op=node.op, right=node.value)
        return ast.copy_location(ast.Assign(targets=[ast.Name(id=_root(node.target), ctx=ast.Store())],
                                            value=self._set(node.target, current)), node)


class ListAugmented(UserStatementsPass):
    """``m += v`` -> ``if is_list(m): m = list_added(m, v)`` ``else: m += v``: a list gets a new list, as MindSpore's
    graph gives it (``l = m; m += [5]`` leaves ``l``); a Tensor keeps its own in-place operator, which runs in the
    user's frame (``ops.tensor_operators``). Runs after ``ControlFlowRewriter``, whose ``if`` this is not."""

    def visit_AugAssign(self, node):
        self.generic_visit(node)
        if not isinstance(node.op, ast.Add) or not isinstance(node.target, ast.Name):
            return node
        name = node.target.id
        test = _runtime_call(self.runtime, "is_list", [ast.Name(id=name, ctx=ast.Load())])
        added = ast.Assign(targets=[ast.Name(id=name, ctx=ast.Store())],
                           value=_runtime_call(self.runtime, "list_added", [ast.Name(id=name, ctx=ast.Load()),
                                                                             node.value]))
        return ast.copy_location(ast.If(test=test, body=[added], orelse=[node]), node)


def is_list(value):
    """Whether ``value`` is a plain list (``ListAugmented``)."""
    return type(value) is list


def list_added(items, more):
    """``items += more`` on a list in compiled code: a new list (``items`` keeps its items)."""
    return items + list(more)


def changed_copy(container, method, *args, **kwargs):
    """``container.method(...)`` as a statement in compiled code. ``append``/``clear`` on a list and ``update`` on a
    dict give a changed copy, which the name is bound to (another name for ``container`` keeps its items, as in
    MindSpore's graph); any other method changes ``container`` itself."""
    if type(container) is list:
        list_methods.check(method, container, args, kwargs)
    if type(container) is dict and method == "update":
        list_methods.check_dict_update(kwargs)
    if method in _VALUE_METHODS.get(type(container), ()):
        source, container = container, type(container)(container)
        list_methods.carry(source, container)
    getattr(container, method)(*args, **kwargs)
    list_methods.note(method, container)
    return container


def _outside(container):
    """Whether ``container`` lives outside the compiled call (``graph.outside_objects`` keeps its rules)."""
    if getattr(container, "outside_copy", False):
        return True
    from sporax.graph.helper_changes import active  # the graph package imports this module: import when called
    changes = active()
    return changes is not None and id(container) in changes.outside


_SOURCES = {}  # id of a Tensor set_item made -> (a weak reference to it, the Tensor it was made from first)
_MAX_SOURCES = 4096


def item_source(tensor):
    """The Tensor that ``set_item`` calls made ``tensor`` from (``x[0] = 7; x[1] = 8``: the first ``x``), or None.

    A branch or loop body that sets an item of a variable it got changes that variable as ``x += 1`` does
    (``tracing.kept_in_place``)."""
    entry = _SOURCES.get(id(tensor))
    return entry[1] if entry is not None and entry[0]() is tensor else None


def _note_source(updated, container):
    if len(_SOURCES) >= _MAX_SOURCES:
        _SOURCES.clear()
    source = item_source(container)
    _SOURCES[id(updated)] = (weakref.ref(updated), container if source is None else source)


def set_item(container, index, value):
    """``container[index] = value`` as MindSpore's graph runs it: a new Tensor, list or dict with the item set
    (``container`` keeps its value); a Parameter, an input Tensor updated in place before and an outside list or
    dict change in place."""
    if isinstance(container, Tensor) and not isinstance(container, Parameter) and not noted_in_place(container):
        updated = Tensor._wrap(container._value)
        updated[index] = value
        _note_source(updated, container)
        return updated
    if type(container) in (list, dict) and not _outside(container):
        updated = type(container)(container)
        updated[index] = value
        return updated
    container[index] = value
    return container


def unpack(value, count):
    """``value``'s first ``count`` items for ``a, b = value``: MindSpore's graph reads ``value[0]``, ``value[1]``
    ... and drops the rest, so a longer value unpacks and a shorter one raises the error of its item read."""
    kind = type(value)
    if kind in (tuple, list):
        if len(value) < count:
            size = len(value)
            raise IndexError(f"{_ELEMENT_GETTERS[kind]} evaluator index should be in range[{-size}, {size}), "
                             f"but got {size}. ({count} names to unpack, {size} values)")
        return tuple(value[:count])
    if isinstance(value, Tensor) and value.ndim:
        size = value.shape[0]
        if size < count:
            raise IndexError(f"For 'StridedSlice', the 'strides[0]' cannot be negative number and 'begin[0]' must "
                             f"be in [{-size}, {size}) when 'shrink_axis_mask' is greater than 0, but got "
                             f"'strides[0]': 1, 'begin[0]': {size}. ({count} names to unpack a Tensor of {size} rows)")
        return tuple(value[index] for index in range(count)) if size > count else value
    if kind in (str, dict, int, float, bool):
        return tuple(subscript(value, index) for index in range(count))
    return value
