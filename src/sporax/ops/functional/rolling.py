"""Rolling-window reductions and shifts: the kernels of MindSpore's ``Rolling`` and ``Shift`` Primitives.

MindSpore lets a script define ``class Rolling(PrimitiveWithInfer)`` with attributes and shape
inference only: the backend runs the kernel registered under that class name. sporax does the
same through the op table: ``Primitive.__call__`` finds the entry whose Primitive name is the
class's name and runs it with the instance's attributes as its settings.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.ops import Primitive
    >>> rolling = Primitive("Rolling")
    >>> for key, value in dict(window=2, min_periods=1, center=False, axis=0, closed="right", method="sum").items():
    ...     _ = rolling.add_prim_attr(key, value)
    >>> rolling(Tensor(np.array([1.0, 2.0, 3.0]))).asnumpy().tolist()
    [1.0, 3.0, 5.0]
"""
import jax.numpy as jnp
import numpy as np

from sporax.ops.op_table import ANY, NUMBER, Sample, op
from sporax.ops.samples import unary

_METHODS = ("max", "min", "mean", "sum", "std", "var")
_CLOSED = ("left", "both", "right", "neither")


def _window_bounds(length, window, center, closed):
    """Per output position, the [start, end) of its window (pandas' fixed-window rule)."""
    offset = (window - 1) // 2 if center else 0
    end = np.arange(offset + 1, length + 1 + offset)
    start = end - window
    if closed in ("left", "both"):
        start = start - 1
    if closed in ("left", "neither"):
        end = end - 1
    return np.clip(start, 0, length), np.clip(end, 0, length)


def _rolling_samples(dtype):
    """Sums and means first (no empty window: the gradient check takes the first two), then the other
    methods, centred and closed windows, along the last axis too."""
    vector, matrix = (sample.arrays[0] for sample in unary(shapes=((7,), (3, 5)))(dtype))
    settings = [(vector, dict(window=3, min_periods=1)), (matrix, dict(window=2, min_periods=1, method="mean")),
                (vector, dict(window=3, min_periods=2, method="max", closed="both")),
                (matrix, dict(window=3, min_periods=1, axis=1, center=True, method="min")),
                (vector, dict(window=4, min_periods=2, method="std", closed="neither")),
                (matrix, dict(window=3, min_periods=2, axis=-1, method="var", closed="left"))]
    return [Sample((array,), kwargs) for array, kwargs in settings]


_REDUCERS = {"sum": np.sum, "mean": np.mean, "max": np.max, "min": np.min,
             "std": lambda window, axis: np.std(window, axis, ddof=1),
             "var": lambda window, axis: np.var(window, axis, ddof=1)}


def _rolling_reference(x, window, min_periods, center=False, axis=0, closed="right", method="sum"):
    """pandas' ``rolling(window, min_periods, center, closed)`` reduction, one output position at a time."""
    moved = np.moveaxis(np.asarray(x, np.float64), axis, -1)
    length = moved.shape[-1]
    result = np.full(moved.shape, np.nan)
    for position in range(length):
        end = position + 1 + ((window - 1) // 2 if center else 0)
        start = end - window - (closed in ("left", "both"))
        end -= closed in ("left", "neither")
        values = moved[..., max(start, 0):max(min(end, length), 0)]
        count = values.shape[-1]
        if count >= min_periods and not (method in ("std", "var") and count < 2):
            result[..., position] = _REDUCERS[method](values, -1)
    return np.moveaxis(result, -1, axis)


@op(inputs="x", dtypes=NUMBER, primitive="Rolling",
    primitive_attrs=("window", "min_periods", "center", "axis", "closed", "method"),
    samples=_rolling_samples, reference=_rolling_reference)
def rolling(x, window, min_periods, center=False, axis=0, closed="right", method="sum"):
    """Rolling-window reduction along ``axis``; windows with fewer than ``min_periods`` values give NaN
    (0 for integer inputs)."""
    if method not in _METHODS or closed not in _CLOSED:
        raise ValueError(f"For 'Rolling', 'method' must be one of {_METHODS} and 'closed' one of {_CLOSED}, but "
                         f"got {method!r} and {closed!r}.")
    if window <= 0 or not 0 < min_periods <= window:
        raise ValueError(f"For 'Rolling', 'window' must be positive and 'min_periods' in [1, window], but got "
                         f"{window} and {min_periods}.")
    array = x
    moved = jnp.moveaxis(array, axis, -1)
    length = moved.shape[-1]
    start, end = _window_bounds(length, window, center, closed)
    positions = np.arange(length)
    member = (positions[None, :] >= start[:, None]) & (positions[None, :] < end[:, None])  # (out, in)
    counts = member.sum(1)
    values = moved.astype(jnp.float64 if moved.dtype == jnp.float64 else jnp.float32)
    values = values[..., None, :]  # (..., out, in)
    if method in ("max", "min"):
        fill = -jnp.inf if method == "max" else jnp.inf
        picked = jnp.where(member, values, fill)
        result = jnp.max(picked, -1) if method == "max" else jnp.min(picked, -1)
    else:
        total = jnp.sum(jnp.where(member, values, 0), -1)
        safe_counts = np.maximum(counts, 1)
        if method == "sum":
            result = total
        else:
            mean = total / safe_counts
            if method == "mean":
                result = mean
            else:
                squares = jnp.sum(jnp.where(member, (values - mean[..., None]) ** 2, 0), -1)
                result = squares / np.maximum(counts - 1, 1)
                result = jnp.where(counts > 1, result, jnp.nan)
                if method == "std":
                    result = jnp.sqrt(result)
    missing = jnp.nan if jnp.issubdtype(array.dtype, jnp.floating) else 0
    result = jnp.where(counts >= min_periods, result, missing)
    if not jnp.issubdtype(array.dtype, jnp.floating):
        result = jnp.trunc(jnp.nan_to_num(result))
    return jnp.moveaxis(result.astype(array.dtype), -1, axis)


def _shift_samples(dtype):
    """Shifts forward, backward, by nothing and past the end, along each axis of a matrix."""
    vector, matrix = (sample.arrays[0] for sample in unary(shapes=((7,), (3, 5)))(dtype))
    fill = np.array(True if dtype == "bool" else 2, dtype)
    settings = [(vector, dict(periods=2)), (matrix, dict(periods=-1, axis=0)), (matrix, dict(periods=0, axis=1)),
                (vector, dict(periods=-9))]
    return [Sample((array, fill), kwargs) for array, kwargs in settings]


def _shift_reference(x, fill_value, periods=1, axis=-1):
    moved = np.moveaxis(np.asarray(x), axis, -1)
    result = np.full(moved.shape, fill_value, moved.dtype)
    length = moved.shape[-1]
    if periods >= 0:
        result[..., periods:] = moved[..., :max(length - periods, 0)]
    else:
        result[..., :max(length + periods, 0)] = moved[..., -periods:]
    return np.moveaxis(result, -1, axis)


@op(inputs=("x", "fill_value"), dtypes=ANY, scalars="fill_value", primitive="Shift",
    primitive_attrs=("periods", "axis"), grad_check=False, samples=_shift_samples, reference=_shift_reference)
def shift(x, fill_value, periods=1, axis=-1):
    """``x`` moved ``periods`` places along ``axis`` (pandas' ``shift``): position ``i`` takes ``x[i - periods]``,
    the positions left empty take ``fill_value`` (cast to ``x``'s dtype)."""
    moved = jnp.moveaxis(x, axis, -1)
    sources = np.arange(moved.shape[-1]) - int(periods)
    inside = (sources >= 0) & (sources < moved.shape[-1])
    taken = moved[..., np.clip(sources, 0, max(moved.shape[-1] - 1, 0))]
    result = jnp.where(inside, taken, jnp.asarray(fill_value).astype(x.dtype))
    return jnp.moveaxis(result, -1, axis)
