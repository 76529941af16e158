"""``ops.crop_and_resize``: boxes cropped out of an NHWC image batch and resized (an op-table entry; the
``CropAndResize`` Primitive checks its method when built and calls it).

``CropAndResize`` crops boxes out of an NHWC image batch and resizes each to ``crop_size``.

Boxes are normalized ``(y1, x1, y2, x2)`` rows; crop row ``i`` samples the image at
``y1 * (H - 1) + i * (y2 - y1) * (H - 1) / (crop_h - 1)`` (the box centre when ``crop_h == 1``), and
likewise for columns. A sample outside ``[0, H - 1] x [0, W - 1]`` takes ``extrapolation_value``.
``'bilinear'`` interpolates the four neighbours, ``'nearest'`` rounds half away from zero. The output
is float32 whatever the image dtype (integer images are read as they are stored).

``'bilinear_v2'`` (MindSpore's own variant, measured against MindSpore 2.10) works in whole pixels: a box
spans pixels ``p1 = int(y1 * H)`` to ``p2 = int(y2 * H)`` (truncated), ``L = p2 - p1 + 1`` of them, and crop
row ``i`` samples the centre of its bin, ``p1 + (i + 0.5) * L / crop_h - 0.5``, held inside ``[p1, p2]`` and
then inside the image (never extrapolated); likewise for columns.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> image = Tensor(np.arange(16, dtype=np.float32).reshape(1, 4, 4, 1))
    >>> boxes = Tensor(np.array([[0, 0, 1, 1]], np.float32))
    >>> ops.crop_and_resize(image, boxes, Tensor(np.array([0], np.int32)), (2, 2))[0, :, :, 0].asnumpy().tolist()
    [[0.0, 3.0], [12.0, 15.0]]
"""
import math

import jax.numpy as jnp
import numpy as np

from sporax.ops.op_table import TO_FLOAT, Sample, op
from sporax.ops.samples import _numpy_dtype

METHODS = ("bilinear", "nearest", "bilinear_v2")


def _sample_positions(start, end, size, out_size):
    """Sample coordinates along one axis for every box: (boxes, out_size)."""
    if out_size > 1:
        # start + i * (end - start) / (n - 1) as a blend of the two ends: exact at both, however the compiled
        # kernel fuses it (a first or last sample at 0 or size - 1 must not fall outside by a rounding).
        fraction = (jnp.arange(out_size, dtype=jnp.float32) / (out_size - 1))[None, :]
        return (start * (size - 1))[:, None] * (1 - fraction) + (end * (size - 1))[:, None] * fraction
    return (0.5 * (start + end) * (size - 1))[:, None]


def _pixel_bin_positions(start, end, size, out_size):
    """bilinear_v2's sample coordinates: bin centres over the box's whole pixels, held inside the box."""
    first = jnp.trunc(start * size)
    last = jnp.trunc(end * size)
    count = last - first + 1
    bins = (jnp.arange(out_size, dtype=jnp.float32)[None, :] + 0.5) * (count / out_size)[:, None]
    positions = jnp.maximum(jnp.minimum(first[:, None] + bins - 0.5, last[:, None]), first[:, None])
    return jnp.clip(positions, 0, size - 1)


def _round_half_away(values):
    return jnp.sign(values) * jnp.floor(jnp.abs(values) + 0.5)


def _gather(pixels, rows, cols):
    """pixels[b, rows[b, i], cols[b, j]] (clipped into the image; outside samples are replaced later)."""
    rows = jnp.clip(rows, 0, pixels.shape[1] - 1).astype(jnp.int32)
    cols = jnp.clip(cols, 0, pixels.shape[2] - 1).astype(jnp.int32)
    batch = jnp.arange(pixels.shape[0])[:, None, None]
    return pixels[batch, rows[:, :, None], cols[:, None, :]]


# --- samples and NumPy reference (the op test table's oracle) ----------------------------------

def _numpy_crop_and_resize(image, boxes, box_indices, crop_size, method="bilinear", extrapolation_value=0.0):
    """TensorFlow's crop_and_resize, sample by sample ('bilinear' and 'nearest')."""
    _, height, width, _ = image.shape
    out = np.empty((len(boxes), *crop_size, image.shape[3]))

    def coordinate(start, end, position, size, count):
        if count == 1:
            return 0.5 * (start + end) * (size - 1)
        return start * (size - 1) + position * (end - start) * (size - 1) / (count - 1)

    for box, ((y1, x1, y2, x2), which) in enumerate(zip(boxes, box_indices)):
        for i in range(crop_size[0]):
            y = coordinate(y1, y2, i, height, crop_size[0])
            for j in range(crop_size[1]):
                x = coordinate(x1, x2, j, width, crop_size[1])
                if not (0 <= y <= height - 1 and 0 <= x <= width - 1):
                    out[box, i, j] = extrapolation_value
                elif method == "nearest":
                    out[box, i, j] = image[which, int(math.floor(y + 0.5)), int(math.floor(x + 0.5))]
                else:
                    top, left = int(math.floor(y)), int(math.floor(x))
                    bottom, right = int(math.ceil(y)), int(math.ceil(x))
                    dy, dx = y - top, x - left
                    upper = image[which, top, left] * (1 - dx) + image[which, top, right] * dx
                    lower = image[which, bottom, left] * (1 - dx) + image[which, bottom, right] * dx
                    out[box, i, j] = upper + (lower - upper) * dy
    return out


def _crop_samples(dtype):
    """Boxes inside the image whose samples fall between pixel rows and columns (finite differences must not
    cross one), then boxes reaching outside it (extrapolated samples) and nearest sampling."""
    generator = np.random.default_rng(0)
    image = generator.uniform(-2, 2, size=(2, 5, 6, 3)).astype(_numpy_dtype(dtype))
    inside = np.array([[0.13, 0.21, 0.83, 0.72], [0.31, 0.07, 0.58, 0.94], [0.55, 0.42, 0.16, 0.11]], np.float32)
    outside = np.array([[-0.3, 0.2, 0.6, 1.4], [0.1, -0.25, 1.3, 0.8]], np.float32)
    indices = np.array([1, 0, 1], np.int32)
    return [Sample((image, inside, indices), {"crop_size": (3, 4)}),
            Sample((image, inside[:2], indices[:2]), {"crop_size": (1, 2)}),
            Sample((image, outside, indices[:2]), {"crop_size": (4, 3), "extrapolation_value": -1.5}),
            Sample((image, inside, indices), {"crop_size": (3, 3), "method": "nearest"})]


@op(inputs=("image", "boxes", "box_indices"), dtypes=TO_FLOAT, samples=_crop_samples,
    reference=_numpy_crop_and_resize)
def crop_and_resize(image, boxes, box_indices, crop_size, method="bilinear", extrapolation_value=0.0):
    """Crop ``boxes`` (normalized ``(y1, x1, y2, x2)`` rows) out of the images ``box_indices`` names and resize each
    to ``crop_size``.

    Args:
        image (Tensor): (batch, height, width, channels), real numbers.
        boxes (Tensor): float32 (num_boxes, 4).
        box_indices (Tensor): int32 (num_boxes,), the image of each box.
        crop_size (tuple[int]): ``(crop_height, crop_width)``.
        method (str): ``'bilinear'`` (default), ``'nearest'`` or ``'bilinear_v2'``.
        extrapolation_value (float): the value of samples outside the image. Default: ``0.0``.

    Returns:
        float32 Tensor (num_boxes, crop_height, crop_width, channels).
    """
    if method not in METHODS:
        raise ValueError(f"For 'CropAndResize', 'method' must be 'bilinear', 'nearest' or 'bilinear_v2', "
                         f"but got {method!r}.")
    # The TO_FLOAT rule reads every input as float (an integer image keeps its stored values): indices back to ints.
    boxes, index = boxes.astype(jnp.float32), box_indices.astype(jnp.int32)
    if image.ndim != 4 or boxes.ndim != 2 or boxes.shape[1] != 4 or index.shape != boxes.shape[:1]:
        raise ValueError(f"For 'CropAndResize', expected x of rank 4, boxes (num_boxes, 4) and box_index "
                         f"(num_boxes,), but got {image.shape}, {boxes.shape} and {index.shape}.")
    if (not isinstance(crop_size, (tuple, list)) or len(crop_size) != 2
            or any(not isinstance(size, int) or size < 1 for size in crop_size)):
        raise ValueError(f"For 'CropAndResize', 'crop_size' must be a tuple of 2 positive ints, "
                         f"but got {crop_size!r}.")
    _, height, width, _ = image.shape
    positions = _pixel_bin_positions if method == "bilinear_v2" else _sample_positions
    rows = positions(boxes[:, 0], boxes[:, 2], height, crop_size[0])
    cols = positions(boxes[:, 1], boxes[:, 3], width, crop_size[1])
    pixels = image.astype(jnp.float32)[index]                      # (boxes, H, W, C)
    if method == "nearest":
        out = _gather(pixels, _round_half_away(rows), _round_half_away(cols))
    else:
        top, left = jnp.floor(rows), jnp.floor(cols)
        bottom, right = jnp.ceil(rows), jnp.ceil(cols)
        y_lerp = (rows - top)[:, :, None, None]
        x_lerp = (cols - left)[:, None, :, None]
        upper = _gather(pixels, top, left) * (1 - x_lerp) + _gather(pixels, top, right) * x_lerp
        lower = _gather(pixels, bottom, left) * (1 - x_lerp) + _gather(pixels, bottom, right) * x_lerp
        out = upper + (lower - upper) * y_lerp
    if method == "bilinear_v2":
        return out
    inside = (((rows >= 0) & (rows <= height - 1))[:, :, None, None]
              & ((cols >= 0) & (cols <= width - 1))[:, None, :, None])
    return jnp.where(inside, out, jnp.float32(extrapolation_value))
