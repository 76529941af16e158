"""``with`` statements in compiled code, as MindSpore 2.10's graph accepts them.

MindSpore's static graph enters only an instance of a ``@jit_class`` class (or a subclass of one) in a
``with`` statement. Any other object -- a plain Python class's instance, a Cell, ``contextlib.suppress()``,
an open file -- raises TypeError ``Only support jit_class instance, but got ...``, and a context built by
calling something that is not a class (``with open(path) as f``, ``with make_context() as c``) raises
TypeError ``issubclass() arg 1 must be a class`` while compiling, before the call runs (the file is not
opened). PyNative runs plain Python, so none of this applies there.

``WithContexts`` rewrites each ``with`` item of a converted function: ``with C(args) as v`` becomes
``with with_context(runtime.call(with_class(C, line), args), line) as v``.

Example:
    >>> with_class(open, 3)
    Traceback (most recent call last):
    TypeError: issubclass() arg 1 must be a class (...)
"""
import ast

from sporax.graph.control_flow.analysis import UserStatementsPass
from sporax.state.discovery import is_cell

_FIX = ("GRAPH_MODE and ms.jit enter only @jit_class instances in a 'with' statement: decorate the context "
        "manager's class with ms.jit_class, or move the 'with' statement out of the compiled code")


def with_class(function, line):
    """The callee of ``with function(...)`` in compiled code: MindSpore's graph requires a class there."""
    if not isinstance(function, type):
        raise TypeError(f"issubclass() arg 1 must be a class (line {line}: {function!r} is called to make the "
                        f"context; {_FIX}).")
    return function


def with_context(value, line):
    """The object a ``with`` statement enters in compiled code: a ``@jit_class`` instance, else TypeError."""
    if getattr(type(value), "__ms_class__", False):
        return value
    # MindSpore's graph holds a Cell as an abstract value, which its message shows as 'ValueAny'.
    shown = "ValueAny" if is_cell(value) else f"PythonObject(type: {type(value)}, value: {value!r})"
    raise TypeError(f"Only support jit_class instance, but got {shown} (line {line}: {_FIX}).")


def has_with(function_node):
    return any(isinstance(node, ast.With) for node in ast.walk(function_node))


def _runtime(runtime, name):
    return ast.Attribute(value=ast.Name(id=runtime, ctx=ast.Load()), attr=name, ctx=ast.Load())


class WithContexts(UserStatementsPass):
    """Each ``with`` item's context expression -> ``runtime.with_context`` (a call's callee -> ``with_class``).

    Runs after ``ControlFlowRewriter``, which has made each call ``runtime.call(function, *args)``.
    """

    def visit_With(self, node):
        self.generic_visit(node)
        for item in node.items:
            expression = item.context_expr
            line = ast.Constant(value=expression.lineno)
            if (isinstance(expression, ast.Call) and isinstance(expression.func, ast.Attribute)
                    and expression.func.attr == "call" and getattr(expression.func.value, "id", None) == self.runtime
                    and expression.args):
                expression.args[0] = ast.copy_location(
                    ast.Call(func=_runtime(self.runtime, "with_class"), args=[expression.args[0], line], keywords=[]),
                    expression.args[0])
            item.context_expr = ast.copy_location(
                ast.Call(func=_runtime(self.runtime, "with_context"), args=[expression, line], keywords=[]),
                expression)
        return node
