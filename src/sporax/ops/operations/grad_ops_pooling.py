"""Backward kernels of ``ops.operations._grad_ops`` for pooling: adaptive, 3-d and fractional pooling, max
unpooling, and max pooling's second derivative.

Each is the VJP (or, for the ``*GradGrad`` of max pooling, the JVP) of sporax's own forward Primitive with the
same settings, so a backward kernel gives exactly the gradient the forward op's autodiff gives; the gradients
with an ``argmax`` input scatter to the recorded positions instead.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.ops.operations.grad_ops_pooling import AdaptiveMaxPool2DGrad
    >>> dx = AdaptiveMaxPool2DGrad()(Tensor(np.ones((1, 1, 1), np.float32)), Tensor(np.zeros((1, 2, 2), np.float32)),
    ...                              Tensor(np.array([[[3]]])))
    >>> dx.asnumpy().tolist()
    [[[0.0, 0.0], [0.0, 1.0]]]
"""
import jax
import jax.numpy as jnp
import numpy as np

from sporax.ops._dispatch import array_of, wrap
from sporax.ops.functional.fractional_pooling import pool_by_sequences
from sporax.ops.functional.unpool import scatter_to_planes
from sporax.ops.operations.grad_ops_nn import _operations, _pullback_in_float32
from sporax.ops.operations.grad_ops_structured import _shape_of, vjp_of_inputs
from sporax.ops.primitive import Primitive, prim_attr_register


def _argmax_grad(op_name, spatial_rank, grad, x, argmax):
    """``grad`` added into zeros shaped as ``x`` at ``argmax``, flat over the last ``spatial_rank`` axes."""
    x_array = array_of(op_name, "x", x)
    dy = array_of(op_name, "y_grad", grad).astype(x_array.dtype)
    index = array_of(op_name, "argmax", argmax)
    if dy.shape != index.shape:
        raise ValueError(f"For '{op_name}', the gradient and 'argmax' must have the same shape, but got "
                         f"{tuple(dy.shape)} and {tuple(index.shape)}.")
    split = x_array.ndim - spatial_rank
    return wrap(scatter_to_planes(dy, index, x_array.shape[:split], x_array.shape[split:]))


def _adaptive_max_pool_grad(name, spatial_rank, input_names):
    """``name()(y_grad, x, argmax)``: the gradient added at the forward ``argmax`` (flat over the last
    ``spatial_rank`` axes) into zeros shaped as ``x``."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(list(input_names), ["dx" if spatial_rank == 2 else "output_grad"])

    def __call__(self, y_grad, x, argmax):
        return _argmax_grad(name, spatial_rank, y_grad, x, argmax)

    doc = (f"Gradient of ``{name[:-4]}``: the gradient added at the forward ``argmax`` of each plane.\n\n"
           "    Inputs:\n        - **y_grad** (Tensor) - the gradient of the pooled output.\n"
           f"        - **x** (Tensor) - the forward input, with {spatial_rank} spatial axes last.\n"
           "        - **argmax** (Tensor) - the forward argmax (flat over the spatial axes), shape of ``y_grad``.\n\n"
           "    Outputs:\n        Tensor of the shape and dtype of ``x``.\n")
    return type(name, (Primitive,), {"__init__": __init__, "__call__": __call__, "__doc__": doc,
                                     "__module__": __name__})


AdaptiveMaxPool2DGrad = _adaptive_max_pool_grad("AdaptiveMaxPool2DGrad", 2, ("y_grad", "x", "argmax"))


AdaptiveMaxPool3DGrad = _adaptive_max_pool_grad("AdaptiveMaxPool3DGrad", 3, ("input_grad", "x", "argmax"))


class MaxPool3DGradWithArgmax(Primitive):
    """Gradient of ``MaxPool3DWithArgmax``: ``grads`` added at the forward ``argmax`` (flat over D * H * W).

    Args:
        ksize, strides, pads, dilation, ceil_mode, data_format: those of the forward op (``argmax`` fixes the
            positions).

    Inputs:
        - **x** (Tensor) - the forward input (N, C, D, H, W).
        - **grads** (Tensor) - the gradient of the pooled output.
        - **argmax** (Tensor) - the forward argmax, shape of ``grads``.

    Outputs:
        Tensor of the shape and dtype of ``x``.
    """

    @prim_attr_register
    def __init__(self, ksize, strides, pads, dilation=(1, 1, 1), ceil_mode=False, data_format="NCDHW"):
        self.init_prim_io_names(["x", "grads", "argmax"], ["y"])

    def __call__(self, x, grads, argmax):
        return _argmax_grad("MaxPool3DGradWithArgmax", 3, grads, x, argmax)


def _adaptive_avg_pool_grad(name, forward_name, spatial_rank):
    """``name()(input_grad, orig_input_shape)``: the VJP of the forward adaptive average pooling whose output
    size is ``input_grad``'s last ``spatial_rank`` axes."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["input_grad", "orig_input_shape"], ["output_grad"])

    def __call__(self, input_grad, orig_input_shape):
        dy = array_of(name, "input_grad", input_grad)
        shape = _shape_of(name, "orig_input_shape", orig_input_shape)
        forward = getattr(_operations(), forward_name)(tuple(dy.shape[-spatial_rank:]))
        return _pullback_in_float32(forward, shape, dy)

    doc = (f"Gradient of ``{forward_name}`` (its VJP).\n\n"
           "    Inputs:\n        - **input_grad** (Tensor) - the gradient of the pooled output.\n"
           "        - **orig_input_shape** (Tensor) - 1-d int, the forward input's shape.\n\n"
           "    Outputs:\n        Tensor of shape ``orig_input_shape``.\n")
    return type(name, (Primitive,), {"__init__": __init__, "__call__": __call__, "__doc__": doc,
                                     "__module__": __name__})


AdaptiveAvgPool2DGrad = _adaptive_avg_pool_grad("AdaptiveAvgPool2DGrad", "AdaptiveAvgPool2D", 2)


AdaptiveAvgPool3DGrad = _adaptive_avg_pool_grad("AdaptiveAvgPool3DGrad", "AdaptiveAvgPool3D", 3)


def _max_pool_grad_grad(op_name, x, grad, forward):
    """The max pooling's JVP at ``x`` along ``grad``: each window's ``grad`` at its maximum's position."""
    x_array = array_of(op_name, "x", x)
    direction = array_of(op_name, "grad", grad).astype(x_array.dtype)

    def on_arrays(value):
        return array_of(op_name, "output", forward(wrap(value)))

    _, tangent = jax.jvp(on_arrays, (x_array,), (direction,))
    return wrap(tangent)


class MaxPoolGradGrad(Primitive):
    """Second derivative of ``MaxPool``: the gradient ``grad`` of its input read at each window's maximum.

    Args:
        kernel_size, strides, pad_mode: those of the forward op (NCHW).

    Inputs:
        - **x** (Tensor) - the forward input.
        - **origin_output** (Tensor) - the forward output (its values are recomputed from ``x``).
        - **grad** (Tensor) - shaped as ``x``.

    Outputs:
        Tensor of the forward output's shape.
    """

    @prim_attr_register
    def __init__(self, kernel_size=1, strides=1, pad_mode="VALID"):
        self.forward = _operations().MaxPool(kernel_size, strides, pad_mode)
        self.init_prim_io_names(["x1", "x2", "grad"], ["output"])

    def __call__(self, x, origin_output, grad):
        return _max_pool_grad_grad("MaxPoolGradGrad", x, grad, self.forward)


class MaxPool3DGradGrad(Primitive):
    """Second derivative of ``MaxPool3D``: the gradient ``grad`` of its input read at each window's maximum.

    Args:
        kernel_size, strides, pad_mode, data_format: those of the forward op.

    Inputs:
        - **x** (Tensor) - the forward input (N, C, D, H, W).
        - **origin_output** (Tensor) - the forward output (its values are recomputed from ``x``).
        - **grad** (Tensor) - shaped as ``x``.

    Outputs:
        Tensor of the forward output's shape.
    """

    @prim_attr_register
    def __init__(self, kernel_size=(1, 1, 1, 1, 1), strides=(1, 1, 1, 1, 1), pad_mode="VALID", data_format="NCDHW"):
        def spatial(value):
            return tuple(value)[-3:] if isinstance(value, (tuple, list)) else value
        self.forward = _operations().MaxPool3D(spatial(kernel_size), spatial(strides), pad_mode,
                                               data_format=data_format)
        self.init_prim_io_names(["x", "y", "grad"], ["output"])

    def __call__(self, x, origin_output, grad):
        return _max_pool_grad_grad("MaxPool3DGradGrad", x, grad, self.forward)


def _planes(op_name, arg_name, value, spatial_rank, channels_last):
    """``value`` as an array with channels before the spatial axes (moved there when ``channels_last``)."""
    array = array_of(op_name, arg_name, value)
    return jnp.moveaxis(array, -1, array.ndim - spatial_rank - 1) if channels_last else array


def _max_unpool_grad(name, spatial_rank, default_format):
    """``name(ksize, strides, pads, output_shape, data_format)(x, grads, argmax)``: the unpooled gradient read
    back at each input element's ``argmax`` (flat over its spatial plane)."""

    @prim_attr_register
    def __init__(self, ksize, strides=0, pads=0, output_shape=(), data_format=default_format):
        self.init_prim_io_names(["x", "grads", "argmax"], ["y"])

    def __call__(self, x, grads, argmax):
        channels_last = self.data_format in ("NHWC", "NDHWC")
        x_array = array_of(name, "x", x)
        dy = _planes(name, "grads", grads, spatial_rank, channels_last)
        index = _planes(name, "argmax", argmax, spatial_rank, channels_last).astype(jnp.int32)
        lead = dy.shape[:dy.ndim - spatial_rank]
        rows = int(np.prod(lead))
        picked = jnp.take_along_axis(dy.reshape(rows, -1), index.reshape(rows, -1), axis=1).reshape(index.shape)
        if channels_last:
            picked = jnp.moveaxis(picked, picked.ndim - spatial_rank - 1, -1)
        return wrap(picked.astype(x_array.dtype))

    doc = (f"Gradient of ``{name[:-4]}``: the output gradient read at each input element's ``argmax``.\n\n"
           "    Args:\n        ksize, strides, pads, output_shape, data_format: those of the forward op.\n\n"
           "    Inputs:\n        - **x** (Tensor) - the forward input.\n"
           "        - **grads** (Tensor) - the gradient of the unpooled output.\n"
           "        - **argmax** (Tensor) - the forward indices (flat over each spatial plane), shaped as ``x``.\n\n"
           "    Outputs:\n        Tensor of the shape and dtype of ``x``.\n")
    return type(name, (Primitive,), {"__init__": __init__, "__call__": __call__, "__doc__": doc,
                                     "__module__": __name__})


MaxUnpool2DGrad = _max_unpool_grad("MaxUnpool2DGrad", 2, "NCHW")


MaxUnpool3DGrad = _max_unpool_grad("MaxUnpool3DGrad", 3, "NCDHW")


class MaxPoolGradGradWithArgmax(Primitive):
    """Second derivative of ``MaxPoolWithArgmax``: ``grad`` (shaped as the input) read at each ``argmax``.

    Args:
        kernel_size, strides, pad_mode: those of the forward op (``argmax`` fixes the positions).

    Inputs:
        - **x** (Tensor) - the forward input (N, C, H, W).
        - **grad** (Tensor) - shaped as ``x``.
        - **argmax** (Tensor) - the forward argmax, flat over one image's (C, H, W) as MindSpore's CPU kernel
          writes it.

    Outputs:
        Tensor of the shape of ``argmax``, the dtype of ``x``.
    """

    @prim_attr_register
    def __init__(self, kernel_size=1, strides=1, pad_mode="VALID"):
        self.init_prim_io_names(["x", "grad", "argmax"], ["output"])

    def __call__(self, x, grad, argmax):
        x_array = array_of("MaxPoolGradGradWithArgmax", "x", x)
        direction = array_of("MaxPoolGradGradWithArgmax", "grad", grad).astype(x_array.dtype)
        index = array_of("MaxPoolGradGradWithArgmax", "argmax", argmax).astype(jnp.int32)
        batch = direction.shape[0]
        picked = jnp.take_along_axis(direction.reshape(batch, -1), index.reshape(batch, -1), axis=1)
        return wrap(picked.reshape(index.shape))


def _boundaries(op_name, arg_name, value):
    return [int(bound) for bound in np.asarray(array_of(op_name, arg_name, value)).ravel()]  # window edges: eager


class FractionalMaxPoolGrad(Primitive):
    """Gradient of ``FractionalMaxPool`` (NHWC) over the forward's pooling sequences (its VJP).

    Args:
        overlapping (bool): that of the forward op. Default: False.

    Inputs:
        - **orig_input** (Tensor) - the forward input (N, H, W, C).
        - **orig_output** (Tensor) - the forward output (its values are recomputed from ``orig_input``).
        - **out_backprop** (Tensor) - the gradient of the pooled output.
        - **row_pooling_sequence**, **col_pooling_sequence** (Tensor) - the forward's window boundaries.

    Outputs:
        Tensor of the shape and dtype of ``orig_input``.
    """

    @prim_attr_register
    def __init__(self, overlapping=False):
        self.init_prim_io_names(["orig_input", "orig_output", "out_backprop", "row_pooling_sequence",
                                 "col_pooling_sequence"], ["y"])

    def __call__(self, orig_input, orig_output, out_backprop, row_pooling_sequence, col_pooling_sequence):
        name = "FractionalMaxPoolGrad"
        rows = _boundaries(name, "row_pooling_sequence", row_pooling_sequence)
        cols = _boundaries(name, "col_pooling_sequence", col_pooling_sequence)
        return vjp_of_inputs(name, lambda x: wrap(pool_by_sequences(array_of(name, "x", x), rows, cols,
                                                                    self.overlapping, jnp.max)),
                             orig_input, out_backprop, ("orig_input", "out_backprop"))


class FractionalAvgPoolGrad(Primitive):
    """Gradient of ``FractionalAvgPool`` (NHWC) over the forward's pooling sequences (its VJP).

    Args:
        overlapping (bool): that of the forward op. Default: False.

    Inputs:
        - **orig_input_tensor_shape** (Tensor) - 1-d int64, the forward input's shape (N, H, W, C).
        - **out_backprop** (Tensor) - the gradient of the pooled output.
        - **row_pooling_sequence**, **col_pooling_sequence** (Tensor) - the forward's window boundaries.

    Outputs:
        Tensor of shape ``orig_input_tensor_shape``, the dtype of ``out_backprop``.
    """

    @prim_attr_register
    def __init__(self, overlapping=False):
        self.init_prim_io_names(["orig_input_tensor_shape", "out_backprop", "row_pooling_sequence",
                                 "col_pooling_sequence"], ["y"])

    def __call__(self, orig_input_tensor_shape, out_backprop, row_pooling_sequence, col_pooling_sequence):
        name = "FractionalAvgPoolGrad"
        shape = _shape_of(name, "orig_input_tensor_shape", orig_input_tensor_shape)
        rows = _boundaries(name, "row_pooling_sequence", row_pooling_sequence)
        cols = _boundaries(name, "col_pooling_sequence", col_pooling_sequence)
        dy = array_of(name, "out_backprop", out_backprop)
        return _pullback_in_float32(
            lambda x: wrap(pool_by_sequences(array_of(name, "x", x), rows, cols, self.overlapping, jnp.mean)),
            shape, dy)
