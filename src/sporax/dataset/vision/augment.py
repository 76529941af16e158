"""Random colour augmentations, erasing and policy-based augmentation (batch mixing lives in ``batch_mixing``)."""
import math
import random as python_random

import numpy as np

from sporax.dataset.core import config
from sporax.dataset.core.random import eager_words, nested_operations
from sporax.dataset.engine.gamma_draws import Normal
from sporax.dataset.engine.sampler_order import below, canonical, uniform_float
from sporax.dataset.transforms.base import PythonOperation, TensorOperation, apply_chain, random_generator, unpack
from sporax.dataset.vision import color_math
from sporax.dataset.vision.color import AutoContrast, Equalize, Invert, Posterize, Solarize, rgb_image
from sporax.dataset.vision.utils import as_image, check_probability, restore_like


def _check_degrees(op_name, degrees, low=0.0):
    if not (isinstance(degrees, (list, tuple)) and len(degrees) == 2 and low <= degrees[0] <= degrees[1]):
        raise ValueError(f"{op_name}: degrees should be a (min, max) pair with {low} <= min <= max, got {degrees!r}.")
    return tuple(float(d) for d in degrees)


class RandomSharpness(TensorOperation):
    """Adjust sharpness by a factor drawn from ``degrees`` (0 blurs, 1 keeps, 2 sharpens)."""

    random = True
    mindspore_draws = True

    def __init__(self, degrees=(0.1, 1.9)):
        self.degrees = _check_degrees("RandomSharpness", degrees)

    def __call__(self, img):
        image = as_image("RandomSharpness", img)
        low, high = self.degrees
        words = eager_words(self)
        if words is not None:  # MindSpore's kernel: the middle plus a float32 in [-1, 1) times half the range
            half, middle = np.float32((high - low) / 2), np.float32((high + low) / 2)
            factor = float(middle + np.float32(uniform_float(words, -1.0, 1.0)) * half)
        else:
            factor = low + random_generator().random() * (high - low)
        return restore_like(color_math.adjust_sharpness(image, factor), img)


class RandomColor(TensorOperation):
    """Adjust colour saturation by a factor drawn from ``degrees``."""

    random = True
    mindspore_draws = True

    def __init__(self, degrees=(0.1, 1.9)):
        self.degrees = _check_degrees("RandomColor", degrees)

    def __call__(self, img):
        image = rgb_image("RandomColor", img)
        low, high = self.degrees
        words = eager_words(self)  # MindSpore's kernel: one uniform_real_distribution<float>(low, high) draw
        factor = uniform_float(words, low, high) if words is not None else low + random_generator().random() * (
            high - low)
        return restore_like(color_math.adjust_saturation(image, factor), img)


class _RandomApplyOne(TensorOperation):
    """Apply ``self._op`` with probability ``prob``."""

    random = True
    mindspore_draws = True

    def __init__(self, prob=0.5):
        self.prob = check_probability(type(self).__name__, prob)

    def __call__(self, img):
        words = eager_words(self)  # MindSpore's kernel: std::bernoulli_distribution(prob)
        if (canonical(words) if words is not None else random_generator().random()) < self.prob:
            return self._op(img)
        return img


class RandomInvert(_RandomApplyOne):
    """Invert the image with probability ``prob``."""

    _op = Invert()


class RandomEqualize(_RandomApplyOne):
    """Equalise the histogram with probability ``prob``."""

    _op = Equalize()


class RandomAutoContrast(_RandomApplyOne):
    """AutoContrast with probability ``prob``."""

    def __init__(self, cutoff=0.0, ignore=None, prob=0.5):
        super().__init__(prob)
        self.cutoff, self.ignore = cutoff, ignore
        self._op = AutoContrast(cutoff, ignore)


class RandomAdjustSharpness(_RandomApplyOne):
    """Adjust sharpness by ``degree`` with probability ``prob``."""

    def __init__(self, degree, prob=0.5):
        super().__init__(prob)
        if isinstance(degree, bool) or not isinstance(degree, (int, float)) or degree < 0:
            raise ValueError(f"RandomAdjustSharpness: degree must be a non-negative number, got {degree!r}.")
        self.degree = degree

    def _op(self, img):
        return restore_like(color_math.adjust_sharpness(as_image("RandomAdjustSharpness", img), self.degree), img)


class RandomPosterize(TensorOperation):
    """Posterize with a bit count drawn from ``bits`` ((min, max) or a single value)."""

    random = True
    mindspore_draws = True

    def __init__(self, bits=(8, 8)):
        if isinstance(bits, int) and not isinstance(bits, bool):
            bits = (bits, bits)
        if not (isinstance(bits, (list, tuple)) and len(bits) == 2 and 1 <= bits[0] <= bits[1] <= 8):
            raise ValueError(f"RandomPosterize: bits should be (min, max) with 1 <= min <= max <= 8, got {bits!r}.")
        self.bits = tuple(bits)

    def __call__(self, img):
        low, high = self.bits
        words = eager_words(self)
        if words is not None:  # MindSpore's kernel: no draw for a single bit count
            bits = low if low == high else low + below(words, high - low + 1)
        else:
            bits = low + min(int(random_generator().random() * (high - low + 1)), high - low)
        return Posterize(bits)(img)


class RandomSolarize(TensorOperation):
    """Solarize with a (min, max) threshold drawn from ``threshold``."""

    random = True
    mindspore_draws = True

    def __init__(self, threshold=(0, 255)):
        if not (isinstance(threshold, (list, tuple)) and len(threshold) == 2 and 0 <= threshold[0] <= threshold[1]
                <= 255):
            raise ValueError(f"RandomSolarize: threshold should be (min, max) within [0, 255], got {threshold!r}.")
        self.threshold = tuple(threshold)

    def __call__(self, img):
        low, high = self.threshold
        words = eager_words(self)
        if words is not None:  # MindSpore's kernel: two integers in [low, high], the smaller first
            picked = sorted(low + below(words, high - low + 1) for _ in range(2))
        else:
            draw = random_generator().random(2)
            picked = sorted(int(low + min(int(d * (high - low + 1)), high - low)) for d in draw)
        return Solarize(tuple(picked))(img)


class RandomLighting(TensorOperation):
    """AlexNet-style PCA lighting noise with strength ``alpha``."""

    random = True
    mindspore_draws = True
    _eigval = np.array([0.2175, 0.0188, 0.0045])
    _eigvec = np.array([[-0.5675, 0.7192, 0.4009], [-0.5808, -0.0045, -0.8140], [-0.5836, -0.6948, 0.4203]])
    _eigval_255 = np.array([55.46, 4.794, 1.148])

    def __init__(self, alpha=0.05):
        if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or alpha < 0:
            raise ValueError(f"RandomLighting: alpha must be a non-negative number, got {alpha!r}.")
        self.alpha = alpha

    def __call__(self, img):
        image = rgb_image("RandomLighting", img)
        words = eager_words(self)
        if words is None:
            weights = random_generator().normal(0.0, self.alpha, 3)
        else:
            # MindSpore's kernel: three draws (r, g, b) of its normal_distribution<float>(0, alpha) member,
            # whose cached second value carries over to the next call of the same copy (the same stream).
            normal, alpha = words.__dict__.setdefault("normal", Normal()), np.float32(self.alpha)
            weights = np.array([normal(words) * alpha + np.float32(0) for _ in range(3)], np.float32)
        if image.dtype == np.uint8:
            # MindSpore's uint8 kernel: float32 shifts from its float32 table (eigenvalue * 255 rounded to
            # 4 digits times the eigenvector), summed in order and added per pixel, rounded half to even.
            table = (self._eigval_255 * self._eigvec).astype(np.float32)
            weights = weights.astype(np.float32)
            shift = [table[row, 0] * weights[0] + table[row, 1] * weights[1] + table[row, 2] * weights[2]
                     for row in range(3)]
            return restore_like(color_math.saturate(image.astype(np.float32) + np.array(shift, np.float32),
                                                    np.uint8), img)
        shift = self._eigvec @ (weights * self._eigval) * 255.0
        return restore_like(color_math.saturate(image.astype(np.float32) + shift.astype(np.float32), image.dtype), img)


def erase(image, top, left, height, width, value):
    """Set a rectangle of an HWC image to ``value`` (scalar or per channel); returns a copy."""
    out = image.copy()
    out[top:top + height, left:left + width] = value
    return out


class Erase(TensorOperation):
    """Set the rectangle (top, left, height, width) to ``value``."""

    def __init__(self, top, left, height, width, value=0.0, inplace=False):
        self.top, self.left, self.height, self.width = top, left, height, width
        self.value, self.inplace = value, inplace

    def __call__(self, img):
        image = as_image("Erase", img)
        value = np.asarray(self.value, dtype=image.dtype) if np.ndim(self.value) == 0 or image.ndim == 2 \
            else np.asarray(self.value, dtype=image.dtype)
        return restore_like(erase(image, self.top, self.left, self.height, self.width, value), img)


class CutOut(TensorOperation):
    """Set ``num_patches`` random ``length`` x ``length`` squares of the image to zero."""

    random = True
    mindspore_draws = True

    def __init__(self, length, num_patches=1, is_hwc=True):
        for name, value in (("length", length), ("num_patches", num_patches)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"CutOut: Input {name} is not within the required interval of [1, 2147483647], "
                                 f"got {value!r}.")
        self.length, self.num_patches, self.is_hwc = length, num_patches, is_hwc

    def __call__(self, img):
        image = as_image("CutOut", img)
        chw = not self.is_hwc and image.ndim == 3
        out = image.copy()
        view = out.transpose(1, 2, 0) if chw else out
        height, width = view.shape[:2]
        side_h, side_w = min(self.length, height), min(self.length, width)
        words = eager_words(self)
        if words is not None:
            # MindSpore's kernel: per patch a top in [-length, height] then a left in [-length, width], the
            # box clipped to the image (so patches near the border are partly outside it).
            for _ in range(self.num_patches):
                top = below(words, height + self.length + 1) - self.length
                left = below(words, width + self.length + 1) - self.length
                view[max(top, 0):max(top + self.length, 0), max(left, 0):max(left + self.length, 0)] = 0
            return restore_like(out, img)
        draws = random_generator().random((self.num_patches, 2))
        for draw_y, draw_x in draws:
            top = min(int(draw_y * (height - side_h + 1)), height - side_h)
            left = min(int(draw_x * (width - side_w + 1)), width - side_w)
            view[top:top + side_h, left:left + side_w] = 0
        return restore_like(out, img)


class _GeneratorDraws:
    """Python ``random``'s ``random``/``uniform``/``randint`` over a NumPy generator."""

    def __init__(self, rng):
        self.rng = rng

    def random(self):
        return float(self.rng.random())

    def uniform(self, low, high):
        return low + (high - low) * float(self.rng.random())

    def randint(self, low, high):
        return int(self.rng.integers(low, high + 1))


class RandomErasing(PythonOperation, TensorOperation):
    """With probability ``prob``, erase a random rectangle (area ``scale``, aspect ``ratio``) of a CHW image.

    MindSpore's RandomErasing is Python drawing from Python's ``random`` (seeded by ``set_seed``) and, for
    ``value='random'``, ``np.random.normal``; under a set dataset seed sporax draws from them in the same
    order (the map's rows then run in order, in one thread), else from the pipeline's generator.
    """

    random = True
    mindspore_draws = True

    def __init__(self, prob=0.5, scale=(0.02, 0.33), ratio=(0.3, 3.3), value=0, inplace=False, max_attempts=10):
        self.prob = check_probability("RandomErasing", prob)
        self.scale, self.ratio, self.value = tuple(scale), tuple(ratio), value
        self.inplace, self.max_attempts = inplace, max_attempts

    def __call__(self, img):
        image = as_image("RandomErasing", img)
        seeded = config.seed_was_set()
        draws = python_random if seeded else _GeneratorDraws(random_generator())
        if not self.prob > draws.random():
            return image
        channels, height, width = image.shape if image.ndim == 3 else (1,) + image.shape
        for _ in range(self.max_attempts):
            area = draws.uniform(self.scale[0], self.scale[1]) * height * width
            aspect = draws.uniform(self.ratio[0], self.ratio[1])
            erase_w = int(round(math.sqrt(area * aspect)))
            erase_h = int(round(erase_w / aspect))
            if erase_h < height and erase_w < width:
                top = draws.randint(0, height - erase_h)
                left = draws.randint(0, width - erase_w)
                out = image if self.inplace else image.copy()
                if isinstance(self.value, (str, bytes)):
                    normal = np.random.normal if seeded else draws.rng.normal
                    fill = normal(0.0, 1.0, (channels, erase_h, erase_w))
                else:
                    fill = np.asarray(self.value, np.float64).reshape(-1, 1, 1)
                if image.ndim == 3:
                    out[:, top:top + erase_h, left:left + erase_w] = fill
                else:
                    out[top:top + erase_h, left:left + erase_w] = fill[0]
                return out
        return image


class RandomSelectSubpolicy(TensorOperation):
    """Pick one sub-policy (a list of (transform, prob) pairs) at random and apply it."""

    random = True
    mindspore_draws = True

    def __init__(self, policy):
        if not isinstance(policy, list) or not policy:
            raise TypeError("RandomSelectSubpolicy: policy should be a non-empty list of sub-policies.")
        for subpolicy in policy:
            if not isinstance(subpolicy, list) or not subpolicy:
                raise TypeError("RandomSelectSubpolicy: each sub-policy should be a non-empty list of "
                                "(transform, prob) tuples.")
            for entry in subpolicy:
                if not (isinstance(entry, tuple) and len(entry) == 2 and callable(entry[0])):
                    raise TypeError(f"RandomSelectSubpolicy: expected (transform, prob), got {entry!r}.")
                check_probability("RandomSelectSubpolicy", entry[1])
        self.policy = policy

    def __call__(self, *columns):
        words = eager_words(self)
        if words is not None:
            # MindSpore's kernel: the sub-policy by uniform_int_distribution, then per step
            # uniform_real_distribution<double>(0, 1) <= prob; the steps' own draws keep the dataset seed.
            subpolicy = self.policy[below(words, len(self.policy))]
            with nested_operations():
                for op, prob in subpolicy:
                    if canonical(words) <= prob:
                        columns = apply_chain([op], columns)
            return unpack(columns)
        rng = random_generator()
        subpolicy = self.policy[min(int(rng.random() * len(self.policy)), len(self.policy) - 1)]
        for op, prob in subpolicy:
            if rng.random() < prob:
                columns = apply_chain([op], columns)
        return unpack(columns)


def _sample_in_order(population, count, words):
    """GCC's ``std::sample`` of ``count`` of ``range(population)`` into an output iterator (selection sampling,
    keeping order), two decisions a draw while ``population ** 2`` fits in the engine's range."""
    chosen, left, index = [], population, 0
    if words.span // max(population, 1) >= population:
        while count and left >= 2:
            first, second = divmod(below(words, left * (left - 1)), left - 1)
            left -= 1
            if first < count:
                chosen.append(index)
                count -= 1
            index += 1
            if not count:
                break
            left -= 1
            if second < count:
                chosen.append(index)
                count -= 1
            index += 1
    while count:
        left -= 1
        if below(words, left + 1) < count:
            chosen.append(index)
            count -= 1
        index += 1
    return chosen


class UniformAugment(TensorOperation):
    """Apply ``num_ops`` transforms picked at random (without repeats) from ``transforms``, each with prob 0.5."""

    random = True
    mindspore_draws = True

    def __init__(self, transforms, num_ops=2):
        if not isinstance(transforms, list) or not transforms:
            raise TypeError("UniformAugment: transforms should be a non-empty list.")
        if not 1 <= num_ops <= len(transforms):
            raise ValueError(f"UniformAugment: num_ops must be in [1, {len(transforms)}], got {num_ops}.")
        self.transforms, self.num_ops = transforms, num_ops

    def __call__(self, img):
        words = eager_words(self)
        if words is not None:
            # MindSpore's kernel: GCC's std::sample of num_ops transforms (in list order), then per transform
            # uniform_int_distribution(0, 1): 0 applies it; the transforms' own draws keep the dataset seed.
            with nested_operations():
                for index in _sample_in_order(len(self.transforms), self.num_ops, words):
                    if below(words, 2) == 0:
                        img = self.transforms[index](img)
            return img
        rng = random_generator()
        chosen = rng.permutation(len(self.transforms))[:self.num_ops]
        for index in chosen:
            if rng.random() < 0.5:
                img = self.transforms[index](img)
        return img

