"""``SummaryCollector``: training scalars as TensorBoard event files (through ``tensorboardX``)."""
import os

import numpy as np

from sporax.train.callback.base import Callback, loss_value
from sporax.train.callback.landscape import LandscapeCollection


class SummaryCollector(Callback):
    """Write loss, learning rate and evaluation metrics to TensorBoard event files.

    MindSpore writes its own summary format for MindInsight; sporax writes TensorBoard's, which
    ``tensorboard --logdir summary_dir`` shows.

    Args:
        summary_dir (str): the folder for the event files.
        collect_freq (int): record the loss every this many steps.
        collect_specified_data (dict): ``{'collect_metric': bool}`` switches the loss/metric scalars;
            ``{'collect_landscape': {...}}`` keeps the weights ``SummaryLandscape`` draws loss landscapes
            from (``landscape_size``, ``unit``, ``num_samples``, ``create_landscape``, ``intervals``).
    """

    def __init__(self, summary_dir, collect_freq=10, num_process=32, collect_specified_data=None,
                 keep_default_action=True, custom_lineage_data=None, collect_tensor_freq=None,
                 max_file_size=None, export_options=None):
        if not isinstance(summary_dir, (str, os.PathLike)):
            raise TypeError(f"For 'SummaryCollector', summary_dir must be a str, got {type(summary_dir).__name__}.")
        if not isinstance(collect_freq, int) or collect_freq <= 0:
            raise ValueError(f"For 'SummaryCollector', collect_freq must be an int > 0, got {collect_freq!r}.")
        self.summary_dir = os.fspath(summary_dir)
        self.collect_freq = collect_freq
        specified = dict(collect_specified_data or {})
        self._collect_metric = specified.get("collect_metric", True)
        landscape = specified.get("collect_landscape")
        self._landscape = LandscapeCollection(self.summary_dir, landscape) if landscape else None
        self._writer = None

    def _open(self):
        if self._writer is None:
            try:
                from tensorboardX import SummaryWriter
            except ImportError:
                raise ImportError("SummaryCollector writes TensorBoard files through tensorboardX: "
                                  "pip install tensorboardX") from None
            self._writer = SummaryWriter(self.summary_dir)
        return self._writer

    def on_train_begin(self, run_context):
        self._open()

    def on_train_step_end(self, run_context):
        params = run_context.original_args()
        if self._landscape is not None:
            self._landscape.unit_end(params, "step")
        step = params["cur_step_num"]
        if not self._collect_metric or step % self.collect_freq:
            return
        writer = self._open()
        loss = loss_value(params.get("net_outputs"))
        if loss is not None:
            writer.add_scalar("loss", loss, step)
        learning_rate = _current_learning_rate(params.get("optimizer"))
        if learning_rate is not None:
            writer.add_scalar("learning_rate", learning_rate, step)

    def on_train_epoch_end(self, run_context):
        params = run_context.original_args()
        if self._landscape is not None:
            self._landscape.unit_end(params, "epoch")
        for name, value in (params.get("metrics") or {}).items():
            if isinstance(value, (int, float)):
                self._open().add_scalar(f"eval/{name}", value, params["cur_step_num"])
        if self._writer is not None:
            self._writer.flush()

    def on_eval_end(self, run_context):
        params = run_context.original_args()
        for name, value in (params.get("metrics") or {}).items():
            if isinstance(value, (int, float)):
                self._open().add_scalar(f"eval/{name}", value, params.get("cur_step_num", 0))

    def on_train_end(self, run_context):
        if self._landscape is not None:
            self._landscape.train_end(run_context.original_args())
        self.close()

    def close(self):
        if self._writer is not None:
            self._writer.close()
            self._writer = None

    def __exit__(self, *error):
        self.close()
        return False


def _current_learning_rate(optimizer):
    """The optimizer's current learning rate as a float, or None."""
    if optimizer is None:
        return None
    get_lr = getattr(optimizer, "get_lr", None)
    try:
        value = get_lr() if get_lr is not None else getattr(optimizer, "learning_rate", None)
        return float(np.mean(value.asnumpy())) if value is not None else None
    except Exception:  # a schedule that needs a traced step, for example
        return None
