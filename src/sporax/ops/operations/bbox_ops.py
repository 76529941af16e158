"""Bounding-box Primitives of ``mindspore.ops``: BoundingBoxEncode/Decode, CheckValid, IOU, NMSWithMask, ROIAlign.

Boxes are ``(x1, y1, x2, y2)`` rows. MindSpore's conventions, which these follow exactly:
- encode/decode, CheckValid and IOU measure boxes in pixels, inclusively (width ``x2 - x1 + 1``);
  NMSWithMask measures them continuously (width ``x2 - x1``);
- IOU's output is ``(len(gt_boxes), len(anchor_boxes))``; ``'iof'`` divides by the gt box's area;
- NMSWithMask returns the boxes sorted by score, ``arange(N)`` as indices, and the keep mask of a
  greedy suppression in that order;
- ROIAlign averages ``sample_num ** 2`` bilinear samples per bin (Caffe2's rules at the borders:
  a sample beyond one pixel outside the map contributes 0); ``roi_end_mode=1`` adds one pixel to
  the ROI's end before scaling.
"""
import functools

import jax
import jax.numpy as jnp
import numpy as np

from sporax.ops._dispatch import array_of, wrap
from sporax.ops.functional import box_suppression, boxes
from sporax.ops.functional.boxes import boxes_of as _boxes
from sporax.ops.primitive import Primitive, prim_attr_register


def _four(name, arg, value):
    if not isinstance(value, (tuple, list)) or len(value) != 4:
        raise ValueError(f"For '{name}', '{arg}' must be a tuple of 4 floats, but got {value!r}.")
    return tuple(float(item) for item in value)


class BoundingBoxEncode(Primitive):
    """The deltas ``((dx, dy, dw, dh) - means) / stds`` that move ``anchor_box`` onto ``groundtruth_box``.

    Args:
        means (tuple(float)): Default: ``(0.0, 0.0, 0.0, 0.0)``. stds (tuple(float)): Default: ``(1.0, 1.0, 1.0, 1.0)``.

    Inputs:
        - **anchor_box** (Tensor) - (N, 4). **groundtruth_box** (Tensor) - (N, 4).

    Outputs:
        Tensor (N, 4).
    """

    @prim_attr_register
    def __init__(self, means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0)):
        self.means = _four("BoundingBoxEncode", "means", means)
        self.stds = _four("BoundingBoxEncode", "stds", stds)

    def __call__(self, anchor_box, groundtruth_box):
        return boxes.bounding_box_encode(anchor_box, groundtruth_box, self.means, self.stds)


class BoundingBoxDecode(Primitive):
    """The boxes that ``deltas`` make of ``anchor_box``, clipped to ``max_shape`` ``(height, width)``.

    Args:
        max_shape (tuple(int)): the image's (height, width).
        means, stds (tuple(float)): as BoundingBoxEncode.
        wh_ratio_clip (float): log-size deltas are clipped to ``±|log(wh_ratio_clip)|``. Default: ``0.016``.

    Inputs:
        - **anchor_box** (Tensor) - (N, 4). **deltas** (Tensor) - (N, 4).

    Outputs:
        Tensor (N, 4).
    """

    @prim_attr_register
    def __init__(self, max_shape, means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0), wh_ratio_clip=0.016):
        if not isinstance(max_shape, (tuple, list)) or len(max_shape) != 2:
            raise ValueError(f"For 'BoundingBoxDecode', 'max_shape' must be (height, width), but got {max_shape!r}.")
        self.max_shape = tuple(max_shape)
        self.means = _four("BoundingBoxDecode", "means", means)
        self.stds = _four("BoundingBoxDecode", "stds", stds)
        if isinstance(wh_ratio_clip, bool) or not isinstance(wh_ratio_clip, float) or wh_ratio_clip <= 0:
            raise TypeError(f"For 'BoundingBoxDecode', 'wh_ratio_clip' must be a positive float, but got "
                            f"{wh_ratio_clip!r}.")
        self.wh_ratio_clip = wh_ratio_clip

    def __call__(self, anchor_box, deltas):
        return boxes.bounding_box_decode(anchor_box, deltas, self.max_shape, self.means, self.stds,
                                         self.wh_ratio_clip)


class CheckValid(Primitive):
    """Whether each box lies inside the image ``img_metas = (height, width, ratio)``.

    Inputs:
        - **bboxes** (Tensor) - (N, 4). **img_metas** (Tensor) - (3,).

    Outputs:
        Tensor bool (N,): ``x1 >= 0, y1 >= 0, x2 <= width * ratio - 1, y2 <= height * ratio - 1``.
    """

    def __call__(self, bboxes, img_metas):
        return boxes.check_valid(bboxes, img_metas)


class IOU(Primitive):
    """Pairwise intersection over union (``'iou'``) or over the ground-truth area (``'iof'``).

    Args:
        mode (str): ``'iou'`` or ``'iof'``. Default: ``'iou'``.

    Inputs:
        - **anchor_boxes** (Tensor) - (N, 4). **gt_boxes** (Tensor) - (M, 4).

    Outputs:
        Tensor (M, N).
    """

    @prim_attr_register
    def __init__(self, mode="iou"):
        if mode not in ("iou", "iof"):
            raise KeyError(f"For 'IOU', only 'iou' or 'iof' are supported, but got 'mode': {mode}.")
        self.mode = mode

    def __call__(self, anchor_boxes, gt_boxes):
        return boxes.iou(anchor_boxes, gt_boxes, self.mode)


class NMSWithMask(Primitive):
    """Greedy non-maximum suppression of scored boxes ``(x1, y1, x2, y2, score)``.

    Args:
        iou_threshold (float): boxes overlapping a kept, higher-scored box by more than this are dropped.
            Default: ``0.5``.

    Inputs:
        - **bboxes** (Tensor) - (N, 5) float16/float32.

    Outputs:
        (boxes sorted by descending score (N, 5), int32 ``arange(N)``, bool keep mask (N,) in that order).
    """

    @prim_attr_register
    def __init__(self, iou_threshold=0.5):
        if isinstance(iou_threshold, bool) or not isinstance(iou_threshold, float):
            raise TypeError(f"For 'NMSWithMask', 'iou_threshold' must be a float, but got {iou_threshold!r}.")
        self.iou_threshold = iou_threshold

    def __call__(self, bboxes):
        return box_suppression.nms_with_mask(bboxes, self.iou_threshold)


def _bilinear(feature, y, x):
    """Caffe2's bilinear sample of ``feature`` (C, H, W) at points y, x (any equal shapes) -> (C, *shape)."""
    height, width = feature.shape[1:]
    outside = (y < -1.0) | (y > height) | (x < -1.0) | (x > width)
    y, x = jnp.maximum(y, 0.0), jnp.maximum(x, 0.0)
    y_low = jnp.minimum(jnp.floor(y).astype(jnp.int32), height - 1)
    x_low = jnp.minimum(jnp.floor(x).astype(jnp.int32), width - 1)
    y = jnp.where(y_low >= height - 1, y_low.astype(y.dtype), y)
    x = jnp.where(x_low >= width - 1, x_low.astype(x.dtype), x)
    y_high, x_high = jnp.minimum(y_low + 1, height - 1), jnp.minimum(x_low + 1, width - 1)
    ly, lx = y - y_low, x - x_low
    hy, hx = 1.0 - ly, 1.0 - lx
    value = (hy * hx * feature[:, y_low, x_low] + hy * lx * feature[:, y_low, x_high] +
             ly * hx * feature[:, y_high, x_low] + ly * lx * feature[:, y_high, x_high])
    return jnp.where(outside, 0.0, value)


class ROIAlign(Primitive):
    """Pool each region of interest of a feature map into ``(pooled_height, pooled_width)`` bins.

    Args:
        pooled_height (int), pooled_width (int): the output size.
        spatial_scale (float): the ratio of feature-map to image coordinates.
        sample_num (int): samples per bin side; <= 0 samples each ROI adaptively, ``int(roi size / pooled
            size)`` per side, as MindSpore does (an ROI smaller than a bin then pools to NaN there too).
            Default: ``2``.
        roi_end_mode (int): 1 adds one pixel to the ROI's end; 0 does not. Default: ``1``.

    Inputs:
        - **features** (Tensor) - (N, C, H, W).
        - **rois** (Tensor) - (R, 5): ``(batch_index, x1, y1, x2, y2)``.

    Outputs:
        Tensor (R, C, pooled_height, pooled_width).
    """

    @prim_attr_register
    def __init__(self, pooled_height, pooled_width, spatial_scale, sample_num=2, roi_end_mode=1):
        for name, value in (("pooled_height", pooled_height), ("pooled_width", pooled_width),
                            ("sample_num", sample_num), ("roi_end_mode", roi_end_mode)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"For 'ROIAlign', '{name}' must be an int, but got {value!r}.")
        if roi_end_mode not in (0, 1):
            raise ValueError(f"For 'ROIAlign', 'roi_end_mode' must be 0 or 1, but got {roi_end_mode}.")
        self.pooled_height, self.pooled_width = pooled_height, pooled_width
        self.spatial_scale, self.sample_num, self.roi_end_mode = float(spatial_scale), sample_num, roi_end_mode

    def __call__(self, features, rois):
        feature_map = array_of("ROIAlign", "features", features)
        regions = _boxes("ROIAlign", "rois", rois, columns=5)
        if feature_map.ndim != 4:
            raise ValueError(f"For 'ROIAlign', 'features' must be 4-D, but got shape {tuple(feature_map.shape)}.")
        if self.sample_num > 0:
            return wrap(_roi_align(feature_map, regions, self.pooled_height, self.pooled_width, self.spatial_scale,
                                   self.sample_num, self.roi_end_mode))
        return wrap(self._adaptive(feature_map, regions))

    def _adaptive(self, feature_map, regions):
        """Each ROI sampled on its own ``ceil(size / pooled size)`` grid per side (MindSpore's sample_num <= 0)."""
        try:
            boxes = np.asarray(regions, np.float64)
        except (jax.errors.ConcretizationTypeError, jax.errors.TracerArrayConversionError):
            raise ValueError("For 'ROIAlign', sample_num <= 0 sizes each ROI's sampling grid from the ROI "
                             "coordinates, which must then be concrete values; inside a compiled (GRAPH mode or "
                             "jit) function pass a positive sample_num.") from None
        extent_x = (boxes[:, 3] + self.roi_end_mode - boxes[:, 1]) * self.spatial_scale
        extent_y = (boxes[:, 4] + self.roi_end_mode - boxes[:, 2]) * self.spatial_scale
        # MindSpore 2.10 truncates (not ceil as Caffe2): an ROI smaller than a bin gets no samples, hence NaN.
        grid_x = np.maximum(np.trunc(extent_x.astype(np.float32) / self.pooled_width), 0).astype(np.int32)
        grid_y = np.maximum(np.trunc(extent_y.astype(np.float32) / self.pooled_height), 0).astype(np.int32)
        return _roi_align_adaptive(feature_map, regions, jnp.asarray(grid_y), jnp.asarray(grid_x),
                                   self.pooled_height, self.pooled_width, self.spatial_scale, self.roi_end_mode,
                                   int(max(grid_y.max(initial=0), 1)), int(max(grid_x.max(initial=0), 1)))


@functools.partial(jax.jit, static_argnums=(2, 3, 4, 5, 6))
def _roi_align(feature_map, regions, pooled_height, pooled_width, spatial_scale, sample_num, roi_end_mode):
    """One compiled program per configuration: every ROI's bins sampled and averaged."""
    samples = (jnp.arange(sample_num, dtype=feature_map.dtype) + 0.5) / sample_num

    def pool(region):
        start_x, start_y = region[1] * spatial_scale, region[2] * spatial_scale
        end_x = (region[3] + roi_end_mode) * spatial_scale
        end_y = (region[4] + roi_end_mode) * spatial_scale
        # MindSpore does not widen small ROIs to one pixel (Caffe2 does).
        bin_w = (end_x - start_x) / pooled_width
        bin_h = (end_y - start_y) / pooled_height
        ys = start_y + (jnp.arange(pooled_height)[:, None] + samples[None, :]) * bin_h  # (PH, S)
        xs = start_x + (jnp.arange(pooled_width)[:, None] + samples[None, :]) * bin_w  # (PW, S)
        y = jnp.broadcast_to(ys[:, None, :, None], (pooled_height, pooled_width, sample_num, sample_num))
        x = jnp.broadcast_to(xs[None, :, None, :], y.shape)
        return jnp.mean(_bilinear(feature_map[region[0].astype(jnp.int32)], y, x), axis=(-2, -1))

    return jax.vmap(pool)(regions)


@functools.partial(jax.jit, static_argnums=(4, 5, 6, 7, 8, 9))
def _roi_align_adaptive(feature_map, regions, grid_y, grid_x, pooled_height, pooled_width, spatial_scale,
                        roi_end_mode, most_y, most_x):
    """ROI align with a per-ROI grid of ``grid_y`` x ``grid_x`` samples per bin, padded to the largest grid
    (``most_y`` x ``most_x``) so that one program serves every ROI; padding samples weigh nothing."""
    steps_y, steps_x = jnp.arange(most_y, dtype=feature_map.dtype), jnp.arange(most_x, dtype=feature_map.dtype)

    def pool(region, count_y, count_x):
        start_x, start_y = region[1] * spatial_scale, region[2] * spatial_scale
        bin_w = ((region[3] + roi_end_mode) * spatial_scale - start_x) / pooled_width
        bin_h = ((region[4] + roi_end_mode) * spatial_scale - start_y) / pooled_height
        divisor_y, divisor_x = count_y.astype(feature_map.dtype), count_x.astype(feature_map.dtype)
        # An empty grid divides 0 by 0: NaN, as MindSpore gives; the positions are then never used.
        offsets_y = (steps_y[None, :] + 0.5) / jnp.maximum(divisor_y, 1)
        offsets_x = (steps_x[None, :] + 0.5) / jnp.maximum(divisor_x, 1)
        ys = start_y + (jnp.arange(pooled_height)[:, None] + offsets_y) * bin_h
        xs = start_x + (jnp.arange(pooled_width)[:, None] + offsets_x) * bin_w
        y = jnp.broadcast_to(ys[:, None, :, None], (pooled_height, pooled_width, most_y, most_x))
        x = jnp.broadcast_to(xs[None, :, None, :], y.shape)
        used = (steps_y[:, None] < count_y) & (steps_x[None, :] < count_x)
        values = _bilinear(feature_map[region[0].astype(jnp.int32)], y, x)
        return jnp.sum(jnp.where(used, values, 0.0), axis=(-2, -1)) / (divisor_y * divisor_x)

    return jax.vmap(pool)(regions, grid_y, grid_x)
