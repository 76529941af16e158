"""Bounding-box ops: ``bounding_box_encode``/``decode``, ``check_valid``, ``iou`` (op-table entries).

Boxes are ``(x1, y1, x2, y2)`` rows measured in pixels, inclusively (width ``x2 - x1 + 1``), as
MindSpore's BoundingBoxEncode/Decode, CheckValid and IOU measure them; ``iou``'s output is
``(len(gt_boxes), len(anchor_boxes))``. The Primitives (``ops.operations.bbox_ops``) check their
attributes when built and call these ops.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> boxes = Tensor(np.array([[0.0, 0.0, 1.0, 1.0], [0.0, 0.0, 3.0, 1.0]], np.float32))
    >>> ops.iou(boxes, boxes).asnumpy().tolist()
    [[1.0, 0.5], [0.5, 1.0]]
"""
import math

import jax.numpy as jnp
import numpy as np

from sporax.ops._dispatch import array_of
from sporax.ops.op_table import ANY, Sample, op
from sporax.ops.samples import _numpy_dtype


def boxes_of(name, arg, value, columns=4):
    """The (N, ``columns``) array of box rows ``arg`` of ``name``, or a ValueError naming them."""
    array = array_of(name, arg, value)
    if array.ndim != 2 or array.shape[1] != columns:
        raise ValueError(f"For '{name}', '{arg}' must have shape (N, {columns}), but got {tuple(array.shape)}.")
    return array


def _centres(boxes):
    width = boxes[:, 2] - boxes[:, 0] + 1.0
    height = boxes[:, 3] - boxes[:, 1] + 1.0
    return boxes[:, 0] + 0.5 * width, boxes[:, 1] + 0.5 * height, width, height


def overlap(first, second, extra):
    """Pairwise intersection areas (len(first), len(second)) and both areas, sides measured ``+ extra``."""
    left = jnp.maximum(first[:, None, 0], second[None, :, 0])
    top = jnp.maximum(first[:, None, 1], second[None, :, 1])
    right = jnp.minimum(first[:, None, 2], second[None, :, 2])
    bottom = jnp.minimum(first[:, None, 3], second[None, :, 3])
    inter = jnp.maximum(right - left + extra, 0) * jnp.maximum(bottom - top + extra, 0)

    def area(boxes):
        return (boxes[:, 2] - boxes[:, 0] + extra) * (boxes[:, 3] - boxes[:, 1] + extra)

    return inter, area(first), area(second)


def _four(name, arg, value):
    if not isinstance(value, (tuple, list)) or len(value) != 4:
        raise ValueError(f"For '{name}', '{arg}' must be a tuple of 4 floats, but got {value!r}.")
    return tuple(float(item) for item in value)


# --- samples and NumPy references (the op test table's oracle) ---------------------------------

def _box_rows(count, dtype, seed, scale=8.0):
    """``count`` boxes with x1 < x2 and y1 < y2 inside a (scale + 3)-pixel image."""
    generator = np.random.default_rng(seed)
    corner = generator.uniform(0, scale, size=(count, 2))
    size = generator.uniform(1.0, 3.0, size=(count, 2))
    return np.concatenate([corner, corner + size], 1).astype(_numpy_dtype(dtype))


def _pairs_of_boxes(second=None):
    def make(dtype):
        def other(count, seed):
            return _box_rows(count, dtype, seed) if second is None else second(count, dtype, seed)
        return [Sample((_box_rows(4, dtype, 0), other(4, 1))),
                Sample((_box_rows(3, dtype, 2), other(3, 3)), {"means": (0.1, -0.1, 0.0, 0.2),
                                                               "stds": (0.5, 0.5, 0.2, 0.2)})]
    return make


def _numpy_centres(boxes):
    width, height = boxes[:, 2] - boxes[:, 0] + 1, boxes[:, 3] - boxes[:, 1] + 1
    return boxes[:, 0] + width / 2, boxes[:, 1] + height / 2, width, height


def _numpy_encode(anchor_box, groundtruth_box, means=(0.0,) * 4, stds=(1.0,) * 4):
    (px, py, pw, ph), (gx, gy, gw, gh) = _numpy_centres(anchor_box), _numpy_centres(groundtruth_box)
    deltas = np.stack([(gx - px) / pw, (gy - py) / ph, np.log(gw / pw), np.log(gh / ph)], 1)
    return (deltas - np.asarray(means)) / np.asarray(stds)


def _numpy_decode(anchor_box, deltas, max_shape, means=(0.0,) * 4, stds=(1.0,) * 4, wh_ratio_clip=0.016):
    deltas = deltas * np.asarray(stds) + np.asarray(means)
    limit = abs(math.log(wh_ratio_clip))
    width, height = anchor_box[:, 2] - anchor_box[:, 0] + 1, anchor_box[:, 3] - anchor_box[:, 1] + 1
    centre_x = (anchor_box[:, 0] + anchor_box[:, 2]) / 2 + width * deltas[:, 0]
    centre_y = (anchor_box[:, 1] + anchor_box[:, 3]) / 2 + height * deltas[:, 1]
    new_width = width * np.exp(np.clip(deltas[:, 2], -limit, limit))
    new_height = height * np.exp(np.clip(deltas[:, 3], -limit, limit))
    rows, columns = max_shape
    return np.stack([np.clip(centre_x - (new_width - 1) / 2, 0, columns),
                     np.clip(centre_y - (new_height - 1) / 2, 0, rows),
                     np.clip(centre_x + (new_width - 1) / 2, 0, columns),
                     np.clip(centre_y + (new_height - 1) / 2, 0, rows)], 1)


def _decode_samples(dtype):
    def deltas(count, seed):
        return np.random.default_rng(seed).uniform(-0.3, 0.3, size=(count, 4)).astype(_numpy_dtype(dtype))
    return [Sample((_box_rows(4, dtype, 0), deltas(4, 1)), {"max_shape": (20, 20)}),
            Sample((_box_rows(3, dtype, 2), deltas(3, 3)), {"max_shape": (30, 25), "means": (0.1, 0.0, -0.1, 0.0),
                                                            "stds": (0.5, 0.5, 1.0, 1.0), "wh_ratio_clip": 0.1})]


def _numpy_check_valid(bboxes, img_metas):
    height, width = img_metas[0] * img_metas[2] - 1, img_metas[1] * img_metas[2] - 1
    return (bboxes[:, 0] >= 0) & (bboxes[:, 1] >= 0) & (bboxes[:, 2] <= width) & (bboxes[:, 3] <= height)


def _check_valid_samples(dtype):
    metas = np.array([9, 10, 1], _numpy_dtype(dtype))
    return [Sample((_box_rows(6, dtype, 0), metas)), Sample((_box_rows(5, dtype, 1) - 1, metas * [1, 1, 0.5]))]


def _numpy_iou(anchor_boxes, gt_boxes, mode="iou"):
    inter = np.empty((len(gt_boxes), len(anchor_boxes)))
    for row, truth in enumerate(gt_boxes):
        for column, anchor in enumerate(anchor_boxes):
            width = min(truth[2], anchor[2]) - max(truth[0], anchor[0]) + 1
            height = min(truth[3], anchor[3]) - max(truth[1], anchor[1]) + 1
            inter[row, column] = max(width, 0) * max(height, 0)
    truth_area = ((gt_boxes[:, 2] - gt_boxes[:, 0] + 1) * (gt_boxes[:, 3] - gt_boxes[:, 1] + 1))[:, None]
    anchor_area = ((anchor_boxes[:, 2] - anchor_boxes[:, 0] + 1) * (anchor_boxes[:, 3] - anchor_boxes[:, 1] + 1))
    return inter / truth_area if mode == "iof" else inter / (truth_area + anchor_area - inter)


def _iou_samples(dtype):
    anchors, truths = _box_rows(4, dtype, 0, scale=3.0), _box_rows(3, dtype, 1, scale=3.0)
    return [Sample((anchors, truths)), Sample((anchors, truths), {"mode": "iof"})]


# --- the ops ------------------------------------------------------------------------------------

@op(inputs=("anchor_box", "groundtruth_box"), samples=_pairs_of_boxes(), reference=_numpy_encode)
def bounding_box_encode(anchor_box, groundtruth_box, means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0)):
    """The (dx, dy, dw, dh) deltas of ground-truth boxes from anchor boxes, as ``ops.BoundingBoxEncode``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> box = Tensor(np.array([[0.0, 0.0, 2.0, 2.0]], np.float32))
        >>> ops.bounding_box_encode(box, box).asnumpy().tolist()
        [[0.0, 0.0, 0.0, 0.0]]
    """
    name = "bounding_box_encode"
    anchor = boxes_of(name, "anchor_box", anchor_box)
    truth = boxes_of(name, "groundtruth_box", groundtruth_box)
    means, stds = _four(name, "means", means), _four(name, "stds", stds)
    px, py, pw, ph = _centres(anchor)
    gx, gy, gw, gh = _centres(truth)
    deltas = jnp.stack([(gx - px) / pw, (gy - py) / ph, jnp.log(gw / pw), jnp.log(gh / ph)], axis=1)
    return (deltas - jnp.asarray(means, deltas.dtype)) / jnp.asarray(stds, deltas.dtype)


@op(inputs=("anchor_box", "deltas"), samples=_decode_samples, reference=_numpy_decode)
def bounding_box_decode(anchor_box, deltas, max_shape, means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0),
                        wh_ratio_clip=0.016):
    """Boxes from anchor boxes and deltas, clipped to ``max_shape`` (height, width), as ``ops.BoundingBoxDecode``;
    log-size deltas are clipped to ``+-|log(wh_ratio_clip)|``."""
    name = "bounding_box_decode"
    anchor = boxes_of(name, "anchor_box", anchor_box)
    delta = boxes_of(name, "deltas", deltas)
    if not isinstance(max_shape, (tuple, list)) or len(max_shape) != 2:
        raise ValueError(f"For '{name}', 'max_shape' must be (height, width), but got {max_shape!r}.")
    means, stds = _four(name, "means", means), _four(name, "stds", stds)
    delta = delta * jnp.asarray(stds, delta.dtype) + jnp.asarray(means, delta.dtype)
    limit = abs(math.log(wh_ratio_clip))
    dw, dh = jnp.clip(delta[:, 2], -limit, limit), jnp.clip(delta[:, 3], -limit, limit)
    px, py, pw, ph = _centres(anchor)
    px, py = px - 0.5, py - 0.5  # the inclusive centre
    gx, gy = px + pw * delta[:, 0], py + ph * delta[:, 1]
    gw, gh = pw * jnp.exp(dw), ph * jnp.exp(dh)
    height, width = max_shape
    x1, x2 = gx - 0.5 * gw + 0.5, gx + 0.5 * gw - 0.5
    y1, y2 = gy - 0.5 * gh + 0.5, gy + 0.5 * gh - 0.5
    return jnp.stack([jnp.clip(x1, 0, width), jnp.clip(y1, 0, height), jnp.clip(x2, 0, width),
                      jnp.clip(y2, 0, height)], axis=1)


@op(inputs=("bboxes", "img_metas"), dtypes=ANY, samples=_check_valid_samples, reference=_numpy_check_valid,
    grad_check=False)
def check_valid(bboxes, img_metas):
    """Whether each box lies inside the image ``img_metas`` (height, width, ratio), as ``ops.CheckValid``:
    ``x1 >= 0, y1 >= 0, x2 <= width * ratio - 1, y2 <= height * ratio - 1`` (Bool (N,))."""
    boxes = boxes_of("check_valid", "bboxes", bboxes)
    metas = img_metas.astype(boxes.dtype)
    height, width = metas[0] * metas[2] - 1, metas[1] * metas[2] - 1
    return (boxes[:, 0] >= 0) & (boxes[:, 1] >= 0) & (boxes[:, 2] <= width) & (boxes[:, 3] <= height)


@op(inputs=("anchor_boxes", "gt_boxes"), samples=_iou_samples, reference=_numpy_iou)
def iou(anchor_boxes, gt_boxes, mode="iou"):
    """Intersection over union ('iou') or over foreground ('iof') of two box sets, as ``ops.IOU``: (M, N) for
    M ground-truth and N anchor boxes."""
    if mode not in ("iou", "iof"):
        raise KeyError(f"For 'iou', only 'iou' or 'iof' are supported, but got 'mode': {mode}.")
    anchors = boxes_of("iou", "anchor_boxes", anchor_boxes)
    truths = boxes_of("iou", "gt_boxes", gt_boxes)
    inter, truth_area, anchor_area = overlap(truths, anchors, 1.0)
    if mode == "iof":
        return inter / truth_area[:, None]
    return inter / (truth_area[:, None] + anchor_area[None, :] - inter)
