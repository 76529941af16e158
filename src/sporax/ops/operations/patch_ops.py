"""Patch-extraction Primitives: ``ExtractImagePatches``, ``ExtractVolumePatches`` (sliding windows into the
channel axis, ordered window position then channel) and ``ExtractGlimpse`` (one window per image).

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> ops.ExtractImagePatches((1, 1, 2, 2), (1, 1, 1, 1), (1, 1, 1, 1))(Tensor(np.ones((1, 3, 4, 4), np.float32))).shape
    (1, 12, 3, 3)
"""
import numbers

from sporax.ops.operations.math_counting_ops import int_tuple as _ints
from sporax.ops.primitive import Primitive, prim_attr_register
from sporax.ops.functional.deformable import deformable_offsets
from sporax.ops.functional import spatial_primitives


class ExtractImagePatches(Primitive):
    """The (N, kh*kw*C, out_h, out_w) patches of an NCHW image, patch values ordered (row, column, channel).

    Args:
        ksizes, strides, rates (tuple[int]): (1, 1, kh, kw) style window, step and dilation.
        padding (str): 'VALID' or 'SAME'. Default: 'VALID'.
    """

    @prim_attr_register
    def __init__(self, ksizes, strides, rates, padding="VALID"):
        if padding.upper() not in ("VALID", "SAME"):
            raise ValueError(f"For 'ExtractImagePatches', 'padding' must be 'VALID' or 'SAME', but got {padding!r}.")
        self.ksizes, self.strides, self.rates = tuple(ksizes)[-2:], tuple(strides)[-2:], tuple(rates)[-2:]
        self.padding = padding.upper()

    def __call__(self, input_x):
        return spatial_primitives.extract_image_patches(input_x, self.ksizes, self.strides, self.rates, self.padding)


class ExtractVolumePatches(Primitive):
    """The (N, kd*kh*kw*C, out_d, out_h, out_w) patches of an NCDHW volume, patch values ordered
    (depth, row, column, channel).

    Args:
        kernel_size, strides (tuple[int]): (1, 1, kd, kh, kw) style window and step.
        padding (str): 'VALID' or 'SAME'.
    """

    @prim_attr_register
    def __init__(self, kernel_size, strides, padding):
        if padding.upper() not in ("VALID", "SAME"):
            raise ValueError(f"For 'ExtractVolumePatches', 'padding' must be 'VALID' or 'SAME', but got {padding!r}.")
        as_triple = lambda v: (v,) * 3 if isinstance(v, numbers.Integral) else tuple(v)[-3:]  # noqa: E731
        self.kernel_size, self.strides, self.padding = as_triple(kernel_size), as_triple(strides), padding.upper()

    def __call__(self, x):
        return spatial_primitives.extract_volume_patches(x, self.kernel_size, self.strides, self.padding)


class ExtractGlimpse(Primitive):
    """Windows of ``size`` (height, width) from NHWC ``x`` at ``offsets`` (batch, 2) = (y, x); pixels
    outside the image are filled by ``noise`` ('uniform', 'gaussian' or 'zero').

    Args:
        centered (bool): offsets relative to the image centre. Default: True.
        normalized (bool): offsets scaled to [-1, 1] (or [0, 1] when not centred). Default: True.
        uniform_noise (bool): Default: True (with noise 'uniform'). noise (str): Default: 'uniform'.
    """

    @prim_attr_register
    def __init__(self, centered=True, normalized=True, uniform_noise=True, noise="uniform"):
        if noise not in ("uniform", "gaussian", "zero"):
            raise ValueError(f"For 'ExtractGlimpse', 'noise' must be 'uniform', 'gaussian' or 'zero', but got {noise!r}.")
        if uniform_noise and noise != "uniform":
            raise ValueError(f"For 'ExtractGlimpse', 'noise' must be 'uniform' when 'uniform_noise' is True, but got "
                             f"{noise!r}.")
        self.centered, self.normalized, self.noise = centered, normalized, noise

    def __call__(self, x, size, offsets):
        return spatial_primitives.extract_glimpse(x, offsets, tuple(int(v) for v in _ints(size)), self.centered,
                                                  self.normalized, self.noise == "uniform", self.noise)


class DeformableOffsets(Primitive):
    """The deformed samples of DCNv2: (N, C, H_out * kh, W_out * kw) from NCHW ``x`` and ``offsets``
    (N, 3 * deformable_groups * kh * kw, H_out, W_out) holding x offsets, y offsets and masks.

    Args:
        strides (tuple[int]): (1, 1, h, w). pads (tuple[int]): (top, bottom, left, right).
        ksize (tuple[int]): (kh, kw). dilations (tuple[int]): Default: (1, 1, 1, 1).
        data_format (str): 'NCHW'. deformable_groups (int): Default: 1. modulated (bool): True.
    """

    @prim_attr_register
    def __init__(self, strides, pads, ksize, dilations=(1, 1, 1, 1), data_format="NCHW", deformable_groups=1,
                 modulated=True):
        if data_format != "NCHW":
            raise ValueError(f"For 'DeformableOffsets', 'data_format' must be 'NCHW', but got {data_format!r}.")
        self.strides, self.pads, self.ksize, self.dilations = strides, pads, ksize, dilations
        self.deformable_groups, self.modulated = deformable_groups, modulated

    def __call__(self, x, offsets):

        return deformable_offsets(self.name, x, offsets, self.ksize, self.strides, self.pads, self.dilations,
                                  self.deformable_groups, self.modulated)
