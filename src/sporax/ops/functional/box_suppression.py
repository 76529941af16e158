"""Greedy non-maximum suppression behind the Primitives ``NonMaxSuppressionV3``,
``NonMaxSuppressionWithOverlaps`` and ``NMSWithMask`` (MindSpore has no functional names for them: not exported by
``ops``): op-table entries, the first two ``eager`` since how many boxes survive depends on the values (a compiled
caller runs them eagerly); ``NMSWithMask`` answers a fixed-size keep mask, so it compiles.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.ops.functional.box_suppression import non_max_suppression_v3
    >>> boxes = Tensor(np.array([[0, 0, 1, 1], [0, 0, 1, 0.9], [2, 2, 3, 3]], np.float32))
    >>> non_max_suppression_v3(boxes, Tensor([0.9, 0.8, 0.7]), 3, 0.5, 0.0).asnumpy().tolist()
    [0, 2]
"""
import jax
import jax.numpy as jnp
import numpy as np

from sporax.ops.functional.boxes import overlap
from sporax.ops.op_table import ANY, FLOAT, Sample, op


def _greedy_suppression(overlap, scores, max_output, threshold, score_threshold):
    """Indices kept by greedy non-maximum suppression, highest score first (host NumPy)."""
    order = [i for i in np.argsort(-scores, kind="stable") if scores[i] > score_threshold]
    kept = []
    for i in order:
        if len(kept) >= max_output:
            break
        if all(overlap[i, j] <= threshold for j in kept):
            kept.append(i)
    return np.asarray(kept, np.int32)


def _number(value):
    return np.asarray(value).reshape(-1)[0]


def _box_iou(corners):
    low = np.minimum(corners[:, :2], corners[:, 2:])
    high = np.maximum(corners[:, :2], corners[:, 2:])
    area = np.prod(high - low, 1)
    inter = np.prod(np.clip(np.minimum(high[:, None], high[None]) - np.maximum(low[:, None], low[None]), 0, None), -1)
    union = area[:, None] + area[None] - inter
    return np.where(union > 0, inter / np.where(union > 0, union, 1), 0)


def _numpy_suppress(overlap_of):
    """Reference: repeatedly take the best remaining box, drop every box overlapping it more than the threshold."""
    def reference(first, scores, max_output_size, threshold, score_threshold):
        overlap = overlap_of(np.asarray(first, np.float64))
        scores = np.asarray(scores, np.float64)
        alive = [i for i in range(len(scores)) if scores[i] > float(_number(score_threshold))]
        kept = []
        while alive and len(kept) < int(_number(max_output_size)):
            best = max(alive, key=lambda i: (scores[i], -i))
            kept.append(best)
            alive = [i for i in alive if i != best and overlap[best, i] <= float(_number(threshold))]
        return np.asarray(kept, np.int32)

    return reference


def _pair_iou(corners):
    count = len(corners)
    result = np.zeros((count, count))
    for i in range(count):
        for j in range(count):
            y1, x1 = max(min(corners[i][0], corners[i][2]), min(corners[j][0], corners[j][2])), \
                max(min(corners[i][1], corners[i][3]), min(corners[j][1], corners[j][3]))
            y2, x2 = min(max(corners[i][0], corners[i][2]), max(corners[j][0], corners[j][2])), \
                min(max(corners[i][1], corners[i][3]), max(corners[j][1], corners[j][3]))
            inter = max(y2 - y1, 0) * max(x2 - x1, 0)
            area_i = abs(corners[i][2] - corners[i][0]) * abs(corners[i][3] - corners[i][1])
            area_j = abs(corners[j][2] - corners[j][0]) * abs(corners[j][3] - corners[j][1])
            union = area_i + area_j - inter
            result[i, j] = inter / union if union > 0 else 0.0
    return result


_BOXES = np.array([[0, 0, 2, 2], [0.2, 0.1, 2, 2.1], [3, 3, 1.5, 1.5], [4, 4, 5, 5], [0, 3, 1, 4]], np.float32)
_SCORES = np.array([0.6, 0.9, 0.5, 0.2, 0.75], np.float32)


def _v3_samples(dtype):
    return [Sample((_BOXES.astype(dtype), _SCORES.astype(dtype), np.array(4, np.int32), np.array(0.3, np.float32),
                    np.array(0.1, np.float32)))]


def _overlap_samples(dtype):
    overlaps = np.array([[1.0, 0.7, 0.1, 0.0], [0.7, 1.0, 0.45, 0.2], [0.1, 0.45, 1.0, 0.6], [0.0, 0.2, 0.6, 1.0]])
    return [Sample((overlaps.astype(dtype), np.array([0.3, 0.9, 0.6, 0.8], dtype), np.array(3, np.int32),
                    np.array(0.5, np.float32), np.array(0.0, np.float32)))]


_SUPPRESSION = dict(dtypes=FLOAT, eager=True, grad_check=False,
                    input_dtypes={"max_output_size": ANY, "score_threshold": ANY},
                    scalars=("max_output_size", "score_threshold"))


@op(inputs=("boxes", "scores", "max_output_size", "iou_threshold", "score_threshold"),
    samples=_v3_samples, reference=_numpy_suppress(_pair_iou),
    **dict(_SUPPRESSION, input_dtypes=dict(_SUPPRESSION["input_dtypes"], iou_threshold=ANY),
           scalars=_SUPPRESSION["scalars"] + ("iou_threshold",)))
def non_max_suppression_v3(boxes, scores, max_output_size, iou_threshold, score_threshold):
    """``NonMaxSuppressionV3``: the Int32 indices of the (N, 4) ``boxes`` (two opposite corners) kept by greedy
    suppression by IoU, highest score first."""
    corners, weights = np.asarray(boxes, np.float64), np.asarray(scores, np.float64)
    if corners.ndim != 2 or corners.shape[1] != 4 or weights.shape != (corners.shape[0],):
        raise ValueError(f"For 'NonMaxSuppressionV3', 'boxes' must be (N, 4) and 'scores' (N,), but got "
                         f"{corners.shape} and {weights.shape}.")
    return _greedy_suppression(_box_iou(corners), weights, int(_number(max_output_size)),
                               float(_number(iou_threshold)), float(_number(score_threshold)))


@op(inputs=("overlaps", "scores", "max_output_size", "overlap_threshold", "score_threshold"),
    samples=_overlap_samples, reference=_numpy_suppress(lambda overlaps: overlaps),
    **dict(_SUPPRESSION, input_dtypes=dict(_SUPPRESSION["input_dtypes"], overlap_threshold=ANY),
           scalars=_SUPPRESSION["scalars"] + ("overlap_threshold",)))
def non_max_suppression_with_overlaps(overlaps, scores, max_output_size, overlap_threshold, score_threshold):
    """``NonMaxSuppressionWithOverlaps``: the Int32 indices kept by greedy suppression given the (N, N)
    ``overlaps`` matrix, highest score first."""
    matrix, weights = np.asarray(overlaps, np.float64), np.asarray(scores, np.float64)
    if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1] or weights.shape != (matrix.shape[0],):
        raise ValueError(f"For 'NonMaxSuppressionWithOverlaps', 'overlaps' must be (N, N) and 'scores' (N,), but "
                         f"got {matrix.shape} and {weights.shape}.")
    return _greedy_suppression(matrix, weights, int(_number(max_output_size)), float(_number(overlap_threshold)),
                               float(_number(score_threshold)))


# --- NMSWithMask ----------------------------------------------------------------------------------
def _numpy_nms_with_mask(bboxes, iou_threshold=0.5):
    bboxes = np.asarray(bboxes, np.float64)
    ranked = bboxes[np.argsort(-bboxes[:, 4], kind="stable")]
    keep = np.zeros(len(ranked), bool)
    for i, (x1, y1, x2, y2, _) in enumerate(ranked):
        keep[i] = True
        for j in np.flatnonzero(keep[:i]):
            a1, b1, a2, b2 = ranked[j, :4]
            inter = max(min(x2, a2) - max(x1, a1), 0) * max(min(y2, b2) - max(y1, b1), 0)
            union = (x2 - x1) * (y2 - y1) + (a2 - a1) * (b2 - b1) - inter
            if inter / union > iou_threshold:
                keep[i] = False
                break
    return ranked, np.arange(len(ranked), dtype=np.int32), keep


def _nms_samples(dtype):
    scored = np.array([[0, 0, 2, 2, 0.6], [0.2, 0.1, 2, 2.1, 0.9], [1.5, 1.5, 3, 3, 0.5], [4, 4, 5, 5, 0.2],
                       [0, 3, 1, 4, 0.75]], dtype)
    return [Sample((scored,), {"iou_threshold": 0.3})]


@op(inputs="bboxes", dtypes=FLOAT, samples=_nms_samples, reference=_numpy_nms_with_mask, grad_check=False)
def nms_with_mask(bboxes, iou_threshold=0.5):
    """``NMSWithMask``: (N, 5) ``(x1, y1, x2, y2, score)`` boxes sorted by descending score, Int32 ``arange(N)``,
    and the Bool mask of the boxes greedy suppression keeps, in that order."""
    if bboxes.ndim != 2 or bboxes.shape[1] != 5:
        raise ValueError(f"For 'NMSWithMask', 'bboxes' must have shape (N, 5), but got {tuple(bboxes.shape)}.")
    ranked = bboxes[jnp.argsort(-bboxes[:, 4], stable=True)]
    inter, area, _ = overlap(ranked[:, :4], ranked[:, :4], 0.0)
    overlaps = inter / (area[:, None] + area[None, :] - inter) > iou_threshold
    count = ranked.shape[0]

    def visit(index, keep):
        suppressed = jnp.any(keep & overlaps[index] & (jnp.arange(count) < index))
        return keep.at[index].set(~suppressed)

    keep = jax.lax.fori_loop(0, count, visit, jnp.zeros(count, bool))
    return ranked, jnp.arange(count, dtype=jnp.int32), keep
