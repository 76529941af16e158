"""Metric names accepted by ``Model(metrics={...})``: ``names()`` and ``get_metric_fn``."""
from sporax.train.metrics.base import Metric
from sporax.train.metrics.classification import (Accuracy, F1, Precision, Recall, Top1CategoricalAccuracy,
                                                  Top5CategoricalAccuracy)
from sporax.train.metrics.regression import MAE, MSE, Loss
from sporax.train.metrics.classification import TopKCategoricalAccuracy
from sporax.train.metrics.confusion import ConfusionMatrix
from sporax.train.metrics.confusion_metric import ConfusionMatrixMetric
from sporax.train.metrics.occlusion import OcclusionSensitivity
from sporax.train.metrics.language import BleuScore, Perplexity
from sporax.train.metrics.overlap import CosineSimilarity, Dice
from sporax.train.metrics.roc import ROC, auc
from sporax.train.metrics.surface import HausdorffDistance, MeanSurfaceDistance, RootMeanSquareDistance

_METRICS = {
    "F1": F1, "acc": Accuracy, "accuracy": Accuracy, "loss": Loss, "mae": MAE, "mse": MSE,
    "precision": Precision, "recall": Recall, "top_1_accuracy": Top1CategoricalAccuracy,
    "top_5_accuracy": Top5CategoricalAccuracy,
}
_METRICS.update({
    "bleu_score": BleuScore, "confusion_matrix": ConfusionMatrix, "cosine_similarity": CosineSimilarity,
    "dice": Dice, "hausdorff_distance": HausdorffDistance, "mean_surface_distance": MeanSurfaceDistance,
    "perplexity": Perplexity, "roc": ROC, "root_mean_square_distance": RootMeanSquareDistance,
    "topk": TopKCategoricalAccuracy,
})
_METRICS["confusion_matrix_metric"] = ConfusionMatrixMetric
_METRICS["occlusion_sensitivity"] = OcclusionSensitivity
# As MindSpore's registry: the function, so get_metric_fn("auc", x, y) gives the area.
_METRICS["auc"] = auc


def names():
    """The metric names sporax accepts, sorted."""
    return sorted(_METRICS)


def get_metric_fn(name, *args, **kwargs):
    """A new metric object for ``name`` ('accuracy', 'loss', 'mae' ...)."""
    if name not in _METRICS:
        raise KeyError(f"For 'get_metric_fn', unsupported metric {name}; supported: {names()}.")
    return _METRICS[name](*args, **kwargs)


def get_metrics(metrics):
    """``{name: Metric}`` from a set/list of names or a dict of Metric objects."""
    if metrics is None:
        return None
    if isinstance(metrics, dict):
        for name, metric in metrics.items():
            if not isinstance(metric, Metric):
                raise TypeError(f"For 'Model', metrics[{name!r}] must be a Metric, got {type(metric).__name__}.")
        return dict(metrics)
    if isinstance(metrics, (set, list, tuple)):
        return {name: get_metric_fn(name) for name in metrics}
    raise TypeError(f"For 'Model', metrics must be a dict of Metric or a set of metric names, "
                    f"got {type(metrics).__name__}.")
