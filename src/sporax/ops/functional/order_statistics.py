"""Order statistics and searching: ``quantile``, ``nanquantile``, ``nanmedian``, ``searchsorted``, ``top_k``,
``reverse``, ``nth_element`` and the bound searches of ``LowerBound``/``UpperBound``.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> ops.searchsorted(Tensor(np.array([1.0, 2.0, 3.0], np.float32)), Tensor(np.array([2.0, 2.5], np.float32))).asnumpy().tolist()
    [1, 2]
"""
import jax
import jax.numpy as jnp

from sporax.core.tensor import Tensor
from sporax.ops._dispatch import array_of, describe, wrap
from sporax.ops.functional.special_math import floating as _float
from sporax.ops.functional._args import axis_index
from sporax.ops.functional.sorting import topk


def _quantile(op_name, function, input, q, axis, keepdims):
    x = _float(op_name, "input", input)
    if isinstance(q, Tensor):
        levels = q._value
        if levels.ndim > 1 or levels.dtype != x.dtype:
            raise ValueError(f"For '{op_name}', 'q' must be a scalar or 1-D Tensor of dtype {x.dtype}, but got "
                             f"{describe(q)}.")
        if not isinstance(levels, jax.core.Tracer) and bool(jnp.any((levels < 0) | (levels > 1))):
            raise ValueError(f"For '{op_name}', the values of 'q' must lie in [0, 1].")
    elif isinstance(q, float) and 0.0 <= q <= 1.0:
        levels = q
    else:
        raise TypeError(f"For '{op_name}', 'q' must be a float in [0, 1] or a Tensor, but got {q!r}.")
    if axis is not None:
        axis = axis_index(op_name, "axis", axis, x.ndim)
    return wrap(function(x, levels, axis=axis, keepdims=bool(keepdims)).astype(x.dtype))


def quantile(input, q, axis=None, keepdims=False):
    """The ``q``-th quantiles along ``axis`` (flattened when None), linearly interpolated; NaN if a slice has NaN.

    A 1-D ``q`` adds a leading axis of its length.
    """
    return _quantile("quantile", jnp.quantile, input, q, axis, keepdims)


def nanquantile(input, q, axis=None, keepdims=False):
    """``quantile`` ignoring NaN values (a slice of NaN only gives NaN)."""
    return _quantile("nanquantile", jnp.nanquantile, input, q, axis, keepdims)


def nanmedian(input, axis=-1, keepdims=False):
    """``(values, indices)``: the lower median along ``axis`` ignoring NaN, and its Int64 position."""
    x = _float("nanmedian", "input", input)
    axis = axis_index("nanmedian", "axis", axis, x.ndim)
    moved = jnp.moveaxis(x, axis, -1) if x.ndim else x[None]
    order = jnp.argsort(moved, axis=-1, stable=True)  # NaN sorts last
    count = jnp.sum(~jnp.isnan(moved), axis=-1, keepdims=True)
    middle = jnp.maximum((count - 1) // 2, 0)
    index = jnp.take_along_axis(order, middle, axis=-1)
    values = jnp.take_along_axis(moved, index, axis=-1)
    if keepdims and x.ndim:
        values, index = jnp.moveaxis(values, -1, axis), jnp.moveaxis(index, -1, axis)
    else:
        values, index = values[..., 0], index[..., 0]
    return wrap(values), wrap(index.astype(jnp.int64))


def _search(sequence, values, side):
    if sequence.ndim == 1:
        return jnp.searchsorted(sequence, values, side=side)
    flat_sequence = sequence.reshape((-1, sequence.shape[-1]))
    flat_values = values.reshape((flat_sequence.shape[0], -1))
    found = jax.vmap(lambda s, v: jnp.searchsorted(s, v, side=side))(flat_sequence, flat_values)
    return found.reshape(values.shape)


def searchsorted(sorted_sequence, values, *, out_int32=False, right=False, side=None, sorter=None):
    """Indices at which ``values`` would be inserted into the sorted last axis of ``sorted_sequence``.

    ``right`` (or ``side='right'``) returns the index after equal elements; ``sorter`` gives the order that
    sorts an unsorted sequence.
    """
    sequence = array_of("searchsorted", "sorted_sequence", sorted_sequence)
    targets = array_of("searchsorted", "values", values)
    if side not in (None, "left", "right"):
        raise ValueError(f"For 'searchsorted', 'side' must be 'left' or 'right', but got {side!r}.")
    if side == "left" and right:
        raise ValueError("For 'searchsorted', 'side' is 'left' while 'right' is True.")
    if sequence.ndim > 1 and sequence.shape[:-1] != targets.shape[:-1]:
        raise ValueError(f"For 'searchsorted', the leading dimensions of 'sorted_sequence' "
                         f"{tuple(sequence.shape)} and 'values' {tuple(targets.shape)} must match.")
    if sorter is not None:
        sequence = jnp.take_along_axis(sequence, array_of("searchsorted", "sorter", sorter), axis=-1)
    found = _search(sequence, targets.astype(sequence.dtype), "right" if (right or side == "right") else "left")
    return wrap(found.astype(jnp.int32 if out_int32 else jnp.int64))


def bound(op_name, sorted_x, values, side, out_type):
    """The LowerBound/UpperBound search: per row of the 2-D ``sorted_x``, the insertion points of ``values``."""
    sequence = array_of(op_name, "sorted_x", sorted_x)
    targets = array_of(op_name, "values", values)
    if sequence.ndim != 2 or targets.ndim != 2 or sequence.shape[0] != targets.shape[0]:
        raise ValueError(f"For '{op_name}', 'sorted_x' and 'values' must be 2-D with the same number of rows, but "
                         f"got {tuple(sequence.shape)} and {tuple(targets.shape)}.")
    if sequence.dtype != targets.dtype:
        raise TypeError(f"For '{op_name}', 'sorted_x' and 'values' must have the same dtype, but got "
                        f"{sequence.dtype} and {targets.dtype}.")
    return wrap(_search(sequence, targets, side).astype(out_type))


def top_k(input_x, k, sorted=True):
    """``(values, indices)`` of the ``k`` largest elements along the last axis (indices Int32)."""
    return topk(input_x, k, None, True, sorted)


def reverse(x, axis):
    """``x`` with the order of the elements along each axis of ``axis`` reversed."""
    array = array_of("reverse", "x", x)
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    return wrap(jnp.flip(array, tuple(axis_index("reverse", "axis", a, array.ndim) for a in axes)))


def nth_element(input, n, reverse=False):
    """The ``n``-th smallest (``reverse``: largest) value along the last axis."""
    array = array_of("NthElement", "input", input)
    if array.ndim < 1:
        raise ValueError("For 'NthElement', 'input' must be at least 1-D.")
    index = int(n.asnumpy()) if isinstance(n, Tensor) else n
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < array.shape[-1]:
        raise ValueError(f"For 'NthElement', 'n' must be an int in [0, {array.shape[-1]}), but got {n!r}.")
    ordered = jnp.sort(array, axis=-1)
    return wrap(ordered[..., array.shape[-1] - 1 - index] if reverse else ordered[..., index])
