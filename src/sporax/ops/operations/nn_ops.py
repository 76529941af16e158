"""Primitive classes for neural-network and random ops (3-d convolution and pooling, the loss Primitives with
MindSpore's operator signatures, ``NoRepeatNGram``): thin adapters onto ``sporax.ops.functional``.

Example:
    >>> import numpy as np
    >>> from sporax import ops, Tensor
    >>> ops.Softmax(axis=-1)(Tensor(np.zeros((1, 4), np.float32))).asnumpy().tolist()
    [[0.25, 0.25, 0.25, 0.25]]
"""
import functools
import numbers

import jax
import jax.numpy as jnp
import numpy as np

from sporax.core.parameter import Parameter
from sporax.core.seeded_streams import mixed_seed
from sporax.core.tensor import Tensor
from sporax.ops import functional, layer_forms
from sporax.ops._dispatch import array_of, wrap
from sporax.ops.functional import dropouts, minstd_units, padded_pools, random as random_ops, transformer_blocks
from sporax.ops.product_fusion import bias_added_to_half_product
from sporax.ops.functional.sampling import _apply_matrix
from sporax.ops.faces import primitive_class
from sporax.ops.op_table import TABLE
from sporax.ops.operations.scatter_ops import _adapter as _generic_adapter
from sporax.ops.primitive import Primitive, prim_attr_register

_adapter = functools.partial(_generic_adapter, module=__name__)


def _unary(name, function, doc):
    """A Primitive without attributes whose call is ``function(x)``: for Primitives that fix a setting of
    their op (``GeLU`` is ``gelu(x, approximate="tanh")``)."""

    def __init__(self):
        Primitive.__init__(self, name)

    def __call__(self, x):
        return function(x)

    return type(name, (Primitive,), {"__init__": __init__, "__call__": __call__, "__module__": __name__,
                                     "__doc__": doc + "\n\nInputs:\n    - **x** (Tensor).\n"})


# Generated from the op table (sporax.ops.op_table): each calls its functional op's kernel.
ReLU = primitive_class(TABLE["relu"], __name__)
ReLU6 = primitive_class(TABLE["relu6"], __name__)
FastGeLU = primitive_class(TABLE["fast_gelu"], __name__)
HSwish = primitive_class(TABLE["hardswish"], __name__)
HSigmoid = primitive_class(TABLE["hardsigmoid"], __name__)
Softsign = primitive_class(TABLE["softsign"], __name__)
SeLU = primitive_class(TABLE["selu"], __name__)
Mish = primitive_class(TABLE["mish"], __name__)
Softmax = primitive_class(TABLE["softmax"], __name__)
LogSoftmax = primitive_class(TABLE["log_softmax"], __name__)
Elu = primitive_class(TABLE["elu"], __name__)
GLU = primitive_class(TABLE["glu"], __name__)
CeLU = primitive_class(TABLE["celu"], __name__)
HShrink = primitive_class(TABLE["hardshrink"], __name__)
SoftShrink = primitive_class(TABLE["softshrink"], __name__)

GeLU = _unary("GeLU", lambda x: functional.gelu(x, approximate="tanh"), "GELU (tanh approximation, as MindSpore's GeLU).")
Softplus = _unary("Softplus", lambda x: functional.softplus(x, 1, np.inf), "``log(1 + exp(x))``.")  # no threshold
L2Loss = _unary("L2Loss", lambda x: wrap(jnp.sum(jnp.square(array_of("L2Loss", "x", x))) / 2), "``sum(x ** 2) / 2``.")


class BiasAdd(Primitive):
    """Add a per-channel bias (axis 1 for NCHW).

    Inputs:
        - **input_x** (Tensor), **bias** (Tensor) - 1-d, one per channel.
    """

    @prim_attr_register
    def __init__(self, data_format="NCHW"):
        self.data_format = data_format

    def __call__(self, input_x, bias):
        if self.data_format == "NHWC":
            return wrap(array_of("BiasAdd", "input_x", input_x) + array_of("BiasAdd", "bias", bias))
        fused = bias_added_to_half_product(input_x, bias)
        if fused is not None:
            return fused
        return functional.bias_add(input_x, bias)


def _window(name, value, arg):
    """Kernel sizes/strides as an int, a pair, or MindSpore's (1, 1, h, w) form."""
    return padded_pools.pool_window(name, arg, value, 2)


class Conv2D(Primitive):
    """2-d convolution (NCHW input, OIHW weight).

    Args:
        out_channel (int), kernel_size (Union[int, tuple]), mode (int), pad_mode (str): 'valid',
        'same' or 'pad'; pad (Union[int, tuple of 4]): (top, bottom, left, right); stride,
        dilation (Union[int, tuple]); group (int); data_format (str): 'NCHW' ('NHWC' raises ValueError on CPU, as
        in MindSpore, where it is GPU-only).

    Inputs:
        - **x** (Tensor) - (N, C, H, W). **weight** (Tensor) - (O, C/group, kH, kW).
    """

    @prim_attr_register
    def __init__(self, out_channel, kernel_size, mode=1, pad_mode="valid", pad=0, stride=1, dilation=1,
                 group=1, data_format="NCHW"):
        self.pad_mode = pad_mode.lower()
        if self.pad_mode not in ("valid", "same", "pad"):
            raise ValueError(f"For 'Conv2D', 'pad_mode' must be 'valid', 'same' or 'pad', but got {pad_mode!r}.")
        # self.name: Conv2DBackpropInput and Conv2DTranspose share this check and MindSpore names each
        layer_forms.check_data_format(self.name, data_format, ("NCHW", "NHWC"))
        pads = (pad,) * 4 if isinstance(pad, numbers.Integral) else tuple(pad)
        self.padding = ((pads[0], pads[1]), (pads[2], pads[3]))
        self.stride = _window("Conv2D", stride, "stride")
        self.dilation = _window("Conv2D", dilation, "dilation")
        self.group = group

    def __call__(self, x, weight):
        # (top, bottom, left, right) is conv2d's 4-entry padding; other modes ignore 'pad', as MindSpore does.
        padding = sum(self.padding, ()) if self.pad_mode == "pad" else 0
        return functional.conv2d(x, weight, None, self.stride, self.pad_mode, padding, self.dilation, self.group)


class _Pool(Primitive):
    """MaxPool/AvgPool with TensorFlow-style 'same'/'valid' padding."""

    def _setup(self, kernel_size, strides, pad_mode):
        self.kernel = _window(self.name, kernel_size, "kernel_size")
        self.strides = _window(self.name, strides, "strides")
        self.pad_mode = pad_mode.upper()
        if self.pad_mode not in ("SAME", "VALID"):
            raise ValueError(f"For '{self.name}', 'pad_mode' must be 'same' or 'valid', but got {pad_mode!r}.")
        self.format = self.attrs.get("data_format", "NCHW")


class MaxPool(_Pool):
    """2-d max pooling.

    Args:
        kernel_size, strides (Union[int, tuple]): window and step. pad_mode (str): 'same' or 'valid'.

    Inputs:
        - **x** (Tensor) - (N, C, H, W).
    """

    @prim_attr_register
    def __init__(self, kernel_size=1, strides=1, pad_mode="valid", data_format="NCHW"):
        self._setup(kernel_size, strides, pad_mode)
        # MindSpore 2.10 refuses 'NHWC' on CPU when the Primitive is made (AvgPool's kernel only when it runs)
        padded_pools.check_channels_first(self.name, data_format, "NCHW", channels_last=True)

    def __call__(self, x):
        return padded_pools.max_pool(x, self.kernel, self.strides, self.pad_mode, self.format)


class AvgPool(_Pool):
    """2-d average pooling (with 'same' padding, padded cells are not counted).

    Args:
        kernel_size, strides (Union[int, tuple]): window and step. pad_mode (str): 'same' or 'valid'.

    Inputs:
        - **x** (Tensor) - (N, C, H, W).
    """

    @prim_attr_register
    def __init__(self, kernel_size=1, strides=1, pad_mode="VALID", data_format="NCHW"):
        self._setup(kernel_size, strides, pad_mode)

    def __call__(self, x):
        return padded_pools.avg_pool(x, self.kernel, self.strides, self.pad_mode, self.format)


AdaptiveAvgPool2D = primitive_class(TABLE["adaptive_avg_pool2d"], __name__)


ResizeNearestNeighbor = primitive_class(TABLE["resize_nearest_neighbor"], __name__)


class Pad(Primitive):
    """Zero-pad each axis by a (before, after) pair.

    Args:
        paddings (tuple[tuple[int, int]]): one pair per axis.

    Inputs:
        - **input_x** (Tensor).
    """

    @prim_attr_register
    def __init__(self, paddings):
        self.paddings = tuple(tuple(int(v) for v in pair) for pair in paddings)

    def __call__(self, input_x):
        rank = array_of("Pad", "input_x", input_x).ndim
        if len(self.paddings) != rank:
            raise ValueError(f"For 'Pad', 'paddings' needs one pair per axis ({rank}), but got {self.paddings}.")
        # ops.pad takes (before, after) of the last axis first.
        return functional.pad(input_x, tuple(value for pair in reversed(self.paddings) for value in pair))


class Dropout(Primitive):
    """Dropout returning ``(output, mask)``; the Float mask holds 1 where kept.

    Args:
        keep_prob (float): probability of keeping an element. Default: 0.5.
        Seed0, Seed1 (int): op seeds.

    Inputs:
        - **x** (Tensor).
    """

    @prim_attr_register
    def __init__(self, keep_prob=0.5, Seed0=0, Seed1=0):
        if not 0.0 < keep_prob <= 1.0:
            raise ValueError(f"For 'Dropout', 'keep_prob' must be in (0, 1], but got {keep_prob}.")
        self.keep_prob, self.seed = keep_prob, Seed0 or Seed1 or None
        # seeded, the instance owns MindSpore's kernel stream: its masks are MindSpore's, call after call, computed
        # in the program from the engine's start and the words drawn so far (``minstd_units``: no host call)
        self._words = None
        if Seed0 or Seed1:
            self._engine_start = minstd_units.start_state(mixed_seed(Seed0, Seed1))
            self._words = Parameter(Tensor(np.zeros((), np.int64)), name="Dropout_words", requires_grad=False)

    def __call__(self, x):
        array = array_of("Dropout", "x", x)
        if self._words is not None:
            units = minstd_units.drawn_units(self._engine_start, self._words, array.shape, "Dropout")
            output, mask = random_ops.dropped(units, array, self.keep_prob)
            return wrap(output), wrap(mask)
        # The functional dropout of ones is the scaled mask: 0 where dropped, 1 / keep_prob where kept.
        scaled = functional.dropout(functional.ones_like(x), p=1.0 - self.keep_prob, training=True, seed=self.seed)
        return x * scaled, (scaled != 0).astype(x.dtype)


class Dropout2D(Primitive):
    """Channel dropout returning ``(output, mask)``; the Bool mask is True where kept.

    Args:
        keep_prob (float): probability of keeping a channel. Default: 0.5.

    Inputs:
        - **x** (Tensor) - (N, C, H, W).
    """

    @prim_attr_register
    def __init__(self, keep_prob=0.5):
        self.keep_prob = keep_prob

    def __call__(self, x):
        return channel_dropout("Dropout2D", x, self.keep_prob, 2)


def channel_dropout(name, x, keep_prob, spatial_rank):
    """Whole-channel dropout shared by Dropout2D/3D: ``(output, Bool mask)``, MindSpore's kernel stream
    (``dropouts.channel_dropped``: kept channels scaled by ``1 / keep_prob`` in float32 and cast back, integers
    truncating; ``keep_prob == 0`` drops everything)."""
    array = array_of(name, "x", x)
    output, mask = dropouts.channel_dropped(name, array, keep_prob, array.shape[:2] + (1,) * spatial_rank)
    return wrap(output), wrap(mask)


PReLU = primitive_class(TABLE["prelu"], __name__)


class MaxPool3D(Primitive):
    """3-d max pooling of an (N, C, D, H, W) input.

    Args:
        kernel_size, strides (Union[int, tuple]): window and step. pad_mode (str): 'valid', 'same'
        or 'pad'. pad_list (Union[int, tuple]): explicit padding for 'pad'. ceil_mode (bool).

    Inputs:
        - **x** (Tensor).
    """

    @prim_attr_register
    def __init__(self, kernel_size=1, strides=1, pad_mode="VALID", pad_list=0, ceil_mode=None,
                 data_format="NCDHW"):
        def triple(value):
            value = (value,) * 3 if isinstance(value, numbers.Integral) else tuple(value)
            return value[-3:]

        self.kernel, self.strides = triple(kernel_size), triple(strides)
        self.pad_mode, self.pad_list, self.ceil_mode = pad_mode.upper(), pad_list, bool(ceil_mode)
        self.format = data_format

    def __call__(self, x):
        return padded_pools.max_pool_3d(x, self.kernel, self.strides, self.pad_mode, self.pad_list, self.ceil_mode,
                                        self.format)


class ResizeBilinearV2(Primitive):
    """Bilinear resize of the last two axes.

    Args:
        align_corners (bool), half_pixel_centers (bool).

    Inputs:
        - **x** (Tensor) - (N, C, H, W). **size** (tuple[int]) - (new_height, new_width).
    """

    @prim_attr_register
    def __init__(self, align_corners=False, half_pixel_centers=False):
        self.align_corners, self.half_pixel_centers = align_corners, half_pixel_centers

    def __call__(self, x, size):
        array = array_of("ResizeBilinearV2", "x", x)
        if self.align_corners or self.half_pixel_centers:
            return functional.interpolate(x, size=tuple(size), mode="bilinear", align_corners=self.align_corners)
        # Legacy TensorFlow sampling: source = destination * in / out (no half-pixel shift).
        out = array
        for axis, size_out in ((2, size[0]), (3, size[1])):
            size_in = out.shape[axis]
            src = np.arange(size_out) * size_in / size_out
            low = np.floor(src).astype(np.int64)
            high = np.minimum(low + 1, size_in - 1)
            matrix = np.zeros((size_out, size_in))
            np.add.at(matrix, (np.arange(size_out), low), 1 - (src - low))
            np.add.at(matrix, (np.arange(size_out), high), src - low)
            out = _apply_matrix(out, axis, matrix)
        return wrap(out)


FastGelu = FastGeLU  # MindSpore keeps both spellings


Dense = primitive_class(TABLE["dense"], __name__)


SoftMarginLoss = primitive_class(TABLE["soft_margin_loss"], __name__)
BCEWithLogitsLoss = primitive_class(TABLE["binary_cross_entropy_with_logits"], __name__)


class NLLLoss(Primitive):
    """Negative log likelihood, returning ``(loss, total_weight)``.

    Args:
        reduction (str): Default: 'mean'. ignore_index (int): Default: -100.

    Inputs:
        - **logits** (Tensor) - (N, C) log-probabilities. **labels** (Tensor) - (N,). **weight** (Tensor) - (C,).
    """

    @prim_attr_register
    def __init__(self, reduction="mean", ignore_index=-100):
        self.reduction, self.ignore_index = reduction, ignore_index

    def __call__(self, logits, labels, weight):
        value = functional.nll_loss(logits, labels, weight, self.ignore_index, self.reduction)
        valid = labels != self.ignore_index
        picked = functional.gather(weight, functional.select(valid, labels, functional.zeros_like(labels)), 0)
        return value, (picked * valid.astype(weight.dtype)).sum()


def _triple(value):
    value = (value,) * 3 if isinstance(value, numbers.Integral) else tuple(value)
    return value[-3:]


class Conv3D(Primitive):
    """3-d convolution (NCDHW input, OIDHW weight).

    Args:
        out_channel (int), kernel_size (Union[int, tuple]), mode (int), pad_mode (str), pad
        (Union[int, tuple of 6]), stride, dilation (Union[int, tuple]), group (int).

    Inputs:
        - **x** (Tensor), **weight** (Tensor).
    """

    @prim_attr_register
    def __init__(self, out_channel, kernel_size, mode=1, pad_mode="valid", pad=0, stride=1, dilation=1, group=1,
                 data_format="NCDHW"):
        padded_pools.check_channels_first("Conv3D", data_format, "NCDHW")
        self.pad_mode = pad_mode.lower()
        pads = (pad,) * 6 if isinstance(pad, numbers.Integral) else tuple(pad)
        self.padding = ((pads[0], pads[1]), (pads[2], pads[3]), (pads[4], pads[5]))
        self.stride, self.dilation, self.group = _triple(stride), _triple(dilation), group

    def __call__(self, x, weight):
        padding = sum(self.padding, ()) if self.pad_mode == "pad" else 0
        return functional.conv3d(x, weight, None, self.stride, self.pad_mode, padding, self.dilation, self.group)


class AvgPool3D(Primitive):
    """3-d average pooling.

    Args:
        kernel_size, strides (Union[int, tuple]), pad_mode (str), pad (Union[int, tuple of 6]),
        ceil_mode (bool), count_include_pad (bool), divisor_override (int).

    Inputs:
        - **x** (Tensor) - (N, C, D, H, W).
    """

    @prim_attr_register
    def __init__(self, kernel_size=1, strides=1, pad_mode="valid", pad=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=0, data_format="NCDHW"):
        self.kernel, self.strides = _triple(kernel_size), _triple(strides)
        self.pad_mode = pad_mode.upper()
        self.pad = (pad,) * 3 if isinstance(pad, numbers.Integral) else tuple(pad)[::2]
        self.ceil_mode, self.count_include_pad, self.divisor = ceil_mode, count_include_pad, divisor_override
        self.format = data_format

    def __call__(self, x):
        return padded_pools.avg_pool_3d(x, self.kernel, self.strides, self.pad_mode, self.pad, self.ceil_mode,
                                        self.count_include_pad, self.divisor, self.format)


class Dropout3D(Primitive):
    """Channel dropout of an (N, C, D, H, W) input, returning ``(output, mask)``.

    Args:
        keep_prob (float): probability of keeping a channel. Default: 0.5.

    Inputs:
        - **x** (Tensor).
    """

    @prim_attr_register
    def __init__(self, keep_prob=0.5):
        self.keep_prob = keep_prob

    def __call__(self, x):
        return channel_dropout("Dropout3D", x, self.keep_prob, 3)


class NoRepeatNGram(Primitive):
    """Forbid tokens that would repeat an n-gram already in the sequence (beam search).

    For each sequence, wherever the ``ngram_size - 1`` tokens before position ``i + ngram_size - 1``
    equal the last ``ngram_size - 1`` tokens, the token at that position gets log-probability ``-FLT_MAX``.

    Args:
        ngram_size (int): n, at least 1. Default: 1.

    Inputs:
        - **state_seq** (Tensor) - int32 tokens, (batch, beam, seq_len).
        - **log_probs** (Tensor) - float, (batch, beam, vocab).

    Outputs:
        Tensor, ``log_probs`` with the banned tokens set to ``-3.4028235e+38``.

    Example:
        >>> from sporax import ops, Tensor
        >>> import numpy as np
        >>> out = ops.NoRepeatNGram(2)(Tensor([[[1, 2, 1]]]), Tensor(np.zeros((1, 1, 4), np.float32)))
        >>> bool(out.asnumpy()[0, 0, 2] < -1e38)
        True
    """

    @prim_attr_register
    def __init__(self, ngram_size=1):
        if not isinstance(ngram_size, int) or isinstance(ngram_size, bool) or ngram_size < 1:
            raise ValueError(f"For 'NoRepeatNGram', 'ngram_size' must be an int >= 1, but got {ngram_size!r}.")
        self.ngram_size = ngram_size

    def __call__(self, state_seq, log_probs):
        return transformer_blocks.no_repeat_ngram(state_seq, log_probs, self.ngram_size)
