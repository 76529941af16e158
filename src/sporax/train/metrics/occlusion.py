"""``OcclusionSensitivity``: how much a model's score for a label drops when parts of the input are hidden.

For one input (batch of 1) the baseline is the model's output for ``label``. Then, for every
position ``i`` of the input (every element of the non-batch axes, or of the bounding box
``b_box``), the block ``[i - margin, i + margin)`` (clipped to the input) is set to ``pad_val``
and the model is run again (``n_batch`` occluded copies per call). ``eval`` returns
``baseline - score`` per position: large values mark the regions the prediction relies on.
"""
import numpy as np

from sporax.core.tensor import Tensor
from sporax.nn.cell import Cell
from sporax.train.metrics.base import Metric, rearrange_inputs, to_numpy


def _bounding_box(b_box, shape):
    if b_box is None:
        return None, None
    if len(b_box) != 2 * len(shape):
        raise ValueError(f"For 'OcclusionSensitivity', the 'b_box' must hold a lower and an upper bound for each "
                         f"non-batch axis ({2 * len(shape)} values), but got {len(b_box)}.")
    low, high = np.array(b_box[::2]), np.array(b_box[1::2])
    low[low < 0] = 0
    high[high < 0] = shape[high < 0] - 1
    if np.any(high >= shape):
        raise ValueError("For 'OcclusionSensitivity', maximum bounding box must be smaller than image size for all "
                         "values.")
    if np.any(low > high):
        raise ValueError("For 'OcclusionSensitivity', minimum bounding box must be smaller than maximum bounding "
                         "box for all values.")
    return low, high


class OcclusionSensitivity(Metric):
    """Occlusion sensitivity of a classification model for one input.

    Args:
        pad_val (float): the value hidden blocks take. Default: 0.0.
        margin (Union[int, list[int]]): half the block size (per non-batch axis for a list). Default: 2.
        n_batch (int): occluded copies per model call. Default: 128.
        b_box (list[int]): [min0, max0, min1, max1, ...] bounds (inclusive; negative means the whole
            axis) of the positions to test. Default: None (all positions).

    Inputs (``update``):
        - **model** (Cell) - maps a (N, ...) batch to (N, classes) scores.
        - **y_pred** - the input, with a batch axis of 1.
        - **label** - the label whose score is watched (an int or a 1-element array).
    """

    def __init__(self, pad_val=0.0, margin=2, n_batch=128, b_box=None):
        super().__init__()
        if isinstance(pad_val, bool) or not isinstance(pad_val, float):
            raise TypeError(f"For 'OcclusionSensitivity', the 'pad_val' must be a float, but got "
                            f"{type(pad_val).__name__}.")
        if not (isinstance(margin, list) or (isinstance(margin, int) and not isinstance(margin, bool))):
            raise TypeError(f"For 'OcclusionSensitivity', the 'margin' must be an int or a list, but got "
                            f"{type(margin).__name__}.")
        if isinstance(n_batch, bool) or not isinstance(n_batch, int) or n_batch < 1:
            raise ValueError(f"For 'OcclusionSensitivity', the 'n_batch' must be a positive int, but got {n_batch!r}.")
        if b_box is not None and not isinstance(b_box, list):
            raise TypeError(f"For 'OcclusionSensitivity', the 'b_box' must be a list, but got {type(b_box).__name__}.")
        self.pad_val, self.margin, self.n_batch, self.b_box = pad_val, margin, n_batch, b_box
        self.clear()

    def clear(self):
        """Forget the last result."""
        self._baseline = 0
        self._sensitivity_im = 0
        self._is_update = False

    def _scores(self, model, images, label):
        return np.asarray(model(Tensor(np.concatenate(images)))._value[:, label])  # (float32 as MindSpore's result)

    @rearrange_inputs
    def update(self, *inputs):
        """Compute the sensitivity map: ``update(model, y_pred, label)``."""
        self._check_inputs(inputs, 3, "classification model, predicted value, label")
        model, image, label = inputs
        if not isinstance(model, Cell):
            raise TypeError(f"For 'OcclusionSensitivity.update', the model must be a Cell, but got "
                            f"{type(model).__name__}.")
        image = to_numpy(image, "OcclusionSensitivity", "y_pred")
        label = to_numpy(label, "OcclusionSensitivity", "label")
        if image.shape[0] > 1:
            raise RuntimeError(f"For 'OcclusionSensitivity.update', the shape at index 0 of the predicted value "
                               f"(input[1]) must be 1, but got {image.shape[0]}.")
        if label.size != image.shape[0]:
            raise RuntimeError(f"For 'OcclusionSensitivity.update', the number of the label (input[2]) must be same "
                               f"as the batches, but got the label number {label.size}, and batches "
                               f"{image.shape[0]}.")
        label = int(label.reshape(-1)[0])
        shape = np.array(image.shape[1:])
        low, high = _bounding_box(self.b_box, shape)
        margins = np.broadcast_to(np.asarray(self.margin), shape.shape)
        self._baseline = float(self._scores(model, [image], label)[0])
        out_shape = tuple(shape if low is None else high - low + 1)
        scores, batch = [], []
        count = int(np.prod(out_shape))
        for flat in range(count):
            position = np.array(np.unravel_index(flat, out_shape))
            if low is not None:
                position = position + low
            block = tuple(slice(max(0, p - m), min(size, p + m)) for p, m, size in zip(position, margins, shape))
            occluded = image.copy()
            occluded[(slice(None),) + block] = self.pad_val
            batch.append(occluded)
            if len(batch) == self.n_batch or flat == count - 1:
                scores.append(self._scores(model, batch, label))
                batch = []
        self._sensitivity_im = np.concatenate(scores).reshape(out_shape)
        self._is_update = True

    def eval(self):
        """``baseline - occluded score`` per tested position (NumPy array)."""
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        return self._baseline - np.squeeze(self._sensitivity_im)
