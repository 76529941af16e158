"""Where NaN lands in MindSpore 2.10's CPU comparisons: the element-wise extremes, clamping and the extreme
reductions.

MindSpore's kernels pick with one comparison, not with IEEE's NaN-propagating max/min, so NaN wins or loses by
its place (all recorded on the oracle, MindSpore 2.10 CPU):

- ``maximum(a, b)`` is ``a > b ? a : b`` and ``minimum(a, b)`` is ``a < b ? a : b``: where either is NaN the
  comparison fails and ``b`` is the answer (``maximum(nan, 1) = 1``, ``maximum(1, nan) = nan``; for zeros,
  ``maximum(-0., 0.) = 0.`` and ``maximum(0., -0.) = -0.``). Their gradient goes to ``a`` unless ``a < b``
  (``a > b`` for minimum), to ``b`` unless ``a > b``, half each on a tie: where a NaN is involved, both
  operands get the whole gradient.
- ``clamp`` is ``x >= min ? x : min``, then ``x <= max ? x : max``: a NaN input gives the bound (and no
  gradient), a NaN bound gives NaN unless the other bound replaces it.
- ``max``/``min``/``amax``/``amin``/``argmax``/``argmin`` over an axis scan from the first element, keeping
  the running extreme unless a later element compares greater (less): a NaN in first place is the answer
  (index 0), a NaN anywhere else is passed over.

Example:
    >>> import numpy as np
    >>> import jax.numpy as jnp
    >>> from sporax.ops.functional.nan_orders import select_maximum
    >>> np.asarray(select_maximum(jnp.array([np.nan, 1.0]), jnp.array([1.0, np.nan]))).tolist()
    [1.0, nan]
"""
import jax
import jax.numpy as jnp
import numpy as np


def _select(largest):
    def compare(a, b):
        return a > b if largest else a < b

    @jax.custom_jvp
    def select(a, b):
        return jnp.where(compare(a, b), a, b)

    @select.defjvp
    def select_jvp(primals, tangents):
        a, b = primals
        da, db = tangents
        out = select(a, b)
        if not jnp.issubdtype(out.dtype, jnp.inexact):
            return out, jnp.zeros_like(out)
        tie = a == b
        # a comparison with NaN fails both ways, so neither operand is ruled out: both get the gradient
        to_a = jnp.where(tie, 0.5, jnp.where(compare(b, a), 0.0, 1.0)).astype(out.dtype)
        to_b = jnp.where(tie, 0.5, jnp.where(compare(a, b), 0.0, 1.0)).astype(out.dtype)
        return out, to_a * da + to_b * db

    return select


select_maximum = _select(True)
select_minimum = _select(False)


def clamp_between(input, min=None, max=None):
    """``input`` clamped by MindSpore's two selections (lower bound first); on a bound the gradient goes to
    ``input``."""
    if min is not None:
        input = jnp.where(input >= min, input, min)
    if max is not None:
        input = jnp.where(input <= max, input, max)
    return input


def _floating(array):
    return jnp.issubdtype(array.dtype, jnp.floating)


def _first_in_scan(array, axes):
    """The element each scan over ``axes`` starts from (the one at index 0 of every reduced axis), keeping the
    reduced axes as size 1."""
    index = tuple(slice(0, 1) if axis in axes else slice(None) for axis in range(array.ndim))
    return array[index]


def scanned_extreme(array, axes, keepdims, largest):
    """The extreme of ``array`` over ``axes`` (a tuple) as MindSpore's scan finds it: NaN only when it comes
    first."""
    reduce = jnp.max if largest else jnp.min
    if not _floating(array) or array.size == 0:
        return reduce(array, axes, keepdims=keepdims)
    first = _first_in_scan(array, axes)
    fill = -jnp.inf if largest else jnp.inf
    # NaN filled with the identity: a number in first place still wins over an all-NaN rest
    numbers = reduce(jnp.where(jnp.isnan(array), jnp.asarray(fill, array.dtype), array), axes, keepdims=True)
    result = jnp.where(jnp.isnan(first), first, numbers)
    return result if keepdims else jnp.squeeze(result, axes)


def scanned_index(array, axis, keepdims, largest):
    """The index over ``axis`` (an int, or None for the flattened array) of MindSpore's scanned extreme: the
    first NaN-free extreme, or 0 when the scan starts on NaN."""
    pick = jnp.argmax if largest else jnp.argmin
    if axis is None:
        array, axis = array.reshape(-1), 0
        keepdims = False
    if not _floating(array) or array.size == 0:
        return pick(array, axis, keepdims=keepdims)
    fill = -jnp.inf if largest else jnp.inf
    nan = jnp.isnan(array)
    index = pick(jnp.where(nan, jnp.asarray(fill, array.dtype), array), axis, keepdims=keepdims)
    first = jnp.take(nan, np.array([0]), axis)
    first = first if keepdims else jnp.squeeze(first, axis)
    return jnp.where(first, 0, index)
