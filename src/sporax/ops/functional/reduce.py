"""Reductions: ``ops.sum``, ``ops.mean``, ``ops.max`` (values and indices), ``ops.argmax`` ... (scans: ``scans.py``,
variances: ``spread.py``)

MindSpore's result dtypes differ between ops and are kept here: ``sum``/``prod`` of Bool or
small integers give Int64, ``mean``/``reduce_sum`` keep the input dtype (integer means are
truncated toward zero), ``argmax`` gives Int64 and ``argmin`` Int32, ``max``/``min`` return
``(values, Int64 indices)``.

An ``axis`` may be None (all axes), an int, or a tuple/list of ints; an empty tuple also means
all axes, as in MindSpore.

Each op is one op-table entry (``sporax.ops.op_table``): the kernel below (a function of arrays,
run as one compiled dispatch per eager call), its Primitive (``ReduceMean(keep_dims)``),
Tensor-method and ``mint`` names, samples and a NumPy reference. Primitives whose behaviour is
not an op's settings (``ReduceSum(skip_mode)``, ``Argmax(output_type)``) are written in
``operations/reduce_ops.py`` over these ops.

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
from sporax.ops.functional.nan_orders import scanned_extreme, scanned_index
from sporax.ops.face_inputs import NUMBERS, accepting
from sporax.ops.op_table import ANY, FLOAT, NUMBER, TO_FLOAT, op, spelling
from sporax.ops.samples import reduction, with_settings
from sporax.state.fallback import UntraceableError

_INT64 = np.dtype(np.int64)
_INT32 = np.dtype(np.int32)
_FLOAT32 = np.dtype(np.float32)
_BOOL = np.dtype(np.bool_)
_HALF = (np.dtype(np.float16), np.dtype(jnp.bfloat16))
# Up to this many elements a Float32 full sum is exact-then-rounded, as MindSpore's CPU kernel (recorded to 1e6
# elements; at 3e6 its threaded blocks round differently). Larger sums stay in Float32: XLA's Float64 reduction
# is ~6x slower on the CPU (2000x2000: 3.1 ms against 0.5 ms).
_EXACT_SUM_SIZE = 1 << 20


# The Primitive MindSpore 2.10's graph names in a reduction's axis-range error (its first line)
_REDUCE_PRIMITIVES = {"sum": "SumExt", "reduce_sum": "ReduceSum", "mean": "ReduceMean", "reduce_mean": "ReduceMean",
                      "reduce_max": "ReduceMax", "reduce_min": "ReduceMin"}  # Tensor.max and ops.amax share "amax"


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
            primitive = _REDUCE_PRIMITIVES.get(op_name)
            first = f"For primitive[{primitive}], the axis value must be in [{-limit},{limit}), but got {item}.\n"
            raise ValueError(f"{first if primitive else ''}For '{op_name}', the axis {item} is out of range for a "
                             f"tensor of rank {ndim}: expected a value in [{-limit}, {limit}).")
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
    if not ndim:
        _axes(op_name, axis, 1)  # a 0-d tensor has the one axis 0 (or -1), as in MindSpore
        return 0
    return _axes(op_name, axis, ndim)[0]


def _real(op_name, input):
    """``input``, refused when complex (complex numbers have no order)."""
    if input.dtype.kind == "c":
        raise TypeError(f"For '{op_name}', 'input' must be a real number Tensor (complex numbers have no order), "
                        f"but got a {input.dtype} Tensor.")
    return input


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


def _accumulate(array, axes, keepdims, dtype, product=False):
    """``sum``/``prod`` of ``array`` in ``dtype`` (Int64 for Bool and narrower ints by default)."""
    target = _accumulator(array.dtype, dtype)
    if not product:
        return _sum_in(array.astype(target), axes, keepdims, target)
    # dtype= also fixes the accumulator: without it, x64 JAX sums Int32 as Int64.
    return jnp.prod(array.astype(target), axes, keepdims=keepdims, dtype=target)


def _sum_in(array, axes, keepdims, dtype):
    """``array`` summed over ``axes`` into ``dtype``. Float16/BFloat16 add up in Float32 and round once, as
    MindSpore 2.10's kernels (XLA's half-precision running sum drifts: a Float16 ReduceSum of 63 values was
    off by up to 4 ulp, moving AMP O3 losses in the fourth digit)."""
    if dtype in _HALF:
        return jnp.sum(array, axes, dtype=_FLOAT32, keepdims=keepdims).astype(dtype)
    if (array.dtype == dtype == _FLOAT32 and len(axes) == array.ndim and array.size <= _EXACT_SUM_SIZE
            and jax.config.jax_enable_x64):
        # Over every axis MindSpore 2.10's CPU kernel adds Float32 up in a wider accumulator and rounds once (a
        # (16, 16) randn sum: -2.2293153, XLA's Float32 sum -2.229311); MSELoss/L1Loss means go through here
        return jnp.sum(array, axes, dtype=np.float64, keepdims=keepdims).astype(dtype)
    return jnp.sum(array, axes, dtype=dtype, keepdims=keepdims)


def full_sum(array, dtype=None):
    """``array`` summed over every axis into ``dtype`` (its own by default), rounded as MindSpore 2.10's kernels."""
    return _sum_in(array, tuple(range(array.ndim)), False, array.dtype if dtype is None else np.dtype(dtype))


def _mean_array(array, axes, keepdims):
    if array.dtype.kind in "iu":
        # MindSpore keeps the integer dtype and truncates toward zero.
        count = int(np.prod([array.shape[a] for a in axes], dtype=np.int64))
        total = jnp.sum(array, axes, dtype=array.dtype, keepdims=keepdims)
        return jax.lax.div(total, jnp.full_like(total, builtins.max(count, 1)))
    if array.dtype.kind != "f":
        return jnp.mean(array, axes, keepdims=keepdims)
    # jnp.mean's accumulator: Float16/BFloat16 sum in Float32
    accumulator = np.promote_types(array.dtype, np.float32)
    total = _sum_in(array, axes, keepdims, accumulator)
    count = int(np.prod([array.shape[a] for a in (range(array.ndim) if axes is None else axes)], dtype=np.int64))
    return divide_exactly(total, count).astype(array.dtype)


def divide_exactly(total, count):
    """``total / count`` rounded once, as MindSpore's CPU kernels divide (means, average pooling).

    XLA turns a division by a compile-time constant, or by a broadcast scalar, into a multiplication by its
    rounded reciprocal (127 / 9 gives 14.111112 instead of 14.111111, in the forward division and in its
    gradient's); dividing in Float64 and rounding back gives the Float32/Float16 quotient rounded once."""
    if total.dtype.itemsize >= 8 or not jax.config.jax_enable_x64:
        return total / jnp.asarray(count, total.dtype)
    return (total.astype(np.float64) / jnp.asarray(count, np.float64)).astype(total.dtype)


def _sum_keep_dtype(array, axes, keepdims):
    if array.dtype == _BOOL:
        return jnp.any(array, axes, keepdims=keepdims)
    return _sum_in(array, axes, keepdims, array.dtype)


def _nan_reduction(op_name, reduce, array, axis, dtype):
    """``reduce(array, axes)`` of a NaN-ignoring reduction, on ``array`` cast to ``dtype`` (Bool counts as Int64)."""
    array = _cast_to(array, dtype)
    if array.dtype == _BOOL:
        array = array.astype(_INT64)
    return reduce(array, _axes(op_name, axis, array.ndim))


def _index_of_extreme(array, axis, keepdims, largest, index_dtype):
    """``(values, indices)`` of the extreme over ``axis`` (the flattened array when None)."""
    # Over all axes the values come from the reduction, so tied maxima share the gradient; along an axis they are
    # the elements at the index, which takes the whole gradient (MindSpore 2.10's Max and ArgMaxWithValue
    # gradients; the positions left get +0.). NaN counts only in first place (nan_orders).
    if axis is None:
        index = scanned_index(array, None, False, largest)
        values = scanned_extreme(array, tuple(range(array.ndim)), False, largest)
        if keepdims:
            shape = (1,) * array.ndim
            values, index = values.reshape(shape), index.reshape(shape)
        return values, index.astype(index_dtype)
    index = scanned_index(array, axis, True, largest)
    values = jnp.take_along_axis(array, index, axis)
    if not keepdims:
        values, index = jnp.squeeze(values, axis), jnp.squeeze(index, axis)
    return values, index.astype(index_dtype)


def _optional_axis(op_name, axis, ndim):
    return None if axis is None else _single_axis(op_name, axis, ndim)


# --- NumPy references (the op test table's oracle) --------------------------------------------
def _numpy_axis(axis):
    return None if axis is None or axis == () else (tuple(axis) if isinstance(axis, (list, tuple)) else axis)


def _numpy_reduction(function, axis_name, keep_name):
    """A reference ``(input, axis, keep)`` -> ``function(input, axis, keepdims=keep)``."""
    def reference(input, *args, **kwargs):
        settings = dict(zip((axis_name, keep_name), args), **kwargs)
        return function(input, _numpy_axis(settings.get(axis_name)), keepdims=settings.get(keep_name, False))
    return reference


def _numpy_with_index(largest, index_dtype=np.int64, flat_index=True):
    """``(values, indices)`` of the extreme; over all axes the flat index, or unless ``flat_index`` a 0-d value and
    index 0 (MindSpore's ops.max/ops.min)."""
    def reference(input, axis=None, keepdims=False, **_):
        pick, extreme = (np.argmax, np.max) if largest else (np.argmin, np.min)
        if axis is None:
            values, index = extreme(input), pick(input) if flat_index else 0
            if not flat_index:
                return values, np.asarray(index, index_dtype)
            if keepdims:
                values, index = (np.reshape(item, (1,) * input.ndim) for item in (values, index))
            return values, np.asarray(index, index_dtype)
        return extreme(input, axis, keepdims=keepdims), pick(input, axis, keepdims=keepdims).astype(index_dtype)
    return reference


def _numpy_logsumexp(input, axis, keepdims=False):
    top = np.max(input, axis, keepdims=True)
    result = np.log(np.sum(np.exp(input - top), axis, keepdims=True)) + top
    return result if keepdims else np.squeeze(result, axis)


# --- sums and means ---------------------------------------------------------------------------
@op(dtypes=ANY, mint="sum", samples=reduction("dim", "keepdim"),
    reference=_numpy_reduction(np.sum, "dim", "keepdim"))
def sum(input, dim=None, keepdim=False, *, dtype=None):
    """Sum ``input`` over ``dim`` (all dims when None); Bool and Int inputs give Int64."""
    return _accumulate(input, _axes("sum", dim, input.ndim), keepdim, dtype)


@op(inputs="x", dtypes=ANY, samples=reduction(keep=None), reference=_numpy_reduction(np.sum, "axis", None))
def reduce_sum(x, axis=()):
    """Sum ``x`` over ``axis`` (all axes when empty), keeping the input dtype."""
    return _sum_keep_dtype(x, _axes("reduce_sum", axis, x.ndim), False)


@op(mint=spelling("nansum", "input, dim=None, keepdim=False, *, dtype=None", axis="dim", keepdims="keepdim"),
    dtypes=ANY, method="nansum", samples=reduction(keep="keepdims"),
    reference=_numpy_reduction(np.nansum, "axis", "keepdims"))
def nansum(input, axis=None, keepdims=False, *, dtype=None):
    """Sum ``input`` over ``axis`` treating NaN as zero."""
    return _nan_reduction("nansum", lambda array, axes: jnp.nansum(array, axes, keepdims=keepdims, dtype=array.dtype),
                          input, axis, dtype)


# MindSpore 2.10's mean kernel refuses Bool at run time (a RuntimeError, not its usual TypeError)
_MEAN_INPUT = accepting(("BFloat16",) + NUMBERS, "For 'ReduceMean', unsupported reduce operation for bool.", keep=True,
                        error=RuntimeError)


@op(mint=spelling("mean", "input, dim=None, keepdim=False, *, dtype=None",
                  x="input if dtype is None else input.astype(dtype)", axis="dim", keep_dims="keepdim"),
    inputs="x", dtypes=NUMBER, input_dtypes={"x": _MEAN_INPUT}, primitive="ReduceMean", primitive_attrs=("keep_dims",), samples=reduction(),
    reference=_numpy_reduction(np.mean, "axis", "keep_dims"))
def mean(x, axis=None, keep_dims=False):
    """Mean of ``x`` over ``axis`` (all axes when None or empty); integers keep their dtype."""
    return _mean_array(x, _axes("mean", axis, x.ndim), keep_dims)


@op(inputs="x", dtypes=NUMBER, input_dtypes={"x": _MEAN_INPUT}, samples=reduction(keep=None),
    reference=_numpy_reduction(np.mean, "axis", None))
def reduce_mean(x, axis=()):
    """Mean of ``x`` over ``axis`` (all axes when empty), keeping the input dtype."""
    return _mean_array(x, _axes("reduce_mean", axis, x.ndim), False)


# MindSpore 2.10's nanmean and count_nonzero refuse these dtypes with their own messages
_NANMEAN_INPUT = accepting(("BFloat16", "Float16", "Float32", "Float64"), "For 'nanmean', input should be floating "
                           "point dtype, but got <class 'mindspore.common.tensor.Tensor'>.")
_COUNTED = ("BFloat16",) + NUMBERS
_COUNT_NONZERO_INPUT = accepting(_COUNTED, "The 'input x' doesn't support '{got}' and expect to receive (" + ", ".join(
    f"mindspore.{name}" for name in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                                     "float16", "float32", "float64", "bfloat16", "complex64", "complex128", "int4",
                                     "float8_e4m3fn", "float8_e5m2", "hifloat8")) + ").", keep=True)


@op(dtypes=FLOAT, input_dtypes={"input": _NANMEAN_INPUT}, method="nanmean", samples=reduction(keep="keepdims"),
    reference=_numpy_reduction(np.nanmean, "axis", "keepdims"))
def nanmean(input, axis=None, keepdims=False, *, dtype=None):
    """Mean of float ``input`` over ``axis`` ignoring NaN."""
    return _nan_reduction("nanmean", functools.partial(jnp.nanmean, keepdims=keepdims), input, axis, dtype)


@op(mint=spelling("prod", "input, dim=None, keepdim=False, *, dtype=None", axis="dim", keep_dims="keepdim"),
    dtypes=ANY, samples=reduction(low=0.5, high=1.5), reference=_numpy_reduction(np.prod, "axis", "keep_dims"))
def prod(input, axis=None, keep_dims=False, dtype=None):
    """Product of ``input`` over ``axis``; Bool and Int inputs give Int64."""
    return _accumulate(input, _axes("prod", axis, input.ndim), keep_dims, dtype, product=True)


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
    filled = jnp.where(where, array, jnp.asarray(initial, array.dtype))
    bound = jnp.asarray(initial, array.dtype)
    return jnp.maximum(filled, bound) if largest else jnp.minimum(filled, bound)


def _extreme_with_index(op_name, input, axis, keepdims, initial, where, largest):
    array = _masked(op_name, input, initial, where, largest)
    if array.size == 0:
        raise ValueError(f"For '{op_name}', the input is empty: it has no extreme value.")
    if axis is None:
        # MindSpore 2.10's ops.max/ops.min over all axes answer a 0-d value (keepdims or not) and index 0,
        # whatever the position (checked on the oracle)
        values, _ = _index_of_extreme(array, None, False, largest, _INT64)
        return values, jnp.zeros((), _INT64)
    return _index_of_extreme(array, _single_axis(op_name, axis, array.ndim), keepdims, largest, _INT64)


@op(inputs=("input", "where"), dtypes=ANY, samples=reduction(keep="keepdims", single=True), grad_check=False,
    reference=_numpy_with_index(True, flat_index=False))
def max(input, axis=None, keepdims=False, *, initial=None, where=None):
    """Return ``(values, indices)``: the maximum of ``input`` over ``axis`` and where it is (Int64)."""
    return _extreme_with_index("max", input, axis, keepdims, initial, where, True)


@op(inputs=("input", "where"), dtypes=ANY, samples=reduction(keep="keepdims", single=True), grad_check=False,
    reference=_numpy_with_index(False, flat_index=False))
def min(input, axis=None, keepdims=False, *, initial=None, where=None):
    """Return ``(values, indices)``: the minimum of ``input`` over ``axis`` and where it is (Int64)."""
    return _extreme_with_index("min", input, axis, keepdims, initial, where, False)


@functools.partial(jax.custom_jvp, nondiff_argnums=(1, 2, 3))
def _shared_extreme(array, axes, keepdims, largest):
    """``scanned_extreme`` whose gradient is MindSpore's ReduceMax/ReduceMin one: the cotangent split evenly among
    the positions equal to the extreme, every other position getting the cotangent times 0 (-0. under a negative
    cotangent), and NaN over a row that holds no position equal to its extreme (one led by NaN: 0/0)."""
    return scanned_extreme(array, axes, keepdims, largest)


@_shared_extreme.defjvp
def _shared_extreme_jvp(axes, keepdims, largest, primals, tangents):
    (array,), (tangent,) = primals, tangents
    kept = scanned_extreme(array, axes, True, largest)
    chosen = (array == kept).astype(array.dtype)
    count = jnp.sum(chosen, axes, keepdims=True)
    share = jnp.where(count > 0, chosen / count, jnp.asarray(jnp.nan, array.dtype))  # XLA folds 0/0 to 0
    return (kept if keepdims else jnp.squeeze(kept, axes)), jnp.sum(share * tangent, axes, keepdims=keepdims)


def _reduced_extreme(array, axes, keepdims, largest):
    if jnp.issubdtype(array.dtype, jnp.floating) and array.size:
        return _shared_extreme(array, axes, keepdims, largest)
    return scanned_extreme(array, axes, keepdims, largest)


def _extreme(name, primitive, largest, numpy_function):
    """The entry ``amax``/``amin``: the extreme over ``axis`` of ``input`` (where ``where``, else ``initial``);
    mint spells it ``(input, dim=(), keepdim=False)``, ``dim=()`` reducing every axis."""

    def kernel(input, axis=None, keepdims=False, *, initial=None, where=None):
        array = _masked(name, input, initial, where, largest)
        return _reduced_extreme(array, _axes(name, axis, array.ndim), keepdims, largest)

    kernel.__name__ = kernel.__qualname__ = name
    kernel.__doc__ = f"Return the {'maximum' if largest else 'minimum'} of ``input`` over ``axis`` (all axes when None)."
    return op(mint=spelling(name, "input, dim=(), keepdim=False", axis="None if dim == () else dim",
                            keepdims="keepdim"),
              inputs=("input", "where"), dtypes=ANY, primitive=primitive, primitive_attrs=(("keep_dims", "keepdims"),),
              method=name, samples=reduction(keep="keepdims"),
              reference=_numpy_reduction(numpy_function, "axis", "keepdims"))(kernel)


amax = _extreme("amax", "ReduceMax", True, np.max)
amin = _extreme("amin", "ReduceMin", False, np.min)


@op(inputs="x", dtypes=ANY, samples=reduction(keep=None), reference=_numpy_reduction(np.max, "axis", None))
def reduce_max(x, axis=()):
    """Maximum of ``x`` over ``axis`` (all axes when empty)."""
    return _reduced_extreme(x, _axes("reduce_max", axis, x.ndim), False, True)


@op(inputs="x", dtypes=ANY, samples=reduction(keep=None), reference=_numpy_reduction(np.min, "axis", None))
def reduce_min(x, axis=()):
    """Minimum of ``x`` over ``axis`` (all axes when empty)."""
    return _reduced_extreme(x, _axes("reduce_min", axis, x.ndim), False, False)


@op(dtypes=ANY, mint="argmax", samples=reduction("dim", "keepdim", single=True), grad_check=False,
    reference=lambda input, dim=None, keepdim=False: _numpy_with_index(True)(input, dim, keepdim and dim is not None)[1])
def argmax(input, dim=None, keepdim=False):
    """Index (Int64) of the maximum over ``dim``; over the flattened tensor when None (a 0-d index: ``keepdim``
    applies to a ``dim`` only, as MindSpore 2.10)."""
    keepdim = keepdim and dim is not None
    axis = _optional_axis("argmax", dim, input.ndim)  # a 0-d input takes axis 0 or -1 ...
    axis = None if input.ndim == 0 else axis  # ... and has one element
    return _index_of_extreme(_real("argmax", input), axis, keepdim, True, _INT64)[1]


@op(mint=spelling("argmin", "input, dim=None, keepdim=False", axis="dim", keepdims="keepdim"),
    dtypes=ANY, samples=reduction(keep="keepdims", single=True), grad_check=False,
    reference=lambda input, axis=None, keepdims=False: _numpy_with_index(False, np.int64 if input.ndim == 0 else np.int32)(
        input, axis, keepdims and axis is not None)[1])
def argmin(input, axis=None, keepdims=False):
    """Index of the minimum over ``axis``; over the flattened tensor when None (a 0-d index: ``keepdims`` applies
    to an ``axis`` only). Int32, and Int64 for a 0-d input, as MindSpore 2.10."""
    keepdims = keepdims and axis is not None
    dtype = _INT64 if input.ndim == 0 else _INT32
    axis = _optional_axis("argmin", axis, input.ndim)
    axis = None if input.ndim == 0 else axis
    return _index_of_extreme(_real("argmin", input), axis, keepdims, False, dtype)[1]


# --- logical reductions -----------------------------------------------------------------------
@op(mint=spelling("all", "input, dim=None, keepdim=False", axis="dim", keep_dims="keepdim"),
    dtypes=ANY, primitive="ReduceAll", primitive_attrs=("keep_dims",), samples=reduction(), grad_check=False,
    reference=_numpy_reduction(np.all, "axis", "keep_dims"))
def all(input, axis=None, keep_dims=False):
    """True where every element over ``axis`` is non-zero (all axes when None or empty)."""
    return jnp.all(input, _axes("all", axis, input.ndim), keepdims=keep_dims)


@op(mint=spelling("any", "input, dim=None, keepdim=False", axis="dim", keep_dims="keepdim"),
    dtypes=ANY, primitive="ReduceAny", primitive_attrs=("keep_dims",), samples=reduction(), grad_check=False,
    reference=_numpy_reduction(np.any, "axis", "keep_dims"))
def any(input, axis=None, keep_dims=False):
    """True where any element over ``axis`` is non-zero (all axes when None or empty); a UInt8 input answers in
    UInt8 (0/1), as MindSpore's ReduceAny."""
    result = jnp.any(input, _axes("any", axis, input.ndim), keepdims=keep_dims)
    return result.astype(np.uint8) if input.dtype == np.uint8 else result


@op(mint=spelling("count_nonzero", "input, dim=None",
                  x="input", axis="() if dim is None else dim", dtype="mstype.int64"),
    inputs="x", dtypes=NUMBER, input_dtypes={"x": _COUNT_NONZERO_INPUT}, method="count_nonzero", grad_check=False,
    samples=with_settings(reduction(), {"dtype": mstype.int64}),
    reference=lambda x, axis=(), keep_dims=False, dtype=mstype.int32: np.count_nonzero(
        x, _numpy_axis(axis), keepdims=keep_dims).astype(mstype.dtype_to_nptype(dtype)))
def count_nonzero(x, axis=(), keep_dims=False, dtype=mstype.int32):
    """Count the non-zero elements of the number Tensor ``x`` over ``axis`` (all axes when empty)."""
    count = jnp.sum(x != 0, _axes("count_nonzero", axis, x.ndim), keepdims=keep_dims)
    return count.astype(mstype.to_numpy_dtype(mstype.normalize(dtype)))


@op(dtypes=TO_FLOAT, method="logsumexp", mint="logsumexp", samples=reduction("dim", "keepdim", required=True),
    reference=lambda input, dim, keepdim=False: _numpy_logsumexp(input, _numpy_axis(dim), keepdim))
def logsumexp(input, dim, keepdim=False):
    """Return ``log(sum(exp(input), dim))`` computed without overflow."""
    return jax.nn.logsumexp(input, _axes("logsumexp", dim, input.ndim), keepdims=keepdim)


# --- scans ------------------------------------------------------------------------------------
