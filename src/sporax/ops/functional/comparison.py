"""Comparison, logical and bitwise ops, value tests and clamping (``ops.eq``, ``ops.logical_and``, ``ops.clamp`` ...).

Comparisons promote their operands as arithmetic does and return Bool tensors; logical ops read
any dtype as truth values; bitwise ops take Bool and integer operands. Each two-operand op is one
op-table entry (``sporax.ops.op_table``, rule ``BINARY``), its Primitive and Tensor method
generated from it (``isclose``'s tolerances are the settings of its Primitive ``IsClose``).

Example:
    >>> from sporax import Tensor, ops
    >>> ops.gt(Tensor([1, 5]), 2)
    Tensor(shape=[2], dtype=Bool, value= [False,  True])
"""
import functools

import jax
import jax.numpy as jnp
import numpy as np

from sporax.ops._dispatch import (array_of, binary_error, binary_operands, promote_types, scalar_result_dtype,
                                  wrap)
from sporax.ops.op_table import BINARY, op
from sporax.ops.samples import binary, with_settings

_BOOL = np.dtype(np.bool_)
_TIES = binary(ties=True)  # comparisons meet equal values too


def _compare_eagerly(op_name, function, input, other):
    """A comparison with settings (a per-call ``function``) on promoted operands."""
    a, b = binary_operands(op_name, input, other)
    try:
        return wrap(function(a, b))
    except (TypeError, ValueError, OverflowError) as error:
        raise binary_error(op_name, error, a, b) from None


def _as_bool(value):
    value = jnp.asarray(value)
    return value if value.dtype == _BOOL else value != 0


def _comparison(reference, primitive=None):
    """Declare a comparison: promoted operands, a Bool result; its Tensor-method and ``mint`` names are its own."""

    def declare(kernel):
        return op(inputs=("input", "other"), dtypes=BINARY, primitive=primitive, method=kernel.__name__,
                  mint=kernel.__name__, samples=_TIES, reference=reference, grad_check=False)(kernel)

    return declare


# --- comparisons (MindSpore's short names ``eq``, ``gt`` ... are functions of their own) ---------
@_comparison(np.equal, "Equal")
def equal(input, other):
    """Return ``input == other`` element-wise, as a Bool tensor."""
    return jnp.equal(input, other)


@_comparison(np.equal)
def eq(input, other):
    """Return ``input == other`` element-wise, as a Bool tensor."""
    return jnp.equal(input, other)


@_comparison(np.not_equal, "NotEqual")
def not_equal(input, other):
    """Return ``input != other`` element-wise, as a Bool tensor."""
    return jnp.not_equal(input, other)


@_comparison(np.not_equal)
def ne(input, other):
    """Return ``input != other`` element-wise, as a Bool tensor."""
    return jnp.not_equal(input, other)


@_comparison(np.greater, "Greater")
def greater(input, other):
    """Return ``input > other`` element-wise, as a Bool tensor."""
    return jnp.greater(input, other)


@_comparison(np.greater)
def gt(input, other):
    """Return ``input > other`` element-wise, as a Bool tensor."""
    return jnp.greater(input, other)


@_comparison(np.greater_equal, "GreaterEqual")
def greater_equal(input, other):
    """Return ``input >= other`` element-wise, as a Bool tensor."""
    return jnp.greater_equal(input, other)


@_comparison(np.greater_equal)
def ge(input, other):
    """Return ``input >= other`` element-wise, as a Bool tensor."""
    return jnp.greater_equal(input, other)


@_comparison(np.less, "Less")
def less(input, other):
    """Return ``input < other`` element-wise, as a Bool tensor."""
    return jnp.less(input, other)


@_comparison(np.less)
def lt(input, other):
    """Return ``input < other`` element-wise, as a Bool tensor."""
    return jnp.less(input, other)


@_comparison(np.less_equal, "LessEqual")
def less_equal(input, other):
    """Return ``input <= other`` element-wise, as a Bool tensor."""
    return jnp.less_equal(input, other)


@_comparison(np.less_equal)
def le(input, other):
    """Return ``input <= other`` element-wise, as a Bool tensor."""
    return jnp.less_equal(input, other)


@op(inputs=("input", "other"), dtypes=BINARY, primitive="IsClose", primitive_attrs=("rtol", "atol", "equal_nan"),
    method="isclose", mint="isclose", samples=with_settings(_TIES, {"rtol": 0.1, "equal_nan": True}),
    reference=np.isclose, grad_check=False)
def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Return where ``|input - other| <= atol + rtol * |other|``, as a Bool tensor."""
    return jnp.isclose(input, other, rtol=rtol, atol=atol, equal_nan=equal_nan)


def approximate_equal(x, y, tolerance=1e-05):
    """Return where ``|x - y| < tolerance``, as a Bool tensor (same shapes, rank below 8, float tolerance)."""
    if not isinstance(tolerance, float):
        raise TypeError("For 'ApproximateEqual', the type of 'tolerance' should be 'float', but got type "
                        f"'{type(tolerance).__name__}'.")
    x_shape, y_shape = tuple(getattr(x, "shape", ())), tuple(getattr(y, "shape", ()))
    if x_shape != y_shape:
        raise RuntimeError(f"For 'ApproximateEqual', arg 'x1' must have the same shape as 'x2'. But got 'x1' shape: "
                           f"{x_shape}, 'x2' shape: {y_shape}.")
    if len(x_shape) >= 8:
        raise RuntimeError(f"For 'ApproximateEqual', the x's rank should be less than 8, but got: {len(x_shape)}")
    return _compare_eagerly("approximate_equal", lambda a, b: jnp.abs(a - b) < tolerance, x, y)


# --- logical ----------------------------------------------------------------------------------
_TRUTH = binary(-1.0, 1.0, integral=True)  # zeros among the operands


def _logical(reference, primitive):
    def declare(kernel):
        return op(inputs=("input", "other"), dtypes=BINARY, primitive=primitive, method=kernel.__name__,
                  mint=kernel.__name__, samples=_TRUTH, reference=reference, grad_check=False)(kernel)

    return declare


@_logical(np.logical_and, "LogicalAnd")
def logical_and(input, other):
    """Return the element-wise logical AND of the truth values of ``input`` and ``other``."""
    return jnp.logical_and(_as_bool(input), _as_bool(other))


@_logical(np.logical_or, "LogicalOr")
def logical_or(input, other):
    """Return the element-wise logical OR of the truth values of ``input`` and ``other``."""
    return jnp.logical_or(_as_bool(input), _as_bool(other))


@_logical(np.logical_xor, "LogicalXor")
def logical_xor(input, other):
    """Return the element-wise logical XOR of the truth values of ``input`` and ``other``."""
    return jnp.logical_xor(_as_bool(input), _as_bool(other))


def logical_not(input):
    """Return the element-wise logical NOT of the truth values of ``input``."""
    array = array_of("logical_not", "input", input)
    return wrap(jnp.logical_not(array) if array.dtype == _BOOL else array == 0)


# --- bitwise (Bool and integer tensors) -------------------------------------------------------
def _bitwise(reference, primitive=None):
    def declare(kernel):
        return op(inputs=("input", "other"), dtypes=BINARY, primitive=primitive, method=kernel.__name__,
                  mint=kernel.__name__, samples=binary(-8.0, 8.0, other=(0.0, 4.0), scalar=2, integer=True),
                  reference=reference, grad_check=False)(kernel)

    return declare


def _integral_operands(op_name, a, b):
    """Refuse promoted operands that are not Bool or integer (MindSpore has no float bitwise kernels)."""
    for value in (a, b):
        if jnp.asarray(value).dtype.kind not in "biu":
            raise TypeError(f"For '{op_name}', the inputs must be Bool or integer tensors, but got "
                            f"{jnp.asarray(value).dtype}; cast them first, e.g. x.astype(mindspore.int32).")


@_bitwise(np.bitwise_and, "BitwiseAnd")
def bitwise_and(input, other):
    """Return the element-wise bitwise AND."""
    _integral_operands("bitwise_and", input, other)
    return jnp.bitwise_and(input, other)


@_bitwise(np.bitwise_or, "BitwiseOr")
def bitwise_or(input, other):
    """Return the element-wise bitwise OR."""
    _integral_operands("bitwise_or", input, other)
    return jnp.bitwise_or(input, other)


@_bitwise(np.bitwise_xor, "BitwiseXor")
def bitwise_xor(input, other):
    """Return the element-wise bitwise XOR."""
    _integral_operands("bitwise_xor", input, other)
    return jnp.bitwise_xor(input, other)


@_bitwise(np.left_shift)
def bitwise_left_shift(input, other):
    """Return ``input << other``, element-wise."""
    _integral_operands("bitwise_left_shift", input, other)
    return jnp.left_shift(input, other)


@_bitwise(np.right_shift)
def bitwise_right_shift(input, other):
    """Return ``input >> other``, element-wise."""
    _integral_operands("bitwise_right_shift", input, other)
    return jnp.right_shift(input, other)


def invert(x):
    """Return the element-wise bitwise NOT of an integer (or Bool) tensor."""
    array = array_of("invert", "x", x)
    if array.dtype.kind not in "biu":
        raise TypeError(f"For 'invert', the argument 'x' must be a Bool or integer tensor, "
                        f"but got {array.dtype}.")
    return wrap(jnp.invert(array))


# --- value tests ------------------------------------------------------------------------------
def isnan(input):
    """Return where ``input`` is NaN, as a Bool tensor."""
    return wrap(jnp.isnan(array_of("isnan", "input", input)))


def isinf(input):
    """Return where ``input`` is positive or negative infinity."""
    return wrap(jnp.isinf(array_of("isinf", "input", input)))


def isposinf(input):
    """Return where ``input`` is positive infinity."""
    return wrap(jnp.isposinf(array_of("isposinf", "input", input)))


def isneginf(input):
    """Return where ``input`` is negative infinity."""
    return wrap(jnp.isneginf(array_of("isneginf", "input", input)))


def isfinite(input):
    """Return where ``input`` is finite (not NaN, not infinite)."""
    return wrap(jnp.isfinite(array_of("isfinite", "input", input)))


def signbit(input):
    """Return where the sign bit of ``input`` is set (negative numbers and -0.0)."""
    return wrap(jnp.signbit(array_of("signbit", "input", input)))


# --- clamping ---------------------------------------------------------------------------------
def _bound_dtype(dtype, bound):
    if bound is None:
        return dtype
    bound_dtype = getattr(bound, "dtype", None)
    if bound_dtype is None:
        return scalar_result_dtype(dtype, bound)
    bound_array = array_of("clamp", "min/max", bound)
    return promote_types(dtype, bound_array.dtype)


def _bound(op_name, arg_name, bound):
    if bound is None or not hasattr(bound, "dtype"):
        return bound
    return array_of(op_name, arg_name, bound)


@functools.partial(jax.jit, static_argnames=("dtype",))
def _clamp_kernel(array, low, high, dtype):
    # Bounds are cast to the result dtype: clip_by_value(int_tensor, 0.5) clips in the int dtype.
    # Lower bound first, then upper, so a lower bound above the upper one gives the upper bound;
    # `where` (not maximum/minimum) passes the whole gradient to the input on a bound, as
    # MindSpore does.
    array = array.astype(dtype)
    if low is not None:
        low = jnp.asarray(low).astype(dtype)
        array = jnp.where(array < low, low, array)
    if high is not None:
        high = jnp.asarray(high).astype(dtype)
        array = jnp.where(array > high, high, array)
    return array


def _clamp(op_name, input, low, high, low_name, high_name, keep_dtype=False):
    array = array_of(op_name, "x" if keep_dtype else "input", input)
    if low is None and high is None:
        raise ValueError(f"For '{op_name}', at least one of '{low_name}' and '{high_name}' must "
                         "be given (not None).")
    dtype = array.dtype if keep_dtype else _bound_dtype(_bound_dtype(array.dtype, low), high)
    low = _bound(op_name, low_name, low)
    high = _bound(op_name, high_name, high)
    try:
        return wrap(_clamp_kernel(array, low, high, dtype))
    except (TypeError, ValueError, OverflowError) as error:
        raise binary_error(op_name, error, array, low if high is None else high) from None


def clamp(input, min=None, max=None):
    """Clamp every element of ``input`` into ``[min, max]`` (either bound may be None)."""
    return _clamp("clamp", input, min, max, "min", "max")


def clip(input, min=None, max=None):
    """Alias of ``clamp``."""
    return _clamp("clip", input, min, max, "min", "max")


def clip_by_value(x, clip_value_min=None, clip_value_max=None):
    """Clamp ``x`` (a Tensor, or a list/tuple of Tensors) into ``[clip_value_min, clip_value_max]``.

    Unlike ``clamp``, the result keeps the dtype of ``x``.
    """
    if isinstance(x, (list, tuple)):
        return type(x)(_clamp("clip_by_value", item, clip_value_min, clip_value_max,
                              "clip_value_min", "clip_value_max", True) for item in x)
    return _clamp("clip_by_value", x, clip_value_min, clip_value_max,
                  "clip_value_min", "clip_value_max", True)
