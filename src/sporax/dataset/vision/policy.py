"""Learned and random augmentation policies: AutoAugment, RandAugment, TrivialAugmentWide.

The operations and magnitude ranges follow the published policies (AutoAugment's ImageNet policy,
RandAugment, TrivialAugment); warps use the same affine code as ``Affine``.
"""
import math

import numpy as np

from sporax.dataset.transforms.base import TensorOperation, random_generator
from sporax.dataset.vision import color_math
from sporax.dataset.vision.color import rgb_image
from sporax.dataset.vision.geometry import check_inter
from sporax.dataset.vision.utils import AutoAugmentPolicy, Inter, check_fill_value, restore_like
from sporax.dataset.vision.warp import affine_matrix, warp_affine

_IMAGENET = (
    (("Posterize", 0.4, 8), ("Rotate", 0.6, 9)), (("Solarize", 0.6, 5), ("AutoContrast", 0.6, None)),
    (("Equalize", 0.8, None), ("Equalize", 0.6, None)), (("Posterize", 0.6, 7), ("Posterize", 0.6, 6)),
    (("Equalize", 0.4, None), ("Solarize", 0.2, 4)), (("Equalize", 0.4, None), ("Rotate", 0.8, 8)),
    (("Solarize", 0.6, 3), ("Equalize", 0.6, None)), (("Posterize", 0.8, 5), ("Equalize", 1.0, None)),
    (("Rotate", 0.2, 3), ("Solarize", 0.6, 8)), (("Equalize", 0.6, None), ("Posterize", 0.4, 6)),
    (("Rotate", 0.8, 8), ("Color", 0.4, 0)), (("Rotate", 0.4, 9), ("Equalize", 0.6, None)),
    (("Equalize", 0.0, None), ("Equalize", 0.8, None)), (("Invert", 0.6, None), ("Equalize", 1.0, None)),
    (("Color", 0.6, 4), ("Contrast", 1.0, 8)), (("Rotate", 0.8, 8), ("Color", 1.0, 2)),
    (("Color", 0.8, 8), ("Solarize", 0.8, 7)), (("Sharpness", 0.4, 7), ("Invert", 0.6, None)),
    (("ShearX", 0.6, 5), ("Equalize", 1.0, None)), (("Color", 0.4, 0), ("Equalize", 0.6, None)),
    (("Equalize", 0.4, None), ("Solarize", 0.2, 4)), (("Solarize", 0.6, 5), ("AutoContrast", 0.6, None)),
    (("Invert", 0.6, None), ("Equalize", 1.0, None)), (("Color", 0.6, 4), ("Contrast", 1.0, 8)),
    (("Equalize", 0.8, None), ("Equalize", 0.6, None)),
)


def _space(bins, height, width, wide=False):
    """Magnitude table: name -> (magnitudes per bin, signed)."""
    unit = np.linspace(0.0, 0.99 if wide else 0.9, bins)
    return {
        "Identity": (None, False),
        "ShearX": (np.linspace(0.0, 0.99 if wide else 0.3, bins), True),
        "ShearY": (np.linspace(0.0, 0.99 if wide else 0.3, bins), True),
        "TranslateX": (np.linspace(0.0, 32.0 if wide else 150.0 / 331.0 * width, bins), True),
        "TranslateY": (np.linspace(0.0, 32.0 if wide else 150.0 / 331.0 * height, bins), True),
        "Rotate": (np.linspace(0.0, 135.0 if wide else 30.0, bins), True),
        "Brightness": (unit, True), "Color": (unit, True), "Contrast": (unit, True), "Sharpness": (unit, True),
        "Posterize": (8 - np.round(np.arange(bins) / ((bins - 1) / (6 if wide else 4))).astype(int), False),
        "Solarize": (np.linspace(255.0, 0.0, bins), False),
        "AutoContrast": (None, False), "Equalize": (None, False), "Invert": (None, False),
    }


def _equalize(image):
    return np.stack([color_math.equalize_channel(image[..., c]) for c in range(3)], axis=-1)


def _autocontrast(image):
    return np.stack([color_math.autocontrast_channel(image[..., c], (0, 0), []) for c in range(3)], axis=-1)


def apply_op(image, name, magnitude, interpolation, fill):
    """Apply one named augmentation with ``magnitude`` to an RGB uint8 image."""
    height, width = image.shape[:2]

    def warp(degrees=0.0, translate=(0.0, 0.0), shear=(0.0, 0.0)):
        matrix = affine_matrix(height, width, degrees, translate, 1.0, shear)
        return warp_affine(image, matrix, (height, width), interpolation, fill)

    if name == "ShearX":
        return warp(shear=(math.degrees(math.atan(magnitude)), 0.0))
    if name == "ShearY":
        return warp(shear=(0.0, math.degrees(math.atan(magnitude))))
    if name == "TranslateX":
        return warp(translate=(magnitude / width, 0.0))
    if name == "TranslateY":
        return warp(translate=(0.0, magnitude / height))
    if name == "Rotate":
        return warp(degrees=magnitude)
    if name == "Brightness":
        return color_math.adjust_brightness(image, 1.0 + magnitude)
    if name == "Color":
        return color_math.adjust_saturation(image, 1.0 + magnitude)
    if name == "Contrast":
        return color_math.adjust_contrast(image, 1.0 + magnitude)
    if name == "Sharpness":
        return color_math.adjust_sharpness(image, 1.0 + magnitude)
    if name == "Posterize":
        return color_math.posterize(image, int(magnitude))
    if name == "Solarize":
        return color_math.solarize(image, magnitude, 255)
    if name == "AutoContrast":
        return _autocontrast(image)
    if name == "Equalize":
        return _equalize(image)
    if name == "Invert":
        return color_math.invert(image)
    return image


class _Policy(TensorOperation):
    random = True

    def _setup(self, interpolation, fill_value):
        self.interpolation = check_inter(type(self).__name__, interpolation)
        self.fill_value = check_fill_value(type(self).__name__, fill_value)
        fill = self.fill_value
        self._fill = np.asarray(fill if isinstance(fill, tuple) else (fill,) * 3)

    def _uint8(self, img):
        image = rgb_image(type(self).__name__, img)
        if image.dtype != np.uint8:
            raise RuntimeError(f"{type(self).__name__}: expected a uint8 RGB image, got {image.dtype}.")
        return image

    def _signed(self, rng, value, signed):
        return -value if signed and rng.random() < 0.5 else value


class AutoAugment(_Policy):
    """Apply a random sub-policy of the learned AutoAugment policy (ImageNet)."""

    def __init__(self, policy=AutoAugmentPolicy.IMAGENET, interpolation=Inter.NEAREST, fill_value=0):
        if not isinstance(policy, AutoAugmentPolicy):
            raise TypeError(f"AutoAugment: policy should be an AutoAugmentPolicy, got {policy!r}.")
        if policy != AutoAugmentPolicy.IMAGENET:
            raise NotImplementedError(f"AutoAugment: sporax implements the IMAGENET policy only, got {policy}.")
        self.policy = policy
        self._setup(interpolation, fill_value)

    def __call__(self, img):
        image = self._uint8(img)
        rng = random_generator()
        space = _space(10, *image.shape[:2])
        subpolicy = _IMAGENET[min(int(rng.random() * len(_IMAGENET)), len(_IMAGENET) - 1)]
        for name, prob, level in subpolicy:
            if rng.random() <= prob:
                values, signed = space[name]
                magnitude = float(values[level]) if values is not None and level is not None else 0.0
                image = apply_op(image, name, self._signed(rng, magnitude, signed), self.interpolation, self._fill)
        return restore_like(image, img)


class RandAugment(_Policy):
    """Apply ``num_ops`` random augmentations at a fixed ``magnitude`` (of ``num_magnitude_bins``)."""

    def __init__(self, num_ops=2, magnitude=9, num_magnitude_bins=31, interpolation=Inter.NEAREST, fill_value=0):
        if num_magnitude_bins < 2 or not 0 <= magnitude < num_magnitude_bins or num_ops < 0:
            raise ValueError(f"RandAugment: need num_ops >= 0, num_magnitude_bins >= 2 and 0 <= magnitude < "
                             f"num_magnitude_bins, got {num_ops}, {magnitude}, {num_magnitude_bins}.")
        self.num_ops, self.magnitude, self.num_magnitude_bins = num_ops, magnitude, num_magnitude_bins
        self._setup(interpolation, fill_value)

    def __call__(self, img):
        image = self._uint8(img)
        rng = random_generator()
        space = _space(self.num_magnitude_bins, *image.shape[:2])
        names = [name for name in space if name != "Invert"]
        for _ in range(self.num_ops):
            name = names[min(int(rng.random() * len(names)), len(names) - 1)]
            values, signed = space[name]
            magnitude = float(values[self.magnitude]) if values is not None else 0.0
            image = apply_op(image, name, self._signed(rng, magnitude, signed), self.interpolation, self._fill)
        return restore_like(image, img)


class TrivialAugmentWide(_Policy):
    """Apply one random augmentation at a random magnitude (TrivialAugment's wide ranges)."""

    def __init__(self, num_magnitude_bins=31, interpolation=Inter.NEAREST, fill_value=0):
        if num_magnitude_bins < 2:
            raise ValueError(f"TrivialAugmentWide: num_magnitude_bins must be >= 2, got {num_magnitude_bins}.")
        self.num_magnitude_bins = num_magnitude_bins
        self._setup(interpolation, fill_value)

    def __call__(self, img):
        image = self._uint8(img)
        rng = random_generator()
        space = _space(self.num_magnitude_bins, *image.shape[:2], wide=True)
        names = [name for name in space if name != "Invert"]
        name = names[min(int(rng.random() * len(names)), len(names) - 1)]
        values, signed = space[name]
        level = min(int(rng.random() * self.num_magnitude_bins), self.num_magnitude_bins - 1)
        magnitude = float(values[level]) if values is not None else 0.0
        image = apply_op(image, name, self._signed(rng, magnitude, signed), self.interpolation, self._fill)
        return restore_like(image, img)
