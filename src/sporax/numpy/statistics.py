"""Statistics, differences, histograms and polynomials of ``mindspore.numpy``."""

import jax.numpy as jnp
import numpy as np

from sporax.numpy.dispatch import table


def _float(array):
    return array.astype(np.float32) if array is not None and array.dtype.kind in "biu" else array


def _cov(m, y, rowvar, bias, ddof, fweights, aweights, dtype):
    result = jnp.cov(_float(m), _float(y), rowvar, bias, ddof, fweights, aweights)
    return result if dtype is None else result.astype(dtype)


def _corrcoef(x, y, rowvar, dtype):
    result = jnp.corrcoef(_float(x), _float(y), rowvar)
    return result if dtype is None else result.astype(dtype)


def _bins(bins):
    # Edges given as a Python sequence keep their own dtype (Int32 edges for ints), as MindSpore's do.
    return jnp.asarray(bins, np.float32 if any(isinstance(edge, float) for edge in bins) else np.int32) \
        if isinstance(bins, (list, tuple)) else bins


def _histogram(a, bins, range, weights, density):
    bins = _bins(bins)
    counts, edges = jnp.histogram(_float(a), bins, range, weights, density)
    return (counts.astype(np.float32)), edges.astype(bins.dtype) if hasattr(bins, "dtype") else edges


def _histogram2d(x, y, bins, range, weights, density):
    counts, x_edges, y_edges = jnp.histogram2d(_float(x), _float(y), bins, range, weights, density)
    return (counts.astype(np.float32)), x_edges, y_edges


def _histogramdd(sample, bins, range, weights, density):
    counts, edges = jnp.histogramdd(_float(sample), bins, range, weights, density)
    return (counts.astype(np.float32)), list(edges)


def _bincount(x, weights, minlength, length):
    if length is None:
        length = max(int(jnp.max(x)) + 1 if x.size else 0, minlength)
    result = jnp.bincount(x, weights, minlength, length=length)
    # MindSpore's bincount is Float32 with or without weights.
    return result.astype(np.float32)


def _gradient(f, varargs, axis, edge_order):
    if edge_order != 1:
        # MindSpore 2.10 raises NotImplementedError("edge_order != 1 not implemented") for every other value.
        raise NotImplementedError(f"mindspore.numpy.gradient: edge_order={edge_order!r} is not implemented (MindSpore "
                                  f"2.10 supports edge_order=1 only); call it with edge_order=1.")
    return jnp.gradient(_float(f), *varargs, axis=axis)  # several axes: a list, as MindSpore 2.10


def _polymul(a1, a2):
    # jnp.polymul convolves in floating point; MindSpore keeps the inputs' common dtype (int stays int):
    # an integer product is the exact sum of integer products, so round the float result back.
    out = jnp.polymul(a1, a2)
    dtype = jnp.result_type(a1, a2)
    return jnp.round(out).astype(dtype) if jnp.issubdtype(dtype, jnp.integer) else out


_ROWS = [
    ("cov", "(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, dtype=None)", _cov,
     "m y fweights aweights"),
    ("corrcoef", "(x, y=None, rowvar=True, dtype=None)", _corrcoef, "x y"),
    ("histogram", "(a, bins=10, range=None, weights=None, density=False)", _histogram, "a weights"),
    ("histogram2d", "(x, y, bins=10, range=None, weights=None, density=False)", _histogram2d, "x y weights"),
    ("histogramdd", "(sample, bins=10, range=None, weights=None, density=False)", _histogramdd, "sample weights"),
    ("histogram_bin_edges", "(a, bins=10, range=None, weights=None)",
     lambda a, bins, range, weights: jnp.histogram_bin_edges(_float(a), bins, range, weights), "a weights"),
    ("bincount", "(x, weights=None, minlength=0, length=None)", _bincount, "x weights"),
    ("digitize", "(x, bins, right=False)",
     lambda x, bins, right: jnp.digitize(x, bins, right).astype(np.int32), "x bins"),
    ("interp", "(x, xp, fp, left=None, right=None)",
     lambda x, xp, fp, left, right: jnp.interp(x, xp, fp, left, right), "x xp fp"),
    ("gradient", "(f, *varargs, axis=None, edge_order=1)", _gradient, "f"),
    ("diff", "(a, n=1, axis=-1, prepend=None, append=None)",
     lambda a, n, axis, prepend, append: jnp.diff(a, n, axis, prepend, append), "a prepend append"),
    ("ediff1d", "(ary, to_end=None, to_begin=None)",
     lambda ary, to_end, to_begin: jnp.ediff1d(ary, to_end, to_begin), "ary to_end to_begin"),
    ("unwrap", "(p, discont=3.141592653589793, axis=-1)",
     lambda p, discont, axis: jnp.unwrap(p, discont, axis), "p"),
    ("polyadd", "(a1, a2)", lambda a1, a2: jnp.polyadd(a1, a2), "a1 a2"),
    ("polysub", "(a1, a2)", lambda a1, a2: jnp.polysub(a1, a2), "a1 a2"),
    ("polymul", "(a1, a2)", lambda a1, a2: _polymul(a1, a2), "a1 a2"),
    ("polyval", "(p, x)", lambda p, x: jnp.polyval(p, x), "p x"),
    ("polyder", "(p, m=1)", lambda p, m: jnp.polyder(p, m).astype(p.dtype), "p"),
    ("polyint", "(p, m=1, k=None)", lambda p, m, k: jnp.polyint(_float(p), m, k), "p"),
]

__all__ = table(_ROWS, globals())
