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
- ``sort``/``argsort``/``topk``/``msort``: rows holding NaN are replayed on the host as libstdc++'s stable_sort
  leaves them; the max pools follow their kernels' own rules (the section at the end).

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
        # a comparison with NaN fails both ways, so neither operand is ruled out: both get the gradient.
        # The operand ruled out gets a selected zero, not the gradient times 0: MindSpore prints 0.
        # there, where a product would give -0. for a negative gradient.
        half = jnp.asarray(0.5, out.dtype)
        to_a = jnp.where(tie, half * da, jnp.where(compare(b, a), jnp.zeros_like(da), da))
        to_b = jnp.where(tie, half * db, jnp.where(compare(a, b), jnp.zeros_like(db), db))
        return out, (to_a + to_b).astype(out.dtype)

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


# --- sorting rows that hold NaN -----------------------------------------------------------------------------
# MindSpore's CPU Sort (and TopK's final ordering) run GNU libstdc++'s ``std::stable_sort`` with ``<`` (``>``
# descending). NaN breaks the strict weak order that sort assumes, so where NaN lands depends on the algorithm's
# every step: rows holding NaN are sorted on the host by the replay below (checked against MindSpore 2.10 on rows
# of 2 to 257 elements, both orders); other rows are any stable sort's.
_CHUNK = 7  # libstdc++'s insertion-sorted run length before merging


def _insertion_sort(order, row, first, last, before):
    for position in range(first + 1, last):
        item = order[position]
        if before(row[item], row[order[first]]):
            order[first + 1:position + 1] = order[first:position]
            order[first] = item
            continue
        hole = position
        while before(row[item], row[order[hole - 1]]):
            order[hole] = order[hole - 1]
            hole -= 1
        order[hole] = item


def _move_merge(source, first, middle, last, target, out, row, before):
    """Merge ``source[first:middle]`` and ``source[middle:last]`` into ``target[out:]``; returns the end."""
    second = middle
    while first < middle and second < last:
        if before(row[source[second]], row[source[first]]):
            target[out], second = source[second], second + 1
        else:
            target[out], first = source[first], first + 1
        out += 1
    rest = source[first:middle] + source[second:last]
    target[out:out + len(rest)] = rest
    return out + len(rest)


def _merge_runs(source, first, last, target, out, step, row, before):
    while last - first >= 2 * step:
        out = _move_merge(source, first, first + step, first + 2 * step, target, out, row, before)
        first += 2 * step
    _move_merge(source, first, first + min(last - first, step), last, target, out, row, before)


def _merge_sort_with_buffer(order, first, last, row, before):
    length = last - first
    buffer = [0] * length
    start = first
    while last - start >= _CHUNK:
        _insertion_sort(order, row, start, start + _CHUNK, before)
        start += _CHUNK
    _insertion_sort(order, row, start, last, before)
    step = _CHUNK
    while step < length:
        _merge_runs(order, first, last, buffer, 0, step, row, before)
        step *= 2
        _merge_runs(buffer, 0, length, order, first, step, row, before)
        step *= 2


def stable_sort_order(row, descending=False):
    """The positions libstdc++'s ``std::stable_sort`` leaves ``row`` (a list of floats) in, comparing with ``<``
    (``>`` when ``descending``): halves sorted with a buffer, then merged forward (even length) or backward."""
    before = (lambda a, b: a > b) if descending else (lambda a, b: a < b)
    size = len(row)
    order = list(range(size))
    if size < 2:
        return order
    middle = (size + 1) // 2
    _merge_sort_with_buffer(order, 0, middle, row, before)
    _merge_sort_with_buffer(order, middle, size, row, before)
    if middle <= size - middle:
        _move_merge(order[:middle] + order[middle:], 0, middle, size, order, 0, row, before)
        return order
    buffer, last1, last2, out = order[middle:], middle - 1, size - middle - 1, size
    while True:
        out -= 1
        if before(row[buffer[last2]], row[order[last1]]):
            order[out] = order[last1]
            if last1 == 0:
                order[out - last2 - 1:out] = buffer[:last2 + 1]
                return order
            last1 -= 1
        else:
            order[out] = buffer[last2]
            if last2 == 0:
                return order
            last2 -= 1


def host_sort_positions(rows, positions, nan_rows, descending):
    """``positions`` (Int32, rows along the last axis) with the rows ``nan_rows`` marks replaced by the replay."""
    rows = np.asarray(rows)
    flat = rows.reshape(-1, rows.shape[-1]).astype(np.float64)
    result = np.array(positions, np.int32).reshape(flat.shape)
    for index in np.flatnonzero(np.asarray(nan_rows).reshape(-1)):
        result[index] = stable_sort_order(flat[index].tolist(), descending)
    return result.reshape(rows.shape)


def sorted_positions(array, descending):
    """Int32 positions sorting ``array`` along its last axis as MindSpore's CPU Sort does (stable; rows holding
    NaN replayed on the host)."""
    positions = jnp.argsort(array, axis=-1, stable=True, descending=descending).astype(np.int32)
    if not _floating(array) or array.size == 0:
        return positions
    nan_rows = jnp.isnan(array).any(-1)
    shape = jax.ShapeDtypeStruct(positions.shape, np.int32)

    def host(operands):
        return jax.pure_callback(lambda *arrays: host_sort_positions(*arrays, descending), shape, *operands,
                                 vmap_method="broadcast_all")

    return jax.lax.cond(nan_rows.any(), host, lambda operands: operands[1],
                        (jax.lax.stop_gradient(array), positions, nan_rows))


# --- max pooling -----------------------------------------------------------------------------------------------
# MindSpore 2.10's CPU max pools differ by kernel (recorded): MaxPool/MaxPool3D (nn.MaxPool1d/2d with 'valid' or
# 'same') fold each window in row-major order with ``best > x ? best : x``, skipping padding, so NaN wins only in
# last place and the numbers after the last NaN decide; ops.max_pool2d (MaxPoolWithArgmaxV2) passes NaN over;
# nn.MaxPool2d with 'pad' gives NaN for a window holding any. Every one of them sends the gradient to the first
# maximum of the NaN-free window.
LAST = "last"
IGNORE = "ignore"
PROPAGATE = "propagate"


def nan_free(array):
    """``array`` with NaN as -inf (a max over it passes NaN over)."""
    if not _floating(array):
        return array
    return jnp.where(jnp.isnan(array), jnp.asarray(-jnp.inf, array.dtype), array)


@jax.custom_jvp
def _differentiated_as(value, source):  # ``value``, its tangent ``source``'s (not a where: 3x slower backward)
    return value
_differentiated_as.defjvp(lambda primals, tangents: (primals[0], tangents[1]))


def last_nan_fold(views, valid_views):
    """MaxPool's window fold ``best > x ? best : x`` over the window's views (row-major), padding skipped; a
    padded first view starts as -inf, which any element replaces."""
    best = None
    for values, valid in zip(views, valid_views):
        if best is None:
            best = values
            continue
        best = jnp.where(valid & ~(best > values), values, best)
    return best


def pooled_with_nan_rule(array, rule, pool, window_views, spatial_rank):
    """``pool`` (a max pool of an array) of ``array`` under ``rule``; ``window_views(array)`` gives the views
    one per kernel offset (padding -inf) over the last ``spatial_rank`` axes, for the LAST rule's fold.

    The gradient is the plain pool's, outside any branch (a differentiated ``cond`` keeps both branches'
    residuals: 3x slower backward); only the value of an input holding NaN takes the rule's branch. (MindSpore
    sends a NaN window's gradient to its first NaN-free maximum: sporax gives such a window none.)"""
    if rule is None or not _floating(array):
        return pool(array)
    if rule == IGNORE:  # not a layer's pool: the NaN-free pool, its gradient MindSpore's
        return pool(nan_free(array))
    plain = pool(array)
    data = jax.lax.stop_gradient(array)

    def with_nan():
        if rule == PROPAGATE:
            return jnp.where(pool(jnp.isnan(data).astype(data.dtype)) > 0, jnp.asarray(jnp.nan, data.dtype),
                             pool(nan_free(data)))
        valid = [view == 1 for view in window_views(jnp.ones(data.shape[data.ndim - spatial_rank:], data.dtype))]
        return last_nan_fold(window_views(data), valid)

    # a sum is NaN where the input holds NaN (or +inf and -inf: the rule's branch, right there too), and is
    # cheaper than any(isnan) on XLA:CPU
    has_nan = jnp.isnan(jnp.sum(data))
    if isinstance(has_nan, jax.core.Tracer):  # in a compiled program
        value = jax.lax.cond(has_nan, with_nan, lambda: jax.lax.stop_gradient(plain))
    else:
        # Op by op (PyNative, its gradients included) the flag is known: a cond applied eagerly closes over this
        # call's values and was compiled again at every call (issue 26: ~60 ms each nn.MaxPool2d call).
        value = with_nan() if has_nan else jax.lax.stop_gradient(plain)
    return _differentiated_as(value, plain)
