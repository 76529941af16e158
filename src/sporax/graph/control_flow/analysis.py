"""Static facts about a function's syntax tree that the control-flow converter needs.

* ``assigned_names(statements)``: the local names a list of statements may bind (assignment
  targets, augmented and annotated assignments, ``for`` targets, ``with ... as``, imports,
  ``del``, walrus). Nested ``def``/``class``/``lambda``/comprehension bodies have scopes of
  their own and are not entered; the converter's own helper functions are not variables.
* ``has_jump(statements, kinds)``: whether ``break``/``continue``/``return`` occur, not looking
  inside nested loops for ``break``/``continue`` (they belong to that loop) nor inside nested
  functions at all.
* ``unsupported(function_node)``: the first construct the converter cannot express as pure
  functions (``yield``, ``global``/``nonlocal``, jumps out of ``try``/``with``), as
  ``(line, description)``, or None.
* ``refused(function_node)``: ``(error_class, message)`` for the first construct MindSpore's graph
  parser rejects outright (no eager fallback): ``while ... else`` / ``for ... else`` (RuntimeError),
  a list/dict comprehension or generator expression with more than one ``for`` (TypeError).
"""
import ast

HELPER_PREFIX = "_cf_"

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.ListComp, ast.SetComp,
           ast.DictComp, ast.GeneratorExp)


def _target_names(target, names):
    if isinstance(target, ast.Name):
        names.append(target.id)
    elif isinstance(target, (ast.Tuple, ast.List)):
        for element in target.elts:
            _target_names(element, names)
    elif isinstance(target, ast.Starred):
        _target_names(target.value, names)


class _Assigned(ast.NodeVisitor):
    def __init__(self):
        self.names = []

    def generic_visit(self, node):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if not node.name.startswith(HELPER_PREFIX):
                self.names.append(node.name)
            return
        if isinstance(node, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            return
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            self.names.append(node.id)
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store) and isinstance(node.value, ast.Name):
            self.names.append(node.value.id)  # x[i] = v rebinds the Tensor x in place
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                self.names.append((alias.asname or alias.name).split(".")[0])
        super().generic_visit(node)


def assigned_names(statements):
    """The names ``statements`` may bind in the enclosing scope, in first-seen order."""
    visitor = _Assigned()
    for statement in statements:
        visitor.visit(statement)
    seen, ordered = set(), []
    for name in visitor.names:
        if name not in seen:
            seen.add(name)
            ordered.append(name)
    return ordered


def has_jump(statements, kinds):
    """True when one of ``kinds`` (ast.Break, ast.Continue, ast.Return) can run in ``statements``."""
    loop_bound = tuple(kind for kind in kinds if kind in (ast.Break, ast.Continue))

    def search(node, in_loop):
        if isinstance(node, _SCOPES):
            return False
        if isinstance(node, kinds) and not (in_loop and isinstance(node, loop_bound)):
            return True
        nested = in_loop or isinstance(node, (ast.While, ast.For))
        return any(search(child, nested) for child in ast.iter_child_nodes(node))

    return any(search(statement, False) for statement in statements)


def unsupported(function_node):
    """``(line, what)`` for the first construct the converter cannot handle, else None."""
    for node in ast.walk(function_node):
        if node is not function_node and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        if isinstance(node, (ast.Yield, ast.YieldFrom, ast.Await)):
            return node.lineno, "a generator (yield)"
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            return node.lineno, f"'{type(node).__name__.lower()}' declaration"
        if isinstance(node, (ast.Try, ast.With)) and has_jump(node.body, (ast.Break, ast.Continue, ast.Return)):
            return node.lineno, f"break/continue/return inside '{type(node).__name__.lower()}'"
    return None


_COMPREHENSION_KINDS = {ast.ListComp: "ListComp/GeneratorExp", ast.GeneratorExp: "ListComp/GeneratorExp",
                       ast.DictComp: "DictComp/GeneratorExp"}


# The exception classes a graph's ``raise`` may name (MindSpore 2.10's list, in its order)
_RAISABLE = ("AssertionError", "AttributeError", "BaseException", "EnvironmentError", "Exception", "IOError",
             "IndentationError", "IndexError", "KeyError", "KeyboardInterrupt", "MemoryError", "NameError",
             "NotImplementedError", "OSError", "OverflowError", "RuntimeError", "RuntimeWarning", "StopIteration",
             "TypeError", "UnboundLocalError", "ValueError", "ZeroDivisionError")


def _raised_name(exception):
    """The name a ``raise`` gives its exception by (``raise Name(...)``, ``raise Name``, ``raise module.Name``)."""
    function = exception.func if isinstance(exception, ast.Call) else exception
    if isinstance(function, ast.Name):
        return function.id
    return function.attr if isinstance(function, ast.Attribute) else None


def refused(function_node):
    """``(error_class, message)`` for the first construct the graph parser refuses, else None."""
    for node in ast.walk(function_node):
        if isinstance(node, ast.Raise) and node.exc is not None and _raised_name(node.exc) not in (None, *_RAISABLE):
            return RuntimeError, (f"Unsupported exception type: {_raised_name(node.exc)}. Raise only support some "
                                  f"Python standard exception types: {', '.join(_RAISABLE)}. (line {node.lineno}: "
                                  "raise one of these classes by name.)")
        if isinstance(node, (ast.While, ast.For)) and node.orelse:
            kind = type(node).__name__.lower()
            return RuntimeError, (f"The '{kind}...else...' statement is not supported now. (line {node.lineno}: "
                                  "move the else branch after the loop, guarded by a flag the loop's 'break' "
                                  "clears).")
        kind = _COMPREHENSION_KINDS.get(type(node))
        if kind is not None and len(node.generators) > 1:
            return TypeError, (f"The 'generators' supports 1 'comprehension' in {kind}, but got "
                               f"{len(node.generators)} comprehensions. (line {node.lineno}: nest one comprehension "
                               "in another, or build the result with a for loop).")
    return None


# Statements and expressions MindSpore's graph compiler does not parse (its names for them). It refuses
# them anywhere in the function, nested functions included, whatever the values.
_UNSUPPORTED_SYNTAX = {ast.Try: "statement 'Try'", ast.Delete: "statement 'Delete'", ast.Import: "statement 'Import'",
                       ast.ImportFrom: "statement 'ImportFrom'", ast.Yield: "expression 'Yield'",
                       ast.YieldFrom: "expression 'YieldFrom'", ast.ClassDef: "statement 'ClassDef'",
                       ast.AsyncFunctionDef: "statement 'AsyncFunctionDef'", ast.Nonlocal: "statement 'Nonlocal'",
                       ast.Set: "expression 'Set'", ast.SetComp: "expression 'SetComp'",
                       ast.NamedExpr: "expression 'NamedExpr'"}
if hasattr(ast, "TryStar"):
    _UNSUPPORTED_SYNTAX[ast.TryStar] = "statement 'TryStar'"
if hasattr(ast, "Match"):
    _UNSUPPORTED_SYNTAX[ast.Match] = "statement 'Match'"


def graph_syntax_error(function_node):
    """``RuntimeError`` for the first statement or expression MindSpore's graph compiler does not support (or a
    ``print`` with keywords), else None."""
    for node in ast.walk(function_node):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "print" and node.keywords:
            # the graph's print takes the values only (sep, end, file, flush are Python's)
            return RuntimeError(f"Got an unexpected keyword argument '{node.keywords[0].arg}' (line {node.lineno}: "
                                "print in GRAPH_MODE and ms.jit takes the values to print only).")
        what = _UNSUPPORTED_SYNTAX.get(type(node))
        if what is not None:
            return RuntimeError(f"Unsupported {what}. More details please refer to syntax support at "
                                f"https://www.mindspore.cn (line {node.lineno}; GRAPH_MODE and ms.jit compile "
                                "the function, run it in PYNATIVE_MODE or move this out of the compiled code).")
    return None


def contains_control_flow(function_node):
    """True when the function body has an ``if``/``while``/``for``, a conditional expression, a
    boolean operator, a call (which may reach a function that has them), a generator expression
    (which the conversion turns into a list) or an ``in`` test."""
    for node in ast.walk(function_node):
        if isinstance(node, (ast.If, ast.While, ast.For, ast.IfExp, ast.BoolOp, ast.Call, ast.GeneratorExp)):
            return True
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return True
        if isinstance(node, ast.Compare) and (len(node.ops) > 1 or isinstance(node.ops[0], (ast.In, ast.NotIn))):
            return True  # chained, or a membership test (runtime.contains)
    return False


_MUTATORS = {"append", "extend", "insert", "pop", "remove", "update", "add", "setdefault", "clear", "popitem",
             "discard", "sort", "reverse"}
# Called with no arguments these change no container (``dict.update()`` is a no-op, the rest need an
# argument), so ``ema.update()`` -- a Cell method writing Parameters -- is no container change.
_MUTATORS_NEEDING_ARGUMENTS = {"append", "extend", "insert", "remove", "update", "add", "setdefault", "discard"}


def side_effects(statements, assigned):
    """The Python side effects in ``statements`` that a traced branch or loop body may not carry:
    strings for in-place container changes; ``(object_name, attribute, description)`` for an
    attribute store, which is fine when the attribute is a Parameter (a lifted state write)."""
    found = []
    for statement in statements:
        for node in ast.walk(statement):
            if isinstance(node, (ast.FunctionDef, ast.Lambda, ast.ClassDef)):
                continue
            if isinstance(node, ast.Raise):
                # MindSpore raises only when the branch runs, with the values of that run
                found.append(f"line {node.lineno}: a 'raise' statement")
                continue
            function = node.func if isinstance(node, ast.Call) else None
            if (isinstance(function, ast.Attribute) and function.attr == "call" and node.args
                    and isinstance(function.value, ast.Name) and function.value.id == HELPER_PREFIX + "rt"):
                function = node.args[0]  # already rewritten to runtime.call(function, ...)
            no_arguments = False
            if isinstance(node, ast.Call):
                # a rewritten ``runtime.call(function, *arguments)`` carries the function as its first argument
                arguments = node.args if function is node.func else node.args[1:]
                no_arguments = not arguments and not node.keywords
            if (isinstance(function, ast.Attribute) and function.attr in _MUTATORS
                    and not (no_arguments and function.attr in _MUTATORS_NEEDING_ARGUMENTS)
                    and isinstance(function.value, ast.Name) and function.value.id not in assigned):
                found.append(f"line {node.lineno}: '{function.value.id}.{function.attr}(...)' changes a Python "
                             "container")
            targets = node.targets if isinstance(node, ast.Assign) else (
                [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else [])
            for target in targets:
                if isinstance(target, ast.Attribute):
                    description = f"line {node.lineno}: the attribute '{target.attr}' is assigned"
                    if isinstance(target.value, ast.Name):
                        found.append((target.value.id, target.attr, description))
                    else:
                        found.append(description)
    return found


class UserStatementsPass(ast.NodeTransformer):
    """A rewrite of a converted function's own statements into calls of ``runtime`` (the name converted code
    holds the runtime module under). It enters the converter's branch and loop-body functions, which hold the
    user's statements, but not a nested user function (converted on its own when called) or a class."""

    def __init__(self, runtime):
        self.runtime = runtime

    def visit_FunctionDef(self, node):
        return self.generic_visit(node) if node.name.startswith(HELPER_PREFIX) else node

    def visit_ClassDef(self, node):
        return node

    visit_AsyncFunctionDef = visit_ClassDef


def graph_worded(node):
    """Whether the function calls ``max``, ``min``, ``isinstance``, ``int``, ``float`` or ``bool`` (their graph
    errors: ``sequences.SEQUENCE_BUILTINS``) or formats an f-string value with a spec or conversion (which the
    graph drops: ``formatted_strings``)."""
    for child in ast.walk(node):
        if isinstance(child, ast.Call) and isinstance(child.func, ast.Name) and child.func.id in _GRAPH_WORDED:
            return True
        if isinstance(child, ast.FormattedValue) and (child.conversion != -1 or child.format_spec is not None):
            return True
    return False


_GRAPH_WORDED = frozenset(["max", "min", "isinstance", "int", "float", "bool"])
