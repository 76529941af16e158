"""``FlopsUtilizationCollector``: model and hardware FLOPs utilisation (MFU/HFU) per step.

The FLOPs come from ``flops_collection`` (XLA's cost analysis of the compiled train or eval
program, ``sporax.graph.flops``); utilisation is FLOPs per second over the device's peak
(``computility``), printed every step as MindSpore prints it.
"""
import math
import os
import time

from sporax.core import context
from sporax.graph.flops import flops_collection
from sporax.parallel import communication
from sporax.train.callback.base import Callback


def _floored_percentage(label, value, digits):
    value *= 10 ** (digits + 2)
    return label + "{1:.{0}f}%".format(digits, math.floor(value) / 10 ** digits)


class FlopsUtilizationCollector(Callback):
    """Print the model FLOPs utilisation (MFU) and hardware FLOPs utilisation (HFU) of each step.

    Only a compiled step has a FLOP count: use GRAPH_MODE.

    Args:
        data_size (int): steps between two printed lines (MindSpore prints on the steps that are
            not multiples of it).
        computility (int): the peak FLOPs per second of one device. Default: ``1``.
        full_flops (bool): count the whole model's FLOPs (True) or one device's shard. Default: ``True``.
        enable_ma_collector (bool): also write the FLOPs and step times to ``$MA_LOG_DIR``
            (``flops_rank_{r}.txt``, ``time_step_rank_{r}.txt``). Default: ``False``.

    Raises:
        TypeError: ``full_flops`` or ``enable_ma_collector`` not bool.
        ValueError: ``data_size`` not a positive int; at the first step, a step that is not compiled.

    Example:
        >>> import sporax as ms
        >>> collector = ms.train.FlopsUtilizationCollector(data_size=10, computility=1e12)
    """

    def __init__(self, data_size, computility=1, full_flops=True, enable_ma_collector=False):
        super().__init__()
        for name, value in (("full_flops", full_flops), ("enable_ma_collector", enable_ma_collector)):
            if not isinstance(value, bool):
                raise TypeError(f"For 'FlopsUtilizationCollector', the '{name}' must be bool, but got {type(value)}.")
        if isinstance(data_size, bool) or not isinstance(data_size, int) or data_size <= 0:
            raise ValueError(f"For 'FlopsUtilizationCollector', the 'data_size' must be a positive int, "
                             f"but got {data_size!r}.")
        self.data_size = data_size
        self.computility = computility
        self.full_flops = full_flops
        self.ma = enable_ma_collector
        self.verbose = not (computility == 1 and enable_ma_collector)
        self.step_time = time.time()
        self.batch_step_size = None
        self.mfu_calculated = False
        self.full_model_flops = self.full_hardware_flops = 0.0
        self.shard_model_flops = self.shard_hardware_flops = 0.0
        self.full_mfu = self.full_hfu = self.shard_mfu = self.shard_hfu = 0.0
        self.time_step_path = ""

    def step_begin(self, run_context):
        """Note when the step starts."""
        if self.batch_step_size is None:
            params = run_context.original_args()
            batch_num = params.get("batch_num")
            self.batch_step_size = batch_num if isinstance(batch_num, int) and batch_num > 0 else self.data_size
        self.step_time = time.time()

    def _refuse(self, message):
        if self.verbose:
            raise ValueError(message)
        return False

    def _collect(self, run_context):
        params = run_context.original_args()
        phase = "train" if params.get("train_network") is not None else "eval"
        if context.get_context("mode") != context.GRAPH_MODE:
            return self._refuse("FlopsUtilizationCollector now only support graph mode.")
        try:
            (self.full_model_flops, self.full_hardware_flops, self.shard_model_flops, self.shard_hardware_flops,
             dynamic) = flops_collection(phase)
        except RuntimeError as error:
            return self._refuse(f"FlopsUtilizationCollector is not supported because {error}.")
        if dynamic:
            return self._refuse("FlopsUtilizationCollector now do not support dynamic shape.")
        return True

    def _rank(self):
        return communication.get_rank() if communication.GlobalComm.INITED else 0

    def step_end(self, run_context):
        """Print the step time, MFU and HFU."""
        step_ms = (time.time() - self.step_time) * 1000
        params = run_context.original_args()
        if not self.mfu_calculated:
            if not self._collect(run_context):
                return
            self.full_mfu = self.full_model_flops / self.computility
            self.full_hfu = self.full_hardware_flops / self.computility
            self.shard_mfu = self.shard_model_flops / self.computility
            self.shard_hfu = self.shard_hardware_flops / self.computility
            self.mfu_calculated = True
            if self.ma:
                self._write_flops()
            if self.verbose:
                if self.full_flops:
                    print(f"Full model flops is {self.full_model_flops}, Full hardware flops is "
                          f"{self.full_hardware_flops}, Shard model flops is {self.shard_model_flops}, "
                          f"Shard hardware flops is {self.shard_hardware_flops}.", flush=True)
                else:
                    print(f"Shard model flops is {self.shard_model_flops}, Shard hardware flops is "
                          f"{self.shard_hardware_flops}.", flush=True)
        if params.get("dataset_sink_mode"):
            step_ms /= self.batch_step_size
        if self.ma:
            with open(self.time_step_path, "a", encoding="utf-8") as handle:
                handle.write(f'time_monitor{{type="per_step_time", rank_id="{self._rank()}"}} {step_ms} '
                             f"{int(round(time.time() * 1000))}\n")
        mode = "Train" if params.get("train_network") is not None else "Eval"
        line = f"{mode} per step time: {step_ms:5.3f} ms"
        if self.verbose and params.get("cur_step_num", 0) % self.data_size:
            mfu, hfu = (self.full_mfu, self.full_hfu) if self.full_flops else (self.shard_mfu, self.shard_hfu)
            line += _floored_percentage(" mfu:", 1000 * mfu / step_ms, 2)
            line += _floored_percentage(" hfu:", 1000 * hfu / step_ms, 2)
            print(line, flush=True)

    def _write_flops(self):
        folder = os.path.realpath(os.getenv("MA_LOG_DIR", "./"))
        rank = self._rank()
        self.time_step_path = os.path.join(folder, f"time_step_rank_{rank}.txt")
        stamp = int(round(time.time() * 1000))
        with open(os.path.join(folder, f"flops_rank_{rank}.txt"), "w", encoding="utf-8") as handle:
            handle.write(f'flops{{type="model_flops", rank_id="{rank}"}} {self.shard_model_flops} {stamp}\n')
            handle.write(f'flops{{type="hardware_flops", rank_id="{rank}"}} {self.shard_hardware_flops} {stamp}\n')
