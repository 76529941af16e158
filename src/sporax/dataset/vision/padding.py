"""Padding of NumPy images (shared by Pad, RandomCrop, CenterCrop and SlicePatches)."""
import numpy as np

from sporax.dataset.vision.utils import Border, fill_for

_NUMPY_MODES = {Border.EDGE: "edge", Border.REFLECT: "reflect", Border.SYMMETRIC: "symmetric"}


def parse_padding(op_name, padding):
    """Return (left, top, right, bottom) from an int, a 2-sequence (left/right, top/bottom) or a 4-sequence."""
    if isinstance(padding, int) and not isinstance(padding, bool):
        values = (padding,) * 4
    elif isinstance(padding, (list, tuple)) and len(padding) in (2, 4) and all(
            isinstance(v, int) and not isinstance(v, bool) for v in padding):
        values = tuple(padding) * 2 if len(padding) == 2 else tuple(padding)
    else:
        raise TypeError(f"{op_name}: padding should be an int or a list/tuple of 2 or 4 ints, got {padding!r}.")
    for value in values:
        if not 0 <= value <= 2147483647:
            raise ValueError(f"{op_name}: Input padding is not within the required interval of [0, 2147483647], "
                             f"got {value}.")
    return values


def check_border(op_name, padding_mode):
    """Validate a Border value."""
    if not isinstance(padding_mode, Border):
        raise TypeError(f"{op_name}: padding_mode should be a vision.Border, got {padding_mode!r}.")
    return padding_mode


def pad_image(image, left, top, right, bottom, fill_value=0, padding_mode=Border.CONSTANT):
    """Pad an <H,W> or <H,W,C> image; ``fill_value`` (int or per-channel tuple) for CONSTANT."""
    if not (left or top or right or bottom):
        return image
    if padding_mode == Border.CONSTANT:
        height, width = image.shape[:2]
        out = np.empty((height + top + bottom, width + left + right) + image.shape[2:], image.dtype)
        out[...] = fill_for(image, fill_value)
        out[top:top + height, left:left + width] = image
        return out
    widths = [(top, bottom), (left, right)] + [(0, 0)] * (image.ndim - 2)
    return np.pad(image, widths, mode=_NUMPY_MODES[padding_mode])


def pad_batch(images, left, top, right, bottom, fill_value=0, padding_mode=Border.CONSTANT):
    """``pad_image`` of every image of a stack (<N,H,W> or <N,H,W,C>), the same bytes row by row."""
    if not (left or top or right or bottom):
        return images
    if padding_mode == Border.CONSTANT:
        count, height, width = images.shape[:3]
        out = np.empty((count, height + top + bottom, width + left + right) + images.shape[3:], images.dtype)
        row = images[0] if len(images) else np.empty(images.shape[1:], images.dtype)
        out[...] = fill_for(row, fill_value)  # a row's rank and channels decide the fill, as for pad_image
        out[:, top:top + height, left:left + width] = images
        return out
    widths = [(0, 0), (top, bottom), (left, right)] + [(0, 0)] * (images.ndim - 3)
    return np.pad(images, widths, mode=_NUMPY_MODES[padding_mode])
