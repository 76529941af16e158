"""Host-side set operations: ``CombinedNonMaxSuppression`` (per-class greedy NMS, then the best boxes over
all classes) and ``EditDistance`` (Levenshtein distances between sparse sequences).

Both produce data-dependent selections, so they run eagerly on host values (NumPy), as MindSpore's
CPU kernels do, and return Tensors.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> hyp = (Tensor(np.array([[0, 0], [0, 1]], np.int64)), Tensor(np.array([1, 2], np.float32)),
    ...        Tensor(np.array([1, 2], np.int64)))
    >>> truth = (Tensor(np.array([[0, 0]], np.int64)), Tensor(np.array([1], np.float32)), Tensor(np.array([1, 1], np.int64)))
    >>> ops.EditDistance(False)(*hyp, *truth).asnumpy().tolist()
    [1.0]
"""
import numbers

import numpy as np

from sporax.core.tensor import Tensor
from sporax.ops._dispatch import array_of, describe
from sporax.ops.primitive import Primitive, prim_attr_register


def _host(op_name, name, value):
    if isinstance(value, Tensor):
        return value.asnumpy()
    if isinstance(value, numbers.Number):
        return np.asarray(value)
    return np.asarray(array_of(op_name, name, value))


def _iou(box, others):
    """IoU of one (y1, x1, y2, x2) box with (K, 4) boxes (corners in either order)."""
    def normal(b):
        return np.minimum(b[..., 0], b[..., 2]), np.minimum(b[..., 1], b[..., 3]), \
            np.maximum(b[..., 0], b[..., 2]), np.maximum(b[..., 1], b[..., 3])
    y1, x1, y2, x2 = normal(box)
    oy1, ox1, oy2, ox2 = normal(others)
    height = np.clip(np.minimum(y2, oy2) - np.maximum(y1, oy1), 0, None)
    width = np.clip(np.minimum(x2, ox2) - np.maximum(x1, ox1), 0, None)
    inter = height * width
    union = (y2 - y1) * (x2 - x1) + (oy2 - oy1) * (ox2 - ox1) - inter
    return np.where(union > 0, inter / np.where(union > 0, union, 1), 0)


class CombinedNonMaxSuppression(Primitive):
    """Greedy non-maximum suppression per class and batch item, then the ``max_total_size`` best boxes over
    all classes: ``(nmsed_boxes, nmsed_scores, nmsed_classes, valid_detections)``.

    Args:
        pad_per_class (bool): output ``max_output_size_per_class * num_classes`` rows (at most
            ``max_total_size``) instead of ``max_total_size``. Default: False.
        clip_boxes (bool): clip box corners to [0, 1]. Default: True.

    Inputs:
        - **boxes** (Tensor) - (batch, num_boxes, q, 4) with q 1 (shared) or num_classes.
        - **scores** (Tensor) - (batch, num_boxes, num_classes).
        - **max_output_size_per_class**, **max_total_size** (Tensor) - int scalars.
        - **iou_threshold**, **score_threshold** (Tensor) - float scalars.
    """

    @prim_attr_register
    def __init__(self, pad_per_class=False, clip_boxes=True):
        self.pad_per_class, self.clip_boxes = pad_per_class, clip_boxes

    def __call__(self, boxes, scores, max_output_size_per_class, max_total_size, iou_threshold, score_threshold):
        name = self.name
        boxes, scores = _host(name, "boxes", boxes).astype(np.float32), _host(name, "scores", scores).astype(np.float32)
        per_class = int(_host(name, "max_output_size_per_class", max_output_size_per_class))
        total = int(_host(name, "max_total_size", max_total_size))
        overlap = float(_host(name, "iou_threshold", iou_threshold))
        minimum = float(_host(name, "score_threshold", score_threshold))
        if boxes.ndim != 4 or scores.ndim != 3 or boxes.shape[:2] != scores.shape[:2] or \
                boxes.shape[2] not in (1, scores.shape[2]) or boxes.shape[3] != 4:
            raise ValueError(f"For '{name}', expected boxes (batch, num_boxes, q, 4) and scores (batch, num_boxes, "
                             f"num_classes) with q 1 or num_classes, but got {boxes.shape} and {scores.shape}.")
        if per_class <= 0 or total <= 0 or not 0 <= overlap <= 1:
            raise ValueError(f"For '{name}', the output sizes must be positive and iou_threshold in [0, 1], but got "
                             f"{per_class}, {total} and {overlap}.")
        rows = min(total, per_class * scores.shape[2]) if self.pad_per_class else total
        batch = scores.shape[0]
        out_boxes = np.zeros((batch, rows, 4), np.float32)
        out_scores = np.zeros((batch, rows), np.float32)
        out_classes = np.zeros((batch, rows), np.float32)
        valid = np.zeros((batch,), np.int32)
        for b in range(batch):
            kept = []
            for c in range(scores.shape[2]):
                candidates = boxes[b, :, 0 if boxes.shape[2] == 1 else c]
                order = [i for i in np.argsort(-scores[b, :, c], kind="stable") if scores[b, i, c] > minimum]
                chosen = []
                for i in order:
                    if len(chosen) >= per_class:
                        break
                    if not chosen or (_iou(candidates[i], candidates[chosen]) <= overlap).all():
                        chosen.append(i)
                kept += [(scores[b, i, c], c, candidates[i]) for i in chosen]
            kept.sort(key=lambda item: -item[0])
            kept = kept[:rows]
            valid[b] = len(kept)
            for row, (score, label, box) in enumerate(kept):
                out_boxes[b, row] = np.clip(box, 0, 1) if self.clip_boxes else box
                out_scores[b, row], out_classes[b, row] = score, label
        return Tensor(out_boxes), Tensor(out_scores), Tensor(out_classes), Tensor(valid)


def _levenshtein(first, second):
    previous = np.arange(len(second) + 1)
    for i, item in enumerate(first, 1):
        current = np.empty_like(previous)
        current[0] = i
        for j, other in enumerate(second, 1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (item != other))
        previous = current
    return previous[-1]


def _sequences(indices, values, shape):
    """{leading index tuple: list of values in last-index order} of a sparse tensor."""
    groups = {}
    for position in np.lexsort(indices.T[::-1]) if indices.size else []:
        groups.setdefault(tuple(indices[position, :-1]), []).append(values[position])
    return groups


class EditDistance(Primitive):
    """The Levenshtein distance between the sequences of two sparse tensors (hypothesis and truth), one
    per leading index: a dense Float32 tensor of shape ``max(hypothesis_shape, truth_shape)[:-1]``.

    Args:
        normalize (bool): divide by the truth sequence length (inf for an empty truth with a non-empty
            hypothesis). Default: True.

    Inputs:
        - **hypothesis_indices**, **hypothesis_values**, **hypothesis_shape** - the hypothesis sparse tensor
          ((N, R) int64 indices, (N,) values, (R,) int64 shape).
        - **truth_indices**, **truth_values**, **truth_shape** - the truth sparse tensor.
    """

    @prim_attr_register
    def __init__(self, normalize=True):
        if not isinstance(normalize, bool):
            raise TypeError(f"For 'EditDistance', 'normalize' must be a bool, but got {normalize!r}.")
        self.normalize = normalize

    def __call__(self, hypothesis_indices, hypothesis_values, hypothesis_shape, truth_indices, truth_values,
                 truth_shape):
        name = self.name
        parts = [(_host(name, "hypothesis_indices", hypothesis_indices), _host(name, "hypothesis_values",
                                                                            hypothesis_values),
                  _host(name, "hypothesis_shape", hypothesis_shape)),
                 (_host(name, "truth_indices", truth_indices), _host(name, "truth_values", truth_values),
                  _host(name, "truth_shape", truth_shape))]
        for (indices, values, shape), label in zip(parts, ("hypothesis", "truth")):
            if indices.ndim != 2 or values.ndim != 1 or indices.shape != (values.shape[0], shape.shape[0]):
                raise ValueError(f"For '{name}', the {label} must be (N, R) indices, (N,) values and an (R,) shape, "
                                 f"but got {indices.shape}, {values.shape} and {shape.shape}.")
            # (MindSpore 2.10 accepts an index past the tensor's own shape: its docstring's hypothesis has
            # [1, 0, 1] in shape [1, 1, 2]; the output covers the larger of the two shapes.)
            if indices.size and (indices < 0).any():
                raise ValueError(f"For '{name}', a {label} index is negative: indices must be >= 0.")
        if parts[0][2].shape != parts[1][2].shape:
            raise ValueError(f"For '{name}', the hypothesis and truth ranks differ: {describe(hypothesis_shape)} and "
                             f"{describe(truth_shape)}.")
        out_shape = tuple(np.maximum(parts[0][2], parts[1][2])[:-1])
        hypothesis, truth = (_sequences(*part) for part in parts)
        result = np.zeros(out_shape, np.float32)
        for index in np.ndindex(*out_shape):
            first, second = hypothesis.get(index, []), truth.get(index, [])
            distance = float(_levenshtein(first, second))
            if self.normalize:
                distance = distance / len(second) if second else (np.inf if first else 0.0)
            result[index] = distance
        return Tensor(result)
