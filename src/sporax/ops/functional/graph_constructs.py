"""Graph-level functions of ``mindspore.ops``: ``linearize``, ``switch_layer``, and the sparse-tensor builders and
getters ``make_sparse_tensor``, ``make_row_tensor_inner``, ``row_tensor_get_indices``/``values``/``dense_shape``.

``linearize`` is JAX's: the function is evaluated once and its Jacobian-vector product is kept as a
linear function of the tangents. ``switch_layer`` picks a branch by index: with a concrete index
the branch itself, under a trace a function that runs ``lax.switch`` over the branches.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> out, jvp_fn = ops.linearize(lambda a: a * a, Tensor(np.array([1.0, 2.0], np.float32)))
    >>> jvp_fn(Tensor(np.array([1.0, 1.0], np.float32))).asnumpy().tolist()
    [2.0, 4.0]
"""
import numbers

import jax

from sporax.core.sparse import RowTensor
from sporax.core.tensor import Tensor
from sporax.ops._dispatch import describe
from sporax.ops.lowering import plain_lowering


def linearize(fn, inputs):
    """``(output, jvp_fn)``: ``fn(*inputs)`` and the linear map from input tangents (one per input, a tuple when
    ``inputs`` is a tuple) to the output tangent."""
    from sporax.autodiff.transforms import _array_function, to_arrays, to_tensors

    single = isinstance(inputs, Tensor)
    primals = (inputs,) if single else tuple(inputs)
    if not primals or not all(isinstance(p, Tensor) for p in primals):
        raise TypeError(f"For 'linearize', 'inputs' must be a Tensor or a tuple of Tensors, but got "
                        f"{describe(inputs)}.")
    with plain_lowering():  # forward mode: the CPU lowerings with a hand-written VJP define no JVP
        output, linear = jax.linearize(_array_function(fn), *to_arrays(primals))

    def jvp_fn(tangents):
        vectors = (tangents,) if single else tuple(tangents)
        if len(vectors) != len(primals):
            raise ValueError(f"For 'linearize', the jvp function takes {len(primals)} tangents, but got "
                             f"{len(vectors)}.")
        return to_tensors(linear(*to_arrays(vectors)))

    return to_tensors(output), jvp_fn


def switch_layer(*args):
    """``branches[index]``: the branch function selected by the (Int32 scalar) ``index``."""
    if len(args) != 2:
        raise TypeError(f"For 'switch_layer', 2 inputs (index, branches) are expected, but got {len(args)}.")
    index, branches = args
    if not isinstance(branches, (tuple, list)) or not branches or not all(callable(b) for b in branches):
        raise TypeError("For 'switch_layer', 'branches' must be a non-empty tuple of functions or Cells.")
    value = index._value if isinstance(index, Tensor) else index
    if isinstance(value, jax.core.Tracer):
        from sporax.autodiff.transforms import _array_function, to_arrays, to_tensors

        functions = [_array_function(branch) for branch in branches]

        def selected(*inputs):
            return to_tensors(jax.lax.switch(value, functions, *to_arrays(inputs)))
        return selected
    position = int(value)
    if isinstance(value, bool) or not isinstance(position, numbers.Integral) or not 0 <= position < len(branches):
        raise IndexError(f"For 'switch_layer', 'index' must lie in [0, {len(branches)}), but got {position}.")
    return branches[position]


def make_sparse_tensor(indices, values, dense_shape):
    """A ``COOTensor`` (MindSpore's former ``SparseTensor``) of ``values`` at ``indices``."""
    from sporax.ops.functional.sparse import make_coo_tensor

    return make_coo_tensor(indices, values, dense_shape)


def make_row_tensor_inner(*args):
    """A ``RowTensor`` from ``(indices, values, dense_shape)``."""
    if len(args) != 3:
        raise TypeError(f"For 'make_row_tensor_inner', 3 inputs are expected, but got {len(args)}.")
    indices, values, dense_shape = args
    return RowTensor(indices, values, tuple(dense_shape))


def _row_tensor(op_name, args):
    if len(args) != 1 or not isinstance(args[0], RowTensor):
        raise TypeError(f"For '{op_name}', one RowTensor is expected, but got {[type(a).__name__ for a in args]}.")
    return args[0]


def row_tensor_get_indices(*args):
    """The row indices of a RowTensor."""
    return _row_tensor("row_tensor_get_indices", args).indices


def row_tensor_get_values(*args):
    """The rows (values) of a RowTensor."""
    return _row_tensor("row_tensor_get_values", args).values


def row_tensor_get_dense_shape(*args):
    """The dense shape of a RowTensor."""
    return _row_tensor("row_tensor_get_dense_shape", args).dense_shape
