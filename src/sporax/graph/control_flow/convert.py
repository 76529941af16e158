"""Convert a function's Python control flow for compilation, once per function, cached.

``converted(function)`` returns a function with the same signature, globals, defaults and
closure values whose ``if``/``while``/``for``, conditional expressions and boolean operators
call ``control_flow.runtime`` (see ``transformer`` for the rewrite). The original is returned
unchanged when there is nothing to convert or it cannot be converted (no source, a lambda whose
source line holds another lambda with the same parameters, a construct ``analysis.unsupported``
names); the reason is kept in ``conversion_problem(function)``
so an eager fallback can say which line and construct stopped compilation.

Algorithm: ``inspect.getsource`` -> ``ast.parse`` (a lambda becomes ``def _cf_lambda(...): return
body``, so the calls in its body are converted too) -> the two transformer passes -> the function
is wrapped in a factory ``def _cf_factory(_cf_rt, <free variables>)`` so that its closure and
the runtime module are free variables (the user's module globals stay untouched) -> compile
with the original file name and line numbers (tracebacks point at the user's lines) -> build
the function from the inner code object with the original closure cells (plus cells for the
runtime module and, for zero-argument ``super()``, the class).
"""
import ast
import inspect
import linecache
import os
import re
import textwrap
import types
import weakref

from sporax.core.context import GRAPH_MODE, get_mode
from sporax.graph.control_flow import runtime
from sporax.graph.control_flow.analysis import (assigned_names, contains_control_flow, graph_syntax_error, graph_worded,
                                                refused, unsupported)
from sporax.graph.control_flow.dict_keys import DictKeys, has_dict_access
from sporax.graph.control_flow.instance_creation import creates_instances
from sporax.graph.control_flow.item_assignment import ItemAssignments, ListAugmented, has_item_assignment
from sporax.graph.control_flow.graph_members import rewrite_attribute_reads, rewrite_member_reads
from sporax.graph.control_flow.module_globals import GLOBALS, rewrite_augmented, rewrite_declared, rewrite_missing
from sporax.graph.control_flow.scalars import ScalarArithmetic, has_arithmetic
from sporax.graph.control_flow.transformer import (INLINE_LAMBDA, PENDING_ERRORS, RUNTIME, assignment_lines,
                                                  ControlFlowRewriter, JumpLowering, PrivateNames, read_names)
from sporax.graph.control_flow.with_contexts import WithContexts, has_with
from sporax.state.scope import compiling_graph

_FACTORY = "_cf_factory"
_LAMBDA = "_cf_lambda"
_converted = weakref.WeakKeyDictionary()
_problems = weakref.WeakKeyDictionary()
_UNCONVERTED = object()
_UNKNOWN = object()
_syntax_verdicts = weakref.WeakKeyDictionary()
_NOT_CONVERTED = frozenset(["sporax"])


class ConversionError(Exception):
    """The function's source cannot be converted (kept as the reason for a later fallback)."""


class _Refused(Exception):
    """Carries the error of a construct MindSpore's graph parser refuses past the source-problem handlers."""

    def __init__(self, error):
        super().__init__(str(error))
        self.error = error


_settings = {"enabled": os.environ.get("SPORAX_CONVERT_CONTROL_FLOW", "1") != "0"}


def set_conversion(enabled):
    """Switch the conversion on or off for functions compiled from now on (off: the warned eager
    fallback for control flow on tensors, as before; also ``SPORAX_CONVERT_CONTROL_FLOW=0``)."""
    _settings["enabled"] = bool(enabled)


def conversion_problem(function):
    """Why ``function`` was left unconverted (a string naming line and construct), or None."""
    function = getattr(function, "__func__", function)
    try:
        return _problems.get(function)
    except TypeError:
        return None


def converted(function, check_syntax=True):
    """``function`` with its control flow converted (cached); the function itself when not needed.

    In GRAPH_MODE and under ``ms.jit``, ``check_syntax`` raises MindSpore's error for syntax its graph
    compiler refuses; plain functions a compiled function calls pass False (sporax traces them through).

    Example:
        >>> import jax
        >>> from sporax import Tensor
        >>> def relu_sum(x):
        ...     if x.sum() > 0:
        ...         return x.sum()
        ...     return x.sum() * 0
        >>> jaxpr = jax.make_jaxpr(lambda a: converted(relu_sum)(Tensor._wrap(a))._value)(jax.numpy.ones(3))
        >>> "cond" in str(jaxpr)
        True
    """
    plain = getattr(function, "__func__", function)
    if getattr(plain, "__module__", None) in _NOT_CONVERTED or str(getattr(plain, "__module__", "")).startswith(
            "sporax."):
        return function  # sporax's own Cells branch only on Python values
    if compiling_graph():
        if check_syntax:
            _check_graph_syntax(plain)
        if (getattr(plain, "__name__", None) == "<lambda>" and not getattr(plain, INLINE_LAMBDA, False)
                and get_mode() == GRAPH_MODE):
            # GRAPH_MODE only: ms.jit in PyNative keeps calling such lambdas (a documented difference).
            _check_lambda_placement(plain)
    if not _settings["enabled"]:
        return function
    try:
        cached = _converted.get(plain)
    except TypeError:  # not weak-referenceable (a builtin)
        return function
    if cached is None:
        try:
            cached = _convert(plain)
        except _Refused as refusal:
            raise refusal.error from None
        except ConversionError as problem:
            _problems[plain] = str(problem)
            cached = _UNCONVERTED
        except (OSError, TypeError, SyntaxError, IndentationError):  # no source (REPL, builtins)
            cached = _UNCONVERTED
        _converted[plain] = cached
    if cached is _UNCONVERTED:
        return function
    if plain is not function:  # a bound method
        return types.MethodType(cached, function.__self__)
    return cached


def _check_graph_syntax(plain):
    """Raise MindSpore's error for syntax its graph compiler refuses (``try``, ``del``, ``import``,
    ``yield``) in ``plain``; the verdict is kept per function."""
    try:
        verdict = _syntax_verdicts.get(plain, _UNKNOWN)
    except TypeError:  # not weak-referenceable (a builtin)
        return
    if verdict is _UNKNOWN:
        verdict = None
        if isinstance(plain, types.FunctionType):
            try:
                error = graph_syntax_error(_function_node(plain))
            except (OSError, TypeError, SyntaxError, IndentationError):  # no source (REPL, builtins)
                error = None
            if error is not None:
                verdict = (type(error), f"{error} In {plain.__code__.co_filename}, function '{plain.__qualname__}'.")
        _syntax_verdicts[plain] = verdict
    if verdict is not None:
        raise verdict[0](verdict[1])


_LAMBDA_STATEMENTS = (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Expr, ast.Return)


def _check_lambda_placement(plain):
    """Raise MindSpore's error for a lambda its graph parser cannot locate.

    MindSpore parses a lambda that comes from outside the compiled function (an attribute, an argument, a
    global) from its source line alone: a line that starts with ``def`` (a default argument) or whose
    statement's value is not the lambda itself (``a if c else lambda x: x``) is refused. A lambda written
    inside the compiled code is part of its syntax tree and always accepted. Checked in GRAPH_MODE only:
    under ``ms.jit`` in PyNative sporax keeps calling such lambdas, where MindSpore refuses them too.
    """
    try:
        verdict = _syntax_verdicts.get(plain, _UNKNOWN)
    except TypeError:
        return
    if verdict is _UNKNOWN:
        verdict = None
        try:
            source = textwrap.dedent(inspect.getsource(plain))
            statement = ast.parse(source).body[0] if not source.startswith("def ") else None
        except (OSError, TypeError, SyntaxError, IndentationError, IndexError):  # no source, or a partial line
            source, statement = "", ast.Pass()
        where = f" (lambda at {plain.__code__.co_filename}, line {plain.__code__.co_firstlineno})"
        if source.startswith("def "):
            verdict = (ValueError, "An error occurred while parsing the positional information of the lambda "
                                   "expression. Please write the lambda expression on a separate line.\nFor example, "
                                   "the code 'def __init__(self, combine_fn=lambda x: x + 1):' rewritten as\n"
                                   "'def __init__(self, combine_fn=\nlambda x: x + 1\n):' will solve the problem."
                                   + where)
        else:
            node = statement.value if isinstance(statement, _LAMBDA_STATEMENTS) else statement
            if not isinstance(node, (ast.Lambda, ast.Pass)):
                verdict = (TypeError, f"Parse Lambda Function Fail. Node type must be Lambda, but got "
                                      f"{type(node).__name__}. Please check lambda expression to make sure it is "
                                      f"defined on a separate line{where}: assign it to a name first "
                                      "('fn = lambda x: x + 1') and use the name.")
        _syntax_verdicts[plain] = verdict
    if verdict is not None:
        raise verdict[0](verdict[1])


def _lambda_node(plain, source):
    """The lambda as ``def _cf_lambda(args): return body`` (TypeError when its source is ambiguous)."""
    tree = ast.parse(source)
    code = plain.__code__
    names = list(code.co_varnames[:code.co_argcount + code.co_kwonlyargcount])
    candidates = [node for node in ast.walk(tree) if isinstance(node, ast.Lambda) and
                  [argument.arg for argument in node.args.posonlyargs + node.args.args + node.args.kwonlyargs] ==
                  names]
    if len(candidates) != 1:
        raise TypeError("the lambda's source is ambiguous")
    ast.increment_lineno(tree, code.co_firstlineno - 1)
    lambda_node = candidates[0]
    node = ast.FunctionDef(name=_LAMBDA, args=lambda_node.args, body=[ast.Return(value=lambda_node.body)],
                           decorator_list=[], returns=None, type_comment=None)
    return ast.fix_missing_locations(ast.copy_location(node, lambda_node))


def _function_node(plain):
    source = textwrap.dedent(inspect.getsource(plain))
    if plain.__code__.co_name == "<lambda>":
        return _lambda_node(plain, source)
    tree = ast.parse(source)
    node = tree.body[0] if tree.body else None
    if not isinstance(node, ast.FunctionDef) or node.name != plain.__code__.co_name:
        raise TypeError("not a plain def")
    first = min([node.lineno] + [decorator.lineno for decorator in node.decorator_list])
    ast.increment_lineno(tree, plain.__code__.co_firstlineno - first)
    return node


_CONDITION_NOTE = re.compile(r"#\s*@jit\.cond:\s*(True|False)\b")


def _fold_annotated_conditions(node, filename):
    """``if test:  # @jit.cond: True`` (or False): MindSpore's parser takes the comment's value as the
    condition, without evaluating ``test``; so does the conversion."""
    for statement in ast.walk(node):
        if isinstance(statement, ast.If):
            match = _CONDITION_NOTE.search(linecache.getline(filename, statement.lineno))
            if match is not None:
                statement.test = ast.copy_location(ast.Constant(value=match.group(1) == "True"), statement.test)


def _convert(plain):
    if not isinstance(plain, types.FunctionType) or plain.__code__.co_flags & inspect.CO_GENERATOR:
        return _UNCONVERTED
    node = _function_node(plain)
    refusal = refused(node)
    if refusal is not None:  # MindSpore's graph parser refuses the construct itself, whatever its values
        error, message = refusal
        raise _Refused(error(f"{message} In {plain.__code__.co_filename}, function '{plain.__qualname__}'."))
    _check_cell_classmethod_calls(node, plain)
    members = _rewrite_plain_members(node, plain)
    members = rewrite_member_reads(node, RUNTIME) or members  # Parameter.name ...: MindSpore's RuntimeError
    params = [argument.arg for argument in node.args.posonlyargs + node.args.args + node.args.kwonlyargs]
    try:  # MindSpore's graph reads a declared global and drops what the function assigns to it
        declared = rewrite_declared(node, RUNTIME)
    except SyntaxError as error:
        raise ConversionError(f"{plain.__code__.co_filename}: {error} cannot be compiled") from error
    node.body = [_assign(name, ast.Call(func=ast.Attribute(value=ast.Name(id=RUNTIME, ctx=ast.Load()),
                                                            attr="graph_dict", ctx=ast.Load()),
                                        args=[ast.Name(id=name, ctx=ast.Load())], keywords=[]))
                 for name in _changed_global_dicts(node, plain, params)] + node.body
    missing = rewrite_missing(node, plain, RUNTIME)  # MindSpore's NameError for a name nothing defines
    _fold_annotated_conditions(node, plain.__code__.co_filename)
    read_globals = _globals_read_first(node, plain, params)
    rewrite_augmented(node, read_globals, RUNTIME)  # `z += x` on a global Tensor updates it in place
    if (not contains_control_flow(node) and not read_globals and not declared and not members and not missing
            and not graph_worded(node)
            and not has_arithmetic(node) and not has_dict_access(node) and not has_with(node)
            and not has_item_assignment(node) and not creates_instances(node)):
        return _UNCONVERTED
    problem = unsupported(node)
    if problem is not None:
        line, what = problem
        raise ConversionError(f"{plain.__code__.co_filename}, line {line}: {what} cannot be compiled")
    node.decorator_list = []
    node = ItemAssignments(RUNTIME, ()).visit(node)  # y[i] = v binds a new value to y, as MindSpore's graph
    node.body = JumpLowering().function_body(node.body)
    for extra in (node.args.vararg, node.args.kwarg):
        if extra is not None:
            params.append(extra.arg)
    self_name = params[0] if params else None
    qualname = plain.__qualname__.split(".")
    method = len(qualname) >= 2 and qualname[-2] != "<locals>"
    owner = ".".join(qualname[:-1]) if method else None
    node = ControlFlowRewriter(self_name, assignment_lines(node.body), owner, read_names(node.body)).generic_visit(node)
    node = ListAugmented(RUNTIME).generic_visit(node)  # m += v on a list gives a new list
    node = ScalarArithmetic(RUNTIME).generic_visit(node)  # Python floats compute in float32, as in MindSpore's graph
    node = DictKeys(RUNTIME).generic_visit(node)  # missing and traced dict keys raise MindSpore's errors
    node = WithContexts(RUNTIME).generic_visit(node)  # 'with' enters @jit_class instances only
    locals_ = [name for name in assigned_names(node.body) if name not in params]
    read_first = read_globals | _read_first(node, params)
    # The print arguments' deferred join errors (runtime.print_), raised by the result of every return,
    # including the one a function that falls off its end gets here.
    pending = ast.Assign(targets=[ast.Name(id=PENDING_ERRORS, ctx=ast.Store())],
                         value=ast.List(elts=[], ctx=ast.Load()))
    result_of_none = ast.Call(func=ast.Attribute(value=ast.Name(id=RUNTIME, ctx=ast.Load()), attr="result",
                                                  ctx=ast.Load()),
                               args=[ast.Constant(value=None), ast.Name(id=PENDING_ERRORS, ctx=ast.Load())],
                               keywords=[])
    # A local starts undefined; one read before its first assignment starts as the module global of
    # its name, as MindSpore's graph compiler reads it.
    node.body = [ast.Assign(targets=[ast.Name(id=name, ctx=ast.Store())],
                            value=ast.Call(func=ast.Attribute(value=ast.Name(id=RUNTIME, ctx=ast.Load()),
                                                              attr="initial_local" if name in read_first
                                                              else "Undefined", ctx=ast.Load()),
                                           args=[ast.Constant(value=name)] + (
                                               [ast.Call(func=ast.Name(id="globals", ctx=ast.Load()), args=[],
                                                         keywords=[])] if name in read_first else []),
                                           keywords=[]))
                 for name in locals_] + [pending] + node.body + [ast.Return(value=result_of_none)]
    if method:
        node = PrivateNames(qualname[-2]).visit(node)
    freevars = list(plain.__code__.co_freevars)
    if "__class__" not in freevars and "super" in plain.__code__.co_names:
        freevars.append("__class__")
    freevars.append(GLOBALS)
    factory_args = ast.arguments(posonlyargs=[], args=[ast.arg(arg=RUNTIME)] + [ast.arg(arg=v) for v in freevars],
                                 vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])
    factory = ast.FunctionDef(name=_FACTORY, args=factory_args, body=[node, ast.Return(ast.Name(node.name,
                                                                                               ast.Load()))],
                              decorator_list=[], returns=None, type_comment=None)
    module = ast.Module(body=[factory], type_ignores=[])
    ast.copy_location(factory, node)
    ast.fix_missing_locations(module)
    code = compile(module, plain.__code__.co_filename, "exec")
    factory_code = next(const for const in code.co_consts if isinstance(const, types.CodeType))
    code = next(const for const in factory_code.co_consts
                if isinstance(const, types.CodeType) and const.co_name == node.name)
    # The original closure cells themselves, so a closure sees later rebinding as the original does.
    cells = dict(zip(plain.__code__.co_freevars, plain.__closure__ or ()))
    closure = tuple(cells[name] if name in cells else types.CellType(_extra_value(name, plain))
                    for name in code.co_freevars)
    function = types.FunctionType(code, plain.__globals__, plain.__name__, plain.__defaults__, closure)
    function.__kwdefaults__ = plain.__kwdefaults__
    function.__dict__.update(plain.__dict__)
    function.__qualname__ = plain.__qualname__
    function.__module__ = plain.__module__
    function.__doc__ = plain.__doc__
    function.__wrapped__ = plain
    return function


class _FirstUse(ast.NodeVisitor):
    """Each name's first use in evaluation order: 'read' or 'store' (an augmented assignment reads)."""

    def __init__(self):
        self.first = {}

    def _note(self, name, use):
        self.first.setdefault(name, use)

    def visit_Name(self, node):
        self._note(node.id, "store" if isinstance(node.ctx, (ast.Store, ast.Del)) else "read")

    def visit_Assign(self, node):
        self.visit(node.value)
        for target in node.targets:
            self.visit(target)

    def visit_AnnAssign(self, node):
        if node.value is not None:
            self.visit(node.value)
        self.visit(node.target)

    def visit_AugAssign(self, node):
        if isinstance(node.target, ast.Name):
            self._note(node.target.id, "read")
        self.visit(node.value)
        self.visit(node.target)

    def visit_For(self, node):
        self.visit(node.iter)
        self.visit(node.target)
        for statement in node.body + node.orelse:
            self.visit(statement)

    def visit_FunctionDef(self, node):
        self._note(node.name, "store")  # its body is its own scope

    visit_AsyncFunctionDef = visit_ClassDef = visit_FunctionDef

    def visit_Lambda(self, node):
        return None


def _assign(name, value):
    return ast.Assign(targets=[ast.Name(id=name, ctx=ast.Store())], value=value)


def _changed_global_dicts(node, plain, params):
    """Module-global dicts the function calls ``update`` on: MindSpore's graph updates a copy, so the
    global keeps its items (and never holds a value being traced). (``d[k] = v`` does change the global
    there, as in Python.)"""
    declared = {name for item in ast.walk(node) if isinstance(item, (ast.Global, ast.Nonlocal)) for name in item.names}
    changed = {item.func.value.id for item in ast.walk(node)
               if isinstance(item, ast.Call) and isinstance(item.func, ast.Attribute) and item.func.attr == "update"
               and isinstance(item.func.value, ast.Name)}
    return sorted(name for name in changed - declared - set(params)
                  if isinstance(plain.__globals__.get(name), dict))


def _globals_read_first(node, plain, params):
    """The locals the function reads before assigning them that are also module globals: MindSpore's
    graph compiler reads the global there (``z += i`` on a global ``z``), where Python would raise."""
    visitor = _FirstUse()
    for statement in node.body:
        visitor.visit(statement)
    local = set(assigned_names(node.body)) - set(params)
    return {name for name in local if visitor.first.get(name) == "read" and name in plain.__globals__}


def _read_first(node, params):
    """The locals the function reads before assigning them (``runtime.initial_local``: the module global of the
    name, else MindSpore's NameError when used)."""
    visitor = _FirstUse()
    for statement in node.body:
        visitor.visit(statement)
    return {name for name in set(assigned_names(node.body)) - set(params) if visitor.first.get(name) == "read"}


def _cell_owner(node, plain):
    """The Cell class whose method ``plain`` is (one taking at least ``self``), else None."""
    if not (node.args.posonlyargs + node.args.args) or len(plain.__qualname__.split(".")) < 2:
        return None
    try:
        owner = _defining_class(plain)
    except ConversionError:
        return None
    return owner if hasattr(owner, "parameters_and_names") and hasattr(owner, "construct") else None


def _check_cell_classmethod_calls(node, plain):
    """MindSpore's graph calls a Cell's classmethod (``self.func(x, y)`` in construct) as its plain function,
    without the class: a call that leaves ``cls`` unfilled raises its TypeError."""
    owner = _cell_owner(node, plain)
    if owner is None:
        return  # MindSpore refuses the classmethods of Cells only
    self_name = (node.args.posonlyargs + node.args.args)[0].arg
    for call in ast.walk(node):
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                and isinstance(call.func.value, ast.Name) and call.func.value.id == self_name
                and not call.keywords and not any(isinstance(item, ast.Starred) for item in call.args)):
            continue
        method = inspect.getattr_static(owner, call.func.attr, None)
        if isinstance(method, classmethod):
            expected = method.__func__.__code__.co_argcount
            if expected != len(call.args):
                raise _Refused(TypeError(
                    f"The parameters number of the function is {expected}, but the number of provided arguments is "
                    f"{len(call.args)}. (Line {call.lineno}: MindSpore's graph calls the classmethod "
                    f"'{owner.__name__}.{call.func.attr}' without its class; make it a staticmethod or a plain "
                    "method.)"))


def _rewrite_plain_members(node, plain):
    """``self.func`` in a Cell's method, where ``func`` is a function of the class whose first parameter is not
    named ``self``: MindSpore's graph takes it as a plain function (``self.func(a, b)`` calls ``func(a, b)``),
    so the reads become ``runtime.plain_member(self, "func")``. Returns whether any was rewritten."""
    owner = _cell_owner(node, plain)
    if owner is None:
        return False
    self_name = (node.args.posonlyargs + node.args.args)[0].arg

    def wanted(attribute):
        return (isinstance(attribute.value, ast.Name) and attribute.value.id == self_name
                and runtime.unbound_in_graph(inspect.getattr_static(owner, attribute.attr, None)))

    return bool(rewrite_attribute_reads(node, RUNTIME, "plain_member", wanted))


def _extra_value(name, plain):
    """The value of a free variable the converted code has and the original has not."""
    if name == RUNTIME:
        return runtime
    if name == "__class__":
        return _defining_class(plain)
    if name == GLOBALS:
        return plain.__globals__
    raise ConversionError(f"free variable '{name}' of {plain.__qualname__} has no value")


def _defining_class(plain):
    parts = plain.__qualname__.split(".")
    owner = inspect.getmodule(plain)
    for part in parts[:-1]:
        owner = getattr(owner, part, None)
    if not isinstance(owner, type):
        raise ConversionError(f"super() in {plain.__qualname__}: its class cannot be found")
    return owner
