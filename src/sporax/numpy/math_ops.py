"""Element-wise math of ``mindspore.numpy``: the unary and binary ufuncs, rows onto ``jax.numpy``."""
import jax.numpy as jnp

from sporax.numpy.dispatch import cast, table
from sporax.ops.functional.math import exp2_array

_UNARY = {
    "abs": jnp.abs, "absolute": jnp.absolute, "arccosh": jnp.arccosh, "arcsin": jnp.arcsin, "arcsinh": jnp.arcsinh,
    "arctan": jnp.arctan, "arctanh": jnp.arctanh, "bitwise_not": jnp.bitwise_not, "cbrt": jnp.cbrt,
    "ceil": jnp.ceil, "cos": jnp.cos, "cosh": jnp.cosh, "deg2rad": jnp.deg2rad, "exp": jnp.exp, "exp2": exp2_array,
    "expm1": jnp.expm1, "fabs": jnp.fabs, "floor": jnp.floor, "invert": jnp.invert, "isfinite": jnp.isfinite,
    "isinf": jnp.isinf, "isnan": jnp.isnan, "log": jnp.log, "log10": jnp.log10, "log1p": jnp.log1p,
    "log2": jnp.log2, "rad2deg": jnp.rad2deg, "radians": jnp.radians, "reciprocal": jnp.reciprocal,
    "rint": jnp.rint, "signbit": jnp.signbit, "sin": jnp.sin, "sinh": jnp.sinh,
    "sqrt": jnp.sqrt, "square": jnp.square, "tan": jnp.tan, "tanh": jnp.tanh, "trunc": jnp.trunc,
}

_BINARY = {
    "add": jnp.add, "arctan2": jnp.arctan2, "bitwise_and": jnp.bitwise_and, "bitwise_or": jnp.bitwise_or,
    "bitwise_xor": jnp.bitwise_xor, "divide": jnp.divide, "divmod": jnp.divmod,
    "equal": jnp.equal, "float_power": jnp.float_power, "floor_divide": jnp.floor_divide, "fmod": jnp.fmod,
    "gcd": jnp.gcd, "greater": jnp.greater, "greater_equal": jnp.greater_equal, "heaviside": jnp.heaviside,
    "hypot": jnp.hypot, "lcm": jnp.lcm, "less": jnp.less, "less_equal": jnp.less_equal,
    "logaddexp": jnp.logaddexp, "logaddexp2": jnp.logaddexp2, "logical_and": jnp.logical_and,
    "logical_or": jnp.logical_or, "logical_xor": jnp.logical_xor, "matmul": jnp.matmul, "maximum": jnp.maximum,
    "minimum": jnp.minimum, "mod": jnp.mod, "multiply": jnp.multiply, "not_equal": jnp.not_equal,
    "power": jnp.power, "remainder": jnp.remainder, "subtract": jnp.subtract, "true_divide": jnp.true_divide,
}


def _unary(function):
    return lambda x, dtype: cast(function(x), dtype)


def _binary(function):
    return lambda x1, x2, dtype: cast(function(x1, x2), dtype)


def _float_power(x1, x2, dtype):
    # NumPy computes float_power in float64; MindSpore keeps Float32 for Float32 inputs.
    result_type = jnp.promote_types(jnp.result_type(x1, x2), jnp.float32)
    return cast(jnp.power(x1.astype(result_type), x2.astype(result_type)), dtype)


def _copysign(x1, x2, dtype):
    # MindSpore keeps an integer x1's dtype (NumPy would go to floats).
    if x1.dtype.kind in "iu":
        return cast(jnp.where(jnp.signbit(x2), -jnp.abs(x1), jnp.abs(x1)).astype(x1.dtype), dtype)
    return cast(jnp.copysign(x1, x2), dtype)


def _sign(x, dtype):
    # MindSpore's sign of an Int tensor is Float32.
    return cast(jnp.sign(x).astype(jnp.float32) if x.dtype.kind in "iu" else jnp.sign(x), dtype)


_ROWS = ([(name, "(x, dtype=None)", _unary(function), "x") for name, function in _UNARY.items()]
         + [(name, "(x1, x2, dtype=None)", _binary(function), "x1 x2") for name, function in _BINARY.items()
            if name != "float_power"]
         + [("float_power", "(x1, x2, dtype=None)", _float_power, "x1 x2"),
            ("sign", "(x, dtype=None)", _sign, "x"),
            ("copysign", "(x1, x2, dtype=None)", _copysign, "x1 x2"),
            ("arccos", "(input, dtype=None)", lambda input, dtype: cast(jnp.arccos(input), dtype), "input"),
            ("negative", "(a, dtype=None)", lambda a, dtype: cast(jnp.negative(a), dtype), "a"),
            ("positive", "(a, dtype=None)", lambda a, dtype: cast(jnp.positive(a), dtype), "a"),
            ("logical_not", "(a, dtype=None)", lambda a, dtype: cast(jnp.logical_not(a), dtype), "a"),
            ("fix", "(x)", lambda x: jnp.trunc(x) if x.dtype.kind == "f" else x.astype(jnp.float32), "x"),
            ("isneginf", "(x)", lambda x: jnp.isneginf(x), "x"),
            ("isposinf", "(x)", lambda x: jnp.isposinf(x), "x"),
            ("around", "(a, decimals=0)", lambda a, decimals: jnp.round(a, decimals), "a"),
            ("round", "(a, decimals=0)", lambda a, decimals: jnp.round(a, decimals), "a"),
            ("clip", "(x, xmin, xmax, dtype=None)", lambda x, xmin, xmax, dtype: cast(jnp.clip(x, xmin, xmax), dtype),
             "x")])

__all__ = table(_ROWS, globals())
