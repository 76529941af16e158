"""Reductions and scans: ``ops.sum``, ``ops.mean``, ``ops.max`` (values and indices), ``ops.argmax``, ``ops.cumsum`` ...

MindSpore's result dtypes differ between ops and are kept here: ``sum``/``prod`` of Bool or
small integers give Int64, ``mean``/``reduce_sum`` keep the input dtype (integer means are
truncated toward zero), ``argmax`` gives Int64 and ``argmin`` Int32, ``max``/``min`` return
``(values, Int64 indices)``.

An ``axis`` may be None (all axes), an int, or a tuple/list of ints; an empty tuple also means
all axes, as in MindSpore.

Example:
    >>> from sporax import Tensor, ops
    >>> ops.sum(Tensor([[1, 2], [3, 4]]), dim=1)
    Tensor(shape=[2], dtype=Int64, value= [3, 7])
"""
import builtins
import functools

import jax
import jax.numpy as jnp
import numpy as np

from sporax.core import dtype as mstype
from sporax.ops._dispatch import array_of, float_array_of, numeric_array_of, wrap
from sporax.state.fallback import UntraceableError

_INT64 = np.dtype(np.int64)
_INT32 = np.dtype(np.int32)
_FLOAT32 = np.dtype(np.float32)
_BOOL = np.dtype(np.bool_)


@functools.lru_cache(maxsize=4096)
def _axes_cached(op_name, axis, ndim):
    if axis is None or axis == ():  # MindSpore: an empty tuple reduces every axis
        return tuple(range(ndim))
    items = axis if isinstance(axis, tuple) else (axis,)
    limit = builtins.max(ndim, 1)  # a 0-d tensor accepts axis 0 and -1
    result = []
    for item in items:
        if isinstance(item, bool) or not isinstance(item, (int, np.integer)):
            raise TypeError(f"For '{op_name}', the axis must be None, an int or a tuple of ints, "
                            f"but got {axis!r}.")
        if not -limit <= item < limit:
            raise ValueError(f"For '{op_name}', the axis {item} is out of range for a tensor of "
                             f"rank {ndim}: expected a value in [{-limit}, {limit}).")
        item = int(item) % limit
        if item in result:
            raise ValueError(f"For '{op_name}', the axis {axis!r} repeats dimension {item}.")
        result.append(item)
    if ndim == 0:
        return ()
    return tuple(sorted(result))


def _axes(op_name, axis, ndim):
    """Normalised, sorted, non-negative axes (cached per (axis, ndim))."""
    if isinstance(axis, list):
        axis = tuple(axis)
    elif hasattr(axis, "_value") or isinstance(axis, (jax.Array, jax.core.Tracer)):
        value = getattr(axis, "_value", axis)
        if isinstance(value, jax.core.Tracer):
            # The output rank depends on the axis value (MindSpore compiles this with dynamic rank);
            # a Cell or ms.jit function that does this runs eagerly instead, where the axis is known.
            raise UntraceableError(f"For '{op_name}', the axis must be known when the op is compiled, "
                                   "but got a Tensor computed inside the compiled function; pass a "
                                   "Python int or tuple of ints.")
        axis = tuple(np.asarray(value).reshape(-1).tolist())
        axis = axis[0] if len(axis) == 1 else axis
    try:
        return _axes_cached(op_name, axis, ndim)
    except TypeError as error:
        if "unhashable" in str(error):
            raise TypeError(f"For '{op_name}', the axis must be None, an int or a tuple of ints, "
                            f"but got {axis!r}.") from None
        raise


def _single_axis(op_name, axis, ndim):
    if isinstance(axis, (tuple, list)):
        raise TypeError(f"For '{op_name}', the axis must be a single int, but got {axis!r}.")
    return _axes(op_name, axis, ndim)[0] if ndim else 0


def _cast_to(array, dtype):
    if dtype is None:
        return array
    target = mstype.to_numpy_dtype(mstype.normalize(dtype))
    return array if array.dtype == target else array.astype(target)


def _accumulator(dtype, requested):
    """Result dtype of ``sum``/``prod``: ``requested``, else Int64 for Bool and narrower ints."""
    if requested is not None:
        return mstype.to_numpy_dtype(mstype.normalize(requested))
    if dtype.kind in "bi" or (dtype.kind == "u" and dtype.itemsize < 8):
        return _INT64
    return dtype


# Ops made of several primitives run as one compiled kernel per signature: one dispatch on the
# eager path instead of one per primitive; inside an outer trace the kernel is simply inlined.
@functools.partial(jax.jit, static_argnames=("kind", "axes", "keepdims", "dtype"))
def _accumulate_kernel(array, kind, axes, keepdims, dtype):
    reduce = jnp.sum if kind == "sum" else jnp.prod
    return reduce(array.astype(dtype), axes, keepdims=keepdims)


@functools.partial(jax.jit, static_argnames=("axes", "keepdims"))
def _mean_kernel(array, axes, keepdims):
    if array.dtype.kind in "iu":
        # MindSpore keeps the integer dtype and truncates toward zero.
        count = int(np.prod([array.shape[a] for a in axes], dtype=np.int64))
        total = jnp.sum(array, axes, dtype=array.dtype, keepdims=keepdims)
        return jax.lax.div(total, jnp.full_like(total, builtins.max(count, 1)))
    return jnp.mean(array, axes, keepdims=keepdims)


@functools.partial(jax.jit, static_argnames=("axis", "keepdims", "largest", "index_dtype"))
def _index_kernel(array, axis, keepdims, largest, index_dtype):
    """``(values, indices)`` of the extreme over ``axis`` (the flattened array when None)."""
    # Values come from the reduction, so tied maxima share the gradient (as in MindSpore).
    pick, extreme = (jnp.argmax, jnp.max) if largest else (jnp.argmin, jnp.min)
    if axis is None:
        index, values = pick(array.reshape(-1)), extreme(array)
        if keepdims:
            shape = (1,) * array.ndim
            values, index = values.reshape(shape), index.reshape(shape)
        return values, index.astype(index_dtype)
    index = pick(array, axis, keepdims=keepdims)
    return extreme(array, axis, keepdims=keepdims), index.astype(index_dtype)


# --- sums and means ---------------------------------------------------------------------------
def sum(input, dim=None, keepdim=False, *, dtype=None):
    """Sum ``input`` over ``dim`` (all dims when None); Bool and Int inputs give Int64."""
    array = array_of("sum", "input", input)
    axes = _axes("sum", dim, array.ndim)
    return wrap(_accumulate_kernel(array, "sum", axes, keepdim, _accumulator(array.dtype, dtype)))


def reduce_sum(x, axis=()):
    """Sum ``x`` over ``axis`` (all axes when empty), keeping the input dtype."""
    return reduce_along("reduce_sum", "sum", x, axis, False)


def _sum_keep_dtype(array, axes, keepdims):
    if array.dtype == _BOOL:
        return jnp.any(array, axes, keepdims=keepdims)
    return jnp.sum(array, axes, dtype=array.dtype, keepdims=keepdims)


def _prod_keep_dtype(array, axes, keepdims):
    if array.dtype == _BOOL:
        return jnp.all(array, axes, keepdims=keepdims)
    return jnp.prod(array, axes, dtype=array.dtype, keepdims=keepdims)


def reduce_along(op_name, kind, x, axis, keep_dims):
    """The ``ReduceX`` family: reduce ``x`` over ``axis`` (all when empty), keeping its dtype.

    ``kind`` is one of "sum", "mean", "max", "min", "prod", "all", "any".
    """
    array = array_of(op_name, "x", x)
    axes = _axes(op_name, axis, array.ndim)
    if kind == "sum":
        return wrap(_sum_keep_dtype(array, axes, keep_dims))
    if kind == "mean":
        return wrap(_mean_kernel(numeric_array_of(op_name, "x", array), axes, keep_dims))
    if kind == "max":
        return wrap(jnp.max(array, axes, keepdims=keep_dims))
    if kind == "min":
        return wrap(jnp.min(array, axes, keepdims=keep_dims))
    if kind == "prod":
        return wrap(_prod_keep_dtype(array, axes, keep_dims))
    if kind == "all":
        return wrap(jnp.all(array, axes, keepdims=keep_dims))
    if kind == "any":
        return wrap(jnp.any(array, axes, keepdims=keep_dims))
    raise ValueError(f"reduce_along: unknown reduction kind {kind!r}.")


def nansum(input, axis=None, keepdims=False, *, dtype=None):
    """Sum ``input`` over ``axis`` treating NaN as zero."""
    array = _cast_to(array_of("nansum", "input", input), dtype)
    axes = _axes("nansum", axis, array.ndim)
    if array.dtype == _BOOL:
        array = array.astype(_INT64)
    return wrap(jnp.nansum(array, axes, keepdims=keepdims, dtype=array.dtype))


def mean(x, axis=None, keep_dims=False):
    """Mean of ``x`` over ``axis`` (all axes when None or empty); integers keep their dtype."""
    array = numeric_array_of("mean", "x", x)
    return wrap(_mean_kernel(array, _axes("mean", axis, array.ndim), keep_dims))


def reduce_mean(x, axis=()):
    """Mean of ``x`` over ``axis`` (all axes when empty), keeping the input dtype."""
    return reduce_along("reduce_mean", "mean", x, axis, False)


def nanmean(input, axis=None, keepdims=False, *, dtype=None):
    """Mean of ``input`` over ``axis`` ignoring NaN."""
    array = _cast_to(float_array_of("nanmean", "input", input), dtype)
    return wrap(jnp.nanmean(array, _axes("nanmean", axis, array.ndim), keepdims=keepdims))


def prod(input, axis=None, keep_dims=False, dtype=None):
    """Product of ``input`` over ``axis``; Bool and Int inputs give Int64."""
    array = array_of("prod", "input", input)
    axes = _axes("prod", axis, array.ndim)
    return wrap(_accumulate_kernel(array, "prod", axes, keep_dims,
                                   _accumulator(array.dtype, dtype)))


# --- extremes ---------------------------------------------------------------------------------
def _masked(op_name, array, initial, where, largest):
    if where is None:
        if initial is None:
            return array
        bound = jnp.asarray(initial, array.dtype)
        return jnp.maximum(array, bound) if largest else jnp.minimum(array, bound)
    if initial is None:
        raise ValueError(f"For '{op_name}', 'initial' must be given when 'where' is given: it is "
                         "the value of positions that 'where' leaves out.")
    mask = array_of(op_name, "where", where)
    filled = jnp.where(mask, array, jnp.asarray(initial, array.dtype))
    bound = jnp.asarray(initial, array.dtype)
    return jnp.maximum(filled, bound) if largest else jnp.minimum(filled, bound)


def _extreme_with_index(op_name, input, axis, keepdims, initial, where, largest):
    array = _masked(op_name, array_of(op_name, "input", input), initial, where, largest)
    if array.size == 0:
        raise ValueError(f"For '{op_name}', the input is empty: it has no extreme value.")
    if axis is not None:
        axis = _single_axis(op_name, axis, array.ndim)
    values, index = _index_kernel(array, axis, keepdims, largest, _INT64)
    return wrap(values), wrap(index)


def max(input, axis=None, keepdims=False, *, initial=None, where=None):
    """Return ``(values, indices)``: the maximum of ``input`` over ``axis`` and where it is (Int64)."""
    return _extreme_with_index("max", input, axis, keepdims, initial, where, True)


def min(input, axis=None, keepdims=False, *, initial=None, where=None):
    """Return ``(values, indices)``: the minimum of ``input`` over ``axis`` and where it is (Int64)."""
    return _extreme_with_index("min", input, axis, keepdims, initial, where, False)


def amax(input, axis=None, keepdims=False, *, initial=None, where=None):
    """Return the maximum of ``input`` over ``axis`` (all axes when None)."""
    array = _masked("amax", array_of("amax", "input", input), initial, where, True)
    return wrap(jnp.max(array, _axes("amax", axis, array.ndim), keepdims=keepdims))


def amin(input, axis=None, keepdims=False, *, initial=None, where=None):
    """Return the minimum of ``input`` over ``axis`` (all axes when None)."""
    array = _masked("amin", array_of("amin", "input", input), initial, where, False)
    return wrap(jnp.min(array, _axes("amin", axis, array.ndim), keepdims=keepdims))


def reduce_max(x, axis=()):
    """Maximum of ``x`` over ``axis`` (all axes when empty)."""
    return reduce_along("reduce_max", "max", x, axis, False)


def reduce_min(x, axis=()):
    """Minimum of ``x`` over ``axis`` (all axes when empty)."""
    return reduce_along("reduce_min", "min", x, axis, False)


def argmax(input, dim=None, keepdim=False):
    """Index (Int64) of the maximum over ``dim``; over the flattened tensor when None."""
    array = array_of("argmax", "input", input)
    axis = None if dim is None else _single_axis("argmax", dim, array.ndim)
    return wrap(_index_kernel(array, axis, keepdim, True, _INT64)[1])


def argmin(input, axis=None, keepdims=False):
    """Index (Int32) of the minimum over ``axis``; over the flattened tensor when None."""
    array = array_of("argmin", "input", input)
    axis = None if axis is None else _single_axis("argmin", axis, array.ndim)
    return wrap(_index_kernel(array, axis, keepdims, False, _INT32)[1])


# --- logical reductions -----------------------------------------------------------------------
def all(input, axis=None, keep_dims=False):
    """True where every element over ``axis`` is non-zero (all axes when None or empty)."""
    array = array_of("all", "input", input)
    return wrap(jnp.all(array, _axes("all", axis, array.ndim), keepdims=keep_dims))


def any(input, axis=None, keep_dims=False):
    """True where any element over ``axis`` is non-zero (all axes when None or empty)."""
    array = array_of("any", "input", input)
    return wrap(jnp.any(array, _axes("any", axis, array.ndim), keepdims=keep_dims))


def count_nonzero(x, axis=(), keep_dims=False, dtype=mstype.int32):
    """Count the non-zero elements of ``x`` over ``axis`` (all axes when empty)."""
    array = array_of("count_nonzero", "x", x)
    count = jnp.sum(array != 0, _axes("count_nonzero", axis, array.ndim), keepdims=keep_dims)
    return wrap(count.astype(mstype.to_numpy_dtype(mstype.normalize(dtype))))


# --- statistics -------------------------------------------------------------------------------
def var(input, axis=None, ddof=0, keepdims=False):
    """Variance of ``input`` over ``axis`` with ``ddof`` delta degrees of freedom."""
    array = float_array_of("var", "input", input)
    return wrap(jnp.var(array, _axes("var", axis, array.ndim), ddof=ddof, keepdims=keepdims))


def std(input, axis=None, ddof=0, keepdims=False):
    """Standard deviation of ``input`` over ``axis`` with ``ddof`` delta degrees of freedom."""
    array = float_array_of("std", "input", input)
    return wrap(jnp.std(array, _axes("std", axis, array.ndim), ddof=ddof, keepdims=keepdims))


def var_mean(input, axis=None, ddof=0, keepdims=False):
    """Return ``(variance, mean)`` of ``input`` over ``axis``."""
    return var(input, axis, ddof, keepdims), _float_mean("var_mean", input, axis, keepdims)


def std_mean(input, axis=None, ddof=0, keepdims=False):
    """Return ``(standard deviation, mean)`` of ``input`` over ``axis``."""
    return std(input, axis, ddof, keepdims), _float_mean("std_mean", input, axis, keepdims)


def _float_mean(op_name, input, axis, keepdims):
    array = float_array_of(op_name, "input", input)
    return wrap(jnp.mean(array, _axes(op_name, axis, array.ndim), keepdims=keepdims))


def logsumexp(input, dim, keepdim=False):
    """Return ``log(sum(exp(input), dim))`` computed without overflow."""
    array = float_array_of("logsumexp", "input", input)
    axes = _axes("logsumexp", dim, array.ndim)
    return wrap(jax.nn.logsumexp(array, axes, keepdims=keepdim))


# --- scans ------------------------------------------------------------------------------------
def cumsum(x, axis, dtype=None):
    """Cumulative sum of ``x`` along ``axis``; integers keep their dtype, ``dtype`` casts first (a Bool
    input then counts, as MindSpore's does)."""
    if dtype is not None:
        x = wrap(_cast_to(array_of("cumsum", "x", x), dtype))
    array = numeric_array_of("cumsum", "x", x)
    axis = _single_axis("cumsum", axis, array.ndim)
    return wrap(jnp.cumsum(array, axis, dtype=array.dtype))


def cumprod(input, dim, dtype=None):
    """Cumulative product of ``input`` along ``dim``; Bool and Int inputs give Int64."""
    array = array_of("cumprod", "input", input)
    axis = _single_axis("cumprod", dim, array.ndim)
    return wrap(jnp.cumprod(array, axis, dtype=_accumulator(array.dtype, dtype)))


def logcumsumexp(input, axis):
    """Return ``log(cumsum(exp(input), axis))`` computed without overflow."""
    array = float_array_of("logcumsumexp", "input", input)
    axis = _single_axis("logcumsumexp", axis, array.ndim)
    return wrap(jax.lax.cumlogsumexp(array, axis))


def _cumulative_extreme(op_name, input, axis, largest, index_dtype):
    array = numeric_array_of(op_name, "input", input)
    axis = _single_axis(op_name, axis, array.ndim)
    values, indices = _cumulative_kernel(array, axis, largest, index_dtype)
    return wrap(values), wrap(indices)


@functools.partial(jax.jit, static_argnames=("axis", "largest", "index_dtype"))
def _cumulative_kernel(array, axis, largest, index_dtype):
    positions = jax.lax.broadcasted_iota(_INT64, array.shape, axis)

    def combine(earlier, later):
        # A NaN sticks (the first one, with its index); ties move the index to the later position.
        (value_a, index_a), (value_b, index_b) = earlier, later
        take_later = (value_b >= value_a) if largest else (value_b <= value_a)
        if array.dtype.kind == "f":
            take_later = ~jnp.isnan(value_a) & (take_later | jnp.isnan(value_b))
        return jnp.where(take_later, value_b, value_a), jnp.where(take_later, index_b, index_a)

    values, indices = jax.lax.associative_scan(combine, (array, positions), axis=axis)
    return values, indices.astype(index_dtype)


def cummax(input, axis):
    """Return ``(values, indices)``: the running maximum along ``axis`` and where it was (Int64)."""
    return _cumulative_extreme("cummax", input, axis, True, _INT64)


def cummin(input, axis):
    """Return ``(values, indices)``: the running minimum along ``axis`` and where it was (Int32)."""
    return _cumulative_extreme("cummin", input, axis, False, _INT32)
