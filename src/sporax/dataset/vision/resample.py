"""Separable resampling of NumPy images with MindSpore's (OpenCV's) interpolation rules.

MindSpore resizes NumPy images with OpenCV's ``cv::resize`` conventions; this module reproduces
them per axis: each output index reads a few input indices (``taps``) with fixed weights, so a
resize is two vectorised gathers (columns, then rows). Taps are cached per (in, out, mode).
Pillow is used for the Pillow-defined modes (ANTIALIAS, PILCUBIC) and for PIL images.

The kernels work on stacks <N,H,W,C>: ``resize_batch`` resizes a whole block of rows in one go
(the map engine's ``_batch_call`` path) and ``resize_array`` is the same code on a stack of one,
so both give the same bytes (all arithmetic is element by element; the 8-bit path is exact
integer arithmetic).
"""
import functools

import numpy as np
from PIL import Image

from sporax.dataset.vision.utils import Inter


@functools.lru_cache(maxsize=256)
def nearest_taps(size_in, size_out):
    """OpenCV INTER_NEAREST: source = floor(dst * (1 / (out / in))).

    The step is the inverse of the double ratio out/in, as cv::resize computes it, not in/out: for 52 -> 20
    rows it is 2.5999999999999996, so output row 5 reads row 12 where 5 * 2.6 would read 13.
    """
    scale = 1.0 / (size_out / size_in)
    index = np.minimum(np.floor(np.arange(size_out) * scale).astype(np.int64), size_in - 1)
    return index[:, None], np.ones((size_out, 1), np.float32)


@functools.lru_cache(maxsize=256)
def linear_taps(size_in, size_out, reset_edges=True):
    """OpenCV INTER_LINEAR: half-pixel centres, two taps, indices clamped at the edges.

    Float images reset the weight of a clamped edge tap to 0 (OpenCV's float kernel); the 8-bit
    fixed-point kernel keeps it (``reset_edges=False``), which matters for its rounding.
    """
    # cv::resize: the step is 1 / (out / in) and each source position a float32
    scale = 1.0 / (size_out / size_in)
    position = ((np.arange(size_out) + 0.5) * scale - 0.5).astype(np.float32)
    left = np.floor(position).astype(np.int64)
    frac = position - left
    if reset_edges:
        frac = np.where((left < 0) | (left >= size_in - 1), 0.0, frac)
    index = np.clip(np.stack([left, left + 1], axis=1), 0, size_in - 1)
    weight = np.stack([1.0 - frac, frac], axis=1)
    return index, weight


def _cubic(x, a=-0.75):
    x = np.abs(x)
    return np.where(x <= 1, ((a + 2) * x - (a + 3)) * x * x + 1,
                    np.where(x < 2, ((a * x - 5 * a) * x + 8 * a) * x - 4 * a, 0.0))


@functools.lru_cache(maxsize=256)
def cubic_taps(size_in, size_out):
    """OpenCV INTER_CUBIC: four taps with a = -0.75, indices clamped to the edge."""
    scale = 1.0 / (size_out / size_in)
    position = ((np.arange(size_out) + 0.5) * scale - 0.5).astype(np.float32)
    left = np.floor(position).astype(np.int64)
    frac = position - left
    offsets = np.arange(-1, 3)
    index = np.clip(left[:, None] + offsets, 0, size_in - 1)
    # OpenCV's interpolateCubic, in float32 as it computes them; the last weight is 1 minus the others.
    x, a = frac.astype(np.float32), np.float32(-0.75)
    first = ((a * (x + 1) - 5 * a) * (x + 1) + 8 * a) * (x + 1) - 4 * a
    second = ((a + 2) * x - (a + 3)) * x * x + 1
    third = ((a + 2) * (1 - x) - (a + 3)) * (1 - x) * (1 - x) + 1
    weight = np.stack([first, second, third, 1 - first - second - third], axis=1)
    return index, weight


@functools.lru_cache(maxsize=256)
def area_taps(size_in, size_out):
    """OpenCV INTER_AREA when shrinking: each output averages the input area it covers."""
    scale = size_in / size_out
    start = np.arange(size_out) * scale
    end = start + scale
    first = np.floor(start).astype(np.int64)
    count = int(np.ceil(scale)) + 1
    index = first[:, None] + np.arange(count)
    overlap = np.minimum(index + 1, end[:, None]) - np.maximum(index, start[:, None])
    weight = np.clip(overlap, 0.0, None) / scale
    index = np.minimum(index, size_in - 1)
    return index, weight


@functools.lru_cache(maxsize=256)
def area_linear_taps(size_in, size_out):
    """OpenCV INTER_AREA when enlarging: linear interpolation with sharpened weights."""
    inverse = size_out / size_in
    scale = 1.0 / inverse  # cv::resize's step; the fraction is then a float32, as OpenCV casts it
    left = np.floor(np.arange(size_out) * scale).astype(np.int64)
    frac = ((np.arange(size_out) + 1) - (left + 1) * inverse).astype(np.float32)
    frac = np.where(frac <= 0, 0.0, frac - np.floor(frac))
    frac = np.where(left >= size_in - 1, 0.0, frac)
    left = np.minimum(left, size_in - 1)
    index = np.stack([left, np.minimum(left + 1, size_in - 1)], axis=1)
    weight = np.stack([1.0 - frac, frac], axis=1)
    return index, weight


def _tap_weights(weight, axis, channels, dtype):
    """Per-tap weight arrays that broadcast against an <N,H,W,C> array along ``axis`` (1 rows, 2 columns).

    Column weights are materialised across the channels so NumPy's inner loop runs over whole
    rows (w * C) instead of C elements at a time.
    """
    weight = weight.astype(dtype)
    if axis == 1:
        return [weight[:, tap].reshape(-1, 1, 1) for tap in range(weight.shape[1])]
    return [np.repeat(weight[:, tap][:, None], channels, axis=1) for tap in range(weight.shape[1])]


def _take_columns(images, index):
    """``images[:, :, index]`` for an <N,H,W,C> array, moving whole pixels (not C items at a time)."""
    count, height, width, channels = images.shape
    if channels == 1:
        return np.take(images, index, axis=2)
    images = np.ascontiguousarray(images)
    pixels = images.view(np.dtype((np.void, channels * images.itemsize))).reshape(count, height, width)
    taken = np.take(pixels, index, axis=2)
    return taken.view(images.dtype).reshape(count, height, len(index), channels)


def _take(images, index, axis):
    return _take_columns(images, index) if axis == 2 else np.take(images, index, axis=1)


def _apply_axis(images, taps, axis):
    """Interpolate <N,H,W,C> ``images`` along ``axis`` (1 rows, 2 columns) in float32, one tap at a time."""
    index, weight = taps
    if index.shape[1] == 1:
        return _take(images, index[:, 0], axis)
    weights = _tap_weights(weight, axis, images.shape[3], np.float32)
    out = _take(images, index[:, 0], axis) * weights[0]
    for tap in range(1, index.shape[1]):
        out += _take(images, index[:, tap], axis) * weights[tap]
    return out


_COEF_SCALE = 2048  # OpenCV's INTER_RESIZE_COEF_SCALE: 11-bit fixed-point weights for 8-bit images


@functools.lru_cache(maxsize=256)
def _fixed_point(taps_function, size_in, size_out, *args):
    """Integer (11-bit fixed-point) weights of ``taps_function(size_in, size_out, *args)``."""
    index, weight = taps_function(size_in, size_out, *args)
    return index, np.rint(weight * _COEF_SCALE)


def _resize_uint8(images, rows, cols, vectorised_rounding):
    """OpenCV's fixed-point 8-bit resize of <N,H,W,C> images: integer weights, integer row sums, a final shift.

    ``rows``/``cols`` are (index, fixed-point weight) pairs. ``vectorised_rounding`` reproduces the
    two-step shift of the SIMD two-tap kernel (int32 is enough there); otherwise (cubic) the vertical
    sum is OpenCV's float32 one. Every step is element by element, so a batch gives the same bytes as
    its images one at a time.
    """
    row_index, row_weight = rows
    col_index, col_weight = cols
    col_weights = _tap_weights(col_weight, 2, images.shape[3], np.int32)
    horizontal = _take_columns(images, col_index[:, 0]).astype(np.int32) * col_weights[0]
    for tap in range(1, col_index.shape[1]):
        horizontal += _take_columns(images, col_index[:, tap]).astype(np.int32) * col_weights[tap]
    if vectorised_rounding:
        row_weights = _tap_weights(row_weight, 1, 1, np.int32)
        horizontal >>= 4
        out = (np.take(horizontal, row_index[:, 0], axis=1) * row_weights[0]) >> 16
        for tap in range(1, row_index.shape[1]):
            out += (np.take(horizontal, row_index[:, tap], axis=1) * row_weights[tap]) >> 16
        out += 2
        out >>= 2
    else:
        # OpenCV's vectorised cubic column pass: float32 weights beta / 2**22, summed from the last tap to
        # the first (a multiply, then an add), rounded half to even
        row_weights = [weight * np.float32(1.0 / (1 << 22)) for weight in _tap_weights(row_weight, 1, 1, np.float32)]
        last = row_index.shape[1] - 1
        out = np.take(horizontal, row_index[:, last], axis=1).astype(np.float32) * row_weights[last]
        for tap in range(last - 1, -1, -1):
            out = np.take(horizontal, row_index[:, tap], axis=1).astype(np.float32) * row_weights[tap] + out
        out = np.rint(out)
        out = _cubic_scalar_tail(out, horizontal, row_index, row_weight)
    return np.clip(out, 0, 255).astype(np.uint8)


_CUBIC_LANES = 8  # elements per vector step of OpenCV's cubic column pass (AVX2 float32)


def _cubic_scalar_tail(out, horizontal, row_index, row_weight):
    """The last (W * C) % 8 elements of each output row: OpenCV's scalar loop, an exact integer sum shifted by 22."""
    count, _, width, channels = horizontal.shape
    elements = width * channels
    tail = elements % _CUBIC_LANES
    if tail == 0:
        return out
    flat = horizontal.reshape(count, horizontal.shape[1], elements)[:, :, elements - tail:].astype(np.float64)
    exact = sum(np.take(flat, row_index[:, tap], axis=1) * row_weight[:, tap].reshape(-1, 1)
                for tap in range(row_index.shape[1]))
    out = out.reshape(count, out.shape[1], elements)
    out[:, :, elements - tail:] = np.floor((exact + (1 << 21)) / (1 << 22))
    return out.reshape(count, out.shape[1], width, channels)


def _finish(result, dtype):
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return np.clip(np.rint(result), info.min, info.max).astype(dtype)
    return result.astype(dtype, copy=False)


def _taps_for(mode, size_in, size_out, shrinking):
    if mode == Inter.NEAREST:
        return nearest_taps(size_in, size_out)
    if mode == Inter.BILINEAR:
        return linear_taps(size_in, size_out)
    if mode == Inter.BICUBIC:
        return cubic_taps(size_in, size_out)
    # AREA: box averaging only when neither axis grows; otherwise OpenCV's sharpened linear.
    return area_taps(size_in, size_out) if shrinking else area_linear_taps(size_in, size_out)


def _fixed_taps_for(mode, size_in, size_out, shrinking):
    if mode == Inter.BILINEAR:  # the 8-bit kernel keeps the weight of clamped edge taps
        return _fixed_point(linear_taps, size_in, size_out, False)
    if mode == Inter.BICUBIC:
        return _fixed_point(cubic_taps, size_in, size_out)
    return _fixed_point(area_linear_taps, size_in, size_out)


def _resize_with_pillow(image, height, width, mode):
    resample = Image.LANCZOS if mode == Inter.ANTIALIAS else Image.BICUBIC
    if image.dtype == np.uint8 and (image.ndim == 2 or image.shape[2] in (3, 4)):
        return np.asarray(Image.fromarray(image).resize((width, height), resample))
    # Other dtypes and channel counts: one float plane at a time (Pillow mode "F").
    planes = image[..., None] if image.ndim == 2 else image
    out = np.stack([np.asarray(Image.fromarray(planes[..., c].astype(np.float32), mode="F").resize(
        (width, height), resample)) for c in range(planes.shape[2])], axis=-1)
    out = _finish(out, image.dtype)
    return out[..., 0] if image.ndim == 2 else out


_CHUNK_ELEMENTS = 1 << 16  # intermediates per chunk of a batch: small enough to stay in the CPU caches


def resize_batch(images, height, width, mode=Inter.BILINEAR):
    """Resize a stack of images, <N,H,W> or <N,H,W,C>, to (height, width): row i equals
    ``resize_array(images[i], ...)`` bit for bit (same taps, same arithmetic, element by element)."""
    mode = mode if type(mode) is Inter else Inter(mode)
    size_h, size_w = images.shape[1:3]
    if (size_h, size_w) == (height, width) and mode != Inter.ANTIALIAS:
        return images.copy()
    if mode in (Inter.ANTIALIAS, Inter.PILCUBIC):
        return np.stack([_resize_with_pillow(image, height, width, mode) for image in images])
    channels = images.shape[3] if images.ndim == 4 else 1
    chunk = max(1, _CHUNK_ELEMENTS // (max(size_h, height) * max(size_w, width) * channels))
    if len(images) <= chunk:
        return _resize_stack(images, height, width, mode)
    # Large images: a few at a time, so the int32/float intermediates do not spill out of cache.
    first = _resize_stack(images[:chunk], height, width, mode)
    out = np.empty((len(images),) + first.shape[1:], first.dtype)
    out[:chunk] = first
    for begin in range(chunk, len(images), chunk):
        out[begin:begin + chunk] = _resize_stack(images[begin:begin + chunk], height, width, mode)
    return out


def _resize_stack(images, height, width, mode):
    """resize_batch for the OpenCV-defined modes, all images at once."""
    size_h, size_w = images.shape[1:3]
    # Work on <N,H,W,C>; a batch of <H,W> images gets a channel axis of 1 for the duration.
    planes = images[..., None] if images.ndim == 3 else images
    shrinking = height <= size_h and width <= size_w
    if mode == Inter.NEAREST:
        rows, cols = nearest_taps(size_h, height), nearest_taps(size_w, width)
        out = _take_columns(np.take(planes, rows[0][:, 0], axis=1), cols[0][:, 0])
    elif mode == Inter.AREA and planes.dtype == np.uint8 and (size_h, size_w) == (2 * height, 2 * width):
        # OpenCV's 2x2 area kernel for 8 bits: (a + b + c + d + 2) >> 2, halves rounded up (the float
        # path rounds them to even)
        wide = planes.astype(np.uint16)
        out = ((wide[:, 0::2, 0::2] + wide[:, 1::2, 0::2] + wide[:, 0::2, 1::2] + wide[:, 1::2, 1::2] + 2)
               >> 2).astype(np.uint8)
    elif planes.dtype == np.uint8 and not (mode == Inter.AREA and shrinking):
        out = _resize_uint8(planes, _fixed_taps_for(mode, size_h, height, shrinking),
                            _fixed_taps_for(mode, size_w, width, shrinking), vectorised_rounding=mode != Inter.BICUBIC)
    else:
        rows = _taps_for(mode, size_h, height, shrinking)
        cols = _taps_for(mode, size_w, width, shrinking)
        source = planes if planes.dtype in (np.float32, np.float64) else planes.astype(np.float32)
        # Columns first, then rows (OpenCV's order, which fixes the float rounding).
        out = _finish(_apply_axis(_apply_axis(source, cols, 2), rows, 1), images.dtype)
    return out[..., 0] if images.ndim == 3 else out


def resize_array(image, height, width, mode=Inter.BILINEAR):
    """Resize an <H,W> or <H,W,C> NumPy image to (height, width) with interpolation ``mode``."""
    mode = mode if type(mode) is Inter else Inter(mode)
    if mode in (Inter.ANTIALIAS, Inter.PILCUBIC):
        if image.shape[:2] == (height, width) and mode != Inter.ANTIALIAS:
            return image.copy()
        return _resize_with_pillow(image, height, width, mode)
    return resize_batch(image[None], height, width, mode)[0]


PIL_FILTERS = {Inter.NEAREST: Image.NEAREST, Inter.BILINEAR: Image.BILINEAR, Inter.BICUBIC: Image.BICUBIC,
               Inter.ANTIALIAS: Image.LANCZOS}


def resize_pil(op_name, image, height, width, mode):
    """Resize a PIL image with Pillow (MindSpore's behaviour for PIL input)."""
    if Inter(mode) not in PIL_FILTERS:
        raise TypeError(f"{op_name}: interpolation {Inter(mode).name} is not supported with PIL input; use "
                        f"NEAREST, BILINEAR, BICUBIC or ANTIALIAS, or pass a NumPy array.")
    return image.resize((width, height), PIL_FILTERS[Inter(mode)])
