"""Quotients and remainders rounded as MindSpore 2.10's CPU kernels round them.

XLA may turn a division by a broadcast divisor into a multiplication by its reciprocal and fuse ``x - a * b`` into one
multiply-add; MindSpore does neither. These kernels keep each quotient and product rounded once, in MindSpore's
order, and give Bool results where its FloorDiv/Mod do. ``arithmetic.py``'s division entries are built on them.
"""
import jax
import jax.numpy as jnp
import numpy as np


def is_bool(value):
    return getattr(value, "dtype", None) == np.bool_ or isinstance(value, bool)


def _bool_preserving(function):
    """``function`` on Bool operands gives Bool, as MindSpore's FloorDiv/Mod do (NumPy gives Int)."""

    def apply(a, b):
        result = function(a, b)
        return result.astype(np.bool_) if is_bool(a) and is_bool(b) else result

    apply.__name__ = function.__name__
    return apply


def _float_operands(a, b):
    """The real floating dtype ``a`` and ``b`` promote to, or None (integers, Bool and complex keep jnp's kernels)."""
    dtype = jnp.result_type(a, b)
    return dtype if dtype.kind == "f" else None


def _floor_quotient(a, b):
    """``floor(a / b)``. A float quotient is taken in the next wider dtype (Float64 for Float32, Float32 for
    Float16) and floored there, as MindSpore 2.10's CPU FloorDiv: ``1 // 0.1`` is 9, ``inf // 2`` inf, and a zero
    has the quotient's sign (``-0.0 // -2`` is 0.0). A complex quotient floors its real part and drops the
    imaginary one (jnp.floor_divide refuses complex operands)."""
    if jnp.iscomplexobj(a) or jnp.iscomplexobj(b):
        quotient = jnp.true_divide(a, b)
        return jnp.floor(quotient.real).astype(quotient.dtype)
    dtype = _float_operands(a, b)
    if dtype is None:
        return jnp.floor_divide(a, b)
    wide = np.float64 if dtype.itemsize >= 4 and jax.config.jax_enable_x64 else np.float32
    a, b = (jnp.asarray(value).astype(dtype).astype(wide) for value in (a, b))
    return jnp.floor(_exact_quotient(a, b)).astype(dtype)


def _exact_quotient(a, b):
    """``a / b`` rounded once: the divisor, broadcast, goes behind an optimization barrier so that XLA cannot turn the
    division by a scalar or a row into a multiplication by its reciprocal (``6 / 3`` could floor to 1)."""
    a, b = jnp.broadcast_arrays(a, b)
    return a / jax.lax.optimization_barrier(b)


def _floor_remainder(a, b):
    """``a - floor(a / b) * b`` in the operands' dtype, the quotient ``_floor_quotient``'s, as MindSpore 2.10's
    FloorMod: a zero remainder is 0.0 (never -0.0), ``1 % inf`` is NaN, ``1 % 0.1`` 0.09999996 in Float32."""
    dtype = _float_operands(a, b)
    if dtype is None or jnp.iscomplexobj(a) or jnp.iscomplexobj(b):
        if jnp.iscomplexobj(a) or jnp.iscomplexobj(b):
            return a - b * _floor_quotient(a, b)
        return jnp.remainder(a, b)
    a, b = jnp.asarray(a).astype(dtype), jnp.asarray(b).astype(dtype)
    return a - _rounded_product(_floor_quotient(a, b), b)


def _truncated_remainder(a, b):
    """``a - trunc(a / b) * b``, every step in the operands' dtype, as MindSpore 2.10's Mod (``ops.fmod``): a zero
    remainder is 0.0 and ``1 fmod inf`` NaN (C's fmod, ``truncate_mod``'s kernel, gives -0.0 and 1)."""
    dtype = _float_operands(a, b)
    if dtype is None or jnp.iscomplexobj(a) or jnp.iscomplexobj(b):
        return jnp.fmod(a, b)
    a, b = jnp.asarray(a).astype(dtype), jnp.asarray(b).astype(dtype)
    return a - _rounded_product(jnp.trunc(single_rounding_quotient(a, b)), b)


def _rounded_product(a, b):
    """``a * b`` rounded to its dtype before it is used. XLA's CPU backend fuses ``x - a * b`` into one fused
    multiply-add (optimization barriers and conversions do not stop it), but MindSpore's remainders round the
    product first (Float32 ``1 % 0.1`` is 0.09999996 there; fused, 0.09999999). A select between the product
    and a value equal to it (``p + p`` is taken only for NaN) stands between the multiplication and the
    subtraction, so they are not fused."""
    product = a * b
    return jnp.where(product == product, product, product + product)


floor_division = _bool_preserving(_floor_quotient)
floor_modulo = _bool_preserving(_floor_remainder)
truncated_modulo = _bool_preserving(_truncated_remainder)
c_modulo = _bool_preserving(jnp.fmod)


def truncating_quotient(a, b):
    dtype = a.dtype if hasattr(a, "dtype") else b.dtype
    if dtype.kind in "iu":
        a, b = jnp.asarray(a, dtype), jnp.asarray(b, dtype)
        return jax.lax.div(*jnp.broadcast_arrays(a, b))  # integer division rounds toward zero
    return jnp.trunc(jnp.true_divide(a, b))


def single_rounding_quotient(x, y):
    """``x / y`` rounded once, as MindSpore's kernels divide. XLA rewrites a division by a broadcast divisor (a
    scalar, a per-channel row), or by a compiled constant (GRAPH_MODE's ``loss / 3.0``), into a multiplication
    by its rounded reciprocal, which MindSpore 2.10 does not: Float32 x / 3.3 differed from it in 18% of the
    elements, Float16 in 10% (recorded, both modes), and 7.0 / 3.0 gave 2.3333335. Such a quotient (and any
    single-element one) is taken in Float64 and rounded back, which is exact for Float32 and narrower."""
    quotient = jnp.true_divide(x, y)
    if (quotient.dtype.kind != "f" or quotient.dtype.itemsize >= 8 or np.size(y) >= quotient.size > 1
            or not jax.config.jax_enable_x64):
        return quotient
    # each operand first in the quotient's dtype, as the division sees it (a Python 3.3 is Float16 3.3008 there)
    x, y = (jnp.asarray(value).astype(quotient.dtype).astype(np.float64) for value in (x, y))
    return jnp.true_divide(x, y).astype(quotient.dtype)
