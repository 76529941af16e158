"""Backward-kernel Primitives of ``ops.operations._grad_ops`` with structure: pooling, slicing, bias, losses
(convolutions': ``grad_ops_convolution.py``).

Where MindSpore's kernel is the vector-Jacobian product of a forward op, it is computed here as
exactly that (JAX's VJP of sporax's own forward Primitive with the same settings, or of the op-table
entry's kernel: ``entry_vjp``), so forward and backward agree by construction; LayerNorm's, which
MindSpore computes from the forward statistics it is given, keeps its closed form.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.ops.operations.grad_ops_structured import BiasAddGrad
    >>> BiasAddGrad()(Tensor(np.ones((2, 3), np.float32))).asnumpy().tolist()
    [2.0, 2.0, 2.0]
"""
import jax
import jax.numpy as jnp
import numpy as np

from sporax.ops._dispatch import array_of, wrap
from sporax.ops.faces import primitive_class
from sporax.ops.functional import gradient_kernels  # noqa: F401 - declares the generated entries
from sporax.ops.op_table import PRIMITIVES, TABLE
from sporax.ops.operations import nn_ops
from sporax.ops.operations.array_ops import Slice, StridedSlice
from sporax.ops.primitive import Primitive, prim_attr_register


def entry_vjp(name, arrays, cotangent, wrt=(0,), **settings):
    """The VJP of op-table entry ``name``'s kernel (with ``settings``) at ``arrays`` (its Tensor inputs in
    order, None for a left-out optional one) with respect to the inputs at ``wrt``: a backward Primitive
    of a table op computes exactly the gradient the op's autodiff gives."""
    kernel = TABLE[name].kernel

    def on_chosen(*chosen):
        values = list(arrays)
        for index, value in zip(wrt, chosen):
            values[index] = value
        return kernel(*values, **settings)

    output, pullback = jax.vjp(on_chosen, *[arrays[index] for index in wrt])
    cotangent = cotangent.astype(output.dtype)
    # a reduced loss takes its cotangent as a scalar of any shape of size 1
    cotangent = (cotangent.reshape(output.shape) if cotangent.size == output.size
                 else jnp.broadcast_to(cotangent, output.shape))
    return pullback(cotangent)


def _vjp(forward, primal, cotangent):
    """The VJP of ``forward`` (a function of one Tensor) at the array ``primal``."""
    def on_arrays(array):
        return array_of("vjp", "output", forward(wrap(array)))
    _, pullback = jax.vjp(on_arrays, primal)
    return pullback(cotangent.astype(primal.dtype))[0]


def vjp_of_inputs(op_name, forward, x, dy, names=("x", "dy")):
    """The gradient Primitive ``op_name``'s output: ``forward``'s VJP at the Tensor ``x`` for the output
    gradient ``dy`` (``names``: their argument names, for errors)."""
    return wrap(_vjp(forward, array_of(op_name, names[0], x), array_of(op_name, names[1], dy)))


def _scatter_through(select, dy, shape):
    """Zeros of ``shape`` with ``dy`` at the positions ``select`` (a slicing of one Tensor) picks.

    The positions come from slicing an index grid, so any dtype (Bool included) goes through and
    ``dy`` only needs as many elements as the slice has.
    """
    positions = array_of("slice", "output", select(wrap(jnp.arange(int(np.prod(shape)), dtype=jnp.int32).reshape(shape))))
    flat = jnp.zeros(int(np.prod(shape)), dy.dtype).at[positions.ravel()].set(dy.ravel())
    return flat.reshape(shape)


def _shape_of(op_name, arg_name, value):
    if hasattr(value, "asnumpy"):
        value = value.asnumpy().tolist()
    if not isinstance(value, (tuple, list)):
        raise TypeError(f"For '{op_name}', '{arg_name}' must be a tuple of ints, but got {value!r}.")
    return tuple(int(size) for size in value)


def _reduce_to(array, shape):
    """Sum ``array`` over the axes broadcasting added or stretched to reach it from ``shape``."""
    extra = array.ndim - len(shape)
    array = jnp.sum(array, axis=tuple(range(extra))) if extra else array
    stretched = tuple(axis for axis, size in enumerate(shape) if size == 1 and array.shape[axis] != 1)
    return jnp.sum(array, axis=stretched, keepdims=True) if stretched else array


class BiasAddGrad(Primitive):
    """Gradient of ``BiasAdd``: ``dout`` summed over every axis but the channel one.

    Args:
        data_format (str): 'NCHW' (channel axis 1) or 'NHWC' (last axis). Default: 'NCHW'.

    Inputs:
        - **dout** (Tensor) - the gradient of the BiasAdd output, rank >= 2.

    Outputs:
        Tensor of shape (C,).
    """

    @prim_attr_register
    def __init__(self, data_format="NCHW"):
        if data_format not in ("NCHW", "NHWC", "NCDHW"):
            raise ValueError(f"For 'BiasAddGrad', 'data_format' must be 'NCHW', 'NHWC' or 'NCDHW', "
                             f"but got {data_format!r}.")
        self.data_format = data_format

    def __call__(self, dout):
        array = array_of("BiasAddGrad", "dout", dout)
        if array.ndim < 2:
            raise ValueError(f"For 'BiasAddGrad', 'dout' must have rank >= 2, but got rank {array.ndim}.")
        channel = array.ndim - 1 if self.data_format == "NHWC" else 1
        return wrap(TABLE["reduce_sum"].kernel(array, tuple(axis for axis in range(array.ndim) if axis != channel)))


def _extremum_grad(name, first_wins):
    class ExtremumGrad(Primitive):
        @prim_attr_register
        def __init__(self, grad_x=True, grad_y=True):
            self.grad_x, self.grad_y = bool(grad_x), bool(grad_y)

        def __call__(self, x1, x2, grads):
            a = array_of(name, "x1", x1)
            b = array_of(name, "x2", x2)
            dy = array_of(name, "grads", grads)
            # the chosen input takes all of ``grads``; on a tie each takes half (MindSpore's kernel)
            share = jnp.where(a == b, 0.5, jnp.where(first_wins(a, b), 1.0, 0.0)).astype(dy.dtype)
            dx1 = _reduce_to(dy * share, a.shape).astype(a.dtype)
            dx2 = _reduce_to(dy * (1 - share), b.shape).astype(b.dtype)
            return wrap(dx1), wrap(dx2)

    ExtremumGrad.__name__ = ExtremumGrad.__qualname__ = name
    ExtremumGrad.__doc__ = (f"Gradients of ``{name[:-4].lower()}(x1, x2)``: ``grads`` routed to the chosen input "
                            "(half to each on ties), each summed back to its own shape.\n\n"
                            "    Inputs:\n        - **x1**, **x2** (Tensor) - the forward inputs.\n"
                            "        - **grads** (Tensor) - the gradient of the output.\n\n"
                            "    Outputs:\n        Tuple (dx1, dx2) of the shapes of ``x1`` and ``x2``.\n")
    return ExtremumGrad


MaximumGrad = _extremum_grad("MaximumGrad", lambda a, b: a > b)
MinimumGrad = _extremum_grad("MinimumGrad", lambda a, b: a < b)


def _pool_grad(name, forward_class):
    class PoolGrad(Primitive):
        @prim_attr_register
        def __init__(self, kernel_size=1, strides=1, pad_mode="VALID", data_format="NCHW"):
            self.forward = forward_class(kernel_size=kernel_size, strides=strides, pad_mode=pad_mode,
                                         data_format=data_format)

        def __call__(self, x, y, dy):
            return vjp_of_inputs(name, self.forward, x, dy)

    PoolGrad.__name__ = PoolGrad.__qualname__ = name
    PoolGrad.__doc__ = (f"Gradient of ``{forward_class.__name__}`` with the same settings (its VJP).\n\n"
                        "    Inputs:\n        - **x** (Tensor) - the forward input.\n"
                        "        - **y** (Tensor) - the forward output.\n"
                        "        - **dy** (Tensor) - the gradient of the output, shape of ``y``.\n\n"
                        "    Outputs:\n        Tensor of the shape of ``x``.\n")
    return PoolGrad


MaxPoolGrad = _pool_grad("MaxPoolGrad", nn_ops.MaxPool)
AvgPoolGrad = _pool_grad("AvgPoolGrad", nn_ops.AvgPool)


class SliceGrad(Primitive):
    """Gradient of ``Slice``: ``dy`` placed at ``begin`` in zeros of the shape of ``x``.

    Inputs:
        - **dy** (Tensor) - the gradient of the slice, of shape ``size``.
        - **x** (Tensor) - the forward input.
        - **begin**, **size** (tuple[int]) - those of the forward Slice.

    Outputs:
        Tensor of the shape of ``x``.
    """

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["dy", "x", "begin", "size"], ["dx"])

    def __call__(self, dy, x, begin, size):
        dy_array = array_of("SliceGrad", "dy", dy)
        x_array = array_of("SliceGrad", "x", x)
        begin, size = _shape_of("SliceGrad", "begin", begin), _shape_of("SliceGrad", "size", size)
        return wrap(_scatter_through(lambda t: Slice()(t, begin, size), dy_array, x_array.shape))


class StridedSliceGrad(Primitive):
    """Gradient of ``StridedSlice`` with the same masks: ``dy`` scattered into zeros of ``shapex``.

    Inputs:
        - **dy** (Tensor) - the gradient of the slice.
        - **shapex** (tuple[int]) - the forward input's shape.
        - **begin**, **end**, **strides** (tuple[int]) - those of the forward StridedSlice.

    Outputs:
        Tensor of shape ``shapex``.
    """

    @prim_attr_register
    def __init__(self, begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0, shrink_axis_mask=0):
        self.forward = StridedSlice(begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask)

    def __call__(self, dy, shapex, begin, end, strides):
        dy_array = array_of("StridedSliceGrad", "dy", dy)
        shape = _shape_of("StridedSliceGrad", "shapex", shapex)
        begin, end = _shape_of("StridedSliceGrad", "begin", begin), _shape_of("StridedSliceGrad", "end", end)
        strides = _shape_of("StridedSliceGrad", "strides", strides)
        return wrap(_scatter_through(lambda t: self.forward(t, begin, end, strides), dy_array, shape))


LayerNormGrad = primitive_class(PRIMITIVES["LayerNormGrad"], __name__)  # from its op-table entry


class SigmoidCrossEntropyWithLogitsGrad(Primitive):
    """Gradient of ``SigmoidCrossEntropyWithLogits``: ``(sigmoid(x) - y) * dout``.

    Inputs:
        - **x** (Tensor) - the forward logits.
        - **y** (Tensor) - the labels, same shape.
        - **dout** (Tensor) - the gradient of the loss, same shape.

    Outputs:
        Tensor of the shape and dtype of ``x``.
    """

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["x", "y", "dout"], ["x_grad"])

    def __call__(self, x, y, dout):
        logits = array_of("SigmoidCrossEntropyWithLogitsGrad", "x", x)
        labels = array_of("SigmoidCrossEntropyWithLogitsGrad", "y", y).astype(logits.dtype)
        (result,) = entry_vjp("sigmoid_cross_entropy_with_logits", (logits, labels),
                              array_of("SigmoidCrossEntropyWithLogitsGrad", "dout", dout))
        return wrap(result.astype(logits.dtype))


def _check_reduction(op_name, reduction):
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"For '{op_name}', 'reduction' must be 'none', 'mean' or 'sum', but got {reduction!r}.")
    return reduction


class SmoothL1LossGrad(Primitive):
    """Gradient of ``SmoothL1Loss`` with respect to ``prediction``.

    Args:
        beta (float): the forward threshold. Default: 1.0.
        reduction (str): that of the forward loss. Default: 'none'.

    Inputs:
        - **prediction**, **target** (Tensor) - the forward inputs.
        - **dloss** (Tensor) - the gradient of the loss (a scalar unless reduction is 'none').

    Outputs:
        Tensor of the shape and dtype of ``prediction``.
    """

    @prim_attr_register
    def __init__(self, beta=1.0, reduction="none"):
        self.beta = float(beta)
        self.reduction = _check_reduction("SmoothL1LossGrad", reduction)

    def __call__(self, prediction, target, dloss):
        predicted = array_of("SmoothL1LossGrad", "prediction", prediction)
        labels = array_of("SmoothL1LossGrad", "target", target).astype(predicted.dtype)
        (result,) = entry_vjp("smooth_l1_loss", (predicted, labels), array_of("SmoothL1LossGrad", "dloss", dloss),
                              beta=self.beta, reduction=self.reduction)
        return wrap(result.astype(predicted.dtype))


class BinaryCrossEntropyGrad(Primitive):
    """Gradient of ``BinaryCrossEntropy`` with respect to the probabilities ``x``.

    Args:
        reduction (str): that of the forward loss. Default: 'mean'.

    Inputs:
        - **x** (Tensor) - the forward probabilities.
        - **y** (Tensor) - the labels, same shape.
        - **dout** (Tensor) - the gradient of the loss.
        - **weight** (Tensor, optional) - the forward rescaling weight.

    Outputs:
        Tensor of the shape and dtype of ``x``.
    """

    @prim_attr_register
    def __init__(self, reduction="mean"):
        self.reduction = _check_reduction("BinaryCrossEntropyGrad", reduction)

    def __call__(self, x, y, dout, weight=None):
        probability = array_of("BinaryCrossEntropyGrad", "x", x)
        labels = array_of("BinaryCrossEntropyGrad", "y", y).astype(probability.dtype)
        scale = None if weight is None else array_of("BinaryCrossEntropyGrad", "weight", weight)
        (result,) = entry_vjp("binary_cross_entropy", (probability, labels, scale),
                              array_of("BinaryCrossEntropyGrad", "dout", dout), reduction=self.reduction)
        return wrap(result.astype(probability.dtype))


class PReLUGrad(Primitive):
    """Gradients of ``PReLU``: ``(dx, dweight)``, the weight's summed over all but the channel axis.

    Inputs:
        - **dy** (Tensor) - the gradient of the output.
        - **x** (Tensor) - the forward input (channels on axis 1).
        - **weight** (Tensor) - the forward weight, (C,) or (1,).

    Outputs:
        Tuple (dx, dweight) of the shapes of ``x`` and ``weight``.
    """

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["y_backprop", "x", "weight"], ["dx", "dw"])

    def __call__(self, dy, x, weight):
        x_array = array_of("PReLUGrad", "x", x)
        slope = array_of("PReLUGrad", "weight", weight)
        dx, dw = entry_vjp("prelu", (x_array, slope.astype(x_array.dtype)), array_of("PReLUGrad", "dy", dy),
                           wrt=(0, 1))
        return wrap(dx), wrap(dw.astype(slope.dtype))


L2NormalizeGrad = primitive_class(PRIMITIVES["L2NormalizeGrad"], __name__)  # from its op-table entry


def _resize_grad(op_name, forward, dy, source_shape):
    """VJP of ``forward`` (a resize of an NCHW image of ``source_shape``) at ``dy``, half precision in float32."""
    dtype = dy.dtype
    work = jnp.promote_types(dtype, jnp.float32)
    gradient = _vjp(forward, jnp.zeros(source_shape, work), dy.astype(work))
    return wrap(gradient.astype(dtype))


class ResizeBilinearGrad(Primitive):
    """Gradient of ``ResizeBilinearV2`` with the same settings (its VJP).

    Args:
        align_corners (bool): Default: False. half_pixel_centers (bool): Default: False.

    Inputs:
        - **grads** (Tensor) - (N, C, H_out, W_out), the gradient of the resized image.
        - **original_image** (Tensor) - (N, C, H, W), the forward input (its shape is used).

    Outputs:
        Tensor of the shape of ``original_image`` and the dtype of ``grads``.
    """

    @prim_attr_register
    def __init__(self, align_corners=False, half_pixel_centers=False):
        self.forward = _operations().ResizeBilinearV2(align_corners, half_pixel_centers)

    def __call__(self, grads, original_image):
        dy = array_of("ResizeBilinearGrad", "grads", grads)
        shape = array_of("ResizeBilinearGrad", "original_image", original_image).shape
        size = tuple(dy.shape[2:])
        return _resize_grad("ResizeBilinearGrad", lambda image: self.forward(image, size), dy, shape)


class ResizeNearestNeighborGrad(Primitive):
    """Gradient of ``ResizeNearestNeighbor`` with the same settings (its VJP).

    Args:
        align_corners (bool): Default: False. half_pixel_centers (bool): Default: False.

    Inputs:
        - **grads** (Tensor) - (N, C, H_out, W_out), the gradient of the resized image.
        - **size** (tuple[int]) - (H, W) of the forward input.

    Outputs:
        Tensor of shape (N, C, H, W) and the dtype of ``grads``.
    """

    @prim_attr_register
    def __init__(self, align_corners=False, half_pixel_centers=False):
        self.align_corners, self.half_pixel_centers = align_corners, half_pixel_centers

    def __call__(self, grads, size):
        dy = array_of("ResizeNearestNeighborGrad", "grads", grads)
        height, width = _shape_of("ResizeNearestNeighborGrad", "size", size)
        forward = _operations().ResizeNearestNeighbor(tuple(dy.shape[2:]), self.align_corners, self.half_pixel_centers)
        return _resize_grad("ResizeNearestNeighborGrad", forward, dy, tuple(dy.shape[:2]) + (height, width))


def _operations():
    """The operations package (its resize Primitives), imported when first needed: it imports this module."""
    import sporax.ops.operations as operations
    return operations


class FlattenGrad(Primitive):
    """Gradient of ``Flatten``: the gradient reshaped back to the forward input's shape.

    Inputs:
        - **dout** (Tensor) - the gradient of the flattened output.
        - **shape** (tuple[int]) - the forward input's shape.

    Outputs:
        Tensor of shape ``shape``.
    """

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["x", "shape"], ["output"])

    def __call__(self, dout, shape):
        dy = array_of("FlattenGrad", "dout", dout)
        return wrap(dy.reshape(_shape_of("FlattenGrad", "shape", shape)))


class ConcatOffset(Primitive):
    """Where each of ``N`` concatenated inputs starts along ``axis``: one row of offsets per input.

    Args:
        N (int): the number of inputs. Default: 2.
        axis (int): the concatenation axis (negative counts from the end). Default: 0.

    Inputs:
        - **input_x** (tuple[Tensor]) - the concatenated inputs (only their shapes are read).

    Outputs:
        Int64 Tensor (N, rank): zeros except the running sum of the earlier inputs' sizes on ``axis``.
    """

    @prim_attr_register
    def __init__(self, N=2, axis=0):
        self.init_prim_io_names(["x"], ["y"])

    def __call__(self, input_x):
        if not isinstance(input_x, (tuple, list)) or not input_x:
            raise TypeError(f"For 'ConcatOffset', 'input_x' must be a non-empty tuple of Tensors, but got {input_x!r}.")
        shapes = [tuple(array_of("ConcatOffset", "input_x", value).shape) for value in input_x]
        rank = len(shapes[0])
        if any(len(shape) != rank for shape in shapes) or not rank:
            raise ValueError(f"For 'ConcatOffset', the inputs must have one rank of at least 1, but got {shapes}.")
        axis = self.axis % rank
        offsets = np.zeros((len(shapes), rank), np.int64)
        offsets[:, axis] = np.cumsum([0] + [shape[axis] for shape in shapes[:-1]])
        return wrap(offsets)


class LayerNormGradGrad(Primitive):
    """Second derivative of ``LayerNorm``: the VJP of ``LayerNormGrad`` with respect to ``x``, ``dy`` and ``gamma``
    for the gradients ``d_dx``, ``d_dg``, ``d_db`` of its three outputs; the given ``mean`` and ``variance`` are
    differentiated as the statistics of ``x`` they are (MindSpore's kernel: the true second derivative).

    Args:
        begin_norm_axis, begin_params_axis: those of the forward op.

    Inputs:
        - **x**, **dy**, **variance**, **mean**, **gamma** (Tensor) - ``LayerNormGrad``'s inputs.
        - **d_dx**, **d_dg**, **d_db** (Tensor) - the gradients of its outputs (dx, dgamma, dbeta).

    Outputs:
        (sopd_x, sopd_dy, sopd_gamma): shaped as ``x``, ``dy`` and ``gamma``.
    """

    @prim_attr_register
    def __init__(self, begin_norm_axis=1, begin_params_axis=1):
        self.init_prim_io_names(["x", "dy", "variance", "mean", "gamma", "d_dx", "d_dg", "d_db"],
                                ["sopd_x", "sopd_dy", "sopd_gamma"])

    def __call__(self, x, dy, variance, mean, gamma, d_dx, d_dg, d_db):
        names = ("x", "dy", "variance", "mean", "gamma", "d_dx", "d_dg", "d_db")
        arrays = [array_of("LayerNormGradGrad", name, value)
                  for name, value in zip(names, (x, dy, variance, mean, gamma, d_dx, d_dg, d_db))]
        x_array, dy_array, variance_array, mean_array, gamma_array = arrays[:5]
        axes = tuple(range(self.begin_norm_axis % x_array.ndim, x_array.ndim))

        def moving_with_x(given, statistic):
            # the given statistic's value, differentiated as the statistic of x it stands for
            return given + statistic - jax.lax.stop_gradient(statistic)

        def grad_of(x_value, dy_value, gamma_value):
            work = x_value.astype(jnp.float32)
            variance_value = moving_with_x(variance_array, jnp.var(work, axis=axes, keepdims=True))
            mean_value = moving_with_x(mean_array, jnp.mean(work, axis=axes, keepdims=True))
            return TABLE["layer_norm_grad"].kernel(x_value, dy_value, variance_value, mean_value, gamma_value,
                                                   self.begin_norm_axis, self.begin_params_axis)

        outputs, pullback = jax.vjp(grad_of, x_array, dy_array, gamma_array)
        results = pullback(tuple(value.astype(part.dtype).reshape(part.shape)
                                 for value, part in zip(arrays[5:], outputs)))
        return tuple(wrap(result) for result in results)
