"""Element-wise functions of sparse tensors: ``ops.coo_abs`` ... ``ops.csr_tanh``.

Each applies the dense function to the stored values and keeps the sparsity structure (so, as in
MindSpore, ``coo_exp`` does not fill the implicit zeros with ``exp(0)``). Integer values become
Float32 for the floating-point functions; the ``is*`` predicates give Bool values.
"""
import jax
import jax.numpy as jnp

from sporax.core.sparse import COOTensor
from sporax.core.sparse_csr import CSRTensor


def _floating(function):
    def on_values(values):
        if not jnp.issubdtype(values.dtype, jnp.inexact):
            values = values.astype(jnp.float32)
        return function(values)

    return on_values


def _relu6(values):
    return jnp.clip(values, 0, 6).astype(values.dtype)


def _softsign(values):
    return values / (1 + jnp.abs(values))


_FUNCTIONS = {
    "abs": jnp.abs, "acos": _floating(jnp.arccos), "acosh": _floating(jnp.arccosh), "asin": _floating(jnp.arcsin),
    "asinh": _floating(jnp.arcsinh), "atan": _floating(jnp.arctan), "atanh": _floating(jnp.arctanh),
    "ceil": jnp.ceil, "cos": _floating(jnp.cos), "cosh": _floating(jnp.cosh), "exp": _floating(jnp.exp),
    "expm1": _floating(jnp.expm1), "floor": jnp.floor, "inv": _floating(jnp.reciprocal), "isfinite": jnp.isfinite,
    "isinf": jnp.isinf, "isnan": jnp.isnan, "log": _floating(jnp.log), "log1p": _floating(jnp.log1p),
    "neg": jnp.negative, "relu": jax.nn.relu, "relu6": _relu6, "round": jnp.round,
    "sigmoid": _floating(jax.nn.sigmoid), "sin": _floating(jnp.sin), "sinh": _floating(jnp.sinh),
    "softsign": _floating(_softsign), "sqrt": _floating(jnp.sqrt), "square": jnp.square, "tan": _floating(jnp.tan),
    "tanh": _floating(jnp.tanh),
}


def _elementwise(prefix, cls, name):
    function = _FUNCTIONS[name]
    op_name = f"{prefix}_{name}"

    def op(x):
        if not isinstance(x, cls):
            raise TypeError(f"For '{op_name}', 'x' must be a {cls.__name__}, but got {type(x).__name__}.")
        return x._with_values(function(x.values._value))

    op.__name__ = op.__qualname__ = op_name
    op.__doc__ = f"``{name}`` of the stored values of a {cls.__name__}; the structure is kept."
    return op


coo_abs = _elementwise("coo", COOTensor, "abs")
coo_acos = _elementwise("coo", COOTensor, "acos")
coo_acosh = _elementwise("coo", COOTensor, "acosh")
coo_asin = _elementwise("coo", COOTensor, "asin")
coo_asinh = _elementwise("coo", COOTensor, "asinh")
coo_atan = _elementwise("coo", COOTensor, "atan")
coo_atanh = _elementwise("coo", COOTensor, "atanh")
coo_ceil = _elementwise("coo", COOTensor, "ceil")
coo_cos = _elementwise("coo", COOTensor, "cos")
coo_cosh = _elementwise("coo", COOTensor, "cosh")
coo_exp = _elementwise("coo", COOTensor, "exp")
coo_expm1 = _elementwise("coo", COOTensor, "expm1")
coo_floor = _elementwise("coo", COOTensor, "floor")
coo_inv = _elementwise("coo", COOTensor, "inv")
coo_isfinite = _elementwise("coo", COOTensor, "isfinite")
coo_isinf = _elementwise("coo", COOTensor, "isinf")
coo_isnan = _elementwise("coo", COOTensor, "isnan")
coo_log = _elementwise("coo", COOTensor, "log")
coo_log1p = _elementwise("coo", COOTensor, "log1p")
coo_neg = _elementwise("coo", COOTensor, "neg")
coo_relu = _elementwise("coo", COOTensor, "relu")
coo_relu6 = _elementwise("coo", COOTensor, "relu6")
coo_round = _elementwise("coo", COOTensor, "round")
coo_sigmoid = _elementwise("coo", COOTensor, "sigmoid")
coo_sin = _elementwise("coo", COOTensor, "sin")
coo_sinh = _elementwise("coo", COOTensor, "sinh")
coo_softsign = _elementwise("coo", COOTensor, "softsign")
coo_sqrt = _elementwise("coo", COOTensor, "sqrt")
coo_square = _elementwise("coo", COOTensor, "square")
coo_tan = _elementwise("coo", COOTensor, "tan")
coo_tanh = _elementwise("coo", COOTensor, "tanh")

csr_abs = _elementwise("csr", CSRTensor, "abs")
csr_acos = _elementwise("csr", CSRTensor, "acos")
csr_acosh = _elementwise("csr", CSRTensor, "acosh")
csr_asin = _elementwise("csr", CSRTensor, "asin")
csr_asinh = _elementwise("csr", CSRTensor, "asinh")
csr_atan = _elementwise("csr", CSRTensor, "atan")
csr_atanh = _elementwise("csr", CSRTensor, "atanh")
csr_ceil = _elementwise("csr", CSRTensor, "ceil")
csr_cos = _elementwise("csr", CSRTensor, "cos")
csr_cosh = _elementwise("csr", CSRTensor, "cosh")
csr_exp = _elementwise("csr", CSRTensor, "exp")
csr_expm1 = _elementwise("csr", CSRTensor, "expm1")
csr_floor = _elementwise("csr", CSRTensor, "floor")
csr_inv = _elementwise("csr", CSRTensor, "inv")
csr_isfinite = _elementwise("csr", CSRTensor, "isfinite")
csr_isinf = _elementwise("csr", CSRTensor, "isinf")
csr_isnan = _elementwise("csr", CSRTensor, "isnan")
csr_log = _elementwise("csr", CSRTensor, "log")
csr_log1p = _elementwise("csr", CSRTensor, "log1p")
csr_neg = _elementwise("csr", CSRTensor, "neg")
csr_relu = _elementwise("csr", CSRTensor, "relu")
csr_relu6 = _elementwise("csr", CSRTensor, "relu6")
csr_round = _elementwise("csr", CSRTensor, "round")
csr_sigmoid = _elementwise("csr", CSRTensor, "sigmoid")
csr_sin = _elementwise("csr", CSRTensor, "sin")
csr_sinh = _elementwise("csr", CSRTensor, "sinh")
csr_softsign = _elementwise("csr", CSRTensor, "softsign")
csr_sqrt = _elementwise("csr", CSRTensor, "sqrt")
csr_square = _elementwise("csr", CSRTensor, "square")
csr_tan = _elementwise("csr", CSRTensor, "tan")
csr_tanh = _elementwise("csr", CSRTensor, "tanh")
