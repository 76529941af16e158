"""Colour transforms (deterministic and random) on RGB images, and the RGB/HSV conversions."""
import numpy as np

from sporax.dataset.core.random import eager_words
from sporax.dataset.engine.sampler_order import shuffle, uniform_float
from sporax.dataset.transforms.base import PythonOperation, TensorOperation, random_generator
from sporax.dataset.vision import color_math
from sporax.dataset.vision.utils import ConvertMode, as_image, check_probability, is_pil, restore_like


def rgb_image(op_name, img):
    """An <H,W,3> array (grayscale is rejected with a clear message)."""
    image = as_image(op_name, img)
    if image.ndim != 3 or image.shape[2] != 3:
        raise RuntimeError(f"{op_name}: expected an RGB image of shape <H,W,3>, got shape {image.shape}.")
    return image


def _check_factor(op_name, name, value, low=0.0, high=float("inf")):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{op_name}: {name} must be a number, got {type(value).__name__}.")
    if not low <= value <= high:
        raise ValueError(f"{op_name}: Input {name} is not within the required interval of [{low}, {high}], "
                         f"got {value}.")
    return float(value)


class _Adjust(TensorOperation):
    """Base of the Adjust* transforms: one factor, checked to lie in [low, high], given to one
    ``color_math`` function. A subclass names them as class keywords."""

    def __init_subclass__(cls, function, argument, low=0.0, high=float("inf"), needs_rgb=True, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._function, cls._arg = staticmethod(function), argument
        cls._low, cls._high, cls._needs_rgb = low, high, needs_rgb

    def __init__(self, factor):
        setattr(self, self._arg, _check_factor(type(self).__name__, self._arg, factor, self._low, self._high))
        self._factor = float(factor)

    def __call__(self, img):
        name = type(self).__name__
        image = rgb_image(name, img) if self._needs_rgb else as_image(name, img)
        return restore_like(type(self)._function(image, self._factor), img)


class AdjustBrightness(_Adjust, function=color_math.adjust_brightness, argument="brightness_factor",
                       needs_rgb=False):
    """Multiply every pixel by ``brightness_factor``."""

    def __init__(self, brightness_factor):
        super().__init__(brightness_factor)


class AdjustContrast(_Adjust, function=color_math.adjust_contrast, argument="contrast_factor"):
    """Blend the image with its mean grey level by ``contrast_factor``."""

    def __init__(self, contrast_factor):
        super().__init__(contrast_factor)


class AdjustSaturation(_Adjust, function=color_math.adjust_saturation, argument="saturation_factor"):
    """Blend the image with its greyscale version by ``saturation_factor``."""

    def __init__(self, saturation_factor):
        super().__init__(saturation_factor)


class AdjustHue(_Adjust, function=color_math.adjust_hue, argument="hue_factor", low=-0.5, high=0.5):
    """Rotate the hue by ``hue_factor`` turns (in [-0.5, 0.5])."""

    def __init__(self, hue_factor):
        super().__init__(hue_factor)


class AdjustSharpness(_Adjust, function=color_math.adjust_sharpness, argument="sharpness_factor",
                      needs_rgb=False):
    """Blend the image with a smoothed copy by ``sharpness_factor`` (0 blurs, 1 keeps, 2 sharpens)."""

    def __init__(self, sharpness_factor):
        super().__init__(sharpness_factor)


class AdjustGamma(TensorOperation):
    """``gain * image ** gamma`` (on [0, 1]-scaled values for uint8 images)."""

    def __init__(self, gamma, gain=1):
        self.gamma = _check_factor("AdjustGamma", "gamma", gamma)
        if isinstance(gain, bool) or not isinstance(gain, (int, float)):
            raise TypeError(f"AdjustGamma: gain must be a number, got {type(gain).__name__}.")
        self.gain = gain

    def __call__(self, img):
        return restore_like(color_math.adjust_gamma(as_image("AdjustGamma", img), self.gamma, self.gain), img)


def _check_range(op_name, name, value, low, high, center=None):
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if value < 0:
            raise ValueError(f"{op_name}: {name} must be non-negative, got {value}.")
        value = (center - value, center + value) if center is not None else (value, value)
        value = (max(value[0], low), min(value[1], high))
    if not (isinstance(value, (list, tuple)) and len(value) == 2) or value[0] > value[1] or value[0] < low \
            or value[1] > high:
        raise ValueError(f"{op_name}: {name} should be a (min, max) pair within [{low}, {high}], got {value!r}.")
    return tuple(float(v) for v in value)


class RandomColorAdjust(TensorOperation):
    """Randomly change brightness, contrast, saturation and hue (factors drawn from the given ranges).

    Under a set dataset seed the draws are MindSpore 2.10's: the four adjustments in a
    ``std::shuffle``d order, then, for each one whose range is not the identity, a float32 factor.
    """

    random = True
    mindspore_draws = True

    def __init__(self, brightness=(1, 1), contrast=(1, 1), saturation=(1, 1), hue=(0, 0)):
        self.brightness = _check_range("RandomColorAdjust", "brightness", brightness, 0, float("inf"), 1)
        self.contrast = _check_range("RandomColorAdjust", "contrast", contrast, 0, float("inf"), 1)
        self.saturation = _check_range("RandomColorAdjust", "saturation", saturation, 0, float("inf"), 1)
        self.hue = _check_range("RandomColorAdjust", "hue", hue, -0.5, 0.5, 0)

    def _steps(self):
        return ((self.brightness, 1.0, color_math.adjust_brightness),
                (self.contrast, 1.0, color_math.adjust_contrast),
                (self.saturation, 1.0, color_math.adjust_saturation),
                (self.hue, 0.0, color_math.adjust_hue))

    def __call__(self, img):
        image = rgb_image("RandomColorAdjust", img)
        words = eager_words(self)
        if words is not None:
            # MindSpore's kernel: shuffle the four names, then one float per enabled adjustment; a
            # range that is exactly the identity draws nothing.
            for (low, high), identity, function in shuffle(list(self._steps()), words):
                if not low == high == identity:
                    image = function(image, uniform_float(words, low, high))
            return restore_like(image, img)
        draw = random_generator().random(4)  # always four draws: same stream whatever is enabled
        for (low, high), identity, function in self._steps():
            factor = low + draw[0] * (high - low)
            draw = draw[1:]
            if factor != identity:
                image = function(image, factor)
        return restore_like(image, img)


class Grayscale(PythonOperation, TensorOperation):
    """Convert an RGB image to greyscale with 1 or 3 output channels."""

    def __init__(self, num_output_channels=1):
        if num_output_channels not in (1, 3):
            raise ValueError(f"Grayscale: num_output_channels must be 1 or 3, got {num_output_channels!r}.")
        self.num_output_channels = num_output_channels

    def __call__(self, img):
        if is_pil(img):
            gray = img.convert("L")
            return gray if self.num_output_channels == 1 else gray.convert("RGB")
        image = rgb_image("Grayscale", img)
        gray = color_math.saturate(color_math.rgb_to_gray(image), image.dtype)
        return gray if self.num_output_channels == 1 else np.repeat(gray[..., None], 3, axis=2)

    def _batch_call(self, images):
        if images.ndim != 4 or images.shape[3] != 3 or not len(images) or images.dtype.kind not in "biuf":
            return NotImplemented
        gray = color_math.saturate(color_math.rgb_to_gray(images), images.dtype)
        return gray if self.num_output_channels == 1 else np.repeat(gray[..., None], 3, axis=3)


class RandomGrayscale(PythonOperation, TensorOperation):
    """Convert to 3-channel greyscale with probability ``prob``."""

    random = True

    def __init__(self, prob=0.1):
        self.prob = check_probability("RandomGrayscale", prob)

    def __call__(self, img):
        if random_generator().random() >= self.prob:
            return img
        if is_pil(img):
            return img.convert("L").convert(img.mode) if img.mode == "RGB" else img.convert("L")
        return Grayscale(3)(img)


class Invert(TensorOperation):
    """Replace every pixel value v by 255 - v."""

    def __call__(self, img):
        return restore_like(color_math.invert(rgb_image("Invert", img)), img)

    def _batch_call(self, images):
        if images.ndim != 4 or images.shape[3] != 3 or not len(images) or images.dtype.kind not in "biuf":
            return NotImplemented
        return color_math.invert(images)


class Equalize(TensorOperation):
    """Equalise the histogram of each channel of a uint8 image."""

    def __call__(self, img):
        image = as_image("Equalize", img)
        if image.dtype != np.uint8:
            raise RuntimeError(f"Equalize: expected a uint8 image, got {image.dtype}.")
        planes = image[..., None] if image.ndim == 2 else image
        out = np.stack([color_math.equalize_channel(planes[..., c]) for c in range(planes.shape[2])], axis=-1)
        return restore_like(out.reshape(image.shape), img)


class AutoContrast(TensorOperation):
    """Stretch each channel so its darkest pixel is 0 and its lightest 255 (after ``cutoff`` percent)."""

    def __init__(self, cutoff=0.0, ignore=None):
        if isinstance(cutoff, (int, float)):
            cutoff = (cutoff, cutoff)
        if not (isinstance(cutoff, (list, tuple)) and len(cutoff) == 2 and all(0 <= c < 50 for c in cutoff)):
            raise ValueError(f"AutoContrast: cutoff is not within the required interval of [0, 50), got {cutoff!r}.")
        if ignore is not None and isinstance(ignore, int):
            ignore = [ignore]
        if ignore is not None and not all(isinstance(v, int) and 0 <= v <= 255 for v in ignore):
            raise ValueError(f"AutoContrast: ignore values must be ints in [0, 255], got {ignore!r}.")
        self.cutoff = tuple(cutoff)
        self.ignore = ignore

    def __call__(self, img):
        image = as_image("AutoContrast", img)
        if image.dtype != np.uint8:
            raise RuntimeError(f"AutoContrast: expected a uint8 image, got {image.dtype}.")
        planes = image[..., None] if image.ndim == 2 else image
        out = np.stack([color_math.autocontrast_channel(planes[..., c], self.cutoff, self.ignore or [])
                        for c in range(planes.shape[2])], axis=-1)
        return restore_like(out.reshape(image.shape), img)


class Posterize(TensorOperation):
    """Keep only the ``bits`` most significant bits of each uint8 channel."""

    def __init__(self, bits):
        if isinstance(bits, bool) or not isinstance(bits, int) or not 0 <= bits <= 8:
            raise ValueError(f"Posterize: bits must be an int in [0, 8], got {bits!r}.")
        self.bits = bits

    def __call__(self, img):
        image = as_image("Posterize", img)
        if image.dtype != np.uint8:
            raise RuntimeError(f"Posterize: expected a uint8 image, got {image.dtype}.")
        return restore_like(color_math.posterize(image, self.bits), img)


class Solarize(TensorOperation):
    """Invert the pixels whose value lies within ``threshold`` (a (min, max) pair or a single min)."""

    def __init__(self, threshold):
        if isinstance(threshold, (int, float)) and not isinstance(threshold, bool):
            threshold = (threshold, 255)
        if not (isinstance(threshold, (list, tuple)) and len(threshold) == 2 and 0 <= threshold[0] <= threshold[1]
                <= 255):
            raise ValueError(f"Solarize: threshold must be (min, max) with 0 <= min <= max <= 255, got {threshold!r}.")
        self.threshold = tuple(threshold)

    def __call__(self, img):
        image = as_image("Solarize", img)
        return restore_like(color_math.solarize(image, *self.threshold), img)


_CONVERSIONS = {
    ConvertMode.COLOR_BGR2BGRA: lambda im: np.concatenate([im, _alpha(im)], axis=2),
    ConvertMode.COLOR_BGRA2BGR: lambda im: im[..., :3],
    ConvertMode.COLOR_BGR2RGBA: lambda im: np.concatenate([im[..., 2::-1], _alpha(im)], axis=2),
    ConvertMode.COLOR_RGBA2BGR: lambda im: im[..., 2::-1],
    ConvertMode.COLOR_BGR2RGB: lambda im: im[..., ::-1],
    ConvertMode.COLOR_BGRA2RGBA: lambda im: im[..., [2, 1, 0, 3]],
    ConvertMode.COLOR_BGR2GRAY: lambda im: color_math.gray(im[..., ::-1]),
    ConvertMode.COLOR_RGB2GRAY: lambda im: color_math.gray(im),
    ConvertMode.COLOR_GRAY2BGR: lambda im: np.repeat(_plane(im)[..., None], 3, axis=2),
    ConvertMode.COLOR_GRAY2BGRA: lambda im: np.concatenate([np.repeat(_plane(im)[..., None], 3, axis=2),
                                                            _alpha(_plane(im)[..., None])], axis=2),
    ConvertMode.COLOR_BGRA2GRAY: lambda im: color_math.gray(im[..., 2::-1]),
    ConvertMode.COLOR_RGBA2GRAY: lambda im: color_math.gray(im[..., :3]),
}
_IN_CHANNELS = {ConvertMode.COLOR_BGR2BGRA: 3, ConvertMode.COLOR_BGRA2BGR: 4, ConvertMode.COLOR_BGR2RGBA: 3,
                ConvertMode.COLOR_RGBA2BGR: 4, ConvertMode.COLOR_BGR2RGB: 3, ConvertMode.COLOR_BGRA2RGBA: 4,
                ConvertMode.COLOR_BGR2GRAY: 3, ConvertMode.COLOR_RGB2GRAY: 3, ConvertMode.COLOR_GRAY2BGR: 1,
                ConvertMode.COLOR_GRAY2BGRA: 1, ConvertMode.COLOR_BGRA2GRAY: 4, ConvertMode.COLOR_RGBA2GRAY: 4}


def _alpha(image):
    full = 255 if image.dtype.kind in "iu" else 1.0
    return np.full(image.shape[:2] + (1,), full, image.dtype)


def _plane(image):
    return image if image.ndim == 2 else image[..., 0]


class ConvertColor(TensorOperation):
    """Convert between colour spaces (RGB/BGR/RGBA/BGRA/GRAY), as OpenCV's cvtColor."""

    def __init__(self, convert_mode):
        if not isinstance(convert_mode, ConvertMode):
            raise TypeError(f"ConvertColor: convert_mode should be a vision.ConvertMode, got {convert_mode!r}.")
        self.convert_mode = convert_mode

    def __call__(self, img):
        image = as_image("ConvertColor", img)
        channels = 1 if image.ndim == 2 else image.shape[2]
        if channels != _IN_CHANNELS[self.convert_mode]:
            raise RuntimeError(f"ConvertColor: {self.convert_mode.name} expects {_IN_CHANNELS[self.convert_mode]} "
                               f"channels, got an image of shape {image.shape}.")
        return np.ascontiguousarray(_CONVERSIONS[self.convert_mode](image))


def _convert_channels(name, convert, images, is_hwc):
    """``convert`` (3 channels last -> 3 channels last) on float64 ``images``, CHW unless ``is_hwc``."""
    image = np.asarray(images, np.float64)
    hwc = image if is_hwc else np.moveaxis(image, -3, -1)
    if hwc.shape[-1] != 3:
        raise RuntimeError(f"{name}: expected 3 channels, got shape {image.shape}.")
    converted = convert(hwc)
    return converted if is_hwc else np.moveaxis(converted, -1, -3)


class RgbToHsv(PythonOperation, TensorOperation):
    """RGB to HSV (hue and saturation in [0, 1], value unscaled), float64; CHW unless ``is_hwc``."""

    def __init__(self, is_hwc=False):
        self.is_hwc = is_hwc

    def __call__(self, rgb_imgs):
        return _convert_channels("RgbToHsv", color_math.rgb_to_hsv, rgb_imgs, self.is_hwc)


class HsvToRgb(PythonOperation, TensorOperation):
    """HSV (as produced by RgbToHsv) back to RGB, float64; CHW unless ``is_hwc``."""

    def __init__(self, is_hwc=False):
        self.is_hwc = is_hwc

    def __call__(self, hsv_imgs):
        return _convert_channels("HsvToRgb", color_math.hsv_to_rgb, hsv_imgs, self.is_hwc)
