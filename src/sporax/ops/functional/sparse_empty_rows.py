"""``SparseFillEmptyRows`` (MindSpore's sparse_ops): a 2-d sparse tensor given as component Tensors, with one
``default_value`` entry at column 0 of every row that has none.

The output's length depends on the values of ``indices``, so the op reads them on the host (an eager entry).

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.ops.functional.sparse_empty_rows import sparse_fill_empty_rows
    >>> out = sparse_fill_empty_rows(Tensor(np.array([[1, 0]], np.int64)), Tensor(np.array([4.0], np.float32)),
    ...                              Tensor(np.array([2, 2], np.int64)), Tensor(np.float32(9.0)))
    >>> out[0].asnumpy().tolist(), out[1].asnumpy().tolist()
    ([[0, 0], [1, 0]], [9.0, 4.0])
"""
import jax.numpy as jnp
import numpy as np

from sporax.ops.op_table import ANY, INDEX, Sample, op


def _samples(dtype):
    indices = np.array([[1, 0], [1, 2], [3, 1]], np.int64)
    unsorted = np.array([[2, 0], [0, 2]], np.int64)
    return [Sample((indices, np.array([1.5, 2.0, 3.0], dtype), np.array([5, 3], np.int64), np.array(-1.0, dtype))),
            Sample((unsorted, np.array([1.0, 2.0], dtype), np.array([3, 3], np.int64), np.array(0.0, dtype)))]


def _numpy_fill_empty_rows(indices, values, dense_shape, default_value):
    entries = {}
    for position, (row, column) in enumerate(np.asarray(indices).tolist()):
        entries.setdefault(row, []).append((position, column))
    out_indices, out_values, empty, reverse = [], [], [], {}
    for row in range(int(np.asarray(dense_shape)[0])):
        empty.append(row not in entries)
        for position, column in entries.get(row, [(None, 0)]):
            if position is not None:
                reverse[position] = len(out_indices)
            out_indices.append([row, column])
            out_values.append(default_value if position is None else values[position])
    return (np.array(out_indices, np.int64).reshape(-1, 2), np.array(out_values, np.asarray(values).dtype),
            np.array(empty), np.array([reverse[k] for k in range(len(reverse))], np.int64))


@op(inputs=("indices", "values", "dense_shape", "default_value"), dtypes=ANY,
    input_dtypes={"indices": INDEX, "dense_shape": INDEX}, primitive="SparseFillEmptyRows", samples=_samples,
    reference=_numpy_fill_empty_rows, grad_check=False, eager=True)
def sparse_fill_empty_rows(indices, values, dense_shape, default_value):
    """``(output_indices, output_values, empty_row_indicator, reverse_index_map)``: the entries sorted by row (in
    their order within a row), ``default_value`` at ``[row, 0]`` of each empty row, which rows were empty, and
    where each input entry went."""
    where, shape = np.asarray(indices), np.asarray(dense_shape).reshape(-1)
    if where.ndim != 2 or where.shape[1] != 2 or shape.shape != (2,) or values.shape != (where.shape[0],):
        raise ValueError(f"For 'SparseFillEmptyRows', expected indices (N, 2), values (N,) and dense_shape (2,), "
                         f"but got {where.shape}, {tuple(values.shape)} and {shape.shape}.")
    rows = shape[0]
    order = np.argsort(where[:, 0], kind="stable")
    counts = np.bincount(where[:, 0], minlength=rows)[:rows]
    empty = counts == 0
    sizes = np.where(empty, 1, counts)  # each row's number of output entries
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    # input entry k (in row order) lands after the earlier entries of its row
    rank_in_row = np.arange(where.shape[0]) - np.concatenate([[0], np.cumsum(counts)[:-1]])[where[order, 0]]
    reverse = np.empty(where.shape[0], np.int64)
    reverse[order] = starts[where[order, 0]] + rank_in_row
    out_indices = np.zeros((int(sizes.sum()), 2), np.int64)
    out_indices[:, 0] = np.repeat(np.arange(rows), sizes)
    out_indices[reverse, 1] = where[:, 1]
    out_values = jnp.full((out_indices.shape[0],), default_value, values.dtype).at[reverse].set(values)
    return jnp.asarray(out_indices), out_values, jnp.asarray(empty), jnp.asarray(reverse)
