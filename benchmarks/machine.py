"""The machine a benchmark table was measured on, printed with every table.

A steps/s figure means little without the CPU it ran on and how busy that CPU was: on a 2-core VM
with other jobs running, a contender whose threads spin-wait (MindSpore's runtime, OpenMP teams)
can lose 10-40x while one that runs on one thread loses 2-5x, so ratios measured under load are
not the quiet machine's. ``describe()`` gathers the facts, ``line()`` formats them, ``busy()``
says whether the load average says the figures are not a quiet machine's.
"""
import os
import platform


def _cpu_model(cpuinfo="/proc/cpuinfo"):
    """The CPU's model name (and family/model numbers where the name alone is vague)."""
    try:
        with open(cpuinfo) as file:
            text = file.read()
    except OSError:
        return platform.processor() or platform.machine() or "unknown CPU"
    fields = {}
    for line in text.splitlines():
        key, _, value = line.partition(":")
        key = key.strip()
        if key and key not in fields:
            fields[key] = value.strip()
        if not line.strip() and fields:
            break  # the first processor's block is enough
    name = fields.get("model name") or fields.get("Processor") or platform.machine() or "unknown CPU"
    # "AMD EPYC" alone does not tell Zen 2 from Zen 5 (twice the vector width).
    family, model = fields.get("cpu family"), fields.get("model")
    return f"{name} (family {family}, model {model})" if family and model else name


def _vector_extensions(cpuinfo="/proc/cpuinfo"):
    try:
        with open(cpuinfo) as file:
            flags = next((line.split(":", 1)[1].split() for line in file if line.startswith("flags")), [])
    except OSError:
        return ""
    for name in ("avx512f", "avx2", "avx", "sse4_2"):
        if name in flags:
            return name
    return ""


def describe():
    """A dict: ``cpu`` (model), ``vector`` (widest of avx512f/avx2/avx/sse4_2), ``logical_cpus``
    (the OS's count), ``usable_cpus`` (this process's affinity), ``load`` (1, 5, 15-minute
    averages)."""
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return {"cpu": _cpu_model(), "vector": _vector_extensions(), "logical_cpus": os.cpu_count(),
            "usable_cpus": usable, "load": os.getloadavg()}


def line(facts, when):
    """``# machine: <cpu> [avx512f], 2 usable of 2 CPUs; load average 1.2 / 1.5 / 1.8 at start``."""
    load = " / ".join(f"{value:.1f}" for value in facts["load"])
    vector = f" [{facts['vector']}]" if facts["vector"] else ""
    return (f"# machine: {facts['cpu']}{vector}, {facts['usable_cpus']} usable of {facts['logical_cpus']} "
            f"CPUs; load average {load} (1/5/15 min) at {when}")


def busy(facts, share=1.0):
    """Whether the 1-minute load average exceeds ``share`` times the usable CPUs: other work was
    running, so the table is not a quiet machine's. (A suite run keeps one to two CPUs busy
    itself, so its end is judged with a larger ``share``.)"""
    return facts["load"][0] > share * facts["usable_cpus"]
