"""``ops.SampleDistortedBoundingBoxV2``: a random crop of an image that keeps enough of its objects (TensorFlow's
``sample_distorted_bounding_box``, which MindSpore 2.10 follows).

Algorithm, per attempt (at most ``max_attempts``): draw an aspect ratio ``a`` uniformly in
``aspect_ratio_range``; with ``min_area``/``max_area`` the ``area_range`` fractions of ``H * W``, the crop
height runs from ``round(sqrt(min_area / a))`` to ``round(sqrt(max_area / a))`` (held so that the width
``round(height * a)`` fits the image), a height is drawn uniformly in that range and nudged by one when
its area falls outside ``[min_area, max_area]``; the top-left corner is uniform over the positions
that fit. The crop is accepted when it covers at least ``min_object_covered`` of the area of one of
``bounding_boxes`` (a cover of 0 accepts any crop). When no attempt succeeds the crop is the whole
image. Random numbers come from the op's own stream when ``seed`` or ``seed2`` is set (a new instance
with the same seeds repeats it), else from the global random state. It runs eagerly (PyNative), on
the concrete sizes.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> begin, size, box = ops.SampleDistortedBoundingBoxV2(seed=1)(
    ...     Tensor(np.array([10, 10, 3], np.int32)), Tensor(np.array([[[0.1, 0.1, 0.9, 0.9]]], np.float32)),
    ...     Tensor(np.array([0.1], np.float32)))
    >>> begin.shape, size.shape, box.shape
    ((3,), (3,), (1, 1, 4))
"""
import jax
import numpy as np

from sporax.core.tensor import Tensor
from sporax.ops._dispatch import wrap
from sporax.ops.operations.random_ops import _RandomPrimitive
from sporax.ops.primitive import Primitive


def _pair(name, value, low_open):
    if not isinstance(value, (list, tuple)) or len(value) != 2 or not all(isinstance(v, (int, float)) for v in value):
        raise TypeError(f"For 'SampleDistortedBoundingBoxV2', '{name}' must be a list or tuple of 2 floats, but got "
                        f"{value!r}.")
    low, high = float(value[0]), float(value[1])
    if low <= 0 or high <= low or (not low_open and high > 1.0):
        raise ValueError(f"For 'SampleDistortedBoundingBoxV2', '{name}' must be an increasing pair of positive values"
                         f"{'' if low_open else ' at most 1'}, but got {value!r}.")
    return low, high


def _random_crop(rng, height, width, min_area, max_area, aspect):
    """A crop (y, x, h, w) of the given area range and aspect ratio, or None (TensorFlow's GenerateRandomCrop)."""
    crop_height = int(round(np.sqrt(min_area / aspect)))
    max_height = int(round(np.sqrt(max_area / aspect)))
    if max_height * aspect > width:
        max_height = int((width + 0.5 - 1e-7) / aspect)
    max_height = min(max_height, height)
    crop_height = min(crop_height, max_height)
    if crop_height < max_height:
        crop_height += int(rng.integers(0, max_height - crop_height + 1))
    crop_width = int(round(crop_height * aspect))
    if crop_width * crop_height < min_area:
        crop_height += 1
        crop_width = int(round(crop_height * aspect))
    if crop_width * crop_height > max_area:
        crop_height -= 1
        crop_width = int(round(crop_height * aspect))
    area = crop_width * crop_height
    if not (min_area <= area <= max_area) or not 0 < crop_width <= width or not 0 < crop_height <= height:
        return None
    y = int(rng.integers(0, height - crop_height + 1))
    x = int(rng.integers(0, width - crop_width + 1))
    return y, x, crop_height, crop_width


def _covers(crop, boxes, height, width, min_covered):
    """Whether the crop covers at least ``min_covered`` of one of ``boxes`` (normalized y1, x1, y2, x2 rows)."""
    if min_covered <= 0:
        return True
    y, x, crop_height, crop_width = crop
    for y1, x1, y2, x2 in boxes:
        top, left, bottom, right = y1 * height, x1 * width, y2 * height, x2 * width
        area = (bottom - top) * (right - left)
        if area <= 0:
            continue
        overlap = (max(0.0, min(bottom, y + crop_height) - max(top, y)) *
                   max(0.0, min(right, x + crop_width) - max(left, x)))
        if overlap / area >= min_covered:
            return True
    return False


class SampleDistortedBoundingBoxV2(_RandomPrimitive):
    """A randomly distorted crop box for an image (see the module doc for the algorithm).

    Args:
        seed, seed2 (int): op seeds; 0 and 0 draw from the global random state. Default: 0.
        aspect_ratio_range (tuple[float]): width / height range. Default: (0.75, 1.33).
        area_range (tuple[float]): the crop's fraction of the image area, in (0, 1]. Default: (0.05, 1.0).
        max_attempts (int): attempts before falling back to the whole image. Default: 100.
        use_image_if_no_bounding_boxes (bool): without boxes, use the whole image as the box (else an error).
            Default: False.

    Inputs:
        - **image_size** (Tensor) - [height, width, channels], positive ints.
        - **bounding_boxes** (Tensor) - float32 (batch, N, 4) normalized ``(y1, x1, y2, x2)`` boxes.
        - **min_object_covered** (Tensor) - float32 (1,): the fraction of a box the crop must cover.

    Outputs:
        ``(begin, size, bboxes)``: ``[y, x, 0]`` and ``[h, w, -1]`` (``image_size``'s dtype; -1 is 255 for uint8),
        and the crop as a float32 (1, 1, 4) normalized box.
    """

    def __init__(self, seed=0, seed2=0, aspect_ratio_range=(0.75, 1.33), area_range=(0.05, 1.0), max_attempts=100,
                 use_image_if_no_bounding_boxes=False):
        Primitive.__init__(self, "SampleDistortedBoundingBoxV2")
        for name, value in (("seed", seed), ("seed2", seed2), ("max_attempts", max_attempts)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"For 'SampleDistortedBoundingBoxV2', '{name}' must be an int, but got {value!r}.")
        if max_attempts < 1:
            raise ValueError(f"For 'SampleDistortedBoundingBoxV2', max_attempts must be positive, but got "
                             f"{max_attempts}.")
        if not isinstance(use_image_if_no_bounding_boxes, bool):
            raise TypeError("For 'SampleDistortedBoundingBoxV2', use_image_if_no_bounding_boxes must be a bool.")
        self.aspect_ratio_range = _pair("aspect_ratio_range", aspect_ratio_range, low_open=True)
        self.area_range = _pair("area_range", area_range, low_open=False)
        self.max_attempts, self.use_image_if_no_bounding_boxes = max_attempts, use_image_if_no_bounding_boxes
        for name, value in (("seed", seed), ("seed2", seed2), ("aspect_ratio_range", aspect_ratio_range),
                            ("area_range", area_range), ("max_attempts", max_attempts),
                            ("use_image_if_no_bounding_boxes", use_image_if_no_bounding_boxes)):
            self.add_prim_attr(name, value)
        self.seed, self.seed2 = seed, seed2
        self._start_stream()

    def __call__(self, image_size, bounding_boxes, min_object_covered):
        arrays = []
        for name, value in (("image_size", image_size), ("bounding_boxes", bounding_boxes),
                            ("min_object_covered", min_object_covered)):
            if not isinstance(value, Tensor):
                raise TypeError(f"For 'SampleDistortedBoundingBoxV2', '{name}' must be a Tensor, but got "
                                f"{type(value).__name__}.")
            if isinstance(value._value, jax.core.Tracer):
                raise RuntimeError("For 'SampleDistortedBoundingBoxV2', the inputs must be concrete: it runs in "
                                   "PyNative mode, outside ms.jit and GRAPH mode.")
            arrays.append(np.asarray(value._value))
        size, boxes, covered = arrays
        if size.shape != (3,) or (size <= 0).any():
            raise ValueError(f"For 'SampleDistortedBoundingBoxV2', image_size must be 3 positive values [height, "
                             f"width, channels], but got {size.tolist()}.")
        if boxes.ndim != 3 or boxes.shape[-1] != 4:
            raise ValueError(f"For 'SampleDistortedBoundingBoxV2', bounding_boxes must have shape (batch, N, 4), but "
                             f"got {boxes.shape}.")
        if covered.size != 1:
            raise ValueError(f"For primitive[SampleDistortedBoundingBoxV2], the min_object_covered dimension must be "
                             f"equal to 1, but got {covered.size}.")
        boxes = boxes.reshape(-1, 4).astype(np.float64)
        if boxes.shape[0] == 0:
            if not self.use_image_if_no_bounding_boxes:
                raise ValueError("For 'SampleDistortedBoundingBoxV2', no bounding boxes were given: pass some, or set "
                                 "use_image_if_no_bounding_boxes=True to use the whole image.")
            boxes = np.array([[0.0, 0.0, 1.0, 1.0]])
        height, width = int(size[0]), int(size[1])
        rng = np.random.default_rng(np.asarray(jax.random.key_data(self._key())).astype(np.uint32).tolist())
        crop = None
        for _ in range(self.max_attempts):
            aspect = rng.uniform(*self.aspect_ratio_range)
            candidate = _random_crop(rng, height, width, self.area_range[0] * height * width,
                                     self.area_range[1] * height * width, aspect)
            if candidate is not None and _covers(candidate, boxes, height, width, float(covered.reshape(-1)[0])):
                crop = candidate
                break
        y, x, crop_height, crop_width = crop if crop is not None else (0, 0, height, width)
        last = 255 if size.dtype == np.uint8 else -1
        box = np.array([[[y / height, x / width, (y + crop_height) / height, (x + crop_width) / width]]], np.float32)
        return (wrap(np.array([y, x, 0], size.dtype)), wrap(np.array([crop_height, crop_width, last], size.dtype)),
                wrap(box))
