"""Python numbers in compiled code, as MindSpore 2.10's graph computes them.

MindSpore's static graph holds a Python float as a float32 scalar: arithmetic on Python numbers
that involves a float (``0.1 * 3``, ``1 / 3``, ``-a``, ``sum([0.1, 0.2])``, ``pow(2.0, 0.5)``) runs
in float32, so ``ms.jit(lambda: 0.1 * 3)()`` returns 0.30000001192092896, and comparisons of floats
compare their float32 values (``0.1 * 3 > 0.3`` is False). A float that passes through unchanged (a
literal, an argument, an attribute, ``max`` of such) comes back exact when it is within 1e-6 of its
float32 value, else as that float32 value (``return 100.12`` gives 100.12000274658203; the rule is
applied to a compiled function's outputs: ``state.python_floats``). Integers are int64: a sum,
difference or product beyond it, and a division or modulo by zero, raise MindSpore's ValueError;
``int ** negative int`` truncates to an int. PyNative runs plain Python, so none of this applies there.

``ScalarArithmetic`` rewrites a converted function's operators into calls of the functions below;
operands that are not Python numbers (Tensors, lists, strings) go to the plain operator.

Example:
    >>> arith("mul", 0.1, 3)
    0.30000001192092896
"""
import ast
import math
import operator
import struct

import numpy as np

from sporax.graph.control_flow import interpreted_calls
from sporax.graph.control_flow.analysis import UserStatementsPass

_BINARY = {"add": operator.add, "sub": operator.sub, "mul": operator.mul, "truediv": operator.truediv,
           "floordiv": operator.floordiv, "mod": operator.mod, "pow": operator.pow}
_OPERAND = "_cf_operand"  # the right side of an augmented assignment, evaluated once
_COMPARE = {"lt": operator.lt, "le": operator.le, "gt": operator.gt, "ge": operator.ge, "eq": operator.eq,
            "ne": operator.ne}
_AST_BINARY = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "truediv", ast.FloorDiv: "floordiv",
               ast.Mod: "mod", ast.Pow: "pow"}
_AST_COMPARE = {ast.Lt: "lt", ast.LtE: "le", ast.Gt: "gt", ast.GtE: "ge", ast.Eq: "eq", ast.NotEq: "ne"}
_NUMBERS = frozenset([int, float, bool, np.float64])
_FLOATS = frozenset([float, np.float64])
_FLOAT32 = struct.Struct("f")  # packing rounds to float32 (a NumPy scalar costs ten times more)
_FLOAT32_MAX = float(np.finfo(np.float32).max)
_INT64 = (-2 ** 63, 2 ** 63 - 1)
_OVERFLOW = {"add": ("ScalarAdd", "sum"), "sub": ("ScalarSub", "sub"), "mul": ("ScalarMul", "mul")}


def float32(value):
    """``value`` rounded to float32, as a Python float (inf beyond float32's range, as MindSpore's)."""
    try:
        return _FLOAT32.unpack(_FLOAT32.pack(value))[0]
    except OverflowError:
        return math.copysign(math.inf, value)


def _scalar(name, left, right):
    if right == 0 and name in ("truediv", "floordiv", "mod"):
        raise ValueError("Cannot perform modulo operation on zero." if name == "mod" else
                         "The divisor could not be zero. But the divisor is zero now.")
    if type(left) in _FLOATS or type(right) in _FLOATS or name == "truediv":
        try:
            return float32(_BINARY[name](float32(left), float32(right)))
        except OverflowError:  # float ** float beyond a double: float32's inf
            return float("inf")
    if name == "pow" and right < 0:
        return int(left ** right)  # int64 arithmetic: 2 ** -1 is 0
    result = _BINARY[name](left, right)
    if name in _OVERFLOW and not _INT64[0] <= result <= _INT64[1]:
        primitive, word = _OVERFLOW[name]
        raise ValueError(f"For prim '{primitive}' Overflow of the {word} of two signed number x: {left}, y: {right}.")
    return result


def arith(name, left, right):
    """``left <op> right`` in compiled code (``name`` as in ``operator``)."""
    if type(left) in _NUMBERS and type(right) in _NUMBERS:
        return _scalar(name, left, right)
    if type(left) is str or type(right) is str:
        interpreted_calls.refuse_string_operand(name, left, right)
        if name == "mul" and (type(left) is float or type(right) is float):
            raise RuntimeError(f"string_mul requires the input to be a string and an integer, but got {left} and "
                               f"{right}. (A string repeats an int number of times.)")
    return _BINARY[name](left, right)


def numbers(left, right):
    """True when ``left <op>= right`` is arithmetic on Python numbers (``ScalarArithmetic.visit_AugAssign``)."""
    return type(left) in _NUMBERS and type(right) in _NUMBERS


def negative(value):
    """``-value`` in compiled code."""
    if type(value) in _FLOATS:
        return float32(-value)
    return -value


def compare(name, left, right):
    """``left <op> right`` for an ordering or equality test: Python floats compare as float32."""
    if type(left) in _NUMBERS and type(right) in _NUMBERS and (type(left) in _FLOATS or type(right) in _FLOATS):
        return _COMPARE[name](float32(left), float32(right))
    return _COMPARE[name](left, right)


def scalar_sum(function, iterable, start=0):
    """``sum(iterable, start)`` in compiled code (``function`` is what the name ``sum`` holds there): Python
    numbers add as ``arith`` does."""
    if function is not sum:
        return function(iterable, start)
    items = list(iterable)
    if not all(type(item) in _NUMBERS for item in items) or type(start) not in _NUMBERS:
        return sum(items, start)
    total = start
    for item in items:
        total = _scalar("add", total, item)
    return total


def scalar_pow(function, base, exponent, *modulus):
    """``pow(base, exponent)`` in compiled code (``function`` is what the name ``pow`` holds there; with a
    modulus: Python's)."""
    if function is not pow or modulus:
        return function(base, exponent, *modulus)
    return arith("pow", base, exponent)


def _runtime_call(runtime, name, args):
    return ast.Call(func=ast.Attribute(value=ast.Name(id=runtime, ctx=ast.Load()), attr=name, ctx=ast.Load()),
                    args=args, keywords=[])


def has_arithmetic(function_node):
    """True when the function applies an operator ``ScalarArithmetic`` rewrites (or has a float literal beyond
    float32's range)."""
    for node in ast.walk(function_node):
        if isinstance(node, ast.Constant) and type(node.value) is float and abs(node.value) > _FLOAT32_MAX:
            return True
        if isinstance(node, ast.BinOp) and type(node.op) in _AST_BINARY:
            return True
        if isinstance(node, ast.AugAssign) and type(node.op) in _AST_BINARY:
            return True
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return True
        if isinstance(node, ast.Compare) and type(node.ops[0]) in _AST_COMPARE:
            return True
    return False


class ScalarArithmetic(UserStatementsPass):
    """Operators on possible Python numbers -> the runtime's ``arith``/``compare``/``negative``/``numbers``.

    Runs after ``ControlFlowRewriter`` (chained comparisons are single ones by then); an augmented
    assignment to an attribute or an item keeps Python's operator (its target would be evaluated twice).
    """

    def visit_Constant(self, node):
        if type(node.value) is float and abs(node.value) > _FLOAT32_MAX:  # a literal beyond float32: its inf
            return ast.copy_location(ast.Constant(value=float32(node.value)), node)
        return node

    def visit_BinOp(self, node):
        self.generic_visit(node)
        name = _AST_BINARY.get(type(node.op))
        if name is None:
            return node
        return ast.copy_location(_runtime_call(self.runtime, "arith", [ast.Constant(value=name), node.left,
                                                                        node.right]), node)

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if not isinstance(node.op, ast.USub) or isinstance(node.operand, ast.Constant) and \
                type(node.operand.value) is int:
            return node
        return ast.copy_location(_runtime_call(self.runtime, "negative", [node.operand]), node)

    def visit_Compare(self, node):
        self.generic_visit(node)
        name = _AST_COMPARE.get(type(node.ops[0]))
        if len(node.ops) != 1 or name is None:
            return node
        return ast.copy_location(_runtime_call(self.runtime, "compare", [ast.Constant(value=name), node.left,
                                                                          node.comparators[0]]), node)

    def visit_AugAssign(self, node):
        """``y op= v`` -> ``if numbers(y, t := v): y = arith(op, y, t)`` ``else: y op= t``: a Tensor's own in-place
        operator runs in the user's frame (``x += 1`` on an input updates it, ``ops.tensor_operators``)."""
        self.generic_visit(node)
        name = _AST_BINARY.get(type(node.op))
        if name is None or not isinstance(node.target, ast.Name):
            return node
        target = node.target.id
        operand = ast.NamedExpr(target=ast.Name(id=_OPERAND, ctx=ast.Store()), value=node.value)
        test = _runtime_call(self.runtime, "numbers", [ast.Name(id=target, ctx=ast.Load()), operand])
        computed = _runtime_call(self.runtime, "arith", [ast.Constant(value=name), ast.Name(id=target, ctx=ast.Load()),
                                                         ast.Name(id=_OPERAND, ctx=ast.Load())])
        plain = ast.AugAssign(target=node.target, op=node.op, value=ast.Name(id=_OPERAND, ctx=ast.Load()))
        statement = ast.If(test=test, body=[ast.Assign(targets=[ast.Name(id=target, ctx=ast.Store())], value=computed)],
                           orelse=[plain])
        return ast.copy_location(statement, node)

    def visit_Call(self, node):
        function = node.func
        if isinstance(function, ast.Attribute) and function.attr == "inline_lambda" and \
                getattr(function.value, "id", None) == self.runtime:
            return node  # a lambda written in the code: converted on its own when called
        self.generic_visit(node)
        replacement = {"sum": "scalar_sum", "pow": "scalar_pow"}.get(getattr(node.func, "id", None))
        if replacement is None or node.keywords:
            return node
        return ast.copy_location(_runtime_call(self.runtime, replacement, [node.func] + node.args), node)
