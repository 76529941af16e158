"""``EnvProfiler``: a profiler configured by the ``MS_PROFILER_OPTIONS`` environment variable.

MindSpore starts it when the package is imported, so a job can be profiled without touching its
script: ``MS_PROFILER_OPTIONS='{"start": true, "output_path": "./prof", "profile_memory": true}'``.
sporax does the same on ``jax.profiler`` (``sporax.profiler.profile``): the JSON's options that
``profile`` takes are passed to it (``schedule`` and ``on_trace_ready`` are not taken from the
environment, as in MindSpore; the trace goes to ``output_path`` through
``tensorboard_trace_handler``), and ``analyse()`` stops it and writes the trace.
"""
import json
import os

from sporax import log
from sporax.profiler.constants import AicoreMetrics, ExportType, HostSystem, ProfilerActivity, ProfilerLevel
from sporax.profiler.constants import _ExperimentalConfig
from sporax.profiler.profiler import profile, tensorboard_trace_handler

_PROFILE_OPTIONS = ("activities", "with_stack", "profile_memory", "data_process", "parallel_strategy",
                    "start_profile", "hbm_ddr", "pcie", "sync_enable", "record_shapes")
_EXPERIMENTAL_OPTIONS = ("profiler_level", "aic_metrics", "l2_cache", "mstx", "data_simplification", "export_type",
                         "mstx_domain_include", "mstx_domain_exclude", "sys_io", "sys_interconnection", "host_sys")
_ENUMS = {"activities": ProfilerActivity, "host_sys": HostSystem, "aic_metrics": AicoreMetrics,
          "profiler_level": ProfilerLevel, "export_type": ExportType}


def _enum(enum_class, value):
    try:
        return enum_class(value)
    except ValueError:
        log.warning(f"The value '{value}' of parameter '{enum_class.__name__}' is invalid, the default is used.")
        return None


def _convert(options):
    """The ``profile``/experimental keyword arguments of the environment's options (bad values dropped)."""
    params = {}
    for name in _PROFILE_OPTIONS + _EXPERIMENTAL_OPTIONS:
        if name not in options:
            continue
        value = options[name]
        if name in _ENUMS:
            values = value if isinstance(value, list) else [value]
            converted = [_enum(_ENUMS[name], item) for item in values]
            converted = [item for item in converted if item is not None]
            if not converted:
                continue
            value = list(dict.fromkeys(converted)) if isinstance(options[name], list) else converted[0]
        params[name] = value
    return params


class EnvProfiler:
    """Profile the process as ``MS_PROFILER_OPTIONS`` (JSON) asks; started when sporax is imported.

    Example:
        >>> import sporax as ms
        >>> ms.profiler.EnvProfiler().analyse()  # no MS_PROFILER_OPTIONS: nothing was started
    """

    NOT_SUPPORTED_PARAMS = ["schedule", "on_trace_ready"]
    profiler = None

    @classmethod
    def init_profiler(cls):
        """Start the profiler if ``MS_PROFILER_OPTIONS`` holds ``"start": true``."""
        text = os.getenv("MS_PROFILER_OPTIONS")
        if not text:
            return
        try:
            options = json.loads(text)
        except json.JSONDecodeError:
            options = None
        if not isinstance(options, dict) or not options:
            log.error("Failed to load MS_PROFILER_OPTIONS, json decode error.")
            return
        if not options.get("start", False):
            return
        params = _convert(options)
        experimental = {name: params.pop(name) for name in _EXPERIMENTAL_OPTIONS if name in params}
        output_path = options.get("output_path", "./data")
        cls.profiler = profile(**params, experimental_config=_ExperimentalConfig(**experimental),
                               on_trace_ready=tensorboard_trace_handler(output_path))
        cls.profiler.start()
        log.info("Profiler init success.")

    def analyse(self):
        """Stop the profiler started from the environment and write its trace (no-op if none started)."""
        if not self.profiler:
            log.info("Profiler is not initialized, skip analyse.")
            return
        self.profiler.stop()
