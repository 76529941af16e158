"""Random geometric transforms (crops, flips, rotation, random resize, affine and perspective warps).

Every transform draws a fixed number of uniform doubles per row from the pipeline generator, so
the per-row path and the batched ``_batch_call`` path (``rng.random((rows, k))``) consume the
generator identically.
"""
import math

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from sporax.dataset.core.random import eager_words
from sporax.dataset.engine.sampler_order import below, canonical, uniform_float
from sporax.dataset.transforms.base import PythonOperation, TensorOperation, random_generator
from sporax.dataset.vision.decode import decode_image
from sporax.dataset.vision.geometry import (affine_image, check_inter, check_rotation_args, crop_array,
                                            perspective_image, resize, rotate)
from sporax.dataset.vision.padding import check_border, pad_batch, pad_image, parse_padding
from sporax.dataset.vision.resample import resize_array
from sporax.dataset.vision.utils import (Border, Inter, as_image, check_fill_value, check_probability, check_size,
                                         is_pil, restore_like)


def _pick(uniform, count):
    """An integer in [0, count) from a uniform double in [0, 1)."""
    return np.minimum(np.asarray(uniform * count).astype(np.int64), count - 1)


class RandomCrop(TensorOperation):
    """Pad (optionally), then crop a random ``size`` region of the image."""

    random = True
    mindspore_draws = True  # under a set seed, draws as MindSpore's kernel (eager and in a pipeline)

    def __init__(self, size, padding=None, pad_if_needed=False, fill_value=0, padding_mode=Border.CONSTANT):
        self.size = check_size("RandomCrop", size)
        self.padding = None if padding is None else parse_padding("RandomCrop", padding)
        if not isinstance(pad_if_needed, bool):
            raise TypeError(f"RandomCrop: pad_if_needed must be a bool, got {type(pad_if_needed).__name__}.")
        self.pad_if_needed = pad_if_needed
        self.fill_value = check_fill_value("RandomCrop", fill_value)
        self.padding_mode = check_border("RandomCrop", padding_mode)
        self._crop = (self.size, self.size) if isinstance(self.size, int) else self.size

    def _padding_for(self, height, width):
        left, top, right, bottom = self.padding or (0, 0, 0, 0)
        crop_h, crop_w = self._crop
        if self.pad_if_needed:
            # Too small after padding: pad both sides by the shortfall (MindSpore's rule).
            if height + top + bottom < crop_h:
                extra = crop_h - (height + top + bottom)
                top, bottom = top + extra, bottom + extra
            if width + left + right < crop_w:
                extra = crop_w - (width + left + right)
                left, right = left + extra, right + extra
        if height + top + bottom < crop_h or width + left + right < crop_w:
            raise RuntimeError(f"RandomCrop: invalid crop size, crop size is bigger than the image dimensions, got "
                               f"crop height: {crop_h}, crop width: {crop_w}, padded image size: "
                               f"{(height + top + bottom, width + left + right)}. Use pad_if_needed=True or padding.")
        return left, top, right, bottom

    def _crop_image(self, image):
        """(crop, shift): the crop and the (y, x) that maps original coordinates into it (y - shift)."""
        left, top, right, bottom = self._padding_for(*image.shape[:2])
        image = pad_image(image, left, top, right, bottom, self.fill_value, self.padding_mode)
        crop_h, crop_w = self._crop
        words = eager_words(self)
        if words is not None:  # MindSpore's eager draws: x, then y, from std::mt19937(seed)
            x = below(words, image.shape[1] - crop_w + 1)
            y = below(words, image.shape[0] - crop_h + 1)
        else:
            draw = random_generator().random(2)
            y = int(_pick(draw[0], image.shape[0] - crop_h + 1))
            x = int(_pick(draw[1], image.shape[1] - crop_w + 1))
        return np.ascontiguousarray(crop_array(image, y, x, crop_h, crop_w)), (y - top, x - left)

    def __call__(self, img):
        return restore_like(self._crop_image(as_image("RandomCrop", img))[0], img)

    def _batch_call(self, images):
        """Crop a stacked block (rows, H, W[, C]) at once."""
        if images.ndim not in (3, 4):
            return NotImplemented
        count, height, width = images.shape[:3]
        left, top, right, bottom = self._padding_for(height, width)
        crop_h, crop_w = self._crop
        draw = random_generator().random((count, 2))
        ys = _pick(draw[:, 0], height + top + bottom - crop_h + 1)
        xs = _pick(draw[:, 1], width + left + right - crop_w + 1)
        padded = pad_batch(images, left, top, right, bottom, self.fill_value, self.padding_mode)
        # Every crop window of every image as a strided view (pixel rows flattened to W * C items, so
        # each selected crop row is one contiguous run); one gather then copies the chosen windows.
        channels = images.shape[3] if images.ndim == 4 else 1
        rows = padded.reshape(count, padded.shape[1], padded.shape[2] * channels)
        windows = sliding_window_view(rows, (crop_h, crop_w * channels), axis=(1, 2))
        out = windows[np.arange(count), ys, xs * channels]
        return out.reshape((count, crop_h, crop_w) + images.shape[3:])


class _RandomFlip(TensorOperation):
    random = True
    mindspore_draws = True
    _axis = 1
    _pil_method = 0

    def __init__(self, prob=0.5):
        self.prob = check_probability(type(self).__name__, prob)

    def __call__(self, img):
        words = eager_words(self)
        # MindSpore's eager draw: std::bernoulli_distribution over two std::mt19937(seed) words.
        flip = canonical(words) < self.prob if words is not None else random_generator().random() < self.prob
        if is_pil(img):
            return img.transpose(self._pil_method) if flip else img
        image = as_image(type(self).__name__, img)
        return np.flip(image, self._axis).copy() if flip else image

    def _batch_call(self, images):
        if images.ndim < 3:
            return NotImplemented
        flip = random_generator().random(images.shape[0]) < self.prob
        if not flip.any():
            return images
        source = images
        if images.ndim == 4 and images.flags.c_contiguous:
            # View each pixel's channels as one opaque item so the flip copies pixels, not bytes.
            source = images.view(np.dtype((np.void, images.shape[3] * images.itemsize))).reshape(images.shape[:3])
        out = source.copy()
        out[flip] = np.flip(source[flip], self._axis + 1)
        return out.view(images.dtype).reshape(images.shape) if source is not images else out


class RandomHorizontalFlip(_RandomFlip):
    """Mirror the image left to right with probability ``prob``."""

    _axis = 1
    _pil_method = 0


class RandomVerticalFlip(_RandomFlip):
    """Flip the image upside down with probability ``prob``."""

    _axis = 0
    _pil_method = 1


def _check_range_pair(op_name, name, value, low):
    if not (isinstance(value, (list, tuple)) and len(value) == 2 and all(isinstance(v, (int, float)) for v in value)):
        raise TypeError(f"{op_name}: {name} should be a (min, max) pair of numbers, got {value!r}.")
    if value[0] > value[1] or value[0] < low:
        raise ValueError(f"{op_name}: {name} should be (min, max) with {low} <= min <= max, got {value!r}.")
    return tuple(value)


def random_crop_box(rng, height, width, scale, ratio, max_attempts):
    """(top, left, h, w) of a random area/aspect-ratio crop (Inception-style; centre-crop fallback)."""
    area = height * width
    log_ratio = (math.log(ratio[0]), math.log(ratio[1]))
    for _ in range(max_attempts):
        draw = rng.random(4)
        target_area = area * (scale[0] + draw[0] * (scale[1] - scale[0]))
        aspect = math.exp(log_ratio[0] + draw[1] * (log_ratio[1] - log_ratio[0]))
        crop_w = int(round(math.sqrt(target_area * aspect)))
        crop_h = int(round(math.sqrt(target_area / aspect)))
        if 0 < crop_w <= width and 0 < crop_h <= height:
            top = int(_pick(draw[2], height - crop_h + 1))
            left = int(_pick(draw[3], width - crop_w + 1))
            return top, left, crop_h, crop_w
    in_ratio = width / height
    if in_ratio < ratio[0]:
        crop_w, crop_h = width, int(round(width / ratio[0]))
    elif in_ratio > ratio[1]:
        crop_h, crop_w = height, int(round(height * ratio[1]))
    else:
        crop_h, crop_w = height, width
    return (height - crop_h) // 2, (width - crop_w) // 2, crop_h, crop_w


def mindspore_crop_box(words, height, width, scale, ratio, max_attempts):
    """(top, left, h, w) of RandomResizedCrop's box drawn as MindSpore 2.10's kernel draws it from its
    ``std::mt19937`` words: per attempt a float32 area scale and log aspect ratio, then x and y."""
    log_ratio = (math.log(ratio[0]), math.log(ratio[1]))
    for _ in range(max_attempts):
        area_scale = uniform_float(words, scale[0], scale[1])
        aspect = math.exp(uniform_float(words, log_ratio[0], log_ratio[1]))
        crop_w = int(round(math.sqrt(height * width * area_scale * aspect)))
        crop_h = int(round(crop_w / aspect))
        if crop_w <= width and crop_h <= height:
            left = below(words, width - crop_w + 1)
            top = below(words, height - crop_h + 1)
            return top, left, crop_h, crop_w
    return random_crop_box(None, height, width, scale, ratio, 0)


class RandomResizedCrop(TensorOperation):
    """Crop a random area (``scale``) and aspect ratio (``ratio``), then resize it to ``size``."""

    random = True
    mindspore_draws = True

    def __init__(self, size, scale=(0.08, 1.0), ratio=(3. / 4., 4. / 3.), interpolation=Inter.BILINEAR,
                 max_attempts=10):
        name = type(self).__name__
        self.size = check_size(name, size)
        self.scale = _check_range_pair(name, "scale", scale, 0)
        self.ratio = _check_range_pair(name, "ratio", ratio, 0)
        if self.ratio[0] <= 0:
            raise ValueError(f"{name}: ratio values must be greater than 0, got {ratio!r}.")
        self.interpolation = check_inter(name, interpolation)
        if isinstance(max_attempts, bool) or not isinstance(max_attempts, int) or max_attempts < 1:
            raise ValueError(f"{name}: max_attempts must be a positive int, got {max_attempts!r}.")
        self.max_attempts = max_attempts
        self._out = (self.size, self.size) if isinstance(self.size, int) else self.size

    def _box(self, image):
        words = eager_words(self)
        if words is not None:
            return mindspore_crop_box(words, image.shape[0], image.shape[1], self.scale, self.ratio,
                                      self.max_attempts)
        return random_crop_box(random_generator(), image.shape[0], image.shape[1], self.scale, self.ratio,
                               self.max_attempts)

    def _apply(self, image, original):
        top, left, crop_h, crop_w = self._box(image)
        region = crop_array(image, top, left, crop_h, crop_w)
        if is_pil(original):
            return resize(type(self).__name__, original.crop((left, top, left + crop_w, top + crop_h)),
                          self._out, self.interpolation)
        return resize_array(region, self._out[0], self._out[1], self.interpolation)

    def __call__(self, img):
        return self._apply(as_image(type(self).__name__, img), img)


class RandomCropDecodeResize(RandomResizedCrop):
    """Decode encoded image bytes, then apply RandomResizedCrop."""

    def __call__(self, img):
        image = decode_image("RandomCropDecodeResize", img)
        return self._apply(image, image)


class RandomRotation(TensorOperation):
    """Rotate by an angle drawn uniformly from ``degrees`` ((min, max), or a number d for (-d, d))."""

    random = True
    mindspore_draws = True

    def __init__(self, degrees, resample=Inter.NEAREST, expand=False, center=None, fill_value=0):
        if isinstance(degrees, (int, float)) and not isinstance(degrees, bool):
            if degrees < 0:
                raise ValueError(f"RandomRotation: a single degrees value must be non-negative, got {degrees}.")
            degrees = (-degrees, degrees)
        self.degrees = _check_range_pair("RandomRotation", "degrees", degrees, -math.inf)
        self.resample = resample
        self.expand = expand
        self.center = center
        self.fill_value = check_rotation_args("RandomRotation", resample, expand, center, fill_value)

    def __call__(self, img):
        low, high = self.degrees
        words = None if is_pil(img) else eager_words(self)
        if words is not None:  # MindSpore's kernel: the middle plus a float32 in [-1, 1) times half the range
            angle = float(np.float32((high + low) / 2) + np.float32(uniform_float(words, -1.0, 1.0))
                          * np.float32((high - low) / 2))
        else:
            angle = low + random_generator().random() * (high - low)
        return rotate("RandomRotation", img, angle, self.resample, self.expand, self.center, self.fill_value)


class RandomResize(TensorOperation):
    """Resize to ``size`` with an interpolation picked at random (NEAREST, BILINEAR, BICUBIC or AREA)."""

    random = True
    mindspore_draws = True
    _modes = (Inter.NEAREST, Inter.BILINEAR, Inter.BICUBIC, Inter.AREA)

    def __init__(self, size):
        self.size = check_size("RandomResize", size)

    def _mode(self):
        """The interpolation of one call."""
        words = eager_words(self)
        if words is not None:  # MindSpore's kernel: uniform_int_distribution(0, 3) over its InterpolationMode
            return (Inter.BILINEAR, Inter.NEAREST, Inter.BICUBIC, Inter.AREA)[below(words, 4)]
        return self._modes[int(_pick(random_generator().random(), len(self._modes)))]

    def __call__(self, img):
        mode = self._mode()
        if is_pil(img) and mode == Inter.AREA:
            mode = Inter.BILINEAR
        return resize("RandomResize", img, self.size, mode)


def _symmetric(op_name, name, value):
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if value < 0:
            raise ValueError(f"{op_name}: a single {name} value must be non-negative, got {value}.")
        return (-float(value), float(value))
    if not (isinstance(value, (list, tuple)) and len(value) == 2 and value[0] <= value[1]):
        raise ValueError(f"{op_name}: {name} should be a number or a (min, max) pair, got {value!r}.")
    return (float(value[0]), float(value[1]))


class RandomAffine(TensorOperation):
    """Affine with random angle, translation, scale and shear drawn from the given ranges."""

    random = True
    mindspore_draws = True

    def __init__(self, degrees, translate=None, scale=None, shear=None, resample=Inter.NEAREST, fill_value=0):
        self.degrees = _symmetric("RandomAffine", "degrees", degrees)
        if translate is not None:
            translate = list(translate)
            if len(translate) == 2:  # MindSpore: an x range (min, max) only, no y shift
                translate = [translate[0], translate[1], 0.0, 0.0]
            if len(translate) != 4 or not all(-1 <= t <= 1 for t in translate):
                raise ValueError(f"RandomAffine: translate should hold 2 or 4 fractions in [-1, 1], got {translate!r}.")
        self.translate = translate
        if scale is not None and not (len(scale) == 2 and 0 < scale[0] <= scale[1]):
            raise ValueError(f"RandomAffine: scale should be a (min, max) pair of positive numbers, got {scale!r}.")
        self.scale = scale
        if shear is not None:
            shear = list(_symmetric("RandomAffine", "shear", shear)) if isinstance(shear, (int, float)) \
                else list(shear)
            if len(shear) == 2:
                shear = shear + [0.0, 0.0]
            if len(shear) != 4:
                raise ValueError(f"RandomAffine: shear should be a number or hold 2 or 4 values, got {shear!r}.")
        self.shear = shear
        self.resample = check_inter("RandomAffine", resample, "resample")
        self.fill_value = check_fill_value("RandomAffine", fill_value)

    def __call__(self, img):
        words = None if is_pil(img) else eager_words(self)
        if words is not None:
            return self._mindspore_draws(img, words)
        draw = random_generator().random(6)
        between = lambda low, high, u: low + u * (high - low)  # noqa: E731
        angle = between(*self.degrees, draw[0])
        translate = (0.0, 0.0) if self.translate is None else (
            between(self.translate[0], self.translate[1], draw[1]),
            between(self.translate[2], self.translate[3], draw[2]))
        scale = 1.0 if self.scale is None else between(self.scale[0], self.scale[1], draw[3])
        shear = (0.0, 0.0) if self.shear is None else (
            between(self.shear[0], self.shear[1], draw[4]), between(self.shear[2], self.shear[3], draw[5]))
        return affine_image("RandomAffine", img, angle, translate, scale, shear, self.resample, self.fill_value)

    def _mindspore_draws(self, img, words):
        """MindSpore's kernel: six float32 draws, every one made even for a range left at its default: the
        angle, the x and y shifts in pixels (the fractions times the width and height in float32), the
        scale, the two shears."""
        height, width = as_image("RandomAffine", img).shape[:2]
        translate = self.translate or (0.0, 0.0, 0.0, 0.0)
        shifts = [np.float32(t) * np.float32(size) for t, size in zip(translate, (width, width, height, height))]
        scale_range = self.scale or (1.0, 1.0)
        shear = self.shear or (0.0, 0.0, 0.0, 0.0)
        angle = uniform_float(words, *self.degrees)
        shift_x = uniform_float(words, shifts[0], shifts[1])
        shift_y = uniform_float(words, shifts[2], shifts[3])
        scale = uniform_float(words, *scale_range)
        shear_x = uniform_float(words, shear[0], shear[1])
        shear_y = uniform_float(words, shear[2], shear[3])
        return affine_image("RandomAffine", img, math.fmod(angle, 360.0), (shift_x / width, shift_y / height),
                            scale, (shear_x, shear_y), self.resample, self.fill_value)


class RandomPerspective(PythonOperation, TensorOperation):
    """With probability ``prob``, move each corner inwards by up to ``distortion_scale`` of half the size."""

    random = True

    def __init__(self, distortion_scale=0.5, prob=0.5, interpolation=Inter.BICUBIC):
        if not 0 <= distortion_scale <= 1:
            raise ValueError(f"RandomPerspective: distortion_scale must be in [0, 1], got {distortion_scale!r}.")
        self.distortion_scale = distortion_scale
        self.prob = check_probability("RandomPerspective", prob)
        self.interpolation = check_inter("RandomPerspective", interpolation)

    def __call__(self, img):
        image = as_image("RandomPerspective", img)
        draw = random_generator().random(9)
        if draw[0] >= self.prob:
            return img
        height, width = image.shape[:2]
        reach_w = int(self.distortion_scale * (width // 2)) + 1
        reach_h = int(self.distortion_scale * (height // 2)) + 1
        offsets = [int(u * reach) for u, reach in zip(draw[1:], [reach_w, reach_h] * 4)]
        start = [[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]]
        end = [[offsets[0], offsets[1]], [width - 1 - offsets[2], offsets[3]],
               [width - 1 - offsets[4], height - 1 - offsets[5]], [offsets[6], height - 1 - offsets[7]]]
        return perspective_image("RandomPerspective", img, start, end, self.interpolation)
