"""Less common vision transforms: affine/perspective warps, blur, HSV, multi-crops, batch mixing."""
import math

import numpy as np

from sporax.dataset.transforms.base import TensorOperation, random_generator
from sporax.dataset.vision.geometry import CenterCrop, check_inter
from sporax.dataset.vision.color_math import hsv_to_rgb, rgb_to_hsv, saturate
from sporax.dataset.vision.utils import (ImageBatchFormat, Inter, as_image, check_fill_value, check_probability,
                                         check_size, is_pil, restore_like)
from sporax.dataset.vision.warp import affine_matrix, perspective_matrix, warp_affine


def _fill(image, fill_value):
    if isinstance(fill_value, tuple) and image.ndim == 3:
        return np.resize(np.asarray(fill_value), image.shape[2])
    return fill_value if not isinstance(fill_value, tuple) else fill_value[0]


def _affine(op_name, img, degrees, translate, scale, shear, resample, fill_value):
    image = as_image(op_name, img)
    matrix = affine_matrix(image.shape[0], image.shape[1], degrees, translate, scale, shear)
    return restore_like(warp_affine(image, matrix, image.shape[:2], resample, _fill(image, fill_value)), img)


def _shear_pair(shear):
    if isinstance(shear, (int, float)):
        return float(shear), 0.0
    return (float(shear[0]), float(shear[1]) if len(shear) > 1 else 0.0)


class Affine(TensorOperation):
    """Rotate by ``degrees``, translate by ``translate`` (fractions of width/height), scale and shear."""

    def __init__(self, degrees, translate, scale, shear, resample=Inter.NEAREST, fill_value=0):
        if not (isinstance(translate, (list, tuple)) and len(translate) == 2 and all(-1 <= t <= 1 for t in translate)):
            raise ValueError(f"Affine: translate should be two fractions in [-1.0, 1.0], got {translate!r}.")
        if isinstance(scale, bool) or not isinstance(scale, (int, float)) or scale <= 0:
            raise ValueError(f"Affine: scale must be a positive number, got {scale!r}.")
        self.degrees, self.translate, self.scale, self.shear = degrees, tuple(translate), scale, _shear_pair(shear)
        self.resample = check_inter("Affine", resample, "resample")
        self.fill_value = check_fill_value("Affine", fill_value)

    def __call__(self, img):
        return _affine("Affine", img, self.degrees, self.translate, self.scale, self.shear, self.resample,
                       self.fill_value)


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

    def __init__(self, degrees, translate=None, scale=None, shear=None, resample=Inter.NEAREST, fill_value=0):
        self.degrees = _symmetric("RandomAffine", "degrees", degrees)
        if translate is not None:
            translate = list(translate)
            if len(translate) == 2:
                translate = [-translate[0], translate[0], -translate[1], translate[1]]
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
        draw = random_generator().random(6)
        between = lambda low, high, u: low + u * (high - low)  # noqa: E731
        angle = between(*self.degrees, draw[0])
        translate = (0.0, 0.0) if self.translate is None else (
            between(self.translate[0], self.translate[1], draw[1]),
            between(self.translate[2], self.translate[3], draw[2]))
        scale = 1.0 if self.scale is None else between(self.scale[0], self.scale[1], draw[3])
        shear = (0.0, 0.0) if self.shear is None else (
            between(self.shear[0], self.shear[1], draw[4]), between(self.shear[2], self.shear[3], draw[5]))
        return _affine("RandomAffine", img, angle, translate, scale, shear, self.resample, self.fill_value)


def _perspective(op_name, img, start_points, end_points, interpolation):
    image = as_image(op_name, img)
    matrix = perspective_matrix(start_points, end_points)
    return restore_like(warp_affine(image, matrix, image.shape[:2], interpolation, 0), img)


class Perspective(TensorOperation):
    """Warp the four ``start_points`` (x, y) of the image onto ``end_points``."""

    def __init__(self, start_points, end_points, interpolation=Inter.BILINEAR):
        for name, points in (("start_points", start_points), ("end_points", end_points)):
            if not (isinstance(points, (list, tuple)) and len(points) == 4 and all(len(p) == 2 for p in points)):
                raise TypeError(f"Perspective: {name} should be four (x, y) points, got {points!r}.")
        self.start_points, self.end_points = start_points, end_points
        self.interpolation = check_inter("Perspective", interpolation)

    def __call__(self, img):
        return _perspective("Perspective", img, self.start_points, self.end_points, self.interpolation)


class RandomPerspective(TensorOperation):
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
        return _perspective("RandomPerspective", img, start, end, self.interpolation)


def gaussian_kernel(size, sigma):
    """OpenCV's getGaussianKernel (sigma <= 0 derives it from the size)."""
    if sigma <= 0:
        sigma = 0.3 * ((size - 1) * 0.5 - 1) + 0.8
    offsets = np.arange(size) - (size - 1) / 2.0
    kernel = np.exp(-(offsets ** 2) / (2 * sigma * sigma))
    return kernel / kernel.sum()


class GaussianBlur(TensorOperation):
    """Blur with a Gaussian kernel ``kernel_size`` (width, height; odd) and ``sigma`` (x, y)."""

    def __init__(self, kernel_size, sigma=None):
        sizes = (kernel_size, kernel_size) if isinstance(kernel_size, int) else tuple(kernel_size)
        if len(sizes) != 2 or not all(isinstance(k, int) and k > 0 and k % 2 == 1 for k in sizes):
            raise ValueError(f"GaussianBlur: kernel_size must be positive odd ints, got {kernel_size!r}.")
        sigmas = (0.0, 0.0) if sigma is None else (sigma, sigma) if isinstance(sigma, (int, float)) else tuple(sigma)
        if len(sigmas) != 2 or any(s < 0 for s in sigmas):
            raise ValueError(f"GaussianBlur: sigma must be non-negative, got {sigma!r}.")
        self.kernel_size, self.sigma = sizes, sigmas

    def __call__(self, img):
        image = as_image("GaussianBlur", img)
        out = image.astype(np.float64)
        for axis, size, sigma in ((1, self.kernel_size[0], self.sigma[0]), (0, self.kernel_size[1], self.sigma[1])):
            kernel = gaussian_kernel(size, sigma if sigma > 0 else 0)
            radius = size // 2
            widths = [(0, 0)] * out.ndim
            widths[axis] = (radius, radius)
            padded = np.pad(out, widths, mode="reflect" if out.shape[axis] > radius else "symmetric")
            length = out.shape[axis]
            out = sum(weight * np.take(padded, np.arange(i, i + length), axis=axis) for i, weight in enumerate(kernel))
        return restore_like(saturate(out, image.dtype), img)


class RgbToHsv(TensorOperation):
    """RGB to HSV (hue and saturation in [0, 1], value unscaled), float64; CHW unless ``is_hwc``."""

    def __init__(self, is_hwc=False):
        self.is_hwc = is_hwc

    def __call__(self, rgb_imgs):
        image = np.asarray(rgb_imgs, np.float64)
        hwc = image if self.is_hwc else np.moveaxis(image, -3, -1)
        if hwc.shape[-1] != 3:
            raise RuntimeError(f"RgbToHsv: expected 3 channels, got shape {image.shape}.")
        hsv = rgb_to_hsv(hwc)
        return hsv if self.is_hwc else np.moveaxis(hsv, -1, -3)


class HsvToRgb(TensorOperation):
    """HSV (as produced by RgbToHsv) back to RGB, float64; CHW unless ``is_hwc``."""

    def __init__(self, is_hwc=False):
        self.is_hwc = is_hwc

    def __call__(self, hsv_imgs):
        image = np.asarray(hsv_imgs, np.float64)
        hwc = image if self.is_hwc else np.moveaxis(image, -3, -1)
        if hwc.shape[-1] != 3:
            raise RuntimeError(f"HsvToRgb: expected 3 channels, got shape {image.shape}.")
        rgb = hsv_to_rgb(hwc)
        return rgb if self.is_hwc else np.moveaxis(rgb, -1, -3)


class LinearTransformation(TensorOperation):
    """Flatten, subtract ``mean_vector``, multiply by ``transformation_matrix`` and restore the shape."""

    def __init__(self, transformation_matrix, mean_vector):
        self.transformation_matrix = np.asarray(transformation_matrix)
        self.mean_vector = np.asarray(mean_vector)
        size = self.mean_vector.size
        if self.transformation_matrix.shape != (size, size):
            raise ValueError(f"LinearTransformation: transformation_matrix must be {size}x{size} to match "
                             f"mean_vector, got {self.transformation_matrix.shape}.")

    def __call__(self, np_img):
        image = np.asarray(np_img)
        if image.size != self.mean_vector.size:
            raise RuntimeError(f"LinearTransformation: the image has {image.size} elements but mean_vector has "
                               f"{self.mean_vector.size}.")
        flat = image.reshape(1, -1) - self.mean_vector
        return (flat @ self.transformation_matrix).reshape(image.shape)


def _corner_crops(op_name, img, size):
    height, width = (size, size) if isinstance(size, int) else size
    if is_pil(img):
        full_w, full_h = img.size
        crop = lambda left, top: img.crop((left, top, left + width, top + height))  # noqa: E731
    else:
        image = as_image(op_name, img)
        full_h, full_w = image.shape[:2]
        crop = lambda left, top: np.ascontiguousarray(image[top:top + height, left:left + width])  # noqa: E731
    if height > full_h or width > full_w:
        raise ValueError(f"{op_name}: crop size {(height, width)} is bigger than the image {(full_h, full_w)}.")
    return (crop(0, 0), crop(full_w - width, 0), crop(0, full_h - height), crop(full_w - width, full_h - height),
            CenterCrop((height, width))(img))


class FiveCrop(TensorOperation):
    """The four corner crops and the centre crop of ``size`` (five outputs)."""

    def __init__(self, size):
        self.size = check_size("FiveCrop", size)

    def __call__(self, img):
        return _corner_crops("FiveCrop", img, self.size)


class TenCrop(TensorOperation):
    """FiveCrop of the image and of its horizontal (or vertical) flip (ten outputs)."""

    def __init__(self, size, use_vertical_flip=False):
        self.size = check_size("TenCrop", size)
        self.use_vertical_flip = use_vertical_flip

    def __call__(self, img):
        if is_pil(img):
            flipped = img.transpose(1 if self.use_vertical_flip else 0)
        else:
            image = as_image("TenCrop", img)
            flipped = np.ascontiguousarray(image[::-1] if self.use_vertical_flip else image[:, ::-1])
        return _corner_crops("TenCrop", img, self.size) + _corner_crops("TenCrop", flipped, self.size)


def _check_batch(op_name, images, labels):
    images, labels = np.asarray(images), np.asarray(labels)
    if images.ndim != 4:
        raise RuntimeError(f"{op_name}: expected a batch of images of rank 4, got shape {images.shape}. "
                           f"Apply it after batch().")
    if labels.ndim not in (2, 3) or labels.shape[0] != images.shape[0]:
        raise RuntimeError(f"{op_name}: expected one-hot labels of shape (N, num_classes) for {images.shape[0]} "
                           f"images, got shape {labels.shape}. Apply OneHot before batch().")
    return images, labels


class MixUpBatch(TensorOperation):
    """Mix each image (and label) of a batch with a shuffled partner, weight ~ Beta(alpha, alpha)."""

    random = True

    def __init__(self, alpha=1.0):
        if alpha <= 0:
            raise ValueError(f"MixUpBatch: alpha must be greater than 0, got {alpha}.")
        self.alpha = alpha

    def __call__(self, images, labels):
        images, labels = _check_batch("MixUpBatch", images, labels)
        rng = random_generator()
        weight = rng.beta(self.alpha, self.alpha)
        order = rng.permutation(images.shape[0])
        mixed = weight * images.astype(np.float64) + (1 - weight) * images[order]
        mixed_labels = weight * labels.astype(np.float64) + (1 - weight) * labels[order]
        return saturate(mixed, images.dtype), mixed_labels.astype(np.float32 if labels.dtype.kind in "iu"
                                                                  else labels.dtype)


class CutMixBatch(TensorOperation):
    """Paste a random box from a shuffled partner into each image; labels mixed by area."""

    random = True

    def __init__(self, image_batch_format, alpha=1.0, prob=1.0):
        if not isinstance(image_batch_format, ImageBatchFormat):
            raise TypeError(f"CutMixBatch: image_batch_format should be an ImageBatchFormat, got "
                            f"{image_batch_format!r}.")
        if alpha <= 0:
            raise ValueError(f"CutMixBatch: alpha must be greater than 0, got {alpha}.")
        self.image_batch_format, self.alpha = image_batch_format, alpha
        self.prob = check_probability("CutMixBatch", prob)

    def __call__(self, images, labels):
        images, labels = _check_batch("CutMixBatch", images, labels)
        rng = random_generator()
        nhwc = self.image_batch_format == ImageBatchFormat.NHWC
        height, width = images.shape[1:3] if nhwc else images.shape[2:4]
        out, out_labels = images.copy(), labels.astype(np.float32)
        order = rng.permutation(images.shape[0])
        for index in range(images.shape[0]):
            draw = rng.random(3)
            if draw[0] >= self.prob:
                continue
            weight = rng.beta(self.alpha, self.alpha)
            cut = math.sqrt(1 - weight)
            box_h, box_w = int(height * cut), int(width * cut)
            top = int(draw[1] * (height - box_h + 1))
            left = int(draw[2] * (width - box_w + 1))
            box = (slice(top, top + box_h), slice(left, left + box_w))
            partner = order[index]
            if nhwc:
                out[(index,) + box] = images[(partner,) + box]
            else:
                out[(index, slice(None)) + box] = images[(partner, slice(None)) + box]
            share = box_h * box_w / float(height * width)
            out_labels[index] = (1 - share) * labels[index] + share * labels[partner]
        return out, out_labels
