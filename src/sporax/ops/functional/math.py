"""Element-wise unary math: ``ops.exp``, ``ops.sqrt``, ``ops.abs``, ``ops.round`` ...

Transcendental functions of Int/Bool tensors give Float32 (as MindSpore's ``sqrt``, ``exp2``,
``reciprocal`` do); ``ceil``/``floor`` accept float tensors only; ``neg``/``square``/``sign``
refuse Bool tensors. Binary arithmetic lives in ``arithmetic.py``.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> ops.sqrt(Tensor(np.array([1, 4], np.int32)))
    Tensor(shape=[2], dtype=Float32, value= [ 1.00000000e+00,  2.00000000e+00])
"""
import jax
import jax.numpy as jnp
import numpy as np

from sporax.ops._dispatch import array_of, float_array_of, numeric_array_of, wrap
from sporax.ops.op_table import FLOAT, CellSpec, op
from sporax.ops.samples import unary


def _float_only_array_of(op_name, value):
    array = array_of(op_name, "input", value)
    if array.dtype.kind in "biu":
        raise TypeError(f"For '{op_name}', the argument 'input' must be a float Tensor (Float16, "
                        f"Float32, Float64, BFloat16), but got {array.dtype}; cast it first, e.g. "
                        "x.astype(mindspore.float32).")
    return array


# --- unary functions whose result is a float (Int/Bool inputs give Float32) -------------------
def exp(input):
    """Return e raised to ``input``, element-wise."""
    return wrap(jnp.exp(float_array_of("exp", "input", input)))


def exp2(input):
    """Return 2 raised to ``input``, element-wise."""
    return wrap(jnp.exp2(float_array_of("exp2", "input", input)))


def expm1(input):
    """Return ``exp(input) - 1``, accurate near zero."""
    return wrap(jnp.expm1(float_array_of("expm1", "input", input)))


def log(input):
    """Return the natural logarithm of ``input``, element-wise."""
    return wrap(jnp.log(float_array_of("log", "input", input)))


def log1p(input):
    """Return ``log(1 + input)``, accurate near zero."""
    return wrap(jnp.log1p(float_array_of("log1p", "input", input)))


def log2(input):
    """Return the base-2 logarithm of ``input``."""
    return wrap(jnp.log2(float_array_of("log2", "input", input)))


def log10(input):
    """Return the base-10 logarithm of ``input``."""
    return wrap(jnp.log10(float_array_of("log10", "input", input)))


def sqrt(x):
    """Return the square root of ``x``, element-wise."""
    return wrap(jnp.sqrt(float_array_of("sqrt", "x", x)))


def rsqrt(input):
    """Return ``1 / sqrt(input)``, element-wise."""
    return wrap(jax.lax.rsqrt(float_array_of("rsqrt", "input", input)))


def reciprocal(input):
    """Return ``1 / input``, element-wise."""
    return wrap(jnp.reciprocal(float_array_of("reciprocal", "input", input)))


def inv(x):
    """Return ``1 / x``, element-wise; integer tensors keep their dtype (division toward zero)."""
    array = numeric_array_of("inv", "x", x)
    if array.dtype.kind in "iu":
        # MindSpore's kernel divides in floating point and converts back as x86 does: 1/0 = inf
        # becomes the most negative 32- or 64-bit integer (then truncated to a narrower type).
        wide = np.int64 if array.dtype.itemsize > 4 else np.int32
        zero_case = jnp.asarray(np.iinfo(wide).min, wide).astype(array.dtype)
        safe = jnp.where(array == 0, jnp.ones_like(array), array)
        return wrap(jnp.where(array == 0, zero_case, jax.lax.div(jnp.ones_like(array), safe)))
    return wrap(jnp.reciprocal(array))


@op(dtypes=FLOAT, primitive="Sigmoid", method="sigmoid", mint="sigmoid", cells=(CellSpec("Sigmoid"),),
    position_wise=True, samples=unary(), reference=lambda input: 1 / (1 + np.exp(-input)))
def sigmoid(input):
    """Return the logistic sigmoid ``1 / (1 + exp(-input))``."""
    return jax.nn.sigmoid(input)


@op(dtypes=FLOAT, primitive="Tanh", method="tanh", mint="tanh", cells=(CellSpec("Tanh"),), position_wise=True,
    samples=unary(), reference=np.tanh)
def tanh(input):
    """Return the hyperbolic tangent of ``input``."""
    return jnp.tanh(input)


def sin(input):
    """Return the sine of ``input`` (radians)."""
    return wrap(jnp.sin(float_array_of("sin", "input", input)))


def cos(input):
    """Return the cosine of ``input`` (radians)."""
    return wrap(jnp.cos(float_array_of("cos", "input", input)))


def tan(input):
    """Return the tangent of ``input`` (radians)."""
    return wrap(jnp.tan(float_array_of("tan", "input", input)))


def sinh(input):
    """Return the hyperbolic sine of ``input``."""
    return wrap(jnp.sinh(float_array_of("sinh", "input", input)))


def cosh(input):
    """Return the hyperbolic cosine of ``input``."""
    return wrap(jnp.cosh(float_array_of("cosh", "input", input)))


def asin(input):
    """Return the arcsine of ``input``."""
    return wrap(jnp.arcsin(float_array_of("asin", "input", input)))


def acos(input):
    """Return the arccosine of ``input``."""
    return wrap(jnp.arccos(float_array_of("acos", "input", input)))


def atan(input):
    """Return the arctangent of ``input``."""
    return wrap(jnp.arctan(float_array_of("atan", "input", input)))


def asinh(input):
    """Return the inverse hyperbolic sine of ``input``."""
    return wrap(jnp.arcsinh(float_array_of("asinh", "input", input)))


def acosh(input):
    """Return the inverse hyperbolic cosine of ``input``."""
    return wrap(jnp.arccosh(float_array_of("acosh", "input", input)))


def atanh(input):
    """Return the inverse hyperbolic tangent of ``input``."""
    return wrap(jnp.arctanh(float_array_of("atanh", "input", input)))


def arcsin(x):
    """Alias of ``asin``."""
    return wrap(jnp.arcsin(float_array_of("arcsin", "x", x)))


arccos, arctan, arcsinh, arccosh, arctanh = acos, atan, asinh, acosh, atanh


def erf(input):
    """Return the Gauss error function of ``input``."""
    return wrap(jax.scipy.special.erf(float_array_of("erf", "input", input)))


def erfc(input):
    """Return the complementary error function ``1 - erf(input)``."""
    return wrap(jax.scipy.special.erfc(float_array_of("erfc", "input", input)))


def erfinv(input):
    """Return the inverse error function of ``input``."""
    return wrap(jax.scipy.special.erfinv(float_array_of("erfinv", "input", input)))


def lgamma(input):
    """Return the log of the absolute value of the gamma function of ``input``."""
    return wrap(jax.scipy.special.gammaln(float_array_of("lgamma", "input", input)))


def digamma(input):
    """Return the logarithmic derivative of the gamma function of ``input``."""
    return wrap(jax.scipy.special.digamma(float_array_of("digamma", "input", input)))


def sinc(input):
    """Return the normalized sinc ``sin(pi x) / (pi x)`` (1 at 0)."""
    return wrap(jnp.sinc(float_array_of("sinc", "input", input)))


def deg2rad(x):
    """Convert angles from degrees to radians."""
    return wrap(jnp.deg2rad(float_array_of("deg2rad", "x", x)))


def rad2deg(x):
    """Convert angles from radians to degrees."""
    return wrap(jnp.rad2deg(float_array_of("rad2deg", "x", x)))


# --- unary functions that keep the input dtype ------------------------------------------------
@jax.custom_jvp
def _float_abs(array):
    return jnp.abs(array)


# The derivative of |x| is sign(x): 0 at 0, as in MindSpore (JAX's own rule gives 1 there).
_float_abs.defjvp(lambda primals, tangents: (jnp.abs(primals[0]),
                                             jnp.sign(primals[0]) * tangents[0]))


def abs(input):
    """Return the absolute value of ``input``, element-wise."""
    array = array_of("abs", "input", input)
    return wrap(_float_abs(array) if array.dtype.kind in "fV" else jnp.abs(array))


absolute = abs


def positive(input):
    """Return ``input`` unchanged."""
    return wrap(array_of("positive", "input", input))


def neg(input):
    """Return ``-input``, element-wise."""
    return wrap(jnp.negative(numeric_array_of("neg", "input", input)))


negative = neg


def square(input):
    """Return ``input * input``, element-wise."""
    return wrap(jnp.square(numeric_array_of("square", "input", input)))


def sign(input):
    """Return -1, 0 or 1 by the sign of each element (0 for NaN-free zeros)."""
    return wrap(jnp.sign(numeric_array_of("sign", "input", input)))


sgn = sign


def ceil(input):
    """Round ``input`` up to the nearest integer, element-wise (float tensors only)."""
    return wrap(jnp.ceil(_float_only_array_of("ceil", input)))


def floor(input):
    """Round ``input`` down to the nearest integer, element-wise (float tensors only)."""
    return wrap(jnp.floor(_float_only_array_of("floor", input)))


def round(input, *, decimals=0):
    """Round ``input`` to ``decimals`` places, halves to even; integer tensors are unchanged."""
    array = array_of("round", "input", input)
    if array.dtype.kind in "biu":
        return wrap(array)
    return wrap(jnp.round(array, decimals))


def trunc(input):
    """Round ``input`` toward zero, element-wise; integer tensors are unchanged."""
    array = array_of("trunc", "input", input)
    if array.dtype.kind in "biu":
        return wrap(array)
    return wrap(jnp.trunc(array))


def frac(x):
    """Return the fractional part ``x - trunc(x)``, keeping the sign."""
    array = numeric_array_of("frac", "x", x)
    if array.dtype.kind in "iu":
        return wrap(jnp.zeros_like(array))
    return wrap(array - jnp.trunc(array))


def nan_to_num(input, nan=None, posinf=None, neginf=None):
    """Replace NaN by ``nan`` (0), +inf by ``posinf`` and -inf by ``neginf`` (the dtype's limits)."""
    array = array_of("nan_to_num", "input", input)
    return wrap(jnp.nan_to_num(array, nan=0.0 if nan is None else nan, posinf=posinf,
                               neginf=neginf))


def logit(input, eps=None):
    """Return ``log(p / (1 - p))``; with ``eps``, ``p`` is first clamped to ``[eps, 1 - eps]``."""
    array = float_array_of("logit", "input", input)
    if eps is not None:
        array = jnp.clip(array, eps, 1 - eps)
    return wrap(jnp.log(array / (1 - array)))


def mvlgamma(input, p):
    """Multivariate log-gamma of dimension ``p``: ``sum_i lgamma(x - i / 2) + p (p - 1) / 4 log(pi)``.

    Every element must be greater than ``(p - 1) / 2``.
    """
    if isinstance(p, bool) or not isinstance(p, int) or p < 1:
        raise ValueError(f"For 'mvlgamma', 'p' must be a positive int, but got {p!r}.")
    x = float_array_of("mvlgamma", "input", input)
    offsets = jnp.arange(p, dtype=x.dtype) / 2
    terms = jax.scipy.special.gammaln(x[..., None] - offsets)
    return wrap((jnp.sum(terms, -1) + p * (p - 1) / 4 * jnp.log(jnp.pi)).astype(x.dtype))
