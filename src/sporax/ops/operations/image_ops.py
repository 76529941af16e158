"""Image Primitives: ``CropAndResize``, the colour adjustments ``HSVToRGB``/``AdjustHue``/``AdjustSaturation``
(float RGB images, channels last) and the morphological ``Dilation2D``.

``CropAndResize`` crops boxes out of an NHWC image batch and resizes each to ``crop_size``
(``ops.crop_and_resize``, where its sampling rules are described).
"""
import numbers

from sporax.ops._dispatch import wrap
from sporax.ops.functional import colour_space, image_crop, spatial_primitives
from sporax.ops.primitive import Primitive, prim_attr_register


class CropAndResize(Primitive):
    """Crop and resize boxes of an image batch (TensorFlow's ``crop_and_resize``).

    Args:
        method (str): ``'bilinear'``, ``'nearest'`` or ``'bilinear_v2'``. Default: ``'bilinear'``.
        extrapolation_value (float): the value of samples outside the image. Default: ``0.0``.

    Inputs:
        - **x** (Tensor) - (batch, height, width, channels), real numbers.
        - **boxes** (Tensor) - float32 (num_boxes, 4), normalized ``(y1, x1, y2, x2)``.
        - **box_index** (Tensor) - int32 (num_boxes,), the image of each box.
        - **crop_size** (tuple[int]) - ``(crop_height, crop_width)``, positive.

    Outputs:
        float32 Tensor (num_boxes, crop_height, crop_width, channels).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> image = Tensor(np.arange(16, dtype=np.float32).reshape(1, 4, 4, 1))
        >>> boxes = Tensor(np.array([[0, 0, 1, 1]], np.float32))
        >>> ops.CropAndResize()(image, boxes, Tensor(np.array([0], np.int32)), (2, 2)).asnumpy().ravel().tolist()
        [0.0, 3.0, 12.0, 15.0]
    """

    @prim_attr_register
    def __init__(self, method="bilinear", extrapolation_value=0.0):
        if method not in image_crop.METHODS:
            raise ValueError(f"For 'CropAndResize', 'method' must be 'bilinear', 'nearest' or 'bilinear_v2', "
                             f"but got {method!r}.")
        self.method, self.extrapolation_value = method, float(extrapolation_value)

    def __call__(self, x, boxes, box_index, crop_size):
        return image_crop.crop_and_resize(x, boxes, box_index, crop_size, self.method, self.extrapolation_value)


class HSVToRGB(Primitive):
    """HSV images (last dimension 3, hue in [0, 1)) to RGB."""

    def __call__(self, x):
        return wrap(colour_space.hsv_to_rgb(colour_space.image_input(self.name, x)))


class AdjustHue(Primitive):
    """Rotate the hue of RGB images (last dimension 3) by ``delta`` (a fraction of a turn, in [-1, 1]).

    Inputs:
        - **image** (Tensor) - float, last dimension 3.
        - **delta** (Union[Tensor, float]) - the hue shift.
    """

    def __call__(self, image, delta):
        # the op-table entry's face; this class keeps MindSpore's ``__init__(name=None)``
        return colour_space.adjust_hue(image, delta)


class AdjustSaturation(Primitive):
    """Scale the saturation of RGB images (last dimension 3) by ``scale`` (clipped to [0, 1]).

    Inputs:
        - **image** (Tensor) - float, last dimension 3.
        - **scale** (Union[Tensor, float]) - the saturation factor.
    """

    def __call__(self, image, scale):
        return colour_space.adjust_saturation(image, scale)


class Dilation2D(Primitive):
    """Grayscale morphological dilation of NCHW ``x`` by a (C, kh, kw) ``filter``:
    ``out = max over the window of (x + filter)``.

    Args:
        stride (Union[int, tuple[int]]), dilation (Union[int, tuple[int]]): (1, 1, h, w) style or pairs.
        pad_mode (str): 'SAME' or 'VALID'. Default: 'SAME'. data_format (str): 'NCHW'.
    """

    @prim_attr_register
    def __init__(self, stride, dilation, pad_mode="SAME", data_format="NCHW"):
        if pad_mode.upper() not in ("SAME", "VALID"):
            raise ValueError(f"For 'Dilation2D', 'pad_mode' must be 'SAME' or 'VALID', but got {pad_mode!r}.")
        if data_format != "NCHW":
            raise ValueError(f"For 'Dilation2D', 'data_format' must be 'NCHW', but got {data_format!r}.")
        as_pair = lambda v: (v, v) if isinstance(v, numbers.Integral) else tuple(v)[-2:]  # noqa: E731
        self.stride, self.dilation, self.pad_mode = as_pair(stride), as_pair(dilation), pad_mode.upper()

    def __call__(self, x, filter):
        return spatial_primitives.dilation2d(x, filter, self.stride, self.dilation, self.pad_mode)
