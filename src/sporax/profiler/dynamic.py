"""``DynamicProfilerMonitor``: start and stop profiling from a JSON file while training runs.

The monitor owns ``cfg_path/profiler_config.json`` (written with inactive defaults when missing).
Each ``step()`` (or training step, as a callback) counts one step and, at most every
``poll_interval`` seconds, re-reads the file when it changed. Editing ``start_step`` and
``stop_step`` there makes the monitor trace steps ``start_step .. stop_step`` with ``Profiler``
into ``output_path/rank{rank}_start{start}_stop{stop}``; ``"analyse": true`` also writes the step
tables. Options the JAX trace has no counterpart for (Ascend counters, export types) are kept in
the file and not used.
"""
import json
import os
import time

from sporax.log import info as _info
from sporax.log import warning as _warning
from sporax.parallel import communication
from sporax.profiler.profiler import Profiler
from sporax.train.callback.base import Callback

_DEFAULTS = {
    "start_step": -1, "stop_step": -1, "aic_metrics": "AiCoreNone", "profiler_level": "Level0",
    "analyse_mode": -1, "activities": ["CPU", "NPU"], "export_type": ["text"], "profile_memory": False,
    "mstx": False, "parallel_strategy": False, "with_stack": False, "data_simplification": True,
    "l2_cache": False, "analyse": False, "record_shapes": False, "prof_path": "./",
    "mstx_domain_include": [], "mstx_domain_exclude": [], "host_sys": [], "sys_io": False,
    "sys_interconnection": False,
}
_FILE_NAME = "profiler_config.json"


def _rank():
    return communication.get_rank() if communication.GlobalComm.INITED else 0


class DynamicProfilerMonitor(Callback):
    """Profile the steps a JSON file names, re-read while the job runs.

    Args:
        cfg_path (str): the folder of ``profiler_config.json`` (created when missing).
        output_path (str): where the traces go. Default: "./dyn_profile_data".
        poll_interval (int): seconds between checks of the file, >= 1. Default: 2.

    Example:
        >>> from sporax.profiler import DynamicProfilerMonitor
        >>> monitor = DynamicProfilerMonitor(cfg_path="./cfg")  # doctest: +SKIP
        >>> for batch in dataset:                                # doctest: +SKIP
        ...     train_step(batch)
        ...     monitor.step()
    """

    def __init__(self, cfg_path=None, output_path="./dyn_profile_data", poll_interval=2, **kwargs):
        if not isinstance(cfg_path, (str, os.PathLike)) or not os.fspath(cfg_path):
            raise ValueError(f"For 'DynamicProfilerMonitor', the 'cfg_path' must be a folder path, but got "
                             f"{cfg_path!r}.")
        if isinstance(poll_interval, bool) or not isinstance(poll_interval, int) or poll_interval < 1:
            raise ValueError(f"For 'DynamicProfilerMonitor', the 'poll_interval' must be an int >= 1, but got "
                             f"{poll_interval!r}.")
        self.cfg_path = os.path.realpath(os.fspath(cfg_path))
        self.output_path = os.path.realpath(os.fspath(output_path))
        self.poll_interval = poll_interval
        self._config_file = os.path.join(self.cfg_path, _FILE_NAME)
        os.makedirs(self.cfg_path, exist_ok=True)
        if not os.path.exists(self._config_file):
            with open(self._config_file, "w") as handle:
                json.dump(_DEFAULTS, handle, indent=4)
            _info(f"[Dynamic Profiler] Init config json file: {self._config_file}")
        self._step_num = 0
        self._mtime = os.path.getmtime(self._config_file)
        self._last_poll = 0.0
        self._config = dict(_DEFAULTS)
        self._start = self._stop = -1
        self._profiler = None

    def _poll(self):
        now = time.monotonic()
        if now - self._last_poll < self.poll_interval:
            return
        self._last_poll = now
        try:
            mtime = os.path.getmtime(self._config_file)
        except OSError:
            return
        if mtime == self._mtime:
            return
        self._mtime = mtime
        try:
            with open(self._config_file) as handle:
                config = json.load(handle)
        except (OSError, ValueError) as error:
            _warning(f"[Dynamic Profiler] {self._config_file} is not valid JSON ({error}); keeping the last config.")
            return
        start, stop = config.get("start_step", -1), config.get("stop_step", -1)
        if not (isinstance(start, int) and isinstance(stop, int)) or start < 0 or stop < start:
            if start != -1 or stop != -1:
                _warning(f"[Dynamic Profiler] start_step {start!r} and stop_step {stop!r} must be ints with "
                         "0 <= start_step <= stop_step; ignored.")
            return
        if self._profiler is not None:
            _warning("[Dynamic Profiler] a new config arrived while profiling; it applies after this run.")
            return
        self._config = {**_DEFAULTS, **config}
        self._start, self._stop = start, stop

    def step(self):
        """Count one step; start or stop profiling at the configured steps."""
        self._step_num += 1
        self._poll()
        if self._profiler is not None and self._step_num > self._stop:
            profiler, self._profiler = self._profiler, None
            profiler.stop()
            if self._config.get("analyse"):
                profiler.analyse()
            self._start = self._stop = -1
        if self._profiler is None and self._step_num == self._start:
            directory = os.path.join(self.output_path, f"rank{_rank()}_start{self._start}_stop{self._stop}")
            os.makedirs(directory, exist_ok=True)
            self._profiler = Profiler(output_path=directory, with_stack=bool(self._config.get("with_stack")),
                                      profile_memory=bool(self._config.get("profile_memory")))
            _info(f"[Dynamic Profiler] start at step {self._start}, will stop at step {self._stop}")

    def step_end(self, run_context):
        self.step()

    def end(self, run_context):
        if self._profiler is not None:
            profiler, self._profiler = self._profiler, None
            profiler.stop()
