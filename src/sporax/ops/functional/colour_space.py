"""Colour-space conversions of float images (RGB/HSV in the last dimension, all channels in [0, 1], hue as a
fraction of a turn): ``hsv_to_rgb``, ``rgb_array_to_hsv`` and the image check the colour Primitives share, and the
op-table entries ``rgb_to_hsv``, ``adjust_hue`` and ``adjust_saturation`` behind the Primitives ``RGBToHSV``,
``AdjustHue`` and ``AdjustSaturation`` (MindSpore has no functional names for them: not exported).

Example:
    >>> import jax.numpy as jnp
    >>> from sporax.ops.functional.colour_space import hsv_to_rgb
    >>> hsv_to_rgb(jnp.array([[[0.0, 1.0, 1.0]]])).tolist()
    [[[1.0, 0.0, 0.0]]]
"""
import colorsys

import jax.numpy as jnp
import numpy as np

from sporax.ops._dispatch import array_of, describe
from sporax.ops.op_table import ANY, FLOAT, Sample, op
from sporax.ops.samples import values


def hsv_to_rgb(array):
    """HSV (last axis, hue as a fraction of a turn) to RGB."""
    hue, saturation, value = array[..., 0], array[..., 1], array[..., 2]
    sector = jnp.floor(hue * 6.0)
    fraction = hue * 6.0 - sector
    p = value * (1 - saturation)
    q = value * (1 - saturation * fraction)
    t = value * (1 - saturation * (1 - fraction))
    index = jnp.mod(sector, 6).astype(jnp.int32)
    red = jnp.choose(index, [value, q, p, p, t, value], mode="clip")
    green = jnp.choose(index, [t, value, value, q, p, p], mode="clip")
    blue = jnp.choose(index, [p, p, t, value, value, q], mode="clip")
    return jnp.stack([red, green, blue], axis=-1)


def rgb_array_to_hsv(array):
    """RGB (last axis) to HSV with hue in [0, 1)."""
    red, green, blue = array[..., 0], array[..., 1], array[..., 2]
    high = jnp.max(array, axis=-1)
    low = jnp.min(array, axis=-1)
    spread = high - low
    safe = jnp.where(spread == 0, 1, spread)
    hue = jnp.where(high == red, (green - blue) / safe,
                    jnp.where(high == green, 2.0 + (blue - red) / safe, 4.0 + (red - green) / safe))
    hue = jnp.where(spread == 0, 0.0, jnp.mod(hue / 6.0, 1.0))
    saturation = jnp.where(high == 0, 0.0, spread / jnp.where(high == 0, 1, high))
    return jnp.stack([hue, saturation, high], axis=-1)


def image_input(op_name, image):
    """The float array of an image with 3 channels in its last dimension (at least 3-D)."""
    array = array_of(op_name, "image", image)
    if array.ndim < 3 or array.shape[-1] != 3:
        raise ValueError(f"For '{op_name}', the image must have at least 3 dimensions with 3 channels last, but got "
                         f"{describe(image)}.")
    if array.dtype.kind != "f":
        raise TypeError(f"For '{op_name}', the image must be a float Tensor, but got {describe(image)}.")
    return array


# --- op-table entries of the colour Primitives --------------------------------------------------
def _numpy_hsv(images):
    flat = np.asarray(images, np.float64).reshape(-1, 3)
    return np.array([colorsys.rgb_to_hsv(*pixel) for pixel in flat]).reshape(np.shape(images))


def _numpy_rgb(hsv):
    flat = np.asarray(hsv, np.float64).reshape(-1, 3)
    return np.array([colorsys.hsv_to_rgb(*pixel) for pixel in flat]).reshape(np.shape(hsv))


def _image_samples(dtype):
    return [Sample((values((2, 3, 3), dtype, 0.05, 0.95),))]


def _adjust_samples(low, high):
    def make(dtype):
        return [Sample((values((2, 2, 3), dtype, 0.05, 0.95), values((), "float32", low, high, seed=1)))]

    return make


def _checked(op_name, image):
    if image.ndim < 3 or image.shape[-1] != 3:
        raise ValueError(f"For '{op_name}', the image must have at least 3 dimensions with 3 channels last, but got "
                         f"shape {tuple(image.shape)}.")
    return image


@op(inputs="images", dtypes=FLOAT, samples=_image_samples, reference=lambda images: _numpy_hsv(images),
    grad_check=False)
def rgb_to_hsv(images):
    """``RGBToHSV``: RGB values in [0, 1] (last axis 3) to HSV, hue as a fraction of a turn."""
    if images.ndim < 1 or images.shape[-1] != 3:
        raise ValueError(f"For 'RGBToHSV', 'images' must be a float Tensor whose last dimension is 3, but got "
                         f"{images.dtype} {tuple(images.shape)}.")
    return rgb_array_to_hsv(images.astype(jnp.float32)).astype(images.dtype)


def _numpy_adjust_hue(image, delta):
    hsv = _numpy_hsv(image)
    hsv[..., 0] = np.mod(hsv[..., 0] + float(delta), 1.0)
    return _numpy_rgb(hsv)


def _numpy_adjust_saturation(image, scale):
    hsv = _numpy_hsv(image)
    hsv[..., 1] = np.clip(hsv[..., 1] * float(scale), 0.0, 1.0)
    return _numpy_rgb(hsv)


@op(inputs=("image", "delta"), dtypes=FLOAT, input_dtypes={"delta": ANY}, scalars="delta",
    samples=_adjust_samples(-0.4, 0.4), reference=_numpy_adjust_hue, grad_check=False)
def adjust_hue(image, delta):
    """``AdjustHue``: rotate the hue of RGB images (last dimension 3) by ``delta``, a fraction of a turn."""
    hsv = rgb_array_to_hsv(_checked("AdjustHue", image).astype(jnp.float32))
    hsv = hsv.at[..., 0].set(jnp.mod(hsv[..., 0] + delta.astype(jnp.float32), 1.0))
    return hsv_to_rgb(hsv).astype(image.dtype)


@op(inputs=("image", "scale"), dtypes=FLOAT, input_dtypes={"scale": ANY}, scalars="scale",
    samples=_adjust_samples(0.2, 1.8), reference=_numpy_adjust_saturation, grad_check=False)
def adjust_saturation(image, scale):
    """``AdjustSaturation``: scale the saturation of RGB images (last dimension 3) by ``scale``, clipped to
    [0, 1]."""
    hsv = rgb_array_to_hsv(_checked("AdjustSaturation", image).astype(jnp.float32))
    hsv = hsv.at[..., 1].set(jnp.clip(hsv[..., 1] * scale.astype(jnp.float32), 0.0, 1.0))
    return hsv_to_rgb(hsv).astype(image.dtype)


def _numpy_adjust_contrast(images, contrast_factor):
    mean = np.mean(np.asarray(images, np.float64), axis=(-3, -2), keepdims=True)
    return (images - mean) * float(contrast_factor) + mean


@op(inputs=("images", "contrast_factor"), dtypes=FLOAT, input_dtypes={"contrast_factor": ANY},
    scalars="contrast_factor", primitive="AdjustContrastv2", samples=_adjust_samples(0.2, 1.8),
    reference=_numpy_adjust_contrast)
def adjust_contrastv2(images, contrast_factor):
    """``AdjustContrastv2``: each channel of (..., H, W, C) images moved away from (or toward) its mean over the
    height and width, ``(x - mean) * contrast_factor + mean``."""
    if images.ndim < 3:
        raise ValueError(f"For 'AdjustContrastv2', 'images' must have at least 3 dimensions (..., H, W, C), but got "
                         f"shape {tuple(images.shape)}.")
    mean = jnp.mean(images.astype(jnp.float32), axis=(-3, -2), keepdims=True)
    return ((images.astype(jnp.float32) - mean) * contrast_factor.astype(jnp.float32) + mean).astype(images.dtype)
