"""Two COO sparse tensors combined over the union of their indices: ``SparseAdd``, ``SparseSparseMinimum`` and
``SparseSparseMaximum`` (MindSpore's ``ops.operations.sparse_ops``), op-table entries.

Each operand is ``indices`` (N, rank), ``values`` (N,) and its dense shape. MindSpore's kernels walk the two index
lists once, each in the order it comes, comparing rows in row-major order (an unsorted list is not sorted
first: its rows come out where the walk meets them), and so does ``merge_union`` here. The output size depends
on the indices, so the entries run eagerly (read on the host; a compiled caller falls back to eager).

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.ops.operations.sparse_component_ops import SparseSparseMaximum
    >>> a, b, shape = Tensor(np.array([[0, 1]])), Tensor(np.array([[1, 0]])), Tensor(np.array([2, 2]))
    >>> indices, values = SparseSparseMaximum()(a, Tensor([-1.0]), shape, b, Tensor([3.0]), shape)
    >>> indices.asnumpy().tolist(), values.asnumpy().tolist()
    ([[0, 1], [1, 0]], [0.0, 3.0])
"""
import jax
import jax.numpy as jnp
import numpy as np

from sporax.ops import op_table, samples
from sporax.core import jax_private
from sporax.ops.face_inputs import concrete as _host_value

_OPERANDS = ("x1_indices", "x1_values", "x1_shape", "x2_indices", "x2_values", "x2_shape")


def union_walk(first, second):
    """The one walk over two index lists: ``(row, i, j)`` for each row of the union in MindSpore's order, ``i``/``j``
    its position in the first/second list or None. Rows compare on the first list's rank, as MindSpore's kernels
    compare them."""
    first, second = np.asarray(first), np.asarray(second)
    rank = first.shape[1]
    left, right = first.tolist(), second[:, :rank].tolist()
    i = j = 0
    while i < len(left) or j < len(right):
        if j == len(right) or (i < len(left) and left[i] < right[j]):
            yield left[i], i, None
            i += 1
        elif i == len(left) or right[j] < left[i]:
            yield right[j], None, j
            j += 1
        else:
            yield left[i], i, j
            i, j = i + 1, j + 1


def merge_union(first, first_values, second, second_values, both, one):
    """The values over the union of two index lists: a row in both gets ``both(a, b)`` (None drops it), a row in
    one list ``one(value, from_first)``."""
    a, b = np.asarray(first_values), np.asarray(second_values)
    points, values = [], []
    for point, i, j in union_walk(first, second):
        value = one(a[i], True) if j is None else one(b[j], False) if i is None else both(a[i], b[j])
        if value is not None:
            points.append(point)
            values.append(value)
    return np.array(points, np.int64).reshape(-1, np.shape(first)[1]), np.array(values, a.dtype).reshape(-1)


def concrete(op_name, arg_name, array):
    """The host value of an input the union walk reads: eager differentiation (PyNative's op-by-op vjp) carries
    it; a compiled trace does not (``face_inputs.concrete``'s error makes the compiled caller run eagerly). The
    values it gives decide only which rows are kept: the gradient flows through the gathered values."""
    value = jax_private.concrete_value(array) if isinstance(array, jax.core.Tracer) else None
    return np.asarray(value) if value is not None else _host_value(op_name, arg_name, array)


def _check_operands(op_name, operands, ranks=True):
    """Each operand's indices (N, rank) and values (N,); with ``ranks``, also rank == its shape's length
    (MindSpore's SparseAdd does not check that: its walk compares on the first operand's rank)."""
    for name, indices, values, shape in operands:
        dims = np.asarray(shape).reshape(-1)
        if indices.ndim != 2 or values.shape != indices.shape[:1]:
            raise ValueError(f"For '{op_name}', '{name}_indices' must be (N, rank) and '{name}_values' (N,), but "
                             f"got {tuple(indices.shape)} and {tuple(values.shape)}.")
        if ranks and indices.shape[1] != dims.size:
            raise ValueError(f"For '{op_name}', {name}_indices.shape[1] and {name}_shape.shape[0] must be same, "
                             f"but got {indices.shape[1]} and {dims.size}.")


def _same_dtype(op_name, first, second, names):
    if first.dtype != second.dtype:
        raise TypeError(f"For '{op_name}', '{names[0]}' and '{names[1]}' must have one dtype, but got "
                        f"{first.dtype} and {second.dtype}.")


# --- element-wise min/max: a missing entry counts as zero --------------------------------------
def _pair_samples(dtype):
    # an unsorted first operand: the walk takes it in its own order
    first = np.array([[1, 0], [0, 1], [2, 2]], np.int64)
    second = np.array([[0, 0], [1, 0], [2, 2]], np.int64)
    shape = np.array([3, 3], np.int64)
    return [op_table.Sample((first, samples.values((3,), dtype), shape, second,
                             samples.values((3,), dtype, seed=1), shape))]


def _min_max(op_name, pick):
    def one(value, from_first):
        zero = np.zeros((), value.dtype)
        return pick(value, zero) if from_first else pick(zero, value)

    def reference(x1_indices, x1_values, x1_shape, x2_indices, x2_values, x2_shape):
        return merge_union(x1_indices, x1_values, x2_indices, x2_values, pick, one)

    def kernel(x1_indices, x1_values, x1_shape, x2_indices, x2_values, x2_shape):
        _check_operands(op_name, (("x1", x1_indices, x1_values, x1_shape), ("x2", x2_indices, x2_values, x2_shape)))
        _same_dtype(op_name, x1_values, x2_values, ("x1_values", "x2_values"))
        points, values = reference(x1_indices, x1_values, x1_shape, x2_indices, x2_values, x2_shape)
        return jnp.asarray(points, x1_indices.dtype), jnp.asarray(values)

    kernel.__name__ = kernel.__qualname__ = "sparse_sparse_" + pick.__name__
    kernel.__doc__ = (f"``{op_name}``: the element-wise {pick.__name__}imum of two COO sparse tensors of one "
                      "shape over the union of their indices (a missing entry counts as zero): ``(y_indices, "
                      "y_values)``.")
    return op_table.op(inputs=_OPERANDS, dtypes=op_table.NUMBER, indices=_OPERANDS[::3] + _OPERANDS[2::3],
                       primitive=op_name, eager=True, samples=_pair_samples, reference=reference,
                       grad_check=False)(kernel)


sparse_sparse_minimum = _min_max("SparseSparseMinimum", np.minimum)
sparse_sparse_maximum = _min_max("SparseSparseMaximum", np.maximum)


# --- SparseAdd: sums below ``thresh`` in magnitude are dropped ---------------------------------
def _add_samples(dtype):
    first, first_values, shape, second, second_values, _ = _pair_samples(dtype)[0].arrays
    return [op_table.Sample((first, first_values, shape, second, second_values, shape, np.zeros((), dtype))),
            op_table.Sample((first, first_values, shape, second, second_values, shape, np.ones((), dtype)))]


def _add_reference(a_indices, a_values, a_shape, b_indices, b_values, b_shape, thresh):
    limit = np.abs(np.asarray(thresh))

    def both(a, b):
        total = a + b
        return total if np.abs(total) >= limit else None

    points, values = merge_union(a_indices, a_values, b_indices, b_values, both, lambda value, _: value)
    return points, values, np.asarray(a_shape).reshape(-1)


@op_table.op(inputs=("a_indices", "a_values", "a_shape", "b_indices", "b_values", "b_shape", "thresh"),
             dtypes=op_table.NUMBER, indices=("a_indices", "a_shape", "b_indices", "b_shape"), primitive="SparseAdd",
             eager=True, samples=_add_samples, reference=_add_reference, grad_check=False)
def sparse_add(a_indices, a_values, a_shape, b_indices, b_values, b_shape, thresh):
    """``SparseAdd``: the sum of two COO sparse tensors over the union of their indices; a sum of two stored
    values whose magnitude is below ``thresh`` takes no entry (a value stored once is always kept):
    ``(sum_indices, sum_values, sum_shape)``, the shape being ``a_shape``."""
    _check_operands("SparseAdd", (("a", a_indices, a_values, a_shape), ("b", b_indices, b_values, b_shape)),
                    ranks=False)
    _same_dtype("SparseAdd", a_values, b_values, ("a_values", "b_values"))
    _same_dtype("SparseAdd", a_values, thresh, ("a_values", "thresh"))
    # The rows kept come from the host; the values are gathered from the (possibly differentiated) inputs, so
    # the gradient reaches a_values and b_values as MindSpore's SparseAddGrad sends it (a dropped sum gets none).
    first, second = concrete("SparseAdd", "a_indices", a_indices), concrete("SparseAdd", "b_indices", b_indices)
    a, b = concrete("SparseAdd", "a_values", a_values), concrete("SparseAdd", "b_values", b_values)
    limit = np.abs(concrete("SparseAdd", "thresh", thresh))
    points, from_a, from_b = [], [], []
    for point, i, j in union_walk(first, second):
        if i is not None and j is not None and np.abs(a[i] + b[j]) < limit:
            continue
        points.append(point)
        from_a.append(-1 if i is None else i)
        from_b.append(-1 if j is None else j)
    from_a, from_b = np.array(from_a, np.int64), np.array(from_b, np.int64)

    def pick(values, rows):
        return jnp.where(rows >= 0, jnp.asarray(values)[np.maximum(rows, 0)], jnp.zeros((), values.dtype))

    values = pick(a_values, from_a) + pick(b_values, from_b) if points else jnp.zeros((0,), a_values.dtype)
    return (jnp.asarray(np.array(points, np.int64).reshape(-1, first.shape[1]), a_indices.dtype), values,
            jnp.asarray(concrete("SparseAdd", "a_shape", a_shape).reshape(-1), a_shape.dtype))
