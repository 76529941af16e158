"""MindSpore's sparse Primitives on component Tensors whose outputs are sized by their values: ``SparseSlice``,
``SubAndFilter``, ``SparseReshape``, ``SparseCountSparseOutput``, ``PadAndShift``, ``RaggedTensorToSparse``.

As MindSpore's CPU kernels, they read their inputs on the host (``eager`` entries: inside a compiled function
they make it run eagerly), since an output's length depends on the values. Op-table entries, Primitive-only;
the COO layout and the other component ops are in ``sparse_components.py``.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.ops.operations.sparse_ops import SparseSlice
    >>> indices = Tensor(np.array([[0, 1], [1, 2]], np.int64))
    >>> y_indices, y_values, y_shape = SparseSlice()(indices, Tensor([1.0, 2.0]), Tensor(np.array([2, 3], np.int64)),
    ...                                              Tensor(np.array([1, 0], np.int64)), Tensor(np.array([1, 3], np.int64)))
    >>> y_indices.asnumpy().tolist(), y_values.asnumpy().tolist(), y_shape.asnumpy().tolist()
    ([[0, 2]], [2.0], [1, 3])
"""
import jax.numpy as jnp
import numpy as np

from sporax.core import dtype as mstype
from sporax.ops import op_table, samples


def _slice_samples(dtype):
    indices = np.array([[0, 1], [1, 2], [1, 3], [2, 0]], np.int64)
    return [op_table.Sample((indices, samples.values((4,), dtype), np.array([3, 4], np.int64),
                             np.array([1, 2], np.int64), np.array([1, 5], np.int64)))]


def _slice_reference(indices, values, shape, start, size):
    end = np.minimum(np.asarray(start) + np.asarray(size), np.asarray(shape))
    kept = [row for row, point in enumerate(np.asarray(indices).tolist())
            if all(low <= at < high for at, low, high in zip(point, start, end))]
    return (np.asarray(indices)[kept] - start, np.asarray(values)[kept], np.maximum(end - start, 0))


@op_table.op(inputs=("indices", "values", "shape", "start", "size"), dtypes=op_table.ANY,
             indices=("indices", "shape", "start", "size"), eager=True, samples=_slice_samples,
             reference=_slice_reference, grad_check=False)
def sparse_slice(indices, values, shape, start, size):
    """``SparseSlice``: the entries of a COO sparse tensor inside the box ``[start, start + size)`` (clipped to
    ``shape``), re-based at ``start``: ``(y_indices, y_values, y_shape)``."""
    if indices.ndim != 2 or values.shape != indices.shape[:1]:
        raise ValueError(f"For 'SparseSlice', 'indices' must be (N, rank) and 'values' (N,), but got "
                         f"{tuple(indices.shape)} and {tuple(values.shape)}.")
    rank = indices.shape[1]
    dims, begin, extent = (np.asarray(value).reshape(-1) for value in (shape, start, size))
    if any(vector.shape != (rank,) for vector in (dims, begin, extent)):
        raise ValueError(f"For 'SparseSlice', 'shape', 'start' and 'size' must have {rank} elements, but got "
                         f"{dims.size}, {begin.size} and {extent.size}.")
    end = np.minimum(begin + extent, dims)
    points = np.asarray(indices)
    inside = np.nonzero(np.all((points >= begin) & (points < end), axis=1))[0]
    return (jnp.asarray(points[inside] - begin, indices.dtype), values[inside],
            jnp.asarray(np.maximum(end - begin, 0), indices.dtype))


def _sub_and_filter_reference(input_x, max_num, offset):
    kept = [(value - offset, place) for place, value in enumerate(np.asarray(input_x).tolist())
            if 0 <= value - offset < max_num]
    dtype = np.asarray(input_x).dtype
    return (np.array([value for value, _ in kept], dtype), np.array([place for _, place in kept], dtype))


@op_table.op(inputs=("input_x", "max_num", "offset"), dtypes=op_table.ANY, indices=("input_x", "max_num", "offset"),
             eager=True, grad_check=False, reference=_sub_and_filter_reference,
             samples=lambda dtype: [op_table.Sample((np.array([1, 3, 5, 8, 9, 16], np.int32), np.array(10, np.int32),
                                                     np.array(4, np.int32)))])
def sub_and_filter(input_x, max_num, offset):
    """``SubAndFilter``: ``input_x - offset`` kept where it lies in ``[0, max_num)``, with the kept positions:
    ``(filter_res, filter_idx)``, both of ``input_x``'s dtype."""
    data = np.asarray(input_x)
    shifted = data - np.asarray(offset).reshape(-1)[0]
    keep = np.nonzero((shifted >= 0) & (shifted < np.asarray(max_num).reshape(-1)[0]))[0]
    return jnp.asarray(shifted[keep].astype(data.dtype)), jnp.asarray(keep.astype(data.dtype))



def _reshape_samples(dtype):
    del dtype  # indices and shapes only
    indices = np.array([[0, 0, 0], [0, 0, 1], [0, 1, 0], [1, 0, 0], [1, 2, 3]], np.int64)
    return [op_table.Sample((indices, np.array([2, 3, 6], np.int64), np.array([9, -1], np.int64))),
            op_table.Sample((indices, np.array([2, 3, 6], np.int64), np.array([-1], np.int64)))]


def _reshape_reference(indices, shape, new_shape):
    dims = np.asarray(shape).reshape(-1)
    wanted = np.asarray(new_shape).reshape(-1).copy()
    if (wanted == -1).any():
        wanted[wanted == -1] = np.prod(dims) // np.prod(wanted[wanted != -1])
    flat = np.ravel_multi_index(tuple(np.asarray(indices).T), tuple(dims)) if len(indices) else np.zeros(0, int)
    return np.stack(np.unravel_index(flat, tuple(wanted)), axis=1).reshape(-1, wanted.size), wanted


@op_table.op(inputs=("indices", "shape", "new_shape"), dtypes=op_table.ANY, indices=("indices", "shape", "new_shape"),
             primitive="SparseReshape", eager=True, samples=_reshape_samples, reference=_reshape_reference,
             grad_check=False)
def sparse_reshape(indices, shape, new_shape):
    """``SparseReshape``: the indices (N, rank) of a COO sparse tensor of dense ``shape`` re-read in
    ``new_shape`` (row-major; one -1 is inferred): ``(y_indices, y_shape)``."""
    dims = np.asarray(shape).reshape(-1)
    if indices.ndim != 2 or indices.shape[1] != dims.size:
        raise ValueError(f"For 'SparseReshape', the rank of input tensor must match input shape length, but got "
                         f"input tensor rank = {indices.shape[-1]}, and input shape length = {dims.size}.")
    wanted = np.asarray(new_shape).reshape(-1)
    total, known = int(np.prod(dims)), int(np.prod(wanted[wanted != -1]))
    # MindSpore's kernel raises these as RuntimeError
    if (wanted == -1).sum() > 1:
        raise RuntimeError("For 'SparseReshape', there should be at most one '-1' dimension in 'newshape' tensor, "
                           "but got two or more.")
    if (wanted == -1).any() and (known == 0 or total % known):
        raise RuntimeError(f"For 'SparseReshape', the requested shape should be a multiple of {known}, but got a "
                           f"SparseTensor with {total} dense values.")
    if not (wanted == -1).any() and known != total:
        raise RuntimeError(f"For 'SparseReshape', the requested shape has the dense shape of {known}, but got the "
                           f"input newshape is a tensor with {total}.")
    points, dims_out = _reshape_reference(indices, shape, new_shape)
    return jnp.asarray(points, indices.dtype), jnp.asarray(dims_out, np.asarray(new_shape).dtype)


# --- SparseCountSparseOutput: a per-row bincount of a COO tensor's values ------------------------
_COUNT_WEIGHTS = (np.float32, np.float64, np.int32, np.int64)


def _count_samples(dtype):
    # two rows, a repeated (row, value) pair, a zero weight that still makes an entry
    if np.dtype(dtype) not in _COUNT_WEIGHTS:
        return []
    indices = np.array([[1, 2], [0, 1], [1, 0], [1, 2]], np.int64)
    values = np.array([3, 0, 3, 1], np.int64)
    weights = np.array([2, 5, 0, 1], dtype)
    return [op_table.Sample((indices, values, np.array([2, 3], np.int64), weights)),
            op_table.Sample((indices, values, np.array([2, 3], np.int64), weights), {"binary_output": True}),
            op_table.Sample((indices, values, np.array([2, 3], np.int64), np.zeros(0, dtype)),
                            {"minlength": 6, "maxlength": 3})]


def _count_reference(indices, values, dense_shape, weights, binary_output=False, minlength=-1, maxlength=-1):
    indices, values = np.asarray(indices), np.asarray(values).reshape(-1)
    weights = np.asarray(weights)
    rows = indices[:, 0] if indices.shape[1] > 1 else np.zeros(len(values), np.int64)
    kept = values < maxlength if maxlength >= 0 else np.ones(len(values), bool)
    totals = {}
    for k in np.flatnonzero(kept):
        key = (int(rows[k]), int(values[k]))
        totals[key] = totals.get(key, 0) + (weights.reshape(-1)[k] if weights.size else 1)
    keys = sorted(totals)
    size = max(max((value + 1 for _, value in keys), default=0), minlength)
    size = min(size, maxlength) if maxlength >= 0 else size
    batched = indices.shape[1] > 1
    points = np.array([key if batched else key[1:] for key in keys], np.int64).reshape(len(keys), 1 + batched)
    counts = np.array([1 if binary_output else totals[key] for key in keys], weights.dtype)
    shape = [int(np.asarray(dense_shape).reshape(-1)[0]), size] if batched else [size]
    return points, counts, np.array(shape, np.int64)


def _check_count(indices, values, dense_shape, weights, binary_output):
    name = "SparseCountSparseOutput"
    if not isinstance(binary_output, bool):
        raise TypeError(f"For '{name}', the type of 'binary_output' should be 'bool', but got type "
                        f"'{type(binary_output).__name__}'.")
    if np.dtype(weights.dtype) not in _COUNT_WEIGHTS:
        found = mstype.from_numpy_dtype(np.dtype(weights.dtype))
        raise TypeError(f"For primitive[{name}], the input argument[weights] must be a type of {{Tensor[Float32], "
                        f"Tensor[Float64], Tensor[Int32], Tensor[Int64]}}, but got Tensor[{found}].")
    dims = np.asarray(dense_shape).reshape(-1)
    if values.shape[:1] != indices.shape[:1]:
        raise ValueError(f"For {name}, number of values must be same as dim0 of indices but indices dim0 size is "
                         f"{indices.shape[0]}, values_shape dim0 size is {values.shape[0]}.")
    if dims.size != indices.shape[1]:
        raise ValueError(f"For {name}, dense_shape dimensions must be equal to second dimension of indices, but "
                         f"dense_shape dimensions is {dims.size}, second dimension of indices is {indices.shape[1]}.")
    # MindSpore's kernel makes these checks when it runs: RuntimeError
    if weights.size and weights.shape != values.shape:
        raise RuntimeError(f"For '{name}', weights and values must have the same shape, but got {weights.shape} "
                           f"and {values.shape}.")
    if (np.asarray(values) < 0).any():
        raise RuntimeError(f"For '{name}', the input values must be non-negative.")
    outside = (np.asarray(indices) < 0) | (np.asarray(indices) >= dims)
    if outside.any():
        row, column = np.argwhere(outside)[0]
        raise RuntimeError(f"For '{name}', the input index value {int(np.asarray(indices)[row, column])} must be in "
                           f"[0, {int(dims[column])}) as given by dense shape.")


@op_table.op(inputs=("indices", "values", "dense_shape", "weights"), dtypes=op_table.NUMBER,
             indices=("indices", "values", "dense_shape"), primitive="SparseCountSparseOutput",
             primitive_attrs=("binary_output", "minlength", "maxlength"), eager=True, samples=_count_samples,
             reference=_count_reference, grad_check=False)
def sparse_count_sparse_output(indices, values, dense_shape, weights, binary_output=False, minlength=-1,
                               maxlength=-1):
    """``SparseCountSparseOutput``: for each row of a COO tensor (its first index; a rank-1 tensor is one row),
    the sum of the ``weights`` of each value (their number where ``weights`` is empty; 1 with
    ``binary_output``), as a COO tensor ``(indices (M, 2) or (M, 1), values, dense_shape)`` sorted by (row, value).
    The counted axis is ``max(largest value + 1, minlength)`` long; with ``maxlength >= 0`` values from
    ``maxlength`` on are dropped and the axis is at most ``maxlength`` long. The counts take the weights' dtype."""
    _check_count(indices, values, dense_shape, weights, binary_output)
    return tuple(jnp.asarray(part) for part in
                 _count_reference(indices, values, dense_shape, weights, binary_output, minlength, maxlength))


def _pad_and_shift_reference(input_x, cum_sum_arr, shift_idx):
    bounds = np.asarray(cum_sum_arr).reshape(-1).tolist()
    step = int(np.asarray(shift_idx).reshape(-1)[0])
    output = [-1] * bounds[-1]
    for offset in range(bounds[step + 1] - bounds[step]):
        output[bounds[step] + offset] = np.asarray(input_x)[offset]
    return np.array(output, np.asarray(input_x).dtype)


@op_table.op(inputs=("input_x", "cum_sum_arr", "shift_idx"), dtypes=op_table.ANY,
             indices=("input_x", "cum_sum_arr", "shift_idx"), primitive="PadAndShift", eager=True, grad_check=False,
             reference=_pad_and_shift_reference,
             samples=lambda dtype: [op_table.Sample((np.array([9, 13, -1, -1, -1, -1, -1, -1], np.int32),
                                                     np.array([0, 3, 5], np.int32), np.array(1, np.int32))),
                                    op_table.Sample((np.array([4, 5, 6, 7], np.int64), np.array([0, 2, 6], np.int64),
                                                     np.array(0, np.int64)))])
def pad_and_shift(input_x, cum_sum_arr, shift_idx):
    """``PadAndShift`` (embedding cache): ``cum_sum_arr[-1]`` slots of -1, with the first
    ``cum_sum_arr[shift_idx + 1] - cum_sum_arr[shift_idx]`` values of ``input_x`` written from slot
    ``cum_sum_arr[shift_idx]`` on. Eager: the output size is read from the values."""
    bounds = np.asarray(cum_sum_arr).reshape(-1)
    step = int(np.asarray(shift_idx).reshape(-1)[0])
    if not 0 <= step < bounds.size - 1:
        raise ValueError(f"For 'PadAndShift', 'shift_idx' must be in [0, {bounds.size - 1}), but got {step}.")
    start, end = int(bounds[step]), int(bounds[step + 1])
    output = jnp.full((int(bounds[-1]),), -1, input_x.dtype)
    return output.at[start:end].set(input_x[:end - start])


def _ragged_samples(dtype):
    values = samples.values((4,), dtype, seed=0)
    # rows all empty first (the dtype sweep makes every input Int32 and scales integers, which keeps zero splits);
    # an empty row, and values with an inner dense dimension
    return [op_table.Sample(((np.array([0, 0, 0], np.int32),), samples.values((0,), dtype, seed=3)),
                            {"Tsplits": mstype.int32}),
            op_table.Sample(((np.array([0, 1, 1, 3], np.int32),), samples.values((3, 2), dtype, seed=2)),
                            {"Tsplits": mstype.int32}),
            op_table.Sample(((np.array([0, 2, 3], np.int64),), samples.values((3,), dtype, seed=1)),
                            {"Tsplits": mstype.int64}),
            op_table.Sample(((np.array([0, 2, 3], np.int64), np.array([0, 1, 3, 4], np.int64)), values),
                            {"Tsplits": mstype.int64})]


def _ragged_reference(rt_nested_splits, rt_dense_values, Tsplits):
    splits = [np.asarray(split).tolist() for split in rt_nested_splits]
    values = np.asarray(rt_dense_values)
    indices = []

    def walk(level, row, prefix):
        for within, position in enumerate(range(splits[level][row], splits[level][row + 1])):
            if level + 1 < len(splits):
                walk(level + 1, position, prefix + [within])
            else:
                indices.extend(prefix + [within] + list(inner) for inner in np.ndindex(values.shape[1:]))

    for row in range(len(splits[0]) - 1):
        walk(0, row, [row])
    shape = [len(splits[0]) - 1] + [max(np.diff(split), default=0) for split in splits] + list(values.shape[1:])
    return (np.array(indices, np.int64).reshape(-1, len(shape)), values.reshape(-1), np.array(shape, np.int64))


@op_table.op(inputs=("rt_nested_splits", "rt_dense_values"), sequences="rt_nested_splits", dtypes=op_table.ANY,
             primitive="RaggedTensorToSparse", primitive_attrs=("Tsplits",), eager=True, grad_check=False,
             samples=_ragged_samples, reference=_ragged_reference)
def ragged_tensor_to_sparse(rt_nested_splits, rt_dense_values, Tsplits):  # noqa: N803 - MindSpore's name
    """``RaggedTensorToSparse``: the ragged tensor of row splits ``rt_nested_splits`` (outermost first) over
    ``rt_dense_values`` as COO components ``(indices, values, dense_shape)``, Int64 indices and shape. Eager: the
    number of entries and the shape are read from the splits."""
    if not rt_nested_splits:
        raise ValueError("For 'RaggedTensorToSparse', 'rt_nested_splits' must hold at least one Tensor.")
    for level, split in enumerate(rt_nested_splits):
        if split.ndim != 1 or split.dtype != mstype.dtype_to_nptype(Tsplits) or split.size < 1:
            raise TypeError(f"For 'RaggedTensorToSparse', 'rt_nested_splits[{level}]' must be a 1-D Tensor of "
                            f"Tsplits={Tsplits}, but got {split.dtype} of shape {tuple(split.shape)}.")
    splits = [np.asarray(split).astype(np.int64) for split in rt_nested_splits]
    if splits[-1][-1] != rt_dense_values.shape[0]:
        raise ValueError(f"For 'RaggedTensorToSparse', the last split's end {splits[-1][-1]} must equal the number "
                         f"of values {rt_dense_values.shape[0]}.")
    position = np.arange(rt_dense_values.shape[0])
    columns = []
    for split in reversed(splits):  # innermost first: each position's row at this level and place within it
        row = np.searchsorted(split, position, side="right") - 1
        columns.insert(0, position - split[row])
        position = row
    coordinates = np.stack([position] + columns, axis=1)
    inner = list(np.ndindex(rt_dense_values.shape[1:]))
    indices = np.concatenate([np.repeat(coordinates, len(inner), axis=0),
                              np.tile(np.array(inner, np.int64).reshape(len(inner), -1), (len(coordinates), 1))], 1)
    shape = ([splits[0].size - 1] + [int(np.diff(split).max(initial=0)) for split in splits]
             + list(rt_dense_values.shape[1:]))
    return jnp.asarray(indices, jnp.int64), rt_dense_values.reshape(-1), jnp.asarray(shape, jnp.int64)
