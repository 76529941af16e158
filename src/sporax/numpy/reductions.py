"""Reductions and scans of ``mindspore.numpy``: sums, extrema, means, spreads, cumulative ops."""
import jax.numpy as jnp
import numpy as np

from sporax.numpy.dispatch import exact, table


def _extremum(function):
    def reduce(a, axis, keepdims, initial, where):
        return function(a, axis, keepdims=keepdims, initial=initial, where=None if where is True else where)
    return reduce


def _sum(a, axis, dtype, keepdims, initial):
    if dtype is None and a.dtype.kind in "biu":
        # MindSpore sums Bool and Int tensors in Int64.
        return exact(jnp.sum(a, axis, np.int64, keepdims=keepdims, initial=initial))
    return jnp.sum(a, axis, dtype, keepdims=keepdims, initial=initial)


def _mean(a, axis, keepdims, dtype):
    # MindSpore's mean of an Int tensor keeps its dtype (the mean truncated).
    return jnp.mean(a, axis, dtype, keepdims=keepdims).astype(dtype or a.dtype)


def _floating(a, dtype):
    """Int and Bool inputs reduce in Float32 (MindSpore) where NumPy would use Float64."""
    return dtype if dtype is not None else (np.float32 if a.dtype.kind in "biu" else None)


def _nan(function):
    return lambda a, axis, dtype, keepdims: function(a, axis, dtype, keepdims=keepdims)


def _nan_spread(function):
    return lambda a, axis, dtype, ddof, keepdims: function(a, axis, dtype, ddof=ddof, keepdims=keepdims)


def _scan(function):
    def scan(a, axis, dtype):
        if dtype is None and a.dtype.kind == "b":
            dtype = np.int32
        return function(a, axis, dtype)
    return scan


def _average(x, axis, weights, returned):
    result = jnp.average(x, axis, weights, returned)
    if x.dtype.kind in "biu":
        result = tuple(r.astype(np.float32) for r in result) if returned else result.astype(np.float32)
    return result


_ROWS = [
    ("amax", "(a, axis=None, keepdims=False, initial=None, where=True)", _extremum(jnp.amax), "a"),
    ("amin", "(a, axis=None, keepdims=False, initial=None, where=True)", _extremum(jnp.amin), "a"),
    ("max", "(a, axis=None, keepdims=False, initial=None, where=True)", _extremum(jnp.max), "a"),
    ("min", "(a, axis=None, keepdims=False, initial=None, where=True)", _extremum(jnp.min), "a"),
    # MindSpore 2.10: argmax answers Int64, argmin Int32.
    ("argmax", "(a, axis=None)", lambda a, axis: exact(jnp.argmax(a, axis).astype(np.int64)), "a"),
    ("argmin", "(a, axis=None)", lambda a, axis: jnp.argmin(a, axis).astype(np.int32), "a"),
    ("sum", "(a, axis=None, dtype=None, keepdims=False, initial=None)", _sum, "a"),
    ("mean", "(a, axis=None, keepdims=False, dtype=None)", _mean, "a"),
    ("std", "(x, axis=None, ddof=0, keepdims=False)",
     lambda x, axis, ddof, keepdims: jnp.std(x, axis, _floating(x, None), ddof=ddof, keepdims=keepdims), "x"),
    ("var", "(x, axis=None, ddof=0, keepdims=False)",
     lambda x, axis, ddof, keepdims: jnp.var(x, axis, _floating(x, None), ddof=ddof, keepdims=keepdims), "x"),
    ("nanmax", "(a, axis=None, dtype=None, keepdims=False)",
     lambda a, axis, dtype, keepdims: jnp.nanmax(a, axis, keepdims=keepdims).astype(dtype or a.dtype), "a"),
    ("nanmin", "(a, axis=None, dtype=None, keepdims=False)",
     lambda a, axis, dtype, keepdims: jnp.nanmin(a, axis, keepdims=keepdims).astype(dtype or a.dtype), "a"),
    ("nansum", "(a, axis=None, dtype=None, keepdims=False)", _nan(jnp.nansum), "a"),
    ("nanmean", "(a, axis=None, dtype=None, keepdims=False)", _nan(jnp.nanmean), "a"),
    ("nanstd", "(a, axis=None, dtype=None, ddof=0, keepdims=False)", _nan_spread(jnp.nanstd), "a"),
    ("nanvar", "(a, axis=None, dtype=None, ddof=0, keepdims=False)", _nan_spread(jnp.nanvar), "a"),
    ("cumsum", "(a, axis=None, dtype=None)", _scan(jnp.cumsum), "a"),
    ("cumprod", "(a, axis=None, dtype=None)", _scan(jnp.cumprod), "a"),
    ("nancumsum", "(a, axis=None, dtype=None)", _scan(jnp.nancumsum), "a"),
    ("count_nonzero", "(x, axis=None, keepdims=False)",
     lambda x, axis, keepdims: jnp.count_nonzero(x, axis, keepdims=keepdims).astype(np.int32), "x"),
    ("ptp", "(x, axis=None, keepdims=False)", lambda x, axis, keepdims: jnp.ptp(x, axis, keepdims=keepdims), "x"),
    ("average", "(x, axis=None, weights=None, returned=False)", _average, "x weights"),
    ("sometrue", "(a, axis=None, keepdims=False)", lambda a, axis, keepdims: jnp.any(a, axis, keepdims=keepdims),
     "a"),
]

__all__ = table(_ROWS, globals())
