"""Monitors that report training progress: LossMonitor, TimeMonitor."""
import math
import time

import numpy as np

from sporax.train.callback.base import Callback, loss_value


def _non_negative_int(value, name):
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"The input value must be int and must >= 0, but got '{value}' with type "
                         f"'{type(value).__name__}'. ({name})")
    return value


class LossMonitor(Callback):
    """Print the loss every ``per_print_times`` steps, as ``epoch: 1 step: 2, loss is 2.30``.

    Args:
        per_print_times (int): print every this many steps; 0 prints nothing.
    """

    def __init__(self, per_print_times=1):
        self._per_print_times = _non_negative_int(per_print_times, "per_print_times")
        self._last_print_time = 0

    def on_train_begin(self, run_context):
        self._last_print_time = 0

    def step_end(self, run_context):
        params = run_context.original_args()
        loss = loss_value(params.get("net_outputs"))
        batch_num = params.get("batch_num") or 1
        step_in_epoch = (params["cur_step_num"] - 1) % batch_num + 1
        # also an evaluation's step hook (Model.eval's callbacks), whose params have no epoch: MindSpore prints 1
        epoch = params.get("cur_epoch_num", 1)
        if loss is not None and (math.isnan(loss) or math.isinf(loss)):
            raise ValueError(f"epoch: {epoch} step: {step_in_epoch}. Invalid loss "
                             f"{loss}, terminating training. Lower the learning rate or use loss scaling.")
        if self._per_print_times and params["cur_step_num"] - self._last_print_time >= self._per_print_times:
            self._last_print_time = params["cur_step_num"]
            print(f"epoch: {epoch} step: {step_in_epoch}, loss is {loss}", flush=True)

    def on_train_epoch_end(self, run_context):
        params = run_context.original_args()
        metrics = params.get("metrics")
        if metrics:
            # no flush here, as in MindSpore: a stdout that clears itself on flush keeps this line
            print(f"Eval result: epoch {params['cur_epoch_num']}, metrics: {_as_printed(metrics)}")


def _as_printed(metrics):
    """The metrics dict as MindSpore's line shows it: NumPy scalars print as plain numbers ('mse': 9.0), the
    form NumPy 1 gives them; NumPy 2 would print np.float64(9.0)."""
    if not isinstance(metrics, dict):
        return metrics
    return {name: value.item() if isinstance(value, np.generic) else value for name, value in metrics.items()}


class TimeMonitor(Callback):
    """Print each epoch's time and time per step.

    Args:
        data_size (int): steps per epoch, used only where the run gives no step count (``Model.train`` always
            gives one, and it wins, as in MindSpore 2.10, so any value, even a wrong one, is accepted here).
        data_time (bool): also report the time per step spent waiting for data.

    Raises:
        TypeError: ``data_time`` is not a bool.
    """

    def __init__(self, data_size=None, data_time=False):
        if not isinstance(data_time, bool):
            raise TypeError(f"The 'data_time' must be a bool, but got {type(data_time).__name__}.")
        self.data_size = data_size
        self.data_time = data_time
        self._epoch_start = 0.0
        self._data_wait = 0.0
        self._step_end = None

    def epoch_begin(self, run_context):
        self._epoch_start = time.perf_counter()
        self._data_wait = 0.0
        self._step_end = self._epoch_start

    def on_train_step_begin(self, run_context):
        if self._step_end is not None:
            self._data_wait += time.perf_counter() - self._step_end

    def on_train_step_end(self, run_context):
        self._step_end = time.perf_counter()

    def epoch_end(self, run_context):
        elapsed_ms = (time.perf_counter() - self._epoch_start) * 1000
        batch_num = run_context.original_args().get("batch_num")
        # MindSpore 2.10 divides by the run's steps per epoch whenever it has them; data_size is the fallback.
        steps = batch_num if isinstance(batch_num, int) and batch_num > 0 else self.data_size
        if not isinstance(steps, int) or isinstance(steps, bool) or steps <= 0:
            raise ValueError(f"For 'TimeMonitor', the steps per epoch must be int and must > 0, but got '{steps}' "
                             f"with type '{type(steps).__name__}': the run gives no step count, so pass data_size.")
        line = f"Train epoch time: {elapsed_ms:5.3f} ms, per step time: {elapsed_ms / steps:5.3f} ms"
        if self.data_time:
            line += f" (data time: {self._data_wait * 1000 / steps:5.3f} ms)"
        print(line, flush=True)
