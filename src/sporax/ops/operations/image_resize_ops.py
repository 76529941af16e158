"""Image Primitives with TensorFlow's resize conventions and box suppression: ``ResizeArea``, ``ResizeBicubic``,
``ResizeLinear1D``, ``ResizeNearestNeighborV2``, ``UpsampleNearest1D``/``2D``/``3D``, ``UpsampleTrilinear3D``,
``RGBToHSV``, ``NonMaxSuppressionV3``, ``NonMaxSuppressionWithOverlaps``, ``MaxPoolWithArgmaxV2``,
``MaxUnpool2D``/``3D``.

Algorithm: every resize is separable, so each axis gets a static (out, in) weight matrix built with
NumPy from the TensorFlow coordinate rule, applied with one ``tensordot`` per axis.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> x = Tensor(np.arange(16.0, dtype=np.float32).reshape(1, 1, 4, 4))
    >>> ops.ResizeNearestNeighborV2()(x, Tensor(np.array([2, 2], np.int32))).asnumpy().tolist()
    [[[[0.0, 2.0], [8.0, 10.0]]]]
"""
import jax.numpy as jnp
import numpy as np

from sporax.core import dtype as mstype
from sporax.ops import functional
from sporax.ops._dispatch import array_of, wrap
from sporax.ops.functional._args import _concrete
from sporax.ops.primitive import Primitive, prim_attr_register
from sporax.ops.functional.pooling import max_pool2d
from sporax.ops.functional import box_suppression, colour_space, image_resize, sampling, unpool


def _sizes(op_name, size, count):
    values = tuple(int(v) for v in np.asarray(_concrete(op_name, "size", size)).reshape(-1))
    if len(values) != count or min(values) <= 0:
        raise ValueError(f"For '{op_name}', 'size' must hold {count} positive ints, but got {values}.")
    return values


def _coordinates(size_in, size_out, mode):
    """TensorFlow's source coordinate of each output index: 'align_corners', 'half_pixel' or 'asymmetric'."""
    out = np.arange(size_out, dtype=np.float64)
    if mode == "align_corners":
        return out * ((size_in - 1) / (size_out - 1) if size_out > 1 else 0.0)
    if mode == "half_pixel":
        return (out + 0.5) * (size_in / size_out) - 0.5
    return out * (size_in / size_out)


def _linear(size_in, size_out, mode):
    source = np.clip(_coordinates(size_in, size_out, mode), 0, size_in - 1)
    low = np.floor(source).astype(int)
    high = np.minimum(low + 1, size_in - 1)
    matrix = np.zeros((size_out, size_in))
    np.add.at(matrix, (np.arange(size_out), low), 1 - (source - low))
    np.add.at(matrix, (np.arange(size_out), high), source - low)
    return matrix


def _cubic(size_in, size_out, mode, a, tabulated=True):
    """TensorFlow's bicubic weights, read from a 1024-entry table: the legacy kernel (a = -0.75) clamps taps
    to the edge; the half-pixel kernel (a = -0.5) drops out-of-range taps and renormalises the rest.
    ``tabulated=False``: the exact weights, every tap clamped to the edge (ONNX's cubic, ``ResizeV2``)."""
    source = _coordinates(size_in, size_out, mode)
    base = np.floor(source).astype(int)
    t = source - base
    boundary_aware = mode == "half_pixel" and tabulated
    t = np.round(t * 1024) / 1024 if tabulated else t
    matrix = np.zeros((size_out, size_in))
    for offset in (-1, 0, 1, 2):
        distance = np.abs(t - offset)
        weight = np.where(distance <= 1, ((a + 2) * distance - (a + 3)) * distance ** 2 + 1,
                          np.where(distance < 2, ((a * distance - 5 * a) * distance + 8 * a) * distance - 4 * a, 0))
        index = base + offset
        if boundary_aware:
            weight = np.where((index >= 0) & (index < size_in), weight, 0)
        np.add.at(matrix, (np.arange(size_out), np.clip(index, 0, size_in - 1)), weight)
    return matrix / matrix.sum(1, keepdims=True) if boundary_aware else matrix


def _nearest(size_in, size_out, align_corners, half_pixel):
    if align_corners:
        source = np.floor(_coordinates(size_in, size_out, "align_corners") + 0.5)
    elif half_pixel:
        source = np.floor((np.arange(size_out) + 0.5) * (size_in / size_out))
    else:
        source = np.floor(np.arange(size_out) * (size_in / size_out))
    matrix = np.zeros((size_out, size_in))
    matrix[np.arange(size_out), np.clip(source.astype(int), 0, size_in - 1)] = 1
    return matrix


def _apply(array, matrices, axes):
    result = array
    for matrix, axis in zip(matrices, axes):
        moved = jnp.tensordot(jnp.asarray(matrix, result.dtype), jnp.moveaxis(result, axis, 0), axes=1)
        result = jnp.moveaxis(moved, 0, axis)
    return result


def _float_image(op_name, value, rank):
    array = array_of(op_name, "x", value)
    if array.ndim != rank:
        raise ValueError(f"For '{op_name}', the input must be {rank}-D, but got shape {tuple(array.shape)}.")
    return array if array.dtype.kind in "fV" else array.astype(jnp.float32)


class ResizeLinear1D(Primitive):
    """Linear resize of the last axis of an (N, C, W) Tensor to ``size``.

    Inputs:
        - **x** (Tensor) - (N, C, W). **size** (Tensor[int64]) - (1,).
    """

    @prim_attr_register
    def __init__(self, coordinate_transformation_mode="align_corners"):
        if coordinate_transformation_mode not in ("align_corners", "half_pixel", "asymmetric"):
            raise ValueError("For 'ResizeLinear1D', 'coordinate_transformation_mode' must be 'align_corners', "
                             f"'half_pixel' or 'asymmetric', but got {coordinate_transformation_mode!r}.")
        self.mode = coordinate_transformation_mode

    def __call__(self, x, size):
        array = _float_image("ResizeLinear1D", x, 3)
        (width,) = _sizes("ResizeLinear1D", size, 1)
        return wrap(_apply(array, [_linear(array.shape[2], width, self.mode)], [2]))


class ResizeBicubic(Primitive):
    """Bicubic resize of (N, C, H, W) images (TensorFlow's kernel: a = -0.75, or -0.5 with half-pixel centres).

    Inputs:
        - **images** (Tensor) - (N, C, H, W). **size** (Tensor[int32]) - (2,).
    """

    @prim_attr_register
    def __init__(self, align_corners=False, half_pixel_centers=False):
        if align_corners and half_pixel_centers:
            raise ValueError("For 'ResizeBicubic', 'align_corners' and 'half_pixel_centers' can not both be True.")
        self.align_corners, self.half_pixel_centers = align_corners, half_pixel_centers

    def __call__(self, images, size):
        array = _float_image("ResizeBicubic", images, 4)
        sizes = _sizes("ResizeBicubic", size, 2)
        mode = "align_corners" if self.align_corners else "half_pixel" if self.half_pixel_centers else "asymmetric"
        a = -0.5 if self.half_pixel_centers else -0.75
        matrices = [_cubic(array.shape[axis], out, mode, a) for axis, out in zip((2, 3), sizes)]
        return wrap(_apply(array, matrices, (2, 3)))


class ResizeNearestNeighborV2(Primitive):
    """Nearest-neighbour resize of (N, C, H, W) images.

    Inputs:
        - **x** (Tensor) - (N, C, H, W). **size** (Tensor[int32]) - (2,).
    """

    @prim_attr_register
    def __init__(self, align_corners=False, half_pixel_centers=False):
        self.align_corners, self.half_pixel_centers = align_corners, half_pixel_centers

    def __call__(self, x, size):
        if len(getattr(x, "shape", ())) != 4:
            raise ValueError(f"For 'ResizeNearestNeighborV2', 'x' must be 4-D, but got shape "
                             f"{tuple(getattr(x, 'shape', ()))}.")
        sizes = _sizes("ResizeNearestNeighborV2", size, 2)
        # the ResizeNearestNeighbor entry: the same TensorFlow rules on the last two axes
        return sampling.resize_nearest_neighbor(x, sizes, self.align_corners, self.half_pixel_centers)


class ResizeV2(Primitive):
    """ONNX-style resize of (N, C, H, W) images to ``sizes``: 'nearest' and 'linear' along W only (H stays 1),
    'cubic' (a = -0.75, taps clamped to the edge) along H and W.

    Args:
        coordinate_transformation_mode (str): 'half_pixel' or 'align_corners' ('nearest' takes 'half_pixel'
            only, and reads it as MindSpore's kernel does: source index ``floor(i * W / W_out)``).
            Default: 'half_pixel'.
        mode (str): 'nearest', 'linear' or 'cubic'. Default: 'nearest'.

    Inputs:
        - **x** (Tensor) - (N, C, H, W).
        - **roi**, **scales** (Tensor) - not read (MindSpore takes them empty).
        - **sizes** (Tensor) - 1-d int64 (N, C, H_out, W_out).

    Outputs:
        Tensor (N, C, H_out, W_out), the dtype of ``x``.
    """

    @prim_attr_register
    def __init__(self, coordinate_transformation_mode="half_pixel", mode="nearest"):
        if coordinate_transformation_mode not in ("align_corners", "half_pixel"):
            raise ValueError("For 'ResizeV2', the 'coordinate_transformation_mode' must be str and must be in "
                             f"['align_corners', 'half_pixel'], but got {coordinate_transformation_mode!r}.")
        if mode not in ("nearest", "linear", "cubic"):
            raise ValueError(f"For 'ResizeV2', the 'mode' must be in ['nearest', 'linear', 'cubic'], but got {mode!r}.")
        if mode == "nearest" and coordinate_transformation_mode != "half_pixel":
            raise ValueError("For 'ResizeV2', coordinate_transformation_mode must be 'half_pixel' when mode = "
                             f"'nearest', but got {coordinate_transformation_mode!r}.")
        self.init_prim_io_names(["x", "roi", "scales", "sizes"], ["y"])

    def __call__(self, x, roi, scales, sizes):
        array = _float_image("ResizeV2", x, 4)
        height, width = _sizes("ResizeV2", sizes, 4)[2:]
        ctm = self.coordinate_transformation_mode
        if self.mode == "cubic":
            matrices = [_cubic(array.shape[2], height, ctm, -0.75, tabulated=False),
                        _cubic(array.shape[3], width, ctm, -0.75, tabulated=False)]
            return wrap(_apply(array, matrices, (2, 3)))
        if height != 1 or array.shape[2] != 1:
            raise ValueError("For 'ResizeV2', sizes[2] must be 1, when mode='nearest' or 'linear'.")
        line = (_nearest(array.shape[3], width, False, False) if self.mode == "nearest"
                else _linear(array.shape[3], width, ctm))
        return wrap(_apply(array, [line], (3,)))

class ResizeArea(Primitive):
    """Area-weighted resize of (N, H, W, C) images (each output pixel averages the input area it covers).

    Inputs:
        - **images** (Tensor) - (N, H, W, C). **size** (Tensor[int32]) - (2,).

    Outputs:
        Float32 Tensor (N, new_height, new_width, C).
    """

    @prim_attr_register
    def __init__(self, align_corners=False):
        self.align_corners = align_corners

    def __call__(self, images, size):
        return image_resize.resize_area(images, _sizes("ResizeArea", size, 2), self.align_corners)


def _volume_sizes(op_name, array, output_size, scales):
    """The output sizes of the spatial axes (all but N and C): ``output_size``, or each size times its scale."""
    count = array.ndim - 2
    if output_size is not None:
        sizes = tuple(int(v) for v in output_size)
    elif scales is not None:
        sizes = tuple(int(np.floor(d * s)) for d, s in zip(array.shape[2:], scales))
    else:
        raise ValueError(f"For '{op_name}', either 'output_size' or 'scales' must be given.")
    if len(sizes) != count or min(sizes) <= 0:
        raise ValueError(f"For '{op_name}', the output size must be {count} positive ints, but got {sizes}.")
    return sizes


class UpsampleNearest3D(Primitive):
    """Nearest-neighbour resize of (N, C, D, H, W) volumes to ``output_size`` (or by ``scales``).

    Inputs:
        - **x** (Tensor) - 5-D. **output_size** (tuple[int]) or **scales** (tuple[float]).
    """

    _rank = 5

    def __call__(self, x, output_size=None, scales=None):
        array = _float_image(self.name, x, self._rank)
        sizes = _volume_sizes(self.name, array, output_size, scales)
        # the interpolate entry's nearest mode: source index floor(out * in / out_size), as MindSpore's kernel
        return sampling.interpolate(wrap(array), size=sizes, mode="nearest")


class UpsampleNearest1D(UpsampleNearest3D):
    """Nearest-neighbour resize of the last axis of (N, C, W) Tensors to ``output_size`` (or by ``scales``).

    Inputs:
        - **x** (Tensor) - 3-D. **output_size** (tuple[int]) or **scales** (tuple[float]), one each.
    """

    _rank = 3


class UpsampleNearest2D(UpsampleNearest3D):
    """Nearest-neighbour resize of (N, C, H, W) images to ``output_size`` (or by ``scales``).

    Inputs:
        - **x** (Tensor) - 4-D. **output_size** (tuple[int]) or **scales** (tuple[float]), two each.
    """

    _rank = 4


class UpsampleTrilinear3D(Primitive):
    """Trilinear resize of (N, C, D, H, W) volumes (half-pixel centres unless ``align_corners``).

    Inputs:
        - **x** (Tensor) - 5-D. **output_size** (tuple[int]) or **scales** (tuple[float]).
    """

    @prim_attr_register
    def __init__(self, align_corners=False):
        self.align_corners = align_corners

    def __call__(self, x, output_size=None, scales=None):
        array = _float_image("UpsampleTrilinear3D", x, 5)
        sizes = _volume_sizes("UpsampleTrilinear3D", array, output_size, scales)
        mode = "align_corners" if self.align_corners else "half_pixel"
        matrices = [_linear(array.shape[axis], out, mode) for axis, out in zip((2, 3, 4), sizes)]
        return wrap(_apply(array, matrices, (2, 3, 4)))


class RGBToHSV(Primitive):
    """Convert (..., 3) RGB values in [0, 1] to HSV (hue in [0, 1)).

    Inputs:
        - **images** (Tensor) - float, last axis 3.
    """

    def __call__(self, images):
        # the op-table entry's face; this class keeps MindSpore's ``__init__(name=None)``
        return colour_space.rgb_to_hsv(images)


class NonMaxSuppressionV3(Primitive):
    """Greedy non-maximum suppression of (N, 4) ``boxes`` (two opposite corners) by IoU.

    Inputs:
        - **boxes** (Tensor) - (N, 4). **scores** (Tensor) - (N,). **max_output_size**, **iou_threshold**,
          **score_threshold** (Tensor) - scalars.

    Outputs:
        Int32 Tensor of the kept indices, highest score first.
    """

    def __call__(self, boxes, scores, max_output_size, iou_threshold, score_threshold):
        # the op-table entry's face; this class keeps MindSpore's ``__init__(name=None)``
        return box_suppression.non_max_suppression_v3(boxes, scores, max_output_size, iou_threshold, score_threshold)


class NonMaxSuppressionWithOverlaps(Primitive):
    """Greedy non-maximum suppression given the (N, N) ``overlaps`` matrix.

    Inputs:
        - **overlaps** (Tensor) - (N, N). **scores** (Tensor) - (N,). **max_output_size**, **overlap_threshold**,
          **score_threshold** (Tensor) - scalars.
    """

    def __call__(self, overlaps, scores, max_output_size, overlap_threshold, score_threshold):
        return box_suppression.non_max_suppression_with_overlaps(overlaps, scores, max_output_size,
                                                                 overlap_threshold, score_threshold)


class MaxPoolWithArgmaxV2(Primitive):
    """``(output, argmax)`` of a 2-D max pool of (N, C, H, W); argmax indexes each H*W plane.

    Inputs:
        - **x** (Tensor) - (N, C, H, W).
    """

    @prim_attr_register
    def __init__(self, kernel_size, strides=None, pads=0, dilation=(1, 1), ceil_mode=False,
                 argmax_type=mstype.int64):
        self.kernel_size, self.strides, self.pads = kernel_size, strides, pads
        self.dilation, self.ceil_mode, self.argmax_type = dilation, ceil_mode, argmax_type

    def __call__(self, x):

        output, argmax = max_pool2d(x, self.kernel_size, self.strides, self.pads, self.dilation, True,
                                    self.ceil_mode)
        return output, wrap(argmax._value.astype(mstype.to_numpy_dtype(mstype.normalize(self.argmax_type))))


class MaxUnpool2D(Primitive):
    """Scatter (N, C, H, W) pooled values back to their ``argmax`` positions (``ops.max_unpool2d``).

    With ``data_format='NHWC'`` (MindSpore 2.10 runs it on CPU too) ``x``, ``argmax``, ``output_shape`` and the
    result are channels-last; ``argmax`` still counts positions within each channel's (H, W) plane.

    Inputs:
        - **x** (Tensor). **argmax** (Tensor[int]).
    """

    _RANK, _FORMATS = 2, ("NCHW", "NHWC")

    @prim_attr_register
    def __init__(self, ksize, strides=0, pads=0, output_shape=(), data_format="NCHW"):
        if not isinstance(data_format, str) or data_format not in self._FORMATS:
            raise ValueError(f"For '{self.name}', the 'data_format' must be str and must be in "
                             f"'{list(self._FORMATS)}', but got {data_format!r}.")
        self.ksize, self.strides, self.pads, self.output_shape = ksize, strides, pads, output_shape
        self.format = data_format

    def __call__(self, x, argmax):
        function = unpool.max_unpool2d if self._RANK == 2 else unpool.max_unpool3d
        strides = self.ksize if self.strides in (0, None) else self.strides
        output = tuple(self.output_shape) or None
        if self.format == self._FORMATS[0]:
            return function(x, argmax, self.ksize, strides, self.pads, output)
        # channels-last: the channels-first op between two moves of the channel axis
        if output is not None:
            output = output[:1] + output[-1:] + output[1:-1]
        result = function(functional.movedim(x, -1, 1), functional.movedim(argmax, -1, 1), self.ksize, strides, self.pads, output)
        return functional.movedim(result, 1, -1)


class MaxUnpool3D(MaxUnpool2D):
    """Scatter (N, C, D, H, W) pooled values back to their ``argmax`` positions (``ops.max_unpool3d``).

    Inputs:
        - **x** (Tensor). **argmax** (Tensor[int]).
    """

    _RANK, _FORMATS = 3, ("NCDHW", "NDHWC")

    @prim_attr_register
    def __init__(self, ksize, strides=0, pads=0, output_shape=(), data_format="NCDHW"):
        MaxUnpool2D.__init__.__wrapped__(self, ksize, strides, pads, output_shape, data_format)
