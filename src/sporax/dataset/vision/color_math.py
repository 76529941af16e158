"""NumPy colour arithmetic with OpenCV's conventions (what MindSpore applies to NumPy images)."""
import numpy as np


def saturate(values, dtype):
    """Round and clip float results back to an integer ``dtype`` (float dtypes pass through)."""
    dtype = np.dtype(dtype)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return np.clip(np.rint(values), info.min, info.max).astype(dtype)
    return values.astype(dtype, copy=False)


def rgb_to_gray(image):
    """ITU-R 601 luma (0.299 R + 0.587 G + 0.114 B) as float, from an <H,W,3> image."""
    image = image.astype(np.float32, copy=False)
    return image[..., 0] * 0.299 + image[..., 1] * 0.587 + image[..., 2] * 0.114


def gray(image):
    """The luma of an <H,W,3> RGB image in its dtype, as OpenCV's ``cvtColor(RGB2GRAY)`` computes it:
    fixed point with 15 fraction bits for uint8 (the float formula rounds some pixels the other way),
    the float formula rounded for other dtypes."""
    if image.dtype == np.uint8:
        red, green, blue = (image[..., i].astype(np.int32) for i in range(3))
        return ((red * 9798 + green * 19235 + blue * 3735 + (1 << 14)) >> 15).astype(np.uint8)
    return saturate(rgb_to_gray(image), image.dtype)


def gray_like(image):
    """The luma of ``image`` (see ``gray``), with the image's shape (channels repeated)."""
    gray_plane = gray(image)
    return np.repeat(gray_plane[..., None], image.shape[2], axis=2)


def add_weighted(first, alpha, second, beta):
    """``first * alpha + second * beta`` in float32 as OpenCV's ``addWeighted`` computes it on its fused
    multiply-add path: ``fma(second, beta, first * alpha)``, two roundings (a plain sum of two rounded
    products is 1 off on a pixel or two per 16x16 image; recorded on MindSpore 2.10)."""
    inner = np.asarray(first, np.float32) * np.float32(alpha)
    # float32 operands: the product is exact in float64, so one float64 add then float32 is the fused result
    return (np.asarray(second, np.float32).astype(np.float64) * float(np.float32(beta))
            + inner.astype(np.float64)).astype(np.float32)


def blend(image, other, factor):
    """``image * factor + other * (1 - factor)`` (MindSpore's saturation and contrast: OpenCV's
    ``addWeighted(image, factor, other, 1 - factor)``), saturated to the image dtype."""
    return saturate(add_weighted(image, factor, other, 1.0 - factor), image.dtype)


def _max_value(image):
    return 255.0 if image.dtype == np.uint8 or image.dtype.kind == "f" else float(np.iinfo(image.dtype).max)


def rgb_to_hsv(rgb):
    """RGB in [0, 1] (float) to HSV with hue in [0, 1)."""
    red, green, blue = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    high = rgb.max(axis=-1)
    low = rgb.min(axis=-1)
    delta = high - low
    safe = np.where(delta == 0, 1.0, delta)
    hue = np.where(high == red, (green - blue) / safe % 6.0,
                   np.where(high == green, (blue - red) / safe + 2.0, (red - green) / safe + 4.0))
    hue = np.where(delta == 0, 0.0, hue) / 6.0
    saturation = np.where(high == 0, 0.0, delta / np.where(high == 0, 1.0, high))
    return np.stack([hue % 1.0, saturation, high], axis=-1)


def hsv_to_rgb(hsv):
    """HSV (hue in [0, 1)) to RGB in [0, 1]."""
    hue, saturation, value = hsv[..., 0] * 6.0, hsv[..., 1], hsv[..., 2]
    sector = np.floor(hue).astype(np.int64) % 6
    frac = hue - np.floor(hue)
    p = value * (1 - saturation)
    q = value * (1 - saturation * frac)
    t = value * (1 - saturation * (1 - frac))
    choices = [np.stack(c, axis=-1) for c in ((value, t, p), (q, value, p), (p, value, t), (p, q, value),
                                              (t, p, value), (value, p, q))]
    out = np.zeros(hsv.shape, np.float64)
    for index, choice in enumerate(choices):
        out = np.where((sector == index)[..., None], choice, out)
    return out


def adjust_brightness(image, factor):
    return saturate(image.astype(np.float32) * np.float32(factor), image.dtype)


def adjust_contrast(image, factor):
    rgb = image.ndim == 3 and image.shape[2] == 3
    if rgb and image.dtype == np.uint8:
        # MindSpore's kernel: the mean of OpenCV's integer luma, plus 0.5, truncated.
        mean = float(int(gray(image).mean(dtype=np.float64) + 0.5))
        return blend(image, mean, factor)
    mean = float((rgb_to_gray(image) if rgb else image.astype(np.float32)).mean())
    if image.dtype.kind in "iu":
        mean = float(np.rint(mean))
    return blend(image, mean, factor)


def adjust_saturation(image, factor):
    return blend(image, gray_like(image), factor)


def _hsv_tables():
    index = np.arange(256, dtype=np.float64)
    index[0] = np.inf  # OpenCV's tables hold 0 for a zero divisor
    return np.rint((255 << 12) / index).astype(np.int64), np.rint((256 << 12) / (6.0 * index)).astype(np.int64)


_SATURATION_DIV, _HUE_DIV = _hsv_tables()
# OpenCV's HSV->RGB: the (b, g, r) entries of (v, p, q, t) per hue sector.
_SECTORS = np.array([[1, 3, 0], [1, 0, 2], [3, 0, 1], [0, 2, 1], [0, 1, 3], [2, 1, 0]])


def _rgb_to_hsv_full(image):
    """OpenCV's 8-bit ``RGB2HSV_FULL``: integer hue in [0, 255] (256 steps a turn), s and v in [0, 255]."""
    red, green, blue = (image[..., i].astype(np.int64) for i in range(3))
    value = np.maximum(np.maximum(blue, green), red)
    diff = value - np.minimum(np.minimum(blue, green), red)
    half = 1 << 11
    saturation = (diff * _SATURATION_DIV[value] + half) >> 12
    hue = np.where(value == red, green - blue, np.where(value == green, blue - red + 2 * diff, red - green + 4 * diff))
    hue = (hue * _HUE_DIV[diff] + half) >> 12
    return np.clip(np.where(hue < 0, hue + 256, hue), 0, 255), saturation, value


def _hsv_full_to_rgb(hue, saturation, value):
    """OpenCV's 8-bit ``HSV2RGB_FULL`` (float32 arithmetic; its hue scale is 255 steps a turn, not 256)."""
    one = np.float32(1.0)
    sat = saturation.astype(np.float32) * np.float32(1 / 255.0)
    val = value.astype(np.float32) * np.float32(1 / 255.0)
    turns = np.fmod(hue.astype(np.float32) * np.float32(6.0 / 255.0), np.float32(6.0))
    sector = np.floor(turns).astype(np.int64)
    frac = turns - sector.astype(np.float32)
    table = np.stack([val, val * (one - sat), val * (one - sat * frac), val * (one - sat * (one - frac))], -1)
    picks = _SECTORS[sector]
    bgr = np.take_along_axis(table, picks, -1)
    bgr = np.where((sat == 0)[..., None], val[..., None], bgr)
    return saturate(bgr[..., ::-1] * np.float32(255.0), np.uint8)


def adjust_hue(image, factor):
    if image.dtype == np.uint8:
        # MindSpore's kernel: OpenCV's full-range 8-bit HSV, hue shifted by int(factor * 255) modulo 256.
        hue, saturation, value = _rgb_to_hsv_full(image)
        shift = int(np.float32(factor) * np.float32(255.0)) & 0xFF
        return _hsv_full_to_rgb((hue + shift) & 0xFF, saturation, value)
    scale = _max_value(image)
    hsv = rgb_to_hsv(image.astype(np.float64) / scale)
    hsv[..., 0] = (hsv[..., 0] + factor) % 1.0
    return saturate(hsv_to_rgb(hsv) * scale, image.dtype)


def adjust_gamma(image, gamma, gain=1.0):
    if image.dtype == np.uint8:
        # MindSpore 2.10's uint8 table truncates gain * 255.999 * (i / 255) ** gamma (this fits all 8192 values
        # recorded for 8 gammas x 4 gains; a rounded 255 * ... misses about a quarter of them by one).
        table = np.clip(np.floor(255.999 * gain * (np.arange(256) / 255.0) ** gamma), 0, 255).astype(np.uint8)
        return table[image]
    return (gain * np.power(image.astype(np.float64), gamma)).astype(image.dtype)


def smooth(image):
    """Pillow's SMOOTH filter ([[1,1,1],[1,5,1],[1,1,1]] / 13) with the border kept (for sharpness)."""
    source = image.astype(np.float32)
    out = source.copy()
    core = sum(source[1 + dy:source.shape[0] - 1 + dy, 1 + dx:source.shape[1] - 1 + dx]
               for dy in (-1, 0, 1) for dx in (-1, 0, 1)) + 4 * source[1:-1, 1:-1]
    out[1:-1, 1:-1] = core / 13.0
    return saturate(out, image.dtype)


def adjust_sharpness(image, factor):
    # MindSpore weights the smoothed image first: addWeighted(smooth, 1 - factor, image, factor)
    return saturate(add_weighted(smooth(image), 1.0 - factor, image, factor), image.dtype)


def invert(image):
    return (255 - image.astype(np.int64)).astype(image.dtype) if image.dtype.kind in "iu" else 255.0 - image


def posterize(image, bits):
    mask = np.uint8((0xFF << (8 - bits)) & 0xFF)
    return image & mask


def solarize(image, low, high):
    inside = (image >= low) & (image <= high)
    return np.where(inside, invert(image), image).astype(image.dtype)


def equalize_channel(channel):
    """OpenCV's equalizeHist of a uint8 plane (what MindSpore applies per channel)."""
    histogram = np.bincount(channel.ravel(), minlength=256)
    cumulative = np.cumsum(histogram)
    first = cumulative[np.argmax(histogram > 0)]
    total = channel.size
    if total == first:
        return channel
    # float32 scale and products, as OpenCV (float64 rounds some halves the other way)
    scale = np.float32(255.0) / np.float32(total - first)
    lut = np.rint((cumulative - first).astype(np.float32) * scale)
    return np.clip(lut, 0, 255).astype(np.uint8)[channel]


def autocontrast_channel(channel, cutoff, ignore):
    """Pillow's autocontrast of one uint8 plane (``cutoff`` percent clipped from each end)."""
    histogram = np.bincount(channel.ravel(), minlength=256).astype(np.int64)
    for value in ignore:
        histogram[value] = 0
    total = histogram.sum()
    low_cut = total * cutoff[0] // 100
    high_cut = total * cutoff[1] // 100
    cumulative = np.cumsum(histogram)
    low = int(np.searchsorted(cumulative, low_cut, side="right")) if low_cut else int(np.argmax(histogram > 0))
    reverse = np.cumsum(histogram[::-1])
    if high_cut:
        high = 255 - int(np.searchsorted(reverse, high_cut, side="right"))
    else:
        high = 255 - int(np.argmax(histogram[::-1] > 0))
    if high <= low:
        return channel
    scale = np.float32(255.0) / np.float32(high - low)
    offset = -np.float32(low) * scale
    # Truncation of ``x * scale + offset`` in float32 (not rounding), as MindSpore does.
    lut = np.clip((np.arange(256, dtype=np.float32) * scale + offset).astype(np.int64), 0, 255).astype(np.uint8)
    return lut[channel]
