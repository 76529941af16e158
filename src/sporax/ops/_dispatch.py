"""Shared helpers of the functional ops: read operands, promote dtypes as MindSpore does, wrap results.

Every op is an eager hot path, so these helpers do one ``isinstance`` check per operand and
answer dtype questions from small dictionaries filled on first use.

Functions:
    ``array_of(op, arg, value)``: the jax array behind a Tensor argument (a jax array or tracer
        passes through; NumPy arrays are converted); anything else raises a TypeError naming
        the op and the argument.
    ``float_array_of(op, arg, value)``: like ``array_of`` but integer and bool inputs become
        Float32 (MindSpore's ``exp``/``sqrt``/``mean`` ... of an Int tensor are Float32).
    ``numeric_array_of(op, arg, value)``: like ``array_of`` but a Bool tensor raises a TypeError
        (``neg``, ``square``, ``sum`` ... are not defined on Bool in MindSpore).
    ``binary_arrays(op, input, other, ...)``: the same operands uncast, plus the target dtype:
        ``(a, b, dtype)``; for ops that cast inside one compiled kernel.
    ``binary_call(op, function, input, other, floating=False, zero_dim_follows=False)``: ``function(a, b)``
        on the promoted operands, wrapped; casts run inside one compiled kernel (``function`` must be
        a module-level function: it is a static argument of that kernel). ``floating`` makes
        Int/Bool results Float32 (true division); ``zero_dim_follows`` casts the result to the dtype of
        the operand of higher rank beside a 0-d Tensor of its kind (``zero_dim_result``).
        Failures raise ``binary_error``.
    ``zero_dim_result(a, b)``: that dtype (MindSpore 2.10's Mul and Div), or None.
    ``promoted_arrays(op, names, values)``: operands of an op of any number of Tensor-or-number
        inputs, uncast, and their common dtype: ``(operands, dtype)``.
    ``binary_operands(op, input, other, input_name="input", other_name="other")``: two operands
        (Tensors and/or Python numbers) promoted to MindSpore's common dtype; returns
        ``(a, b)``, where ``b`` (or ``a``) may stay a Python scalar that JAX treats as weakly
        typed, so it never widens the result (``int32 + 2.5`` -> Float32, ``float16 + 2.0`` ->
        Float16).
    ``promote_types(left, right)``: MindSpore's Tensor-Tensor promotion on NumPy dtypes
        (a higher kind wins whatever its width: ``int64 + float16`` -> float16).
    ``scalar_result_dtype(dtype, scalar)``: the NumPy dtype of ``Tensor(dtype) op scalar``.
    ``wrap(array)``: a Tensor around a jax array, no copy, no checks.
    ``shape_error(op, error, *arrays)``: a ValueError that explains a broadcasting failure.
    ``binary_error(op, error, a, b)``: the teaching error for a failed binary jnp call: a
        ValueError when the shapes do not broadcast, else a TypeError naming the dtypes.
    ``describe(value)``: a short description of a value for error messages.
    ``failed_calling(op, arg, value)``: MindSpore's first line for a non-Tensor given for a Tensor argument.
"""
import functools
import numbers

import jax
import jax.numpy as jnp
import numpy as np

from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor

wrap = Tensor._wrap

_FLOAT32 = np.dtype(np.float32)
_INT64 = np.dtype(np.int64)
_ARRAY_TYPES = (jax.Array, jax.core.Tracer)
_PLAIN_NUMBERS = frozenset((bool, int, float))


def describe(value):
    """A short description of ``value`` for error messages: ``Tensor[Float32] of shape (2, 3)``."""
    if isinstance(value, Tensor):
        return f"Tensor[{value.dtype}] of shape {value.shape}"
    if isinstance(value, _ARRAY_TYPES + (np.ndarray,)):
        return f"array of dtype {value.dtype} and shape {tuple(value.shape)}"
    return f"{type(value).__name__} {value!r}"


def array_of(op_name, arg_name, value):
    """The jax array behind Tensor argument ``arg_name`` of ``op_name``."""
    if isinstance(value, Tensor):
        return value._value
    if isinstance(value, _ARRAY_TYPES):
        return value
    if isinstance(value, np.ndarray) and value.dtype.kind in "biufc":
        return jnp.asarray(value)
    raise TypeError(f"{failed_calling(op_name, arg_name, value)}For '{op_name}', the argument '{arg_name}' must be a "
                    f"Tensor, but got {describe(value)}.")


_GRAPH_SCALARS = {str: "String", bool: "Bool", int: "Int64", float: "Float32", type(None): "None"}


def _graph_type(value):
    """MindSpore's graph name of a Python value's type: ``String``, ``List[Int64*2]``, ``Tuple[Int64, String]``."""
    if isinstance(value, (list, tuple)):
        kinds = [_graph_type(item) for item in value]
        inside = f"{kinds[0]}*{len(kinds)}" if kinds and len(set(kinds)) == 1 else ", ".join(kinds)
        return f"{'List' if isinstance(value, list) else 'Tuple'}[{inside}]"
    return _GRAPH_SCALARS.get(type(value), type(value).__name__)


def failed_calling(op_name, arg_name, value):
    """MindSpore 2.10's first line (and a line break) for an op's Tensor argument given a non-Tensor value,
    ``Failed calling Add with "other=String".``; '' where the op has no Primitive in the op table."""
    from sporax.ops.op_table import TABLE

    primitive = getattr(TABLE.get(op_name), "primitive", None)
    if not primitive:
        return ""
    return f'Failed calling {primitive} with "{arg_name}={_graph_type(value)}".\n'


def float_array_of(op_name, arg_name, value):
    """Like ``array_of``, with Bool and Int inputs converted to Float32."""
    array = array_of(op_name, arg_name, value)
    if array.dtype.kind in "biu":
        return array.astype(_FLOAT32)
    return array


def inexact_array_of(op_name, arg_name, value):
    """Like ``array_of``, refusing all but float and complex tensors with a TypeError that names the op."""
    array = array_of(op_name, arg_name, value)
    if not jnp.issubdtype(array.dtype, jnp.inexact):
        raise TypeError(f"For '{op_name}', '{arg_name}' must be a float or complex Tensor, but got "
                        f"{describe(value)}; cast it first, e.g. ops.cast(x, mindspore.float32).")
    return array


def numeric_array_of(op_name, arg_name, value):
    """Like ``array_of``, refusing Bool tensors with a TypeError that names the op."""
    array = array_of(op_name, arg_name, value)
    if array.dtype.kind == "b":
        raise TypeError(f"For '{op_name}', the argument '{arg_name}' must be a number Tensor, "
                        "but got a Bool tensor; cast it first, e.g. x.astype(mindspore.int32).")
    return array


_PROMOTED = {}


def promote_types(left, right):
    """MindSpore's result dtype of a binary op on Tensors of NumPy dtypes ``left`` and ``right``."""
    key = (left, right)
    result = _PROMOTED.get(key)
    if result is None:
        # JAX's lattice is MindSpore's: the higher kind wins (int32 + float16 -> float16),
        # within a kind the wider type (uint8 + int8 -> int16, float16 + bfloat16 -> float32).
        result = np.dtype(jnp.promote_types(left, right))
        _PROMOTED[key] = result
    return result


_SCALAR_KIND = {bool: 0, int: 1, float: 2, complex: 3}
_DTYPE_KIND = {"b": 0, "u": 1, "i": 1, "f": 2, "V": 2, "c": 3}  # "V": bfloat16/float8
_SCALAR_RESULT = {}


def scalar_result_dtype(dtype, scalar):
    """NumPy dtype of ``Tensor(dtype) op scalar``: the scalar only lifts the kind."""
    key = (dtype, type(scalar))
    result = _SCALAR_RESULT.get(key)
    if result is None:
        scalar_type = _python_type(scalar)
        if _SCALAR_KIND[scalar_type] <= _DTYPE_KIND.get(dtype.kind, 2):
            result = dtype
        else:
            result = np.dtype(mstype.to_numpy_dtype(
                mstype.promote_with_scalar(mstype.from_numpy_dtype(dtype), scalar_type(0))))
        _SCALAR_RESULT[key] = result
    return result


def _python_type(scalar):
    if isinstance(scalar, (bool, np.bool_)):
        return bool
    if isinstance(scalar, numbers.Integral):
        return int
    if isinstance(scalar, numbers.Real):
        return float
    return complex


def _as_python_scalar(value):
    """NumPy scalars become Python scalars so JAX treats them as weakly typed."""
    if isinstance(value, np.generic):
        return value.item()
    return value


# MindSpore makes a Python (or NumPy) float operand a float32 scalar before it meets a 64-bit Tensor: ``x + 0.1``
# on a Float64 ``x`` adds 0.10000000149011612 (recorded on MindSpore 2.10, PyNative and GRAPH alike).
_WIDE = frozenset((np.dtype(np.float64), np.dtype(np.complex128)))


def _single(scalar):
    """A float scalar rounded to float32, as MindSpore holds it beside a 64-bit Tensor; other scalars as they are."""
    if type(scalar) is float:
        return float(np.float32(scalar))
    return scalar


def _is_scalar(value):
    return isinstance(value, numbers.Number) and not isinstance(value, np.ndarray)


def _operand(op_name, name, value):
    """The array of a binary op's operand, or None for a Python number (kept weakly typed)."""
    if isinstance(value, Tensor):
        return value._value
    if isinstance(value, _ARRAY_TYPES):
        return value
    if _is_scalar(value):
        return None
    return array_of(op_name, name, value)


def binary_arrays(op_name, input, other, input_name="input", other_name="other"):
    """Operands of a binary op and MindSpore's common dtype, not yet cast: ``(a, b, dtype)``.

    Arrays come back as they are and Python numbers as Python scalars (weakly typed for JAX), so
    a caller can do the casts inside one compiled kernel.
    """
    a = _operand(op_name, input_name, input)
    b = _operand(op_name, other_name, other)

    if a is not None and b is not None:
        return a, b, a.dtype if a.dtype == b.dtype else promote_types(a.dtype, b.dtype)
    if a is not None:
        dtype = scalar_result_dtype(a.dtype, other)
        other = _as_python_scalar(other)
        return a, _single(other) if dtype in _WIDE else other, dtype
    if b is not None:
        dtype = scalar_result_dtype(b.dtype, input)
        input = _as_python_scalar(input)
        return _single(input) if dtype in _WIDE else input, b, dtype
    # Two Python numbers: the first becomes a Tensor of MindSpore's default dtype (int -> Int64,
    # float -> Float32) and they promote as Tensor op scalar.
    first = _as_python_scalar(input)
    a = jnp.asarray(first, mstype.to_numpy_dtype(mstype.pytype_to_dtype(_python_type(first))))
    return a, _as_python_scalar(other), scalar_result_dtype(a.dtype, other)


def promoted_arrays(op_name, names, values):
    """Operands of an op of any number of Tensor-or-number inputs and MindSpore's common dtype:
    ``(operands, dtype)``. Tensors give their arrays, Python numbers stay Python scalars (to be cast
    inside the compiled kernel), None stays None. Tensors promote among themselves, then each
    Python number lifts only the kind (``int32`` beside ``0.5`` -> Float32)."""
    operands, dtype, scalars = [], None, []
    for name, value in zip(names, values):
        if value is None:
            operands.append(None)
            continue
        kind = type(value)
        if kind in _PLAIN_NUMBERS:  # the common cases first: this runs on every eager call
            scalars.append(value)
            operands.append(value)
            continue
        array = value._value if kind is Tensor else _operand(op_name, name, value)
        if array is None:
            value = _as_python_scalar(value)
            scalars.append(value)
            operands.append(value)
            continue
        dtype = array.dtype if dtype is None or dtype == array.dtype else promote_types(dtype, array.dtype)
        operands.append(array)
    if dtype is None:
        if not scalars:
            raise TypeError(f"For '{op_name}', at least one of {', '.join(map(repr, names))} must be a Tensor "
                            "or a number, but all are None.")
        # Numbers alone: the first is a Tensor of MindSpore's default dtype (int -> Int64, float -> Float32).
        dtype = np.dtype(mstype.to_numpy_dtype(mstype.pytype_to_dtype(_python_type(scalars[0]))))
    for scalar in scalars:
        dtype = scalar_result_dtype(dtype, scalar)
    if dtype in _WIDE and scalars:
        operands = [_single(operand) for operand in operands]
    return operands, dtype


def alpha_scaled(op_name, input, other, alpha):
    """``alpha * other`` for ``input + alpha * other`` (MindSpore 2.10's AddExt and SubExt: ``mint.add``/``mint.sub``,
    ``x.add``/``x.sub`` with ``alpha``): computed in the operands' common dtype lifted only to ``alpha``'s kind, so
    the sum keeps that dtype (Float16 - 0.5 * Int32 is Float16, Int32 - 2.5 * Int32 is Float32). Two Bool operands
    take ``alpha`` as a Bool (``x or (alpha and y)``).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor
        >>> alpha_scaled("sub", Tensor(np.ones(2, np.float16)), Tensor(3, np.int32), 0.5).asnumpy().dtype.name
        'float16'
    """
    if alpha == 1:
        return other
    _, b, dtype = binary_arrays(op_name, input, other)
    if dtype == np.bool_:
        return wrap(jnp.logical_and(jnp.asarray(b, dtype), bool(alpha)))
    dtype = scalar_result_dtype(dtype, alpha)
    return wrap(jnp.multiply(jnp.asarray(b, dtype), jnp.asarray(alpha, dtype)))


def binary_operands(op_name, input, other, input_name="input", other_name="other"):
    """Operands of a binary op, cast to MindSpore's common dtype: ``(a, b)``.

    One of them may stay a Python scalar, which JAX treats as weakly typed.
    """
    a, b, target = binary_arrays(op_name, input, other, input_name, other_name)
    if hasattr(a, "dtype") and a.dtype != target:
        a = a.astype(target)
    if hasattr(b, "dtype") and b.dtype != target:
        b = b.astype(target)
    return a, b


@functools.partial(jax.jit, static_argnames=("function", "dtype", "result"))
def _cast_kernel(function, a, b, dtype, result=None):
    """``function`` of ``a`` and ``b`` cast to ``dtype`` (its result cast to ``result``, unless None), as one
    compiled kernel."""
    out = function(jax.lax.convert_element_type(a, dtype), jax.lax.convert_element_type(b, dtype))
    return out if result is None else jax.lax.convert_element_type(out, result)


def zero_dim_result(a, b):
    """The result dtype MindSpore 2.10's Mul and Div give arrays ``a`` and ``b`` when one is 0-d, the other is
    not, and both are of one kind (Bool, integer, floating, complex): the other's dtype (``float16 (2,) * float32
    0-d`` is Float16, ``int32 (2,) * int64 0-d`` Int32). None otherwise: a change of kind, or two operands both
    0-d or both not, promote as usual. They still compute in the common dtype, the result cast after
    (``float16 x * float32 2.2`` is ``float16(float32(x) * 2.2)``, recorded on MindSpore 2.10)."""
    if a.dtype == b.dtype or (a.ndim == 0) == (b.ndim == 0) or \
            _DTYPE_KIND.get(a.dtype.kind, 2) != _DTYPE_KIND.get(b.dtype.kind, 2):
        return None
    return b.dtype if a.ndim == 0 else a.dtype


def binary_call(op_name, function, input, other, floating=False, zero_dim_follows=False):
    """``function`` on the promoted operands of a binary op, as a Tensor (``zero_dim_follows``: the result
    takes ``zero_dim_result``'s dtype where there is one)."""
    a, b, dtype = binary_arrays(op_name, input, other)
    result = zero_dim_result(a, b) if zero_dim_follows and hasattr(a, "ndim") and hasattr(b, "ndim") else None
    if floating and dtype.kind in "biu":
        dtype = _FLOAT32  # true division and transcendental functions of integers give Float32
        if result is not None and result.kind in "biu":
            result = None  # and so do they beside a 0-d Tensor
    try:
        if result is None and getattr(a, "dtype", dtype) == dtype and getattr(b, "dtype", dtype) == dtype:
            return wrap(function(a, b))
        return wrap(_cast_kernel(function, a, b, dtype, result))
    except (TypeError, ValueError, OverflowError) as error:
        # the kernel's own check (of a setting, of the operands' dtype) names the op or its Primitive
        if str(error).startswith((f"For '{op_name}'", "For primitive[")):
            raise
        raise binary_error(op_name, error, a, b) from None


def _broadcast_line(op_name, shapes):
    """MindSpore 2.10's graph-mode message for the first pair of ``shapes`` that does not broadcast, or None.

    Its shape-infer names the operands ``input1``/``input2`` (``input``/``other`` for ``Select``) and numbers
    the failing dimension as the operand's rank plus the dimension's place in the overlap of the two shapes
    (read from the left), e.g. ``input1.shape[1] or input2.shape[2]`` for shapes (3,) and (3, 4)."""
    from sporax.ops.op_table import TABLE

    entry = TABLE.get(op_name)
    primitive = getattr(entry, "primitive", None) or op_name
    left_name, right_name = ("input", "other") if primitive == "Select" else ("input1", "input2")
    left, right = shapes[-2:]
    overlap = min(len(left), len(right))
    for place in range(overlap):
        one, two = left[len(left) - overlap + place], right[len(right) - overlap + place]
        if one != two and one != 1 and two != 1:
            return (f"For '{primitive}', {left_name}.shape and {right_name}.shape need to broadcast. The value of "
                    f"{left_name}.shape[{len(left) + place}] or {right_name}.shape[{len(right) + place}] must be 1 "
                    f"or -1 when they are not the same, but got {left_name}.shape = {list(left)} and "
                    f"{right_name}.shape = {list(right)}")
    return None


def shape_error(op_name, error, *operands):
    """A ValueError explaining that ``operands`` of ``op_name`` cannot be broadcast together: MindSpore's
    message first (``_broadcast_line``, for the last two operands), then what to change."""
    shapes = [tuple(np.shape(o)) for o in operands]
    hint = (f"the input shapes {', '.join(map(str, shapes))} cannot be broadcast together: each dimension must "
            f"match or be 1 (compare the shapes from the right). Details: {error}")
    line = _broadcast_line(op_name, shapes)
    if line is None:
        return ValueError(f"For '{op_name}', {hint}")
    return ValueError(f"{line}.\n{hint[0].upper()}{hint[1:]}")


def binary_error(op_name, error, a, b):
    """The error to raise when ``op_name`` failed on operands ``a`` and ``b`` (arrays or scalars)."""
    try:
        np.broadcast_shapes(np.shape(a), np.shape(b))
    except ValueError:
        return shape_error(op_name, error, a, b)
    except TypeError:  # a symbolic dimension (an export's None batch): JAX's own message says what failed
        return error
    kinds = ", ".join(str(getattr(o, "dtype", type(o).__name__)) for o in (a, b))
    return TypeError(f"For '{op_name}', the inputs of types ({kinds}) are not supported. "
                     f"Details: {error}")
