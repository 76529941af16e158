"""Scans: ``ops.cumsum``, ``ops.cumprod``, ``ops.logcumsumexp``, ``ops.cummax`` and ``ops.cummin``.

A scan runs along one axis (an int; MindSpore refuses a tuple) and keeps the input's shape.
``cummax``/``cummin`` return ``(values, indices)``: on a tie the index moves to the later position,
and a NaN, once met, sticks with the index where it first appeared (MindSpore's CPU kernels).
Each op is one op-table entry; ``CumSum(exclusive, reverse)`` and ``CumProd`` are written in
``operations/reduce_ops.py`` over these.

Example:
    >>> from sporax import Tensor, ops
    >>> ops.cummax(Tensor([1., 3., 2.]), axis=0)
    (Tensor(shape=[3], dtype=Float32, value= [ 1.00000000e+00,  3.00000000e+00,  3.00000000e+00]), Tensor(shape=[3], dtype=Int64, value= [0, 1, 1]))
"""
import jax
import jax.numpy as jnp
import numpy as np

from sporax.ops.functional.reduce import _BOOL, _INT32, _INT64, _accumulator, _cast_to, _single_axis
from sporax.ops.face_inputs import primitive_accepting
from sporax.ops.op_table import ANY, FLOAT, NUMBER, TO_FLOAT, op, spelling
from sporax.ops.samples import reduction, without


def _numpy_running_extreme(largest, index_dtype):
    """Running extreme along ``axis``; ties move the index to the later position (MindSpore's rule)."""
    def reference(input, axis):
        moved = np.moveaxis(np.asarray(input), axis, -1)
        values, indices = np.empty_like(moved), np.zeros(moved.shape, index_dtype)
        for row in np.ndindex(moved.shape[:-1]):
            best, where = None, 0
            for position, value in enumerate(moved[row]):
                if best is None or (value >= best if largest else value <= best):
                    best, where = value, position
                values[row + (position,)], indices[row + (position,)] = best, where
        return np.moveaxis(values, -1, axis), np.moveaxis(indices, -1, axis)
    return reference


@op(mint=spelling("cumsum", "input, dim, dtype=None", x="input", axis="dim"),
    inputs="x", dtypes=ANY, samples=reduction(keep=None, single=True, required=True),
    reference=lambda x, axis, dtype=None: np.cumsum(x, axis))
def cumsum(x, axis, dtype=None):
    """Cumulative sum of ``x`` along ``axis``; integers keep their dtype, ``dtype`` casts first (a Bool
    input then counts, as MindSpore's does)."""
    array = _cast_to(x, dtype)
    if array.dtype == _BOOL:
        raise TypeError("For 'cumsum', the argument 'x' must be a number Tensor, but got a Bool tensor; cast it "
                        "first, e.g. ops.cumsum(x, axis, dtype=mindspore.int32).")
    if array.ndim == 0:
        raise ValueError("For 'cumsum', the rank of 'x' must be greater than 0, but got 0; "
                         "reshape a scalar to shape (1,) first.")
    return jnp.cumsum(array, _single_axis("cumsum", axis, array.ndim), dtype=array.dtype)


@op(dtypes=ANY, method="cumprod", mint="cumprod", reference=lambda input, dim, dtype=None: np.cumprod(input, dim),
    samples=reduction("dim", None, low=0.5, high=1.5, single=True, required=True))
def cumprod(input, dim, dtype=None):
    """Cumulative product of ``input`` along ``dim``; Bool and Int inputs give Int64."""
    return jnp.cumprod(input, _single_axis("cumprod", dim, input.ndim), dtype=_accumulator(input.dtype, dtype))


@op(dtypes=FLOAT, method="logcumsumexp",
    samples=without(("bfloat16",), reduction(keep=None, single=True, required=True)),
    input_dtypes={"input": primitive_accepting("CumulativeLogsumexp", "x", ("Float16", "Float32", "Float64"))},
    reference=lambda input, axis: np.logaddexp.accumulate(input, axis))
def logcumsumexp(input, axis):
    """Return ``log(cumsum(exp(input), axis))`` computed without overflow."""
    return jax.lax.cumlogsumexp(input, _single_axis("logcumsumexp", axis, input.ndim))


def _running_extreme(op_name, array, axis, largest, index_dtype):
    axis = _single_axis(op_name, axis, array.ndim)
    positions = jax.lax.broadcasted_iota(_INT64, array.shape, axis)

    def combine(earlier, later):
        # A NaN sticks, its index moving to each later NaN (MindSpore 2.10); ties move the index to the later
        # position.
        (value_a, index_a), (value_b, index_b) = earlier, later
        take_later = (value_b >= value_a) if largest else (value_b <= value_a)
        if array.dtype.kind == "f":
            take_later = take_later | jnp.isnan(value_b)
        return jnp.where(take_later, value_b, value_a), jnp.where(take_later, index_b, index_a)

    values, indices = jax.lax.associative_scan(combine, (array, positions), axis=axis)
    return values, indices.astype(index_dtype)


@op(mint=spelling("cummax", "input, dim", axis="dim"),
    dtypes=NUMBER, primitive="Cummax", primitive_attrs=("axis",), method="cummax", grad_check=False,
    samples=reduction(keep=None, single=True, required=True), reference=_numpy_running_extreme(True, np.int64))
def cummax(input, axis):
    """Return ``(values, indices)``: the running maximum along ``axis`` and where it was (Int64)."""
    return _running_extreme("cummax", input, axis, True, _INT64)


@op(mint=spelling("cummin", "input, dim", axis="dim"),
    dtypes=NUMBER, primitive="Cummin", primitive_attrs=("axis",), method="cummin", grad_check=False,
    samples=reduction(keep=None, single=True, required=True), reference=_numpy_running_extreme(False, np.int32))
def cummin(input, axis):
    """Return ``(values, indices)``: the running minimum along ``axis`` and where it was (Int32)."""
    return _running_extreme("cummin", input, axis, False, _INT32)
