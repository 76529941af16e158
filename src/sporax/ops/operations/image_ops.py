"""Image Primitives: ``CropAndResize``, the colour adjustments ``HSVToRGB``/``AdjustHue``/``AdjustSaturation``
(float RGB images, channels last) and the morphological ``Dilation2D``.

``CropAndResize`` crops boxes out of an NHWC image batch and resizes each to ``crop_size``.

Boxes are normalized ``(y1, x1, y2, x2)`` rows; crop row ``i`` samples the image at
``y1 * (H - 1) + i * (y2 - y1) * (H - 1) / (crop_h - 1)`` (the box centre when ``crop_h == 1``), and
likewise for columns. A sample outside ``[0, H - 1] x [0, W - 1]`` takes ``extrapolation_value``.
``'bilinear'`` interpolates the four neighbours, ``'nearest'`` rounds half away from zero. The output
is float32 whatever the image dtype (integer images are read as they are stored).

``'bilinear_v2'`` (MindSpore's own variant, measured against MindSpore 2.10) works in whole pixels: a box
spans pixels ``p1 = int(y1 * H)`` to ``p2 = int(y2 * H)`` (truncated), ``L = p2 - p1 + 1`` of them, and crop
row ``i`` samples the centre of its bin, ``p1 + (i + 0.5) * L / crop_h - 0.5``, held inside ``[p1, p2]`` and
then inside the image (never extrapolated); likewise for columns.
"""
import numbers

import jax
import jax.numpy as jnp

from sporax.core.tensor import Tensor
from sporax.ops._dispatch import array_of, describe, wrap
from sporax.ops.functional import colour_space
from sporax.ops.primitive import Primitive, prim_attr_register


def _sample_positions(start, end, size, out_size):
    """Sample coordinates along one axis for every box: (boxes, out_size)."""
    if out_size > 1:
        step = (end - start) * (size - 1) / (out_size - 1)
        return start[:, None] * (size - 1) + jnp.arange(out_size, dtype=jnp.float32)[None, :] * step[:, None]
    return (0.5 * (start + end) * (size - 1))[:, None]


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
        if method not in ("bilinear", "nearest", "bilinear_v2"):
            raise ValueError(f"For 'CropAndResize', 'method' must be 'bilinear', 'nearest' or 'bilinear_v2', "
                             f"but got {method!r}.")
        self.method, self.extrapolation_value = method, float(extrapolation_value)

    def __call__(self, x, boxes, box_index, crop_size):
        image = array_of("CropAndResize", "x", x)
        boxes = array_of("CropAndResize", "boxes", boxes).astype(jnp.float32)
        index = array_of("CropAndResize", "box_index", box_index)
        if image.ndim != 4 or boxes.ndim != 2 or boxes.shape[1] != 4 or index.shape != boxes.shape[:1]:
            raise ValueError(f"For 'CropAndResize', expected x of rank 4, boxes (num_boxes, 4) and box_index "
                             f"(num_boxes,), but got {image.shape}, {boxes.shape} and {index.shape}.")
        if (not isinstance(crop_size, (tuple, list)) or len(crop_size) != 2
                or any(not isinstance(size, int) or size < 1 for size in crop_size)):
            raise ValueError(f"For 'CropAndResize', 'crop_size' must be a tuple of 2 positive ints, "
                             f"but got {crop_size!r}.")
        _, height, width, _ = image.shape
        positions = _pixel_bin_positions if self.method == "bilinear_v2" else _sample_positions
        rows = positions(boxes[:, 0], boxes[:, 2], height, crop_size[0])
        cols = positions(boxes[:, 1], boxes[:, 3], width, crop_size[1])
        pixels = image.astype(jnp.float32)[index]                      # (boxes, H, W, C)
        if self.method == "nearest":
            out = self._gather(pixels, _round_half_away(rows), _round_half_away(cols))
        else:
            top, left = jnp.floor(rows), jnp.floor(cols)
            bottom, right = jnp.ceil(rows), jnp.ceil(cols)
            y_lerp = (rows - top)[:, :, None, None]
            x_lerp = (cols - left)[:, None, :, None]
            upper = self._gather(pixels, top, left) * (1 - x_lerp) + self._gather(pixels, top, right) * x_lerp
            lower = self._gather(pixels, bottom, left) * (1 - x_lerp) + self._gather(pixels, bottom, right) * x_lerp
            out = upper + (lower - upper) * y_lerp
        if self.method == "bilinear_v2":
            return wrap(out)
        inside = (((rows >= 0) & (rows <= height - 1))[:, :, None, None]
                  & ((cols >= 0) & (cols <= width - 1))[:, None, :, None])
        return wrap(jnp.where(inside, out, jnp.float32(self.extrapolation_value)))

    @staticmethod
    def _gather(pixels, rows, cols):
        """pixels[b, rows[b, i], cols[b, j]] (clipped into the image; outside samples are replaced later)."""
        rows = jnp.clip(rows, 0, pixels.shape[1] - 1).astype(jnp.int32)
        cols = jnp.clip(cols, 0, pixels.shape[2] - 1).astype(jnp.int32)
        batch = jnp.arange(pixels.shape[0])[:, None, None]
        return pixels[batch, rows[:, :, None], cols[:, None, :]]


def _pixel_bin_positions(start, end, size, out_size):
    """bilinear_v2's sample coordinates: bin centres over the box's whole pixels, held inside the box."""
    first = jnp.trunc(start * size)
    last = jnp.trunc(end * size)
    count = last - first + 1
    bins = (jnp.arange(out_size, dtype=jnp.float32)[None, :] + 0.5) * (count / out_size)[:, None]
    positions = jnp.maximum(jnp.minimum(first[:, None] + bins - 0.5, last[:, None]), first[:, None])
    return jnp.clip(positions, 0, size - 1)


def _round_half_away(values):
    return jnp.sign(values) * jnp.floor(jnp.abs(values) + 0.5)


class HSVToRGB(Primitive):
    """HSV images (last dimension 3, hue in [0, 1)) to RGB."""

    def __call__(self, x):
        return wrap(colour_space.hsv_to_rgb(colour_space.image_input(self.name, x)))


class AdjustHue(Primitive):
    """Rotate the hue of RGB images (last dimension 3) by ``delta`` (a fraction of a turn, in [-1, 1])."""

    def __call__(self, image, delta):
        array = colour_space.image_input(self.name, image)
        shift = delta._value if isinstance(delta, Tensor) else delta
        hsv = colour_space.rgb_to_hsv(array.astype(jnp.float32))
        hsv = hsv.at[..., 0].set(jnp.mod(hsv[..., 0] + shift, 1.0))
        return wrap(colour_space.hsv_to_rgb(hsv).astype(array.dtype))


class AdjustSaturation(Primitive):
    """Scale the saturation of RGB images (last dimension 3) by ``scale`` (clipped to [0, 1])."""

    def __call__(self, image, scale):
        array = colour_space.image_input(self.name, image)
        factor = scale._value if isinstance(scale, Tensor) else scale
        hsv = colour_space.rgb_to_hsv(array.astype(jnp.float32))
        hsv = hsv.at[..., 1].set(jnp.clip(hsv[..., 1] * factor, 0.0, 1.0))
        return wrap(colour_space.hsv_to_rgb(hsv).astype(array.dtype))


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
        array = array_of(self.name, "x", x)
        kernel = array_of(self.name, "filter", filter)
        if array.ndim != 4 or kernel.ndim != 3 or kernel.shape[0] != array.shape[1]:
            raise ValueError(f"For '{self.name}', expected x (N, C, H, W) and filter (C, kh, kw), but got {describe(x)} "
                             f"and {describe(filter)}.")
        kh, kw = kernel.shape[1:]
        patches = jax.lax.conv_general_dilated_patches(array, (kh, kw), self.stride, self.pad_mode,
                                                       rhs_dilation=self.dilation)
        if self.pad_mode == "SAME":  # padded taps must never win the max
            ones = jax.lax.conv_general_dilated_patches(jnp.ones_like(array), (kh, kw), self.stride, "SAME",
                                                        rhs_dilation=self.dilation)
            patches = jnp.where(ones > 0, patches, -jnp.inf)
        n, _, height, width = patches.shape
        patches = patches.reshape(n, array.shape[1], kh * kw, height, width)
        return wrap(jnp.max(patches + kernel.reshape(1, array.shape[1], kh * kw, 1, 1), axis=2).astype(array.dtype))
