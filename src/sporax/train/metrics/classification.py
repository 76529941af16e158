"""Classification metrics: Accuracy, Precision, Recall, F1/Fbeta, top-k accuracy."""
import sys

import numpy as np

from sporax.train.metrics.base import Metric, rearrange_inputs

_EPS = sys.float_info.min


def _labels_and_classes(metric, y_pred, y):
    """Predicted and true class indices for ``(N, C)`` scores and index or one-hot labels."""
    if y_pred.ndim == y.ndim and y_pred.shape == y.shape and y_pred.ndim > 1:
        y = y.argmax(axis=1)
    elif y.ndim == 2 and y.shape[1] == 1:
        y = y.reshape(-1)
    if y_pred.ndim == 1:  # binary scores
        return np.round(y_pred).astype(np.int64), y.reshape(-1).astype(np.int64), 2
    if y_pred.ndim != 2 or y.ndim != 1 or y.shape[0] != y_pred.shape[0]:
        raise ValueError(f"For '{metric}.update', predictions must be (N, C) and labels (N,) class "
                         f"indices or (N, C) one-hot, got {y_pred.shape} and {y.shape}.")
    return y_pred.argmax(axis=1), y.astype(np.int64), y_pred.shape[1]


def _check_eval_type(metric, eval_type):
    if eval_type not in ("classification", "multilabel"):
        raise ValueError(f"For '{metric}', eval_type must be 'classification' or 'multilabel', "
                         f"got {eval_type!r}.")
    return eval_type


class Accuracy(Metric):
    """Fraction of correctly predicted samples.

    Args:
        eval_type (str): 'classification' (argmax of scores) or 'multilabel' (rounded 0/1 rows).
    """

    def __init__(self, eval_type="classification"):
        super().__init__()
        self._type = _check_eval_type("Accuracy", eval_type)
        self.clear()

    def clear(self):
        self._correct_num = 0
        self._total_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        self._check_inputs(inputs, 2)
        y_pred, y = self._convert_data(inputs[0]), self._convert_data(inputs[1])
        if self._type == "multilabel":
            correct = np.all(np.round(y_pred) == y, axis=1)
        else:
            predicted, y, _ = _labels_and_classes("Accuracy", y_pred, y)
            correct = predicted == y
        self._correct_num += int(correct.sum())
        self._total_num += correct.shape[0]

    def eval(self):
        if self._total_num == 0:
            raise self._no_samples()
        return np.float64(self._correct_num / self._total_num)  # MindSpore 2.10 returns numpy.float64


class _ConfusionCounts(Metric):
    """Per-class true positives, predicted positives and actual positives ('classification'); per sample for
    'multilabel', as MindSpore 2.10 counts there (its multilabel precision and recall are one value per row)."""

    def __init__(self, eval_type="classification"):
        super().__init__()
        self._type = _check_eval_type(type(self).__name__, eval_type)
        self.clear()

    def clear(self):
        # multilabel: per-sample counts, concatenated by update
        empty = np.zeros(0, np.int64) if self._type == "multilabel" else 0
        self._true_positives = self._predicted_positives = self._actual_positives = empty
        self._samples = 0

    @rearrange_inputs
    def update(self, *inputs):
        self._check_inputs(inputs, 2)
        y_pred, y = self._convert_data(inputs[0]), self._convert_data(inputs[1])
        if self._type == "multilabel":
            predicted, actual = np.round(y_pred).astype(np.int64), y.astype(np.int64)
        else:
            predicted, labels, classes = _labels_and_classes(type(self).__name__, y_pred, y)
            predicted = np.eye(classes, dtype=np.int64)[predicted]
            actual = np.eye(classes, dtype=np.int64)[labels]
        if self._type == "multilabel":
            # one count per sample, appended batch after batch
            counts = ((predicted * actual).sum(axis=1), predicted.sum(axis=1), actual.sum(axis=1))
            self._true_positives, self._predicted_positives, self._actual_positives = (
                np.concatenate([total, count]) for total, count in
                zip((self._true_positives, self._predicted_positives, self._actual_positives), counts))
        else:
            self._true_positives = self._true_positives + (predicted * actual).sum(axis=0)
            self._predicted_positives = self._predicted_positives + predicted.sum(axis=0)
            self._actual_positives = self._actual_positives + actual.sum(axis=0)
        self._samples += predicted.shape[0]

    def _ratio(self, positives, average):
        """True positives over ``positives``, per class or per sample; ``average``: their mean."""
        self._check_samples()
        result = self._true_positives / (positives + _EPS)
        if average and self._type == "multilabel":
            return np.float64(result.sum() / (result.size + _EPS))  # MindSpore's epsilon in the mean too
        return np.float64(result.mean()) if average else result

    def _check_samples(self):
        if self._samples == 0:
            raise self._no_samples()


class Precision(_ConfusionCounts):
    """Per-class precision TP / (TP + FP) (per sample for 'multilabel'); ``eval(average=True)`` gives their mean."""

    def eval(self, average=False):
        return self._ratio(self._predicted_positives, average)


class Recall(_ConfusionCounts):
    """Per-class recall TP / (TP + FN) (per sample for 'multilabel'); ``eval(average=True)`` gives their mean."""

    def eval(self, average=False):
        return self._ratio(self._actual_positives, average)


class Fbeta(_ConfusionCounts):
    """Per-class F-beta score, the weighted harmonic mean of precision and recall.

    Args:
        beta (Union[int, float]): weight of recall; must be > 0.
    """

    def __init__(self, beta):
        if not isinstance(beta, (int, float)) or beta <= 0:
            raise ValueError(f"For 'Fbeta', beta must be a number > 0, got {beta!r}.")
        self.beta = beta
        super().__init__("classification")

    def eval(self, average=False):
        self._check_samples()
        precision = self._true_positives / (self._predicted_positives + _EPS)
        recall = self._true_positives / (self._actual_positives + _EPS)
        square = self.beta ** 2
        result = (1 + square) * precision * recall / (square * precision + recall + _EPS)
        return np.float64(result.mean()) if average else result


class F1(Fbeta):
    """Per-class F1 score (F-beta with beta = 1)."""

    def __init__(self):
        super().__init__(1.0)


class TopKCategoricalAccuracy(Metric):
    """Fraction of samples whose true class is among the ``k`` highest scores.

    Args:
        k (int): how many top scores count; >= 1.
    """

    def __init__(self, k):
        super().__init__()
        if not isinstance(k, int) or isinstance(k, bool) or k < 1:
            raise ValueError(f"For 'TopKCategoricalAccuracy', k must be an int >= 1, got {k!r}.")
        self.k = k
        self.clear()

    def clear(self):
        self._correct_num = 0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        self._check_inputs(inputs, 2)
        y_pred, y = self._convert_data(inputs[0]), self._convert_data(inputs[1])
        if y.ndim == y_pred.ndim and y.ndim > 1:
            y = y.argmax(axis=1)
        top = np.argsort(-y_pred, axis=1, kind="stable")[:, :self.k]
        if top.shape[1] < self.k and top.shape[1] != 1:
            # MindSpore 2.10 compares the top indices with k copies of the label: fewer classes than k
            # cannot broadcast (one class broadcasts, and counts k hits per row).
            rows, classes = top.shape
            raise ValueError(f"operands could not be broadcast together with shapes ({rows},{classes}) "
                             f"({rows},{self.k}) ({type(self).__name__}: y_pred has "
                             f"{top.shape[1]} classes, fewer than k={self.k}; as in MindSpore 2.10, "
                             "use a k no larger than the number of classes.)")
        hits = (top == y.reshape(-1, 1)).sum(axis=1)
        self._correct_num += int(hits.sum()) * (self.k if top.shape[1] < self.k else 1)
        self._samples_num += y.shape[0]

    def eval(self):
        if self._samples_num == 0:
            raise self._no_samples()
        return np.float64(self._correct_num / self._samples_num)


class Top1CategoricalAccuracy(TopKCategoricalAccuracy):
    """Top-1 accuracy."""

    def __init__(self):
        super().__init__(1)


class Top5CategoricalAccuracy(TopKCategoricalAccuracy):
    """Top-5 accuracy."""

    def __init__(self):
        super().__init__(5)
