"""``sporax.train`` (``mindspore.train``): Model, callbacks, metrics."""
from sporax.train.metrics import (MAE, MSE, Accuracy, F1, Fbeta, Loss, Metric, Precision, Recall,
                                  Top1CategoricalAccuracy, Top5CategoricalAccuracy,
                                  TopKCategoricalAccuracy, rearrange_inputs)
from sporax.train.callback import (Callback, CheckpointConfig, EarlyStopping, History, LambdaCallback,
                                   LossMonitor, ModelCheckpoint, ProgressBar, ReduceLROnPlateau,
                                   RunContext, SummaryCollector, TimeMonitor)
from sporax.train.dataset_helper import DatasetHelper, connect_network_with_dataset, data_sink
from sporax.train.metrics import get_metric_fn, names
from sporax.train.metrics import ConfusionMatrix
from sporax.train.model import Model
from sporax.core.context import ParallelMode
# MindSpore's private callback helpers that the model zoo imports (``mindspore.train.callback``).
from sporax.train.callback import _CallbackManager, _InternalCallbackParam, _handle_loss, _set_cur_net, set_cur_net
from sporax.io import export, load, load_checkpoint, load_param_into_net, save_checkpoint
from sporax.train.callback import BackupAndRestore, LearningRateScheduler
from sporax.io import load_checkpoint_async
from sporax.train.amp import DynamicLossScaleManager, FixedLossScaleManager, LossScaleManager, build_train_network
from sporax.train.callback import OnRequestExit
from sporax.train.metrics import (BleuScore, CosineSimilarity, Dice, HausdorffDistance, MeanSurfaceDistance,
                                  Perplexity, ROC, RootMeanSquareDistance, auc, get_metrics)
from sporax.train.thor import ConvertModelUtils
from sporax.parallel import (build_searched_strategy, load_distributed_checkpoint, merge_sliced_parameter,
                             restore_group_info_list)
from sporax.train.summary import SummaryRecord
from sporax.io.format_convert import ckpt_to_safetensors, safetensors_to_ckpt
from sporax.train.metrics import ConfusionMatrixMetric
from sporax.train.metrics import OcclusionSensitivity
from sporax.io.checkpoint_status import async_ckpt_thread_status
from sporax.train.callback.flops import FlopsUtilizationCollector  # noqa: E402
from sporax.train.ascend_services import ConvertNetUtils, TrainFaultTolerance, export_split_mindir  # noqa: E402
from sporax.train.callback.landscape import SummaryLandscape  # noqa: E402
from sporax.parallel.replicas import get_ckpt_path_with_strategy  # noqa: E402
