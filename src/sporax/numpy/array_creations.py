"""Array creation of ``mindspore.numpy``: constructors, ranges, grids, windows, random arrays."""
import jax.numpy as jnp
import numpy as np

from sporax import ops
from sporax.core import dtype as mstype
from sporax.numpy.dispatch import _Wide, exact, table, wrap


def _array(obj, dtype, copy, ndmin):
    result = obj if dtype is None else obj.astype(dtype)
    if result.ndim < ndmin:
        result = result.reshape((1,) * (ndmin - result.ndim) + result.shape)
    return result


def _like(a, dtype, shape, fill):
    return fill(a.shape if shape is None else shape, a.dtype if dtype is None else dtype)


def _linspace(start, stop, num, endpoint, retstep, dtype, axis):
    result = jnp.linspace(start, stop, num, endpoint, retstep, dtype, axis)
    return result if dtype is not None or not retstep else (result[0], jnp.asarray(result[1], jnp.float32))


def _arange(start, stop, step, dtype):
    if dtype is None and all(isinstance(value, (int, np.integer)) or value is None for value in (start, stop, step)):
        dtype = np.int32
    return jnp.arange(start, stop, step, dtype)


def _indices(name):
    def function(n, k, m):
        return getattr(jnp, name)(n, k, m)
    return function


def _trace(a, offset, axis1, axis2, dtype):
    """As ``Tensor.trace`` (MindSpore 2.10): integer diagonals sum in Int64, a Bool diagonal gives a Bool."""
    if dtype is None and a.dtype == np.bool_:
        return jnp.any(jnp.diagonal(a, offset, axis1, axis2), -1)
    if dtype is None and a.dtype.kind in "iu":
        return exact(jnp.trace(a, offset, axis1, axis2, np.int64))
    return jnp.trace(a, offset, axis1, axis2, dtype)


def _window(function):
    return lambda M: function(M).astype(np.float32)


def _random(source):
    def function(shape, dtype):
        return source(*shape, dtype=mstype.from_numpy_dtype(dtype))
    return function


def _randint(minval, maxval, shape, dtype):
    if maxval is None:
        minval, maxval = 0, minval
    return ops.randint(minval, maxval, () if shape is None else shape, dtype=mstype.from_numpy_dtype(dtype))


def _geomspace(start, stop, num, endpoint, dtype, axis):
    # MindSpore's values: start * ratio ** k with ratio = (stop / start) ** (1 / steps), in float32, so a
    # power-of-two ratio gives exact powers (its docstring prints geomspace(1, 256, num=9) as 1., 2., 4. ...);
    # jnp.geomspace interpolates logarithms and is a few ulps off there.
    start, stop = jnp.asarray(start, np.float32), jnp.asarray(stop, np.float32)
    ratio = jnp.power(stop / start, np.float32(1.0 / ((num - 1 if endpoint else num) or 1)))
    steps = jnp.arange(num, dtype=np.float32).reshape((num,) + (1,) * start.ndim)
    out = jnp.moveaxis(start * jnp.power(ratio, steps), 0, axis)
    return out.astype(dtype or np.float32)


_ROWS = [
    ("array", "(obj, dtype=None, copy=True, ndmin=0)", _array, "obj"),
    ("asarray", "(a, dtype=None)", lambda a, dtype: a if dtype is None else a.astype(dtype), "a"),
    ("copy", "(a)", lambda a: jnp.array(a, copy=True), "a"),
    ("asfarray", "(a, dtype=mindspore.float32)",
     lambda a, dtype: a.astype(dtype if np.dtype(dtype).kind == "f" else np.float32), "a"),
    ("ones", "(shape, dtype=mindspore.float32)", lambda shape, dtype: jnp.ones(shape, dtype)),
    ("zeros", "(shape, dtype=mindspore.float32)", lambda shape, dtype: jnp.zeros(shape, dtype)),
    ("empty", "(shape, dtype=mindspore.float32)", lambda shape, dtype: jnp.zeros(shape, dtype)),
    ("full", "(shape, fill_value, dtype=None)", lambda shape, fill_value, dtype: jnp.full(shape, fill_value, dtype),
     "fill_value"),
    ("ones_like", "(a, dtype=None, shape=None)", lambda a, dtype, shape: _like(a, dtype, shape, jnp.ones), "a"),
    ("zeros_like", "(a, dtype=None, shape=None)", lambda a, dtype, shape: _like(a, dtype, shape, jnp.zeros), "a"),
    ("empty_like", "(prototype, dtype=None, shape=None)",
     lambda prototype, dtype, shape: _like(prototype, dtype, shape, jnp.zeros), "prototype"),
    ("full_like", "(a, fill_value, dtype=None, shape=None)",
     lambda a, fill_value, dtype, shape: _like(a, dtype, shape, lambda s, d: jnp.full(s, fill_value, d)), "a"),
    ("eye", "(N, M=None, k=0, dtype=mindspore.float32)", lambda N, M, k, dtype: jnp.eye(N, M, k, dtype)),
    ("identity", "(n, dtype=mindspore.float32)", lambda n, dtype: jnp.identity(n, dtype)),
    ("tri", "(N, M=None, k=0, dtype=mindspore.float32)", lambda N, M, k, dtype: jnp.tri(N, M, k, dtype)),
    ("arange", "(start, stop=None, step=None, dtype=None)", _arange),
    ("linspace", "(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0)", _linspace),
    ("logspace", "(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0)",
     lambda start, stop, num, endpoint, base, dtype, axis: jnp.logspace(start, stop, num, endpoint, base,
                                                                       dtype or np.float32, axis)),
    ("geomspace", "(start, stop, num=50, endpoint=True, dtype=None, axis=0)", _geomspace),
    ("tril", "(m, k=0)", lambda m, k: jnp.tril(m, k), "m"),
    ("triu", "(m, k=0)", lambda m, k: jnp.triu(m, k), "m"),
    ("diag", "(v, k=0)", lambda v, k: jnp.diag(v, k), "v"),
    ("diagflat", "(v, k=0)", lambda v, k: jnp.diagflat(v, k), "v"),
    ("diag_indices", "(n, ndim=2)", lambda n, ndim: jnp.diag_indices(n, ndim)),
    ("indices", "(dimensions, dtype=mindspore.int32, sparse=False)",
     lambda dimensions, dtype, sparse: list(jnp.indices(dimensions, dtype, sparse))),
    ("meshgrid", "(*xi, sparse=False, indexing='xy')",
     lambda xi, sparse, indexing: list(jnp.meshgrid(*xi, sparse=sparse, indexing=indexing)), "", "xi"),
    ("ix_", "(*args)", lambda args: jnp.ix_(*args), "", "args"),
    ("vander", "(x, N=None, increasing=False)", lambda x, N, increasing: jnp.vander(x, N, increasing), "x"),
    ("bartlett", "(M)", _window(jnp.bartlett)),
    ("blackman", "(M)", _window(jnp.blackman)),
    ("hamming", "(M)", _window(jnp.hamming)),
    ("hanning", "(M)", _window(jnp.hanning)),
    ("tril_indices", "(n, k=0, m=None)", _indices("tril_indices")),
    ("triu_indices", "(n, k=0, m=None)", _indices("triu_indices")),
    ("tril_indices_from", "(arr, k=0)", lambda arr, k: jnp.tril_indices_from(arr, k), "arr"),
    ("triu_indices_from", "(arr, k=0)", lambda arr, k: jnp.triu_indices_from(arr, k), "arr"),
    ("trace", "(a, offset=0, axis1=0, axis2=1, dtype=None)", _trace, "a"),
    ("rand", "(*shape, dtype=mindspore.float32)", _random(ops.rand)),
    ("randn", "(*shape, dtype=mindspore.float32)", _random(ops.randn)),
    ("randint", "(minval, maxval=None, shape=None, dtype=mindspore.int32)", _randint),
]

__all__ = table(_ROWS, globals()) + ["mgrid", "ogrid"]


class _Grid:
    """``mgrid[...]`` / ``ogrid[...]``: dense or open mesh grids from slices (MindSpore's dtypes)."""

    def __init__(self, source, name):
        self._source, self._name = source, name

    def __getitem__(self, key):
        return wrap(self._source[key], _Wide().seen)

    def __repr__(self):
        return f"mindspore.numpy.{self._name}"


mgrid = _Grid(jnp.mgrid, "mgrid")
ogrid = _Grid(jnp.ogrid, "ogrid")
