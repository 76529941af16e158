"""Host-thread settings of ``mindspore.runtime``: ``set_cpu_affinity``, ``dispatch_threads_num``,
``set_kernel_launch_group``, ``set_kernel_launch_capture``.

``set_cpu_affinity`` binds the main thread (and so every thread it starts afterwards) to the CPU
cores asked, with the operating system's affinity call. The other three tune MindSpore's own
kernel-dispatch threads; JAX dispatches a compiled program per call from the calling thread and
XLA sizes its own thread pools, so sporax checks their arguments as MindSpore does, keeps the
values (``runtime_settings()``), and logs that JAX's runtime has no such knob.
"""
import json
import os
import re

from sporax import log
from sporax.core import context

_settings = {}
_MODULES = ("main", "runtime", "pynative", "minddata")


def runtime_settings():
    """The host-thread settings made in this process (dict; read-only copy)."""
    return dict(_settings)


def _check_int(api, name, value):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"For '{api}', the argument '{name}' must be int, but got {type(value)}.")


def dispatch_threads_num(threads_num):
    """Set the number of MindSpore runtime dispatch threads (once per process).

    JAX dispatches each compiled program from the calling thread, so the value is kept, not applied.

    Args:
        threads_num (int): a positive number of threads.

    Raises:
        TypeError: ``threads_num`` is not an int.
        ValueError: ``threads_num`` is not positive.
        RuntimeError: called a second time.

    Example:
        >>> import sporax as ms
        >>> ms.dispatch_threads_num(5)  # doctest: +SKIP
    """
    _check_int("dispatch_threads_num", "threads_num", threads_num)
    if "dispatch_threads_num" in _settings:
        raise RuntimeError("The 'dispatch_threads_num' can not be set repeatedly.")
    if threads_num <= 0:
        raise ValueError(f"The 'threads_num' must be a positive int, but got {threads_num}.")
    _settings["dispatch_threads_num"] = threads_num
    log.info(f"dispatch_threads_num({threads_num}): JAX dispatches programs from the calling thread; "
             "the value is kept for reference only.")


def _parse_cpu_list(affinity_cpu_list, available):
    cpus = []
    pattern = re.compile(r"^(\d+-\d+|\d+)(,(\d+-\d+|\d+))*$")
    for cpu_range in affinity_cpu_list:
        if not isinstance(cpu_range, str):
            raise ValueError(f"CPU range '{cpu_range}' in '{affinity_cpu_list}' should be a string.")
        if not pattern.match(cpu_range):
            raise ValueError(f"CPU range '{cpu_range}' in '{affinity_cpu_list}' should be in format "
                             "'cpuidX-cpuidY' or 'cpuidX,cpuidY,cpuidZ'.")
        for segment in cpu_range.split(","):
            first, _, last = segment.partition("-")
            for cpu in range(int(first), int(last or first) + 1):
                if cpu not in available:
                    raise RuntimeError(f"CPU id:{cpu} set in affinity_cpu_list:{affinity_cpu_list} is not available "
                                       f"to this process (available: {sorted(available)}).")
                cpus.append(cpu)
    return cpus


def _check_modules(module_to_cpu_dict):
    if not isinstance(module_to_cpu_dict, dict):
        raise TypeError(f"The parameter '{module_to_cpu_dict}' must be dict, but got {type(module_to_cpu_dict)}")
    for module, indices in module_to_cpu_dict.items():
        if not isinstance(indices, list):
            raise ValueError(f"The value of module_to_cpu_dict: {indices} should be a list.")
        for index in indices:
            if isinstance(index, bool) or not isinstance(index, int) or index < 0:
                raise ValueError(f"CPU index '{index}' for module '{module}' in '{indices}' should be a "
                                 "non-negative integer.")


def set_cpu_affinity(enable_affinity, affinity_cpu_list=None, module_to_cpu_dict=None, bind_file=None):
    """Bind this process's main thread to CPU cores (once per process).

    The cores are ``affinity_cpu_list`` (e.g. ``["0-3", "8"]``) or, when it is None or empty, all the
    cores this process may use. ``module_to_cpu_dict["main"]`` picks cores of that list by index.
    The binding applies to the calling thread and the threads it starts later (the operating
    system's affinity is inherited); the "runtime" and "pynative" modules are JAX's threads, which
    XLA manages, and "minddata" threads start from the main thread, so they follow it.

    Args:
        enable_affinity (bool): bind (True) or not (False).
        affinity_cpu_list (list[str]): CPU ranges. Default: ``None``.
        module_to_cpu_dict (dict[str, list[int]]): per module, indices into the CPU list. Default: ``None``.
        bind_file (str): a JSON bind file (MindSpore's msrun format); its entry for this device wins.
            Default: ``None``.

    Raises:
        TypeError, ValueError: malformed arguments.
        RuntimeError: a core is not available to this process, or called a second time.

    Example:
        >>> import os
        >>> import sporax as ms
        >>> ms.set_cpu_affinity(True, [",".join(map(str, sorted(os.sched_getaffinity(0))))])  # doctest: +SKIP
    """
    if not isinstance(enable_affinity, bool):
        raise TypeError(f"For 'set_cpu_affinity', the argument 'enable_affinity' must be bool, "
                        f"but got {type(enable_affinity)}.")
    if "cpu_affinity" in _settings:
        raise RuntimeError("The 'mindspore.runtime.set_cpu_affinity' cannot be set repeatedly.")
    if not enable_affinity:
        _settings["cpu_affinity"] = {}
        return
    if bind_file is not None:
        affinity_cpu_list, module_to_cpu_dict = _read_bind_file(bind_file)
    if isinstance(affinity_cpu_list, dict):  # MindSpore's per-device form: {"device0": [...], ...}
        affinity_cpu_list = affinity_cpu_list.get(f"device{context.get_context('device_id')}")
    if affinity_cpu_list is not None and not isinstance(affinity_cpu_list, list):
        raise TypeError(f"The parameter '{affinity_cpu_list}' must be list, but got {type(affinity_cpu_list)}")
    if module_to_cpu_dict is not None:
        _check_modules(module_to_cpu_dict)
    available = set(os.sched_getaffinity(0))
    cpus = _parse_cpu_list(affinity_cpu_list, available) if affinity_cpu_list else sorted(available)
    strategy = {"main": cpus}
    if module_to_cpu_dict:
        strategy = {module: [cpus[i] for i in indices if i < len(cpus)]
                    for module, indices in module_to_cpu_dict.items() if module in _MODULES}
    if strategy.get("main"):
        os.sched_setaffinity(0, strategy["main"])
    _settings["cpu_affinity"] = strategy
    log.info(f"Module bind core policy generated: {strategy}.")


def _read_bind_file(bind_file):
    try:
        with open(bind_file, encoding="utf-8") as handle:
            config = json.load(handle)
    except (OSError, ValueError) as error:
        raise ValueError(f"For 'set_cpu_affinity', the bind_file '{bind_file}' cannot be read as JSON: {error}") \
            from error
    entry = config.get("bind_cpu", {}).get(f"device{context.get_context('device_id')}")
    if not entry:
        return None, None
    cpus = list(entry.values())
    # indices are positions in the concatenated list of every module's cores
    offset, modules = 0, {}
    for module, cpu_range in entry.items():
        width = len(_expand(cpu_range))
        modules[module] = list(range(offset, offset + width))
        offset += width
    return cpus, modules


def _expand(cpu_range):
    cpus = []
    for segment in cpu_range.split(","):
        first, _, last = segment.partition("-")
        cpus.extend(range(int(first), int(last or first) + 1))
    return cpus


def set_kernel_launch_group(thread_num=2, kernel_group_num=8):
    """Group MindSpore's kernel launches over threads (once per process; not with launch capture).

    XLA launches a compiled program's kernels itself, so the values are checked and kept only.

    Args:
        thread_num (int): launch threads, at least 1. Default: ``2``.
        kernel_group_num (int): kernel groups, at least 1 and a multiple of ``thread_num``. Default: ``8``.

    Example:
        >>> import sporax as ms
        >>> ms.set_kernel_launch_group(thread_num=2, kernel_group_num=8)  # doctest: +SKIP
    """
    _check_int("set_kernel_launch_group", "thread_num", thread_num)
    _check_int("set_kernel_launch_group", "kernel_group_num", kernel_group_num)
    if "kernel_launch_group" in _settings:
        raise RuntimeError("The 'kernel_launch_group' can not be set repeatedly.")
    if _settings.get("kernel_launch_capture", (False,))[0]:
        raise RuntimeError("The kernel launch group and kernel launch capture can not be set together")
    if thread_num < 1:
        raise ValueError(f"The value of thread_num should be at least 1, but got {thread_num}")
    if kernel_group_num < 1:
        raise ValueError(f"The value of kernel_group_num should be at least 1, but got {kernel_group_num}")
    if kernel_group_num % thread_num:
        raise ValueError(f"Invalid parameter value, kernel_group_num: {kernel_group_num} cannot "
                         f"be evenly divisible by thread_num: {thread_num}")
    _settings["kernel_launch_group"] = (thread_num, kernel_group_num)
    log.info("set_kernel_launch_group: XLA launches the kernels of a compiled program itself; "
             "the values are kept for reference only.")


def set_kernel_launch_capture(enable_capture_graph, op_capture_skip=None):
    """Capture kernel dispatch into a graph (MindSpore O0/O1 incremental inference).

    A sporax program compiled by ``jit``/GRAPH_MODE already runs as one captured XLA executable
    (on GPU XLA records CUDA graphs itself), so the setting is checked and kept only.

    Args:
        enable_capture_graph (bool): whether to capture.
        op_capture_skip (list): operator names not to capture. Default: ``None``.

    Example:
        >>> import sporax as ms
        >>> ms.set_kernel_launch_capture(True)  # doctest: +SKIP
    """
    if not isinstance(enable_capture_graph, bool):
        raise TypeError(f"For 'set_kernel_launch_capture', the argument 'enable_capture_graph' must be bool, "
                        f"but got {type(enable_capture_graph)}.")
    if "kernel_launch_group" in _settings:
        raise RuntimeError("The kernel launch group and kernel launch capture can not be set together")
    op_capture_skip = [] if op_capture_skip is None else op_capture_skip
    if not isinstance(op_capture_skip, list):
        raise TypeError("op_capture_skip must be a list")
    _settings["kernel_launch_capture"] = (enable_capture_graph, list(op_capture_skip))
