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


def gray_like(image):
    """The luma of ``image`` rounded to its dtype, with the image's shape (channels repeated)."""
    gray = saturate(rgb_to_gray(image), image.dtype)
    return np.repeat(gray[..., None], image.shape[2], axis=2)


def blend(image, other, factor):
    """``image * factor + other * (1 - factor)``, saturated to the image dtype."""
    out = image.astype(np.float32) * np.float32(factor) + np.asarray(other, np.float32) * np.float32(1.0 - factor)
    return saturate(out, image.dtype)


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
    gray = rgb_to_gray(image) if image.ndim == 3 and image.shape[2] == 3 else image.astype(np.float32)
    mean = float(gray.mean())
    if image.dtype.kind in "iu":
        mean = float(np.rint(mean))
    return blend(image, mean, factor)


def adjust_saturation(image, factor):
    return blend(image, gray_like(image), factor)


def adjust_hue(image, factor):
    scale = _max_value(image)
    hsv = rgb_to_hsv(image.astype(np.float64) / scale)
    if image.dtype == np.uint8:
        # OpenCV's 8-bit HSV stores hue as degrees / 2 in [0, 180); shift in those steps.
        hue = np.rint(hsv[..., 0] * 180.0) % 180.0
        hsv[..., 0] = ((hue + np.rint(factor * 180.0)) % 180.0) / 180.0
    else:
        hsv[..., 0] = (hsv[..., 0] + factor) % 1.0
    return saturate(hsv_to_rgb(hsv) * scale, image.dtype)


def adjust_gamma(image, gamma, gain=1.0):
    if image.dtype == np.uint8:
        table = saturate(255.0 * gain * (np.arange(256) / 255.0) ** gamma, np.uint8)
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
    return blend(image, smooth(image).astype(np.float32), factor)


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
    lut = np.rint((cumulative - first) * (255.0 / (total - first)))
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
