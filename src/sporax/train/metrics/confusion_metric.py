"""``ConfusionMatrixMetric``: sensitivity, specificity, F1, MCC ... from one-hot predictions.

Inputs are binarized one-hot arrays (B, C, ...). For each sample and class the counts tp, fp, tn,
fn are taken over the remaining axes. As in MindSpore 2.10, ``skip_channel=False`` leaves out the
first class (when there are several) and ``skip_channel=True`` keeps every class.

- ``calculation_method=False``: the counts of all samples and classes are summed over every
  update; ``eval`` returns the metric of the totals as a 1-element array.
- ``calculation_method=True`` (segmentation): each update computes the metric per (sample, class),
  drops NaNs and reduces with ``decrease`` to one number ('mean': class means per sample, then the
  mean over samples; 'sum': the total); ``eval`` returns the average of those numbers weighted by
  their count of valid entries. Inputs of 2 dims, or 3 with a last axis of 1 (classification),
  always use the summed counts.
"""
import numpy as np

from sporax.train.metrics.base import Metric, check_bool, check_choice, rearrange_inputs, to_numpy

_ALIASES = {
    "tpr": ("sensitivity", "recall", "hit_rate", "true_positive_rate", "tpr"),
    "tnr": ("specificity", "selectivity", "true_negative_rate", "tnr"),
    "ppv": ("precision", "positive_predictive_value", "ppv"),
    "npv": ("negative_predictive_value", "npv"),
    "fnr": ("miss_rate", "false_negative_rate", "fnr"),
    "fpr": ("fall_out", "false_positive_rate", "fpr"),
    "fdr": ("false_discovery_rate", "fdr"),
    "for": ("false_omission_rate", "for"),
    "pt": ("prevalence_threshold", "pt"),
    "ts": ("threat_score", "critical_success_index", "ts", "csi"),
    "acc": ("accuracy", "acc"),
    "ba": ("balanced_accuracy", "ba"),
    "f1": ("f1_score", "f1"),
    "mcc": ("matthews_correlation_coefficient", "mcc"),
    "fm": ("fowlkes_mallows_index", "fm"),
    "bm": ("informedness", "bookmaker_informedness", "bm"),
    "mk": ("markedness", "deltap", "mk"),
}
_SHORT_NAME = {alias: short for short, aliases in _ALIASES.items() for alias in aliases}
_DECREASES = ("none", "mean", "sum", "mean_batch", "sum_batch", "mean_channel", "sum_channel")


def _ratio(numerator, denominator):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(denominator > 0, numerator / np.where(denominator > 0, denominator, 1), np.nan)


def _metric(short, counts):
    """The metric ``short`` of (..., 4) counts [tp, fp, tn, fn]; NaN where it is undefined."""
    tp, fp, tn, fn = (counts[..., index] for index in range(4))
    p, n = tp + fn, fp + tn
    tpr, tnr = _ratio(tp, p), _ratio(tn, n)
    with np.errstate(divide="ignore", invalid="ignore"):
        formulas = {
            "tpr": lambda: (tp, p), "tnr": lambda: (tn, n), "ppv": lambda: (tp, tp + fp),
            "npv": lambda: (tn, tn + fn), "fnr": lambda: (fn, p), "fpr": lambda: (fp, n),
            "fdr": lambda: (fp, fp + tp), "for": lambda: (fn, fn + tn),
            "pt": lambda: (np.sqrt(tpr * (1.0 - tnr)) + tnr - 1.0, tpr + tnr - 1.0),
            "ts": lambda: (tp, tp + fn + fp), "acc": lambda: (tp + tn, p + n),
            "ba": lambda: ((tpr + tnr) / 2.0, None), "f1": lambda: (2.0 * tp, 2.0 * tp + fn + fp),
            "mcc": lambda: (tp * tn - fp * fn, np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))),
            "fm": lambda: (np.sqrt(_ratio(tp, tp + fp) * tpr), None), "bm": lambda: (tpr + tnr - 1.0, None),
            "mk": lambda: (_ratio(tp, tp + fp) + tn / (tn + fn) - 1.0, None),
        }
        numerator, denominator = formulas[short]()
        if denominator is None:
            return numerator
        return np.where(denominator != 0, numerator / np.where(denominator != 0, denominator, 1), np.nan)


def _counts(y_pred, y, skip_channel):
    if not skip_channel and y.shape[1] > 1:
        y, y_pred = y[:, 1:], y_pred[:, 1:]
    if y.shape != y_pred.shape:
        raise ValueError(f"For 'ConfusionMatrixMetric.update', y_pred and y must have the same shape, but got "
                         f"{y_pred.shape} and {y.shape}.")
    batch, classes = y_pred.shape[:2]
    y_pred = y_pred.astype(float).reshape(batch, classes, -1)
    y = y.astype(float).reshape(batch, classes, -1)
    tp = ((y_pred + y) == 2).sum(axis=2).astype(float)
    tn = ((y_pred + y) == 0).sum(axis=2).astype(float)
    p = y.sum(axis=2)
    n = y.shape[-1] - p
    return np.stack([tp, n - tn, tn, p - tp], axis=-1)


def _reduce(chart, decrease):
    valid = (~np.isnan(chart)).astype(float)
    chart = np.where(np.isnan(chart), 0.0, chart)
    if decrease == "mean":
        per_sample_count = valid.sum(axis=1)
        per_sample = np.where(per_sample_count > 0, chart.sum(axis=1) / np.maximum(per_sample_count, 1), 0.0)
        count = (per_sample_count > 0).astype(float).sum(axis=0)
        return np.where(count > 0, per_sample.sum(axis=0) / max(count, 1), 0.0), count
    if decrease == "sum":
        return chart.sum(axis=(0, 1)), valid.sum(axis=(0, 1))
    axis = 0 if decrease.endswith("batch") else 1
    count = valid.sum(axis=axis)
    if decrease.startswith("mean"):
        return np.where(count > 0, chart.sum(axis=axis) / np.maximum(count, 1), 0.0), count
    if decrease.startswith("sum"):
        return chart.sum(axis=axis), count
    return chart, valid


class ConfusionMatrixMetric(Metric):
    """Metrics of the confusion matrix of one-hot predictions (see the module description).

    Args:
        skip_channel (bool): as in MindSpore 2.10, False leaves out the first class. Default: True.
        metric_name (str): 'sensitivity', 'specificity', 'precision', 'negative predictive value',
            'miss rate', 'fall out', 'false discovery rate', 'false omission rate', 'prevalence
            threshold', 'threat score', 'accuracy', 'balanced accuracy', 'f1 score', 'matthews
            correlation coefficient', 'fowlkes mallows index', 'informedness', 'markedness' (or the
            usual aliases: 'tpr', 'recall', 'mcc' ...). Default: 'sensitivity'.
        calculation_method (bool): per-sample metrics (True) or summed counts (False). Default: False.
        decrease (str): how a batch's per-sample metrics reduce ('mean' or 'sum' give the one number
            per update that is averaged). Default: 'mean'.

    Inputs (``update``):
        - **y_pred** - binarized one-hot predictions (B, C, ...).
        - **y** - binarized one-hot truth of the same shape.
    """

    def __init__(self, skip_channel=True, metric_name="sensitivity", calculation_method=False, decrease="mean"):
        super().__init__()
        check_bool("ConfusionMatrixMetric", "skip_channel", skip_channel)
        check_bool("ConfusionMatrixMetric", "calculation_method", calculation_method)
        if not isinstance(metric_name, str):
            raise TypeError(f"For 'ConfusionMatrixMetric', the 'metric_name' must be a str, but got "
                            f"{type(metric_name).__name__}.")
        short = _SHORT_NAME.get(metric_name.replace(" ", "_").lower())
        if short is None:
            raise NotImplementedError(f"For 'ConfusionMatrixMetric', the metric {metric_name!r} is not "
                                      f"implemented; choose one of {sorted(_SHORT_NAME)}.")
        check_choice("ConfusionMatrixMetric", "decrease", decrease, _DECREASES)
        self.skip_channel, self.metric_name = skip_channel, metric_name
        self.calculation_method, self.decrease = calculation_method, decrease
        self._short = short
        self.clear()

    def clear(self):
        """Reset the totals."""
        self._total_num = 0.0
        self._class_num = 0
        self._totals = np.zeros(4)
        self._counted = False

    @rearrange_inputs
    def update(self, *inputs):
        """Add one batch: ``update(y_pred, y)``."""
        self._check_inputs(inputs, 2)
        y_pred = to_numpy(inputs[0], "ConfusionMatrixMetric", "y_pred")
        y = to_numpy(inputs[1], "ConfusionMatrixMetric", "y")
        if not np.all(y.astype(np.uint8) == y):
            raise ValueError("For 'ConfusionMatrixMetric.update', the true value (input[1]) must be a binarized "
                             "ndarray.")
        if y_pred.ndim < 2:
            raise ValueError(f"For 'ConfusionMatrixMetric.update', the predicted value (input[0]) must have at "
                             f"least 2 dimensions, but got {y_pred.ndim}.")
        counts = _counts(y_pred, y, self.skip_channel)
        classification = y_pred.ndim == 2 or (y_pred.ndim == 3 and y_pred.shape[-1] == 1)
        if self.calculation_method and not classification:
            score, count = _reduce(_metric(self._short, counts), self.decrease)
            if np.size(score) != 1:
                raise ValueError(f"For 'ConfusionMatrixMetric', decrease={self.decrease!r} leaves "
                                 f"{np.size(score)} values per update; use 'mean' or 'sum' to accumulate one.")
            count = int(np.asarray(count).item())
            self._total_num += float(np.asarray(score).item()) * count
            self._class_num += count
        else:
            self._totals += counts.reshape(-1, 4).sum(axis=0)
            self._counted = True

    def eval(self):
        """The metric: a float (per-sample mode) or a 1-element array (summed counts)."""
        if self.calculation_method and not self._counted:
            if self._class_num == 0:
                raise self._no_samples()
            return self._total_num / self._class_num
        return _metric(self._short, self._totals[None, :])
