"""Backward kernels of ``ops.operations._grad_ops`` for sampling and resizing: grid sampling, affine grids,
resizing, upsampling, padding and ROI align (pooling's: ``grad_ops_pooling.py``).

Each is the VJP of sporax's own forward Primitive with the same settings, so a backward kernel gives exactly
the gradient the forward op's autodiff gives.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.ops.operations.grad_ops_spatial import ResizeBicubicGrad
    >>> dx = ResizeBicubicGrad()(Tensor(np.ones((1, 1, 2, 2), np.float32)), Tensor(np.zeros((1, 1, 2, 2), np.float32)))
    >>> dx.asnumpy().tolist()
    [[[[1.0, 1.0], [1.0, 1.0]]]]
"""
import jax
import numpy as np

from sporax.ops._dispatch import array_of, wrap
from sporax.ops.operations.grad_ops_nn import _operations, _pullback_in_float32
from sporax.ops.operations.grad_ops_structured import _shape_of
from sporax.ops.primitive import Primitive, prim_attr_register


def _grid_sampler_grad(name, forward_name):
    """``name(interpolation_mode, padding_mode, align_corners, output_mask)(grad, input_x, grid)`` ->
    ``(dx, dgrid)``: the VJP of the forward sampler with respect to both inputs."""

    @prim_attr_register
    def __init__(self, interpolation_mode="bilinear", padding_mode="zeros", align_corners=False,
                 output_mask=(1, 1)):
        self.forward = getattr(_operations(), forward_name)(interpolation_mode, padding_mode, align_corners)
        self.init_prim_io_names(["grad", "input_x", "grid"], ["dx", "dgrid"])

    def __call__(self, grad, input_x, grid):
        dy = array_of(name, "grad", grad)
        x_array = array_of(name, "input_x", input_x)
        grid_array = array_of(name, "grid", grid)

        def on_arrays(x_value, grid_value):
            return array_of(name, "output", self.forward(wrap(x_value), wrap(grid_value)))

        output, pullback = jax.vjp(on_arrays, x_array, grid_array)
        dx, dgrid = pullback(dy.astype(output.dtype).reshape(output.shape))
        return wrap(dx), wrap(dgrid)

    doc = (f"Gradient of ``{forward_name}`` with respect to ``input_x`` and ``grid`` (its VJP).\n\n"
           "    Args:\n        interpolation_mode, padding_mode, align_corners: those of the forward op.\n"
           "        output_mask (tuple[int]): which gradients MindSpore computes; both are returned.\n\n"
           "    Inputs:\n        - **grad** (Tensor) - the gradient of the sampled output.\n"
           "        - **input_x** (Tensor), **grid** (Tensor) - the forward inputs.\n\n"
           "    Outputs:\n        (dx, dgrid), shaped as ``input_x`` and ``grid``.\n")
    return type(name, (Primitive,), {"__init__": __init__, "__call__": __call__, "__doc__": doc,
                                     "__module__": __name__})


GridSampler2DGrad = _grid_sampler_grad("GridSampler2DGrad", "GridSampler2D")
GridSampler3DGrad = _grid_sampler_grad("GridSampler3DGrad", "GridSampler3D")


def _resize_grad_at(op_name, forward, grads, x, spatial_rank, size_dtype):
    """The VJP of ``forward(x, size)`` (a resize of ``x``'s last ``spatial_rank`` axes to ``grads``') at ``grads``."""
    dy = array_of(op_name, "grads", grads)
    size = wrap(np.array(dy.shape[-spatial_rank:], size_dtype))
    return _pullback_in_float32(lambda value: forward(value, size), array_of(op_name, "x", x).shape, dy)


class ResizeBicubicGrad(Primitive):
    """Gradient of ``ResizeBicubic`` with the same settings (its VJP).

    Inputs:
        - **grads** (Tensor) - (N, C, H_out, W_out), the gradient of the resized output.
        - **image** (Tensor) - the forward input (N, C, H, W).

    Outputs:
        Tensor of the shape and dtype of ``image``.
    """

    @prim_attr_register
    def __init__(self, align_corners=False, half_pixel_centers=False):
        self.forward = _operations().ResizeBicubic(align_corners, half_pixel_centers)
        self.init_prim_io_names(["grads", "original_image"], ["y"])

    def __call__(self, grads, image):
        return _resize_grad_at("ResizeBicubicGrad", self.forward, grads, image, 2, np.int32)


class ResizeLinear1DGrad(Primitive):
    """Gradient of ``ResizeLinear1D`` with the same ``coordinate_transformation_mode`` (its VJP).

    Inputs:
        - **grads** (Tensor) - (N, C, W_out), the gradient of the resized output.
        - **x** (Tensor) - the forward input (N, C, W).

    Outputs:
        Tensor of the shape and dtype of ``x``.
    """

    @prim_attr_register
    def __init__(self, coordinate_transformation_mode="align_corners"):
        self.forward = _operations().ResizeLinear1D(coordinate_transformation_mode)
        self.init_prim_io_names(["grads", "input_x"], ["y"])

    def __call__(self, grads, x):
        return _resize_grad_at("ResizeLinear1DGrad", self.forward, grads, x, 1, np.int64)


class ResizeNearestNeighborV2Grad(Primitive):
    """Gradient of ``ResizeNearestNeighborV2`` with the same settings (its VJP).

    Inputs:
        - **grads** (Tensor) - (N, C, H_out, W_out), the gradient of the resized output.
        - **size** (Tensor) - 1-d int (H, W), the forward input's spatial size.

    Outputs:
        Tensor of shape (N, C, H, W), the dtype of ``grads``.
    """

    @prim_attr_register
    def __init__(self, align_corners=False, half_pixel_centers=False):
        self.forward = _operations().ResizeNearestNeighborV2(align_corners, half_pixel_centers)
        self.init_prim_io_names(["grads", "size"], ["y"])

    def __call__(self, grads, size):
        dy = array_of("ResizeNearestNeighborV2Grad", "grads", grads)
        spatial = _shape_of("ResizeNearestNeighborV2Grad", "size", size)
        out_size = wrap(np.array(dy.shape[-2:], np.int32))
        return _pullback_in_float32(lambda x: self.forward(x, out_size), tuple(dy.shape[:-2]) + spatial, dy)


def _upsample_3d_grad(op_name, dy, input_size, output_size, scales, forward):
    dy_array = array_of(op_name, "dy", dy)
    shape = _shape_of(op_name, "input_size", input_size)
    if output_size is not None:
        output_size = _shape_of(op_name, "output_size", output_size)
    scales = None if scales is None else tuple(float(scale) for scale in scales)
    return _pullback_in_float32(lambda x: forward(x, output_size, scales), shape, dy_array)


class UpsampleNearest3DGrad(Primitive):
    """Gradient of ``UpsampleNearest3D`` (its VJP).

    Inputs:
        - **dy** (Tensor) - (N, C, D_out, H_out, W_out), the gradient of the upsampled output.
        - **input_size** (tuple[int]) - the forward input's shape.
        - **output_size** (tuple[int]), **scales** (tuple[float]) - the forward op's (one of them given).

    Outputs:
        Tensor of shape ``input_size``.
    """

    @prim_attr_register
    def __init__(self):
        self.forward = _operations().UpsampleNearest3D()
        self.init_prim_io_names(["dy", "input_size", "output_size", "scales"], ["dx"])

    def __call__(self, dy, input_size, output_size=None, scales=None):
        return _upsample_3d_grad(self.name, dy, input_size, output_size, scales, self.forward)


class UpsampleTrilinear3DGrad(UpsampleNearest3DGrad):
    """Gradient of ``UpsampleTrilinear3D`` with the same ``align_corners`` (its VJP); inputs and output as
    ``UpsampleNearest3DGrad``'s."""

    @prim_attr_register
    def __init__(self, align_corners=False):
        self.forward = _operations().UpsampleTrilinear3D(align_corners)
        self.init_prim_io_names(["dy", "input_size", "output_size", "scales"], ["dx"])


class PadV3Grad(Primitive):
    """Gradient of ``PadV3`` with the same ``mode`` (its VJP): the padded border folded back onto the input.

    Inputs:
        - **x** (Tensor) - the gradient of the padded output.
        - **paddings** (Tensor) - 1-d int, the forward paddings (pairs from the last axis backwards, or all
          befores then all afters when ``paddings_contiguous`` is False).

    Outputs:
        Tensor of the forward input's shape.
    """

    @prim_attr_register
    def __init__(self, mode="reflect", paddings_contiguous=True):
        self.forward = _operations().PadV3(mode, paddings_contiguous)
        self.init_prim_io_names(["x", "paddings"], ["y"])

    def __call__(self, x, paddings):
        dy = array_of("PadV3Grad", "x", x)
        given = [int(value) for value in np.asarray(array_of("PadV3Grad", "paddings", paddings)).ravel()]
        pads, half = given, len(given) // 2
        if not self.paddings_contiguous:
            pads = [value for pair in zip(pads[:half], pads[half:]) for value in pair]
        shape = list(dy.shape)
        for axis in range(half):
            shape[-1 - axis] -= pads[2 * axis] + pads[2 * axis + 1]
        pads_tensor = wrap(np.array(given, np.int64))
        return _pullback_in_float32(lambda value: self.forward(value, pads_tensor), tuple(shape), dy)


class ROIAlignGrad(Primitive):
    """Gradient of ``ROIAlign`` with respect to its features (its VJP).

    Args:
        pooled_height, pooled_width, spatial_scale, sample_num: those of the forward op.

    Inputs:
        - **dy** (Tensor) - (K, C, pooled_height, pooled_width), the gradient of the pooled regions.
        - **rois** (Tensor) - (K, 5) the forward regions (batch index, x1, y1, x2, y2).
        - **xdiff_shape** (tuple[int]) - the forward features' shape.

    Outputs:
        Tensor of shape ``xdiff_shape``.
    """

    @prim_attr_register
    def __init__(self, pooled_height, pooled_width, spatial_scale, sample_num=2):
        self.forward = _operations().ROIAlign(pooled_height, pooled_width, spatial_scale, sample_num)
        self.init_prim_io_names(["dy", "rois", "xdiff_shape"], ["dx"])

    def __call__(self, dy, rois, xdiff_shape):
        dy_array = array_of("ROIAlignGrad", "dy", dy)
        shape = _shape_of("ROIAlignGrad", "xdiff_shape", xdiff_shape)
        return _pullback_in_float32(lambda features: self.forward(features, rois), shape, dy_array)


class AffineGridGrad(Primitive):
    """Gradient of ``AffineGrid`` with respect to ``theta`` (its VJP).

    Args:
        align_corners (bool): that of the forward op. Default: False.

    Inputs:
        - **y_grad** (Tensor) - (N, H, W, 2) or (N, D, H, W, 3), the gradient of the grid.
        - **x_size** (tuple[int]) - the forward output size (N, C, H, W) or (N, C, D, H, W).

    Outputs:
        Tensor (N, 2, 3) or (N, 3, 4), the gradient of ``theta``.
    """

    @prim_attr_register
    def __init__(self, align_corners=False):
        self.forward = _operations().AffineGrid(align_corners)
        self.init_prim_io_names(["y_grad", "x_size"], ["x_grad"])

    def __call__(self, y_grad, x_size):
        dy = array_of("AffineGridGrad", "y_grad", y_grad)
        size = _shape_of("AffineGridGrad", "x_size", x_size)
        rank = len(size) - 2
        return _pullback_in_float32(lambda theta: self.forward(theta, size), (size[0], rank, rank + 1), dy)


class ResizeV2Grad(Primitive):
    """Gradient of ``ResizeV2`` with the same settings (its VJP).

    Inputs:
        - **grads** (Tensor) - (N, C, H_out, W_out), the gradient of the resized output.
        - **roi**, **scales** (Tensor) - not read (MindSpore takes them empty).
        - **original_size** (Tensor) - 1-d int64, the forward input's shape (N, C, H, W).

    Outputs:
        Tensor of shape ``original_size``.
    """

    @prim_attr_register
    def __init__(self, coordinate_transformation_mode="half_pixel", mode="nearest"):
        # nearest reads no coordinate mode (its forward takes 'half_pixel' only; the gradient takes both)
        forward_mode = "half_pixel" if mode == "nearest" else coordinate_transformation_mode
        self.forward = _operations().ResizeV2(forward_mode, mode)
        self.init_prim_io_names(["grads", "roi", "scales", "original_size"], ["y"])

    def __call__(self, grads, roi, scales, original_size):
        dy = array_of("ResizeV2Grad", "grads", grads)
        shape = _shape_of("ResizeV2Grad", "original_size", original_size)
        sizes = wrap(np.array(dy.shape, np.int64))
        return _pullback_in_float32(lambda x: self.forward(x, roi, scales, sizes), shape, dy)
