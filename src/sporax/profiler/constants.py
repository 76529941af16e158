"""The profiler's option enums (``ProfilerActivity``, ``ProfilerLevel`` ...) and ``_ExperimentalConfig``."""
import enum


class ProfilerActivity(enum.Enum):
    """Which devices' activity to collect: the host CPU, or the accelerator (any JAX device here)."""
    NPU = "NPU"
    GPU = "GPU"
    CPU = "CPU"


class ProfilerLevel(enum.Enum):
    """How much to collect: LevelNone nothing, Level0 op times, Level1/Level2 also Python events."""
    LevelNone = "LevelNone"
    Level0 = "Level0"
    Level1 = "Level1"
    Level2 = "Level2"


class ExportType(enum.Enum):
    """Output formats: text (CSV tables and a trace) or a database."""
    Db = "db"
    Text = "text"


class AicoreMetrics(enum.Enum):
    """Ascend AI Core counters (recorded as options; XLA devices have no AI Core counters)."""
    PipeUtilization = "PipeUtilization"
    ArithmeticUtilization = "ArithmeticUtilization"
    Memory = "Memory"
    MemoryL0 = "MemoryL0"
    MemoryUB = "MemoryUB"
    ResourceConflictRatio = "ResourceConflictRatio"
    L2Cache = "L2Cache"
    MemoryAccess = "MemoryAccess"
    AiCoreNone = "None"


class HostSystem(enum.Enum):
    """Host system metrics MindSpore can sample on Ascend (recorded as options)."""
    CPU = "cpu"
    MEM = "mem"
    DISK = "disk"
    NETWORK = "network"
    OSRT = "osrt"


def _member(enum_type, value, argument):
    if isinstance(value, enum_type):
        return value
    for member in enum_type:
        if value == member.value or value == member.name:
            return member
    raise ValueError(f"For 'Profiler', {argument} must be one of {[m.name for m in enum_type]}, got {value!r}.")


class _ExperimentalConfig:
    """Extra profiler options of ``mindspore.profiler.profile(experimental_config=...)``.

    Args:
        profiler_level (ProfilerLevel): Level0 (op times; default), Level1/Level2 (plus Python events).
        aic_metrics (AicoreMetrics), l2_cache (bool), mstx (bool), sys_io (bool),
        sys_interconnection (bool), host_sys (list[HostSystem]), mstx_domain_include/exclude (list):
            Ascend options, kept for the record.
        data_simplification (bool): delete intermediate files after analysis. Default: True.
        export_type (list[ExportType]): Default: [ExportType.Text].
    """

    def __init__(self, profiler_level=ProfilerLevel.Level0, aic_metrics=AicoreMetrics.AiCoreNone, l2_cache=False,
                 mstx=False, data_simplification=True, export_type=None, mstx_domain_include=None,
                 mstx_domain_exclude=None, sys_io=False, sys_interconnection=False, host_sys=None):
        self.profiler_level = _member(ProfilerLevel, profiler_level, "profiler_level")
        self.aic_metrics = _member(AicoreMetrics, aic_metrics, "aic_metrics")
        self.l2_cache = bool(l2_cache)
        self.mstx = bool(mstx)
        self.data_simplification = bool(data_simplification)
        self.export_type = [_member(ExportType, e, "export_type") for e in (export_type or [ExportType.Text])]
        self.mstx_domain_include = list(mstx_domain_include or [])
        self.mstx_domain_exclude = list(mstx_domain_exclude or [])
        self.sys_io = bool(sys_io)
        self.sys_interconnection = bool(sys_interconnection)
        self.host_sys = [_member(HostSystem, h, "host_sys") for h in (host_sys or [])]
