"""``MixUpBatch`` and ``CutMixBatch``: mix the images and one-hot labels of a batch, drawing as MindSpore 2.10.

Both draw from one ``std::mt19937`` stream (under a set dataset seed the kernel's own: eager calls
``std::mt19937(seed)``, map workers ``seed + worker``; otherwise 32-bit words from the pipeline's
generator) in the kernels' order, so seeded pipelines give MindSpore's exact values:

* MixUpBatch: one weight ``lam = x1 / (x1 + x2)`` from two separate ``gamma_distribution<float>(alpha)``
  objects (each with its own cached normal), then GCC's ``std::shuffle`` of the batch indices;
  image i becomes ``lam * image[i] + (1 - lam) * image[order[i]]`` (OpenCV's float32 weighted sum,
  rounded half to even for integer images), labels likewise in float32.
* CutMixBatch: the shuffle first, then per image a ``lam`` (the two gamma objects live for the whole
  batch), a ``uniform_real_distribution<double>`` draw against ``prob`` and, below it, a box of
  ``sqrt(1 - lam)`` of the height and width around a centre drawn in [0, width] then [0, height],
  clamped into the image; the partner's box is pasted in and the labels mixed by the pasted area.
"""
import numpy as np

from sporax.dataset.core.random import eager_words
from sporax.dataset.engine.gamma_draws import Gamma, beta_draw
from sporax.dataset.engine.sampler_order import below, canonical, shuffle
from sporax.dataset.transforms.base import TensorOperation, check_type, random_generator, to_array
from sporax.dataset.vision.utils import ImageBatchFormat, check_probability

_MAX_ALPHA = 16777216


class GeneratorWords:
    """32-bit words from a NumPy generator, for the kernels' draws when no dataset seed is set."""

    span = 0xFFFFFFFF

    def __init__(self, generator):
        self.generator = generator

    def __call__(self):
        return int(self.generator.integers(0, 1 << 32))


def _words(op):
    words = eager_words(op)
    return words if words is not None else GeneratorWords(random_generator())


def _check_alpha(op_name, alpha):
    check_type(op_name, "alpha", alpha, (int, float), "[<class 'int'>, <class 'float'>]")
    if not 0 < alpha <= _MAX_ALPHA:
        raise ValueError(f"{op_name}: Input alpha is not within the required interval of (0, {_MAX_ALPHA}], "
                         f"got {alpha}.")
    return float(alpha)


def _check_batch(op_name, images, labels, channel_axes):
    """The images (N, H, W, C) or (N, C, H, W) and labels (N, C) or (N, L, C) as MindSpore checks them."""
    images, labels = to_array(images, op_name), to_array(labels, op_name)
    if images.ndim != 4:
        raise RuntimeError(f"{op_name}: images must be a batch of rank 4 <N, H, W, C> or <N, C, H, W>, but got "
                           f"shape {images.shape}; batch the images before {op_name}.")
    if not any(images.shape[axis] in (1, 3) for axis in channel_axes):
        raise RuntimeError(f"{op_name}: images must have 1 or 3 channels in dimension "
                           f"{' or '.join(map(str, channel_axes))}, but got shape {images.shape}.")
    if labels.ndim not in (2, 3) or labels.shape[0] != images.shape[0]:
        raise RuntimeError(f"{op_name}: labels must be one-hot of shape <N, C> or <N, L, C> with N={images.shape[0]} "
                           f"as the images, but got shape {labels.shape}; apply OneHot before batch().")
    if labels.dtype.kind not in "iuf":
        raise RuntimeError(f"{op_name}: labels must be numbers, but got dtype {labels.dtype}.")
    return images, labels


def _weighted(first, weight, second, other_weight, dtype):
    """OpenCV's ``weight * first + other_weight * second``: float32 arithmetic rounded half to even and
    saturated for integer images, double arithmetic for float images."""
    if dtype.kind in "iu":
        total = first.astype(np.float32) * np.float32(weight) + second.astype(np.float32) * np.float32(other_weight)
        info = np.iinfo(dtype)
        return np.clip(np.rint(total), info.min, info.max).astype(dtype)
    return (first.astype(np.float64) * float(weight) + second.astype(np.float64) * float(other_weight)).astype(dtype)


def _mix_labels(labels, partners, weights):
    """``w * label + (1 - w) * partner's label`` per row in float32 (MindSpore's label arithmetic)."""
    values = labels.astype(np.float32)
    weights = np.asarray(weights, np.float32).reshape((-1,) + (1,) * (labels.ndim - 1))
    return weights * values + (np.float32(1) - weights) * values[partners]


class MixUpBatch(TensorOperation):
    """Mix each image and one-hot label of a batch with a shuffled partner's, one Beta(alpha, alpha)
    weight for the whole batch.

    Args:
        alpha (float, optional): the Beta distribution's parameters, > 0. Default 1.0.

    Inputs:
        images (numpy.ndarray): a batch <N, H, W, C> or <N, C, H, W> (1 or 3 channels).
        labels (numpy.ndarray): one-hot labels <N, C> or <N, L, C>.

    Outputs:
        the mixed images (the input dtype) and labels (float32).

    Examples:
        >>> import numpy as np
        >>> import sporax.dataset.vision as vision
        >>> images, labels = vision.MixUpBatch(1.0)(np.zeros((2, 4, 4, 3), np.uint8), np.eye(2, dtype=np.int32))
        >>> images.shape, labels.dtype
        ((2, 4, 4, 3), dtype('float32'))
    """

    random = True
    mindspore_draws = True

    def __init__(self, alpha=1.0):
        self.alpha = _check_alpha("MixUpBatch", alpha)

    def __call__(self, images, labels):
        images, labels = _check_batch("MixUpBatch", images, labels, (1, 3))
        words = _words(self)
        weight = beta_draw(Gamma(self.alpha), Gamma(self.alpha), words)
        partners = np.array(shuffle(list(range(images.shape[0])), words), dtype=np.int64)
        mixed = _weighted(images, weight, images[partners], np.float32(1) - weight, images.dtype)
        return mixed, _mix_labels(labels, partners, [weight] * images.shape[0])


def _crop_box(height, width, weight, words):
    """MindSpore's CutMix box (x, y, width, height) for weight ``weight``: centre x in [0, width] then
    y in [0, height], the box sqrt(1 - weight) of each side, clamped into the image (at least 1 wide)."""
    ratio = np.sqrt(np.float32(1) - weight)
    cut_width, cut_height = int(np.float32(width) * ratio), int(np.float32(height) * ratio)
    centre_x, centre_y = below(words, width + 1), below(words, height + 1)

    def clamp(value, high):
        return min(max(value, 0), high)

    left, top = clamp(centre_x - cut_width // 2, width - 1), clamp(centre_y - cut_height // 2, height - 1)
    right, bottom = clamp(centre_x + cut_width // 2, width - 1), clamp(centre_y + cut_height // 2, height - 1)
    # The kernel's clamp to [1, side - 1] keeps 1 where side - 1 < 1.
    box_width = 1 if right - left <= 0 else min(right - left, max(width - 1, 1))
    box_height = 1 if bottom - top <= 0 else min(bottom - top, max(height - 1, 1))
    return left, top, box_width, box_height


class CutMixBatch(TensorOperation):
    """Paste a random box of a shuffled partner into each image of a batch; mix the one-hot labels by the
    pasted area.

    Args:
        image_batch_format (ImageBatchFormat): NHWC or NCHW.
        alpha (float, optional): the Beta distribution's parameters, > 0. Default 1.0.
        prob (float, optional): the probability to cut-mix each image, in [0, 1]. Default 1.0.

    Inputs:
        images (numpy.ndarray): a batch in ``image_batch_format`` (1 or 3 channels).
        labels (numpy.ndarray): one-hot labels <N, C> or <N, L, C>.

    Outputs:
        the images (the input dtype) and labels (float32).

    Examples:
        >>> import numpy as np
        >>> import sporax.dataset.vision as vision
        >>> op = vision.CutMixBatch(vision.ImageBatchFormat.NHWC, 1.0, 0.5)
        >>> images, labels = op(np.zeros((2, 4, 4, 3), np.uint8), np.eye(2, dtype=np.int32))
        >>> images.shape, labels.dtype
        ((2, 4, 4, 3), dtype('float32'))
    """

    random = True
    mindspore_draws = True

    def __init__(self, image_batch_format, alpha=1.0, prob=1.0):
        check_type("CutMixBatch", "image_batch_format", image_batch_format, (ImageBatchFormat,),
                   "[<enum 'ImageBatchFormat'>]")
        self.image_batch_format = image_batch_format
        self.alpha = _check_alpha("CutMixBatch", alpha)
        self.prob = check_probability("CutMixBatch", prob)

    def __call__(self, images, labels):
        nhwc = self.image_batch_format == ImageBatchFormat.NHWC
        images, labels = _check_batch("CutMixBatch", images, labels, (3,) if nhwc else (1,))
        height, width = images.shape[1:3] if nhwc else images.shape[2:4]
        words = _words(self)
        partners = np.array(shuffle(list(range(images.shape[0])), words), dtype=np.int64)
        first, second = Gamma(self.alpha), Gamma(self.alpha)
        out, out_labels = images.copy(), labels.astype(np.float32)
        for index, partner in enumerate(partners):
            weight = beta_draw(first, second, words)
            if canonical(words) >= self.prob:
                continue
            left, top, box_width, box_height = _crop_box(height, width, weight, words)
            rows, columns = slice(top, top + box_height), slice(left, left + box_width)
            if nhwc:
                out[index, rows, columns] = images[partner, rows, columns]
            else:
                out[index, :, rows, columns] = images[partner, :, rows, columns]
            kept = np.float32(1) - np.float32(box_width * box_height) / np.float32(height * width)
            out_labels[index] = kept * labels[index].astype(np.float32) + (np.float32(1) - kept) * labels[
                partner].astype(np.float32)
        return out, out_labels
