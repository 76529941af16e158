"""Spread statistics: ``ops.var``, ``ops.std``, ``ops.var_mean``, ``ops.std_mean`` (their ``mint`` spellings too).

Both divisions of a variance (the mean, then the sum of squares by ``count - ddof``) are rounded once, as NumPy
and MindSpore's CPU kernels divide. Integer input is computed as Float32 (rule ``TO_FLOAT``). Each op is one
op-table entry; the axis rules and means are the reductions' (``reduce.py``).

Example:
    >>> from sporax import Tensor, ops
    >>> ops.var(Tensor([[1.0, 2.0], [3.0, 5.0]]), axis=1)
    Tensor(shape=[2], dtype=Float32, value= [ 2.50000000e-01,  1.00000000e+00])
"""
import builtins

import jax.numpy as jnp
import numpy as np

from sporax.ops.functional.reduce import _axes, _mean_array, _numpy_axis, divide_exactly
from sporax.ops.op_table import TO_FLOAT, op, spelling
from sporax.ops.samples import reduction

def _numpy_spread(function):
    def reference(input, axis=None, ddof=0, keepdims=False):
        return function(input, _numpy_axis(axis), ddof=ddof, keepdims=keepdims)
    return reference


def _numpy_spread_mean(function):
    def reference(input, axis=None, ddof=0, keepdims=False):
        axis = _numpy_axis(axis)
        return function(input, axis, ddof=ddof, keepdims=keepdims), np.mean(input, axis, keepdims=keepdims)
    return reference


def _spread_spelling(name):
    """mint's spelling of a spread (``mint.var(input, dim, *, correction, keepdim)``)."""
    return spelling(name, "input, dim=None, *, correction=1, keepdim=False", axis="dim", ddof="correction",
                    keepdims="keepdim")


@op(mint=_spread_spelling("var"), dtypes=TO_FLOAT,
    samples=reduction(keep="keepdims", ddof=1), reference=_numpy_spread(np.var))
def var(input, axis=None, ddof=0, keepdims=False):
    """Variance of ``input`` over ``axis`` with ``ddof`` delta degrees of freedom."""
    return _spread(input, _axes("var", axis, input.ndim), ddof, keepdims)


def _spread(input, axes, ddof, keepdims, root=False):
    """Variance (``root``: standard deviation) with both divisions rounded once, as NumPy and MindSpore's CPU
    kernels divide (XLA would multiply by the rounded reciprocal of the count: 39.850002 for 39.85)."""
    if input.dtype.kind != "f":
        spread = jnp.var(input, axes, ddof=ddof, keepdims=keepdims)
        return jnp.sqrt(spread) if root else spread
    array = input.astype(np.promote_types(input.dtype, np.float32))  # jnp.var's Float16 accumulator
    count = int(np.prod([array.shape[a] for a in (range(array.ndim) if axes is None else axes)], dtype=np.int64))
    centered = array - divide_exactly(jnp.sum(array, axes, keepdims=True), count)
    spread = divide_exactly(jnp.sum(centered * centered, axes, keepdims=keepdims), builtins.max(count - ddof, 0))
    return (jnp.sqrt(spread) if root else spread).astype(input.dtype)


@op(mint=_spread_spelling("std"), dtypes=TO_FLOAT,
    samples=reduction(keep="keepdims", ddof=1), reference=_numpy_spread(np.std))
def std(input, axis=None, ddof=0, keepdims=False):
    """Standard deviation of ``input`` over ``axis`` with ``ddof`` delta degrees of freedom."""
    return _spread(input, _axes("std", axis, input.ndim), ddof, keepdims, root=True)


def _spread_and_mean(name, root, input, axis, ddof, keepdims):
    axes = _axes(name, axis, input.ndim)
    return _spread(input, axes, ddof, keepdims, root), _mean_array(input, axes, keepdims)


@op(mint=_spread_spelling("var_mean"), dtypes=TO_FLOAT, method="var_mean", grad_check=False,
    samples=reduction(keep="keepdims"), reference=_numpy_spread_mean(np.var))
def var_mean(input, axis=None, ddof=0, keepdims=False):
    """Return ``(variance, mean)`` of ``input`` over ``axis``."""
    return _spread_and_mean("var_mean", False, input, axis, ddof, keepdims)


@op(mint=_spread_spelling("std_mean"), dtypes=TO_FLOAT, method="std_mean", grad_check=False,
    samples=reduction(keep="keepdims"), reference=_numpy_spread_mean(np.std))
def std_mean(input, axis=None, ddof=0, keepdims=False):
    """Return ``(standard deviation, mean)`` of ``input`` over ``axis``."""
    return _spread_and_mean("std_mean", True, input, axis, ddof, keepdims)
