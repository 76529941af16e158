"""nn Primitive classes: 3-D/indexed adaptive pooling, ``AffineGrid``, ``GridSampler2D/3D``, ``Col2Im``,
``Im2Col``, ``Conv2DTranspose``, ``Conv3DTranspose``, ``DepthwiseConv2dNative``, ``BatchToSpace*``,
``ChannelShuffle``, ``DataFormatDimMap``, ``DataFormatVecPermute``, ``DynamicShape``, ``EmbeddingLookup``.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> print(ops.DataFormatDimMap()(Tensor(np.array([0, 1, 2, 3], np.int32))))
    [0 3 1 2]
"""
import numbers

import numpy as np

from sporax.core.tensor import Tensor
from sporax.ops._dispatch import array_of, describe, wrap
from sporax.ops.faces import primitive_class
from sporax.ops.functional import array as array_ops, array_shaping, convolution, inplace, nn_spatial, sampling, spatial_primitives
from sporax.ops.op_table import TABLE
from sporax.ops.functional._args import pair
from sporax.ops.operations.conv_backprop_ops import Conv2DBackpropInput
from sporax.ops.operations.math_counting_ops import int_tuple as _ints
from sporax.ops.primitive import Primitive, prim_attr_register


AdaptiveAvgPool3D = primitive_class(TABLE["adaptive_avg_pool3d"], __name__)


class AdaptiveMaxPool2D(Primitive):
    """Adaptive max pooling of (N, C, H, W) or (C, H, W): ``(output, argmax)`` (Int64 flat H*W indices)."""

    @prim_attr_register
    def __init__(self, output_size):
        self.output_size = output_size

    def __call__(self, input_x):
        return sampling.adaptive_max_pool2d(input_x, self.output_size, True)


class AdaptiveMaxPool3D(Primitive):
    """Adaptive max pooling of (N, C, D, H, W) to the ``output_size`` input: ``(output, argmax)`` (Int32)."""

    def __call__(self, x, output_size):
        return nn_spatial.adaptive_max_pool3d(x, _ints(output_size), True)


class AffineGrid(Primitive):
    """The sampling grid of affine matrices ``theta`` for ``output_size`` (see ``ops.affine_grid``).

    Args:
        align_corners (bool): Default: False.
    """

    @prim_attr_register
    def __init__(self, align_corners=False):
        if not isinstance(align_corners, bool):
            raise TypeError(f"For 'AffineGrid', 'align_corners' must be a bool, but got {align_corners!r}.")
        self.align_corners = align_corners

    def __call__(self, theta, output_size):
        return nn_spatial.affine_grid(theta, _ints(output_size), self.align_corners)


class GridSampler2D(Primitive):
    """``grid_sample`` of a 4-D input.

    Args:
        interpolation_mode (str): 'bilinear' or 'nearest'. padding_mode (str): 'zeros', 'border' or
            'reflection'. align_corners (bool): Default: False.
    """

    _rank = 4

    @prim_attr_register
    def __init__(self, interpolation_mode="bilinear", padding_mode="zeros", align_corners=False):
        self.interpolation_mode, self.padding_mode, self.align_corners = interpolation_mode, padding_mode, align_corners

    def __call__(self, input_x, grid):
        if array_of(self.name, "input_x", input_x).ndim != self._rank:
            raise ValueError(f"For '{self.name}', 'input_x' must be {self._rank}-D, but got {describe(input_x)}.")
        return nn_spatial.grid_sample(input_x, grid, self.interpolation_mode, self.padding_mode, self.align_corners)


class GridSampler3D(GridSampler2D):
    """``grid_sample`` of a 5-D input."""

    _rank = 5


Col2Im = primitive_class(TABLE["col2im"], __name__)


class Im2Col(Primitive):
    """The (N, C, kh*kw, L) sliding blocks of an (N, C, H, W) image.

    Args:
        ksizes, strides, dilations, pads (Union[int, tuple[int]]): the window, its step, spacing and
            the zero padding of each side.
    """

    @prim_attr_register
    def __init__(self, ksizes, strides=1, dilations=1, pads=0):
        self.ksizes, self.strides, self.dilations, self.pads = ksizes, strides, dilations, pads

    def __call__(self, x):
        pads = self.pads
        if isinstance(pads, (tuple, list)) and len(pads) == 4:
            if pads[0] != pads[1] or pads[2] != pads[3]:
                raise ValueError(f"For '{self.name}', only symmetric 'pads' are supported, but got {pads}.")
            pads = (pads[0], pads[2])
        return nn_spatial.unfold_patches(self.name, x, self.ksizes, self.dilations, pads, self.strides)


class Conv2DTranspose(Conv2DBackpropInput):
    """2-D transposed convolution: the gradient of ``Conv2D`` w.r.t. its input (same as
    ``Conv2DBackpropInput``; call with ``(dout, weight, input_size)``)."""


class Conv3DTranspose(Primitive):
    """3-D transposed convolution of (N, C_in, D, H, W) ``dout`` with a (C_in, C_out/group, kD, kH, kW) weight.

    Args:
        in_channel (int), out_channel (int), kernel_size (Union[int, tuple[int]]), mode (int): 1.
        pad_mode (str): 'valid', 'same' or 'pad'. pad (Union[int, tuple[int]]): 1 or 6 values.
        stride, dilation (Union[int, tuple[int]]), group (int), output_padding (Union[int, tuple[int]]).
        data_format (str): 'NCDHW'.
    """

    @prim_attr_register
    def __init__(self, in_channel, out_channel, kernel_size, mode=1, pad_mode="valid", pad=0, stride=1, dilation=1,
                 group=1, output_padding=0, data_format="NCDHW"):
        if data_format != "NCDHW":
            raise ValueError(f"For 'Conv3DTranspose', 'data_format' must be 'NCDHW', but got {data_format!r}.")
        self.in_channel, self.out_channel, self.kernel_size = in_channel, out_channel, pair(
            "Conv3DTranspose", "kernel_size", kernel_size, 3, 1)
        self.pad_mode, self.pad, self.stride, self.dilation = pad_mode, pad, stride, dilation
        self.group, self.output_padding = group, output_padding

    def __call__(self, dout, weight):
        kernel = array_of(self.name, "weight", weight)
        if tuple(kernel.shape[2:]) != self.kernel_size or kernel.shape[0] != self.in_channel:
            raise ValueError(f"For '{self.name}', 'weight' must be ({self.in_channel}, out/group, "
                             f"{', '.join(map(str, self.kernel_size))}), but got {describe(weight)}.")
        return nn_spatial.conv3d_transpose(dout, weight, self.pad_mode, self.pad, self.stride, self.dilation,
                                           self.group, self.output_padding)


class DepthwiseConv2dNative(Primitive):
    """Depthwise 2-D convolution: each input channel convolved with ``channel_multiplier`` filters of the
    (channel_multiplier, C, kh, kw) weight; output channel ``c * channel_multiplier + k``.

    Args:
        channel_multiplier (int), kernel_size (Union[int, tuple[int]]), mode (int): 3.
        pad_mode (str): 'valid', 'same' or 'pad'. pad (Union[int, tuple[int]]): 1 or 4 values
            (top, bottom, left, right). stride, dilation (Union[int, tuple[int]]). group (int): unused.
    """

    @prim_attr_register
    def __init__(self, channel_multiplier, kernel_size, mode=3, pad_mode="valid", pad=0, stride=1, dilation=1,
                 group=1):
        if pad_mode not in ("valid", "same", "pad"):
            raise ValueError(f"For 'DepthwiseConv2dNative', 'pad_mode' must be 'valid', 'same' or 'pad', but got "
                             f"{pad_mode!r}.")
        self.channel_multiplier, self.kernel_size = channel_multiplier, pair(self.name, "kernel_size", kernel_size, 2, 1)
        self.pad_mode, self.pad = pad_mode, pad
        self.stride = pair(self.name, "stride", stride, 2, 1)[-2:]
        self.dilation = pair(self.name, "dilation", dilation, 2, 1)[-2:]

    def __call__(self, x, w):
        shape_x, shape_w = tuple(getattr(x, "shape", ())), tuple(getattr(w, "shape", ()))
        if len(shape_x) != 4 or shape_w != (self.channel_multiplier, shape_x[1]) + self.kernel_size:
            raise ValueError(f"For '{self.name}', expected an (N, C, H, W) input and a ({self.channel_multiplier}, C, "
                             f"{self.kernel_size[0]}, {self.kernel_size[1]}) weight, but got {describe(x)} and "
                             f"{describe(w)}.")
        channels = shape_x[1]
        # input channel c's filters become output channels c * channel_multiplier + k: a grouped convolution
        filters = array_ops.reshape(array_ops.transpose(w, (1, 0, 2, 3)),
                                    (channels * self.channel_multiplier, 1) + self.kernel_size)
        if self.pad_mode == "pad":
            padding = (self.pad,) * 4 if isinstance(self.pad, numbers.Integral) else tuple(self.pad)
        else:
            padding = 0
        return convolution.conv2d(x, filters, None, self.stride, self.pad_mode, padding, self.dilation, channels)


BatchToSpaceND = primitive_class(TABLE["batch_to_space_nd"], __name__)


class BatchToSpace(Primitive):
    """``BatchToSpaceND`` over the two spatial dims of NCHW with one ``block_size``.

    Args:
        block_size (int): >= 2. crops (list): two [start, end] pairs.
    """

    @prim_attr_register
    def __init__(self, block_size, crops):
        if isinstance(block_size, bool) or not isinstance(block_size, numbers.Integral) or block_size < 2:
            raise ValueError(f"For 'BatchToSpace', 'block_size' must be an int >= 2, but got {block_size!r}.")
        self.block_size, self.crops = block_size, crops

    def __call__(self, x):
        return nn_spatial.batch_to_space_nd(x, (self.block_size, self.block_size), self.crops)


class BatchToSpaceNDV2(Primitive):
    """``BatchToSpaceND`` with ``block_shape`` and ``crops`` as inputs."""

    def __call__(self, input_x, block_shape, crops):
        crops = crops.asnumpy().tolist() if isinstance(crops, Tensor) else crops
        return nn_spatial.batch_to_space_nd(input_x, _ints(block_shape), crops)


class ChannelShuffle(Primitive):
    """Shuffle the channels of (N, C, ...) in ``group`` groups (C divisible by ``group``)."""

    @prim_attr_register
    def __init__(self, group):
        if isinstance(group, bool) or not isinstance(group, numbers.Integral) or group < 1:
            raise ValueError(f"For 'ChannelShuffle', 'group' must be a positive int, but got {group!r}.")
        self.group = group

    def __call__(self, x):
        return array_shaping.channel_shuffle(x, self.group)


def _format(op_name, name, value):
    if value not in ("NHWC", "NCHW"):
        raise ValueError(f"For '{op_name}', '{name}' must be 'NHWC' or 'NCHW', but got {value!r}.")
    return value


class DataFormatDimMap(Primitive):
    """Map dimension indices in [-4, 4) between the layouts ``src_format`` and ``dst_format``."""

    @prim_attr_register
    def __init__(self, src_format="NHWC", dst_format="NCHW"):
        self.src_format = _format("DataFormatDimMap", "src_format", src_format)
        self.dst_format = _format("DataFormatDimMap", "dst_format", dst_format)

    def __call__(self, input_x):
        return spatial_primitives.data_format_dim_map(input_x, self.src_format, self.dst_format)


class DataFormatVecPermute(Primitive):
    """Permute a (4,) or (4, 2) vector of per-dimension values from ``src_format`` to ``dst_format``."""

    @prim_attr_register
    def __init__(self, src_format="NHWC", dst_format="NCHW"):
        self.src_format = _format("DataFormatVecPermute", "src_format", src_format)
        self.dst_format = _format("DataFormatVecPermute", "dst_format", dst_format)

    def __call__(self, input_x):
        array = array_of(self.name, "input_x", input_x)
        if array.shape not in ((4,), (4, 2)):
            raise ValueError(f"For '{self.name}', 'input_x' must have shape (4,) or (4, 2), but got {describe(input_x)}.")
        order = np.array([self.src_format.index(letter) for letter in self.dst_format])
        return wrap(array[order])


class DynamicShape(Primitive):
    """The shape of ``input_x`` as a 1-D Int64 Tensor.

    Args:
        dtype (int): the type id of the result (9: Int64). Default: 9.
    """

    @prim_attr_register
    def __init__(self, dtype=9):
        self.dtype = dtype

    def __call__(self, input_x):
        return inplace.dyn_shape(input_x)


class EmbeddingLookup(Primitive):
    """Rows ``input_indices - offset`` of ``input_params`` (rows outside the table read as zeros)."""

    def __call__(self, input_params, input_indices, offset):
        if isinstance(offset, Tensor):  # a setting: read once on the host
            offset = int(np.asarray(offset.asnumpy()).reshape(-1)[0])
        if not isinstance(offset, numbers.Integral):
            raise TypeError(f"For '{self.name}', 'offset' must be an int or an int Tensor, but got {offset!r}.")
        return spatial_primitives.embedding_lookup(input_params, input_indices, int(offset))
