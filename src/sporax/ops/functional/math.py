"""Element-wise unary math: ``ops.exp``, ``ops.sqrt``, ``ops.abs``, ``ops.round`` ...

Each op is one op-table entry (``sporax.ops.op_table``): the kernel below with its Primitive,
Tensor-method and ``mint`` names, samples and a NumPy reference; ``ops.Exp()``, ``x.exp()`` and
``mint.exp`` are generated from it and run that kernel. Dtype rules, as MindSpore's: transcendental
functions of Int/Bool tensors give Float32 (``TO_FLOAT``, as MindSpore's ``sqrt``, ``exp2``,
``reciprocal`` do); ``ceil``/``floor`` accept float tensors only (``FLOAT``); ``neg``/``square``/
``sign`` refuse Bool tensors (``NUMBER``); ``abs``/``round``/``trunc`` take every dtype (``ANY``).
Binary arithmetic lives in ``arithmetic.py``.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> ops.sqrt(Tensor(np.array([1, 4], np.int32)))
    Tensor(shape=[2], dtype=Float32, value= [ 1.00000000e+00,  2.00000000e+00])
"""
import math

import jax
import jax.numpy as jnp
import numpy as np

from sporax.ops.op_table import (ANY, FLOAT, FLOAT_NUMBER, INEXACT, NUMBER, TO_FLOAT, CellSpec, Sample, function_op, op,
                                  spelling)
from sporax.ops.face_inputs import accepting, primitive_accepting
from sporax.ops.samples import unary, with_settings, without

_WHOLE = np.arange(-4.0, 5.0)  # kinks of floor/ceil/trunc/frac: samples keep away from them
_HALVES = _WHOLE[:-1] + 0.5    # ties of round
_POSITIVE = unary(0.2, 4.0)
_UNIT = unary(-0.9, 0.9)
_lgamma_reference = np.vectorize(math.lgamma)
_erf_reference = np.vectorize(math.erf)


def _digamma_reference(x):
    "digamma by the recurrence ``psi(x) = psi(x + 1) - 1/x`` up to 6, then its asymptotic series."
    x = np.array(x, np.float64)
    result = np.zeros_like(x)
    while np.any(x < 6):
        small = x < 6
        result = result - np.where(small, 1 / x, 0)
        x = np.where(small, x + 1, x)
    inverse_square = 1 / (x * x)
    series = inverse_square * (1 / 12 - inverse_square * (1 / 120 - inverse_square * (1 / 252 - inverse_square * (
        1 / 240 - inverse_square / 132))))
    return result + np.log(x) - 0.5 / x - series


def _erfinv_reference(x):
    "erfinv by Newton's method on ``math.erf`` (converges to float64 precision for |x| < 1)."
    x = np.asarray(x, np.float64)
    y = np.zeros_like(x)
    for _ in range(60):
        y = y - (_erf_reference(y) - x) * np.sqrt(np.pi) / 2 * np.exp(y * y)
    return y


def _float_function(name, compute, reference, doc, samples=unary(), primitive=None, aliases=(), mint=True,
                    argument="input", accepts=None, dtypes=TO_FLOAT):
    """Declare the entry ``name``: ``compute`` (one jnp function) of a float input, Int/Bool inputs
    computed in Float32 (``TO_FLOAT``), position-wise. Its Tensor methods are ``name`` and its
    ``aliases``, so are its ``mint`` functions (unless ``mint`` is False); ``argument`` is the
    input's public name. ``accepts``: a reader (``face_inputs.accepting``) for ops whose Primitive takes
    fewer dtypes, refusing the others as MindSpore does (``dtypes=FLOAT`` where it takes no integers)."""
    names = (name,) + tuple(aliases)
    return function_op(name, compute, doc, module=__name__, inputs=argument, dtypes=dtypes, primitive=primitive,
                       method=names, mint=names if mint is True else (mint or ()), aliases=aliases, position_wise=True,
                       samples=samples, reference=reference, input_dtypes={argument: accepts} if accepts else None)


_FLOATS = ("Float16", "Float32", "Float64")


# --- unary functions whose result is a float (Int/Bool inputs give Float32) -------------------
exp = _float_function("exp", jnp.exp, np.exp, "Return e raised to ``input``, element-wise.", primitive="Exp")


def exp2_array(x):
    """``2 ** x`` of an array as MindSpore 2.10 computes it: BFloat16 and Float16 in Float32, BFloat16 answered in
    Float32 and Float16 rounded once (XLA's own Float16 exp2 is off by up to 3 ulp: ``2 ** 3`` gave 8.01)."""
    if x.dtype == jnp.bfloat16:
        return jnp.exp2(x.astype(np.float32))
    if x.dtype == np.float16:
        return jnp.exp2(x.astype(np.float32)).astype(np.float16)
    return jnp.exp2(x)


exp2 = _float_function("exp2", exp2_array, np.exp2, "Return 2 raised to ``input``, element-wise (BFloat16 gives Float32).")
expm1 = _float_function("expm1", jnp.expm1, np.expm1, "Return ``exp(input) - 1``, accurate near zero.",
                        primitive="Expm1")
log = _float_function("log", jnp.log, np.log, "Return the natural logarithm of ``input``, element-wise.",
                      samples=_POSITIVE, primitive="Log")
log1p = _float_function("log1p", jnp.log1p, np.log1p, "Return ``log(1 + input)``, accurate near zero.",
                        samples=unary(-0.8, 4.0), primitive="Log1p")
log2 = _float_function("log2", jnp.log2, np.log2, "Return the base-2 logarithm of ``input``.", samples=_POSITIVE)
log10 = _float_function("log10", jnp.log10, np.log10, "Return the base-10 logarithm of ``input``.",
                        samples=_POSITIVE)
sqrt = _float_function("sqrt", jnp.sqrt, np.sqrt, "Return the square root of ``x``, element-wise.",
                       samples=_POSITIVE, primitive="Sqrt", mint=spelling("sqrt", "input", x="input"),
                       argument="x")
rsqrt = _float_function("rsqrt", jax.lax.rsqrt, lambda input: 1 / np.sqrt(input),
                        "Return ``1 / sqrt(input)``, element-wise.", samples=_POSITIVE, primitive="Rsqrt")


# ``Tensor.inv`` is MindSpore's float reciprocal; ``ops.inv`` keeps integer dtypes (below).
@op(dtypes=TO_FLOAT, primitive="Reciprocal", method=("reciprocal", "inv"), mint="reciprocal", position_wise=True,
    samples=unary(avoid=0.0), reference=lambda input: 1 / input)
def reciprocal(input):
    "Return ``1 / input``, element-wise."
    return jnp.reciprocal(input)


@op(inputs="x", dtypes=NUMBER, primitive="Inv", position_wise=True, samples=unary(avoid=0.0),
    reference=lambda x: 1 / x)
def inv(x):
    "Return ``1 / x``, element-wise; integer tensors keep their dtype (division toward zero)."
    if x.dtype.kind in "iu":
        # MindSpore's kernel divides in floating point and converts back as x86 does: 1/0 = inf
        # becomes the most negative 32- or 64-bit integer (then truncated to a narrower type).
        wide = np.int64 if x.dtype.itemsize > 4 else np.int32
        zero_case = jnp.asarray(np.iinfo(wide).min, wide).astype(x.dtype)
        safe = jnp.where(x == 0, jnp.ones_like(x), x)
        return jnp.where(x == 0, zero_case, jax.lax.div(jnp.ones_like(x), safe))
    return jnp.reciprocal(x)


@op(dtypes=INEXACT, primitive="Sigmoid", method="sigmoid", mint="sigmoid", cells=(CellSpec("Sigmoid"),),
    position_wise=True, samples=unary(), reference=lambda input: 1 / (1 + np.exp(-input)))
def sigmoid(input):
    "Return the logistic sigmoid ``1 / (1 + exp(-input))``."
    return jax.nn.sigmoid(input)


@op(dtypes=INEXACT, primitive="Tanh", method="tanh", mint="tanh", cells=(CellSpec("Tanh"),), position_wise=True,
    samples=unary(), reference=np.tanh)
def tanh(input):
    """Return the hyperbolic tangent of ``input``; Float32 and Float16 as MindSpore 2.10's CPU kernel computes it
    (``_rational_tanh``), other dtypes exactly."""
    if input.dtype in (np.float32, np.float16) and jax.config.jax_enable_x64:
        return _rational_tanh(input)
    return jnp.tanh(input)


def _fused(a, b, c):
    """``a * b + c`` rounded once to Float32 (a fused multiply-add): the Float32 product is exact in Float64."""
    return (a.astype(np.float64) * b + c).astype(np.float32)


@jax.custom_jvp
def _rational_tanh(input):
    """MindSpore 2.10's CPU tanh: the [7/6] Pade approximant of tanh (the continued fraction's seventh
    convergent) in Float32 with fused multiply-adds, and +-1 beyond +-5; so ``tanh(5.0)`` is 1.0000098. Float16
    computes in Float32 and rounds. Recorded on 240016 Float32 points in [-12, 12] and 20000 random ones: every
    value equal (an exact tanh differed in 65% of them, by up to 1612 ulp)."""
    x = input.astype(np.float32)
    square = x * x
    numerator = _fused(_fused(square + 378, square, 17325), square, 135135) * x
    denominator = _fused(_fused(_fused(square, 28, 3150), square, 62370), square, 135135)
    bound = jnp.ones_like(x)
    return jnp.where(x > 5, bound, jnp.where(x < -5, -bound, numerator / denominator)).astype(input.dtype)


@_rational_tanh.defjvp
def _rational_tanh_jvp(primals, tangents):
    # MindSpore's TanhGrad: dy * (1 - y * y), the bracket one fused multiply-add in Float32 (recorded: all of
    # 20000 random values, Float32 and Float16; 1 - y * y rounded twice differed in 60%)
    result = _rational_tanh(*primals)
    y = result.astype(np.float32)
    return result, (tangents[0].astype(np.float32) * _fused(-y, y, 1)).astype(result.dtype)


sin = _float_function("sin", jnp.sin, np.sin, "Return the sine of ``input`` (radians).", primitive="Sin")
cos = _float_function("cos", jnp.cos, np.cos, "Return the cosine of ``input`` (radians).", primitive="Cos")
tan = _float_function("tan", jnp.tan, np.tan, "Return the tangent of ``input`` (radians).",
                      samples=unary(-1.2, 1.2), primitive="Tan")
sinh = _float_function("sinh", jnp.sinh, np.sinh, "Return the hyperbolic sine of ``input``.", primitive="Sinh")
cosh = _float_function("cosh", jnp.cosh, np.cosh, "Return the hyperbolic cosine of ``input``.", primitive="Cosh")


def _kernel_accepting(primitive):
    """The reader of an op that MindSpore 2.10 computes for float and complex Tensors alone: an Int or Bool Tensor
    is a TypeError (its CPU kernel's, as it infers an Int result there), not a Float32 result. BFloat16 computes,
    as on MindSpore's other devices."""
    return accepting(_FLOATS + ("BFloat16", "Complex64", "Complex128"),
                     f"Select CPU operator[{primitive}] fail! Unsupported data type! The supported data types are "
                     "Float16, Float32, Float64, Complex64, Complex128, but got {got}.")


def _inverse_trig(name, compute, reference, doc, primitive, samples=unary(), aliases=(), argument="input",
                  kernel=None):
    """An inverse trigonometric entry: float and complex inputs only (``_kernel_accepting`` of its Primitive, or of
    ``kernel``, the Primitive MindSpore runs for it, when the entry has none)."""
    return _float_function(name, compute, reference, doc, samples=samples, primitive=primitive, aliases=aliases,
                           argument=argument, dtypes=FLOAT, accepts=_kernel_accepting(kernel or primitive))


asin = _inverse_trig("asin", jnp.arcsin, np.arcsin, "Return the arcsine of ``input``.", "Asin", samples=_UNIT)
acos = _inverse_trig("acos", jnp.arccos, np.arccos, "Return the arccosine of ``input``.", "ACos", samples=_UNIT,
                     aliases=("arccos",))
atan = _inverse_trig("atan", jnp.arctan, np.arctan, "Return the arctangent of ``input``.", "Atan", aliases=("arctan",))
asinh = _inverse_trig("asinh", jnp.arcsinh, np.arcsinh, "Return the inverse hyperbolic sine of ``input``.", "Asinh",
                      aliases=("arcsinh",))
acosh = _inverse_trig("acosh", jnp.arccosh, np.arccosh, "Return the inverse hyperbolic cosine of ``input``.", "Acosh",
                      samples=unary(1.1, 4.0), aliases=("arccosh",))
atanh = _inverse_trig("atanh", jnp.arctanh, np.arctanh, "Return the inverse hyperbolic tangent of ``input``.", "Atanh",
                      samples=_UNIT, aliases=("arctanh",))
arcsin = _inverse_trig("arcsin", jnp.arcsin, np.arcsin,
                       "Return the arcsine of ``x`` (``asin`` with MindSpore's ``x`` argument name).", None,
                       samples=_UNIT, argument="x", kernel="Asin")


arccos, arctan, arcsinh, arccosh, arctanh = acos, atan, asinh, acosh, atanh


erf = _float_function("erf", jax.scipy.special.erf, _erf_reference, "Return the Gauss error function of ``input``.",
                      primitive="Erf")
erfc = _float_function("erfc", jax.scipy.special.erfc, np.vectorize(math.erfc),
                       "Return the complementary error function ``1 - erf(input)``.", primitive="Erfc")
erfinv = _float_function("erfinv", jax.scipy.special.erfinv, _erfinv_reference,
                         "Return the inverse error function of ``input``.", samples=_UNIT, primitive="Erfinv")
lgamma = _float_function("lgamma", jax.scipy.special.gammaln, _lgamma_reference,
                         "Return the log of the absolute value of the gamma function of ``input``.",
                         samples=without(("bfloat16",), _POSITIVE), primitive="Lgamma", mint=False,
                         accepts=primitive_accepting("Lgamma", "x", _FLOATS + ("Int32",)))
digamma = _float_function("digamma", jax.scipy.special.digamma, _digamma_reference,
                          "Return the logarithmic derivative of the gamma function of ``input``.",
                          samples=without(("bfloat16",), _POSITIVE), primitive="Digamma", mint=False,
                          dtypes=FLOAT, accepts=primitive_accepting("Digamma", "input", _FLOATS))
# MindSpore 2.10's deg2rad/rad2deg check their input in Python, before any Primitive
_ANGLE_INPUT = accepting(_FLOATS, "The 'x' should be one of [mindspore.float16, mindspore.float32, mindspore.float64], "
                                  "but got 'mindspore.{lower}'.")
sinc = _float_function("sinc", jnp.sinc, np.sinc, "Return the normalized sinc ``sin(pi x) / (pi x)`` (1 at 0).",
                       primitive="Sinc")
deg2rad = _float_function("deg2rad", jnp.deg2rad, np.deg2rad, "Convert angles from degrees to radians.", mint=False,
                          argument="x", accepts=_ANGLE_INPUT, dtypes=FLOAT, samples=without(("bfloat16",), unary()))
rad2deg = _float_function("rad2deg", jnp.rad2deg, np.rad2deg, "Convert angles from radians to degrees.", mint=False,
                          argument="x", accepts=_ANGLE_INPUT, dtypes=FLOAT, samples=without(("bfloat16",), unary()))


# --- unary functions that keep the input dtype ------------------------------------------------
@jax.custom_jvp
def abs_array(array):
    return jnp.abs(array)


# The derivative of |x| is sign(x): 0 at 0, as in MindSpore (JAX's own rule gives 1 there).
abs_array.defjvp(lambda primals, tangents: (jnp.abs(primals[0]),
                                             jnp.sign(primals[0]) * tangents[0]))


@op(dtypes=ANY, primitive="Abs", method=("abs", "absolute"), mint="abs", aliases=("absolute",),
    position_wise=True, samples=unary(avoid=0.0), reference=np.abs)
def abs(input):
    "Return the absolute value of ``input``, element-wise (complex inputs keep their dtype, as MindSpore's Abs)."
    if input.dtype.kind == "c":
        return jnp.abs(input).astype(input.dtype)
    return abs_array(input) if input.dtype.kind in "fV" else jnp.abs(input)


absolute = abs


@op(dtypes=ANY, method="positive", position_wise=True, samples=unary(), reference=lambda input: input)
def positive(input):
    "Return ``input`` unchanged."
    return input


@op(dtypes=NUMBER, primitive="Neg", method=("neg", "negative"), mint=("neg", "negative"), aliases=("negative",),
    position_wise=True, samples=unary(), reference=np.negative)
def neg(input):
    "Return ``-input``, element-wise."
    return jnp.negative(input)


negative = neg


@op(dtypes=NUMBER, primitive="Square", method="square", mint="square", position_wise=True, samples=unary(),
    reference=np.square)
def square(input):
    "Return ``input * input``, element-wise."
    return jnp.square(input)


@op(dtypes=NUMBER, primitive="Sign", method=("sign", "sgn"), mint="sign", aliases=("sgn",), position_wise=True,
    samples=unary(avoid=0.0), reference=np.sign)
def sign(input):
    "Return -1, 0 or 1 by the sign of each element (0 for NaN-free zeros)."
    return jnp.sign(input)


sgn = sign


@op(dtypes=FLOAT, primitive="Ceil", method="ceil", mint="ceil", position_wise=True, samples=unary(avoid=_WHOLE),
    reference=np.ceil)
def ceil(input):
    "Round ``input`` up to the nearest integer, element-wise (float tensors only)."
    return jnp.ceil(input)


@op(dtypes=FLOAT, primitive="Floor", method="floor", mint="floor", position_wise=True,
    samples=unary(avoid=_WHOLE), reference=np.floor)
def floor(input):
    "Round ``input`` down to the nearest integer, element-wise (float tensors only)."
    return jnp.floor(input)


# ``Tensor.round(decimals)`` takes ``decimals`` by position: a Tensor method of its own.
@op(dtypes=ANY, primitive="Round", mint="round", position_wise=True, samples=unary(avoid=_HALVES),
    reference=lambda input, decimals=0: np.round(input, decimals))
def round(input, *, decimals=0):
    "Round ``input`` to ``decimals`` places, halves to even; integer tensors are unchanged."
    if input.dtype.kind in "biu":
        return input
    return jnp.round(input, decimals)


@op(mint=("trunc", spelling("fix", "input")), dtypes=ANY, primitive="Trunc", method="trunc", position_wise=True,
    samples=unary(avoid=_WHOLE), reference=np.trunc)
def trunc(input):
    "Round ``input`` toward zero, element-wise; integer tensors are unchanged."
    if input.dtype.kind in "biu":
        return input
    return jnp.trunc(input)


@op(inputs="x", dtypes=ANY, method="frac", mint=spelling("frac", "input", x="input"), position_wise=True,
    samples=unary(avoid=_WHOLE),
    reference=lambda x: x - np.trunc(x))
def frac(x):
    "Return the fractional part ``x - trunc(x)``, keeping the sign (zeros for integers; Int64 zeros for Bool)."
    if x.dtype == np.bool_:
        return jnp.zeros(x.shape, np.int64)
    if x.dtype.kind in "iu":
        return jnp.zeros_like(x)
    return x - jnp.trunc(x)


def _non_finite_samples(dtype):
    "Finite samples (the gradient is checked on them), then NaN and +-inf with explicit settings."
    samples = unary()(dtype)
    values = samples[1].arrays[0].copy()
    values[:3] = np.array([np.nan, np.inf, -np.inf]).astype(values.dtype)
    return samples + [Sample((values,), {"nan": 1.5, "posinf": 9.0, "neginf": -9.0}),
                      Sample((values,), {"nan": -2.0, "posinf": 3.0, "neginf": 0.5})]


@op(dtypes=ANY, primitive="NanToNum", primitive_attrs=("nan", "posinf", "neginf"),
    attribute_forms={"nan": FLOAT_NUMBER, "posinf": FLOAT_NUMBER, "neginf": FLOAT_NUMBER}, method="nan_to_num",
    mint="nan_to_num", position_wise=True, samples=_non_finite_samples,
    reference=lambda input, nan=None, posinf=None, neginf=None: np.nan_to_num(
        input, nan=0.0 if nan is None else nan, posinf=posinf, neginf=neginf))
def nan_to_num(input, nan=None, posinf=None, neginf=None):
    "Replace NaN by ``nan`` (0), +inf by ``posinf`` and -inf by ``neginf`` (the dtype's limits)."
    return jnp.nan_to_num(input, nan=0.0 if nan is None else nan, posinf=posinf, neginf=neginf)


def _logit_reference(input, eps=None):
    if eps is not None:
        input = np.clip(input, eps, 1 - eps)
    return np.log(input / (1 - input))


# ``ops.Logit(eps=-1.0)`` (a negative ``eps`` for none) stays a class of its own in math_linalg_ops.
@op(dtypes=TO_FLOAT, method="logit", position_wise=True, samples=with_settings(unary(0.05, 0.95), {"eps": 0.2}),
    reference=_logit_reference)
def logit(input, eps=None):
    "Return ``log(p / (1 - p))``; with ``eps``, ``p`` is first clamped to ``[eps, 1 - eps]``."
    if eps is not None:
        input = jnp.clip(input, eps, 1 - eps)
    return jnp.log(input / (1 - input))


def _mvlgamma_reference(input, p):
    terms = sum(_lgamma_reference(input - index / 2) for index in range(p))
    return terms + p * (p - 1) / 4 * np.log(np.pi)


@op(dtypes=FLOAT, primitive="Mvlgamma", primitive_attrs=("p",), method="mvlgamma", position_wise=True,
    samples=without(("float16", "bfloat16"), unary(1.6, 4.0, p=3)), reference=_mvlgamma_reference,
    input_dtypes={"input": primitive_accepting("Mvlgamma", "x", ("Float32", "Float64"))})
def mvlgamma(input, p):
    """Multivariate log-gamma of dimension ``p``: ``sum_i lgamma(x - i / 2) + p (p - 1) / 4 log(pi)``.

    Every element must be greater than ``(p - 1) / 2``.
    """
    if isinstance(p, bool) or not isinstance(p, int) or p < 1:
        raise ValueError(f"For 'mvlgamma', 'p' must be a positive int, but got {p!r}.")
    offsets = jnp.arange(p, dtype=input.dtype) / 2
    terms = jax.scipy.special.gammaln(input[..., None] - offsets)
    return (jnp.sum(terms, -1) + p * (p - 1) / 4 * jnp.log(jnp.pi)).astype(input.dtype)
