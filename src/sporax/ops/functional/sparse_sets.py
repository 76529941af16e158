"""Sparse results whose size depends on values (MindSpore's sparse_ops): ``SparseConcat`` joins sparse tensors given
as component Tensors, ``DenseToDenseSetOperation`` takes per-row set differences, intersections and unions.

The number of output entries is read on the host, so both are eager entries.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.ops.functional.sparse_sets import dense_to_dense_set_operation
    >>> rows = dense_to_dense_set_operation(Tensor(np.array([[1, 2, 3]], np.int32)), Tensor(np.array([[3, 4, 4]], np.int32)),
    ...                                     "intersection")
    >>> [item.asnumpy().tolist() for item in rows]
    [[[0, 0]], [3], [1, 1]]
"""
import itertools

import jax.numpy as jnp
import numpy as np

from sporax.ops.op_table import ANY, Sample, op

_SET_OPERATIONS = {"a-b": lambda a, b: a - b, "b-a": lambda a, b: b - a, "intersection": lambda a, b: a & b,
                   "union": lambda a, b: a | b}


def _concat_samples(dtype):
    indices = (np.array([[0, 0], [1, 0]], np.int64), np.array([[0, 1], [1, 0]], np.int64))
    values = (np.array([1.0, 2.0], dtype), np.array([3.0, 4.0], dtype))
    shapes = (np.array([2, 1], np.int64), np.array([2, 2], np.int64))
    return [Sample((indices, values, shapes), {"concat_dim": 1}), Sample((indices, values, shapes), {"concat_dim": -1})]


def _numpy_sparse_concat(sp_input_indices, sp_input_values, sp_input_shapes, concat_dim=0):
    shapes = [list(np.asarray(shape)) for shape in sp_input_shapes]
    axis = concat_dim % len(shapes[0])
    entries, offset = [], 0
    for indices, values, shape in zip(sp_input_indices, sp_input_values, shapes):
        for index, value in zip(np.asarray(indices).tolist(), np.asarray(values).tolist()):
            index[axis] += offset
            entries.append((index, value))
        offset += shape[axis]
    entries.sort(key=lambda entry: entry[0])
    out_shape = list(shapes[0])
    out_shape[axis] = offset
    return (np.array([index for index, _ in entries], np.int64), np.array([value for _, value in entries],
            np.asarray(sp_input_values[0]).dtype), np.array(out_shape, np.int64))


@op(inputs=("sp_input_indices", "sp_input_values", "sp_input_shapes"), dtypes=ANY,
    sequences=("sp_input_indices", "sp_input_values", "sp_input_shapes"),
    primitive="SparseConcat",
    primitive_attrs=("concat_dim",), samples=_concat_samples, reference=_numpy_sparse_concat, grad_check=False,
    eager=True)
def sparse_concat(sp_input_indices, sp_input_values, sp_input_shapes, concat_dim=0):
    """``(indices, values, shape)`` of the sparse tensors joined along ``concat_dim``: each one's indices moved by
    the sizes before it, all entries in row-major order."""
    shapes = [np.asarray(shape).reshape(-1) for shape in sp_input_shapes]
    if not shapes or len({len(shape) for shape in shapes}) != 1:
        raise ValueError(f"For 'SparseConcat', the sparse inputs must all have the same rank, but got shapes "
                         f"{[shape.tolist() for shape in shapes]}.")
    rank = len(shapes[0])
    if not -rank <= concat_dim < rank:
        raise ValueError(f"For 'SparseConcat', 'concat_dim' must be in [{-rank}, {rank}), but got {concat_dim}.")
    axis = concat_dim % rank
    offsets = np.concatenate([[0], np.cumsum([shape[axis] for shape in shapes])])
    moved = []
    for indices, offset in zip(sp_input_indices, offsets):
        indices = np.array(indices, np.int64).reshape(-1, rank)
        indices[:, axis] += offset
        moved.append(indices)
    indices = np.concatenate(moved)
    order = np.lexsort(indices.T[::-1])
    out_shape = shapes[0].astype(np.int64).copy()
    out_shape[axis] = offsets[-1]
    values = jnp.concatenate([jnp.reshape(value, (-1,)) for value in sp_input_values])
    return jnp.asarray(indices[order]), values[order], jnp.asarray(out_shape)


def _set_samples(dtype):
    a = np.array([[1, 2, 3, 3], [4, 5, 4, 6]], np.int32)
    b = np.array([[3, 1, 7, 7], [6, 6, 9, 4]], np.int32)
    return [Sample((a, b), {"set_operation": name}) for name in _SET_OPERATIONS]


def _numpy_set_operation(x1, x2, set_operation="a-b", validate_indices=True):
    x1, x2 = np.asarray(x1), np.asarray(x2)
    lead = x1.shape[:-1]
    rows = {position: sorted(_SET_OPERATIONS[set_operation](set(x1[position].tolist()), set(x2[position].tolist())))
            for position in itertools.product(*map(range, lead))}
    indices = [list(position) + [column] for position, row in rows.items() for column in range(len(row))]
    values = [value for row in rows.values() for value in row]
    width = max((len(row) for row in rows.values()), default=0)
    return (np.array(indices, np.int64).reshape(-1, len(lead) + 1), np.array(values, x1.dtype),
            np.array(list(lead) + [width], np.int64))


@op(inputs=("x1", "x2"), dtypes=ANY, primitive="DenseToDenseSetOperation",
    primitive_attrs=("set_operation", "validate_indices"), samples=_set_samples, reference=_numpy_set_operation,
    grad_check=False, eager=True)
def dense_to_dense_set_operation(x1, x2, set_operation="a-b", validate_indices=True):
    """``(indices, values, shape)`` of the sparse result of a set operation (``'a-b'``, ``'b-a'``,
    ``'intersection'``, ``'union'``) between the last-axis rows of two integer Tensors, each result row sorted."""
    if set_operation not in _SET_OPERATIONS:
        raise ValueError(f"For 'DenseToDenseSetOperation', 'set_operation' must be one of {list(_SET_OPERATIONS)}, "
                         f"but got {set_operation!r}.")
    first, second = np.asarray(x1), np.asarray(x2)
    if first.ndim < 2 or first.shape[:-1] != second.shape[:-1] or first.dtype != second.dtype:
        raise ValueError(f"For 'DenseToDenseSetOperation', 'x1' and 'x2' must be of rank 2 or more with the same "
                         f"leading dimensions and dtype, but got {first.dtype} {first.shape} and {second.dtype} "
                         f"{second.shape}.")
    rows = [np.array(sorted(_SET_OPERATIONS[set_operation](set(a.tolist()), set(b.tolist()))), first.dtype)
            for a, b in zip(first.reshape(-1, first.shape[-1]), second.reshape(-1, second.shape[-1]))]
    lead = np.array(list(np.ndindex(*first.shape[:-1])), np.int64).reshape(len(rows), -1)
    indices = np.concatenate([np.column_stack([np.repeat(lead[k:k + 1], len(row), 0), np.arange(len(row))])
                              for k, row in enumerate(rows)]).astype(np.int64)
    width = max(len(row) for row in rows)
    return (jnp.asarray(indices), jnp.asarray(np.concatenate(rows)),
            jnp.asarray(np.array(list(first.shape[:-1]) + [width], np.int64)))
