"""Scalar, tuple, list, dict and string ops of ``mindspore.ops`` (``scalar_add``, ``tuple_getitem``, ...).

MindSpore's graph compiler has a primitive for each Python operation on constants (``scalar_add``
is ``x + y`` on two numbers, ``tuple_setitem`` builds a new tuple). In sporax these values are
ordinary Python objects at trace time, so each op is the Python operation with MindSpore's
argument checks, and it runs the same in PyNative and in compiled functions. Each is an op-table
entry of the ``SCALAR`` rule (Python values in, Python values out); where MindSpore has a Primitive
class of it (``ScalarAdd``, ``TupleGetItem``) that class is generated from the entry
(``sporax.ops.operations.scalar_ops``).

Example:
    >>> from sporax import ops
    >>> ops.scalar_add(2, 3.5), ops.tuple_setitem((1, 2, 3), 1, 9), ops.shape_mul((2, 3, 4))
    (5.5, (1, 9, 3), 24)
"""
import math
import numbers
import operator

import numpy as np

from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor
from sporax.ops.functional.creation import scalar_to_tensor
from sporax.ops.op_table import SCALAR, function_op, op
from sporax.ops.samples import python_calls


def _scalar(op_name, arg_name, value):
    if not isinstance(value, numbers.Number) or isinstance(value, complex):
        raise TypeError(f"For '{op_name}', '{arg_name}' must be a Python int, float or bool scalar, but got "
                        f"{type(value).__name__} {value!r}.")
    return value


def _nonzero_divisor(op_name, function):
    def divide(x, y):
        if y == 0:  # MindSpore raises ValueError here, not Python's ZeroDivisionError
            raise ValueError(f"For '{op_name}', the divisor 'y' can not be zero.")
        return function(x, y)
    return divide


def _unary_plus(x):
    return x  # MindSpore's ScalarUadd keeps a bool a bool (Python's +True is 1)


def _logarithm(x):
    if x <= 0:
        raise ValueError(f"For 'scalar_log', 'x' must be positive, but got {x!r}.")
    return math.log(x)


# MindSpore's Primitives of Python scalars, checked against MindSpore 2.10 (tests/fixtures/ops/scalar_primitives.json):
# (functional name, Primitive, kernel, reference, sample calls). The reference is the Python expression.
_SCALAR_ROWS = (
    ("scalar_add", "ScalarAdd", operator.add, lambda x, y: x + y, ((2, 3), (2, 3.5), (True, 2))),
    ("scalar_sub", "ScalarSub", operator.sub, lambda x, y: x - y, ((2, 3), (2.5, 1))),
    ("scalar_mul", "ScalarMul", operator.mul, lambda x, y: x * y, ((2, 3), (2, 1.5))),
    ("scalar_div", "ScalarDiv", _nonzero_divisor("scalar_div", operator.truediv), lambda x, y: x / y,
     ((7, 2), (6, 3), (-7.0, 2))),
    ("scalar_floordiv", "ScalarFloorDiv", _nonzero_divisor("scalar_floordiv", operator.floordiv),
     lambda x, y: x // y, ((7, 2), (-7, 2), (-7.5, 2))),
    ("scalar_mod", "ScalarMod", _nonzero_divisor("scalar_mod", operator.mod), lambda x, y: x % y,
     ((7, 3), (-7, 3), (7.5, 2))),
    ("scalar_pow", "ScalarPow", operator.pow, lambda x, y: x ** y, ((2, 3), (2, -1), (2.0, 0.5))),
    ("scalar_eq", "ScalarEq", operator.eq, lambda x, y: x == y, ((2, 2.0), (2, 3))),
    ("scalar_lt", "ScalarLt", operator.lt, lambda x, y: x < y, ((2, 3), (3, 3))),
    ("scalar_le", "ScalarLe", operator.le, lambda x, y: x <= y, ((3, 3), (4, 3))),
    ("scalar_gt", "ScalarGt", operator.gt, lambda x, y: x > y, ((2, 3), (3.5, 3))),
    ("scalar_ge", "ScalarGe", operator.ge, lambda x, y: x >= y, ((3, 3), (2, 3))),
    # Python's max/min: the first of equal values, its own type (``ScalarMax(3, 2.0)`` is 3)
    ("scalar_max", "ScalarMax", max, lambda x, y: y if y > x else x, ((2, 3), (3, 2.0), (2, 3.0))),
    ("scalar_min", "ScalarMin", min, lambda x, y: y if y < x else x, ((2, 3), (3, 2.0), (2.0, 3))),
    ("scalar_log", "ScalarLog", _logarithm, lambda x: math.log(x), ((2.0,), (1,))),
    ("scalar_uadd", "ScalarUadd", _unary_plus, lambda x: x, ((2,), (-1.5,), (True,))),
    ("scalar_usub", "ScalarUsub", operator.neg, lambda x: -x, ((2,), (-1.5,), (True,))),
    ("scalar_bool", "ScalarBool", bool, lambda x: x != 0, ((3,), (0,), (-2.5,))),
)


def _scalar_op(name, primitive, function, reference, calls):
    """The entry ``name``: ``function`` of one or two checked scalars (``x``, ``y``)."""
    inputs = ("x", "y") if len(calls[0]) == 2 else ("x",)

    def compute(*values):
        return function(*[_scalar(name, input, value) for input, value in zip(inputs, values)])

    symbol = "two scalars" if len(inputs) == 2 else "a scalar"
    doc = (f"``{name}({', '.join(inputs)})``: MindSpore's ``{primitive}`` of {symbol}, a Python value.\n\n"
           f"    Example:\n        >>> from sporax.ops.functional.scalar import {name}\n"
           f"        >>> {name}{calls[0]!r}\n        {function(*calls[0])!r}\n")
    return function_op(name, compute, doc, module=__name__, inputs=inputs, dtypes=SCALAR, primitive=primitive,
                       samples=python_calls(*calls), reference=reference, grad_check=False)


(scalar_add, scalar_sub, scalar_mul, scalar_div, scalar_floordiv, scalar_mod, scalar_pow, scalar_eq, scalar_lt,
 scalar_le, scalar_gt, scalar_ge, scalar_max, scalar_min, scalar_log, scalar_uadd, scalar_usub,
 scalar_bool) = (_scalar_op(*row) for row in _SCALAR_ROWS)


@op(inputs="args", dtypes=SCALAR, primitive="scalar_ne", samples=python_calls((2, 3), (2, 2.0)),
    reference=lambda x, y: x != y, grad_check=False)
def scalar_ne(*args):
    """``x != y`` on two scalars."""
    if len(args) != 2:
        raise TypeError(f"For 'scalar_ne', 2 inputs are expected, but got {len(args)}.")
    return _scalar("scalar_ne", "x", args[0]) != _scalar("scalar_ne", "y", args[1])


_SCALAR_TYPES = {mstype.int64: int, mstype.float64: float, mstype.bool_: bool}


@op(inputs=("input_x", "input_y"), dtypes=SCALAR, primitive="ScalarCast",
    samples=python_calls((2.7, mstype.int64), (-2.7, mstype.int64), (3, mstype.float64), (0.0, mstype.bool_)),
    reference=lambda x, dtype: {"Int64": int, "Float64": float, "Bool": bool}[str(dtype)](x), grad_check=False)
def scalar_cast(input_x, input_y):
    """Cast a scalar to ``mindspore.int64`` (int), ``float64`` (float) or ``bool_`` (bool); ints truncate toward zero.

    Example:
        >>> import sporax as ms
        >>> ms.ops.scalar_cast(2.7, ms.int64)
        2
    """
    if not isinstance(input_x, numbers.Number):
        raise TypeError(f"For 'ScalarCast', the type of 'x' should be one of '['bool', 'Number']', but got "
                        f"type '{type(input_x).__name__}'.")
    target = _SCALAR_TYPES.get(input_y)
    if target is None:
        raise ValueError(f"For 'ScalarCast', the supported type is in the list: [mindspore.int64, "
                         f"mindspore.float64, mindspore.bool], but got {input_y}.")
    return target(input_x)


@op(inputs="input_x", dtypes=SCALAR, primitive="ScalarToArray", samples=python_calls((2,), (2.5,)),
    reference=lambda x: np.asarray(x, np.int64 if isinstance(x, int) else np.float32), grad_check=False)
def scalar_to_array(input_x):
    """A 0-d Tensor from a Python number (int -> Int64, float -> Float32).

    Example:
        >>> from sporax import ops
        >>> ops.scalar_to_array(2.5)
        Tensor(shape=[], dtype=Float32, value= 2.5)
    """
    if isinstance(input_x, bool) or not isinstance(input_x, (int, float)):
        raise TypeError(f"For 'ScalarToArray', 'input_x' must be an int or a float, but got {input_x!r}.")
    return scalar_to_tensor(input_x, mstype.int64 if isinstance(input_x, int) else mstype.float32)


def _bits(name, function, doc):
    """The entry ``name`` (MindSpore 2.10's ``ops.operations._scalar_ops.<name>``): ``function`` of two Python ints or
    bools, answered in PyNative as a 0-d Tensor, Int64 (Bool for two bools), as MindSpore's kernel answers."""

    def compute(x, y):
        for value in (x, y):
            if not isinstance(value, (bool, int)) or isinstance(value, np.generic):
                got = "Float32" if isinstance(value, float) else type(value).__name__
                raise TypeError(f"For primitive[{name}], the input argument[x_dtype] must be a type of "
                                f"{{Bool, Int32, Int64}}, but got {got}.\nFor '{name}', 'x' and 'y' must be Python ints "
                                f"or bools, but got {x!r} and {y!r}.")
        both_bool = isinstance(x, bool) and isinstance(y, bool)
        return scalar_to_tensor(function(x, y), mstype.bool_ if both_bool else mstype.int64)

    return function_op(name, compute, doc, module=__name__, inputs=("x", "y"), dtypes=SCALAR, primitive=name,
                       samples=python_calls((3, 5), (-3, 5), (True, False)), grad_check=False,
                       reference=lambda x, y: np.asarray(function(x, y), np.bool_ if isinstance(x, bool) and
                                                         isinstance(y, bool) else np.int64))


bit_and = _bits("bit_and", operator.and_,
                "``x & y`` of two Python ints or bools, as a 0-d Tensor (``bit_and(3, 5)`` is 1).")
bit_or = _bits("bit_or", operator.or_,
               "``x | y`` of two Python ints or bools, as a 0-d Tensor (``bit_or(3, 5)`` is 7).")
# MindSpore 2.10's ``ops.operations._scalar_ops.bool_not`` takes any Python value (``bool_not()(0)`` is True), where
# ``BoolNot`` (``ops.bool_not``) takes bools alone
truth_not = function_op("truth_not", operator.not_, "``not x`` of any Python value (``_scalar_ops.bool_not()(0)`` is "
                        "True, of ``2.5`` False).", module=__name__, inputs="x", dtypes=SCALAR, primitive="bool_not",
                        samples=python_calls((0,), (2.5,), (True,), ("",)), grad_check=False, reference=operator.not_)


# --- tuples, lists, dicts, slices, strings ------------------------------------------------------
def _sequence(op_name, value, kinds, kind_name):
    if not isinstance(value, kinds):
        raise TypeError(f"For '{op_name}', the input must be a {kind_name}, but got {type(value).__name__}.")
    return value


def _index(op_name, sequence, index):
    if isinstance(index, bool) or not isinstance(index, numbers.Integral):
        raise TypeError(f"For '{op_name}', the index must be an int, but got {type(index).__name__} {index!r}.")
    if not -len(sequence) <= index < len(sequence):
        raise IndexError(f"For '{op_name}', the index {index} is out of range for a sequence of length "
                         f"{len(sequence)}.")
    return int(index)


def _arguments(op_name, args, count):
    if len(args) != count:
        raise TypeError(f"For '{op_name}', {count} inputs are expected, but got {len(args)}.")
    return args


def _getitem(cls):
    """``<kind>_getitem(data, index)``: ``data[index]`` of a ``cls`` (tuple or list)."""
    kind = cls.__name__
    name = f"{kind}_getitem"

    def getitem(*args):
        data, index = _arguments(name, args, 2)
        data = _sequence(name, data, cls, kind)
        return data[_index(name, data, index)]

    getitem.__name__ = getitem.__qualname__ = name
    getitem.__doc__ = f"``data[index]`` of a {kind}."
    return getitem


def _setitem(cls):
    """``<kind>_setitem(data, index, value)``: a new ``cls`` with element ``index`` replaced."""
    kind = cls.__name__
    name = f"{kind}_setitem"

    def setitem(*args):
        data, index, value = _arguments(name, args, 3)
        data = list(_sequence(name, data, cls, kind))
        data[_index(name, data, index)] = value
        return cls(data)

    setitem.__name__ = setitem.__qualname__ = name
    setitem.__doc__ = f"A new {kind} equal to ``data`` with element ``index`` replaced by ``value``."
    return setitem


tuple_getitem = op(inputs="args", dtypes=SCALAR, primitive="TupleGetItem", samples=python_calls(((1, 2, 3), 1),
                                                                                               ((1, 2, 3), -1)),
                   reference=lambda data, index: data[index], grad_check=False)(_getitem(tuple))


tuple_setitem = op(inputs="args", dtypes=SCALAR, primitive="tuple_setitem",
                   samples=python_calls(((1, 2, 3), 1, 9), ((1, 2), -1, "a")),
                   reference=lambda data, index, value: data[:index % len(data)] + (value,) + data[index % len(data) + 1:],
                   grad_check=False)(_setitem(tuple))


@op(inputs="args", dtypes=SCALAR, primitive="tuple_reversed", samples=python_calls(((1, 2, 3),), ((),)),
    reference=lambda data: data[::-1], grad_check=False)
def tuple_reversed(*args):
    """The tuple in reverse order."""
    (data,) = _arguments("tuple_reversed", args, 1)
    return tuple(reversed(_sequence("tuple_reversed", data, tuple, "tuple")))


@op(inputs="args", dtypes=SCALAR, primitive="tuple_equal", samples=python_calls(((1, 2), (1, 2)), ((1, 2), (1, 3)), ((1,), (1, 1))),
    reference=lambda left, right: len(left) == len(right) and all(a == b for a, b in zip(left, right)), grad_check=False)
def tuple_equal(*args):
    """Whether two tuples are equal element by element."""
    left, right = _arguments("tuple_equal", args, 2)
    return _sequence("tuple_equal", left, tuple, "tuple") == _sequence("tuple_equal", right, tuple, "tuple")


@op(inputs="args", dtypes=SCALAR, primitive="tuple_div", samples=python_calls(((4, 6), (2, 3)), ((8,), (4,))),
    reference=lambda left, right: tuple(a // b for a, b in zip(left, right)), grad_check=False)
def tuple_div(*args):
    """Element-wise integer division of two equal-length tuples of ints (shape arithmetic)."""
    left, right = _arguments("tuple_div", args, 2)
    left = _sequence("tuple_div", left, tuple, "tuple")
    right = _sequence("tuple_div", right, tuple, "tuple")
    if len(left) != len(right):
        raise ValueError(f"For 'tuple_div', the tuples must have the same length, but got {len(left)} and "
                         f"{len(right)}.")
    for a, b in zip(left, right):
        if b == 0 or a % b:
            raise ValueError(f"For 'tuple_div', every element of the first tuple must be divisible by the "
                             f"second's, but got {left} and {right}.")
    return tuple(int(a // b) for a, b in zip(left, right))


list_getitem = op(inputs="args", dtypes=SCALAR, primitive="list_getitem", samples=python_calls(([1, 2, 3], 1),
                                                                                              ([1, 2, 3], -3)),
                  reference=lambda data, index: data[index], grad_check=False)(_getitem(list))


list_setitem = op(inputs="args", dtypes=SCALAR, primitive="list_setitem", samples=python_calls(([1, 2, 3], 1, 9),),
                  reference=lambda data, index, value: data[:index] + [value] + data[index + 1:],
                  grad_check=False)(_setitem(list))


@op(inputs="args", dtypes=SCALAR, samples=python_calls(([1, 2, 3],), ([],)),
    reference=lambda data: sum(1 for _ in data), grad_check=False)
def list_len(*args):
    """The length of a list."""
    (data,) = _arguments("list_len", args, 1)
    return len(_sequence("list_len", data, list, "list"))


@op(inputs="args", dtypes=SCALAR, primitive="list_equal", samples=python_calls(([1, 2], [1, 2]), ([1, 2], [2, 1])),
    reference=lambda left, right: len(left) == len(right) and all(a == b for a, b in zip(left, right)), grad_check=False)
def list_equal(*args):
    """Whether two lists are equal element by element."""
    left, right = _arguments("list_equal", args, 2)
    return _sequence("list_equal", left, list, "list") == _sequence("list_equal", right, list, "list")


@op(inputs="args", dtypes=SCALAR, primitive="make_list", samples=python_calls((1, 2), ()),
    reference=lambda *items: [*items], grad_check=False)
def make_list(*args):
    """The list of the arguments."""
    return list(args)


@op(inputs="args", dtypes=SCALAR, primitive="make_dict", samples=python_calls((("a", "b"), (1, 2)),),
    reference=lambda keys, values: {key: value for key, value in zip(keys, values)}, grad_check=False)
def make_dict(*args):
    """The dict with keys ``keys`` and values ``values`` (two equal-length tuples)."""
    keys, values = _arguments("make_dict", args, 2)
    keys = _sequence("make_dict", keys, (tuple, list), "tuple of keys")
    values = _sequence("make_dict", values, (tuple, list), "tuple of values")
    if len(keys) != len(values):
        raise ValueError(f"For 'make_dict', keys and values must have the same length, but got {len(keys)} "
                         f"and {len(values)}.")
    return dict(zip(keys, values))


@op(inputs="args", dtypes=SCALAR, primitive="not_in_dict", samples=python_calls(("a", {"a": 1}), ("b", {"a": 1})),
    reference=lambda key, dictionary: all(key != other for other in dictionary), grad_check=False)
def not_in_dict(*args):
    """Whether ``key`` is not a key of ``dictionary``."""
    key, dictionary = _arguments("not_in_dict", args, 2)
    return key not in _sequence("not_in_dict", dictionary, dict, "dict")


@op(inputs="args", dtypes=SCALAR, primitive="make_slice", samples=python_calls((1, 5, 2), (3,)),
    reference=lambda *bounds: slice(*bounds), grad_check=False)
def make_slice(*args):
    """``slice(start, stop, step)``."""
    if not 1 <= len(args) <= 3:
        raise TypeError(f"For 'make_slice', 1 to 3 inputs are expected, but got {len(args)}.")
    return slice(*args)


@op(inputs="args", dtypes=SCALAR, primitive="SliceGetItem", samples=python_calls((slice(1, 5, 2), "start"), (slice(1, 5, 2), "step"), (slice(4), "start")),
    reference=lambda value, name: {'start': value.start, 'stop': value.stop, 'step': value.step}[name], grad_check=False)
def SliceGetItem(*args):
    """The ``start``, ``stop`` or ``step`` of a slice."""
    value, name = _arguments("SliceGetItem", args, 2)
    if not isinstance(value, slice) or name not in ("start", "stop", "step"):
        raise TypeError(f"For 'SliceGetItem', the inputs must be a slice and one of 'start', 'stop', 'step', "
                        f"but got {value!r} and {name!r}.")
    return getattr(value, name)


@op(inputs="args", dtypes=SCALAR, primitive="string_concat", samples=python_calls(("a", "bc"),),
    reference=lambda left, right: f'{left}{right}', grad_check=False)
def string_concat(*args):
    """The concatenation of two strings."""
    left, right = _arguments("string_concat", args, 2)
    return _sequence("string_concat", left, str, "str") + _sequence("string_concat", right, str, "str")


@op(inputs="args", dtypes=SCALAR, primitive="string_eq", samples=python_calls(("a", "a"), ("a", "b")),
    reference=lambda left, right: left == right, grad_check=False)
def string_eq(*args):
    """Whether two strings are equal."""
    left, right = _arguments("string_eq", args, 2)
    return _sequence("string_eq", left, str, "str") == _sequence("string_eq", right, str, "str")


@op(inputs="args", dtypes=SCALAR, primitive="typeof", samples=python_calls((1,), (2.5,), (True,)),
    # a Python float is Float32 in MindSpore 2.10's graphs (``typeof(2.5) == mindspore.float32`` there)
    reference=lambda value: {int: mstype.int64, float: mstype.float32, bool: mstype.bool_}[type(value)],
    grad_check=False)
def typeof(*args):
    """The MindSpore type of a value: ``mindspore.tensor[float32]`` for a Float32 Tensor, ``int64`` for an int."""
    (value,) = _arguments("typeof", args, 1)
    return mstype.get_py_obj_dtype(value)


@op(inputs="x", dtypes=SCALAR, samples=python_calls((np.ones((2, 3), np.float32),), (np.ones((), np.float32),)),
    reference=lambda x: np.shape(x), grad_check=False)
def shape_(x):
    """The shape of a Tensor as a tuple of ints."""
    if not isinstance(x, Tensor):
        raise TypeError(f"For 'shape_', 'x' must be a Tensor, but got {type(x).__name__}.")
    return tuple(x.shape)


@op(inputs="input_data", dtypes=SCALAR, primitive="shape_mul", samples=python_calls(((2, 3, 4),), ((),)),
    reference=lambda shape: int(np.prod(shape, dtype=np.int64)), grad_check=False)
def shape_mul(input_data):
    """The product of the ints of a shape tuple (the element count)."""
    data = _sequence("shape_mul", input_data, tuple, "tuple of ints")
    return math.prod(data)


@op(inputs="args", dtypes=SCALAR, primitive="reduced_shape", samples=python_calls(((2, 3, 4), (1,)), ((2, 3, 4), -1), ((2, 3), ())),
    reference=lambda shape, axis: np.sum(np.zeros(shape), axis=axis or None, keepdims=True).shape, grad_check=False)
def reduced_shape(*args):
    """``shape`` with the ``axis`` dimensions set to 1 (the shape a keepdims reduction returns)."""
    shape, axis = _arguments("reduced_shape", args, 2)
    shape = _sequence("reduced_shape", shape, tuple, "tuple of ints")
    axes = (axis,) if isinstance(axis, numbers.Integral) else tuple(axis)
    if not axes:
        return (1,) * len(shape)
    reduced = {int(a) % max(len(shape), 1) for a in axes}
    return tuple(1 if i in reduced else dim for i, dim in enumerate(shape))


@op(inputs="args", dtypes=SCALAR, primitive="Switch", samples=python_calls((True, 1, 2), (False, "a", "b")),
    reference=lambda cond, true_branch, false_branch: (false_branch, true_branch)[bool(cond)], grad_check=False)
def switch(*args):
    """``true_branch`` when ``cond`` holds, else ``false_branch`` (the two values, not functions)."""
    cond, true_branch, false_branch = _arguments("switch", args, 3)
    if isinstance(cond, Tensor):
        cond = bool(cond.asnumpy())
    return true_branch if cond else false_branch


def tail(*args):
    """The tuple (or list) without its first element."""
    (data,) = _arguments("tail", args, 1)
    data = _sequence("tail", data, (tuple, list), "tuple or list")
    if not data:
        raise ValueError("For 'tail', the input must not be empty.")
    return data[1:]


def zip_operation(*args):
    """The tuple of tuples pairing the sequences' elements (Python's ``zip``)."""
    if not args:
        raise ValueError("For 'zip_operation', at least one sequence is expected.")
    for value in args:
        _sequence("zip_operation", value, (tuple, list), "tuple or list")
    return tuple(zip(*args))
