"""Element-wise binary arithmetic: ``ops.add``, ``ops.sub``, ``ops.mul``, ``ops.div``, ``ops.pow`` ...

Operands are Tensors or Python numbers, promoted as MindSpore does (``_dispatch.binary_operands``:
a Python scalar lifts only the kind, so ``int32 + 2.5`` is Float32 and ``float16 + 2.0`` stays
Float16). True division of integers gives Float32.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> ops.add(Tensor(np.array([1, 2], np.int32)), 2.5).dtype
    Float32
"""
import jax
import jax.numpy as jnp
import numpy as np

from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor
from sporax.ops._dispatch import binary_call, binary_error, binary_operands, wrap
from sporax.ops.lowering import channels_last

_binary = binary_call  # binary_call(op_name, module-level function, input, other, floating)


def _is_bool(value):
    return getattr(value, "dtype", None) == np.bool_ or isinstance(value, bool)


def _bool_preserving(function):
    """``function`` on Bool operands gives Bool, as MindSpore's FloorDiv/Mod do (NumPy gives Int)."""

    def apply(a, b):
        result = function(a, b)
        return result.astype(np.bool_) if _is_bool(a) and _is_bool(b) else result

    apply.__name__ = function.__name__
    return apply


_floor_divide = _bool_preserving(jnp.floor_divide)
_remainder = _bool_preserving(jnp.remainder)
_fmod = _bool_preserving(jnp.fmod)


def _subtract(a, b):
    if _is_bool(a) and _is_bool(b):  # MindSpore's subtract counts Bool as Int64
        return jnp.subtract(jnp.asarray(a, np.int64), jnp.asarray(b, np.int64))
    return jnp.subtract(a, b)


# --- binary arithmetic ------------------------------------------------------------------------
def add(input, other):
    """Return ``input + other`` with MindSpore's type promotion."""
    if type(input) is Tensor and type(other) is Tensor:
        both = channels_last.add(input, other)  # a residual connection of a traced CNN: stays NHWC
        if both is not None:
            return both
    return _binary("add", jnp.add, input, other)


def sub(input, other):
    """Return ``input - other``."""
    return _binary("sub", jnp.subtract, input, other)


def subtract(input, other, *, alpha=1):
    """Return ``input - alpha * other``."""
    if alpha != 1:
        other = mul(other, alpha)
    return _binary("subtract", _subtract, input, other)


def mul(input, other):
    """Return ``input * other``."""
    return _binary("mul", jnp.multiply, input, other)


multiply = mul


def _divide(op_name, input, other, rounding_mode):
    if rounding_mode is None:
        return _binary(op_name, jnp.true_divide, input, other, floating=True)
    if rounding_mode == "floor":
        return _binary(op_name, _floor_divide, input, other)
    if rounding_mode == "trunc":
        return _binary(op_name, _trunc_divide, input, other)
    raise ValueError(f"For '{op_name}', rounding_mode must be None, 'floor' or 'trunc', "
                     f"but got {rounding_mode!r}.")


def _trunc_divide(a, b):
    dtype = a.dtype if hasattr(a, "dtype") else b.dtype
    if dtype.kind in "iu":
        a, b = jnp.asarray(a, dtype), jnp.asarray(b, dtype)
        return jax.lax.div(*jnp.broadcast_arrays(a, b))  # integer division rounds toward zero
    return jnp.trunc(jnp.true_divide(a, b))


def div(input, other, *, rounding_mode=None):
    """Return ``input / other``; ``rounding_mode`` 'floor' or 'trunc' rounds the quotient.

    True division of integers gives Float32; the rounded modes keep the promoted dtype.
    """
    return _divide("div", input, other, rounding_mode)


def divide(input, other, *, rounding_mode=None):
    """Alias of ``div``."""
    return _divide("divide", input, other, rounding_mode)


def true_divide(dividend, divisor):
    """Return ``dividend / divisor`` (integers give Float32)."""
    return _binary("true_divide", jnp.true_divide, dividend, divisor, floating=True)


def floor_divide(input, other):
    """Return ``floor(input / other)``, keeping integer dtypes."""
    return _binary("floor_divide", _floor_divide, input, other)


def floor_div(x, y):
    """Alias of ``floor_divide``."""
    return _binary("floor_div", _floor_divide, x, y)


def _reject_bool(op_name, x, y):
    """MindSpore's truncating division kernels have no Bool version: two Bool operands (which promote
    to Bool) raise a TypeError, as there; a Bool beside a number promotes to that number type."""
    if all(isinstance(value, Tensor) and value.dtype == mstype.bool_ for value in (x, y)):
        raise TypeError(f"For '{op_name}', 'x' and 'y' are both Bool Tensors, which it does not support; "
                        f"cast one to a number type first, e.g. x.astype(mindspore.int32).")


def truncate_div(x, y):
    """Return ``input / other`` rounded toward zero."""
    _reject_bool("truncate_div", x, y)
    return _binary("truncate_div", _trunc_divide, x, y)


def floor_mod(x, y):
    """Return the remainder of floor division: the result has the sign of ``y``."""
    return _binary("floor_mod", _remainder, x, y)


def remainder(input, other):
    """Return the remainder of floor division: the result has the sign of ``other``."""
    return _binary("remainder", _remainder, input, other)


def fmod(input, other):
    """Return the remainder of truncated division: the result has the sign of ``input``."""
    return _binary("fmod", _fmod, input, other)


def truncate_mod(x, y):
    """Alias of ``fmod`` with MindSpore's ``x, y`` argument names (numbers only, no Bool)."""
    _reject_bool("truncate_mod", x, y)
    return _binary("truncate_mod", _fmod, x, y)


def pow(input, exponent):
    """Return ``input ** exponent``, element-wise."""
    return _binary("pow", jnp.power, input, exponent)


def float_power(input, exponent):
    """Return ``input ** exponent`` computed in Float64."""
    a, b = binary_operands("float_power", input, exponent)
    a = a.astype(np.float64) if hasattr(a, "dtype") else a
    b = b.astype(np.float64) if hasattr(b, "dtype") else b
    try:
        return wrap(jnp.power(a, b))
    except (TypeError, ValueError, OverflowError) as error:
        raise binary_error("float_power", error, a, b) from None


def maximum(input, other):
    """Return the element-wise maximum (NaN propagates)."""
    return _binary("maximum", jnp.maximum, input, other)


def minimum(input, other):
    """Return the element-wise minimum (NaN propagates)."""
    return _binary("minimum", jnp.minimum, input, other)


def fmax(input, other):
    """Return the element-wise maximum, ignoring NaN where the other value is a number."""
    return _binary("fmax", jnp.fmax, input, other)


def fmin(input, other):
    """Return the element-wise minimum, ignoring NaN where the other value is a number."""
    return _binary("fmin", jnp.fmin, input, other)


def atan2(input, other):
    """Return the arctangent of ``input / other`` using the signs of both for the quadrant."""
    return _binary("atan2", jnp.arctan2, input, other, floating=True)


def arctan2(input, other):
    """Alias of ``atan2``."""
    return _binary("arctan2", jnp.arctan2, input, other, floating=True)


def hypot(input, other):
    """Return ``sqrt(input**2 + other**2)``, element-wise."""
    return _binary("hypot", jnp.hypot, input, other, floating=True)


def logaddexp(input, other):
    """Return ``log(exp(input) + exp(other))`` without overflow."""
    return _binary("logaddexp", jnp.logaddexp, input, other, floating=True)


def logaddexp2(input, other):
    """Return ``log2(2**input + 2**other)`` without overflow."""
    return _binary("logaddexp2", jnp.logaddexp2, input, other, floating=True)


def copysign(x, other):
    """Return the magnitude of ``x`` with the sign of ``other``."""
    return _binary("copysign", jnp.copysign, x, other, floating=True)


def xlogy(input, other):
    """Return ``input * log(other)``, 0 where ``input`` is 0."""
    return _binary("xlogy", jax.scipy.special.xlogy, input, other, floating=True)


def xdivy(x, y):
    """Return ``x / y``, 0 where ``x`` is 0."""
    return _binary("xdivy", _xdivy, x, y, floating=True)


def _xdivy(a, b):
    return jnp.where(a == 0, jnp.zeros_like(a / b), a / b)


def heaviside(input, values):
    """Return the Heaviside step of ``input``: 0 below zero, 1 above, ``values`` at zero."""
    return _binary("heaviside", jnp.heaviside, input, values)


def lerp(input, end, weight):
    """Return ``input + weight * (end - input)``."""
    difference = sub(end, input)
    return add(input, mul(weight, difference))


def addcmul(input, tensor1, tensor2, value=1):
    """Return ``input + value * tensor1 * tensor2``."""
    return add(input, mul(mul(tensor1, tensor2), value))


def addcdiv(input, tensor1, tensor2, value=1):
    """Return ``input + value * tensor1 / tensor2``."""
    return add(input, mul(div(tensor1, tensor2), value))
