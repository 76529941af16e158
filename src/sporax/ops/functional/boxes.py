"""Functional forms of the bounding-box Primitives: ``bounding_box_encode``/``decode``, ``check_valid``,
``iou`` (each builds the ``ops.operations.bbox_ops`` Primitive and calls it)."""


def _box_primitive(name):
    from sporax.ops.operations import bbox_ops

    return getattr(bbox_ops, name)


def bounding_box_encode(anchor_box, groundtruth_box, means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0)):
    """The (dx, dy, dw, dh) deltas of ground-truth boxes from anchor boxes, as ``ops.BoundingBoxEncode``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> box = Tensor(np.array([[0.0, 0.0, 2.0, 2.0]], np.float32))
        >>> ops.bounding_box_encode(box, box).asnumpy().tolist()
        [[0.0, 0.0, 0.0, 0.0]]
    """
    return _box_primitive("BoundingBoxEncode")(means, stds)(anchor_box, groundtruth_box)


def bounding_box_decode(anchor_box, deltas, max_shape, means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0),
                        wh_ratio_clip=0.016):
    """Boxes from anchor boxes and deltas, clipped to ``max_shape``, as ``ops.BoundingBoxDecode``."""
    return _box_primitive("BoundingBoxDecode")(max_shape, means, stds, wh_ratio_clip)(anchor_box, deltas)


def check_valid(bboxes, img_metas):
    """Whether each box lies inside the image ``img_metas`` (height, width, ratio), as ``ops.CheckValid``."""
    return _box_primitive("CheckValid")()(bboxes, img_metas)


def iou(anchor_boxes, gt_boxes, mode="iou"):
    """Intersection over union ('iou') or over foreground ('iof') of two box sets, as ``ops.IOU``."""
    return _box_primitive("IOU")(mode)(anchor_boxes, gt_boxes)
