"""Scalar, tuple, list, dict and string helpers of ``mindspore.ops`` (``scalar_add``, ``tuple_getitem``, ...).

MindSpore's graph compiler has a primitive for each Python operation on constants (``scalar_add``
is ``x + y`` on two numbers, ``tuple_setitem`` builds a new tuple). In sporax these values are
ordinary Python objects at trace time, so each helper is the Python operation with MindSpore's
argument checks, and it runs the same in PyNative and in compiled functions.

Example:
    >>> from sporax import ops
    >>> ops.scalar_add(2, 3.5), ops.tuple_setitem((1, 2, 3), 1, 9), ops.shape_mul((2, 3, 4))
    (5.5, (1, 9, 3), 24)
"""
import math
import numbers
import operator

from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor
from sporax.ops.functional.sequence import ScalarCast


def _scalar(op_name, arg_name, value):
    if not isinstance(value, numbers.Number) or isinstance(value, complex):
        raise TypeError(f"For '{op_name}', '{arg_name}' must be a Python int, float or bool scalar, but got "
                        f"{type(value).__name__} {value!r}.")
    return value


def _binary_scalar(op_name, function):
    def scalar_op(x, y):
        return function(_scalar(op_name, "x", x), _scalar(op_name, "y", y))
    scalar_op.__name__ = op_name
    scalar_op.__doc__ = f"``{op_name}(x, y)``: the Python operation on two scalars (MindSpore's graph primitive)."
    return scalar_op


def _divide(x, y):
    if y == 0:
        raise ValueError("For 'scalar_div', the divisor 'y' can not be zero.")
    return x / y


def _floor_divide(x, y):
    if y == 0:
        raise ValueError("For 'scalar_floordiv', the divisor 'y' can not be zero.")
    return x // y


def _modulo(x, y):
    if y == 0:
        raise ValueError("For 'scalar_mod', the divisor 'y' can not be zero.")
    return x % y


scalar_add = _binary_scalar("scalar_add", operator.add)
scalar_sub = _binary_scalar("scalar_sub", operator.sub)
scalar_mul = _binary_scalar("scalar_mul", operator.mul)
scalar_div = _binary_scalar("scalar_div", _divide)
scalar_floordiv = _binary_scalar("scalar_floordiv", _floor_divide)
scalar_mod = _binary_scalar("scalar_mod", _modulo)
scalar_pow = _binary_scalar("scalar_pow", operator.pow)
scalar_eq = _binary_scalar("scalar_eq", operator.eq)
scalar_lt = _binary_scalar("scalar_lt", operator.lt)
scalar_le = _binary_scalar("scalar_le", operator.le)
scalar_gt = _binary_scalar("scalar_gt", operator.gt)
scalar_ge = _binary_scalar("scalar_ge", operator.ge)
scalar_max = _binary_scalar("scalar_max", max)
scalar_min = _binary_scalar("scalar_min", min)


def scalar_ne(*args):
    """``x != y`` on two scalars."""
    if len(args) != 2:
        raise TypeError(f"For 'scalar_ne', 2 inputs are expected, but got {len(args)}.")
    return _scalar("scalar_ne", "x", args[0]) != _scalar("scalar_ne", "y", args[1])


def scalar_log(x):
    """The natural logarithm of a positive scalar, as a Python float."""
    value = _scalar("scalar_log", "x", x)
    if value <= 0:
        raise ValueError(f"For 'scalar_log', 'x' must be positive, but got {value!r}.")
    return math.log(value)


def scalar_uadd(x):
    """``+x`` on a scalar."""
    return +_scalar("scalar_uadd", "x", x)


def scalar_usub(x):
    """``-x`` on a scalar."""
    return -_scalar("scalar_usub", "x", x)


_SCALAR_CAST = ScalarCast()


def scalar_cast(input_x, input_y):
    """Cast a scalar to ``mindspore.int64`` (int), ``float64`` (float) or ``bool_`` (bool)."""
    return _SCALAR_CAST(input_x, input_y)


def scalar_to_array(input_x):
    """A 0-d Tensor from a Python number (int -> Int64, float -> Float32)."""
    from sporax.ops.operations.array_ops import ScalarToArray

    return ScalarToArray()(input_x)


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


tuple_getitem = _getitem(tuple)


tuple_setitem = _setitem(tuple)


def tuple_reversed(*args):
    """The tuple in reverse order."""
    (data,) = _arguments("tuple_reversed", args, 1)
    return tuple(reversed(_sequence("tuple_reversed", data, tuple, "tuple")))


def tuple_equal(*args):
    """Whether two tuples are equal element by element."""
    left, right = _arguments("tuple_equal", args, 2)
    return _sequence("tuple_equal", left, tuple, "tuple") == _sequence("tuple_equal", right, tuple, "tuple")


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


list_getitem = _getitem(list)


list_setitem = _setitem(list)


def list_len(*args):
    """The length of a list."""
    (data,) = _arguments("list_len", args, 1)
    return len(_sequence("list_len", data, list, "list"))


def list_equal(*args):
    """Whether two lists are equal element by element."""
    left, right = _arguments("list_equal", args, 2)
    return _sequence("list_equal", left, list, "list") == _sequence("list_equal", right, list, "list")


def make_list(*args):
    """The list of the arguments."""
    return list(args)


def make_dict(*args):
    """The dict with keys ``keys`` and values ``values`` (two equal-length tuples)."""
    keys, values = _arguments("make_dict", args, 2)
    keys = _sequence("make_dict", keys, (tuple, list), "tuple of keys")
    values = _sequence("make_dict", values, (tuple, list), "tuple of values")
    if len(keys) != len(values):
        raise ValueError(f"For 'make_dict', keys and values must have the same length, but got {len(keys)} "
                         f"and {len(values)}.")
    return dict(zip(keys, values))


def not_in_dict(*args):
    """Whether ``key`` is not a key of ``dictionary``."""
    key, dictionary = _arguments("not_in_dict", args, 2)
    return key not in _sequence("not_in_dict", dictionary, dict, "dict")


def make_slice(*args):
    """``slice(start, stop, step)``."""
    if not 1 <= len(args) <= 3:
        raise TypeError(f"For 'make_slice', 1 to 3 inputs are expected, but got {len(args)}.")
    return slice(*args)


def SliceGetItem(*args):
    """The ``start``, ``stop`` or ``step`` of a slice."""
    value, name = _arguments("SliceGetItem", args, 2)
    if not isinstance(value, slice) or name not in ("start", "stop", "step"):
        raise TypeError(f"For 'SliceGetItem', the inputs must be a slice and one of 'start', 'stop', 'step', "
                        f"but got {value!r} and {name!r}.")
    return getattr(value, name)


def string_concat(*args):
    """The concatenation of two strings."""
    left, right = _arguments("string_concat", args, 2)
    return _sequence("string_concat", left, str, "str") + _sequence("string_concat", right, str, "str")


def string_eq(*args):
    """Whether two strings are equal."""
    left, right = _arguments("string_eq", args, 2)
    return _sequence("string_eq", left, str, "str") == _sequence("string_eq", right, str, "str")


def typeof(*args):
    """The MindSpore type of a value: ``mindspore.tensor[float32]`` for a Float32 Tensor, ``int64`` for an int."""
    (value,) = _arguments("typeof", args, 1)
    return mstype.get_py_obj_dtype(value)


def shape_(x):
    """The shape of a Tensor as a tuple of ints."""
    if not isinstance(x, Tensor):
        raise TypeError(f"For 'shape_', 'x' must be a Tensor, but got {type(x).__name__}.")
    return tuple(x.shape)


def shape_mul(input_data):
    """The product of the ints of a shape tuple (the element count)."""
    data = _sequence("shape_mul", input_data, tuple, "tuple of ints")
    return math.prod(data)


def reduced_shape(*args):
    """``shape`` with the ``axis`` dimensions set to 1 (the shape a keepdims reduction returns)."""
    shape, axis = _arguments("reduced_shape", args, 2)
    shape = _sequence("reduced_shape", shape, tuple, "tuple of ints")
    axes = (axis,) if isinstance(axis, numbers.Integral) else tuple(axis)
    if not axes:
        return (1,) * len(shape)
    reduced = {int(a) % max(len(shape), 1) for a in axes}
    return tuple(1 if i in reduced else dim for i, dim in enumerate(shape))


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
