"""Backward kernels of ``ops.operations._grad_ops`` that route a gradient to selected elements: ``GatherD``'s,
``Median``'s, the sparse segment reductions', and the second derivatives of ``Maximum``/``Minimum``.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.ops.operations.grad_ops_selection import MaximumGradGrad
    >>> one = Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    >>> MaximumGradGrad()(one, Tensor(np.array([1.0, 3.0, 2.0], np.float32)), one * 10, one)[2].asnumpy().tolist()
    [10.0, 2.0, 30.0]
"""
import jax
import jax.numpy as jnp
import numpy as np

from sporax.ops._dispatch import array_of, inexact_array_of, wrap
from sporax.ops.op_table import TABLE
from sporax.ops.primitive import Primitive, prim_attr_register


def _extremum_grad_grad(name, x_wins, rule):
    """``name(grad_x, grad_y)(x, y, dx, dy)`` -> ``(zeros, zeros, sopd_grads)``: the gradient of
    ``MaximumGrad``/``MinimumGrad`` with respect to their incoming gradient."""

    @prim_attr_register
    def __init__(self, grad_x=True, grad_y=True):
        self.init_prim_io_names(["x", "y", "dx", "dy"], ["sopd_x", "sopd_y", "sopd_grads"])

    def __call__(self, x, y, dx, dy):
        x_array, y_array = array_of(name, "x", x), array_of(name, "y", y)
        dx_array, dy_array = array_of(name, "dx", dx), array_of(name, "dy", dy)
        chosen = jnp.where(x_wins(x_array, y_array), dx_array, dy_array)
        return wrap(jnp.zeros_like(x_array)), wrap(jnp.zeros_like(y_array)), wrap(chosen)

    doc = (f"Second derivative of ``{name[:-8]}``: ``dx`` where {rule} (ties included), else ``dy``.\n\n"
           "    Inputs:\n        - **x**, **y** (Tensor) - the forward inputs.\n"
           "        - **dx**, **dy** (Tensor) - the gradients of ``x`` and ``y``.\n\n"
           "    Outputs:\n        (sopd_x, sopd_y, sopd_grads): zeros shaped as ``x`` and ``y``, and the gradient of"
           " the incoming gradient.\n")
    return type(name, (Primitive,), {"__init__": __init__, "__call__": __call__, "__doc__": doc,
                                     "__module__": __name__})


MaximumGradGrad = _extremum_grad_grad("MaximumGradGrad", lambda x, y: x >= y, "``x >= y``")
MinimumGradGrad = _extremum_grad_grad("MinimumGradGrad", lambda x, y: x <= y, "``x <= y``")


class GatherDGradV2(Primitive):
    """Gradient of ``GatherD``: ``dout`` added into zeros shaped as ``x`` at ``index`` along ``dim``.

    Inputs:
        - **x** (Tensor) - the forward input.
        - **dim** (int) - the forward axis.
        - **index** (Tensor) - the forward int indices.
        - **dout** (Tensor) - the gradient of the gathered output, shaped as ``index``.

    Outputs:
        Tensor of the shape and dtype of ``x``.
    """

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["x", "dim", "index", "grad"], ["output"])

    def __call__(self, x, dim, index, dout):
        x_array = array_of("GatherDGradV2", "x", x)
        index_array = array_of("GatherDGradV2", "index", index)
        dy = array_of("GatherDGradV2", "dout", dout).astype(x_array.dtype)
        dim = int(dim)
        _, pullback = jax.vjp(lambda value: TABLE["gather_d"].kernel(value, dim, index_array), x_array)
        return wrap(pullback(dy)[0])


class MedianGrad(Primitive):
    """Gradient of ``Median``: ``y_grad`` at the median's position along ``axis`` (``indices``), or, for the
    global median, shared equally by the elements equal to it.

    Args:
        global_median, axis, keep_dims: those of the forward op.

    Inputs:
        - **y_grad** (Tensor) - the gradient of the median.
        - **x** (Tensor) - the forward input.
        - **y** (Tensor) - the forward median.
        - **indices** (Tensor) - the forward indices (not read for the global median).

    Outputs:
        Tensor of the shape and dtype of ``x``.
    """

    @prim_attr_register
    def __init__(self, global_median=False, axis=0, keep_dims=False):
        self.init_prim_io_names(["y_grad", "x", "y", "indices"], ["x_grad"])

    def __call__(self, y_grad, x, y, indices):
        x_array = inexact_array_of("MedianGrad", "x", x)
        dy = array_of("MedianGrad", "y_grad", y_grad).astype(x_array.dtype)
        if self.global_median:
            chosen = x_array == array_of("MedianGrad", "y", y).astype(x_array.dtype).reshape(())
            return wrap(jnp.where(chosen, dy.reshape(()) / jnp.sum(chosen), 0).astype(x_array.dtype))
        axis = self.axis % max(x_array.ndim, 1)
        index = array_of("MedianGrad", "indices", indices).astype(jnp.int32)
        if not self.keep_dims and x_array.ndim:
            index, dy = jnp.expand_dims(index, axis), jnp.expand_dims(dy, axis)
        place = jnp.arange(x_array.shape[axis] if x_array.ndim else 1).reshape(
            [-1 if dim == axis else 1 for dim in range(max(x_array.ndim, 1))])
        return wrap(jnp.where(place == index, dy, 0).reshape(x_array.shape).astype(x_array.dtype))


def _sparse_segment_grad(name, divide_by, summary):
    """``name()(grad, indices, segment_ids, output_dim0)``: each row ``grad[segment_ids[i]]``, divided by
    ``divide_by(count of its segment)``, added into row ``indices[i]`` of a zero (output_dim0, ...) Tensor."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["x", "indices", "segment_ids", "output_dim0"], ["y"])

    def __call__(self, grad, indices, segment_ids, output_dim0):
        dy = inexact_array_of(name, "grad", grad)
        rows = array_of(name, "indices", indices).astype(jnp.int32)
        segments = array_of(name, "segment_ids", segment_ids).astype(jnp.int32)
        if rows.shape != segments.shape or rows.ndim != 1:
            raise ValueError(f"For '{name}', 'indices' and 'segment_ids' must be 1-d of one shape, but got "
                             f"{tuple(rows.shape)} and {tuple(segments.shape)}.")
        size = int(np.asarray(array_of(name, "output_dim0", output_dim0)).reshape(()))  # an output shape: eager
        counts = jnp.zeros(dy.shape[0], dy.dtype).at[segments].add(1)
        scale = divide_by(jnp.maximum(counts, 1))[segments].reshape((-1,) + (1,) * (dy.ndim - 1))
        return wrap(jnp.zeros((size,) + dy.shape[1:], dy.dtype).at[rows].add(dy[segments] / scale))

    doc = (f"{summary}\n\n    Inputs:\n        - **grad** (Tensor) - the gradient of the segment reduction.\n"
           "        - **indices** (Tensor), **segment_ids** (Tensor) - 1-d int, the forward's.\n"
           "        - **output_dim0** (Tensor) - 0-d int, the forward input's first dimension.\n\n"
           "    Outputs:\n        Tensor of shape (output_dim0, *grad.shape[1:]).\n")
    return type(name, (Primitive,), {"__init__": __init__, "__call__": __call__, "__doc__": doc,
                                     "__module__": __name__})


SparseSegmentMeanGrad = _sparse_segment_grad("SparseSegmentMeanGrad", lambda count: count,
                                             "Gradient of ``SparseSegmentMean``: each segment's gradient over its "
                                             "size, back to the rows it read.")
SparseSegmentSqrtNGrad = _sparse_segment_grad("SparseSegmentSqrtNGrad", jnp.sqrt,
                                              "Gradient of ``SparseSegmentSqrtN``: each segment's gradient over "
                                              "the square root of its size, back to the rows it read.")


class SparseFillEmptyRowsGrad(Primitive):
    """Gradient of ``SparseFillEmptyRows``: each input value's gradient read through ``reverse_index_map``; the
    filled default value gets the rest.

    Inputs:
        - **reverse_index_map** (Tensor) - 1-d int64, where each input value went in the output.
        - **grad_values** (Tensor) - 1-d, the gradient of the output values.

    Outputs:
        (d_values, d_default_value): shaped as ``reverse_index_map``, and 0-d.
    """

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["reverse_index_map", "grad_values"], ["y_values", "y_default_value"])

    def __call__(self, reverse_index_map, grad_values):
        index = array_of("SparseFillEmptyRowsGrad", "reverse_index_map", reverse_index_map).astype(jnp.int32)
        dy = array_of("SparseFillEmptyRowsGrad", "grad_values", grad_values)
        values = dy[index]
        return wrap(values), wrap(jnp.sum(dy) - jnp.sum(values))


class SparseSliceGrad(Primitive):
    """Gradient of ``SparseSlice``: each input value gets the gradient of the output value it became, zero
    where it fell outside the slice.

    Inputs:
        - **backprop_val_grad** (Tensor) - 1-d, the gradient of the sliced values.
        - **indices** (Tensor) - (N, rank) int64, the forward input's indices.
        - **start** (Tensor) - 1-d int64, the forward slice start.
        - **new_indices** (Tensor) - (M, rank) int64, the forward output's indices.

    Outputs:
        Tensor (N,), the gradient of the input values.
    """

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["backprop_val_grad", "indices", "start", "new_indices"], ["y_grad"])

    def __call__(self, backprop_val_grad, indices, start, new_indices):
        dy = array_of("SparseSliceGrad", "backprop_val_grad", backprop_val_grad)
        shifted = array_of("SparseSliceGrad", "indices", indices) - array_of("SparseSliceGrad", "start", start)
        kept = array_of("SparseSliceGrad", "new_indices", new_indices)
        match = jnp.all(shifted[:, None, :] == kept[None, :, :], axis=-1)  # (N, M): input i became output j
        return wrap(jnp.sum(jnp.where(match, dy[None, :], 0), axis=1).astype(dy.dtype))


class LuUnpackGrad(Primitive):
    """Gradient of ``LuUnpack`` with respect to the packed ``LU_data``: ``L_grad``'s strictly lower triangle and
    ``U_grad``'s upper triangle, each placed in zeros of ``LU_data``'s shape (both are computed whatever the flags,
    as MindSpore's kernel does).

    Args:
        L_grad_flag, U_grad_flag (bool): MindSpore's flags (not read).

    Inputs:
        - **L_grad** (Tensor) - (..., M, K), the gradient of the unit lower factor (K = min(M, N)).
        - **U_grad** (Tensor) - (..., K, N), the gradient of the upper factor.
        - **LU_data** (Tensor) - (..., M, N), the packed factors.

    Outputs:
        (L_data_grad, U_data_grad), each of ``LU_data``'s shape.
    """

    @prim_attr_register
    def __init__(self, L_grad_flag, U_grad_flag):  # noqa: N803 - MindSpore's names
        self.init_prim_io_names(["L_grad", "U_grad", "LU_data"], ["L_data_grad", "U_data_grad"])

    def __call__(self, L_grad, U_grad, LU_data):  # noqa: N803
        lu = array_of("LuUnpackGrad", "LU_data", LU_data)
        lower = array_of("LuUnpackGrad", "L_grad", L_grad).astype(lu.dtype)
        upper = array_of("LuUnpackGrad", "U_grad", U_grad).astype(lu.dtype)
        rows, columns = lu.shape[-2:]
        k = min(rows, columns)
        lower_grad = jnp.zeros_like(lu).at[..., :, :k].set(jnp.tril(lower[..., :rows, :k], -1))
        upper_grad = jnp.zeros_like(lu).at[..., :k, :].set(jnp.triu(upper[..., :k, :columns]))
        return wrap(lower_grad), wrap(upper_grad)
