"""More Python-value ops of MindSpore's graph compiler: order comparisons of tuples and lists (``tuple_lt``,
``list_greater_equal`` ...), the shape helpers ``TileSize`` and ``ListAppendAndInsertGrad``, ``Format``,
``string_mul``, ``string_getitem``, ``IsConstant`` and ``IsParameter``.

MindSpore keeps their Primitives in its private ``_sequence_ops`` and ``_inner_ops``; in sporax the values are
ordinary Python objects, so each op is the Python operation with MindSpore's checks, an op-table entry of the
``SCALAR`` rule whose Primitive class ``sporax.ops.operations.scalar_ops`` generates.

Example:
    >>> from sporax.ops.functional.compiler_values import tuple_lt, tile_size
    >>> tuple_lt((1, 2), (1, 3)), tile_size((1, 3), (4, 3), 2)
    (True, (4, 1))
"""
import operator

from sporax.core.parameter import Parameter
from sporax.ops.op_table import SCALAR, function_op, op
from sporax.ops.samples import python_calls


def _sequence_comparison(kind, name, primitive, compare):
    """The entry ``<kind>_<name>``: ``compare`` of two tuples or lists, element by element (Python's order)."""
    op_name = f"{kind}_{name}"

    # MindSpore 2.10's tuple_* take tuples only; its list_* take tuples as well as lists.
    kinds, kind_names = ((tuple,), "a tuple") if kind == "tuple" else ((tuple, list), "a list or a tuple")

    def compute(x, y):
        for arg_name, value in (("x", x), ("y", y)):
            if not isinstance(value, kinds):
                raise TypeError(f"For '{primitive}', '{arg_name}' must be {kind_names}, but got "
                                f"{type(value).__name__} {value!r}.")
        return compare(tuple(x), tuple(y))

    sequence = tuple if kind == "tuple" else list
    calls = ((sequence((1, 2)), sequence((1, 3))), (sequence((1, 2)), sequence((1, 2))),
             (sequence((2,)), sequence((1, 3))), (sequence((1, 2, 3)), sequence((1, 2))))
    doc = (f"``x {compare.__name__} y`` for two {kind}s, compared item by item (MindSpore's ``{primitive}``).\n\n"
           f"    Example:\n        >>> from sporax.ops.functional.compiler_values import {op_name}\n"
           f"        >>> {op_name}{calls[0]!r}\n        {compare(*calls[0])!r}\n")
    compare_values = lambda x, y: compare(tuple(x), tuple(y))  # noqa: E731
    return function_op(op_name, compute, doc, module=__name__, inputs=("x", "y"), dtypes=SCALAR,
                       primitive=primitive, samples=python_calls(*calls), reference=compare_values, grad_check=False)


_ORDERS = (("lt", operator.lt), ("le", operator.le), ("greater_than", operator.gt), ("greater_equal", operator.ge))
(tuple_lt, tuple_le, tuple_greater_than, tuple_greater_equal) = (
    _sequence_comparison("tuple", name, f"tuple_{name}", compare) for name, compare in _ORDERS)
(list_lt, list_le, list_greater_than, list_greater_equal) = (
    _sequence_comparison("list", name, f"list_{name}", compare) for name, compare in _ORDERS)


def _tile_size_reference(shape, out_shape, ndim):
    return tuple(out // size if size != out else 1 for size, out in zip(shape, out_shape))


@op(inputs=("shape", "out_shape", "ndim"), dtypes=SCALAR, primitive="TileSize",
    samples=python_calls(((1, 3), (4, 3), 2), ((2, 1, 3), (2, 5, 3), 3)), reference=_tile_size_reference,
    grad_check=False)
def tile_size(shape, out_shape, ndim):
    """The multiples that tile ``shape`` into ``out_shape`` (1 where they agree), ``ndim`` of them."""
    shape, out_shape = tuple(shape), tuple(out_shape)
    if len(shape) != ndim or len(out_shape) != ndim:
        raise ValueError(f"For 'TileSize', 'shape' {shape} and 'out_shape' {out_shape} must both have 'ndim' "
                         f"({ndim}) items.")
    return tuple(out // size if size != out else 1 for size, out in zip(shape, out_shape))


@op(inputs=("input", "index"), dtypes=SCALAR, primitive="ListAppendAndInsertGrad",
    samples=python_calls(([1, 2, 3], 1), ([1, 2, 3], -1), ([1, 2, 3], 0)),
    reference=lambda data, index: [item for place, item in enumerate(data) if place != index % len(data)],
    grad_check=False)
def list_append_and_insert_grad(input, index):
    """``input`` without its item at ``index``: the gradient of ``list.insert``/``append`` drops the inserted one."""
    if not isinstance(input, list):
        raise TypeError(f"For 'ListAppendAndInsertGrad', 'input' must be a list, but got {type(input).__name__}.")
    if not -len(input) <= index < len(input):
        raise IndexError(f"For 'ListAppendAndInsertGrad', 'index' {index} is out of range for a list of "
                         f"{len(input)} items.")
    return input[:index % len(input)] + input[index % len(input) + 1:]


@op(inputs=("string", "args"), dtypes=SCALAR, primitive="Format",
    samples=python_calls(("{}a{}", 1, 2), ("{} and {}", "a", (2, 3))),
    reference=lambda string, *args: string.format(*args), grad_check=False)
def string_format(string, *args):
    """``string.format(*args)`` (MindSpore's ``Format``, the primitive of ``str.format`` in graphs)."""
    if not isinstance(string, str):
        raise TypeError(f"For 'Format', the first input must be a str, but got {type(string).__name__}.")
    return string.format(*args)


@op(inputs=("x", "y"), dtypes=SCALAR, primitive="string_mul", samples=python_calls(("ab", 3), ("ab", 0)),
    reference=operator.mul, grad_check=False)
def string_mul(x, y):
    """``x`` repeated ``y`` times (a str and an int)."""
    if not isinstance(x, str) or isinstance(y, bool) or not isinstance(y, int):
        raise TypeError(f"For 'string_mul', the inputs must be a str and an int, but got {type(x).__name__} and "
                        f"{type(y).__name__}.")
    return x * y


@op(inputs=("data", "index"), dtypes=SCALAR, primitive="string_getitem", samples=python_calls(("abc", 1), ("abc", -1)),
    reference=operator.getitem, grad_check=False)
def string_getitem(data, index):
    """The character of ``data`` at ``index``."""
    if not isinstance(data, str) or isinstance(index, bool) or not isinstance(index, int):
        raise TypeError(f"For 'string_getitem', the inputs must be a str and an int, but got {type(data).__name__} "
                        f"and {type(index).__name__}.")
    if not -len(data) <= index < len(data):
        raise IndexError(f"For 'string_getitem', index {index} is out of range for a string of {len(data)}.")
    return data[index]


@op(inputs="x", dtypes=SCALAR, primitive="IsConstant", samples=python_calls((3,), ((1, 2),)),
    reference=lambda x: True, grad_check=False)
def is_constant(x):
    """Whether ``x`` is known before the program runs: always True when ops run one by one (PyNative)."""
    return True


@op(inputs="x", dtypes=SCALAR, primitive="IsParameter", samples=python_calls((3,), ((1, 2),)),
    reference=lambda x: False, grad_check=False)
def is_parameter(x):
    """Whether ``x`` is a Parameter."""
    return isinstance(x, Parameter)
