"""Training callbacks (``mindspore.train.callback``)."""
from sporax.train.callback.base import (Callback, CallbackList, CallbackParams, RunContext, _CallbackManager, _get_cur_net,
                                        _InternalCallbackParam, _handle_loss, _set_cur_net,
                                        set_cur_net)
from sporax.train.callback.checkpoint import CheckpointConfig, ModelCheckpoint
from sporax.train.callback.history import History, LambdaCallback
from sporax.train.callback.monitors import LossMonitor, TimeMonitor
from sporax.train.callback.plateau import EarlyStopping, ReduceLROnPlateau
from sporax.train.callback.progress import ProgressBar
from sporax.train.callback.summary import SummaryCollector
from sporax.train.callback.backup import BackupAndRestore
from sporax.train.callback.lr_scheduler import LearningRateScheduler
from sporax.train.callback.on_request_exit import OnRequestExit
from sporax.train.callback.flops import FlopsUtilizationCollector
from sporax.train.callback.landscape import SummaryLandscape
from sporax.train.ascend_services import TrainFaultTolerance
