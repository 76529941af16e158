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
import numpy as np

from sporax.core.tensor import Tensor
from sporax.ops._dispatch import array_of, describe, wrap
from sporax.ops.functional._args import axis_index
from sporax.ops.functional.sorting import _numpy_topk, topk
from sporax.ops.op_table import ANY, NUMBER, Sample, op
from sporax.ops.op_table import spelling
from sporax.ops.samples import unary, values as _sample_values, with_settings


def _quantile_levels(op_name):
    """The ``value_check`` of ``q``: a float in [0, 1], or a 0-D/1-D Tensor of ``input``'s dtype whose values
    (when known: not inside a compiled function) lie in [0, 1]."""

    def check(input, q, axis=None, keepdims=False):
        if isinstance(q, bool) or not hasattr(q, "dtype") and not (isinstance(q, float) and 0.0 <= q <= 1.0):
            raise TypeError(f"For '{op_name}', 'q' must be a float in [0, 1] or a Tensor, but got {q!r}.")
        if hasattr(q, "dtype"):
            if q.ndim > 1 or q.dtype != input.dtype:
                raise ValueError(f"For '{op_name}', 'q' must be a scalar or 1-D Tensor of dtype {input.dtype}, but "
                                 f"got {describe(wrap(q))}.")
            if not isinstance(q, jax.core.Tracer) and bool(jnp.any((q < 0) | (q > 1))):
                raise ValueError(f"For '{op_name}', the values of 'q' must lie in [0, 1].")

    return check


def _quantile_samples(dtype):
    """A matrix over all elements and along each axis, a vector, then levels as a 1-D Tensor."""
    matrix, vector = _sample_values((3, 4), dtype, seed=0), _sample_values((7,), dtype, seed=1)
    levels = np.asarray([0.25, 0.5, 0.9]).astype(matrix.dtype)
    return [Sample((matrix, 0.3)), Sample((matrix, 0.75), {"axis": 1, "keepdims": True}),
            Sample((vector, 0.5), {"axis": 0}), Sample((matrix, levels), {"axis": -1})]


def _numpy_quantile(function):
    def reference(input, q, axis=None, keepdims=False):
        return function(input, q, axis=axis, keepdims=keepdims)
    return reference


def _quantile_op(name, function, numpy_function, doc, samples):
    """Declare ``name`` (``quantile``, ``nanquantile``): ``function`` of the float ``input`` at the levels ``q``."""

    def kernel(input, q, axis=None, keepdims=False):
        if axis is not None:
            axis = axis_index(name, "axis", axis, input.ndim)
        return function(input, q, axis=axis, keepdims=bool(keepdims)).astype(input.dtype)

    kernel.__name__ = kernel.__qualname__ = name
    kernel.__doc__ = doc
    kernel.__module__ = __name__
    return op(inputs=("input", "q"), scalars="q", method=name, value_check=_quantile_levels(name),
              grad_check=False, samples=samples, reference=_numpy_quantile(numpy_function))(kernel)


def _with_nans(maker):
    """``maker``'s samples, then the first once more with a NaN in every other row (and a row of NaN only)."""
    def make(dtype):
        samples = maker(dtype)
        first = np.array(samples[0].arrays[0], copy=True)
        first[::2, 1] = np.nan
        first[-1, :] = np.nan
        return samples + [Sample((first,) + samples[0].arrays[1:], samples[0].kwargs)]
    return make


quantile = _quantile_op("quantile", jnp.quantile, np.quantile, """The ``q``-th quantiles along ``axis`` (flattened when
    None), linearly interpolated; NaN if a slice has NaN. A 1-D ``q`` adds a leading axis of its length.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.quantile(Tensor(np.array([1.0, 2.0, 3.0, 4.0], np.float32)), 0.5).asnumpy().item()
        2.5
    """, _quantile_samples)
nanquantile = _quantile_op("nanquantile", jnp.nanquantile, np.nanquantile, """``quantile`` ignoring NaN values (a
    slice of NaN only gives NaN).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.nanquantile(Tensor(np.array([1.0, np.nan, 3.0], np.float32)), 0.5).asnumpy().item()
        2.0
    """, _with_nans(_quantile_samples))


def _numpy_nanmedian(input, axis=-1, keepdims=False):
    """The lower median ignoring NaN and its position (the first of equal values); NaN rows give NaN, 0."""
    moved = np.moveaxis(np.asarray(input), axis, -1) if np.ndim(input) else np.reshape(input, (1,))
    values, indices = np.empty(moved.shape[:-1]), np.zeros(moved.shape[:-1], np.int64)
    for row in np.ndindex(moved.shape[:-1]):
        order = np.argsort(moved[row], kind="stable")  # NaN sorts last
        count = int(np.sum(~np.isnan(moved[row])))
        indices[row] = order[max((count - 1) // 2, 0)]
        values[row] = moved[row][indices[row]]
    if keepdims and np.ndim(input):
        return np.expand_dims(values, axis), np.expand_dims(indices, axis)
    return values, indices


@op(dtypes=NUMBER, grad_check=False, reference=_numpy_nanmedian,
    samples=_with_nans(with_settings(unary(shapes=((3, 4), (7,))), {"axis": 0}, {"axis": 1, "keepdims": True})))
def nanmedian(input, axis=-1, keepdims=False):
    """``(values, indices)``: the lower median along ``axis`` ignoring NaN (integers have none), and its Int64
    position."""
    axis = axis_index("nanmedian", "axis", axis, input.ndim)
    moved = jnp.moveaxis(input, axis, -1) if input.ndim else input[None]
    order = jnp.argsort(moved, axis=-1, stable=True)  # NaN sorts last
    count = jnp.sum(~jnp.isnan(moved), axis=-1, keepdims=True)
    middle = jnp.maximum((count - 1) // 2, 0)
    index = jnp.take_along_axis(order, middle, axis=-1)
    values = jnp.take_along_axis(moved, index, axis=-1)
    if keepdims and input.ndim:
        values, index = jnp.moveaxis(values, -1, axis), jnp.moveaxis(index, -1, axis)
    else:
        values, index = values[..., 0], index[..., 0]
    return values, index.astype(jnp.int64)


def _search(sequence, values, side):
    if sequence.ndim == 1:
        return jnp.searchsorted(sequence, values, side=side)
    flat_sequence = sequence.reshape((-1, sequence.shape[-1]))
    flat_values = values.reshape((flat_sequence.shape[0], -1))
    found = jax.vmap(lambda s, v: jnp.searchsorted(s, v, side=side))(flat_sequence, flat_values)
    return found.reshape(values.shape)


def _numpy_searchsorted(sorted_sequence, values, sorter=None, *, out_int32=False, right=False, side=None):
    if sorter is not None:
        sorted_sequence = np.take_along_axis(sorted_sequence, sorter, -1)
    side = "right" if right or side == "right" else "left"
    if np.ndim(sorted_sequence) == 1:
        found = np.searchsorted(sorted_sequence, values, side)
    else:
        found = np.stack([np.searchsorted(row, targets, side) for row, targets in
                          zip(np.reshape(sorted_sequence, (-1, np.shape(sorted_sequence)[-1])),
                              np.reshape(values, (int(np.prod(np.shape(sorted_sequence)[:-1])), -1)))])
    return np.reshape(found, np.shape(values)).astype(np.int32 if out_int32 else np.int64)


def _search_samples(dtype):
    sequence = np.sort(_sample_values((2, 5), dtype, seed=0), -1)
    values = np.concatenate([sequence[:, 1:3], _sample_values((2, 2), dtype, seed=1)], -1)
    unsorted = _sample_values((6,), dtype, seed=2)
    return [Sample((sequence, values)), Sample((sequence[0], values[1]), {"right": True}),
            Sample((sequence, values), {"side": "right", "out_int32": True}),
            Sample((unsorted, values[0], np.argsort(unsorted).astype(np.int64)))]


@op(inputs=("sorted_sequence", "values", "sorter"), indices="sorter", dtypes=ANY, grad_check=False,
    # a spelling with the op's own parameters: the mint face takes the keyword-only sorter by name
    mint=spelling("searchsorted", "sorted_sequence, values, *, out_int32=False, right=False, side=None, sorter=None"),
    reference=_numpy_searchsorted, samples=_search_samples)
def searchsorted(sorted_sequence, values, *, out_int32=False, right=False, side=None, sorter=None):
    """Indices at which ``values`` would be inserted into the sorted last axis of ``sorted_sequence``.

    ``right`` (or ``side='right'``) returns the index after equal elements; ``sorter`` gives the order that
    sorts an unsorted sequence.
    """
    if side not in (None, "left", "right"):
        raise ValueError(f"For 'searchsorted', 'side' must be 'left' or 'right', but got {side!r}.")
    if side == "left" and right:
        raise ValueError("For 'searchsorted', 'side' is 'left' while 'right' is True.")
    if sorted_sequence.ndim > 1 and sorted_sequence.shape[:-1] != values.shape[:-1]:
        raise ValueError(f"For 'searchsorted', the leading dimensions of 'sorted_sequence' "
                         f"{tuple(sorted_sequence.shape)} and 'values' {tuple(values.shape)} must match.")
    if sorter is not None:
        sorted_sequence = jnp.take_along_axis(sorted_sequence, sorter, axis=-1)
    found = _search(sorted_sequence, values.astype(sorted_sequence.dtype),
                    "right" if (right or side == "right") else "left")
    return found.astype(jnp.int32 if out_int32 else jnp.int64)


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


@op(inputs="input_x", dtypes=ANY, primitive="TopK", primitive_attrs=("sorted",), method="top_k", grad_check=False,
    samples=with_settings(unary(shapes=((3, 4), (7,)), k=2), {"k": 3, "sorted": False}, {"k": 4, "sorted": False}),
    reference=lambda input_x, k, sorted=True: _numpy_topk(input_x, k, sorted=sorted))
def top_k(input_x, k, sorted=True):
    """``(values, indices)`` of the ``k`` largest elements along the last axis (indices Int32; ``sorted=False``
    keeps the input order when ``k`` is the whole axis, as MindSpore's CPU kernel does).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> values, indices = ops.top_k(Tensor(np.array([1.0, 3.0, 2.0], np.float32)), 2)
        >>> values.asnumpy().tolist(), indices.asnumpy().tolist()
        ([3.0, 2.0], [1, 2])
    """
    return topk.entry.kernel(input_x, k, None, True, sorted)


@op(inputs="x", dtypes=ANY, reference=lambda x, axis: np.flip(x, axis),
    samples=with_settings(unary(shapes=((3, 4), (2, 3, 2)), axis=0), {"axis": (0, 1)}, {"axis": [-1]}))
def reverse(x, axis):
    """``x`` with the order of the elements along each axis of ``axis`` reversed."""
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    return jnp.flip(x, tuple(axis_index("reverse", "axis", a, x.ndim) for a in axes))


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


def _numpy_kthvalue(input, k, dim=-1, keepdim=False):
    order = np.argsort(input, axis=dim, kind="stable")
    index = np.take(order, [k - 1], axis=dim)
    value = np.take_along_axis(input, index, axis=dim)
    if not keepdim:
        value, index = np.squeeze(value, dim), np.squeeze(index, dim)
    return value, index.astype(np.int64)


@op(dtypes=ANY, primitive="Kthvalue", mint="kthvalue", grad_check=False, reference=_numpy_kthvalue,
    samples=with_settings(unary(shapes=((3, 4), (5,)), k=2), {"k": 1, "dim": 0, "keepdim": True}))
def kthvalue(input, k, dim=-1, keepdim=False):
    """Return ``(values, indices)``: the ``k``-th smallest element along ``dim`` and its Int64 position.

    Example:
        >>> from sporax import Tensor, mint
        >>> value, index = mint.kthvalue(Tensor([3.0, 1.0, 2.0]), 2)
        >>> value.asnumpy().item(), index.asnumpy().item()
        (2.0, 2)
    """
    if input.ndim == 0:
        input = input.reshape(1)
        dim, keepdim = 0, False
    dim = axis_index("kthvalue", "dim", dim, input.ndim)
    size = input.shape[dim]
    if isinstance(k, bool) or not isinstance(k, int):
        raise TypeError(f"For 'kthvalue', 'k' must be an int, but got {type(k).__name__}.")
    if not 1 <= k <= size:
        raise ValueError(f"For 'kthvalue', 'k' must be in [1, {size}] (the size of dimension {dim}), but got {k}.")
    order = jnp.argsort(input, axis=dim, stable=True)
    index = jax.lax.slice_in_dim(order, k - 1, k, axis=dim)
    value = jnp.take_along_axis(input, index, axis=dim)
    if not keepdim:
        value, index = jnp.squeeze(value, dim), jnp.squeeze(index, dim)
    return value, index.astype(np.int64)
