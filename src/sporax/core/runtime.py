"""Runtime helpers of ``mindspore.runtime`` that JAX's runtime can honour: ``synchronize`` and
``launch_blocking`` (this module serves the ``mindspore.runtime`` path; the debugging tutorial calls
``mindspore.runtime.launch_blocking()``)."""
import os
import re

import jax

from sporax import log
from sporax.core import context, process_setup
from sporax.core.world import GlobalComm
from sporax.core.execution_settings import launch_blocking  # noqa: F401 - served as mindspore.runtime's


def synchronize():
    """Wait until every computation dispatched so far has finished on every device.

    JAX dispatches work asynchronously; this blocks on all live device arrays (the outputs of that
    work), as MindSpore's ``synchronize`` waits on all streams.

    Example:
        >>> import sporax
        >>> sporax.synchronize()
    """
    for array in jax.live_arrays():
        array.block_until_ready()


# ``set_memory``: MindSpore's memory-pool settings mapped onto the options of JAX's device clients.
_SIZE = r"[1-9][0-9]*(\.)?[0-9]*GB|0\.[0-9]*GB"
_RESERVE = r"[0-9][0-9]*(\.)?[0-9]*GB|0\.[0-9]*GB"
_DEFAULT_FRACTION = 0.75  # what JAX's GPU client takes when XLA_CLIENT_MEM_FRACTION is unset
_memory_settings = {}


def _check_size(value, pattern):
    if re.match(pattern, value, re.ASCII) is None:
        raise ValueError(f"The '{value}' is illegal, it must be match regular'{pattern}' by flags're.ASCII.'")
    if value in ("0GB", "0.0GB") and pattern == _SIZE:
        raise ValueError('The memory value should not be "0GB".')
    return float(value[:-2])


def _device_memory_bytes():
    """The device's whole memory as JAX's current client reports it (None on CPU: no pool there)."""
    stats = jax.devices()[0].memory_stats() or {}
    if "bytes_limit" not in stats:
        return None
    fraction = os.environ.get("XLA_CLIENT_MEM_FRACTION") or os.environ.get("XLA_PYTHON_CLIENT_MEM_FRACTION")
    return stats["bytes_limit"] / float(fraction or _DEFAULT_FRACTION)


def memory_environment(max_size_gb, total_bytes):
    """The XLA client variables for a growing pool capped at ``max_size_gb`` (of ``total_bytes``, if known)."""
    variables = {"XLA_PYTHON_CLIENT_PREALLOCATE": "false"}  # grow on demand, like MindSpore's pool
    if total_bytes and max_size_gb * 2 ** 30 < total_bytes:
        variables["XLA_CLIENT_MEM_FRACTION"] = f"{max_size_gb * 2 ** 30 / total_bytes:.4f}"
    return variables


def set_memory(init_size="2GB", increase_size="2GB", max_size="1024GB", optimize_level="O0",
               huge_page_reserve_size="0GB"):
    """Set the device memory pool (``mindspore.set_memory`` / ``mindspore.runtime.set_memory``); once per process.

    JAX's device clients take three memory options, read when a client is created: whether to
    preallocate, the fraction of device memory to use, and the allocator. sporax maps MindSpore's
    pool onto them: the pool grows on demand (``XLA_PYTHON_CLIENT_PREALLOCATE=false``; JAX has no
    initial or increment size, so ``init_size``/``increase_size`` are only checked) and
    ``max_size`` caps it as ``XLA_CLIENT_MEM_FRACTION`` of the device's memory (GPU/TPU; JAX's CPU
    client has no pool). A variable the user already set wins. Importing sporax already created
    the clients of this process: the settings reach the clients created afterwards, which are
    those ``communication.init()`` creates and those of processes started from here; otherwise a
    warning says so. ``optimize_level`` ("O1": memory reuse, which XLA always does) is stored as
    the context's ``memory_optimize_level``.

    Args:
        init_size (str): the initial pool size, ``"<number>GB"``. Default: ``"2GB"``.
        increase_size (str): the growth step, ``"<number>GB"``. Default: ``"2GB"``.
        max_size (str): the largest pool, ``"<number>GB"``. Default: ``"1024GB"``.
        optimize_level (str): ``"O0"`` or ``"O1"``. Default: ``"O0"``.
        huge_page_reserve_size (str): reserved huge-page memory, ``"<number>GB"``. Default: ``"0GB"``.

    Raises:
        TypeError: an argument is not a str.
        ValueError: a size is not ``"<number>GB"`` (or is 0 GB), or ``optimize_level`` is unknown.
        RuntimeError: ``set_memory`` was already called in this process.

    Example:
        >>> import sporax
        >>> sporax.set_memory(max_size="8GB")  # doctest: +SKIP
    """
    arguments = {"init_size": init_size, "increase_size": increase_size, "max_size": max_size,
                 "optimize_level": optimize_level, "huge_page_reserve_size": huge_page_reserve_size}
    for name, value in arguments.items():
        if not isinstance(value, str):
            raise TypeError(f"The parameter '{name}' must be <class 'str'>, but got {type(value)}")
    if _memory_settings:
        raise RuntimeError("The 'set_memory' can not be set repeatedly.")
    sizes = {name: _check_size(arguments[name], _SIZE) for name in ("init_size", "increase_size", "max_size")}
    sizes["huge_page_reserve_size"] = _check_size(huge_page_reserve_size, _RESERVE)
    if optimize_level not in ("O0", "O1"):
        raise ValueError(f"The optimize_level must be one of ['O0', 'O1'], but got {optimize_level}.")
    _memory_settings.update(sizes, optimize_level=optimize_level)
    context._context["memory_optimize_level"] = int(optimize_level == "O1")
    variables = memory_environment(sizes["max_size"], _device_memory_bytes())
    applied = {name: value for name, value in variables.items()
               if name not in os.environ and not (name == "XLA_CLIENT_MEM_FRACTION"
                                                  and "XLA_PYTHON_CLIENT_MEM_FRACTION" in os.environ)}
    process_setup.set_environment_defaults(applied)
    if applied and not GlobalComm.INITED and jax.default_backend() != "cpu":
        log.warning("set_memory: JAX created this process's device memory pool when sporax was imported; "
                    f"{applied} apply to the clients created from now on (communication.init() recreates them, "
                    "and processes started from here inherit them). To size this process's pool, set these "
                    "variables before starting Python.")
__all__ = ["synchronize", "launch_blocking", "set_memory"]

# The memory, stream and host-thread APIs MindSpore serves from ``mindspore.runtime`` too.
from sporax.core.host_threads import (  # noqa: E402
    dispatch_threads_num, set_cpu_affinity, set_kernel_launch_capture, set_kernel_launch_group,
)
from sporax.core.memory import (  # noqa: E402
    MemPool, PluggableAllocator, empty_cache, max_memory_allocated, max_memory_reserved, memory_allocated,
    memory_replay, memory_reserved, memory_stats, memory_summary, reset_max_memory_allocated,
    reset_max_memory_reserved, reset_peak_memory_stats, use_mem_pool,
)
from sporax.core.stream import (  # noqa: E402
    Event, Stream, StreamCtx, StreamLimitCtx, communication_stream, current_stream, default_stream,
    get_device_limit, get_stream_limit, reset_stream_limit, set_cur_stream, set_device_limit, set_stream_limit,
)

__all__ += [
    "dispatch_threads_num", "set_cpu_affinity", "set_kernel_launch_capture", "set_kernel_launch_group",
    "MemPool", "PluggableAllocator", "empty_cache", "max_memory_allocated", "max_memory_reserved",
    "memory_allocated", "memory_replay", "memory_reserved", "memory_stats", "memory_summary",
    "reset_max_memory_allocated", "reset_max_memory_reserved", "reset_peak_memory_stats", "use_mem_pool",
    "Event", "Stream", "StreamCtx", "StreamLimitCtx", "communication_stream", "current_stream", "default_stream",
    "get_device_limit", "get_stream_limit", "reset_stream_limit", "set_cur_stream", "set_device_limit",
    "set_stream_limit",
]
