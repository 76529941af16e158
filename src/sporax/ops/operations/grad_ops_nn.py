"""Backward kernels of ``ops.operations._grad_ops`` for nn ops: padding, 3-d pooling, BatchNorm, LRN, GLU, losses,
selection.

Each is the VJP of sporax's own forward op with the same settings where one exists, or the
closed form of MindSpore's kernel (NLLLossGrad, MaskedSelectGrad, TraceGrad).

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.ops.operations.grad_ops_nn import TraceGrad
    >>> TraceGrad()(Tensor(np.array(2.0, np.float32)), (2, 2)).asnumpy().tolist()
    [[2.0, 0.0], [0.0, 2.0]]
"""
import jax
import jax.numpy as jnp
import numpy as np

from sporax.ops._dispatch import array_of, wrap
from sporax.ops.functional.unpool import scatter_to_planes
from sporax.ops.op_table import TABLE
from sporax.ops.operations.grad_ops_structured import _shape_of, _vjp, entry_vjp, vjp_of_inputs
from sporax.ops.primitive import Primitive, prim_attr_register
from sporax.ops.functional import glu
from sporax.ops.functional import mvlgamma
from sporax.ops.functional import pdist


def _operations():
    import sporax.ops.operations as operations  # imported when first needed: it imports this module
    return operations


def _pullback_in_float32(forward, source_shape, dy):
    """VJP of ``forward`` at zeros of ``source_shape``; half precision works in float32 and casts back."""
    work = jnp.promote_types(dy.dtype, jnp.float32)
    return wrap(_vjp(forward, jnp.zeros(source_shape, work), dy.astype(work)).astype(dy.dtype))


class MirrorPadGrad(Primitive):
    """Gradient of ``MirrorPad``: the padded border folded back onto the input (its VJP).

    Args:
        mode (str): 'REFLECT' or 'SYMMETRIC', that of the forward pad. Default: 'REFLECT'.

    Inputs:
        - **dy** (Tensor) - the gradient of the padded output.
        - **paddings** (Tensor) - (rank, 2) int, the forward paddings.

    Outputs:
        Tensor of the forward input's shape.
    """

    @prim_attr_register
    def __init__(self, mode="REFLECT"):
        self.forward = _operations().MirrorPad(mode)

    def __call__(self, dy, paddings):
        dy_array = array_of("MirrorPadGrad", "dy", dy)
        pads = np.asarray(paddings.asnumpy() if hasattr(paddings, "asnumpy") else paddings).reshape(-1, 2)
        shape = tuple(int(size - before - after) for size, (before, after) in zip(dy_array.shape, pads))
        pads_tensor = wrap(pads.astype(np.int64))
        return _pullback_in_float32(lambda x: self.forward(x, pads_tensor), shape, dy_array)


class GluGrad(Primitive):
    """Gradient of ``glu`` along ``axis`` (its VJP).

    Args:
        axis (int): the forward split axis.

    Inputs:
        - **grads** (Tensor) - the gradient of the output (half of ``x`` along ``axis``).
        - **x** (Tensor) - the forward input.

    Outputs:
        Tensor of the shape of ``x``.
    """

    @prim_attr_register
    def __init__(self, axis):
        self.axis = axis

    def __call__(self, grads, x):
        return vjp_of_inputs("GluGrad", lambda value: glu(value, self.axis), x, grads, ("x", "grads"))


class MaxPoolGradWithArgmax(Primitive):
    """Gradient of ``MaxPoolWithArgmax``: ``grad`` scattered to the input at ``argmax`` (flat C*H*W per image).

    Args:
        kernel_size, strides, pad_mode, data_format: those of the forward op (``argmax`` fixes the positions).

    Inputs:
        - **x** (Tensor) - the forward input (N, C, H, W).
        - **grad** (Tensor) - the gradient of the pooled output.
        - **argmax** (Tensor) - the forward argmax, shape of ``grad``: each index is flat over one
          image's (C, H, W), as MindSpore's CPU kernel writes it.

    Outputs:
        Tensor of the shape and dtype of ``x``.
    """

    @prim_attr_register
    def __init__(self, kernel_size=1, strides=1, pad_mode="VALID", data_format="NCHW"):
        self.init_prim_io_names(["x_origin", "out_origin", "grad"], ["output"])

    def __call__(self, x, grad, argmax):
        x_array = array_of("MaxPoolGradWithArgmax", "x", x)
        dy = array_of("MaxPoolGradWithArgmax", "grad", grad).astype(x_array.dtype)
        index = array_of("MaxPoolGradWithArgmax", "argmax", argmax)
        return wrap(scatter_to_planes(dy, index, x_array.shape[:1], x_array.shape[1:]))


class AvgPool3DGrad(Primitive):
    """Gradient of ``AvgPool3D`` with the same settings (its VJP).

    Inputs:
        - **origin_input_shape** (tuple[int]) - the forward input's shape (N, C, D, H, W).
        - **grads** (Tensor) - the gradient of the pooled output.

    Outputs:
        Tensor of shape ``origin_input_shape``.
    """

    @prim_attr_register
    def __init__(self, kernel_size=1, strides=1, pads=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=0, data_format="NCDHW", pad_mode="pad"):
        pad_mode = "valid" if pad_mode == "pad" and not np.any(pads) else pad_mode
        self.forward = _operations().AvgPool3D(kernel_size, strides, pad_mode, pads, ceil_mode, count_include_pad,
                                               divisor_override, data_format)

    def __call__(self, origin_input_shape, grads):
        dy = array_of("AvgPool3DGrad", "grads", grads)
        shape = _shape_of("AvgPool3DGrad", "origin_input_shape", origin_input_shape)
        return _pullback_in_float32(self.forward, shape, dy)


class MaxPool3DGrad(Primitive):
    """Gradient of ``MaxPool3D`` with the same settings (its VJP).

    Inputs:
        - **x_origin** (Tensor) - the forward input.
        - **out_origin** (Tensor) - the forward output.
        - **grad** (Tensor) - the gradient of the output.

    Outputs:
        Tensor of the shape of ``x_origin``.
    """

    @prim_attr_register
    def __init__(self, kernel_size=(1, 1, 1, 1, 1), strides=(1, 1, 1, 1, 1), pad_mode="VALID", pad_list=0,
                 data_format="NCDHW"):
        def spatial(value):
            return tuple(value)[-3:] if isinstance(value, (tuple, list)) else value
        self.forward = _operations().MaxPool3D(spatial(kernel_size), spatial(strides), pad_mode, pad_list,
                                               data_format=data_format)

    def __call__(self, x_origin, out_origin, grad):
        return vjp_of_inputs("MaxPool3DGrad", self.forward, x_origin, grad, ("x_origin", "grad"))


class NLLLossGrad(Primitive):
    """Gradient of ``NLLLoss`` with respect to the logits: ``-weight[label] * loss_grad`` at each label.

    Args:
        reduction (str): 'none', 'mean' or 'sum', that of the forward loss. Default: 'mean'.
        ignore_index (int): a label that gets no gradient. Default: -100.

    Inputs:
        - **logits** (Tensor) - (N, C) the forward input.
        - **loss_grad** (Tensor) - the gradient of the loss ((N,) for 'none', else a scalar).
        - **labels** (Tensor) - (N,) int class indices.
        - **weight** (Tensor) - (C,) class weights.
        - **total_weight** (Tensor) - the forward's summed weight (divides under 'mean').

    Outputs:
        Tensor of the shape and dtype of ``logits``.
    """

    @prim_attr_register
    def __init__(self, reduction="mean", ignore_index=-100):
        if reduction not in ("none", "mean", "sum"):
            raise ValueError(f"For 'NLLLossGrad', 'reduction' must be 'none', 'mean' or 'sum', but got {reduction!r}.")
        self.reduction, self.ignore_index = reduction, ignore_index

    def __call__(self, logits, loss_grad, labels, weight, total_weight):
        x = array_of("NLLLossGrad", "logits", logits)
        dy = array_of("NLLLossGrad", "loss_grad", loss_grad).astype(x.dtype)
        label = array_of("NLLLossGrad", "labels", labels).astype(np.int32)
        weights = array_of("NLLLossGrad", "weight", weight).astype(x.dtype)
        # 'mean' divides by the given total weight (not one recomputed from the labels): the VJP of the sum
        (dx,) = entry_vjp("nll_loss", (x, label, weights), dy, ignore_index=self.ignore_index,
                          reduction="none" if self.reduction == "none" else "sum")
        if self.reduction == "mean":
            dx = dx / array_of("NLLLossGrad", "total_weight", total_weight).astype(x.dtype).reshape(())
        return wrap(dx)


class MaskedSelectGrad(Primitive):
    """Gradient of ``MaskedSelect``: ``grad`` placed, in row-major order, where ``mask`` is True.

    Inputs:
        - **x** (Tensor) - the forward input.
        - **mask** (Tensor) - the Bool mask (broadcast against ``x``).
        - **grad** (Tensor) - 1-d, one value per selected element.

    Outputs:
        Tensor of the broadcast shape of ``x`` and ``mask``, the dtype of ``x``.
    """

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["x", "mask", "grad"], ["dx"])

    def __call__(self, x, mask, grad):
        x_array = array_of("MaskedSelectGrad", "x", x)
        mask_array = array_of("MaskedSelectGrad", "mask", mask).astype(bool)
        shape = np.broadcast_shapes(x_array.shape, mask_array.shape)
        positions = np.argwhere(np.broadcast_to(np.asarray(mask_array), shape))  # positions are data: eager
        dy = array_of("MaskedSelectGrad", "grad", grad).astype(x_array.dtype).ravel()
        return wrap(TABLE["scatter_nd"].kernel(positions, dy, shape))


class TraceGrad(Primitive):
    """Gradient of ``trace``: ``y_grad`` on the main diagonal of a zero matrix of ``x_shape``.

    Inputs:
        - **y_grad** (Tensor) - the 0-d gradient of the trace.
        - **x_shape** (Union[tuple, Tensor]) - the forward input's (rows, columns).

    Outputs:
        Tensor of shape ``x_shape``, the dtype of ``y_grad``.
    """

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["y_grad", "x_shape"], ["x_grad"])

    def __call__(self, y_grad, x_shape):
        dy = array_of("TraceGrad", "y_grad", y_grad)
        rows, columns = _shape_of("TraceGrad", "x_shape", x_shape)
        (dx,) = entry_vjp("trace", (np.zeros((rows, columns), dy.dtype),), dy)
        return wrap(dx)


class MvlgammaGrad(Primitive):
    """Gradient of ``mvlgamma`` of order ``p`` (its VJP).

    Args:
        p (int): the forward order.

    Inputs:
        - **y_grad** (Tensor), **x** (Tensor) - the gradient of the output and the forward input (one shape).

    Outputs:
        Tensor of the shape and dtype of ``x``.
    """

    @prim_attr_register
    def __init__(self, p):
        self.p = p

    def __call__(self, y_grad, x):
        return vjp_of_inputs("MvlgammaGrad", lambda value: mvlgamma(value, self.p), x, y_grad, ("x", "y_grad"))


class PdistGrad(Primitive):
    """Gradient of ``pdist`` with norm ``p`` (its VJP).

    Args:
        p (float): the forward norm order. Default: 2.0.

    Inputs:
        - **y_grad** (Tensor) - the gradient of the pairwise distances.
        - **x** (Tensor) - the forward input (N, M).
        - **y** (Tensor) - the forward distances (their values are recomputed from ``x``).

    Outputs:
        Tensor of the shape and dtype of ``x``.
    """

    @prim_attr_register
    def __init__(self, p=2.0):
        self.p = float(p)

    def __call__(self, y_grad, x, y):
        return vjp_of_inputs("PdistGrad", lambda value: pdist(value, self.p), x, y_grad, ("x", "y_grad"))


class BatchNormGrad(Primitive):
    """Gradient of ``BatchNorm`` with respect to its input, scale and bias, from the saved statistics.

    Args:
        is_training (bool): whether the forward normalised by the batch's statistics (their own gradient
            flows to ``x``) or by running ones. Default: False.
        epsilon (float): the forward's. Default: 1e-5.
        data_format (str): 'NCHW' (channels second) or 'NHWC' (channels last). Default: 'NCHW'.

    Inputs:
        - **dy** (Tensor) - the gradient of the normalised output.
        - **x** (Tensor) - the forward input.
        - **scale** (Tensor) - (C,) the forward scale.
        - **save_mean** (Tensor), **save_variance** (Tensor) - (C,) the mean and variance it normalised by.
        - **reserve** (Tensor) - MindSpore's workspace (not read).

    Outputs:
        (dx, dscale, dbias): shaped as ``x``, (C,) and (C,).
    """

    @prim_attr_register
    def __init__(self, is_training=False, epsilon=1e-5, data_format="NCHW"):
        if data_format not in ("NCHW", "NHWC", "NCDHW"):
            raise ValueError(f"For 'BatchNormGrad', 'data_format' must be 'NCHW' or 'NHWC', but got {data_format!r}.")
        self.init_prim_io_names(["dy", "x", "scale", "save_mean", "save_inv_variance", "reserve"],
                                ["dx", "bn_scale", "bn_bias"])

    def __call__(self, dy, x, scale, save_mean, save_variance, reserve=None):
        names = ("dy", "x", "scale", "save_mean", "save_variance")
        arrays = [array_of("BatchNormGrad", name, value)
                  for name, value in zip(names, (dy, x, scale, save_mean, save_variance))]
        dx, dscale, dbias = _batch_norm_grad(*arrays, self.is_training, self.epsilon, self.data_format)
        return wrap(dx.astype(arrays[1].dtype)), wrap(dscale), wrap(dbias)


def _batch_norm_grad(dy, x, scale, mean, variance, is_training, epsilon, data_format, statistics_of_x=False):
    """``(dx, dscale, dbias)`` of BatchNorm in the float32-or-wider work dtype; ``statistics_of_x``: ``mean`` and
    ``variance`` are differentiated as the batch statistics of ``x`` they stand for (their values stay)."""
    work = jnp.promote_types(x.dtype, jnp.float32)
    channel = x.ndim - 1 if data_format == "NHWC" else 1
    axes = tuple(axis for axis in range(x.ndim) if axis != channel)
    shape = [-1 if axis == channel else 1 for axis in range(x.ndim)]
    x = x.astype(work)
    mean, variance = (value.astype(work).reshape(shape) for value in (mean, variance))
    if statistics_of_x:
        batch_mean, batch_variance = jnp.mean(x, axis=axes, keepdims=True), jnp.var(x, axis=axes, keepdims=True)
        mean = mean + batch_mean - jax.lax.stop_gradient(batch_mean)
        variance = variance + batch_variance - jax.lax.stop_gradient(batch_variance)
    gradient = dy.astype(work)
    inv = 1.0 / jnp.sqrt(variance + epsilon)
    normalised = (x - mean) * inv
    dbias = jnp.sum(gradient, axis=axes)
    dscale = jnp.sum(gradient * normalised, axis=axes)
    gain = scale.astype(work).reshape(shape) * inv
    if is_training:
        count = x.size // x.shape[channel]
        return (gain * (gradient - dbias.reshape(shape) / count - normalised * dscale.reshape(shape) / count),
                dscale, dbias)
    return gain * gradient, dscale, dbias


class BatchNormGradGrad(Primitive):
    """Second derivative of ``BatchNorm``: the VJP of ``BatchNormGrad`` with respect to ``x``, ``dy`` and ``scale``
    for the gradients of its three outputs; in training the saved statistics are differentiated as the batch
    statistics of ``x`` they are.

    Args:
        is_training, epsilon, data_format: those of the forward op.

    Inputs:
        - **x**, **dy**, **scale**, **saved_mean**, **saved_variance** (Tensor) - ``BatchNormGrad``'s inputs.
        - **dout_dx**, **dout_dscale**, **dout_dbias** (Tensor) - the gradients of its outputs.

    Outputs:
        (dx, ddy, dscale): shaped as ``x``, ``dy`` and ``scale``.
    """

    @prim_attr_register
    def __init__(self, is_training=False, epsilon=1e-5, data_format="NCHW"):
        self.init_prim_io_names(["x", "dy", "scale", "saved_mean", "saved_variance", "dout_dx", "dout_dscale",
                                 "dout_dbias"], ["dx", "ddy", "dscale"])

    def __call__(self, x, dy, scale, saved_mean, saved_variance, dout_dx, dout_dscale, dout_dbias):
        names = ("x", "dy", "scale", "saved_mean", "saved_variance", "dout_dx", "dout_dscale", "dout_dbias")
        arrays = [array_of("BatchNormGradGrad", name, value) for name, value in
                  zip(names, (x, dy, scale, saved_mean, saved_variance, dout_dx, dout_dscale, dout_dbias))]
        x_array, dy_array, scale_array, mean, variance = arrays[:5]

        def grad_of(x_value, dy_value, scale_value):
            return _batch_norm_grad(dy_value, x_value, scale_value, mean, variance, self.is_training, self.epsilon,
                                    self.data_format, statistics_of_x=self.is_training)

        outputs, pullback = jax.vjp(grad_of, x_array, dy_array, scale_array)
        results = pullback(tuple(value.astype(part.dtype).reshape(part.shape)
                                 for value, part in zip(arrays[5:], outputs)))
        return tuple(wrap(result.astype(source.dtype))
                     for result, source in zip(results, (x_array, dy_array, scale_array)))


class LRNGrad(Primitive):
    """Gradient of ``LRN`` (local response normalisation across channels) with the same settings (its VJP).

    Inputs:
        - **grads** (Tensor) - the gradient of the normalised output.
        - **x** (Tensor) - the forward input (N, C, H, W).
        - **y** (Tensor) - the forward output (its values are recomputed from ``x``).

    Outputs:
        Tensor of the shape and dtype of ``x``.
    """

    @prim_attr_register
    def __init__(self, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5):
        self.forward = _operations().LRN(depth_radius, bias, alpha, beta)
        self.init_prim_io_names(["grads", "x", "y"], ["z"])

    def __call__(self, grads, x, y):
        return vjp_of_inputs("LRNGrad", self.forward, x, grads, ("x", "grads"))


class MultiMarginLossGrad(Primitive):
    """Gradient of ``MultiMarginLoss`` with respect to its input (its VJP).

    Args:
        p, margin, reduction: those of the forward loss.

    Inputs:
        - **y_grad** (Tensor) - the gradient of the loss.
        - **x** (Tensor) - (N, C) the forward input.
        - **target** (Tensor) - (N,) int class indices.
        - **weight** (Tensor) - (C,) class weights, or None.

    Outputs:
        Tensor of the shape and dtype of ``x``.
    """

    @prim_attr_register
    def __init__(self, p=1, margin=1.0, reduction="mean"):
        self.forward = _operations().MultiMarginLoss(p, margin, reduction)
        self.init_prim_io_names(["y_grad", "x", "target", "weight"], ["x_grad"])

    def __call__(self, y_grad, x, target, weight=None):
        return vjp_of_inputs("MultiMarginLossGrad", lambda value: self.forward(value, target, weight), x, y_grad,
                             ("x", "y_grad"))


class InstanceNormV2Grad(Primitive):
    """Gradient of ``InstanceNormV2`` with respect to its input, scale and shift, per (N, C) plane.

    Args:
        is_training (bool): whether the forward normalised by each plane's own statistics (``save_mean``,
            ``save_variance`` = 1 / sqrt(variance + epsilon), whose gradient flows to ``x``) or by the running
            ``mean``/``variance``. Default: True.
        epsilon (float): the forward's. Default: 1e-5.

    Inputs:
        - **dy** (Tensor), **x** (Tensor) - (N, C, H, W), the gradient of the output and the forward input.
        - **gamma** (Tensor) - (N, C, 1, 1) the forward scale.
        - **mean**, **variance** (Tensor) - (N, C, 1, 1) the running statistics.
        - **save_mean**, **save_variance** (Tensor) - (N, C, 1, 1) the forward's plane means and reciprocal
          standard deviations.

    Outputs:
        (dx, dgamma, dbeta): shaped as ``x``, ``gamma`` and ``gamma``.
    """

    @prim_attr_register
    def __init__(self, is_training=True, epsilon=1e-5):
        self.init_prim_io_names(["dy", "x", "gamma", "mean", "variance", "save_mean", "save_variance"],
                                ["pd_x", "pd_gamma", "pd_beta"])

    def __call__(self, dy, x, gamma, mean, variance, save_mean, save_variance):
        names = ("dy", "x", "gamma", "mean", "variance", "save_mean", "save_variance")
        values = (dy, x, gamma, mean, variance, save_mean, save_variance)
        dy, x, gamma, mean, variance, save_mean, save_rstd = (array_of("InstanceNormV2Grad", name, value)
                                                              for name, value in zip(names, values))
        work = jnp.promote_types(x.dtype, jnp.float32)
        plane = tuple(range(2, x.ndim))
        gradient = dy.astype(work)
        if self.is_training:
            centre, rstd = save_mean.astype(work), save_rstd.astype(work)
        else:
            centre, rstd = mean.astype(work), jax.lax.rsqrt(variance.astype(work) + self.epsilon)
        normalised = (x.astype(work) - centre) * rstd
        dbeta = jnp.sum(gradient, axis=plane, keepdims=True)
        dgamma = jnp.sum(gradient * normalised, axis=plane, keepdims=True)
        gain = gamma.astype(work) * rstd
        if self.is_training:
            count = int(np.prod([x.shape[axis] for axis in plane]))
            dx = gain * (gradient - dbeta / count - normalised * dgamma / count)
        else:
            dx = gain * gradient
        return wrap(dx.astype(x.dtype)), wrap(dgamma.astype(gamma.dtype)), wrap(dbeta.astype(gamma.dtype))
