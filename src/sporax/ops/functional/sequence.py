"""Python-sequence helpers of ``mindspore.ops``: ``make_range``, ``make_tuple``, ``tuple_len``, ``ScalarCast``.

In MindSpore's graph compiler these are primitives on tuples and scalars; in sporax the values are
ordinary Python objects at trace time, so the helpers are plain Python with MindSpore's checks.

Example:
    >>> from sporax import ops
    >>> ops.make_range(1, 8, 3), ops.tuple_len((4, 5))
    ((1, 4, 7), 2)
"""
import numbers

from sporax.core import dtype as mstype
from sporax.ops.primitive import Primitive


def _int_argument(op_name, position, value):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"For '{op_name}', the {position}th input should be a int scalar but got "
                        f"{type(value).__name__} {value!r}.")
    return int(value)


def make_range(start=0, stop=None, step=1):
    """The tuple ``(start, start + step, ...)`` below ``stop``; ``make_range(n)`` is ``0 .. n-1``."""
    if stop is None:
        start, stop = 0, start
    start, stop, step = (_int_argument("make_range", i, v) for i, v in enumerate((start, stop, step)))
    if step == 0:
        raise RuntimeError("For 'make_range', the argument 'step' could not be 0.")
    return tuple(range(start, stop, step))


def make_tuple(*elements):
    """The tuple of the arguments, ``make_tuple(a, b) == (a, b)`` (MindSpore's ``MakeTuple``)."""
    return tuple(elements)


def tuple_len(data):
    """The number of elements of a tuple or list."""
    if not isinstance(data, (tuple, list)):
        raise TypeError(f"For 'tuple_len', the input must be a tuple or a list, but got {type(data).__name__}.")
    return len(data)


_SCALAR_TYPES = {mstype.int64: int, mstype.float64: float, mstype.bool_: bool}


class ScalarCast(Primitive):
    """Cast a Python scalar to ``int`` (``mindspore.int64``), ``float`` (``float64``) or ``bool``.

    Inputs:
        - **input_x** (Union[bool, Number]) - the scalar.
        - **input_y** (mindspore.dtype) - ``mindspore.int64``, ``mindspore.float64`` or ``mindspore.bool_``.

    Outputs:
        The scalar as a Python ``int``, ``float`` or ``bool`` (ints truncate toward zero).
    """

    def __call__(self, input_x, input_y):
        if not isinstance(input_x, numbers.Number):
            raise TypeError(f"For 'ScalarCast', the type of 'x' should be one of '['bool', 'Number']', but got "
                            f"type '{type(input_x).__name__}'.")
        target = _SCALAR_TYPES.get(input_y)
        if target is None:
            raise ValueError(f"For 'ScalarCast', the supported type is in the list: [mindspore.int64, "
                             f"mindspore.float64, mindspore.bool], but got {input_y}.")
        return target(input_x)
