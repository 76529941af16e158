"""``ConfusionMatrix``: counts of (true class, predicted class) pairs, optionally normalised.

Example:
    >>> from sporax.train.metrics.confusion import ConfusionMatrix
    >>> metric = ConfusionMatrix(num_classes=2)
    >>> metric.update([[0.9, 0.1], [0.2, 0.8], [0.6, 0.4]], [0, 1, 1])
    >>> metric.eval().tolist()
    [[1.0, 0.0], [1.0, 1.0]]
"""
import numpy as np

from sporax.train.metrics.base import Metric, check_choice, rearrange_inputs, to_numpy

_NORMALIZATIONS = ("no_norm", "target", "prediction", "all")


class ConfusionMatrix(Metric):
    """The confusion matrix: row ``i``, column ``j`` counts samples of class ``i`` predicted as ``j``.

    Args:
        num_classes (int): the number of classes.
        normalize (str): 'no_norm' (counts), 'target' (rows sum to 1), 'prediction' (columns sum
            to 1) or 'all' (the matrix sums to 1). Default: 'no_norm'.
        threshold (float): with predictions of the labels' shape, a score above it means class 1.
            Default: 0.5.

    Inputs (``update``):
        - **y_pred** - (N, C) scores (the arg-max is the prediction), or scores/labels of ``y``'s shape.
        - **y** - (N,) class indices.
    """

    def __init__(self, num_classes, normalize="no_norm", threshold=0.5):
        super().__init__()
        if isinstance(num_classes, bool) or not isinstance(num_classes, int) or num_classes <= 0:
            raise ValueError(f"For 'ConfusionMatrix', 'num_classes' must be a positive int, but got {num_classes!r}.")
        self.num_classes = num_classes
        self.normalize = check_choice("ConfusionMatrix", "normalize", normalize, _NORMALIZATIONS)
        self.threshold = threshold
        self.clear()

    def clear(self):
        """Reset the counts."""
        self.confusion_matrix = np.zeros((self.num_classes, self.num_classes), np.float64)
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs):
        """Add the pairs of one batch: ``update(y_pred, y)``."""
        self._check_inputs(inputs, 2, "y_pred, y")
        y_pred = to_numpy(inputs[0], "ConfusionMatrix", "y_pred")
        y = to_numpy(inputs[1], "ConfusionMatrix", "y").reshape(-1).astype(np.int64)
        if y_pred.ndim == y.ndim + 1 or (y_pred.ndim == 2 and y_pred.shape[0] == y.size and y_pred.shape[1] > 1):
            predicted = np.argmax(y_pred, axis=-1).reshape(-1)
        elif np.issubdtype(y_pred.dtype, np.floating):
            predicted = (y_pred.reshape(-1) > self.threshold).astype(np.int64)
        else:
            predicted = y_pred.reshape(-1).astype(np.int64)
        if predicted.size != y.size:
            raise ValueError(f"For 'ConfusionMatrix.update', y_pred gives {predicted.size} predictions but y has "
                             f"{y.size} labels.")
        if y.size and (y.min() < 0 or y.max() >= self.num_classes or predicted.max() >= self.num_classes):
            raise ValueError(f"For 'ConfusionMatrix.update', classes must be in [0, {self.num_classes}).")
        np.add.at(self.confusion_matrix, (y, predicted), 1)
        self._is_update = True

    def eval(self):
        """The matrix (float64 NumPy array), normalised as ``normalize`` says."""
        if not self._is_update:
            raise RuntimeError("For 'ConfusionMatrix.eval', call 'update' before 'eval'.")
        matrix = self.confusion_matrix
        with np.errstate(invalid="ignore", divide="ignore"):
            if self.normalize == "target":
                matrix = matrix / matrix.sum(axis=1, keepdims=True)
            elif self.normalize == "prediction":
                matrix = matrix / matrix.sum(axis=0, keepdims=True)
            elif self.normalize == "all":
                matrix = matrix / matrix.sum()
        return np.nan_to_num(matrix)
