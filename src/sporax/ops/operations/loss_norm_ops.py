"""Primitive classes for normalisation and loss ops: thin adapters onto ``sporax.ops.functional``.

Example:
    >>> from sporax import ops, Tensor
    >>> ops.SmoothL1Loss()(Tensor([0.0, 3.0]), Tensor([0.5, 0.0])).asnumpy().tolist()
    [0.125, 2.5]
"""
from sporax.ops import functional, layer_forms
from sporax.ops._dispatch import array_of, wrap
from sporax.ops.functional import loss, normalization
from sporax.ops.functional._args import axis_index
from sporax.ops.faces import primitive_class
from sporax.ops.op_table import TABLE
from sporax.ops.primitive import Primitive, prim_attr_register


class BatchNorm(Primitive):
    """Batch normalisation over axis 1; in training it updates ``mean`` and ``variance`` in place.

    Args:
        is_training (bool): use batch statistics. Default: False.
        epsilon (float): added to the variance. Default: 1e-5.
        momentum (float): ``new = (1 - momentum) * old + momentum * batch``. Default: 0.1.
        data_format (str): 'NCHW', or 'NHWC' (channels last) on the GPU target only: MindSpore 2.10's CPU
            kernel fails on it, and sporax refuses it there with a ValueError. Default: 'NCHW'.

    Inputs:
        - **input_x** (Tensor), **scale**, **bias**, **mean**, **variance** (Tensor) - per channel.

    Outputs:
        ``(y, mean, variance, batch_mean, batch_variance)``: the normalised input, the (updated)
        running statistics, and the batch mean and biased variance (zeros when not training).
    """

    @prim_attr_register
    def __init__(self, is_training=False, epsilon=1e-5, momentum=0.1, data_format="NCHW"):
        self.is_training, self.epsilon, self.momentum = is_training, epsilon, momentum
        self.format = data_format

    def __call__(self, input_x, scale, bias, mean, variance):
        channels_last = self.format == "NHWC"
        if channels_last:
            # checked when called, as MindSpore's kernel fails only then; on GPU: NCHW between two transposes
            layer_forms.check_data_format("BatchNorm", self.format, ("NCHW", "NHWC"), channels_last=True)
            input_x = functional.movedim(input_x, -1, 1)
        y = functional.batch_norm(input_x, mean, variance, scale, bias, self.is_training, self.momentum, self.epsilon)
        if channels_last:
            y = functional.movedim(y, 1, -1)
        array = array_of("BatchNorm", "input_x", input_x)
        if self.is_training:
            batch_mean, batch_var = normalization.batch_statistics(array)
            return y, mean, variance, wrap(batch_mean), wrap(batch_var)
        batch_mean = functional.zeros((array.shape[1],), input_x.dtype)
        return y, mean, variance, batch_mean, batch_mean


class InstanceNorm(Primitive):
    """Instance normalisation of an (N, C, ...) input; it updates the moving ``mean``/``variance`` in place.

    MindSpore 2.10 runs it on GPU only (nn.InstanceNorm1d/2d/3d hold it as ``instance_bn``); sporax everywhere.
    Each (sample, channel) slice is normalised by its own mean and biased variance, then scaled by ``gamma`` and
    shifted by ``beta``; the moving statistics move as nn.InstanceNorm2d's: ``(1 - momentum) * moving + momentum *
    batch``, ``batch`` the mean over the samples of each slice's mean and unbiased variance.

    Args:
        epsilon (float): added to the variance. Default: 1e-5.
        momentum (float): weight of the batch statistics in the moving ones, in [0, 1]. Default: 0.1.

    Inputs:
        - **input_x** (Tensor) - (N, C, ...), float16 or float32.
        - **gamma**, **beta** (Tensor) - (C,). **mean**, **variance** (Parameter) - (C,), the moving statistics.

    Outputs:
        ``(y, save_mean, save_variance)``: the normalised input, and per slice (shape (N * C,), float32) the mean
        and ``1 / sqrt(variance + epsilon)``, what MindSpore's GPU kernel returns (cuDNN's saved statistics).
    """

    @prim_attr_register
    def __init__(self, epsilon=1e-5, momentum=0.1):
        for name, value in (("epsilon", epsilon), ("momentum", momentum)):
            if not isinstance(value, float):
                raise TypeError(f"For 'InstanceNorm', the type of '{name}' should be 'float', but got type "
                                f"'{type(value).__name__}'.")
        if not 0 <= epsilon < 1 or not 0 <= momentum <= 1:
            raise ValueError(f"For 'InstanceNorm', 'epsilon' must be in [0, 1) and 'momentum' in [0, 1], but got "
                             f"{epsilon} and {momentum}.")
        self.init_prim_io_names(["x", "gamma", "beta", "mean", "variance"], ["y", "save_mean", "save_variance"])
        self.add_prim_attr("side_effect_mem", True)

    def __call__(self, input_x, gamma, beta, mean, variance):
        name = "InstanceNorm"
        array = array_of(name, "input_x", input_x)
        if array.ndim < 3:
            raise ValueError(f"For '{name}', 'input_x' must be (N, C, ...) with spatial axes, but got shape "
                             f"{tuple(array.shape)}.")
        batch, channels = array.shape[:2]
        y = normalization._group_norm_kernel(array, array_of(name, "gamma", gamma), array_of(name, "beta", beta),
                                             channels, float(self.epsilon))
        slices = array.astype("float32").reshape(batch * channels, -1)
        save_mean, save_variance = slices.mean(-1), 1 / (slices.var(-1) + self.epsilon) ** 0.5
        batch_mean, batch_variance = normalization.instance_statistics(array)
        keep = 1.0 - self.momentum
        functional.assign(mean, wrap(keep * array_of(name, "mean", mean) + self.momentum * batch_mean))
        functional.assign(variance, wrap(keep * array_of(name, "variance", variance) + self.momentum * batch_variance))
        return wrap(y), wrap(save_mean), wrap(save_variance)


class LayerNorm(Primitive):
    """Layer normalisation over the axes from ``begin_norm_axis``.

    Args:
        begin_norm_axis (int): first normalised axis. Default: 1.
        begin_params_axis (int): first axis of ``gamma``/``beta``. Default: 1.
        epsilon (float): added to the variance. Default: 1e-7.

    Inputs:
        - **input_x** (Tensor), **gamma** (Tensor), **beta** (Tensor).

    Outputs:
        ``(y, mean, variance)``; mean and variance keep the normalised axes as size 1.
    """

    @prim_attr_register
    def __init__(self, begin_norm_axis=1, begin_params_axis=1, epsilon=1e-7):
        self.begin_norm_axis, self.begin_params_axis, self.epsilon = begin_norm_axis, begin_params_axis, epsilon

    def __call__(self, input_x, gamma, beta):
        array = array_of("LayerNorm", "input_x", input_x)
        start = axis_index("LayerNorm", "begin_norm_axis", self.begin_norm_axis, array.ndim)
        count = array.ndim - start
        y = normalization._layer_norm_kernel(array, array_of("LayerNorm", "gamma", gamma),
                                             array_of("LayerNorm", "beta", beta), count, float(self.epsilon))
        mean, variance = normalization.layer_norm_statistics(array, count)
        return wrap(y), wrap(mean), wrap(variance)


L2Normalize = primitive_class(TABLE["l2_normalize"], __name__)


class SigmoidCrossEntropyWithLogits(Primitive):
    """Element-wise binary cross entropy of ``sigmoid(logits)`` against ``label``.

    Inputs:
        - **logits** (Tensor), **label** (Tensor) - same shape.
    """

    def __call__(self, logits, label):
        return loss.sigmoid_cross_entropy_with_logits(logits, label)


class SoftmaxCrossEntropyWithLogits(Primitive):
    """Per-row softmax cross entropy against one-hot labels, with its gradient.

    Inputs:
        - **logits** (Tensor) - (N, C). **labels** (Tensor) - (N, C).

    Outputs:
        ``(loss, backprop)``: loss of shape (N,), and ``softmax(logits) - labels``.
    """

    def __call__(self, logits, labels):
        # MindSpore's Primitive checks (the functional form promotes and broadcasts instead).
        name = "SoftmaxCrossEntropyWithLogits"
        if len(logits.shape) != 2:
            raise ValueError(f"For primitive[{name}], the dimension of logits must be equal to 2, but got "
                             f"{len(logits.shape)}.")
        if tuple(labels.shape) != tuple(logits.shape):
            raise ValueError(f"For '{name}', 'labels' shape must be consistent with 'logits' shape, but got "
                             f"'labels' shape: {tuple(labels.shape)}, 'logits' shape: {tuple(logits.shape)}.")
        if getattr(logits, "dtype", None) != getattr(labels, "dtype", None):
            raise TypeError(f"For primitive[{name}], the input type must be same: 'logits' is {logits.dtype}, "
                            f"'labels' is {labels.dtype}. Cast one of them (ops.cast) first.")
        return loss.softmax_cross_entropy_with_logits(logits, labels)


class SparseSoftmaxCrossEntropyWithLogits(Primitive):
    """Mean softmax cross entropy against class indices (or its gradient when ``is_grad``).

    Args:
        is_grad (bool): return the gradient w.r.t. the logits. Default: False.

    Inputs:
        - **logits** (Tensor) - (N, C). **labels** (Tensor) - (N,) int.
    """

    @prim_attr_register
    def __init__(self, is_grad=False):
        self.is_grad = is_grad

    def __call__(self, logits, labels):
        return loss.sparse_softmax_cross_entropy_with_logits(logits, labels, self.is_grad)


# Generated from the op table (sporax.ops.op_table): each calls its functional op's kernel.
BinaryCrossEntropy = primitive_class(TABLE["binary_cross_entropy"], __name__)
SmoothL1Loss = primitive_class(TABLE["smooth_l1_loss"], __name__)
KLDivLoss = primitive_class(TABLE["kl_div"], __name__)
