"""Python-sequence ops of ``mindspore.ops``: ``make_range``, ``make_tuple``, ``tuple_len`` (op-table entries of
the ``SCALAR`` rule: Python values in and out).

In MindSpore's graph compiler these are primitives on tuples and scalars; in sporax the values are
ordinary Python objects at trace time, so the helpers are plain Python with MindSpore's checks.

Example:
    >>> from sporax import ops
    >>> ops.make_range(1, 8, 3), ops.tuple_len((4, 5))
    ((1, 4, 7), 2)
"""
import numbers

from sporax.ops.op_table import SCALAR, op
from sporax.ops.samples import python_calls


def _int_argument(op_name, position, value):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"For '{op_name}', the {position}th input should be a int scalar but got "
                        f"{type(value).__name__} {value!r}.")
    return int(value)


@op(inputs=("start", "stop", "step"), dtypes=SCALAR, primitive="make_range",
    samples=python_calls((5,), (1, 8, 3), (8, 1, -2), (3, 1)),
    reference=lambda start=0, stop=None, step=1: tuple(range(start, stop, step)) if stop is not None
    else tuple(range(start)), grad_check=False)
def make_range(start=0, stop=None, step=1):
    """The tuple ``(start, start + step, ...)`` below ``stop``; ``make_range(n)`` is ``0 .. n-1``."""
    if stop is None:
        start, stop = 0, start
    start, stop, step = (_int_argument("make_range", i, v) for i, v in enumerate((start, stop, step)))
    if step == 0:
        raise RuntimeError("For 'make_range', the argument 'step' could not be 0.")
    return tuple(range(start, stop, step))


@op(inputs="elements", dtypes=SCALAR, primitive="MakeTuple", samples=python_calls((1, 2), (3,), ()),
    reference=lambda *elements: (*elements,), grad_check=False)
def make_tuple(*elements):
    """The tuple of the arguments, ``make_tuple(a, b) == (a, b)`` (MindSpore's ``MakeTuple``)."""
    return tuple(elements)


@op(inputs="data", dtypes=SCALAR, primitive="sequence_len", samples=python_calls(((1, 2, 3),), ([1, 2],), ((),)),
    reference=lambda data: sum(1 for _ in data), grad_check=False)
def tuple_len(data):
    """The number of elements of a tuple or list."""
    if not isinstance(data, (tuple, list)):
        raise TypeError(f"For 'tuple_len', the input must be a tuple or a list, but got {type(data).__name__}.")
    return len(data)
