"""Colour-space conversions of float images (RGB/HSV in the last dimension, all channels in [0, 1], hue as a
fraction of a turn): ``hsv_to_rgb``, ``rgb_to_hsv`` and the image check the colour Primitives share.

Example:
    >>> import jax.numpy as jnp
    >>> from sporax.ops.functional.colour_space import hsv_to_rgb
    >>> hsv_to_rgb(jnp.array([[[0.0, 1.0, 1.0]]])).tolist()
    [[[1.0, 0.0, 0.0]]]
"""
import jax.numpy as jnp

from sporax.ops._dispatch import array_of, describe


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


def rgb_to_hsv(array):
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
