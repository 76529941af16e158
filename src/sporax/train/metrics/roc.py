"""``ROC`` (receiver operating characteristic curves) and ``auc`` (area under a curve).

Example:
    >>> import numpy as np
    >>> from sporax.train.metrics.roc import ROC, auc
    >>> metric = ROC(pos_label=1)
    >>> metric.update(np.array([0.1, 0.4, 0.35, 0.8]), np.array([0, 0, 1, 1]))
    >>> fpr, tpr, thresholds = metric.eval()
    >>> float(auc(fpr, tpr))
    0.75
"""
import numpy as np

from sporax.train.metrics.base import Metric, rearrange_inputs, to_numpy


def _binary_curve(scores, truth, pos_label):
    """(fpr, tpr, thresholds) over every distinct score, highest first, as MindSpore reports them."""
    order = np.argsort(scores, kind="mergesort")[::-1]
    scores = scores[order]
    positive = (truth[order] == pos_label).astype(np.float64)
    last_of_each_score = np.r_[np.where(np.diff(scores))[0], positive.size - 1]
    true_positives = np.cumsum(positive)[last_of_each_score]
    false_positives = 1 + last_of_each_score - true_positives
    true_positives = np.r_[0, true_positives]
    false_positives = np.r_[0, false_positives]
    thresholds = np.r_[scores[last_of_each_score][0] + 1, scores[last_of_each_score]]
    if true_positives[-1] <= 0:
        raise ValueError("For 'ROC.eval', there is no positive samples in true value, true positive value "
                         "is meaningless.")
    if false_positives[-1] <= 0:
        raise ValueError("For 'ROC.eval', there is no negative samples in true value, false positive value "
                         "is meaningless.")
    return false_positives / false_positives[-1], true_positives / true_positives[-1], thresholds


class ROC(Metric):
    """The ROC curve of binary scores, or one curve per class for (N, C) scores.

    Args:
        class_num (int): the number of classes; None for binary scores. Default: None.
        pos_label (int): the positive class for binary scores (default 1); for several classes each
            class is positive in turn. Default: None.

    Inputs (``update``):
        - **y_pred** - (N,) scores, or (N, C) scores with ``class_num`` = C.
        - **y** - (N,) labels. Each update replaces the previous one.

    Outputs (``eval``):
        (fpr, tpr, thresholds): arrays for binary scores, lists of C arrays otherwise.
    """

    def __init__(self, class_num=None, pos_label=None):
        super().__init__()
        for name, value in (("class_num", class_num), ("pos_label", pos_label)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise TypeError(f"For 'ROC', '{name}' must be an int or None, but got {type(value).__name__}.")
        self.class_num = class_num
        self.pos_label = pos_label
        self.clear()

    def clear(self):
        """Forget the last inputs."""
        self.y_pred = 0
        self.y = 0
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs):
        """Keep the scores and labels of one batch: ``update(y_pred, y)``."""
        self._check_inputs(inputs, 2)
        y_pred = np.squeeze(to_numpy(inputs[0], "ROC", "y_pred"))
        y = np.squeeze(to_numpy(inputs[1], "ROC", "y"))
        if y_pred.ndim == y.ndim:
            if self.class_num is not None and self.class_num != 1:
                raise ValueError(f"For 'ROC', the 'class_num' must be None or 1 for binary scores, but got "
                                 f"{self.class_num}.")
            class_num = 1
            pos_label = 1 if self.pos_label is None else self.pos_label
        elif y_pred.ndim == y.ndim + 1:
            if self.pos_label is not None:
                raise ValueError(f"For 'ROC', the 'pos_label' must be None for (N, C) scores, but got "
                                 f"{self.pos_label}.")
            if self.class_num != y_pred.shape[1]:
                raise ValueError(f"For 'ROC', the 'class_num' must equal the number of classes from predicted "
                                 f"value (input[0]), but got 'class_num' {self.class_num}, the number of classes "
                                 f"from predicted value {y_pred.shape[1]}.")
            class_num = self.class_num
            pos_label = None
        else:
            raise ValueError(f"For 'ROC', predicted value (input[0]) must have the dimension of true value "
                             f"(input[1]) or one more, but got {y_pred.shape} and {y.shape}.")
        self.y_pred, self.y = y_pred, y
        self._class_num, self._pos_label = class_num, pos_label
        self._is_update = True

    def eval(self):
        """(fpr, tpr, thresholds) of the last update."""
        if not self._is_update:
            raise RuntimeError("For 'ROC.eval', call 'update' before 'eval'.")
        if self._class_num == 1:
            return _binary_curve(self.y_pred.reshape(-1), self.y.reshape(-1), self._pos_label)
        curves = [_binary_curve(self.y_pred[:, index], self.y, index) for index in range(self._class_num)]
        return tuple(list(column) for column in zip(*curves))


def auc(x, y, reorder=False):
    """The area under the curve through the points (x, y), by the trapezoidal rule.

    Args:
        x (numpy.ndarray): monotonic x coordinates (e.g. the fpr of ``ROC``).
        y (numpy.ndarray): y coordinates of the same length.
        reorder (bool): sort the points by x first (for x that is not monotonic). Default: False.

    Returns:
        float, the area (positive for decreasing x as well).

    Example:
        >>> import numpy as np
        >>> float(auc(np.array([0.0, 0.5, 1.0]), np.array([0.0, 0.8, 1.0])))
        0.65
    """
    x = to_numpy(x, "auc", "x").astype(np.float64).reshape(-1)
    y = to_numpy(y, "auc", "y").astype(np.float64).reshape(-1)
    if x.size != y.size or x.size < 2:
        raise ValueError(f"For 'auc', x and y must have the same length of at least 2, but got {x.size} "
                         f"and {y.size}.")
    direction = 1.0
    if reorder:
        order = np.lexsort((y, x))
        x, y = x[order], y[order]
    else:
        steps = np.diff(x)
        if np.any(steps < 0):
            if not np.all(steps <= 0):
                raise ValueError("For 'auc', the 'x' must be monotonic increasing or decreasing (or pass "
                                 "reorder=True).")
            direction = -1.0
    return direction * np.trapezoid(y, x) if hasattr(np, "trapezoid") else direction * np.trapz(y, x)
