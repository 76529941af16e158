"""Sparse-coordinate Primitives and filters: ``SparseToDense``, ``SparseTensorDenseAdd``, ``SparseSlice``,
``SparseGatherV2``, ``SubAndFilter``, ``Coalesce``, and the graph-ordering ``UpdateState``.

Sparse tensors are given as ``(indices (N, R), values (N,), shape (R,))`` coordinate lists, as in
MindSpore; ``SparseSlice`` and ``SubAndFilter`` have data-dependent output sizes, so they read
their inputs on the host (PyNative), like MindSpore's CPU kernels.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> ops.SparseToDense()(Tensor(np.array([[0, 1]])), Tensor(np.array([5.0], np.float32)), (2, 2)).asnumpy().tolist()
    [[0.0, 5.0], [0.0, 0.0]]
"""
import numpy as np

from sporax.ops._dispatch import array_of, wrap
from sporax.ops.functional._args import _concrete
from sporax.ops.functional.sparse import coalesce
from sporax.ops.faces import primitive_class
from sporax.ops.op_table import TABLE
from sporax.ops.primitive import Primitive
from sporax.ops.functional.indexing import gather
from sporax.ops.functional import sparse_components, sparse_value_sized


def _coordinates(op_name, indices, values, shape):
    where = array_of(op_name, "indices", indices)
    data = array_of(op_name, "values", values)
    dims = tuple(int(v) for v in np.asarray(_concrete(op_name, "shape", shape)).reshape(-1))
    if where.ndim != 2 or where.shape[1] != len(dims) or data.shape != (where.shape[0],):
        raise ValueError(f"For '{op_name}', 'indices' must be (N, {len(dims)}) and 'values' (N,), but got "
                         f"{tuple(where.shape)} and {tuple(data.shape)}.")
    return where, data, dims


class SparseToDense(Primitive):
    """The dense Tensor of ``shape`` holding ``values`` at ``indices`` (zeros elsewhere).

    Inputs:
        - **indices** (Tensor[int]) - (N, R). **values** (Tensor) - (N,). **sparse_shape** (tuple[int]).
    """

    def __call__(self, indices, values, sparse_shape):
        return sparse_components.sparse_to_dense(indices, values, sparse_shape)


class SparseTensorDenseAdd(Primitive):
    """The dense sum of a sparse tensor and ``x2``.

    Inputs:
        - **x1_indices** (Tensor[int]) - (N, R). **x1_values** (Tensor) - (N,). **x1_shape** (Tensor[int]) - (R,).
          **x2** (Tensor) - dense, of shape ``x1_shape``.
    """

    def __call__(self, x1_indices, x1_values, x1_shape, x2):
        where, data, dims = _coordinates("SparseTensorDenseAdd", x1_indices, x1_values, x1_shape)
        dense = array_of("SparseTensorDenseAdd", "x2", x2)
        if tuple(dense.shape) != dims:
            raise ValueError(f"For 'SparseTensorDenseAdd', 'x2' must have shape {dims}, but got "
                             f"{tuple(dense.shape)}.")
        return wrap(dense.at[tuple(where.T)].add(data.astype(dense.dtype)))


class SparseSlice(Primitive):
    """The entries of a sparse tensor inside the box ``[start, start + size)``, re-based at ``start``.

    Inputs:
        - **indices** (Tensor[int64]) - (N, R). **values** (Tensor) - (N,). **shape**, **start**, **size**
          (Tensor[int64]) - (R,).

    Outputs:
        ``(y_indices, y_values, y_shape)``.
    """

    def __call__(self, indices, values, shape, start, size):
        return sparse_value_sized.sparse_slice(indices, values, shape, start, size)


class SparseGatherV2(Primitive):
    """The slices of ``input_params`` at ``input_indices`` along ``axis`` (``ops.gather``).

    Inputs:
        - **input_params** (Tensor). **input_indices** (Tensor[int]). **axis** (int).
    """

    def __call__(self, input_params, input_indices, axis):
        return gather(input_params, input_indices, axis)


class SubAndFilter(Primitive):
    """``(input_x - offset)`` restricted to the values in ``[0, max_num)``, with their positions.

    Inputs:
        - **input_x** (Tensor[int]) - 1-D. **max_num**, **offset** (Tensor) - scalars.

    Outputs:
        ``(filter_res, filter_idx)``.
    """

    def __call__(self, input_x, max_num, offset):
        return sparse_value_sized.sub_and_filter(input_x, max_num, offset)


class UpdateState(Primitive):
    """Order side effects in a graph: returns its first input (``state``) unchanged.

    Inputs:
        - **state** - the monad or value threaded through. **inputs** - the values that must run first.
    """

    def __call__(self, state, *inputs):
        return state


class Coalesce(Primitive):
    """Merge duplicate COO indices (values summed): ``(y_indices, y_values, y_shape)``."""

    def __call__(self, x_indices, x_values, x_shape):
        return coalesce(x_indices, x_values, x_shape)


# Generated from the op table (sporax.ops.op_table).
SparseTensorDenseMatmul = primitive_class(TABLE["sparse_tensor_dense_matmul"], __name__)
