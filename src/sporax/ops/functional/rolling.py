"""Rolling-window reductions: the kernel of MindSpore's ``Rolling`` Primitive.

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

from sporax.ops.op_table import NUMBER, op

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


@op(inputs="x", dtypes=NUMBER, primitive="Rolling",
    primitive_attrs=("window", "min_periods", "center", "axis", "closed", "method"))
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
