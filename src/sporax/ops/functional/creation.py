"""Ops that create tensors: ones, zeros, full, fill, eye, arange, linspace, meshgrid.

Sizes are static Python ints. Default dtypes follow MindSpore 2.10 (checked against it):
``ones``/``zeros``/``eye`` give Float32; ``arange`` gives Int64 for integer arguments and
Float32 when any is a float; ``full`` without ``dtype`` gives Int64 (MindSpore 2.10 truncates
a float ``fill_value`` then; pass ``dtype=`` for a float tensor); ``tuple_to_array`` of ints
gives Int32.

``ones``, ``zeros``, ``eye`` (no Tensor input: the ``CREATION`` dtype rule), ``ones_like`` and
``zeros_like`` are op-table entries (``sporax.ops.op_table``); ``OnesLike`` and ``ZerosLike`` are generated
from them (``Ones``/``Zeros`` are written in ``operations/array_ops.py`` over these ops). The ops whose sizes
and bounds are read on the host (``arange``, ``range``, ``linspace``, ``logspace``, ``full``, ``full_like``,
``fill``, ``tuple_to_array``, ``scalar_to_tensor``) are ``eager`` entries: their kernels run as they are, not
compiled per size; a 0-d Tensor fill value (or ``linspace`` bound) is a Tensor input, so one computed inside a
compiled function stays an input there. ``Fill``, ``Range``, ``LinSpace``, ``TupleToArray`` and
``ScalarToTensor`` are generated from them. ``meshgrid`` (``*inputs`` or one list) stays a function.

Example:
    >>> from sporax import ops
    >>> print(ops.arange(1, 5, 0.5).dtype)
    Float32
"""
import builtins
import math
import numbers

import jax.numpy as jnp
import numpy as np

from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor
from sporax.ops._dispatch import array_of, describe
from sporax.ops.functional._args import (
    _concrete, check_output_size, numpy_dtype, output_shape, static_int,
)
from sporax.ops.op_table import ANY, CREATION, FLOAT, TO_FLOAT, Sample, op, spelling
from sporax.ops.samples import shaped, values, without

_FLOAT32 = np.dtype(np.float32)
_INT64 = np.dtype(np.int64)


def _dtype_or(op_name, dtype, default):
    return default if dtype is None else numpy_dtype(op_name, "dtype", dtype)


def _created(*cases):
    """Samples of a creation op: each dict of settings as it is, then with ``dtype`` the tested dtype."""

    def make(dtype):
        requested = mstype.normalize(dtype)
        return ([Sample((), dict(settings)) for settings in cases]
                + [Sample((), dict(settings, dtype=requested)) for settings in cases[:1]])

    return make


@op(mint=spelling("ones", "size, *, dtype=None", shape="size"),
    inputs=(), dtypes=CREATION, primitive="Ones", inline=True, grad_check=False,
    samples=_created({"shape": (2, 3)}, {"shape": 4}, {"shape": ()}),
    reference=lambda shape, dtype=None: np.ones(shape))
def ones(shape, dtype=None):
    """A tensor of ``shape`` filled with ones (Float32 unless ``dtype`` is given)."""
    target = _dtype_or("ones", dtype, _FLOAT32)
    return jnp.ones(output_shape("ones", "shape", shape, target), target)


def _empty_size(op_name, arg_name, size):
    """mint.empty's sizes: ints, or one tuple/list alone (MindSpore 2.10's TypeError for anything after it)."""
    if len(size) > 1 and isinstance(size[0], (tuple, list)):
        raise TypeError(f"{op_name}() got extra positional args.")


@op(mint=(spelling("zeros", "size, *, dtype=None"),
          spelling("empty", "*size, dtype=None, device=None", unused="device", readers={"size": _empty_size},
                   size="size[0] if len(size) == 1 and isinstance(size[0], (tuple, list)) else size")),
    inputs=(), dtypes=CREATION, primitive="Zeros", inline=True, grad_check=False,
    samples=_created({"size": (2, 3)}, {"size": 4}), reference=lambda size, dtype=None: np.zeros(size))
def zeros(size, dtype=None):
    """A tensor of ``size`` filled with zeros (Float32 unless ``dtype`` is given)."""
    target = _dtype_or("zeros", dtype, _FLOAT32)
    return jnp.zeros(output_shape("zeros", "size", size, target), target)


@op(dtypes=ANY, primitive="OnesLike", mint="ones_like", inline=True, grad_check=False,
    samples=shaped(((2, 3), {}), ((), {}), ((4,), {"dtype": mstype.int32})), reference=lambda input, dtype=None: np.ones_like(input))
def ones_like(input, *, dtype=None):
    """Ones with the shape (and, unless ``dtype`` is given, the dtype) of ``input``."""
    return jnp.ones(input.shape, _dtype_or("ones_like", dtype, input.dtype))


@op(mint=("zeros_like", spelling("empty_like", "input, *, dtype=None, device=None", unused="device")),
    dtypes=ANY, primitive="ZerosLike", inline=True, grad_check=False,
    samples=shaped(((2, 3), {}), ((4,), {"dtype": mstype.float16})), reference=lambda input, dtype=None: np.zeros_like(input))
def zeros_like(input, *, dtype=None):
    """Zeros with the shape (and, unless ``dtype`` is given, the dtype) of ``input``."""
    return jnp.zeros(input.shape, _dtype_or("zeros_like", dtype, input.dtype))


def _fill_value(op_name, value):
    if isinstance(value, Tensor):
        value = value._value
    if hasattr(value, "ndim"):  # an array: a Tensor argument, or the array an entry's reader gave
        array = value
        if array.ndim:
            raise ValueError(f"For '{op_name}', the fill value must be a number or a 0-d Tensor, "
                             f"but got {describe(value)}.")
        return array
    if not isinstance(value, numbers.Number):
        raise TypeError(f"For '{op_name}', the fill value must be a number or a 0-d Tensor, but got "
                        f"{describe(value)}.")
    return value


def _filled(shape, value, target):
    """``jnp.full``; a value beyond ``target``'s range becomes +-inf with no NumPy overflow warning, as in MindSpore."""
    with np.errstate(over="ignore"):
        return jnp.full(shape, value, target)


def _numpy_full(fill_value, size, dtype=None):
    return np.full(size, fill_value, np.int64 if dtype is None else mstype.dtype_to_nptype(dtype))


def _fill_samples(dtype):
    fill = values((), dtype, seed=3)
    return [Sample((fill,), {"size": (2, 3)}), Sample((2.5,), {"size": 4, "dtype": mstype.float32}),
            Sample((fill,), {"size": (), "dtype": mstype.normalize(dtype)})]


# The fill ops are ``eager`` entries: their sizes change from call to call (no compile per size), and a fill
# value computed inside a compiled function is a Tensor input (a ``scalars`` input), not a setting.
@op(inputs="fill_value", scalars="fill_value", dtypes=ANY, eager=True, grad_check=False,
    samples=_fill_samples, reference=_numpy_full)
def full(size, fill_value, *, dtype=None):
    """A tensor of ``size`` filled with ``fill_value`` (Int64 unless ``dtype`` is given)."""
    value = _fill_value("full", fill_value)
    target = _dtype_or("full", dtype, _INT64)
    if target.kind in "iu" and isinstance(value, float):
        value = int(value)  # MindSpore truncates toward zero; JAX would reject the cast of a float
    return _filled(output_shape("full", "size", size, target), value, target)


def _numpy_full_like(input, fill_value, dtype=None):
    return np.full(np.shape(input), fill_value,
                   np.asarray(input).dtype if dtype is None else mstype.dtype_to_nptype(dtype))


@op(inputs=("input", "fill_value"), scalars="fill_value", dtypes=ANY, mint="full_like", eager=True,
    grad_check=False, reference=_numpy_full_like,
    samples=lambda dtype: [Sample((values((2, 3), dtype), 1.5)),
                           Sample((values((4,), dtype, seed=1), values((), dtype, seed=2)), {"dtype": mstype.float32})])
def full_like(input, fill_value, *, dtype=None):
    """A tensor shaped like ``input`` filled with ``fill_value`` (``input``'s dtype by default)."""
    value = _fill_value("full_like", fill_value)
    return _filled(input.shape, value, _dtype_or("full_like", dtype, input.dtype))


def _numpy_fill(value, type, shape):
    return np.full(shape, value, mstype.dtype_to_nptype(type))


@op(inputs="value", scalars="value", dtypes=ANY, primitive="Fill", eager=True, grad_check=False,
    reference=_numpy_fill,
    samples=lambda dtype: [Sample((3,), {"type": mstype.int32, "shape": (2, 3)}),
                           Sample((values((), dtype),), {"type": mstype.normalize(dtype), "shape": (4,)})])
def fill(type, shape, value):
    """A tensor of ``shape`` and dtype ``type`` filled with ``value``."""
    target = numpy_dtype("fill", "type", type)
    value = _fill_value("fill", value)
    if target.kind in "iu" and isinstance(value, float):
        value = int(value)
    return _filled(output_shape("fill", "shape", shape, target), value, target)


@op(inputs=(), dtypes=CREATION, mint="eye", inline=True, grad_check=False,
    samples=_created({"n": 3}, {"n": 2, "m": 4}, {"n": 0, "m": 2}), reference=lambda n, m=None, dtype=None: np.eye(n, m))
def eye(n, m=None, dtype=None):
    """An ``n`` x ``m`` matrix with ones on the diagonal (Float32 unless ``dtype`` is given)."""
    n = static_int("eye", "n", n)
    m = n if m is None else static_int("eye", "m", m)
    if n < 0 or m < 0:
        raise ValueError(f"For 'eye', 'n' and 'm' must be non-negative, but got {n} and {m}.")
    target = _dtype_or("eye", dtype, _FLOAT32)
    check_output_size("eye", "n, m", (n, m), target)
    return jnp.eye(n, m, dtype=target)


def _host_scalar(op_name, arg_name, value):
    """A Python number from a number or a concrete 0-d Tensor, and whether it is a float."""
    if isinstance(value, (Tensor, np.ndarray, np.generic)) or hasattr(value, "dtype"):
        array = _concrete(op_name, arg_name, value)
        if array.size != 1:
            raise ValueError(f"For '{op_name}', '{arg_name}' must be a scalar, but got shape {array.shape}.")
        return array.reshape(()).item(), array.dtype.kind in "fc"
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"For '{op_name}', '{arg_name}' must be an int, a float or a 0-d Tensor, but "
                        f"got {describe(value)}.")
    return value, isinstance(value, float)


def _range_values(op_name, start, end, step):
    if step == 0:
        raise ValueError(f"For '{op_name}', 'step' must not be 0.")
    if (end - start) * step < 0:
        raise ValueError(f"For '{op_name}', 'step' {step} cannot reach 'end' {end} from 'start' "
                         f"{start}: its sign must match end - start.")
    return max(int(math.ceil((end - start) / step)), 0)


def _numpy_arange(start=0, end=None, step=1, dtype=None):
    if end is None:
        start, end = 0, start
    floats = any(isinstance(value, float) for value in (start, end, step))
    result = np.arange(start, end, step, dtype=np.float64 if floats else np.int64)
    return result if dtype is None else result.astype(mstype.dtype_to_nptype(dtype))


# Bounds and sizes are read on the host (a Tensor bound must be concrete): ``eager`` entries, no compile per range.
@op(inputs=(), dtypes=ANY, mint="arange", eager=True, grad_check=False, reference=_numpy_arange,
    samples=lambda dtype: [Sample((), {"start": 1, "end": 8, "step": 2}), Sample((), {"start": 5}),
                           Sample((), {"start": 0.5, "end": 2.0, "step": 0.25}),
                           Sample((), {"start": 3, "end": -1, "step": -1.5, "dtype": mstype.normalize(dtype)})])
def arange(start=0, end=None, step=1, *, dtype=None):
    """Numbers from ``start`` up to (not including) ``end`` by ``step``."""
    if end is None:
        start, end = 0, start
    values = [_host_scalar("arange", name, v) for name, v in
              (("start", start), ("end", end), ("step", step))]
    (start, _), (end, _), (step, _) = values
    any_float = any(is_float for _, is_float in values)
    count = _range_values("arange", start, end, step)
    target = _dtype_or("arange", dtype, _FLOAT32 if any_float else _INT64)
    check_output_size("arange", "end", (count,), target)
    if target.kind in "iu" and not any_float:
        return jnp.arange(start, start + count * step, step, dtype=target)[:count]
    # Float ranges: start + i * step, computed in float64 on the host side of the trace.
    return jnp.asarray(start + np.arange(count, dtype=np.float64) * step).astype(target)


def _numpy_range(start, end, step, maxlen=1000000):
    floats = any(isinstance(value, float) for value in (start, end, step))
    return np.arange(start, end, step, dtype=np.float32 if floats else np.int64)


@op(inputs=(), dtypes=ANY, primitive="Range", primitive_attrs=("maxlen",), eager=True, grad_check=False,
    reference=_numpy_range,
    samples=lambda dtype: [Sample((), {"start": 0, "end": 10, "step": 4}),
                           Sample((), {"start": 1.0, "end": -1.0, "step": -0.5, "maxlen": 10})])
def range(start, end, step, maxlen=1000000):
    """Numbers from ``start`` up to ``end`` by ``step`` (at most ``maxlen`` of them)."""
    values = [_host_scalar("range", name, v) for name, v in
              (("start", start), ("end", end), ("step", step))]
    (start, _), (end, _), (step, _) = values
    any_float = any(is_float for _, is_float in values)
    if any_float and not all(is_float for _, is_float in values):
        # MindSpore 2.10 reads each bound as a Float32 or Int64 scalar and takes no mixture (arange does)
        kinds = ", ".join("Float32" if is_float else "Int64" for _, is_float in values)
        raise TypeError(f"For 'range', the dtypes of inputs must be the same, but got ({kinds}). Pass start, end "
                        f"and step all as ints or all as floats.")
    count = _range_values("range", start, end, step)
    if count > maxlen:
        raise ValueError(f"For 'range', the output would have {count} elements, more than 'maxlen' "
                         f"{maxlen}.")
    target = _FLOAT32 if any_float else _INT64
    return jnp.asarray(start + np.arange(count, dtype=np.float64 if any_float else np.int64) * step).astype(target)


def _linspace_samples(dtype):
    return [Sample((values((), dtype, seed=1), values((), dtype, 4.0, 8.0, seed=2)), {"steps": 5}),
            Sample((-1.0, 1.0), {"steps": 4}), Sample((2.0, values((), dtype, seed=3)), {"steps": 1})]


def _check_linspace(start, end, steps):
    # MindSpore 2.10's LinSpace: ``start`` and ``end`` of one dtype (a Python number is Float32), Float32 or Float64
    dtypes = [str(mstype.from_numpy_dtype(bound.dtype)) if hasattr(bound, "dtype") else "Float32" for bound in (start, end)]
    if dtypes[0] != dtypes[1]:
        raise TypeError(f"For primitive[LinSpace], the input type must be same.\nFor 'linspace', 'start' and 'end' "
                        f"must have one dtype (a Python number is Float32), but got {dtypes[0]} and {dtypes[1]}.")
    if dtypes[0] not in ("Float32", "Float64"):
        raise TypeError(f"For primitive[LinSpace], the input argument[start type] must be a type of {{Tensor[Float32], "
                        f"Tensor[Float64]}}, but got Tensor[{dtypes[0]}].\nFor 'linspace', 'start' and 'end' must be "
                        f"Float32 or Float64 Tensors or Python numbers.")


# ``start``/``end`` may be Tensors (their dtype, Float32 or Float64, is the output's; computed inside a compiled
# function they are inputs there) or Python numbers (Float32): two ``scalars`` inputs, run as they are.
@op(inputs=("start", "end"), scalars=("start", "end"), dtypes=FLOAT, primitive="LinSpace", eager=True,
    input_dtypes={"start": ANY, "end": ANY}, value_check=_check_linspace,
    grad_check=False, samples=without(("float16", "bfloat16"), _linspace_samples),
    reference=lambda start, end, steps: np.linspace(start, end, steps))
def linspace(start, end, steps):
    """``steps`` evenly spaced Float32 numbers from ``start`` to ``end`` inclusive."""
    target = next((bound.dtype for bound in (start, end) if hasattr(bound, "dtype")), _FLOAT32)
    return _evenly_spaced("linspace", start, end, steps, target)


def _evenly_spaced(op_name, low, high, steps, target):
    """``steps`` numbers from ``low`` to ``high`` inclusive, computed in Float64 and cast to ``target``."""
    steps = static_int(op_name, "steps", steps)
    if steps < 1:
        raise ValueError(f"For '{op_name}', 'steps' must be positive, but got {steps}.")
    if steps == 1:
        return jnp.reshape(jnp.asarray(low).astype(target), (1,))
    fraction = jnp.arange(steps, dtype=np.float64) / (steps - 1)
    low64, high64 = jnp.asarray(low, np.float64), jnp.asarray(high, np.float64)
    result = low64 + (high64 - low64) * fraction
    return result.at[-1].set(high64).astype(target)


def _numpy_linspace_ext(start, end, steps, dtype=None):
    return np.linspace(start, end, steps).astype(np.float32 if dtype is None else mstype.dtype_to_nptype(dtype))


# Python numbers alone: the result's dtype is ``dtype`` (Float32 when None), whatever the bounds'.
@op(mint=spelling("linspace", "start, end, steps, *, dtype=None"),
    inputs=("start", "end"), scalars=("start", "end"), dtypes=TO_FLOAT, primitive="LinSpaceExt", eager=True,
    grad_check=False, reference=_numpy_linspace_ext,
    samples=lambda dtype: [Sample((0, 1), {"steps": 5}), Sample((-2.5, 4.0), {"steps": 4, "dtype": mstype.float16}),
                           Sample((-3, 10), {"steps": 6, "dtype": mstype.int32})] if dtype == "float32" else [])
def linspace_ext(start, end, steps, dtype=None):
    """``steps`` evenly spaced numbers from ``start`` to ``end`` inclusive, in ``dtype`` (Float32 when None;
    an integer ``dtype`` truncates), as ``mint.linspace``."""
    target = _FLOAT32 if dtype is None else numpy_dtype("linspace", "dtype", dtype)
    return _evenly_spaced("linspace", start, end, steps, target)


def _numpy_tuple_to_array(input_x):
    return np.array(input_x, np.float32 if any(isinstance(value, float) for value in input_x) else np.int32)


@op(inputs=(), dtypes=ANY, primitive="TupleToArray", eager=True, grad_check=False, reference=_numpy_tuple_to_array,
    samples=lambda dtype: [Sample((), {"input_x": (1, 2, 3)}), Sample((), {"input_x": (1.5, -2, 0.25)})])
def tuple_to_array(input_x):
    """A 1-d tensor of the numbers in ``input_x`` (ints give Int32, floats Float32); a ``range`` is taken as
    its tuple, as MindSpore does (mindyolo's YOLOv4 head builds its grid from ``range(grid_size)``)."""
    if isinstance(input_x, builtins.range):  # this module's `range` is the op
        input_x = tuple(input_x)
    if not isinstance(input_x, (tuple, list)) or not input_x:
        raise TypeError(f"For 'tuple_to_array', 'input_x' must be a non-empty tuple of numbers, but "
                        f"got {describe(input_x)}.")
    if not all(isinstance(v, numbers.Real) for v in input_x):
        raise TypeError(f"For 'tuple_to_array', every element of 'input_x' must be a number, but got "
                        f"{input_x!r}.")
    is_float = any(isinstance(v, float) for v in input_x)
    return jnp.asarray(np.asarray(input_x, np.float32 if is_float else np.int32))


@op(inputs=(), dtypes=CREATION, primitive="ScalarToTensor", eager=True, grad_check=False,
    reference=lambda input_x, dtype=mstype.float32: np.asarray(input_x),
    samples=lambda dtype: [Sample((), {"input_x": 2.5}), Sample((), {"input_x": -3, "dtype": mstype.normalize(dtype)})])
def scalar_to_tensor(input_x, dtype=mstype.float32):
    """A 0-d tensor holding the number ``input_x`` as ``dtype``."""
    value = _fill_value("scalar_to_tensor", input_x)
    return jnp.asarray(value, numpy_dtype("scalar_to_tensor", "dtype", dtype))


def _grid_axes(op_name, arg_name, value):
    """The reader of ``meshgrid``'s ``*inputs`` (given as one tuple): the 1-d arrays, from the Tensors or
    from one tuple or list of them; a 0-d Tensor is one point (MindSpore 2.10 gives it a length-1 axis)."""
    if len(value) == 1 and isinstance(value[0], (tuple, list)):
        value = tuple(value[0])
    arrays = tuple(array_of(op_name, f"{arg_name}[{index}]", item) for index, item in enumerate(value))
    arrays = tuple(array.reshape(1) if array.ndim == 0 else array for array in arrays)  # 0-d: one point, as MindSpore
    if any(array.ndim != 1 for array in arrays):
        raise ValueError(f"For '{op_name}', every input must be 1-d (or 0-d), but got shapes "
                         f"{[a.shape for a in arrays]}.")
    return arrays


@op(mint=spelling("meshgrid", "*tensors, indexing=None",
                  inputs="tensors[0] if len(tensors) == 1 and isinstance(tensors[0], (tuple, list)) else tensors",
                  indexing="indexing or 'ij'"),
    inputs="inputs", dtypes=ANY, input_dtypes={"inputs": _grid_axes}, grad_check=False,
    reference=lambda *inputs, indexing="xy": tuple(np.meshgrid(*inputs, indexing=indexing)),
    samples=lambda dtype: [Sample((values((3,), dtype), values((2,), dtype, seed=1))),
                           Sample((values((2,), dtype), values((4,), dtype, seed=1)), {"indexing": "ij"})])
def meshgrid(*inputs, indexing="xy"):
    """Coordinate grids from 1-d tensors (``indexing`` 'xy': Cartesian, 'ij': matrix).

    Example:
        >>> from sporax import Tensor, ops
        >>> [grid.shape for grid in ops.meshgrid(Tensor([1, 2, 3]), Tensor([4, 5]))]
        [(2, 3), (2, 3)]
    """
    if indexing not in ("xy", "ij"):
        raise ValueError(f"For 'meshgrid', 'indexing' must be 'xy' or 'ij', but got {indexing!r}.")
    if len(inputs) == 1 and isinstance(inputs[0], tuple):  # the face's one tuple of the read arrays
        inputs = inputs[0]
    return tuple(jnp.meshgrid(*inputs, indexing=indexing))


def _numpy_logspace(start, end, steps, base=10, dtype=None):
    return np.logspace(start, end, steps, base=base)


@op(inputs=(), dtypes=CREATION, eager=True, grad_check=False, reference=_numpy_logspace,
    samples=lambda dtype: [Sample((), {"start": 0, "end": 2, "steps": 3}),
                           Sample((), {"start": -1.0, "end": 1.0, "steps": 5, "base": 2, "dtype": mstype.normalize(dtype)})])
def logspace(start, end, steps, base=10, *, dtype=mstype.float32):
    """``steps`` numbers ``base ** t`` for t evenly spaced from ``start`` to ``end`` (Float32)."""
    steps = static_int("logspace", "steps", steps)
    if steps < 0:
        raise ValueError(f"For 'logspace', 'steps' must be non-negative, but got {steps}.")
    start, _ = _host_scalar("logspace", "start", start)
    end, _ = _host_scalar("logspace", "end", end)
    exponents = np.linspace(float(start), float(end), steps)
    target = _dtype_or("logspace", dtype, _FLOAT32)
    return jnp.asarray(np.power(float(base), exponents)).astype(target)
