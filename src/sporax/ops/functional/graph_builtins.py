"""Python-level helpers MindSpore exports from ``ops``/``ops.functional``/``ops.composite`` for its graph
compiler, with their PyNative meaning: ``bool_and``, ``is_``, ``in_dict``, ``dict_getitem``,
``augassign_add`` (``x += y``), ``hyper_add`` (``+`` over nested tuples), ``broadcast_gradient_args``, and
``ms_next``/``ms_hasnext``, the sequence-iteration helpers MindSpore's compiler lowers ``for`` loops to.

Contract: each does what the Python expression it stands for does (values, not graph nodes);
Tensors go through sporax's Tensor operators.

Example:
    >>> from sporax import ops
    >>> ops.broadcast_gradient_args((2, 3), (3,))
    ((), (0,))
"""
import operator

import numpy as np

from sporax.core.tensor import Tensor
from sporax.ops.op_table import SCALAR, op
from sporax.ops.samples import python_calls


def _nested_sum(x, y):
    """The reference of ``hyper_add``: leaves added position by position, the nesting rebuilt."""
    if isinstance(x, (tuple, list)):
        return type(x)(map(_nested_sum, x, y))
    return x + y


def _summed_axes(x_shape, y_shape):
    """The reference of ``broadcast_gradient_args``, from NumPy's broadcast shape."""
    out = np.broadcast_shapes(tuple(x_shape), tuple(y_shape))

    def axes(shape):
        padded = np.array((1,) * (len(out) - len(shape)) + tuple(shape), dtype=np.int64)
        return tuple(int(axis) for axis in np.flatnonzero((padded == 1) & (np.array(out, dtype=np.int64) != 1)))

    return axes(x_shape), axes(y_shape)


def _bools(op_name, *values):
    for value in values:
        if not isinstance(value, bool):
            raise TypeError(f"For '{op_name}', the inputs must be bools, but got {type(value).__name__}.")


@op(inputs=("x", "y"), dtypes=SCALAR, primitive="bool_and", samples=python_calls((True, False), (True, True), (False, False)),
    reference=lambda x, y: x & y, grad_check=False)
def bool_and(x, y):
    """``x and y`` for two bools.

    Example:
        >>> from sporax import ops
        >>> ops.bool_and(True, False)
        False
    """
    _bools("bool_and", x, y)
    return x and y


@op(inputs=("x", "y"), dtypes=SCALAR, primitive="bool_or", samples=python_calls((True, False), (True, True), (False, False)),
    reference=lambda x, y: x | y, grad_check=False)
def bool_or(x, y):
    """``x or y`` for two bools."""
    _bools("bool_or", x, y)
    return x or y


@op(inputs="x", dtypes=SCALAR, primitive="BoolNot", samples=python_calls((True,), (False,)),
    reference=lambda x: x ^ True, grad_check=False)
def bool_not(x):
    """``not x`` for a bool."""
    _bools("bool_not", x)
    return not x


@op(inputs=("x", "y"), dtypes=SCALAR, primitive="bool_eq", samples=python_calls((True, False), (True, True), (False, False)),
    reference=lambda x, y: not (x ^ y), grad_check=False)
def bool_eq(x, y):
    """``x == y`` for two bools."""
    _bools("bool_eq", x, y)
    return x == y


@op(inputs=("x", "y"), dtypes=SCALAR, primitive="is_", samples=python_calls((None, None), (1, None)),
    reference=lambda x, y: id(x) == id(y), grad_check=False)
def is_(x, y):
    """``x is y``.

    Example:
        >>> from sporax import ops
        >>> ops.is_(None, None)
        True
    """
    return x is y


@op(inputs=("x", "y"), dtypes=SCALAR, primitive="is_not", samples=python_calls((None, None), (1, None)),
    reference=lambda x, y: id(x) != id(y), grad_check=False)
def is_not(x, y):
    """``x is not y``."""
    return x is not y


@op(inputs=("key", "dictionary"), dtypes=SCALAR, primitive="in_dict", samples=python_calls(("a", {"a": 1}), ("b", {"a": 1})),
    reference=lambda key, dictionary: any(key == other for other in dictionary.keys()), grad_check=False)
def in_dict(key, dictionary):
    """``key in dictionary``.

    Example:
        >>> from sporax import ops
        >>> ops.in_dict("a", {"a": 1})
        True
    """
    if not isinstance(dictionary, dict):
        raise TypeError(f"For 'in_dict', the second input must be a dict, but got {type(dictionary).__name__}.")
    return key in dictionary


@op(inputs=("dictionary", "key"), dtypes=SCALAR, primitive="dict_getitem", samples=python_calls(({"a": 1, "b": 2}, "b"),),
    reference=lambda dictionary, key: dict(dictionary.items()).get(key), grad_check=False)
def dict_getitem(dictionary, key):
    """``dictionary[key]`` (a KeyError names the missing key).

    Example:
        >>> from sporax import ops
        >>> ops.dict_getitem({"a": 1}, "a")
        1
    """
    if not isinstance(dictionary, dict):
        raise TypeError(f"For 'dict_getitem', the first input must be a dict, but got {type(dictionary).__name__}.")
    if key not in dictionary:
        raise KeyError(f"For 'dict_getitem', the key {key!r} is not in the dict (keys: {list(dictionary)}).")
    return dictionary[key]


@op(inputs=("dictionary", "key", "value"), dtypes=SCALAR, primitive="dict_setitem", samples=python_calls(({"a": 1}, "b", 2), ({"a": 1}, "a", 3)),
    reference=lambda dictionary, key, value: {**dictionary, key: value}, grad_check=False)
def dict_setitem(dictionary, key, value):
    """A new dict: ``dictionary`` with ``key`` set to ``value`` (the input is not changed).

    Example:
        >>> from sporax import ops
        >>> ops.dict_setitem({"a": 1}, "b", 2)
        {'a': 1, 'b': 2}
    """
    if not isinstance(dictionary, dict):
        raise TypeError(f"For 'dict_setitem', the first input must be a dict, but got {type(dictionary).__name__}.")
    result = dict(dictionary)
    result[key] = value
    return result


def _augmented(name, function, symbol, reference, calls):
    def op_kernel(x, y):
        return function(x, y)
    op_kernel.__name__ = op_kernel.__qualname__ = name
    op_kernel.__doc__ = (f"The value of ``x {symbol}= y`` (a new object; Tensors use Tensor operators).\n\n"
                         f"    Example:\n        >>> from sporax import ops\n        >>> ops.{name}(7, 2)\n"
                         f"        {function(7, 2)!r}\n")
    # MindSpore's augassign_* are MultitypeFuncGraphs, not Primitives: no Primitive class
    return op(inputs=("x", "y"), dtypes=SCALAR, samples=python_calls(*calls), reference=reference,
              grad_check=False)(op_kernel)


augassign_add = _augmented("augassign_add", operator.add, "+", lambda x, y: x + y, ((7, 2), (1.5, 2), ((1,), (2,))))
augassign_sub = _augmented("augassign_sub", operator.sub, "-", lambda x, y: x - y, ((7, 2), (1.5, 2)))
augassign_mul = _augmented("augassign_mul", operator.mul, "*", lambda x, y: x * y, ((7, 2), ((1,), 2)))
augassign_div = _augmented("augassign_div", operator.truediv, "/", lambda x, y: x / y, ((7, 2), (-1.5, 2)))
augassign_floordiv = _augmented("augassign_floordiv", operator.floordiv, "//", lambda x, y: x // y,
                                ((7, 2), (-7, 2)))
augassign_mod = _augmented("augassign_mod", operator.mod, "%", lambda x, y: x % y, ((7, 2), (-7, 3)))


@op(inputs=("x", "y"), dtypes=SCALAR, samples=python_calls(((1, (2, 3)), (10, (20, 30))), ([1.5], [2]), (2, 3)),
    reference=_nested_sum, grad_check=False)
def hyper_add(x, y):
    """``x + y``, applied element by element through matching (nested) tuples and lists.

    Example:
        >>> from sporax import ops
        >>> ops.hyper_add((1, (2, 3)), (10, (20, 30)))
        (11, (22, 33))
    """
    if isinstance(x, (tuple, list)) or isinstance(y, (tuple, list)):
        if type(x) is not type(y) or len(x) != len(y):
            raise TypeError(f"For 'hyper_add', tuples and lists must match in type and length, but got "
                            f"{type(x).__name__} of {len(x) if hasattr(x, '__len__') else '-'} and "
                            f"{type(y).__name__} of {len(y) if hasattr(y, '__len__') else '-'} items.")
        return type(x)(hyper_add(a, b) for a, b in zip(x, y))
    return x + y


@op(inputs=("x_shape", "y_shape"), dtypes=SCALAR, primitive="BroadcastGradientArgs", samples=python_calls(((2, 1, 3), (4, 1)), ((2, 3), (2, 3)), ((), (5,))),
    reference=_summed_axes, grad_check=False)
def broadcast_gradient_args(x_shape, y_shape):
    """The axes to sum a gradient over for each of two broadcast operands: ``(x_axes, y_axes)``.

    An axis of the broadcast result is reduced for an operand whose (left-padded) size there is 1
    while the result's is not.

    Example:
        >>> from sporax import ops
        >>> ops.broadcast_gradient_args((2, 1, 3), (4, 1))
        ((1,), (0, 2))
    """
    x_shape, y_shape = tuple(x_shape), tuple(y_shape)
    rank = max(len(x_shape), len(y_shape))
    x_padded = (1,) * (rank - len(x_shape)) + x_shape
    y_padded = (1,) * (rank - len(y_shape)) + y_shape
    out = []
    for i, (a, b) in enumerate(zip(x_padded, y_padded)):
        if a != b and 1 not in (a, b):
            raise ValueError(f"For 'broadcast_gradient_args', the shapes {x_shape} and {y_shape} do not broadcast "
                             f"(axis {i}: {a} vs {b}).")
        out.append(max(a, b))
    x_axes = tuple(i for i, (a, size) in enumerate(zip(x_padded, out)) if a == 1 and size != 1)
    y_axes = tuple(i for i, (b, size) in enumerate(zip(y_padded, out)) if b == 1 and size != 1)
    return x_axes, y_axes


def ms_hasnext(*args):
    """Whether a tuple, list, string, dict or Tensor (along its first axis) has elements left."""
    if len(args) != 1:
        raise TypeError(f"For 'ms_hasnext', one input is expected, but got {len(args)}.")
    (sequence,) = args
    if isinstance(sequence, Tensor):
        return sequence.ndim > 0 and sequence.shape[0] > 0
    if not isinstance(sequence, (tuple, list, str, dict)):
        raise TypeError(f"For 'ms_hasnext', the input must be a tuple, list, str, dict or Tensor, but got "
                        f"{type(sequence).__name__}.")
    return len(sequence) > 0


def ms_next(*args):
    """``(first element, the rest)`` of a tuple, list, string or Tensor (rows)."""
    if len(args) != 1:
        raise TypeError(f"For 'ms_next', one input is expected, but got {len(args)}.")
    (sequence,) = args
    if not ms_hasnext(sequence):
        raise ValueError("For 'ms_next', the input is empty: there is no next element.")
    if isinstance(sequence, dict):
        keys = tuple(sequence)
        return keys[0], keys[1:]
    return sequence[0], sequence[1:]
