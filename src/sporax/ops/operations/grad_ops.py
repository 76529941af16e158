"""Backward-kernel Primitives (MindSpore's ``ops.operations._grad_ops``): ``SqrtGrad()(y, dy)`` ...

MindSpore exposes the kernels its automatic differentiation calls as Primitives of their own;
its tests and some user code call them directly. Each one here computes the same closed form
from the forward output (or input) and the incoming gradient, and is itself differentiable.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.ops.operations.grad_ops import SqrtGrad
    >>> SqrtGrad()(Tensor(np.array([2.0], np.float32)), Tensor(np.array([1.0], np.float32))).asnumpy().tolist()
    [0.25]
"""
import jax.numpy as jnp
import numpy as np

from sporax.core import dtype as mstype
from sporax.ops._dispatch import array_of, inexact_array_of, wrap
from sporax.ops.functional.unpool import scatter_to_planes
from sporax.ops.op_table import TABLE
from sporax.ops.primitive import Primitive, prim_attr_register


def _unary_grad(name, formula, summary):
    """A Primitive ``name()(y, dy)`` computing ``formula(y, dy)``."""

    def __init__(self):
        Primitive.__init__(self, name)
        self.init_prim_io_names(["y", "dy"], ["z"])

    def __call__(self, y, dy):
        y_array = inexact_array_of(name, "y", y)
        dy_array = inexact_array_of(name, "dy", dy)
        if y_array.shape != dy_array.shape:
            raise ValueError(f"For '{name}', 'y' and 'dy' must have the same shape, but got "
                             f"{tuple(y_array.shape)} and {tuple(dy_array.shape)}.")
        return wrap(formula(y_array, dy_array.astype(y_array.dtype)))

    doc = (f"{summary}\n\n    Inputs:\n        - **y** (Tensor) - the forward output.\n"
           "        - **dy** (Tensor) - the gradient of the output, same shape.\n\n"
           "    Outputs:\n        Tensor, the gradient of the forward input.\n")
    return type(name, (Primitive,), {"__init__": __init__, "__call__": __call__, "__doc__": doc,
                                     "__module__": __name__})


SqrtGrad = _unary_grad("SqrtGrad", lambda y, dy: dy / (2 * y), "Gradient of ``sqrt``: ``dy / (2 * y)``.")
RsqrtGrad = _unary_grad("RsqrtGrad", lambda y, dy: -0.5 * dy * y * y * y,
                        "Gradient of ``rsqrt``: ``-dy * y**3 / 2``.")
AsinhGrad = _unary_grad("AsinhGrad", lambda y, dy: dy / jnp.cosh(y),
                        "Gradient of ``asinh``: ``dy / cosh(y)``.")
AcoshGrad = _unary_grad("AcoshGrad", lambda y, dy: dy / jnp.sinh(y),
                        "Gradient of ``acosh``: ``dy / sinh(y)``.")
SigmoidGrad = _unary_grad("SigmoidGrad", lambda y, dy: dy * y * (1 - y),
                          "Gradient of ``sigmoid``: ``dy * y * (1 - y)``.")
TanhGrad = _unary_grad("TanhGrad", lambda y, dy: dy * (1 - y * y), "Gradient of ``tanh``: ``dy * (1 - y**2)``.")
ReciprocalGrad = _unary_grad("ReciprocalGrad", lambda y, dy: -dy * y * y,
                             "Gradient of ``reciprocal``: ``-dy * y**2``.")


class DropoutGrad(Primitive):
    """Gradient of dropout: ``dy * mask / keep_prob``.

    Args:
        keep_prob (float): the probability the forward dropout kept an element, in (0, 1].

    Inputs:
        - **dy** (Tensor) - the gradient of the dropout output.
        - **mask** (Tensor) - the forward mask (1 where kept, 0 where dropped), same shape.

    Outputs:
        Tensor, the gradient of the dropout input.
    """

    @prim_attr_register
    def __init__(self, keep_prob=0.5):
        if isinstance(keep_prob, bool) or not isinstance(keep_prob, (int, float)) or not 0 < keep_prob <= 1:
            raise ValueError(f"For 'DropoutGrad', 'keep_prob' must be a float in (0, 1], but got {keep_prob!r}.")
        self.keep_prob = float(keep_prob)

    def __call__(self, dy, mask):
        dy_array = inexact_array_of("DropoutGrad", "dy", dy)
        mask_array = array_of("DropoutGrad", "mask", mask)
        return wrap(dy_array * mask_array.astype(dy_array.dtype) / np.asarray(self.keep_prob, dy_array.dtype))


class KLDivLossGrad(Primitive):
    """Gradient of ``KLDivLoss`` with respect to ``logits``: ``-dy * labels``, reduced as forward.

    Args:
        reduction (str): 'none', 'mean', 'sum' or 'batchmean' (that of the forward). Default: 'mean'.

    Inputs:
        - **grad** (Tensor) - the gradient of the loss (a scalar unless reduction is 'none').
        - **input** (Tensor) - the forward ``logits``.
        - **target** (Tensor) - the forward ``labels``, same shape.

    Outputs:
        Tensor of the shape of ``input``.
    """

    @prim_attr_register
    def __init__(self, reduction="mean"):
        if not isinstance(reduction, str) or reduction not in ("none", "mean", "sum", "batchmean"):
            raise ValueError("For 'KLDivLossGrad', 'reduction' must be one of 'none', 'mean', 'sum', "
                             f"'batchmean', but got {reduction!r}.")
        self.reduction = reduction

    def __call__(self, grad, input, target):
        logits = inexact_array_of("KLDivLossGrad", "input", input)
        labels = inexact_array_of("KLDivLossGrad", "target", target).astype(logits.dtype)
        dy = inexact_array_of("KLDivLossGrad", "grad", grad)
        (result,) = entry_vjp("kl_div", (logits, labels), dy, reduction=self.reduction)
        shape = np.broadcast_shapes(result.shape, dy.shape)
        return wrap(TABLE["broadcast_to"].kernel(result, shape).astype(logits.dtype))


class MaxPoolGradWithArgmaxV2(Primitive):
    """Gradient of ``MaxPoolWithArgmaxV2``: ``grad`` scattered to the input at ``argmax``.

    Args:
        kernel_size, strides, pads, dilation, ceil_mode: those of the forward pooling (the
            positions come from ``argmax``, so they only describe it).
        argmax_type (mindspore.dtype): Int32 or Int64. Default: Int64.

    Inputs:
        - **x** (Tensor) - the forward input, (N, C, H, W).
        - **grad** (Tensor) - the gradient of the pooled output, (N, C, H_out, W_out).
        - **argmax** (Tensor) - per output element, the flat index of the max within its
          (H, W) plane, same shape as ``grad``.

    Outputs:
        Tensor of the shape and dtype of ``x``; where windows overlap, gradients add up.
    """

    @prim_attr_register
    def __init__(self, kernel_size, strides=None, pads=0, dilation=(1, 1), ceil_mode=False,
                 argmax_type=mstype.int64):
        self.argmax_type = argmax_type

    def __call__(self, x, grad, argmax):
        x_array = array_of("MaxPoolGradWithArgmaxV2", "x", x)
        grad_array = array_of("MaxPoolGradWithArgmaxV2", "grad", grad)
        index = array_of("MaxPoolGradWithArgmaxV2", "argmax", argmax)
        if grad_array.shape != index.shape or x_array.ndim != grad_array.ndim or x_array.ndim < 2:
            raise ValueError("For 'MaxPoolGradWithArgmaxV2', 'grad' and 'argmax' must have the same shape "
                             f"and the rank of 'x', but got x {tuple(x_array.shape)}, grad "
                             f"{tuple(grad_array.shape)}, argmax {tuple(index.shape)}.")
        return wrap(scatter_to_planes(grad_array.astype(x_array.dtype), index, x_array.shape[:2], x_array.shape[2:]))


# The rest of MindSpore's backward kernels, one module per kind, served under this same path.
from sporax.ops.operations.grad_ops_elementwise import (  # noqa: E402
    AbsGrad, ACosGrad, AsinGrad, AtanGrad, InvGrad, ReluGrad, ReLU6Grad, EluGrad, HSwishGrad, HSigmoidGrad,
    SiLUGrad, SoftplusGrad, FastGeLUGrad, GeLUGrad, HShrinkGrad, SoftShrinkGrad, LogitGrad, LogSoftmaxGrad,
    IgammaGradA)
from sporax.ops.operations.grad_ops_structured import (  # noqa: E402
    BiasAddGrad, MaximumGrad, MinimumGrad, MaxPoolGrad, AvgPoolGrad, SliceGrad, StridedSliceGrad, LayerNormGrad,
    SigmoidCrossEntropyWithLogitsGrad, SmoothL1LossGrad, BinaryCrossEntropyGrad, PReLUGrad, L2NormalizeGrad,
    ResizeBilinearGrad, ResizeNearestNeighborGrad, FlattenGrad, ConcatOffset, LayerNormGradGrad, entry_vjp)
from sporax.ops.operations.grad_ops_convolution import (  # noqa: E402
    Conv2DBackpropFilter, DeformableOffsetsGrad, Conv3DBackpropFilter)
from sporax.ops.operations.grad_ops_nn import (  # noqa: E402
    MirrorPadGrad, GluGrad, MaxPoolGradWithArgmax, AvgPool3DGrad, MaxPool3DGrad, NLLLossGrad,
    MaskedSelectGrad, TraceGrad, MvlgammaGrad, PdistGrad, BatchNormGrad, BatchNormGradGrad, LRNGrad,
    MultiMarginLossGrad, InstanceNormV2Grad)
from sporax.ops.operations.grad_ops_pooling import (  # noqa: E402
    AdaptiveMaxPool2DGrad, AdaptiveMaxPool3DGrad, AdaptiveAvgPool2DGrad, AdaptiveAvgPool3DGrad, MaxPoolGradGrad,
    MaxPool3DGradGrad, MaxUnpool2DGrad, MaxUnpool3DGrad, MaxPoolGradGradWithArgmax, FractionalMaxPoolGrad,
    FractionalAvgPoolGrad, MaxPool3DGradWithArgmax)
from sporax.ops.operations.grad_ops_spatial import (  # noqa: E402
    GridSampler2DGrad, GridSampler3DGrad, ResizeBicubicGrad, ResizeLinear1DGrad, ResizeNearestNeighborV2Grad,
    UpsampleNearest3DGrad, UpsampleTrilinear3DGrad, PadV3Grad, ROIAlignGrad, AffineGridGrad, ResizeV2Grad)
from sporax.ops.operations.grad_ops_selection import (  # noqa: E402
    MaximumGradGrad, MinimumGradGrad, GatherDGradV2, MedianGrad, SparseSegmentMeanGrad, SparseSegmentSqrtNGrad,
    SparseFillEmptyRowsGrad, SparseSliceGrad, LuUnpackGrad)
