"""``Profiler`` and ``profile`` on ``jax.profiler``: a TensorBoard/Perfetto trace plus a step summary.

Contract. ``start()`` begins step 0 and asks the schedule what to do with it; ``step()`` ends the
current step and begins the next; ``stop()`` ends everything. A step whose action is WARM_UP or
RECORD runs inside a JAX trace (``jax.profiler.start_trace`` on ``<output_path>``, so the files land
in ``<output_path>/plugins/profile/<run>/``: ``<host>.xplane.pb`` for TensorBoard's profile plugin,
``perfetto_trace.json.gz`` for https://ui.perfetto.dev) and inside an annotation event
(``ProfilerStep`` for recorded steps, ``ProfilerWarmup`` for warm-up ones, with a ``step_num`` stat). When a
RECORD_AND_SAVE step ends (or ``stop()`` is called while tracing) the trace is closed and
``on_trace_ready(prof)`` runs; ``Profiler.analyse()`` / ``tensorboard_trace_handler`` then read the
trace back into per-op and per-step tables (``analysis.py``). JAX holds one trace per process, so
two profilers cannot trace at once: the second ``start`` raises ``RuntimeError``.

Without a schedule every step from ``start`` to ``stop`` is recorded; a script that never calls
``step()`` gets one trace of the whole span, analysed without step marks.
"""
import json
import os
import socket
import warnings

import jax

from sporax import log
from sporax.profiler import analysis
from sporax.profiler.constants import ProfilerActivity, ProfilerLevel, _ExperimentalConfig, _member
from sporax.profiler.schedule import ProfilerAction, _always_record, schedule as Schedule

_active = None  # the profiler whose JAX trace is open (JAX allows one per process)


def _wait_for_device():
    for value in jax.live_arrays():
        value.block_until_ready()


def _runs(output_path):
    """``{run directory: its files}`` under ``output_path``. JAX names a run by the second it stopped, so a trace
    stopped in the same second as an earlier one adds its files to that directory: a changed file set is new."""
    root = os.path.join(output_path, "plugins", "profile")
    if not os.path.isdir(root):
        return {}
    return {name: frozenset(os.listdir(os.path.join(root, name))) for name in os.listdir(root)
            if os.path.isdir(os.path.join(root, name))}


class profile:
    """Collect a trace of the steps a schedule selects (``mindspore.profiler.profile``).

    Args:
        activities (list[ProfilerActivity]): CPU (host events) and/or NPU/GPU (device ops; any JAX
            device). Default: CPU and the accelerator.
        with_stack (bool): also record Python function events. Default: False.
        profile_memory (bool): write a device memory profile (pprof) when a trace ends. Default: False.
        start_profile (bool): kept for MindSpore compatibility (``start()`` starts). Default: True.
        schedule (schedule): which steps to record; default: all, from ``start`` to ``stop``.
        on_trace_ready (callable): called with this profiler when a trace is complete, e.g.
            ``tensorboard_trace_handler(dir)``, whose directory is then the output path.
        experimental_config (_ExperimentalConfig): profiler level and export options.
        sync_enable (bool): wait for the device at each step's end, so that a step's ops fall inside
            its time span (JAX dispatches asynchronously). Default: True.
        data_process, parallel_strategy, hbm_ddr, pcie, record_shapes (bool): Ascend options,
            accepted and recorded.

    Example:
        >>> import sporax.profiler as profiler
        >>> with profiler.profile(schedule=profiler.schedule(wait=0, warmup=1, active=2, repeat=1),
        ...                       on_trace_ready=profiler.tensorboard_trace_handler("./prof")) as prof:
        ...     for batch in range(4):
        ...         train_step()        # doctest: +SKIP
        ...         prof.step()
    """

    def __init__(self, activities=None, with_stack=False, profile_memory=False, data_process=False,
                 parallel_strategy=False, start_profile=True, hbm_ddr=False, pcie=False, sync_enable=True,
                 record_shapes=False, schedule=None, on_trace_ready=None, experimental_config=None,
                 output_path=None):
        if activities is None:
            activities = [ProfilerActivity.CPU, ProfilerActivity.NPU]
        self.activities = [_member(ProfilerActivity, a, "activities") for a in activities]
        if schedule is not None and not callable(schedule):
            raise TypeError(f"For 'profile', schedule must be a mindspore.profiler.schedule, got {schedule!r}.")
        if on_trace_ready is not None and not callable(on_trace_ready):
            raise TypeError("For 'profile', on_trace_ready must be callable, e.g. tensorboard_trace_handler(dir).")
        if experimental_config is None:
            experimental_config = _ExperimentalConfig()
        if not isinstance(experimental_config, _ExperimentalConfig):
            raise TypeError("For 'profile', experimental_config must be a mindspore.profiler._ExperimentalConfig.")
        self.experimental_config = experimental_config
        self.with_stack = bool(with_stack)
        self.profile_memory = bool(profile_memory)
        self.start_profile = bool(start_profile)
        self.schedule = schedule or _always_record
        self.on_trace_ready = on_trace_ready
        if output_path is None:
            output_path = getattr(on_trace_ready, "dir_name", None) or "./data"
        self.output_path = os.path.realpath(output_path)
        self.options = {"data_process": data_process, "parallel_strategy": parallel_strategy, "hbm_ddr": hbm_ddr,
                        "pcie": pcie, "sync_enable": sync_enable, "record_shapes": record_shapes}
        self.metadata = {}
        self.traces = []          # run directories of the completed traces, oldest first
        self.step_num = 0
        self._stepped = False
        self._action = None
        self._annotation = None
        self._tracing = False
        self._runs_before = None

    # --- the step machine ---
    def start(self):
        """Begin step 0 (and trace it if the schedule says so)."""
        if self._action is not None:
            raise RuntimeError("Profiler: start() was already called; call stop() first.")
        self.step_num = 0
        self._begin_step()

    def step(self):
        """End the current step and begin the next one."""
        if self._action is None:
            raise RuntimeError("Profiler: step() needs a started profiler; call start() first.")
        self._end_step()
        self.step_num += 1
        self._stepped = True
        self._begin_step()

    def stop(self):
        """End the current step and close the trace (``on_trace_ready`` runs if a trace was open)."""
        if self._action is None:
            return
        action = self._action
        self._end_step(final=True)
        self._action = None
        if self._tracing and action is not ProfilerAction.RECORD_AND_SAVE:
            self._finish_trace()

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *error):
        self.stop()
        return False

    def _begin_step(self):
        self._action = self.schedule(self.step_num)
        if self._action is ProfilerAction.NONE or self.experimental_config.profiler_level is ProfilerLevel.LevelNone:
            return
        if not self._tracing:
            self._start_trace()
        if self._action is ProfilerAction.WARM_UP:
            self._annotation = jax.profiler.TraceAnnotation("ProfilerWarmup", step_num=self.step_num)
        else:
            self._annotation = jax.profiler.StepTraceAnnotation(analysis.STEP_EVENT, step_num=self.step_num)
        self._annotation.__enter__()

    def _end_step(self, final=False):
        if self._annotation is not None:
            if self.options["sync_enable"]:
                _wait_for_device()   # JAX dispatches asynchronously: the step's ops must finish inside it
            self._annotation.__exit__(None, None, None)
            self._annotation = None
        if self._tracing and self._action is ProfilerAction.RECORD_AND_SAVE:
            self._finish_trace()

    # --- the JAX trace ---
    def _start_trace(self):
        global _active
        if _active is not None:
            raise RuntimeError("Profiler: another profiler is already tracing in this process (JAX records one "
                               "trace at a time); stop it first.")
        os.makedirs(self.output_path, exist_ok=True)
        options = jax.profiler.ProfileOptions()
        python_events = self.with_stack or self.experimental_config.profiler_level is ProfilerLevel.Level2
        options.python_tracer_level = 1 if python_events else 0
        options.host_tracer_level = 2 if ProfilerActivity.CPU in self.activities else 1
        self._runs_before = _runs(self.output_path)
        if self.options["sync_enable"]:
            _wait_for_device()   # work dispatched before the profiler started stays out of the trace
        jax.profiler.start_trace(self.output_path, create_perfetto_trace=True, profiler_options=options)
        self._tracing = True
        _active = self

    def _finish_trace(self):
        global _active
        _wait_for_device()   # the trace must hold the ops of the steps it recorded
        jax.profiler.stop_trace()
        self._tracing = False
        _active = None
        new = sorted(name for name, files in _runs(self.output_path).items() if files != self._runs_before.get(name))
        if new:
            run_dir = os.path.join(self.output_path, "plugins", "profile", new[-1])
            self.traces.append(run_dir)
            if self.profile_memory:
                jax.profiler.save_device_memory_profile(os.path.join(run_dir, "memory_profile.prof"))
            if self.metadata:
                with open(os.path.join(run_dir, "profiler_metadata.json"), "w") as handle:
                    json.dump(self.metadata, handle, indent=1)
        if self.on_trace_ready is not None:
            self.on_trace_ready(self)

    # --- results ---
    def _analyse_trace(self, run_dir, worker_name=None):
        name = os.path.basename(run_dir) if worker_name is None else f"{worker_name}_{os.path.basename(run_dir)}"
        # Steps are only meaningful when the script marks them (step() or a schedule).
        use_steps = self._stepped or self.schedule is not _always_record
        return analysis.write_tables(run_dir, os.path.join(self.output_path, "profiler_output", name), use_steps)

    def add_metadata(self, key, value):
        """Record a string ``value`` under ``key`` in the trace's ``profiler_metadata.json``."""
        if not isinstance(key, str) or not isinstance(value, str):
            raise TypeError("Profiler.add_metadata: key and value must be str.")
        self.metadata[key] = value

    def add_metadata_json(self, key, value):
        """Record a JSON string ``value`` (parsed) under ``key`` in ``profiler_metadata.json``."""
        if not isinstance(key, str) or not isinstance(value, str):
            raise TypeError("Profiler.add_metadata_json: key and value must be str.")
        self.metadata[key] = json.loads(value)


def tensorboard_trace_handler(dir_name=None, worker_name=None, analyse_flag=True, async_mode=False):
    """An ``on_trace_ready`` handler: traces go to ``dir_name`` (TensorBoard's ``--logdir``) and, with
    ``analyse_flag``, each completed trace is summarised into ``dir_name/profiler_output/``.

    Args:
        dir_name (str): output directory. Default: "./data".
        worker_name (str): prefix of the summary folder. Default: "<host>_<pid>".
        analyse_flag (bool): write the step summary. Default: True.
        async_mode (bool): accepted; the summary is written synchronously.
    """
    if dir_name is not None and not isinstance(dir_name, str):
        raise TypeError(f"For 'tensorboard_trace_handler', dir_name must be a str, got {dir_name!r}.")
    worker = worker_name or f"{socket.gethostname()}_{os.getpid()}"

    def handler(prof):
        if analyse_flag and prof.traces:
            prof._analyse_trace(prof.traces[-1], worker)

    handler.dir_name = dir_name or "./data"
    handler.worker_name = worker
    handler.analyse_flag = analyse_flag
    handler.async_mode = async_mode
    return handler


_PROFILER_OPTIONS = {"profiler_level", "activities", "schedule", "on_trace_ready", "profile_memory", "with_stack",
                     "data_process", "parallel_strategy", "start_profile", "hbm_ddr", "pcie", "sync_enable",
                     "data_simplification", "l2_cache", "aic_metrics", "export_type", "mstx", "record_shapes",
                     "op_time", "profile_communication", "profile_framework", "timeline_limit", "host_stack",
                     "sys_io", "sys_interconnection", "host_sys", "output_path", "experimental_config"}


class Profiler(profile):
    """MindSpore's classic profiler: ``Profiler(output_path=...)`` starts at once; ``stop()``;
    ``analyse()`` writes the step summary next to the trace.

    Args:
        output_path (str): where the trace and the tables go. Default: "./data".
        profiler_level (ProfilerLevel), activities, schedule, on_trace_ready, profile_memory,
        with_stack, start_profile (bool, default True) ...: as ``profile``; other MindSpore options
        (Ascend counters, communication) are accepted and recorded.

    Example:
        >>> from sporax.profiler import Profiler
        >>> profiler = Profiler(output_path="./prof")   # doctest: +SKIP
        >>> model.train(1, dataset)                     # doctest: +SKIP
        >>> profiler.analyse()                          # doctest: +SKIP
    """

    def __init__(self, **kwargs):
        unknown = sorted(set(kwargs) - _PROFILER_OPTIONS)
        if unknown:
            warnings.warn(f"Profiler: unknown options {unknown} are ignored.", stacklevel=2)
        level = kwargs.get("profiler_level", ProfilerLevel.Level0)
        config = kwargs.get("experimental_config") or _ExperimentalConfig(profiler_level=level)
        super().__init__(activities=kwargs.get("activities"), with_stack=kwargs.get("with_stack", False),
                         profile_memory=kwargs.get("profile_memory", False), schedule=kwargs.get("schedule"),
                         on_trace_ready=kwargs.get("on_trace_ready"), experimental_config=config,
                         output_path=kwargs.get("output_path"), sync_enable=kwargs.get("sync_enable", True),
                         start_profile=kwargs.get("start_profile", True))
        self.options.update({k: v for k, v in kwargs.items() if k not in ("schedule", "on_trace_ready")})
        self._analysed = []
        if self.start_profile:
            self.start()

    def analyse(self, offline_path=None, pretty=False, step_list=None, mode="sync"):
        """Stop if still running and write the step summary of every trace; returns the summary paths."""
        if offline_path is not None:
            return Profiler.offline_analyse(offline_path)
        self.stop()
        if not self.traces:
            raise RuntimeError("Profiler.analyse: nothing was traced (was the profiler started?).")
        summaries = [self._analyse_trace(run) for run in self.traces]
        self._analysed = summaries
        return summaries

    def op_analyse(self, op_name, device_id=None):
        """Per-op details (as a JSON string) of the ops whose type or name is ``op_name`` (str or list)."""
        names = [op_name] if isinstance(op_name, str) else list(op_name)
        rows = []
        for run in self.traces:
            steps, ops = [], []
            for path in analysis.find_traces(run):
                trace_steps, trace_ops = analysis.read_events(path)
                steps += trace_steps
                ops += trace_ops
            _types, kernels, _steps = analysis.summarize(steps, ops)
            rows += [row for row in kernels if row["Type"] in names or row["Name"] in names]
        return json.dumps(rows)

    @staticmethod
    def offline_analyse(path, pretty=False, step_list=None, data_simplification=True):
        """Write the step summary of every trace found under ``path`` (a Profiler's output_path).

        A path without traces is logged as an error and nothing is written (MindSpore returns None there too).
        """
        root = os.path.join(os.path.realpath(path), "plugins", "profile")
        if not os.path.isdir(root):
            log.error(f"Call to offline_analyse failed. Exception: no traces under {root}: pass the output_path "
                      f"of a Profiler that ran (its traces are written when it stops).")
            return None
        return [analysis.write_tables(os.path.join(root, run),
                                      os.path.join(os.path.realpath(path), "profiler_output", run))
                for run in sorted(os.listdir(root))]


# The name ``schedule`` at this module's level is the class (``mindspore.profiler.schedule(...)``).
schedule = Schedule
