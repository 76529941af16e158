"""Module globals in compiled code: ``global`` declarations and augmented assignments on globals.

MindSpore 2.10's graph compiler (``ms.jit`` functions, GRAPH_MODE ``construct``) treats module
globals as values read when the function runs, never as variables it rebinds:

* ``global h`` then ``h = ...`` (or ``h += ...`` on a number, list or tuple, ``h.append(...)``)
  changes nothing: later reads of ``h``, in the function and after the call, see the global's value
  (``global h; h = h + 1; return h`` returns the old ``h``; ``h = 7`` creates no new global).
* ``h += x`` (``-=``, ``*=``, ...) on a global Tensor -- declared ``global`` or not -- updates that
  Tensor object in place at every call, so the global and every alias of it change, and the function
  returns the new values.
* ``z += x`` on an undeclared global list or tuple rebinds a local copy: the global keeps its items
  (Python would raise UnboundLocalError, as PyNative does).

``rewrite_declared`` and ``rewrite_augmented`` change the function's AST; ``declared_global`` and
``augmented_global`` run in the converted code (re-exported by ``control_flow.runtime``). An in-place
update of a global Tensor runs at every call, which one trace cannot do: such a function runs eagerly
(a warned fallback), as MindSpore repeats the update.

Example:
    >>> z = Tensor([1.0, 2.0])
    >>> @jit
    ... def f(x):
    ...     z += x        # z becomes [2., 3.] in place, then [3., 4.] at the next call
    ...     return z
"""
import ast
import copy
import operator
import threading

import jax

from sporax.core.tensor import Tensor
from sporax.state.fallback import ExplainedFallback

GLOBALS = "_cf_globals"  # the converted function's free variable holding its module's namespace
DROPPED = "_cf_dropped"  # the local that takes the values a compiled function assigns to a declared global
_OPERATORS = {"Add": operator.add, "Sub": operator.sub, "Mult": operator.mul, "Div": operator.truediv,
              "FloorDiv": operator.floordiv, "Mod": operator.mod, "Pow": operator.pow,
              "MatMult": operator.matmul, "BitAnd": operator.and_, "BitOr": operator.or_,
              "BitXor": operator.xor, "LShift": operator.lshift, "RShift": operator.rshift}
_SYMBOLS = {"Add": "+", "Sub": "-", "Mult": "*", "Div": "/", "FloorDiv": "//", "Mod": "%", "Pow": "**",
            "MatMult": "@", "BitAnd": "&", "BitOr": "|", "BitXor": "^", "LShift": "<<", "RShift": ">>"}
_copies = threading.local()
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def _runtime_call(runtime, name, args):
    return ast.Call(func=ast.Attribute(value=ast.Name(id=runtime, ctx=ast.Load()), attr=name, ctx=ast.Load()),
                    args=args, keywords=[])


def _globals_call():
    # a free variable, not a `globals()` call, which the control-flow rewriter turns into a runtime call
    return ast.Name(id=GLOBALS, ctx=ast.Load())


def _augmented(runtime, node, value, target, declared):
    """``target = augmented_global(name, op, value, <module namespace>, 'name', declared)`` for ``node``."""
    name = node.target.id
    call = _runtime_call(runtime, "augmented_global", [
        ast.Name(id=name, ctx=ast.Load()), ast.Constant(type(node.op).__name__), value, _globals_call(),
        ast.Constant(name), ast.Constant(declared)])
    return ast.copy_location(ast.Assign(targets=[ast.Name(id=target, ctx=ast.Store())], value=call), node)


class _Declared(ast.NodeTransformer):
    """Drops the ``global`` statements of one function scope and its stores to those names."""

    def __init__(self, names, runtime):
        self.names, self.runtime = names, runtime

    def visit_Global(self, node):
        return ast.copy_location(ast.Pass(), node)  # its loop targets become locals read first

    def visit_Name(self, node):
        if node.id not in self.names:
            return node
        if isinstance(node.ctx, ast.Store):
            return ast.copy_location(ast.Name(id=DROPPED, ctx=ast.Store()), node)
        if isinstance(node.ctx, ast.Del):
            raise SyntaxError(f"'del {node.id}' of a global")
        # a copy of a list or dict, so that append/pop/item stores on it leave the global as it was
        return ast.copy_location(_runtime_call(self.runtime, "declared_global", [node]), node)

    def visit_AugAssign(self, node):
        if isinstance(node.target, ast.Name) and node.target.id in self.names:
            return _augmented(self.runtime, node, self.visit(node.value), DROPPED, True)
        return self.generic_visit(node)

    def _scope(self, node):
        rewrite_declared(node, self.runtime)  # a nested function: its own scope and its own declarations
        return node

    visit_FunctionDef = visit_AsyncFunctionDef = _scope

    def visit_ClassDef(self, node):
        return node

    visit_Lambda = visit_ClassDef

    def _comprehension(self, node):
        # its targets are its own locals, which hide the declared globals of that name
        hidden = {target.id for generator in node.generators for target in ast.walk(generator.target)
                  if isinstance(target, ast.Name)}
        names, self.names = self.names, self.names - hidden
        try:
            return self.generic_visit(node)
        finally:
            self.names = names

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _comprehension


def _scope_nodes(function_node):
    pending = list(function_node.body)
    while pending:
        node = pending.pop()
        yield node
        if not isinstance(node, _SCOPES):
            pending.extend(ast.iter_child_nodes(node))


def rewrite_declared(function_node, runtime):
    """Rewrite ``function_node``'s body (and its nested functions') for the names its ``global`` statements
    declare; returns whether there were any. A ``for`` loop's target stays a local that starts as the
    global (MindSpore returns the loop's last value, the global keeping its own)."""
    nodes = list(_scope_nodes(function_node))
    names = {name for node in nodes if isinstance(node, ast.Global) for name in node.names}
    loop_targets = {target.id for node in nodes if isinstance(node, ast.For)
                    for target in ast.walk(node.target) if isinstance(target, ast.Name)}
    nested = any(isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) for node in nodes)
    if names or nested:
        transformer = _Declared(names - loop_targets, runtime)
        function_node.body = [transformer.visit(statement) for statement in function_node.body]
    return bool(names) or nested and any(isinstance(node, ast.Global) for node in ast.walk(function_node))


class _Augmented(ast.NodeTransformer):
    def __init__(self, names, runtime):
        self.names, self.runtime = names, runtime

    def visit_AugAssign(self, node):
        if not (isinstance(node.target, ast.Name) and node.target.id in self.names):
            return self.generic_visit(node)
        return _augmented(self.runtime, node, self.visit(node.value), node.target.id, False)

    def _scope(self, node):
        return node

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = visit_Lambda = _scope


def rewrite_augmented(function_node, names, runtime):
    """Rewrite ``name op= value`` for the locals ``names`` that start as module globals (read first)."""
    if names:
        transformer = _Augmented(names, runtime)
        function_node.body = [transformer.visit(statement) for statement in function_node.body]


def declared_global(value):
    """A declared global read in compiled code: lists and dicts as shallow copies (their changes are dropped), a
    helper's copy of one too (``sporax.graph.helper_changes``)."""
    if getattr(type(value), "outside_copy", False):
        return (list if isinstance(value, list) else dict)(value)
    if type(value) not in (list, dict):
        return value
    copied = copy.copy(value)
    found = getattr(_copies, "found", None)
    if found is not None:
        found[id(copied)] = (copied, value)
    return copied


def collect_copies(found):
    """From now on ``declared_global`` notes in ``found`` each copy it makes: id -> (copy, the global)
    (``outside_objects.Outside``: a compiled function that returns the declared global gives back the global
    itself)."""
    _copies.found = found


def _traced(tensor):
    return isinstance(tensor._array if isinstance(tensor, Tensor) else tensor, jax.core.Tracer)


def augmented_global(value, op, other, namespace, name, declared):
    """``name op= other`` in compiled code where ``name`` reads module global ``value``: the global Tensor
    itself updated in place; otherwise the new value, to drop (``declared``) or bind to the local."""
    is_global = namespace.get(name, None) is value
    if isinstance(value, Tensor) and is_global:
        result = _OPERATORS[op](value, other)
        if _traced(result):
            raise ExplainedFallback(
                f"'{name} {_SYMBOLS[op]}= ...' updates the module-global Tensor '{name}' in "
                "place, which MindSpore's graph repeats at every call; a trace would run it once, so the function "
                f"runs eagerly. To compile it, make '{name}' a Parameter updated with ops.assign, or pass it in and "
                "return the new value.")
        return value.assign_value(result)
    if declared:
        return None  # MindSpore drops the rebinding of a declared global
    return _OPERATORS[op](value, other)  # lists and tuples too: a new local, the global keeps its items


class _Missing(ast.NodeTransformer):
    """Reads of ``names`` become ``global_name`` calls; a nested function, lambda or class keeps its own."""

    def __init__(self, names, runtime):
        self.names, self.runtime = names, runtime

    def visit_Name(self, node):
        if node.id not in self.names or not isinstance(node.ctx, ast.Load):
            return node
        return ast.copy_location(_runtime_call(self.runtime, "global_name", [ast.Constant(node.id), _globals_call()]),
                                 node)

    def _scope(self, node):
        return node

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = visit_Lambda = _scope


def rewrite_missing(function_node, plain, runtime):
    """Rewrite the reads of names that nothing defines when ``plain`` is converted (no local, parameter,
    closure variable, module global or builtin) into ``global_name`` calls; returns whether there were any."""
    bound = set(plain.__code__.co_freevars) | set(plain.__code__.co_varnames) | set(plain.__code__.co_cellvars)
    for node in ast.walk(function_node):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load) or isinstance(node, ast.arg):
            bound.add(node.id if isinstance(node, ast.Name) else node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
    namespace = plain.__globals__
    builtins = namespace.get("__builtins__", {})
    builtins = builtins if isinstance(builtins, dict) else vars(builtins)
    declared = {name for node in ast.walk(function_node) if isinstance(node, ast.Global) for name in node.names}
    missing = {node.id for node in _scope_nodes(function_node) if isinstance(node, ast.Name)
               and isinstance(node.ctx, ast.Load) and (node.id not in bound or node.id in declared)
               and node.id not in namespace and node.id not in builtins and not node.id.startswith("_cf")}
    if missing:
        transformer = _Missing(missing, runtime)
        function_node.body = [transformer.visit(statement) for statement in function_node.body]
    return bool(missing)


def global_name(name, namespace):
    """A read of ``name`` that was undefined when the function was converted: the module global defined since,
    else MindSpore 2.10's NameError."""
    if name in namespace:
        return namespace[name]
    raise NameError(f"The name '{name}' is not defined, or not supported in graph mode. Define '{name}' at module "
                    "level or pass it as an argument.")
