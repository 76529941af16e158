"""Evaluation metrics (``mindspore.train`` and ``mindspore.nn`` metrics)."""
from sporax.train.metrics.base import Metric, rearrange_inputs
from sporax.train.metrics.classification import (Accuracy, F1, Fbeta, Precision, Recall,
                                                  Top1CategoricalAccuracy, Top5CategoricalAccuracy,
                                                  TopKCategoricalAccuracy)
from sporax.train.metrics.regression import MAE, MSE, Loss
from sporax.train.metrics.confusion import ConfusionMatrix
from sporax.train.metrics.registry import get_metric_fn, get_metrics, names
from sporax.train.metrics.overlap import CosineSimilarity, Dice
from sporax.train.metrics.language import BleuScore, Perplexity
from sporax.train.metrics.roc import ROC, auc
from sporax.train.metrics.surface import HausdorffDistance, MeanSurfaceDistance, RootMeanSquareDistance
from sporax.train.metrics.confusion_metric import ConfusionMatrixMetric
from sporax.train.metrics.occlusion import OcclusionSensitivity
