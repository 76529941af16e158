"""Bessel functions and the other special functions of ``mindspore.ops``: ``bessel_j0`` ... ``igamma``, ``i0``.

Contract: each op takes a float Tensor (Float16 runs in Float32 and is cast back; integer input is
a TypeError, as in MindSpore) and returns the element-wise value in the input's dtype.

Algorithm: I0/I1 (and their scaled forms) come from ``jax.scipy.special``. J0, J1, Y0, Y1 use the
rational approximations of Numerical Recipes (Hart's coefficients): a rational function of ``x**2``
below 8 and the Hankel asymptotic form with polynomial corrections above; K0, K1 use the
polynomial approximations of Abramowitz & Stegun 9.8.5-9.8.8. All are accurate to about 1e-7
relative (absolute near the zeros of J and Y), i.e. to Float32 precision, and differentiable by JAX.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> print(ops.bessel_j0(Tensor(np.array([0.0], np.float32))))
    [1.]
"""
import functools

import jax

import jax.numpy as jnp
import jax.scipy.special as special
import numpy as np

from sporax.ops._dispatch import array_of, describe, wrap
from sporax.ops.face_inputs import primitive_accepting
from sporax.ops.functional.arithmetic import one_dtype
from sporax.ops.op_table import FLOAT, Sample, function_op, op
from sporax.ops.samples import unary, values as _sample_values

_TWO_OVER_PI = 0.636619772


def _scipy_reference(name):
    """SciPy's ``scipy.special.<name>``, the op test table's reference, imported when the table calls it: importing
    scipy.special at ``import sporax`` costs every process 0.4 s and more (it imports numpy.f2py)."""

    def reference(*arrays, **settings):
        import scipy.special  # SciPy ships with JAX

        return getattr(scipy.special, name)(*arrays, **settings)

    reference.__name__ = name
    return reference
_BOTH_SIGNS = unary(-6.0, 6.0)  # the I functions are defined for negative x too


def _polynomial(y, coefficients):
    """``c0 + y * (c1 + y * (c2 + ...))``."""
    result = jnp.full_like(y, coefficients[-1])
    for coefficient in reversed(coefficients[:-1]):
        result = result * y + coefficient
    return result


def _unary(op_name, kernel, doc, primitive, samples=unary(0.2, 10.0), input="x", method=None):
    """Declare the entry ``op_name``: ``kernel`` of a float ``x`` (Float16/BFloat16 computed in Float32,
    cast back; integers refused), Primitive ``primitive``, checked against SciPy's function of the name."""

    def in_working_precision(array):
        return kernel(array.astype(jnp.float32) if array.dtype.itemsize < 4 else array).astype(array.dtype)

    full_doc = (f"{doc}\n\n    Args:\n        {input} (Tensor): a float Tensor.\n\n    Returns:\n"
                f"        Tensor of ``{input}``'s shape and dtype.\n\n    Example:\n"
                f"        >>> import numpy as np\n        >>> from sporax import Tensor, ops\n"
                f"        >>> ops.{op_name}(Tensor(np.array([1.0], np.float32))).shape\n        (1,)\n")
    return function_op(op_name, in_working_precision, full_doc, module=__name__, inputs=input, dtypes=FLOAT,
                       primitive=primitive, method=method, samples=samples,
                       reference=_scipy_reference(op_name.replace("bessel_", "")))


_J0_NUM = (57568490574.0, -13362590354.0, 651619640.7, -11214424.18, 77392.33017, -184.9052456)
_J0_DEN = (57568490411.0, 1029532985.0, 9494680.718, 59272.64853, 267.8532712, 1.0)
_J1_NUM = (72362614232.0, -7895059235.0, 242396853.1, -2972611.439, 15704.48260, -30.16036606)
_J1_DEN = (144725228442.0, 2300535178.0, 18583304.74, 99447.43394, 376.9991397, 1.0)
_Y0_NUM = (-2957821389.0, 7062834065.0, -512359803.6, 10879881.29, -86327.92757, 228.4622733)
_Y0_DEN = (40076544269.0, 745249964.8, 7189466.438, 47447.26470, 226.1030244, 1.0)
_Y1_NUM = (-0.4900604943e13, 0.1275274390e13, -0.5153438139e11, 0.7349264551e9, -0.4237922726e7,
           0.8511937935e4)
_Y1_DEN = (0.2499580570e14, 0.4244419664e12, 0.3733650367e10, 0.2245904002e8, 0.1020426050e6,
           0.3549632885e3, 1.0)
# Hankel asymptotic corrections P and Q for order 0 and order 1 (argument z = 8 / x, y = z**2).
_P0 = (1.0, -0.1098628627e-2, 0.2734510407e-4, -0.2073370639e-5, 0.2093887211e-6)
_Q0 = (-0.1562499995e-1, 0.1430488765e-3, -0.6911147651e-5, 0.7621095161e-6, -0.934935152e-7)
_P1 = (1.0, 0.183105e-2, -0.3516396496e-4, 0.2457520174e-5, -0.240337019e-6)
_Q1 = (0.04687499995, -0.2002690873e-3, 0.8449199096e-5, -0.88228987e-6, 0.105787412e-6)


def _hankel(ax, phase, p, q, sine):
    """The large-argument form ``sqrt(2/(pi x)) * (cos|sin)(x - phase) ...`` (x >= 8)."""
    safe = jnp.maximum(ax, 8.0)
    z = 8.0 / safe
    y = z * z
    shifted = safe - phase
    scale = jnp.sqrt(_TWO_OVER_PI / safe)
    if sine:
        return scale * (jnp.sin(shifted) * _polynomial(y, p) + z * jnp.cos(shifted) * _polynomial(y, q))
    return scale * (jnp.cos(shifted) * _polynomial(y, p) - z * jnp.sin(shifted) * _polynomial(y, q))


def _j0(x):
    ax = jnp.abs(x)
    small = jnp.minimum(ax, 8.0)
    y = small * small
    near = _polynomial(y, _J0_NUM) / _polynomial(y, _J0_DEN)
    return jnp.where(ax < 8.0, near, _hankel(ax, 0.785398164, _P0, _Q0, False))


def _j1(x):
    ax = jnp.abs(x)
    small = jnp.minimum(ax, 8.0)
    y = small * small
    near = small * _polynomial(y, _J1_NUM) / _polynomial(y, _J1_DEN)
    value = jnp.where(ax < 8.0, near, _hankel(ax, 2.356194491, _P1, _Q1, False))
    return jnp.where(x < 0, -value, value)


def _y0(x):
    small = jnp.clip(x, 1e-30, 8.0)
    y = small * small
    near = _polynomial(y, _Y0_NUM) / _polynomial(y, _Y0_DEN) + _TWO_OVER_PI * _j0(small) * jnp.log(small)
    value = jnp.where(x < 8.0, near, _hankel(x, 0.785398164, _P0, _Q0, True))
    return jnp.where(x <= 0, -jnp.inf, value)


def _y1(x):
    small = jnp.clip(x, 1e-30, 8.0)
    y = small * small
    near = (small * _polynomial(y, _Y1_NUM) / _polynomial(y, _Y1_DEN)
            + _TWO_OVER_PI * (_j1(small) * jnp.log(small) - 1.0 / small))
    value = jnp.where(x < 8.0, near, _hankel(x, 2.356194491, _P1, _Q1, True))
    # MindSpore 2.10 (CPU) gives -inf below 0 and nan at 0 for Y1.
    return jnp.where(x < 0, -jnp.inf, jnp.where(x == 0, jnp.nan, value))


# Abramowitz & Stegun 9.8.5-9.8.8: small-argument series (x <= 2) and scaled large-argument forms.
_K0_SMALL = (-0.57721566, 0.42278420, 0.23069756, 0.03488590, 0.00262698, 0.00010750, 0.0000074)
_K0_LARGE = (1.25331414, -0.07832358, 0.02189568, -0.01062446, 0.00587872, -0.00251540, 0.00053208)
_K1_SMALL = (1.0, 0.15443144, -0.67278579, -0.18156897, -0.01919402, -0.00110404, -0.00004686)
_K1_LARGE = (1.25331414, 0.23498619, -0.03655620, 0.01504268, -0.00780353, 0.00325614, -0.00068245)


def _k_scaled(x, order):
    """``exp(x) * K_order(x)`` for x > 0 (inf at and below 0, as MindSpore)."""
    small = jnp.clip(x, 1e-30, 2.0)
    large = jnp.maximum(x, 2.0)
    y = small * small / 4.0
    if order == 0:
        near = -jnp.log(small / 2.0) * special.i0(small) + _polynomial(y, _K0_SMALL)
        far = _polynomial(2.0 / large, _K0_LARGE) / jnp.sqrt(large)
    else:
        near = jnp.log(small / 2.0) * special.i1(small) + _polynomial(y, _K1_SMALL) / small
        far = _polynomial(2.0 / large, _K1_LARGE) / jnp.sqrt(large)
    value = jnp.where(x <= 2.0, near * jnp.exp(small), far)
    return jnp.where(x <= 0, jnp.inf, value)


def _k(x, order):
    return _k_scaled(x, order) * jnp.exp(-jnp.maximum(x, 0))


bessel_j0 = _unary("bessel_j0", _j0, "Bessel function of the first kind of order 0, element-wise.", "BesselJ0")
bessel_j1 = _unary("bessel_j1", _j1, "Bessel function of the first kind of order 1, element-wise.", "BesselJ1")
bessel_y0 = _unary("bessel_y0", _y0, "Bessel function of the second kind of order 0 (-inf at and below 0).",
                   "BesselY0")
bessel_y1 = _unary("bessel_y1", _y1, "Bessel function of the second kind of order 1 (-inf below 0, nan at 0).",
                   "BesselY1")
@jax.custom_jvp
def _i0(x):
    return special.i0(x)


# I0' = I1, so 0 at 0 (MindSpore's); JAX's rule, through exp(|x|) * i0e(x), gives 1 there.
_i0.defjvps(lambda tangent, _, x: special.i1(x) * tangent)


bessel_i0 = _unary("bessel_i0", _i0, "Modified Bessel function of the first kind of order 0.", "BesselI0",
                   _BOTH_SIGNS)
bessel_i0e = _unary("bessel_i0e", special.i0e, "Exponentially scaled ``exp(-|x|) * I0(x)``.", "BesselI0e",
                    _BOTH_SIGNS)
bessel_i1 = _unary("bessel_i1", special.i1, "Modified Bessel function of the first kind of order 1.", "BesselI1",
                   _BOTH_SIGNS)
bessel_i1e = _unary("bessel_i1e", special.i1e, "Exponentially scaled ``exp(-|x|) * I1(x)``.", "BesselI1e",
                    _BOTH_SIGNS)
bessel_k0 = _unary("bessel_k0", functools.partial(_k, order=0),
                   "Modified Bessel function of the second kind of order 0 (inf at and below 0).", "BesselK0")
bessel_k0e = _unary("bessel_k0e", functools.partial(_k_scaled, order=0), "Exponentially scaled ``exp(x) * K0(x)``.",
                    "BesselK0e")
bessel_k1 = _unary("bessel_k1", functools.partial(_k, order=1),
                   "Modified Bessel function of the second kind of order 1 (inf at and below 0).", "BesselK1")
bessel_k1e = _unary("bessel_k1e", functools.partial(_k_scaled, order=1), "Exponentially scaled ``exp(x) * K1(x)``.",
                    "BesselK1e")


i0 = _unary("i0", _i0, "Modified Bessel function of the first kind of order 0 (as ``bessel_i0``).", None,
           _BOTH_SIGNS, input="input", method="i0")


def _incomplete_gamma(name, function, reference, primitive, doc):
    """Declare ``name``: ``function(a, x)`` of two Float32/Float64 Tensors of one dtype (broadcast; Float32 beside
    Float64 is MindSpore 2.10's TypeError)."""
    same = one_dtype(primitive, name)

    def kernel(input, other):
        same(input, other)
        return function(input, other)

    kernel.__name__ = kernel.__qualname__ = name
    kernel.__doc__ = doc
    kernel.__module__ = __name__
    # MindSpore 2.10's Igamma/Igammac take Float32/Float64 alone (Float16: its TypeError)
    floats = ("Float32", "Float64")
    return op(inputs=("input", "other"), dtypes=FLOAT, primitive=primitive, method=name, grad_check=False,
              input_dtypes={"input": primitive_accepting(primitive, "a", floats),
                            "other": primitive_accepting(primitive, "x", floats)},
              samples=_gamma_pairs, reference=reference)(kernel)


def _gamma_pairs(dtype):
    """``a`` in [0.5, 4] and ``x`` in [0.1, 5], broadcast; one sample, Float32/Float64 only (MindSpore's Igamma
    kernels; each shape and dtype compiles XLA's long igamma, the table's slowest)."""
    if dtype not in ("float32", "float64"):
        return []
    return [Sample((_sample_values((3, 4), dtype, 0.5, 4.0), _sample_values((4,), dtype, 0.1, 5.0, seed=5)))]


igamma = _incomplete_gamma("igamma", special.gammainc, _scipy_reference("gammainc"), "Igamma", """Regularized lower incomplete
    gamma function ``P(input, other)``, element-wise (broadcast).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> a = Tensor(np.array([1.0], np.float32))
        >>> round(float(ops.igamma(a, a).asnumpy()[0]), 4)
        0.6321
    """)
igammac = _incomplete_gamma("igammac", special.gammaincc, _scipy_reference("gammaincc"), "Igammac", """Regularized upper
    incomplete gamma function ``Q(input, other) = 1 - P``, element-wise.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> a, x = Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([0.5, 3.0], np.float32))
        >>> (ops.igamma(a, x) + ops.igammac(a, x)).asnumpy().round(4).tolist()  # P + Q = 1
        [1.0, 1.0]
    """)


@jax.custom_jvp
def _betainc(a, b, x):
    return special.betainc(a, b, x)


# MindSpore's Betainc gradient reaches x only: a and b get zeros (recorded on MindSpore 2.10 CPU), where JAX's
# rule refuses them. dI/dx = x**(a-1) * (1-x)**(b-1) / B(a, b).
_betainc.defjvps(
    lambda tangent, _, a, b, x: jnp.zeros_like(tangent),
    lambda tangent, _, a, b, x: jnp.zeros_like(tangent),
    lambda tangent, _, a, b, x: tangent * jnp.exp(
        (a - 1) * jnp.log(x) + (b - 1) * jnp.log1p(-x) - special.betaln(a, b)))


def betainc(a, b, x):
    """Regularized incomplete beta function ``I_x(a, b)``, element-wise (same shapes and dtype).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor
        >>> from sporax.ops.functional.bessel import betainc
        >>> one = Tensor(np.array([1.0], np.float32))
        >>> round(float(betainc(one, one, Tensor(np.array([0.25], np.float32))).asnumpy()[0]), 4)
        0.25
    """
    arrays = [array_of("Betainc", name, value) for name, value in (("a", a), ("b", b), ("x", x))]
    if any(array.dtype.kind != "f" for array in arrays) or len({array.dtype for array in arrays}) != 1:
        raise TypeError("For 'Betainc', 'a', 'b' and 'x' must be float Tensors of one dtype (Float32 or "
                        f"Float64), but got {', '.join(describe(value) for value in (a, b, x))}.")
    if len({array.shape for array in arrays}) != 1:
        raise ValueError("For 'Betainc', 'a', 'b' and 'x' must have the same shape, but got "
                         f"{[array.shape for array in arrays]}.")
    return wrap(_betainc(*arrays))
