"""Sorting and selection: ``ops.sort``, ``ops.argsort``, ``ops.topk``.

Indices are Int32, as MindSpore returns them. Values are gathered from the input with the
indices, so gradients flow back to the selected elements.

Example:
    >>> from sporax import Tensor, ops
    >>> values, indices = ops.topk(Tensor([1.0, 5.0, 3.0]), 2)
    >>> indices
    Tensor(shape=[2], dtype=Int32, value= [1, 2])
"""
import jax
import jax.numpy as jnp
import numpy as np

from sporax.core.dtype import from_numpy_dtype
from sporax.ops.functional.nan_orders import sorted_positions, stable_sort_order
from sporax.ops.functional.reduce import _single_axis
from sporax.ops.face_inputs import REAL_NUMBERS, primitive_accepting
from sporax.ops.op_table import ANY, Sample, op, spelling
from sporax.ops.samples import unary, values as _sample_values, with_settings, without

_INT32 = np.dtype(np.int32)


def _sorted(array, axis, descending):
    indices = jnp.moveaxis(sorted_positions(jnp.moveaxis(array, axis, -1), descending), -1, axis)
    return jnp.take_along_axis(array, indices, axis), indices


def _numpy_sort(input, axis=-1, descending=False):
    """``(values, Int32 indices)``; equal values keep their order (a stable sort) either way."""
    key = -np.asarray(input) if descending else np.asarray(input)
    indices = np.argsort(key, axis, kind="stable")
    return np.take_along_axis(input, indices, axis), indices.astype(np.int32)


def _sort_axis(axis, ndim):
    """The axis ``sort``/``argsort`` sort along; a 0-d input is MindSpore 2.10's ValueError (Sort's range check)."""
    if not ndim:
        raise ValueError("For Sort, the check range left must be smaller than right number but got left: 0 and "
                         "right: -1.\nsort and argsort take a Tensor of at least one dimension; reshape a 0-d one "
                         "first, e.g. x.reshape(1).")
    return _single_axis("sort", axis, ndim)


_SORT_SAMPLES = with_settings(unary(shapes=((3, 4), (7,))), {"axis": 0}, {"descending": True},
                              {"axis": 0, "descending": True})


@op(mint=spelling("sort", "input, *, dim=-1, descending=False, stable=False",
                  input_x="input", axis="dim", unused="stable"),
    inputs="input_x", dtypes=ANY, primitive="Sort", primitive_attrs=("axis", "descending"), grad_check=False,
    reference=_numpy_sort, samples=_SORT_SAMPLES)
def sort(input_x, axis=-1, descending=False):
    """Return ``(values, indices)``: ``input_x`` sorted along ``axis`` and the Int32 positions."""
    return _sorted(input_x, _sort_axis(axis, input_x.ndim), bool(descending))


@op(mint=spelling("argsort", "input, dim=-1, descending=False, stable=False", axis="dim", unused="stable"),
    dtypes=ANY, grad_check=False, samples=_SORT_SAMPLES,
    reference=lambda input, axis=-1, descending=False: _numpy_sort(input, axis, descending)[1])
def argsort(input, axis=-1, descending=False):
    """Return the Int32 positions that sort ``input`` along ``axis``."""
    return _sorted(input, _sort_axis(axis, input.ndim), bool(descending))[1]


@op(dtypes=ANY, method="msort", reference=lambda input: np.sort(input, axis=0),
    samples=unary(shapes=((3, 4), (7,))))
def msort(input):
    """Return ``input`` sorted along its first dimension (``sort``'s order, NaN included)."""
    return _sorted(input, 0, False)[0]


def _selection_key(array, largest):
    """An array whose top-k gives the wanted elements (negated order for the smallest)."""
    if largest:
        return array
    if array.dtype.kind == "b":
        return ~array
    if array.dtype.kind == "u":
        return jnp.invert(array)  # order-reversing without overflow
    if array.dtype.kind == "i":
        return -1 - array  # order-reversing without overflow at the minimum value
    return -array


def _numpy_topk(input, k, dim=None, largest=True, sorted=True):
    axis = -1 if dim is None else dim
    if np.ndim(input) == 0:
        return input, np.zeros((), np.int32)
    if not sorted and k == np.shape(input)[axis]:  # the whole dimension, unsorted: in input order
        trailing = tuple(range(1, np.ndim(input) - axis % np.ndim(input)))
        return input, np.broadcast_to(np.expand_dims(np.arange(k), trailing), np.shape(input)).astype(np.int32)
    order = np.argsort(-np.asarray(input) if largest else np.asarray(input), axis, kind="stable")
    indices = np.take(order, np.arange(k), axis)
    return np.take_along_axis(input, indices, axis), indices.astype(np.int32)


def _median_to_first(order, row, result, a, b, c):
    """Swap into ``order[result]`` the median of ``order[a], order[b], order[c]`` (by ``row``, descending)."""
    x, y, z = row[order[a]], row[order[b]], row[order[c]]
    if x > y:
        chosen = b if y > z else (c if x > z else a)
    else:
        chosen = a if x > z else (c if y > z else b)
    order[result], order[chosen] = order[chosen], order[result]


def _partition(order, row, first, last, pivot):
    """Hoare partition of ``order[first:last]`` around ``order[pivot]``, without bounds checks (the median of
    three keeps both scans inside); returns the cut."""
    pivot_value = row[order[pivot]]
    while True:
        while row[order[first]] > pivot_value:
            first += 1
        last -= 1
        while pivot_value > row[order[last]]:
            last -= 1
        if not first < last:
            return first
        order[first], order[last] = order[last], order[first]
        first += 1


def _insertion_sort(order, row, first, last):
    for position in range(first + 1, last):
        item = order[position]
        if row[item] > row[order[first]]:
            order[first + 1:position + 1] = order[first:position]
            order[first] = item
            continue
        hole = position
        while row[item] > row[order[hole - 1]]:
            order[hole] = order[hole - 1]
            hole -= 1
        order[hole] = item


def _sift(order, row, start, hole, length, item):
    """libstdc++'s ``__adjust_heap`` on ``order[start:start + length]`` (a heap whose top is the smallest)."""
    top, child = hole, hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if row[order[start + child]] > row[order[start + child - 1]]:
            child -= 1
        order[start + hole] = order[start + child]
        hole = child
    if length % 2 == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        order[start + hole] = order[start + child - 1]
        hole = child - 1
    parent = (hole - 1) // 2
    while hole > top and row[order[start + parent]] > row[item]:
        order[start + hole] = order[start + parent]
        hole, parent = parent, (parent - 1) // 2
    order[start + hole] = item


def _heap_select(order, row, first, middle, last):
    """libstdc++'s ``__heap_select``: the largest ``middle - first`` of ``order[first:last]`` into the front."""
    length = middle - first
    for parent in range((length - 2) // 2, -1, -1) if length > 1 else ():
        _sift(order, row, first, parent, length, order[first + parent])
    for position in range(middle, last):
        if row[order[position]] > row[order[first]]:
            item = order[position]
            order[position] = order[first]
            _sift(order, row, first, 0, length, item)


def _select_largest(row, nth):
    """Positions of ``row`` after an introselect that puts its ``nth`` largest at ``nth``.

    MindSpore's CPU TopK kernel runs the C++ standard library's ``nth_element`` (GNU libstdc++) over the positions
    with a greater-than comparison, which leaves equal values in an order of its own; this replays it step by step so
    that ties come out where MindSpore puts them.
    """
    order = list(range(len(row)))
    first, last = 0, len(order)
    if nth >= last:
        return order
    depth = 2 * (last.bit_length() - 1)
    while last - first > 3:
        if depth == 0:  # the library's fallback for unlucky pivots
            _heap_select(order, row, first, nth + 1, last)
            order[first], order[nth] = order[nth], order[first]
            return order
        depth -= 1
        _median_to_first(order, row, first, first + 1, first + (last - first) // 2, last - 1)
        cut = _partition(order, row, first + 1, last, first)
        if cut <= nth:
            first = cut
        else:
            last = cut
    _insertion_sort(order, row, first, last)
    return order


def _host_topk_positions(key, k, ordered, tied, stable_positions):
    """MindSpore's CPU TopK positions of the ``k`` largest of each row of ``key`` (NumPy arrays, last axis) where
    ``tied`` marks the row, the first ``k`` of ``stable_positions`` elsewhere.

    The kernel selects with ``nth_element`` at ``k`` and then, for ``ordered``, sorts the ``k`` chosen stably by
    value (``topk`` sends the case where a stable sort of the whole row is used, ``2 * k > n``, to XLA instead).
    """
    key = np.asarray(key)
    rows = key.reshape(-1, key.shape[-1])
    rows = rows.astype(np.float64) if rows.dtype.kind in "fV" else rows
    result = np.array(np.asarray(stable_positions)[..., :k], np.int32).reshape(-1, k)
    for index in np.flatnonzero(np.asarray(tied).reshape(-1)):
        row = rows[index].tolist()
        chosen = _select_largest(row, k)[:k]
        if ordered:  # the kernel's stable sort of the chosen, by value (NaN where libstdc++ leaves it)
            chosen = [chosen[item] for item in stable_sort_order([row[item] for item in chosen], descending=True)]
        result[index] = chosen
    return result.reshape(key.shape[:-1] + (k,))


def _mindspore_tie_order(key, k, ordered):
    """The positions of the ``k`` largest of ``key`` along its last axis that MindSpore's kernel returns.

    Where the ``k + 1`` largest of a row are distinct, the ``k`` chosen and their order are unique: XLA's top k
    gives them. Rows with equal values among them go to a host step that replays the kernel's selection.
    """
    # Only slices of top_k's positions inside the branches and a gather of the values: XLA's CPU top k leaves its
    # fast path (100 times slower on a (64, 32000) input) when both of its outputs or a slice outside are used.
    positions = jax.lax.top_k(key, min(k + 1, key.shape[-1]))[1]
    largest = jnp.take_along_axis(key, positions, -1)
    tied = jnp.any(largest[..., 1:] == largest[..., :-1], axis=-1)
    if key.dtype.kind in "fV":  # NaN falls where the kernel's comparisons leave it: replayed too
        tied = tied | jnp.isnan(key).any(-1)
    shape = jax.ShapeDtypeStruct(positions.shape[:-1] + (k,), _INT32)
    host = lambda operands: jax.pure_callback(  # noqa: E731
        lambda *arrays: _host_topk_positions(arrays[0], k, ordered, arrays[1], arrays[2]), shape, *operands,
        vmap_method="broadcast_all")
    return jax.lax.cond(jnp.any(tied), host, lambda operands: operands[2][..., :k].astype(_INT32),
                        (jax.lax.stop_gradient(key), tied, positions))


@op(mint=spelling("topk", "input, k, dim=-1, largest=True, sorted=True"),
    dtypes=ANY, grad_check=False, reference=_numpy_topk,
    # MindSpore 2.10's TopK (and mint's TopkExt) refuse Bool
    input_dtypes={"input": primitive_accepting("TopK", "input_x", ("BFloat16",) + REAL_NUMBERS, keep=True)},
    samples=with_settings(unary(shapes=((3, 4), (7,)), k=2), {"k": 3, "dim": 0}, {"k": 1, "largest": False},
                          {"k": 4, "sorted": False}))
def topk(input, k, dim=None, largest=True, sorted=True):
    """Return ``(values, indices)``: the ``k`` largest (or smallest) elements along ``dim``.

    Args:
        input (Tensor): the values.
        k (int): how many to take; at most the size of ``dim``.
        dim (int): the dimension (the last when None).
        largest (bool): take the largest when True, else the smallest.
        sorted (bool): results in order. When False and ``k`` is the whole dimension, the input
            order is kept (MindSpore's CPU kernel); otherwise the results are in order.

    Among equal values the positions are the ones MindSpore's CPU kernel returns: the first ones in order when
    ``sorted`` and ``2 * k`` exceeds the dimension, else the ones its ``nth_element`` selection leaves.
    """
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
        raise TypeError(f"For 'topk', 'k' must be an int, but got {k!r}.")
    axis = _single_axis("topk", -1 if dim is None else dim, input.ndim)
    size = input.shape[axis] if input.ndim else 1
    if not 0 <= k <= size:
        raise ValueError(f"For 'topk', 'k' must be in [0, {size}] (the size of dimension {axis}), "
                         f"but got {k}.")
    if input.ndim == 0:
        return input, jnp.zeros((), _INT32)
    if not sorted and k == size:
        return input, jax.lax.broadcasted_iota(_INT32, input.shape, axis)
    moved = jnp.moveaxis(input, axis, -1)
    key = _selection_key(moved, largest)
    if key.dtype.kind == "b":
        key = key.astype(_INT32)
    if k and not (sorted and 2 * k > size):
        indices = _mindspore_tie_order(key, int(k), bool(sorted))
    elif key.dtype.kind in "fV":  # a stable sort of the whole row (rows holding NaN replayed)
        indices = sorted_positions(key, descending=True)[..., :k]
    else:  # a stable sort of the whole row: XLA's top k (equal values by position) is that order
        indices = jax.lax.top_k(key, int(k))[1]
    values = jnp.take_along_axis(moved, indices, -1)
    return jnp.moveaxis(values, -1, axis), jnp.moveaxis(indices, -1, axis).astype(_INT32)


def _numpy_median(input, axis=-1, keepdims=False):
    """The lower median and its position (the first of equal values, as a stable sort places them)."""
    if np.ndim(input) == 0:
        return input, np.zeros((), np.int64)
    order = np.argsort(input, axis, kind="stable")
    middle = np.take(order, [(np.shape(input)[axis] - 1) // 2], axis)
    values = np.take_along_axis(input, middle, axis)
    if not keepdims:
        values, middle = np.squeeze(values, axis), np.squeeze(middle, axis)
    return values, middle.astype(np.int64)


# Its Tensor method also takes MindSpore's ``dim``/``keepdim`` spelling (tensor_methods.median).
_MEDIAN_DTYPES = ("Float32", "Float64", "Int16", "Int32", "Int64")


def _check_median(input, axis=-1, keepdims=False):
    # MindSpore 2.10's Median type check (every face: ops.median, Tensor.median)
    got = str(from_numpy_dtype(input.dtype))
    if got not in _MEDIAN_DTYPES:
        allowed = ", ".join(f"Tensor[{name}]" for name in _MEDIAN_DTYPES)
        raise TypeError(f"For primitive[Median], the input argument[x] must be a type of {{{allowed}}}, but got "
                        f"Tensor[{got}].\nFor 'median', 'input' must be Float32, Float64, Int16, Int32 or Int64.")


@op(dtypes=ANY, grad_check=False, reference=_numpy_median, value_check=_check_median,
    samples=without(("float16", "bfloat16"),
                    with_settings(unary(shapes=((3, 4), (7,), ())), {"axis": 0}, {"axis": 1, "keepdims": True})))
def median(input, axis=-1, keepdims=False):
    """Return ``(values, indices)``: the lower median along ``axis`` and its Int64 position."""
    axis = _single_axis("median", axis, input.ndim)
    if input.ndim == 0:
        return input, jnp.zeros((), np.int64)
    order = jnp.argsort(input, axis=axis, stable=True)
    middle = jax.lax.slice_in_dim(order, (input.shape[axis] - 1) // 2,
                                  (input.shape[axis] - 1) // 2 + 1, axis=axis)
    values = jnp.take_along_axis(input, middle, axis)
    if not keepdims:
        values, middle = jnp.squeeze(values, axis), jnp.squeeze(middle, axis)
    return values, middle.astype(np.int64)


def _numpy_sparse_reorder(indices, values, shape):
    order = np.lexsort(tuple(np.asarray(indices)[:, axis] for axis in reversed(range(np.shape(indices)[1]))))
    return np.asarray(indices)[order], np.asarray(values)[order]


def _reorder_samples(dtype):
    coordinates = np.array([[2, 1], [0, 3], [2, 0], [0, 1], [1, 2]], np.int64)
    return [Sample((coordinates, _sample_values(5, dtype), np.array([3, 4], np.int64))),
            Sample((coordinates[:, :1], _sample_values(5, dtype, seed=1), np.array([3], np.int64)))]


@op(inputs=("indices", "values", "shape"), indices=("indices", "shape"), dtypes=ANY, grad_check=False,
    reference=_numpy_sparse_reorder, samples=_reorder_samples)
def sparse_reorder(indices, values, shape):
    """A sparse tensor's entries sorted into row-major (canonical) order: ``(indices, values)`` (ties keep their
    order). MindSpore has it as the Primitive ``SparseReorder`` only, which calls this op."""
    if (indices.ndim != 2 or values.ndim != 1 or shape.ndim != 1
            or indices.shape[0] != values.shape[0] or indices.shape[1] != shape.shape[0]):
        raise ValueError(f"For 'SparseReorder', expected indices (N, R), values (N,) and shape (R,), but got "
                         f"{indices.shape}, {values.shape} and {shape.shape}.")
    # lexsort's last key is the primary one: the first coordinate
    order = jnp.lexsort(tuple(indices[:, axis] for axis in reversed(range(indices.shape[1]))))
    return indices[order], values[order]
