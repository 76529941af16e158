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

import jax
import numpy as np

from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor
from sporax.ops.functional.array_joining import stack, unstack
from sporax.ops.functional.creation import zeros_like
from sporax.ops.functional.linalg import addn
from sporax.ops.op_table import SCALAR, Sample, op
from sporax.ops.samples import python_calls
from sporax.state.fallback import UntraceableError


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


@op(inputs="input", dtypes=SCALAR, primitive="ListToTuple", samples=python_calls(([1, 2.5, (3,)],), ((1, 2),), ([],)),
    reference=lambda data: (*data,), grad_check=False)
def list_to_tuple(input):  # noqa: A002 - MindSpore's input name
    """The elements of a list (or tuple) as a tuple (MindSpore's ``ListToTuple``; a non-iterable raises TypeError)."""
    return tuple(input)


@op(inputs="input", dtypes=SCALAR, primitive="TupleToList", samples=python_calls(((1, [2]),), ([1, 2],), ((),)),
    reference=lambda data: [*data], grad_check=False)
def tuple_to_list(input):  # noqa: A002 - MindSpore's input name
    """The elements of a tuple (or list) as a list (MindSpore's ``TupleToList``; a non-iterable raises TypeError)."""
    return list(input)


@op(inputs="data", dtypes=SCALAR, primitive="sequence_len", samples=python_calls(((1, 2, 3),), ([1, 2],), ((),)),
    reference=lambda data: sum(1 for _ in data), grad_check=False)
def tuple_len(data):
    """The number of elements of a tuple or list."""
    if not isinstance(data, (tuple, list)):
        raise TypeError(f"For 'tuple_len', the input must be a tuple or a list, but got {type(data).__name__}.")
    return len(data)


# --- MindSpore's sequence Primitives (``ops.operations._sequence_ops``): entries without a functional name of
# MindSpore's, so they are not exported from ``ops``; their Primitive classes are (``operations.scalar_ops``).
def _of_kind(op_name, name, value, kinds=(tuple, list)):
    if not isinstance(value, kinds):
        expected = " or ".join(kind.__name__ for kind in kinds)
        raise TypeError(f"For '{op_name}', '{name}' must be a {expected}, but got {type(value).__name__} {value!r}.")
    return value


def _tensors_of(op_name, value):
    _of_kind(op_name, "input_x", value)
    if not value or not all(isinstance(item, Tensor) for item in value):
        raise TypeError(f"For '{op_name}', 'input_x' must be a non-empty tuple or list of Tensors, but got {value!r}.")
    return value


@op(inputs=("target", "sequence"), dtypes=SCALAR, primitive="InSequence",
    samples=python_calls((2, (1, 2, 3)), (5, [1, 2, 3])), reference=lambda target, sequence: target in list(sequence),
    grad_check=False)
def in_sequence(target, sequence):
    """Whether ``target`` is an element of the tuple or list ``sequence`` (``target in sequence``)."""
    return target in _of_kind("in_sequence", "sequence", sequence)


@op(inputs=("input_data", "target"), dtypes=SCALAR, primitive="ListAppend", samples=python_calls(([1, 2], 3), ([], "a")),
    reference=lambda data, target: [*data, target], grad_check=False)
def list_append(input_data, target):
    """A new list: ``input_data`` with ``target`` appended (the input is not changed)."""
    return list(_of_kind("list_append", "input_data", input_data, (list,))) + [target]


@op(inputs=("input_data", "index", "target"), dtypes=SCALAR, primitive="ListInsert",
    samples=python_calls(([1, 2], 0, 9), ([1, 2], -1, 9), ([1, 2], 5, 9)),
    reference=lambda data, index, target: (lambda copy: copy.insert(index, target) or copy)(list(data)),
    grad_check=False)
def list_insert(input_data, index, target):
    """A new list: ``input_data`` with ``target`` inserted before ``index`` (Python's ``list.insert``)."""
    result = list(_of_kind("list_insert", "input_data", input_data, (list,)))
    result.insert(_int_argument("list_insert", 1, index), target)
    return result


@op(inputs=("x", "y"), dtypes=SCALAR, primitive="SequenceAdd", samples=python_calls(((1, 2), (3,)), ([1], [2.5, 3])),
    reference=lambda x, y: type(x)([*x, *y]), grad_check=False)
def sequence_add(x, y):
    """The concatenation of two tuples or two lists (``x + y``)."""
    _of_kind("sequence_add", "x", x)
    if type(y) is not type(x):
        raise TypeError(f"For 'sequence_add', 'x' and 'y' must both be tuples or both lists, but got "
                        f"{type(x).__name__} and {type(y).__name__}.")
    return x + y


@op(inputs=("sequence", "target"), dtypes=SCALAR, primitive="SequenceCount",
    samples=python_calls(((1, 2, 1), 1), ([1.0, 2], 3)), reference=lambda sequence, target: sum(
        1 for item in sequence if item == target), grad_check=False)
def sequence_count(sequence, target):
    """How many elements of the tuple or list ``sequence`` equal ``target``."""
    return _of_kind("sequence_count", "sequence", sequence).count(target)


@op(inputs=("sequence", "target", "start", "end"), dtypes=SCALAR, primitive="SequenceIndex",
    samples=python_calls(((1, 2, 1), 2), ((1, 2, 1), 1, 1, 3)),
    reference=lambda sequence, target, start=None, end=None: next(
        position for position in range(len(sequence))[slice(start, end)] if sequence[position] == target),
    grad_check=False)
def sequence_index(sequence, target, start=None, end=None):
    """The position of the first element equal to ``target`` in ``sequence[start:end]`` (Python's ``index``)."""
    sequence = _of_kind("sequence_index", "sequence", sequence)
    start = 0 if start is None else _int_argument("sequence_index", 2, start)
    end = len(sequence) if end is None else _int_argument("sequence_index", 3, end)
    try:
        return sequence.index(target, start, end)
    except ValueError:
        raise ValueError(f"For 'sequence_index', {target!r} is not in the sequence {sequence!r} "
                         f"(between {start} and {end}).") from None


def _extreme(op_name, function, reference):
    def extreme(sequence):
        if not _of_kind(op_name, "sequence", sequence):
            raise ValueError(f"For '{op_name}', the sequence must not be empty.")
        return function(sequence)

    extreme.__name__ = extreme.__qualname__ = op_name
    extreme.__doc__ = f"The {function.__name__}imum element of a tuple or list (Python's ``{function.__name__}``)."
    return op(inputs="sequence", dtypes=SCALAR, primitive=f"Sequence{function.__name__.title()}",
              samples=python_calls(((1, 5, 2),), ([4, 1.5, 2],)), reference=reference, grad_check=False)(extreme)


sequence_max = _extreme("sequence_max", max, lambda sequence: sorted(sequence, reverse=True)[0])
sequence_min = _extreme("sequence_min", min, lambda sequence: sorted(sequence)[0])


@op(inputs=("sequence", "scalar"), dtypes=SCALAR, primitive="SequenceMul",
    samples=python_calls(((1, 2), 3), ([1], 0)), reference=lambda sequence, scalar: type(sequence)(
        [item for _ in range(scalar) for item in sequence]), grad_check=False)
def sequence_mul(sequence, scalar):
    """The tuple or list repeated ``scalar`` times (``sequence * scalar``)."""
    return _of_kind("sequence_mul", "sequence", sequence) * _int_argument("sequence_mul", 1, scalar)


@op(inputs=("sequence", "start", "stop", "step"), dtypes=SCALAR, primitive="SequenceSlice",
    samples=python_calls(((1, 2, 3, 4), 0, 3, 2), ([1, 2, 3, 4], 3, 0, -1)),
    reference=lambda sequence, start, stop, step: type(sequence)(
        sequence[position] for position in range(start, stop, step)), grad_check=False)
def sequence_slice(sequence, start, stop, step):
    """``sequence[start:stop:step]`` of a tuple or list."""
    sequence = _of_kind("sequence_slice", "sequence", sequence)
    if step == 0:
        raise ValueError("For 'sequence_slice', 'step' can not be 0.")
    return sequence[start:stop:step]


@op(inputs=("seq", "target", "start", "stop", "step"), dtypes=SCALAR, primitive="SequenceSliceSetItem",
    samples=python_calls(([1, 2, 3, 4], [7, 8], 0, 2, 1), ((1, 2, 3, 4), (9, 9), 0, 4, 2)),
    reference=lambda seq, target, start, stop, step: type(seq)(
        dict(zip(range(start, stop, step), target)).get(position, item) for position, item in enumerate(seq)),
    grad_check=False)
def sequence_slice_setitem(seq, target, start, stop, step):
    """A new tuple or list: ``seq`` with ``seq[start:stop:step] = target``."""
    result = list(_of_kind("sequence_slice_setitem", "seq", seq))
    try:
        result[start:stop:step] = _of_kind("sequence_slice_setitem", "target", target)
    except ValueError as error:  # an extended slice of another length
        raise ValueError(f"For 'sequence_slice_setitem', {error}.") from None
    return type(seq)(result)


@op(inputs="sequence", dtypes=SCALAR, primitive="SequenceAddN",
    samples=python_calls(((np.ones(2, np.float32), np.arange(2, dtype=np.float32)),)),
    reference=lambda sequence: np.sum(sequence, axis=0), grad_check=False)
def sequence_add_n(sequence):
    """The element-wise sum of a tuple or list of Tensors of one shape (``ops.addn``)."""
    return addn(_tensors_of("sequence_add_n", sequence))


@op(inputs="input_x", dtypes=SCALAR, primitive="SequenceStack", primitive_attrs=("axis",),
    samples=lambda dtype: [Sample(((np.ones(2, np.float32), np.zeros(2, np.float32)),)),
                           Sample(((np.ones(2, np.float32),),), {"axis": 1})],
    reference=lambda input_x, axis=0: np.stack(input_x, axis), grad_check=False)
def sequence_stack(input_x, axis=0):
    """The Tensors of a tuple or list stacked along a new ``axis`` (``ops.stack``)."""
    return stack(_tensors_of("sequence_stack", input_x), axis)


@op(inputs="input_x", dtypes=SCALAR, primitive="SequenceUnstack", primitive_attrs=("axis", "num"),
    samples=lambda dtype: [Sample((np.arange(6, dtype=np.float32).reshape(2, 3),)),
                           Sample((np.ones((2, 3), np.float32),), {"axis": 1, "num": 3})],
    reference=lambda input_x, axis=0, num=None: tuple(np.moveaxis(input_x, axis, 0)), grad_check=False)
def sequence_unstack(input_x, axis=0, num=None):
    """A tuple of the Tensors along ``axis`` (``ops.unstack``); ``num``, when given, must be that axis' size."""
    result = unstack(input_x, axis)
    if num is not None and num != len(result):
        raise ValueError(f"For 'sequence_unstack', 'num' must be the size of axis {axis} ({len(result)}), "
                         f"but got {num}.")
    return result


def _zero_of(value):
    if isinstance(value, (tuple, list)):
        return type(value)(_zero_of(item) for item in value)
    if isinstance(value, Tensor):
        return zeros_like(value)
    return type(value)(0)


@op(inputs="sequence", dtypes=SCALAR, primitive="SequenceZerosLike",
    samples=python_calls(((1, 2.5),), ([True, (3, 1.5)],)),
    reference=lambda sequence: type(sequence)(
        type(item)(0) if not isinstance(item, tuple) else tuple(type(part)(0) for part in item) for item in sequence),
    grad_check=False)
def sequence_zeros_like(sequence):
    """A tuple or list of zeros like ``sequence``: each number 0 of its type, each Tensor zeros of its shape."""
    return _zero_of(_of_kind("sequence_zeros_like", "sequence", sequence))


def _to_tensor(op_name, kind):
    def to_tensor(x, dtype):
        return Tensor(list(_of_kind(op_name, "x", x, (kind,))), dtype=dtype)

    to_tensor.__name__ = to_tensor.__qualname__ = op_name
    to_tensor.__doc__ = f"A 1-d Tensor of ``dtype`` from a {kind.__name__} of numbers."
    return op(inputs=("x", "dtype"), dtypes=SCALAR, primitive=f"{kind.__name__.title()}ToTensor",
              samples=python_calls((kind((1, 2)), mstype.float32), (kind((1.5, -2)), mstype.int32)),
              reference=lambda x, dtype: np.array(x).astype(mstype.dtype_to_nptype(dtype)), grad_check=False)(to_tensor)


tuple_to_tensor = _to_tensor("tuple_to_tensor", tuple)
list_to_tensor = _to_tensor("list_to_tensor", list)


def _read(op_name, x):
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{op_name}', 'x' must be a Tensor, but got {type(x).__name__}.")
    if isinstance(x._value, jax.core.Tracer):
        raise UntraceableError(f"For '{op_name}', the values of 'x' are not known inside a compiled function "
                               "(they are computed there): the function runs eagerly instead.")
    return np.asarray(x._value)


@op(inputs="x", dtypes=SCALAR, primitive="TensorToList",
    samples=python_calls((np.array([1, 2], np.int32),), (np.array([[1.5], [2.0]], np.float32),)),
    reference=lambda x: [row.tolist() if isinstance(row, np.ndarray) else row.item() for row in x], grad_check=False)
def tensor_to_list(x):
    """The values of a Tensor as (nested) Python lists."""
    return _read("tensor_to_list", x).tolist()


@op(inputs="x", dtypes=SCALAR, primitive="TensorToScalar",
    samples=python_calls((np.array(2.5, np.float32),), (np.array(3, np.int64),)),
    reference=lambda x: x.item(), grad_check=False)
def tensor_to_scalar(x):
    """The value of a 0-d Tensor as a Python number."""
    value = _read("tensor_to_scalar", x)
    if value.ndim:
        raise ValueError(f"For 'tensor_to_scalar', 'x' must be a 0-d Tensor, but got shape {value.shape}.")
    return value.item()


@op(inputs="x", dtypes=SCALAR, primitive="TensorToTuple",
    samples=python_calls((np.array([5, 7], np.int32),), (np.array([1.5], np.float32),)),
    reference=lambda x: tuple(x[position].item() for position in range(len(x))), grad_check=False)
def tensor_to_tuple(x):
    """The elements of a 1-D Tensor as a tuple of Python numbers."""
    value = _read("tensor_to_tuple", x)
    if value.ndim != 1:
        raise ValueError(f"For 'tensor_to_tuple', 'x' must be 1-D, but got shape {value.shape}.")
    return tuple(value.tolist())
