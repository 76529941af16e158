"""Learned and random augmentation policies: AutoAugment, RandAugment, TrivialAugmentWide.

The operations, magnitude tables and draws are MindSpore 2.10's (recorded): float32 magnitudes, the
operation names in sorted order, and under a dataset seed the kernels' ``std::mt19937`` draws; warps use
the same affine and rotation code as ``Affine`` and ``Rotate``, colour steps the ``Adjust*`` kernels.
"""
import math

import numpy as np

from sporax.dataset.core.random import eager_words
from sporax.dataset.engine.sampler_order import below, uniform_float
from sporax.dataset.transforms.base import TensorOperation, random_generator
from sporax.dataset.vision import color_math
from sporax.dataset.vision.color import AutoContrast, Equalize, Invert, rgb_image
from sporax.dataset.vision.geometry import affine_image, check_inter, rotate
from sporax.dataset.vision.utils import AutoAugmentPolicy, Inter, check_fill_value, restore_like

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


_CIFAR10 = (
    (("Invert", 0.1, None), ("Contrast", 0.2, 6)), (("Rotate", 0.7, 2), ("TranslateX", 0.3, 9)),
    (("Sharpness", 0.8, 1), ("Sharpness", 0.9, 3)), (("ShearY", 0.5, 8), ("TranslateY", 0.7, 9)),
    (("AutoContrast", 0.5, None), ("Equalize", 0.9, None)), (("ShearY", 0.2, 7), ("Posterize", 0.3, 7)),
    (("Color", 0.4, 3), ("Brightness", 0.6, 7)), (("Sharpness", 0.3, 9), ("Brightness", 0.7, 9)),
    (("Equalize", 0.6, None), ("Equalize", 0.5, None)), (("Contrast", 0.6, 7), ("Sharpness", 0.6, 5)),
    (("Color", 0.7, 7), ("TranslateX", 0.5, 8)), (("Equalize", 0.3, None), ("AutoContrast", 0.4, None)),
    (("TranslateY", 0.4, 3), ("Sharpness", 0.2, 6)), (("Brightness", 0.9, 6), ("Color", 0.2, 8)),
    (("Solarize", 0.5, 2), ("Invert", 0.0, None)), (("Equalize", 0.2, None), ("AutoContrast", 0.6, None)),
    (("Equalize", 0.2, None), ("Equalize", 0.6, None)), (("Color", 0.9, 9), ("Equalize", 0.6, None)),
    (("AutoContrast", 0.8, None), ("Solarize", 0.2, 8)), (("Brightness", 0.1, 3), ("Color", 0.7, 0)),
    (("Solarize", 0.4, 5), ("AutoContrast", 0.9, None)), (("TranslateY", 0.9, 9), ("TranslateY", 0.7, 9)),
    (("AutoContrast", 0.9, None), ("Solarize", 0.8, 3)), (("Equalize", 0.8, None), ("Invert", 0.1, None)),
    (("TranslateY", 0.7, 9), ("AutoContrast", 0.9, None)),
)

_SVHN = (
    (("ShearX", 0.9, 4), ("Invert", 0.2, None)), (("ShearY", 0.9, 8), ("Invert", 0.7, None)),
    (("Equalize", 0.6, None), ("Solarize", 0.6, 6)), (("Invert", 0.9, None), ("Equalize", 0.6, None)),
    (("Equalize", 0.6, None), ("Rotate", 0.9, 3)), (("ShearX", 0.9, 4), ("AutoContrast", 0.8, None)),
    (("ShearY", 0.9, 8), ("Invert", 0.4, None)), (("ShearY", 0.9, 5), ("Solarize", 0.2, 6)),
    (("Invert", 0.9, None), ("AutoContrast", 0.8, None)), (("Equalize", 0.6, None), ("Rotate", 0.9, 3)),
    (("ShearX", 0.9, 4), ("Solarize", 0.3, 3)), (("ShearY", 0.8, 8), ("Invert", 0.7, None)),
    (("Equalize", 0.9, None), ("TranslateY", 0.6, 6)), (("Invert", 0.9, None), ("Equalize", 0.6, None)),
    (("Contrast", 0.3, 3), ("Rotate", 0.8, 4)), (("Invert", 0.8, None), ("TranslateY", 0.0, 2)),
    (("ShearY", 0.7, 6), ("Solarize", 0.4, 8)), (("Invert", 0.6, None), ("Rotate", 0.8, 4)),
    (("ShearY", 0.3, 7), ("TranslateX", 0.9, 3)), (("ShearX", 0.1, 6), ("Invert", 0.6, None)),
    (("Solarize", 0.7, 2), ("TranslateY", 0.6, 7)), (("ShearY", 0.8, 4), ("Invert", 0.8, None)),
    (("ShearX", 0.7, 9), ("TranslateY", 0.8, 3)), (("ShearY", 0.8, 5), ("AutoContrast", 0.7, None)),
    (("ShearX", 0.7, 2), ("Invert", 0.1, None)),
)
_POLICIES = {AutoAugmentPolicy.IMAGENET: _IMAGENET, AutoAugmentPolicy.CIFAR10: _CIFAR10,
             AutoAugmentPolicy.SVHN: _SVHN}


def _linspace(start, end, bins, scale=1.0, offset=0.0, rounded=False):
    """``bins`` evenly spaced float32 values, computed in float32 step by step as MindSpore's kernels do
    (so a magnitude is the same float32 MindSpore applies); ``rounded`` rounds half to even."""
    start, step = np.float32(start), (np.float32(end) - np.float32(start)) / np.float32(bins - 1)
    values = (start + np.arange(bins, dtype=np.float32) * step) * np.float32(scale) + np.float32(offset)
    return np.round(values) if rounded else values


def _space(bins, height, width, wide=False, solarize_top=255.0):
    """Magnitude table: name -> (float32 magnitudes per bin or None, signed), names in sorted order (the
    order MindSpore draws an operation index in)."""
    unit = _linspace(0.0, 0.99 if wide else 0.9, bins)
    shift = 150.0 / 331.0
    return {
        "AutoContrast": (None, False), "Brightness": (unit, True), "Color": (unit, True), "Contrast": (unit, True),
        "Equalize": (None, False), "Identity": (None, False),
        "Posterize": (_linspace(0.0, bins - 1.0, bins, -(6.0 if wide else 4.0) / (bins - 1.0), 8.0, True), False),
        "Rotate": (_linspace(0.0, 135.0 if wide else 30.0, bins), True), "Sharpness": (unit, True),
        "ShearX": (_linspace(0.0, 0.99 if wide else 0.3, bins), True),
        "ShearY": (_linspace(0.0, 0.99 if wide else 0.3, bins), True),
        "Solarize": (_linspace(solarize_top, 0.0, bins), False),
        "TranslateX": (_linspace(0.0, 32.0 if wide else np.float32(shift) * np.float32(width), bins), True),
        "TranslateY": (_linspace(0.0, 32.0 if wide else np.float32(shift) * np.float32(height), bins), True),
    }


def apply_op(image, name, magnitude, interpolation, fill, rotate_fill=None):
    """Apply one named augmentation with float32 ``magnitude`` to an RGB uint8 image (MindSpore's meaning:
    a shear of ``magnitude`` radians read as degrees, a shift of ``int(magnitude)`` image sizes, Solarize of
    the pixels >= ``magnitude``). ``rotate_fill`` (default ``fill``) fills the pixels Rotate uncovers."""
    magnitude = np.float32(magnitude)
    if name in ("ShearX", "ShearY"):
        degrees = float(np.float32(float(magnitude * np.float32(180.0)) / math.pi))
        shear = (degrees, 0.0) if name == "ShearX" else (0.0, degrees)
        return affine_image(name, image, 0.0, (0.0, 0.0), 1.0, shear, interpolation, fill)
    if name in ("TranslateX", "TranslateY"):
        # MindSpore 2.10 hands ``int(magnitude)`` to its Affine kernel, which reads a translation as a fraction
        # of the image size: any shift of 1 or more moves the image out of the frame (recorded).
        shift = float(int(magnitude))
        shift = (shift, 0.0) if name == "TranslateX" else (0.0, shift)
        return affine_image(name, image, 0.0, shift, 1.0, (0.0, 0.0), interpolation, fill)
    if name == "Rotate":
        return rotate(name, image, float(magnitude), interpolation, False, None, rotate_fill or fill)
    factor = float(np.float32(1.0) + magnitude)
    if name == "Brightness":
        return color_math.adjust_brightness(image, factor)
    if name == "Color":
        return color_math.adjust_saturation(image, factor)
    if name == "Contrast":
        return color_math.adjust_contrast(image, factor)
    if name == "Sharpness":
        return color_math.adjust_sharpness(image, factor)
    if name == "Posterize":
        return color_math.posterize(image, int(magnitude))
    if name == "Solarize":
        return color_math.solarize(image, float(magnitude), 255)
    if name in _FIXED:
        return _FIXED[name](image)
    return image


_FIXED = {"AutoContrast": AutoContrast(), "Equalize": Equalize(), "Invert": Invert()}


class _Draws:
    """The random numbers of one call: MindSpore's kernel draws from the op's ``std::mt19937`` words under a
    dataset seed (GCC's distributions), else the pipeline's generator."""

    def __init__(self, words):
        self.words = words
        self.rng = random_generator() if words is None else None

    def index(self, count):
        """A uniform index below ``count`` (``uniform_int_distribution(0, count - 1)``)."""
        return below(self.words, count) if self.words is not None else int(self.rng.integers(count))

    def folded(self, count):
        """MindSpore's ``RandInt(0, count)``: ``uniform_int_distribution(0, count)`` folded modulo ``count``
        (0 comes twice as often)."""
        return below(self.words, count + 1) % count if self.words is not None else int(self.rng.integers(count))

    def unit(self):
        """A float32 in [0, 1)."""
        return np.float32(uniform_float(self.words, 0.0, 1.0) if self.words is not None else self.rng.random())


class _Policy(TensorOperation):
    random = True
    mindspore_draws = True

    def _setup(self, interpolation, fill_value):
        self.interpolation = check_inter(type(self).__name__, interpolation)
        self.fill_value = check_fill_value(type(self).__name__, fill_value)
        fill = self.fill_value
        self._fill = fill if isinstance(fill, tuple) else (fill,) * 3
        # MindSpore's policies hand its rotation (r, b, g), which that kernel fills as (g, b, r) (recorded)
        self._rotate_fill = (self._fill[0], self._fill[2], self._fill[1])

    def _uint8(self, img):
        image = rgb_image(type(self).__name__, img)
        if image.dtype != np.uint8:
            raise RuntimeError(f"{type(self).__name__}: expected a uint8 RGB image, got {image.dtype}.")
        return image

    def _random_ops(self, img, draws, space, levels):
        """MindSpore's RandAugment/TrivialAugmentWide step: an operation index and, for ``levels`` (None: a
        drawn bin), its magnitude, then a sign draw (made for every operation, used by the signed ones)."""
        names = list(space)
        name = names[draws.folded(len(names))]
        values, signed = space[name]
        magnitude = np.float32(0.0)
        if values is not None:
            magnitude = values[draws.folded(len(values)) if levels is None else levels]
        if draws.folded(2) and signed:
            magnitude = -magnitude
        return apply_op(img, name, magnitude, self.interpolation, self._fill, self._rotate_fill)


class AutoAugment(_Policy):
    """Apply a random sub-policy of a learned AutoAugment policy (IMAGENET, CIFAR10 or SVHN).

    Under a dataset seed it draws as MindSpore 2.10: a sub-policy index, two float32 probabilities and
    two signs, for every image.

    Args:
        policy (AutoAugmentPolicy): the policy's data set. Default: IMAGENET.
        interpolation (Inter): for the warps. Default: Inter.NEAREST.
        fill_value (int or tuple): the fill of warped-in pixels. Default: 0.

    Example:
        >>> out = AutoAugment(AutoAugmentPolicy.CIFAR10)(np.zeros((32, 32, 3), np.uint8))
    """

    def __init__(self, policy=AutoAugmentPolicy.IMAGENET, interpolation=Inter.NEAREST, fill_value=0):
        if not isinstance(policy, AutoAugmentPolicy):
            raise TypeError(f"AutoAugment: policy should be an AutoAugmentPolicy, got {policy!r}.")
        self.policy = policy
        self._setup(interpolation, fill_value)

    def __call__(self, img):
        image = self._uint8(img)
        draws = _Draws(eager_words(self))
        policy = _POLICIES[self.policy]
        subpolicy = policy[draws.index(len(policy))]
        probs = (draws.unit(), draws.unit())
        signs = (draws.index(2), draws.index(2))
        space = dict(_space(10, *image.shape[:2], solarize_top=256.0), Invert=(None, False))
        for (name, prob, level), drawn, sign in zip(subpolicy, probs, signs):
            if drawn <= np.float32(prob):
                values, signed = space[name]
                magnitude = values[level] if values is not None and level is not None else np.float32(0.0)
                image = apply_op(image, name, -magnitude if signed and sign == 0 else magnitude,
                                 self.interpolation, self._fill, self._rotate_fill)
        return restore_like(image, img)


class RandAugment(_Policy):
    """Apply ``num_ops`` random augmentations at a fixed ``magnitude`` (of ``num_magnitude_bins``).

    Under a dataset seed it draws as MindSpore 2.10: per operation an index among the 14 (sorted by name)
    and a sign.

    Args:
        num_ops (int): operations per image. Default: 2.
        magnitude (int): the magnitude bin. Default: 9.
        num_magnitude_bins (int): bins of each magnitude range. Default: 31.
        interpolation (Inter): for the warps. Default: Inter.NEAREST.
        fill_value (int or tuple): the fill of warped-in pixels. Default: 0.

    Example:
        >>> out = RandAugment(num_ops=1)(np.zeros((32, 32, 3), np.uint8))
    """

    def __init__(self, num_ops=2, magnitude=9, num_magnitude_bins=31, interpolation=Inter.NEAREST, fill_value=0):
        if num_magnitude_bins < 2 or not 0 <= magnitude < num_magnitude_bins or num_ops < 0:
            raise ValueError(f"RandAugment: need num_ops >= 0, num_magnitude_bins >= 2 and 0 <= magnitude < "
                             f"num_magnitude_bins, got {num_ops}, {magnitude}, {num_magnitude_bins}.")
        self.num_ops, self.magnitude, self.num_magnitude_bins = num_ops, magnitude, num_magnitude_bins
        self._setup(interpolation, fill_value)

    def __call__(self, img):
        image = self._uint8(img)
        draws = _Draws(eager_words(self))
        space = _space(self.num_magnitude_bins, *image.shape[:2])
        for _ in range(self.num_ops):
            image = self._random_ops(image, draws, space, self.magnitude)
        return restore_like(image, img)


class TrivialAugmentWide(_Policy):
    """Apply one random augmentation at a random magnitude (TrivialAugment's wide ranges).

    Under a dataset seed it draws as MindSpore 2.10: an index among the 14 operations (sorted by name), a
    magnitude bin for those with a range, and a sign.

    Args:
        num_magnitude_bins (int): bins of each magnitude range. Default: 31.
        interpolation (Inter): for the warps. Default: Inter.NEAREST.
        fill_value (int or tuple): the fill of warped-in pixels. Default: 0.

    Example:
        >>> out = TrivialAugmentWide()(np.zeros((32, 32, 3), np.uint8))
    """

    def __init__(self, num_magnitude_bins=31, interpolation=Inter.NEAREST, fill_value=0):
        if num_magnitude_bins < 2:
            raise ValueError(f"TrivialAugmentWide: num_magnitude_bins must be >= 2, got {num_magnitude_bins}.")
        self.num_magnitude_bins = num_magnitude_bins
        self._setup(interpolation, fill_value)

    def __call__(self, img):
        image = self._uint8(img)
        draws = _Draws(eager_words(self))
        space = _space(self.num_magnitude_bins, *image.shape[:2], wide=True)
        return restore_like(self._random_ops(image, draws, space, None), img)
