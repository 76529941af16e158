"""Primitive classes for neural-network and random ops: thin adapters onto ``sporax.ops.functional``.

Example:
    >>> import numpy as np
    >>> from sporax import ops, Tensor
    >>> ops.Softmax(axis=-1)(Tensor(np.zeros((1, 4), np.float32))).asnumpy().tolist()
    [[0.25, 0.25, 0.25, 0.25]]
"""
import numbers

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from sporax.ops import functional as F
from sporax.ops._dispatch import array_of, wrap
from sporax.ops.functional import conv_pool, random as random_ops
from sporax.ops.functional.sampling import _apply_matrix
from sporax.ops.primitive import Primitive, prim_attr_register


def _unary(name, function, doc):
    """A Primitive without attributes whose call is ``function(x)``."""

    def __init__(self):
        Primitive.__init__(self, name)

    def __call__(self, x):
        return function(x)

    return type(name, (Primitive,), {"__init__": __init__, "__call__": __call__, "__module__": __name__,
                                     "__doc__": doc + "\n\nInputs:\n    - **x** (Tensor).\n"})


ReLU = _unary("ReLU", F.relu, "``max(x, 0)``.")
ReLU6 = _unary("ReLU6", F.relu6, "``min(max(x, 0), 6)``.")
GeLU = _unary("GeLU", lambda x: F.gelu(x, approximate="tanh"), "GELU (tanh approximation, as MindSpore's GeLU).")
FastGeLU = _unary("FastGeLU", lambda x: wrap(_fast_gelu(array_of("FastGeLU", "x", x))), "``x * sigmoid(1.702 x)``.")
HSwish = _unary("HSwish", F.hardswish, "Hard swish ``x * relu6(x + 3) / 6``.")
HSigmoid = _unary("HSigmoid", F.hardsigmoid, "Hard sigmoid ``relu6(x + 3) / 6``.")
Softplus = _unary("Softplus", lambda x: F.softplus(x, 1, 1e30), "``log(1 + exp(x))``.")
Softsign = _unary("Softsign", F.softsign, "``x / (1 + |x|)``.")
SeLU = _unary("SeLU", F.selu, "Scaled exponential linear unit.")
Mish = _unary("Mish", F.mish, "``x * tanh(softplus(x))``.")
L2Loss = _unary("L2Loss", lambda x: wrap(jnp.sum(jnp.square(array_of("L2Loss", "x", x))) / 2), "``sum(x ** 2) / 2``.")


def _fast_gelu(array):
    return array * jax.nn.sigmoid(1.702 * array)


def _axis_primitive(name, function, doc):
    @prim_attr_register
    def __init__(self, axis=-1):
        # MindSpore also takes a one-element tuple (and its MindIR files store axis that way)
        self.axis = axis[0] if isinstance(axis, (tuple, list)) and len(axis) == 1 else axis

    def __call__(self, x):
        return function(x, self.axis)

    return type(name, (Primitive,), {"__init__": __init__, "__call__": __call__, "__module__": __name__,
                                     "__doc__": doc + "\n\nArgs:\n    axis (int): Default: -1.\n\n"
                                                      "Inputs:\n    - **x** (Tensor).\n"})


Softmax = _axis_primitive("Softmax", F.softmax, "Softmax along ``axis``.")
LogSoftmax = _axis_primitive("LogSoftmax", F.log_softmax, "Log-softmax along ``axis``.")


class Elu(Primitive):
    """Exponential linear unit.

    Args:
        alpha (float): the negative-side scale. Default: 1.0.

    Inputs:
        - **input_x** (Tensor).
    """

    @prim_attr_register
    def __init__(self, alpha=1.0):
        self.alpha = alpha

    def __call__(self, input_x):
        return F.elu(input_x, self.alpha)


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
        return F.bias_add(input_x, bias)


def _window(name, value, arg):
    """Kernel sizes/strides as an int, a pair, or MindSpore's (1, 1, h, w) form."""
    if isinstance(value, numbers.Integral):
        return (int(value),) * 2
    value = tuple(value)
    if len(value) == 4:
        return value[2:]
    if len(value) == 2:
        return value
    raise ValueError(f"For '{name}', '{arg}' must be an int, a tuple of 2 ints or (1, 1, h, w), but got {value!r}.")


class Conv2D(Primitive):
    """2-d convolution (NCHW input, OIHW weight).

    Args:
        out_channel (int), kernel_size (Union[int, tuple]), mode (int), pad_mode (str): 'valid',
        'same' or 'pad'; pad (Union[int, tuple of 4]): (top, bottom, left, right); stride,
        dilation (Union[int, tuple]); group (int); data_format (str): 'NCHW'.

    Inputs:
        - **x** (Tensor) - (N, C, H, W). **weight** (Tensor) - (O, C/group, kH, kW).
    """

    @prim_attr_register
    def __init__(self, out_channel, kernel_size, mode=1, pad_mode="valid", pad=0, stride=1, dilation=1,
                 group=1, data_format="NCHW"):
        self.pad_mode = pad_mode.lower()
        if self.pad_mode not in ("valid", "same", "pad"):
            raise ValueError(f"For 'Conv2D', 'pad_mode' must be 'valid', 'same' or 'pad', but got {pad_mode!r}.")
        if data_format != "NCHW":
            raise NotImplementedError("ops.Conv2D: sporax supports data_format='NCHW' only; transpose NHWC "
                                      "inputs with ops.transpose(x, (0, 3, 1, 2)).")
        pads = (pad,) * 4 if isinstance(pad, numbers.Integral) else tuple(pad)
        self.padding = ((pads[0], pads[1]), (pads[2], pads[3]))
        self.stride = _window("Conv2D", stride, "stride")
        self.dilation = _window("Conv2D", dilation, "dilation")
        self.group = group

    def __call__(self, x, weight):
        array = array_of("Conv2D", "x", x)
        kernel = array_of("Conv2D", "weight", weight)
        padding = self.padding if self.pad_mode == "pad" else self.pad_mode.upper()
        return wrap(conv_pool._convolve_kernel(array, kernel, None, self.stride, padding, self.dilation,
                                               self.group, None))


class _Pool(Primitive):
    """MaxPool/AvgPool with TensorFlow-style 'same'/'valid' padding."""

    def _setup(self, kernel_size, strides, pad_mode):
        self.kernel = _window(self.name, kernel_size, "kernel_size")
        self.strides = _window(self.name, strides, "strides")
        self.pad_mode = pad_mode.upper()
        if self.pad_mode not in ("SAME", "VALID"):
            raise ValueError(f"For '{self.name}', 'pad_mode' must be 'same' or 'valid', but got {pad_mode!r}.")

    def _pads(self, array):
        return tuple(lax.padtype_to_pads(array.shape[2:], self.kernel, self.strides, self.pad_mode))


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

    def __call__(self, x):
        array = array_of("MaxPool", "x", x)
        return wrap(conv_pool._max_pool(array, self.kernel, self.strides, self._pads(array)))


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
        array = array_of("AvgPool", "x", x)
        # Padded cells are never counted: TensorFlow's 'same' average.
        return wrap(conv_pool._avg_pool_kernel(array, self.kernel, self.strides, (1, 1), self._pads(array),
                                               True, False, 0))


class AdaptiveAvgPool2D(Primitive):
    """Average pooling to a fixed output size.

    Args:
        output_size (Union[int, tuple]): (H, W); None keeps a size.

    Inputs:
        - **input_x** (Tensor) - (N, C, H, W) or (C, H, W).
    """

    @prim_attr_register
    def __init__(self, output_size):
        self.output_size = output_size

    def __call__(self, input_x):
        return F.adaptive_avg_pool2d(input_x, self.output_size)


class ResizeNearestNeighbor(Primitive):
    """Resize the last two axes by nearest-neighbour sampling.

    Args:
        size (tuple[int]): (new_height, new_width). align_corners (bool). half_pixel_centers (bool).

    Inputs:
        - **input_x** (Tensor) - (N, C, H, W).
    """

    @prim_attr_register
    def __init__(self, size, align_corners=False, half_pixel_centers=False):
        self.size = tuple(size)
        self.align_corners, self.half_pixel_centers = align_corners, half_pixel_centers

    def _index(self, size_in, size_out):
        dst = np.arange(size_out, dtype=np.float64)
        if self.align_corners and size_out > 1:
            src = np.round(dst * (size_in - 1) / (size_out - 1))
        elif self.half_pixel_centers:
            src = np.floor((dst + 0.5) * size_in / size_out)
        else:
            src = np.floor(dst * size_in / size_out)
        return jnp.asarray(np.minimum(src.astype(np.int64), size_in - 1))

    def __call__(self, input_x):
        array = array_of("ResizeNearestNeighbor", "input_x", input_x)
        out = jnp.take(array, self._index(array.shape[-2], self.size[0]), array.ndim - 2)
        return wrap(jnp.take(out, self._index(array.shape[-1], self.size[1]), array.ndim - 1))


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
        array = array_of("Pad", "input_x", input_x)
        if len(self.paddings) != array.ndim:
            raise ValueError(f"For 'Pad', 'paddings' needs one pair per axis ({array.ndim}), but got "
                             f"{self.paddings}.")
        return wrap(jnp.pad(array, self.paddings))


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

    def __call__(self, x):
        array = array_of("Dropout", "x", x)
        keep = jax.random.bernoulli(random_ops._key(self.seed), self.keep_prob, array.shape)
        mask = keep.astype(array.dtype)
        return wrap(array * mask / jnp.asarray(self.keep_prob, array.dtype)), wrap(mask)


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
    """Whole-channel dropout shared by Dropout2D/3D: ``(output, Bool mask)``.

    Kept channels are scaled by ``1 / keep_prob`` in float and cast back to the input dtype (integers
    truncate, as MindSpore's kernel does); ``keep_prob == 0`` drops everything instead of dividing by zero.
    """
    array = array_of(name, "x", x)
    keep = jax.random.bernoulli(random_ops._key(None), keep_prob, array.shape[:2] + (1,) * spatial_rank)
    mask = jnp.broadcast_to(keep, array.shape)
    scale = 1.0 / keep_prob if keep_prob > 0 else 0.0
    scaled = (array.astype(jnp.result_type(array.dtype, jnp.float32)) * scale).astype(array.dtype)
    return wrap(jnp.where(mask, scaled, jnp.zeros((), array.dtype))), wrap(mask)



PReLU = type("PReLU", (Primitive,), {
    "__init__": lambda self: Primitive.__init__(self, "PReLU"),
    "__call__": lambda self, x, weight: F.prelu(x, weight), "__module__": __name__,
    "__doc__": "``x`` where positive, else ``weight * x`` per channel.\n\nInputs:\n"
               "    - **x** (Tensor), **weight** (Tensor) - one slope per channel.\n"})
GLU = _axis_primitive("GLU", F.glu, "Gated linear unit over ``axis``.")


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

    def __call__(self, x):
        array = array_of("MaxPool3D", "x", x)
        if self.pad_mode == "PAD":
            pads = conv_pool._pool_pads(array.shape[2:], self.kernel, self.strides,
                                        (self.pad_list,) * 3 if isinstance(self.pad_list, int)
                                        else tuple(self.pad_list)[::2], (1, 1, 1), self.ceil_mode)
        else:
            pads = tuple(lax.padtype_to_pads(array.shape[2:], self.kernel, self.strides, self.pad_mode))
        return wrap(conv_pool._max_pool(array, self.kernel, self.strides, pads))


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
            return F.interpolate(x, size=tuple(size), mode="bilinear", align_corners=self.align_corners)
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

