"""``sporax.train`` (``mindspore.train``): Model, callbacks, metrics."""
from sporax.train.metrics import (MAE, MSE, Accuracy, F1, Fbeta, Loss, Metric, Precision, Recall,
                                  Top1CategoricalAccuracy, Top5CategoricalAccuracy,
                                  TopKCategoricalAccuracy, rearrange_inputs)
from sporax.train.callback import (Callback, CheckpointConfig, EarlyStopping, History, LambdaCallback,
                                   LossMonitor, ModelCheckpoint, ProgressBar, ReduceLROnPlateau,
                                   RunContext, SummaryCollector, TimeMonitor)
