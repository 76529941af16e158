"""Element-wise binary arithmetic: ``ops.add``, ``ops.sub``, ``ops.mul``, ``ops.div``, ``ops.pow`` ...

Each two-operand op is one op-table entry (``sporax.ops.op_table``, rule ``BINARY`` or
``BINARY_TO_FLOAT``): the kernel below with its Primitive, Tensor-method and ``mint`` names, samples
and a NumPy reference; ``ops.Add()``, ``x.maximum(y)`` ... are generated from it. Operands are
Tensors or Python numbers, promoted as MindSpore does (a Python scalar lifts only the kind, so
``int32 + 2.5`` is Float32 and ``float16 + 2.0`` stays Float16) inside one compiled kernel. True
division of integers gives Float32 (``div``'s rounding modes keep integers: its ``float_result``), its quotients and
remainders rounded as MindSpore's (``division_rounding.py``); ``float_power`` computes in Float64 (rule
``TO_FLOAT64``). Ops of three or four operands are in ``ternary_arithmetic.py``.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> print(ops.add(Tensor(np.array([1, 2], np.int32)), 2.5).dtype)
    Float32
"""
import jax
import jax.numpy as jnp
import numpy as np

from sporax.core.dtype import from_numpy_dtype
from sporax.ops._dispatch import array_of, describe, scalar_result_dtype
from sporax.ops.functional.division_rounding import (
    c_modulo, floor_division, floor_modulo, is_bool, single_rounding_quotient, truncated_modulo, truncating_quotient,
)
from sporax.ops.functional.nan_orders import select_maximum, select_minimum
from sporax.ops.op_table import (
    BINARY, BINARY_TO_FLOAT, FLOAT, TO_FLOAT64, Sample, function_op, op, spelling,
)
from sporax.ops.face_inputs import accepting
from sporax.ops.samples import binary, with_settings, without

# Divisions and remainders of whole numbers by positive whole numbers (and -3.0) are exact in
# every float dtype, so the rounded quotient never straddles an integer.
_WHOLE = binary(-8.0, 8.0, other=(1.0, 4.0), scalar=-3.0, integral=True)
_POSITIVE_DIVISOR = binary(other=(0.5, 4.0))




def _subtract(a, b):
    if is_bool(a) and is_bool(b):  # MindSpore's subtract counts Bool as Int64
        return jnp.subtract(jnp.asarray(a, np.int64), jnp.asarray(b, np.int64))
    return jnp.subtract(a, b)


def _refuse_two_bools(op_name, x, y):
    """MindSpore's truncating division kernels have no Bool version: two Bool operands (which promote
    to Bool) raise a TypeError, as there; a Bool beside a number promotes to that number type."""
    if is_bool(x) and is_bool(y):
        raise TypeError(f"For '{op_name}', 'x' and 'y' are both Bool Tensors, which it does not support; "
                        f"cast one to a number type first, e.g. x.astype(mindspore.int32).")


def accepting_common_dtype(primitive, argument, names, unlisted=()):
    """A check of the common dtype of a binary kernel's (promoted) operands against the dtypes MindSpore 2.10's
    ``primitive`` takes: a TypeError with the first line of its type check, e.g. ``For primitive[Fmax], the input
    argument[x1] must be a type of {Tensor[Float16], ...}, but got Tensor[Int8].`` (``unlisted``: dtypes it also
    takes that its message does not list)."""
    allowed = ", ".join(f"Tensor[{name}]" for name in names)

    def check(x, y):
        got = str(from_numpy_dtype(np.dtype(jnp.result_type(x, y))))
        if got not in names and got not in unlisted:
            raise TypeError(f"For primitive[{primitive}], the input argument[{argument}] must be a type of "
                            f"{{{allowed}}}, but got Tensor[{got}].")

    return check


def one_dtype(primitive, op_name):
    """MindSpore 2.10's check that ``primitive``'s two Tensor operands share one dtype (a Python number beside a
    Tensor passes): ``For primitive[Zeta], the input type must be same.``"""

    def check(x, y):
        if hasattr(x, "dtype") and hasattr(y, "dtype") and x.dtype != y.dtype:
            raise TypeError(f"For primitive[{primitive}], the input type must be same.\nFor '{op_name}', the two "
                            f"Tensors must have one dtype, but got {from_numpy_dtype(x.dtype)} and "
                            f"{from_numpy_dtype(y.dtype)}; cast one of them, e.g. y.astype(x.dtype).")

    return check


# The dtypes of MindSpore 2.10's Fmax/Fmin and TruncateMod type checks (on the operands' common dtype).
_check_fmax = accepting_common_dtype("Fmax", "x1", ("Float16", "Float32", "Float64", "Int32", "Int64"))
_check_fmin = accepting_common_dtype("Fmin", "x1", ("Float16", "Float32", "Float64", "Int32", "Int64"))
_check_truncate_mod = accepting_common_dtype("TruncateMod", "x",
                                              ("Float16", "Float32", "Float64", "Int32", "Int8", "UInt8"))
# Add takes every number dtype but Bool (its message lists the real ones); AddExt, behind ``x.add``, ``mint.add``
# and ``+``, also adds Bool operands (a logical or).
_NUMBERS = ("BFloat16", "Float16", "Float32", "Float64", "Int16", "Int32", "Int64", "Int8", "UInt16", "UInt32",
            "UInt64", "UInt8")
_check_add = accepting_common_dtype("Add", "x", _NUMBERS, unlisted=("Complex64", "Complex128"))
# RealDiv takes the same dtypes: two Bool operands raise its TypeError (MindSpore 2.10).
_check_real_div = accepting_common_dtype("RealDiv", "x", _NUMBERS, unlisted=("Complex64", "Complex128"))


def _xlogy_reference(input, other):
    return input * np.log(other)


def _xdivy_reference(x, y):
    return np.where(x == 0, 0.0, x / y)


# --- binary arithmetic ------------------------------------------------------------------------
@op(inputs=("input", "other"), dtypes=BINARY, primitive="Add", aliases=("tensor_add",), position_wise=True,
    mint=spelling("add", "input, other, *, alpha=1", other="alpha_scaled('add', input, other, alpha)"),
    samples=binary(), primitive_check=_check_add,
    reference=np.add)
def add(input, other):
    """Return ``input + other`` with MindSpore's type promotion (``ops.add``/``ops.Add()`` refuse two Bool
    operands, as MindSpore 2.10's Add; ``x.add(y)``, ``mint.add`` and ``x + y`` give their logical or)."""
    return jnp.add(input, other)


@op(inputs=("input", "other"), dtypes=BINARY, primitive="Sub", samples=binary(), reference=np.subtract,
    mint=spelling("sub", "input, other, *, alpha=1", other="alpha_scaled('sub', input, other, alpha)"))
def sub(input, other):
    """Return ``input - other``."""
    return jnp.subtract(input, other)


def _subtract_reference(input, other, alpha=1):
    return np.subtract(input, np.multiply(alpha, other))


@op(inputs=("input", "other"), dtypes=BINARY, method="subtract",
    samples=with_settings(binary(), {"alpha": 2.5}, {"alpha": -2}), reference=_subtract_reference)
def subtract(input, other, *, alpha=1):
    """Return ``input - alpha * other``."""
    if alpha != 1:
        # ``alpha`` lifts the kind only, as a Python number beside a Tensor does (Int32 - 2.5 * Int32: Float32).
        dtype = scalar_result_dtype(np.dtype(jnp.result_type(input, other)), alpha)
        input, other = jnp.asarray(input, dtype), jnp.asarray(other, dtype) * alpha
    return _subtract(input, other)


@op(inputs=("input", "other"), dtypes=BINARY, primitive="Mul", method="mul", mint="mul",
    aliases=("multiply", "tensor_mul", "tensor_muls"), zero_dim_follows=True,
    samples=binary(), reference=np.multiply)
def mul(input, other):
    """Return ``input * other``."""
    return jnp.multiply(input, other)


multiply = mul


def _div_reference(input, other, rounding_mode=None):
    quotient = np.true_divide(input, other)
    return {None: quotient, "floor": np.floor(quotient), "trunc": np.trunc(quotient)}[rounding_mode]


def _div_samples(dtype):
    """True division by positive divisors, then each rounding mode on whole numbers (exact quotients in
    every float dtype, so rounding never straddles an integer)."""
    return _POSITIVE_DIVISOR(dtype) + [Sample(sample.arrays, {"rounding_mode": mode})
                                      for mode in ("floor", "trunc") for sample in _WHOLE(dtype)[:2]]


@op(inputs=("input", "other"), dtypes=BINARY_TO_FLOAT, method="divide", mint=("div", "divide"),
    aliases=("divide",), float_result=lambda rounding_mode: rounding_mode is None, samples=_div_samples,
    reference=_div_reference, zero_dim_follows=True)
def div(input, other, *, rounding_mode=None):
    """Return ``input / other``; ``rounding_mode`` 'floor' or 'trunc' rounds the quotient.

    True division of integers gives Float32; the rounded modes keep the promoted dtype.
    """
    if rounding_mode is None:
        return single_rounding_quotient(input, other)
    if rounding_mode == "floor":
        return floor_division(input, other)
    if rounding_mode == "trunc":
        quotient = truncating_quotient(input, other)
        # two Bool operands give Bool, as MindSpore 2.10 (a 0/0 quotient, NaN, is True there too)
        return quotient.astype(np.bool_) if is_bool(input) and is_bool(other) else quotient
    raise ValueError(f"For 'div', rounding_mode must be None, 'floor' or 'trunc', but got {rounding_mode!r}.")


divide = div


def _binary_function(name, compute, reference, doc, samples=binary(), primitive=None, to_float=False, mint=True,
                     method=True, inputs=("input", "other"), grad_check=True, aliases=(), value_check=None,
                     zero_dim_follows=False):
    """Declare the two-operand entry ``name``: ``compute`` (one jnp function) of ``inputs``, promoted
    as MindSpore does (``to_float``: Int/Bool results become Float32). Its Tensor method and its
    ``mint`` function, unless ``method``/``mint`` is False, are ``name``; ``value_check`` and ``zero_dim_follows``
    are the entry's (``value_check`` sees the operands before their promotion)."""
    return function_op(name, compute, doc, module=__name__, inputs=inputs,
                       dtypes=BINARY_TO_FLOAT if to_float else BINARY, primitive=primitive,
                       method=name if method else None, mint=name if mint else (), samples=samples,
                       reference=reference, grad_check=grad_check, aliases=aliases, value_check=value_check,
                       zero_dim_follows=zero_dim_follows)


true_divide = _binary_function("true_divide", single_rounding_quotient, np.true_divide,
                               "Return ``dividend / divisor`` (integers give Float32).", _POSITIVE_DIVISOR, "Div",
                               to_float=True, mint=False, inputs=("dividend", "divisor"), zero_dim_follows=True)


floor_divide = _binary_function("floor_divide", floor_division, np.floor_divide,
                                "Return ``floor(input / other)``, keeping integer dtypes.", _WHOLE, grad_check=False,
                                aliases=("floordiv",))


floor_div = _binary_function("floor_div", floor_division, np.floor_divide,
                             "Return ``floor(x / y)``, keeping integer dtypes (``floor_divide`` with MindSpore's "
                             "``x, y`` names).", _WHOLE, "FloorDiv", method=False, mint=False, inputs=("x", "y"),
                             grad_check=False)


def _real_divide(x, y):
    if x.dtype.kind in "iu":
        return truncating_quotient(x, y)
    if x.dtype.kind == "b":
        x, y = x.astype(np.float32), y.astype(np.float32)
    return single_rounding_quotient(x, y)


tensor_div = _binary_function("tensor_div", _real_divide, np.true_divide,
                              "Return ``x / y`` (MindSpore's ``RealDiv``): integers divide toward zero and stay "
                              "integers.", _POSITIVE_DIVISOR, "RealDiv", method=False, mint=False, inputs=("x", "y"),
                              value_check=_check_real_div)


@op(inputs=("x", "y"), dtypes=BINARY, primitive="TruncateDiv", samples=_WHOLE,
    reference=lambda x, y: np.trunc(x / y), grad_check=False)
def truncate_div(x, y):
    """Return ``x / y`` rounded toward zero (numbers only, no Bool)."""
    _refuse_two_bools("truncate_div", x, y)
    return truncating_quotient(x, y)


floor_mod = _binary_function("floor_mod", floor_modulo, np.remainder,
                             "Return the remainder of floor division: the result has the sign of ``y``.", _WHOLE,
                             "FloorMod", method=False, mint=False, inputs=("x", "y"), grad_check=False,
                             aliases=("tensor_mod", "floormod"))


remainder = _binary_function("remainder", floor_modulo, np.remainder,
                             "Return the remainder of floor division: the result has the sign of ``other``.", _WHOLE,
                             grad_check=False)


fmod = _binary_function("fmod", truncated_modulo, np.fmod,
                        "Return the remainder of truncated division: the result has the sign of ``input``.", _WHOLE,
                        "Mod", grad_check=False)


@op(inputs=("x", "y"), dtypes=BINARY, primitive="TruncateMod", samples=_WHOLE, reference=np.fmod,
    grad_check=False)
def truncate_mod(x, y):
    """Return the remainder of truncated division, the sign of ``x`` (common dtype Float16/32/64, Int8, Int32 or
    UInt8, as MindSpore 2.10's TruncateMod; others raise its TypeError)."""
    _check_truncate_mod(x, y)
    return c_modulo(x, y)


@op(inputs=("input", "exponent"), dtypes=BINARY, primitive="Pow", method="pow", mint="pow", aliases=("tensor_pow", "pows"),
    samples=binary(0.5, 2.0, other=(-2.0, 2.0), scalar=2.0), reference=np.power)
def pow(input, exponent):
    """Return ``input ** exponent``, element-wise (integers: a negative exponent gives 0 unless the base is 1 or
    -1, and the most negative 32- or 64-bit integer for a base of 0, as MindSpore's kernel, which divides in floating
    point and converts as x86 does)."""
    result = jnp.power(input, exponent)
    if result.dtype.kind != "i" or getattr(exponent, "dtype", np.dtype(np.uint8)).kind == "u":
        return result
    wide = np.int64 if result.dtype.itemsize > 4 else np.int32
    base = jnp.broadcast_to(jnp.asarray(input, result.dtype), result.shape)
    negative_power = jnp.where(base == 1, 1, jnp.where(base == -1, jnp.where(jnp.asarray(exponent) % 2 == 0, 1, -1),
                                                       jnp.where(base == 0, np.iinfo(wide).min, 0)))
    return jnp.where(jnp.asarray(exponent) < 0, negative_power.astype(wide).astype(result.dtype), result)


def _one_tensor(input, exponent):
    if not hasattr(input, "dtype") and not hasattr(exponent, "dtype"):
        raise TypeError(f"For 'float_power', 'input' or 'exponent' must be a Tensor, but got {describe(input)} and "
                        f"{describe(exponent)}.")


@op(inputs=("input", "exponent"), dtypes=TO_FLOAT64, scalars=("input", "exponent"), method="float_power",
    mint="float_power", value_check=_one_tensor, samples=binary(0.5, 2.0, other=(-2.0, 2.0), scalar=2.0), reference=np.float_power)
def float_power(input, exponent):
    """Return ``input ** exponent`` computed in Float64 (Complex128 for complex operands).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> result = ops.float_power(Tensor(np.array([2, 3], np.int32)), 2)
        >>> result.asnumpy().tolist(), result.dtype
        ([4.0, 9.0], mindspore.float64)
    """
    try:
        return jnp.power(input, exponent)
    except (TypeError, ValueError) as error:
        raise ValueError(f"For 'float_power', 'input' {jnp.shape(input)} and 'exponent' {jnp.shape(exponent)} must "
                         f"broadcast. Details: {error}") from None


maximum = _binary_function("maximum", select_maximum, np.maximum,
                           "Return the element-wise maximum, ``input > other ? input : other`` (a NaN in either "
                           "gives ``other``).", primitive="Maximum")
minimum = _binary_function("minimum", select_minimum, np.minimum,
                           "Return the element-wise minimum, ``input < other ? input : other`` (a NaN in either "
                           "gives ``other``).", primitive="Minimum")
def _fmax(input, other):
    # jnp.fmax's values; MindSpore's gradient goes to ``input`` where the two are equal (JAX's to ``other``)
    _check_fmax(input, other)
    return jnp.where((input >= other) | jnp.isnan(other), input, other)


def _fmin(input, other):
    _check_fmin(input, other)
    return jnp.fmin(input, other)


fmax = _binary_function("fmax", _fmax, np.fmax,
                        "Return the element-wise maximum, ignoring NaN where the other value is a number.",
                        primitive="Fmax", mint=False)
fmin = _binary_function("fmin", _fmin, np.fmin,
                        "Return the element-wise minimum, ignoring NaN where the other value is a number.",
                        primitive="Fmin", mint=False)
atan2 = _binary_function("atan2", jnp.arctan2, np.arctan2,
                         "Return the arctangent of ``input / other`` using the signs of both for the quadrant.",
                         to_float=True, primitive="Atan2")
arctan2 = _binary_function("arctan2", jnp.arctan2, np.arctan2, "Alias of ``atan2``.", to_float=True)
# MindSpore 2.10's Hypot takes a Float32/Float64 common dtype alone (Int, Bool, Float16, BFloat16 raise its TypeError)
_check_hypot = accepting_common_dtype("Hypot", "x1", ("Float32", "Float64"))


def _hypot(input, other):
    _check_hypot(input, other)
    return jnp.hypot(input, other)


hypot = _binary_function("hypot", _hypot, np.hypot, "Return ``sqrt(input**2 + other**2)``, element-wise: a Float32 "
                         "or Float64 common dtype (``int32`` beside ``float32`` gives Float32).",
                         samples=without(("float16", "bfloat16"), binary()),
                         primitive="Hypot", mint=False)


def _tensor_operand(op_name, arg_name, value):
    """The array of a Tensor operand of ``logaddexp``/``logaddexp2``: a Python number is MindSpore 2.10's
    TypeError (they take two Tensors)."""
    if isinstance(value, (bool, int, float)):
        raise TypeError(f"For {op_name}, the {arg_name} must be a Tensor, but got {type(value)}.\nFor '{op_name}', "
                        f"'{arg_name}' must be a Tensor, e.g. Tensor({value!r}, mindspore.float32).")
    return array_of(op_name, arg_name, value)


def _log_add(name, compute):
    """The kernel of ``logaddexp``/``logaddexp2``: two float Tensors (an Int or Bool one is MindSpore 2.10's
    TypeError naming both dtypes), in their common dtype."""

    def kernel(input, other):
        if not all(array.dtype.kind == "f" or array.dtype.name == "bfloat16" for array in (input, other)):
            raise TypeError(f"For {name}, the dtype of 'input' and 'other' must be float,but got "
                            f"{from_numpy_dtype(input.dtype)} and {from_numpy_dtype(other.dtype)}.\nFor '{name}', "
                            "cast integer or Bool Tensors first, e.g. x.astype(mindspore.float32).")
        return compute(input, other)

    return kernel


# mint.logaddexp runs LogAddExp, whose check of 'input' names its own dtypes (MindSpore 2.10 also refuses Float64;
# sporax computes it)
_LOG_ADD_EXP_INPUT = accepting(("BFloat16", "Float16", "Float32", "Float64"), "For primitive[LogAddExp], the input "
                               "argument [input] must be a type of {{Float16, Float32, BFloat16}}, but got {got}.",
                               keep=True)
_TWO_TENSORS = {"input": _tensor_operand, "other": _tensor_operand}
logaddexp = function_op("logaddexp", _log_add("logaddexp", jnp.logaddexp),
                        "Return ``log(exp(input) + exp(other))`` without overflow, of two float Tensors.",
                        module=__name__, inputs=("input", "other"), dtypes=FLOAT, input_dtypes=_TWO_TENSORS,
                        method="logaddexp", samples=binary(scalar=None), reference=np.logaddexp,
                        mint=spelling("logaddexp", "input, other", readers={"input": _LOG_ADD_EXP_INPUT}))
logaddexp2 = function_op("logaddexp2", _log_add("logaddexp2", jnp.logaddexp2),
                         "Return ``log2(2**input + 2**other)`` without overflow, of two float Tensors.",
                         module=__name__, inputs=("input", "other"), dtypes=FLOAT, input_dtypes=_TWO_TENSORS,
                         method="logaddexp2", mint="logaddexp2", samples=binary(scalar=None), reference=np.logaddexp2)


def _check_copysign(x, other):
    if getattr(x, "dtype", None) == np.bool_:  # MindSpore 2.10's copysign refuses a Bool x (a Bool other is taken)
        raise TypeError("copysign does not accept dtype bool.\nFor 'copysign', 'x' must be a number Tensor, but got "
                        "a Bool one; cast it first, e.g. x.astype(mindspore.float32).")


def _sign_of_negative(module):
    """MindSpore's copysign: negative where ``other < 0``, so a -0.0 or -NaN ``other`` gives a positive result
    (IEEE copysign would read their sign bit)."""
    return lambda x, other: module.where(other < 0, -module.abs(x), module.abs(x))


copysign = _binary_function("copysign", _sign_of_negative(jnp), _sign_of_negative(np),
                            "Return the magnitude of ``x``, negative where ``other < 0``.", to_float=True, mint=False,
                            inputs=("x", "other"), value_check=_check_copysign)


@jax.custom_jvp
def _xlogy(input, other):
    # MindSpore 2.10's kernel is the plain product: xlogy(0, 0) and xlogy(0, inf) are NaN there, not 0
    return input * jnp.log(other)


@_xlogy.defjvp
def _xlogy_jvp(primals, tangents):
    # MindSpore's Xlogy gradient: d/dinput is 0 where input is 0 (not log(other)), d/dother is input / other
    input, other = primals
    input_tangent, other_tangent = tangents
    safe_log = jnp.log(jnp.where(input == 0, jnp.ones_like(other), other))
    return (_xlogy(input, other),
            jnp.where(input == 0, jnp.zeros_like(safe_log), safe_log) * input_tangent + input / other * other_tangent)


xlogy = _binary_function("xlogy", _xlogy, _xlogy_reference,
                         "Return ``input * log(other)`` (NaN where both are 0, as MindSpore's kernel).",
                         to_float=True,
                         samples=_POSITIVE_DIVISOR, primitive="Xlogy")


# MindSpore 2.10's Xdivy takes a float or complex common dtype (Int32 beside 2.0 is Float32; two Int or Bool: its
# TypeError)
_check_xdivy = accepting_common_dtype("Xdivy", "x", ("Complex128", "Complex64", "Float16", "Float32", "Float64"),
                                      unlisted=("BFloat16",))


@op(inputs=("x", "y"), dtypes=BINARY, primitive="Xdivy", method="xdivy", samples=_POSITIVE_DIVISOR,
    reference=_xdivy_reference)
def xdivy(x, y):
    """Return ``x / y``, 0 where ``x`` is 0."""
    _check_xdivy(x, y)
    # where x is 0 the divisor is replaced too, so 0 / 0 gives a zero gradient (MindSpore's), not NaN
    quotient = x / jnp.where(x == 0, jnp.ones_like(y), y)
    return jnp.where(x == 0, jnp.zeros_like(quotient), quotient)


# MindSpore 2.10's Heaviside: two Tensors of one dtype, a number dtype but BFloat16 (Bool: its TypeError)
_HEAVISIDE_DTYPES = ("Float16", "Float32", "Float64", "Int16", "Int32", "Int64", "Int8", "UInt16", "UInt32", "UInt64",
                     "UInt8")
_heaviside_one_dtype = one_dtype("Heaviside", "heaviside")


def _check_heaviside(input, values):  # on the operands as given (a value_check: before their promotion)
    _heaviside_one_dtype(input, values)
    got = str(from_numpy_dtype(np.dtype(jnp.result_type(input, values))))
    if got not in _HEAVISIDE_DTYPES:
        allowed = ", ".join(sorted(_HEAVISIDE_DTYPES + tuple(f"Tensor[{name}]" for name in _HEAVISIDE_DTYPES)))
        raise TypeError(f"For primitive[Heaviside], the input argument[values] must be a type of {{{allowed}}}, but "
                        f"got Tensor[{got}].")


@op(inputs=("input", "values"), dtypes=BINARY, primitive="Heaviside", method="heaviside", value_check=_check_heaviside,
    samples=without(("bfloat16",), binary(integral=True, scalar=0.5)), reference=np.heaviside, grad_check=False)
def heaviside(input, values):
    """Return the Heaviside step of ``input``: 0 below zero, 1 above, ``values`` at zero.

    The result keeps the operands' promoted dtype (Int32 for Int32, checked on MindSpore 2.10;
    NumPy's gives a float).
    """
    return jnp.heaviside(input, values).astype(jnp.result_type(input, values))
