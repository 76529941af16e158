"""Enums of ``mindspore.dataset.vision`` and the image checks every vision transform shares."""
import enum

import numpy as np
from sporax.dataset.core.option_enums import int_enum, string_enum
from sporax.dataset.transforms import generic
from PIL import Image


class Inter(enum.IntEnum):
    """Interpolation modes (``LINEAR`` is ``BILINEAR``, ``CUBIC`` is ``BICUBIC``)."""

    NEAREST = 0
    ANTIALIAS = 1
    BILINEAR = 2
    LINEAR = 2
    BICUBIC = 3
    CUBIC = 3
    AREA = 4
    PILCUBIC = 5


Border = string_enum("Border", __name__, "How padding fills the new border.",
                     "constant", "edge", "reflect", "symmetric")


ImageBatchFormat = int_enum("ImageBatchFormat", __name__, "Layout of an image batch.",
                            "NHWC", "NCHW")


SliceMode = int_enum("SliceMode", __name__, "What SlicePatches does with a remainder: pad it or drop it.",
                     "PAD", "DROP")


AutoAugmentPolicy = string_enum("AutoAugmentPolicy", __name__, "The data set an AutoAugment policy was learnt on.",
                                "imagenet", "cifar10", "svhn")


class ImageReadMode(enum.IntEnum):
    """Colour mode for read_image."""

    UNCHANGED = 0
    GRAYSCALE = 1
    COLOR = 2


class ConvertMode(enum.IntEnum):
    """Colour-space conversions of ConvertColor."""

    COLOR_BGR2BGRA = 0
    COLOR_RGB2RGBA = 0
    COLOR_BGRA2BGR = 1
    COLOR_RGBA2RGB = 1
    COLOR_BGR2RGBA = 2
    COLOR_RGB2BGRA = 2
    COLOR_RGBA2BGR = 3
    COLOR_BGRA2RGB = 3
    COLOR_BGR2RGB = 4
    COLOR_RGB2BGR = 4
    COLOR_BGRA2RGBA = 5
    COLOR_RGBA2BGRA = 5
    COLOR_BGR2GRAY = 6
    COLOR_RGB2GRAY = 7
    COLOR_GRAY2BGR = 8
    COLOR_GRAY2RGB = 8
    COLOR_GRAY2BGRA = 9
    COLOR_GRAY2RGBA = 9
    COLOR_BGRA2GRAY = 10
    COLOR_RGBA2GRAY = 11


def is_pil(image):
    """True for a PIL image."""
    return isinstance(image, Image.Image)


def as_image(op_name, image, min_rank=2):
    """Return ``image`` as an <H,W> or <H,W,C> NumPy array, or raise naming ``op_name``."""
    if not isinstance(image, np.ndarray):
        if is_pil(image):
            image = np.asarray(image)
        elif hasattr(image, "asnumpy"):
            image = image.asnumpy()
        else:
            try:
                image = np.asarray(image)
            except (TypeError, ValueError):
                image = None
            if image is None or image.dtype == object:
                raise TypeError(f"{op_name}: expected a NumPy array or PIL image, got {type(image).__name__}.")
    if image.ndim < min_rank or image.ndim > 3:
        raise RuntimeError(f"{op_name}: the image should have shape <H,W> or <H,W,C>, but got shape {image.shape}. "
                           f"You may need to perform Decode first.")
    if image.dtype.kind in "USO":
        raise RuntimeError(f"{op_name}: expected a numeric image, got dtype {image.dtype}. "
                           f"You may need to perform Decode first.")
    return image


def check_size(op_name, size, arg_name="size"):
    """Normalise an int or (height, width) size; each value in [1, 16777216]."""
    if isinstance(size, bool) or not isinstance(size, (int, list, tuple)):
        raise TypeError(f"{op_name}: argument {arg_name} with value {size!r} is not of type [int, list, tuple], "
                        f"but got {type(size)}.")
    values = [size] if isinstance(size, int) else list(size)
    if len(values) not in (1, 2) or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise TypeError(f"{op_name}: {arg_name} should be a single integer or a list/tuple (h, w) of length 2, "
                        f"got {size!r}.")
    for value in values:
        if not 1 <= value <= 16777216:
            raise ValueError(f"{op_name}: Input {arg_name} is not within the required interval of [1, 16777216], "
                             f"got {value}.")
    return values[0] if isinstance(size, int) else tuple(values)


def check_probability(op_name, prob):
    """Validate a probability argument in [0, 1]."""
    if isinstance(prob, bool) or not isinstance(prob, (int, float)):
        raise TypeError(f"{op_name}: argument prob with value {prob!r} is not of type [float, int], "
                        f"but got {type(prob)}.")
    if not 0.0 <= prob <= 1.0:
        raise ValueError(f"{op_name}: Input prob is not within the required interval of [0.0, 1.0], got {prob}.")
    return float(prob)


def check_fill_value(op_name, fill_value):
    """Validate an int or 3-tuple fill value in [0, 255]; return it as an int or tuple."""
    values = (fill_value,) if isinstance(fill_value, int) and not isinstance(fill_value, bool) else fill_value
    if not isinstance(values, (tuple, list)) or len(values) not in (1, 3) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise TypeError(f"{op_name}: fill_value should be a single integer or a 3-tuple of integers, "
                        f"got {fill_value!r}.")
    for value in values:
        if not 0 <= value <= 255:
            raise ValueError(f"{op_name}: Input fill_value is not within the required interval of [0, 255], "
                             f"got {value}.")
    return values[0] if len(values) == 1 else tuple(values)


def fill_for(image, fill_value):
    """The constant to pad ``image`` with: a scalar or a per-channel vector."""
    if isinstance(fill_value, tuple):
        if image.ndim == 3 and image.shape[2] == len(fill_value):
            return np.asarray(fill_value, dtype=image.dtype)
        return np.asarray(fill_value[0], dtype=image.dtype)
    return np.asarray(fill_value, dtype=image.dtype)


def restore_like(result, original):
    """Give back a PIL image when the transform was given one."""
    if is_pil(original) and isinstance(result, np.ndarray):
        return Image.fromarray(result)
    return result


def not_random(func):
    """Mark a Python image function used in ``map`` as deterministic (``vision.not_random``)."""
    return generic.not_random(func)
