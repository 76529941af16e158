"""The crop sampler behind ``ops.SampleDistortedBoundingBoxV2`` (TensorFlow's ``sample_distorted_bounding_box``,
which MindSpore 2.10 follows; the algorithm is described in ``sporax.ops.operations.distorted_box_ops``): an
``eager`` random op-table entry (it reads the sizes and boxes on the host), not exported (MindSpore has no functional
name for it). The Primitive owns a random stream and runs the entry with its key (``entry.sample``).

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.ops.functional.distorted_box import sample_distorted_bounding_box_v2
    >>> begin, size, box = sample_distorted_bounding_box_v2(
    ...     Tensor(np.array([10, 10, 3], np.int32)), Tensor(np.array([[[0.1, 0.1, 0.9, 0.9]]], np.float32)),
    ...     Tensor(np.array([0.1], np.float32)))
    >>> box.shape
    (1, 1, 4)
"""
import jax
import jax.numpy as jnp
import numpy as np

from sporax.core import random_state
from sporax.ops.op_table import ANY, Distribution, Sample, op


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


def _numpy_bounds(image_size, bounding_boxes, min_object_covered, seed=0, seed2=0, aspect_ratio_range=(0.75, 1.33),
                  area_range=(0.05, 1.0), max_attempts=100, use_image_if_no_bounding_boxes=False):
    """Each output within the image: the corner, the crop size and the normalized box."""
    height, width = int(image_size[0]), int(image_size[1])
    dtype = np.asarray(image_size).dtype.name
    return (Distribution(shape=(3,), dtype=dtype, low=np.array([0, 0, 0]), high=np.array([height - 1, width - 1, 0])),
            Distribution(shape=(3,), dtype=dtype, low=np.array([1, 1, -1]), high=np.array([height, width, -1])),
            Distribution(shape=(1, 1, 4), dtype="float32", low=0.0, high=1.0))


def _box_samples(dtype):
    return [Sample((np.array([20, 30, 3], np.int32), np.array([[[0.2, 0.1, 0.6, 0.5]]], np.float32),
                    np.array([0.3], np.float32)), {"area_range": (0.1, 0.6)})]


def _draw_key(seed):
    key = random_state.next_key()
    return key if not seed else jax.random.fold_in(key, int(seed))


@op(inputs=("image_size", "bounding_boxes", "min_object_covered"), dtypes=ANY, eager=True, grad_check=False,
    random=_draw_key, samples=_box_samples, reference=_numpy_bounds)
def sample_distorted_bounding_box_v2(image_size, bounding_boxes, min_object_covered, seed=0, seed2=0,
                                     aspect_ratio_range=(0.75, 1.33), area_range=(0.05, 1.0), max_attempts=100,
                                     use_image_if_no_bounding_boxes=False, *, key):
    """``SampleDistortedBoundingBoxV2``: ``(begin, size, bboxes)`` of a random crop of an ``image_size`` image
    covering at least ``min_object_covered`` of one of ``bounding_boxes``."""
    aspect_ratio_range = _pair("aspect_ratio_range", aspect_ratio_range, low_open=True)
    area_range = _pair("area_range", area_range, low_open=False)
    size, boxes, covered = (np.asarray(value) for value in (image_size, bounding_boxes, min_object_covered))
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
        if not use_image_if_no_bounding_boxes:
            raise ValueError("For 'SampleDistortedBoundingBoxV2', no bounding boxes were given: pass some, or set "
                             "use_image_if_no_bounding_boxes=True to use the whole image.")
        boxes = np.array([[0.0, 0.0, 1.0, 1.0]])
    height, width = int(size[0]), int(size[1])
    rng = np.random.default_rng(np.asarray(jax.random.key_data(key)).astype(np.uint32).tolist())
    crop = None
    for _ in range(max_attempts):
        aspect = rng.uniform(*aspect_ratio_range)
        candidate = _random_crop(rng, height, width, area_range[0] * height * width,
                                 area_range[1] * height * width, aspect)
        if candidate is not None and _covers(candidate, boxes, height, width, float(covered.reshape(-1)[0])):
            crop = candidate
            break
    y, x, crop_height, crop_width = crop if crop is not None else (0, 0, height, width)
    last = 255 if size.dtype == np.uint8 else -1
    box = np.array([[[y / height, x / width, (y + crop_height) / height, (x + crop_width) / width]]], np.float32)
    return (jnp.asarray(np.array([y, x, 0], size.dtype)),
            jnp.asarray(np.array([crop_height, crop_width, last], size.dtype)), jnp.asarray(box))
