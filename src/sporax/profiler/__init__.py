"""``sporax.profiler`` (``mindspore.profiler``): traces on ``jax.profiler`` plus a step summary.

``Profiler(output_path=...)`` / ``profile(schedule=..., on_trace_ready=...)`` write a trace that
TensorBoard's profile plugin (``tensorboard --logdir <output_path>``) and Perfetto open, and
per-op / per-step time tables (``<output_path>/profiler_output/<run>/op_summary.txt`` and CSVs).
"""
from sporax.profiler.constants import (AicoreMetrics, ExportType, HostSystem, ProfilerActivity, ProfilerLevel,
                                       _ExperimentalConfig)
from sporax.profiler.profiler import Profiler, profile, tensorboard_trace_handler
from sporax.profiler.schedule import ProfilerAction, schedule
from sporax.profiler.mstx import mstx
from sporax.profiler.dynamic import DynamicProfilerMonitor
from sporax.profiler.environment import EnvProfiler  # noqa: E402

# As MindSpore: a job is profiled from the environment (MS_PROFILER_OPTIONS) without script changes.
EnvProfiler.init_profiler()
