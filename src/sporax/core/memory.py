"""Device memory statistics of ``mindspore.runtime`` (``memory_stats``, ``memory_allocated`` ...) on JAX.

MindSpore reports its own memory pool. sporax's memory is owned by JAX's device client, so the
figures come from there:

- where the backend keeps allocator statistics (GPU, TPU: ``Device.memory_stats()``), allocated
  memory is the allocator's bytes in use, reserved memory its pool size, and the peaks its peaks;
- where it keeps none (JAX's CPU client), allocated memory is the bytes of the live arrays on the
  device (what the tensors of this process occupy) and, there being no pool, reserved equals
  allocated. Peaks are then the largest value any of these functions observed since the last
  reset, as the CPU client has no allocation hook to watch every allocation.

The resets are sporax's: JAX cannot reset a device's peak counters, so a reset records the
device's peak at that moment; a device peak that later exceeds it was reached after the reset.
"""
import gc

import jax

from sporax import log

_peaks = {"allocated": 0, "reserved": 0}  # the largest values observed since the last reset
_device_peak_at_reset = {"allocated": None, "reserved": None}  # the device's own peaks at the last reset


def current_device():
    """The JAX device new arrays go to (the context's device)."""
    return jax.config.jax_default_device or jax.local_devices()[0]


def _live_bytes(device):
    total = 0
    for array in jax.live_arrays():
        if array.is_deleted():
            continue
        shards = [shard for shard in array.addressable_shards if shard.device == device]
        if len(shards) == len(array.addressable_shards):
            total += array.nbytes if len(shards) == 1 else sum(shard.data.nbytes for shard in shards)
        else:
            total += sum(shard.data.nbytes for shard in shards)
    return total


def _sample():
    """Current and peak (allocated, reserved) bytes of the current device, updating the observed peaks."""
    device = current_device()
    stats = device.memory_stats()
    if stats and "bytes_in_use" in stats:
        allocated = int(stats["bytes_in_use"])
        reserved = int(stats.get("pool_bytes", stats.get("bytes_reserved", allocated)) or allocated)
        device_peaks = {"allocated": int(stats.get("peak_bytes_in_use", allocated)),
                        "reserved": int(stats.get("peak_pool_bytes", stats.get("peak_bytes_reserved", reserved))
                                        or reserved)}
    else:
        allocated = reserved = _live_bytes(device)
        device_peaks = {"allocated": None, "reserved": None}
    current = {"allocated": allocated, "reserved": max(reserved, allocated)}
    peaks = {}
    for key in ("allocated", "reserved"):
        _peaks[key] = max(_peaks[key], current[key])
        baseline = _device_peak_at_reset[key]
        device_peak = device_peaks[key]
        if device_peak is not None and (baseline is None or device_peak > baseline):
            _peaks[key] = max(_peaks[key], device_peak)  # reached after the last reset (or no reset yet)
        peaks[key] = _peaks[key]
    return current, peaks


def memory_stats():
    """The memory pool's statistics of the current device, as a dict of MindSpore's keys (bytes).

    Returns:
        dict: ``total_reserved_memory``, ``total_allocated_memory``, ``total_idle_memory`` (reserved
        but not allocated), ``total_eager_free_memory``, ``max_reserved_memory``,
        ``max_allocated_memory``, and the pool descriptions ``common_mem_pool_stats`` and
        ``persistent_mem_pool_stats`` (XLA's allocator does not expose its blocks: empty).

    Example:
        >>> import numpy as np
        >>> import sporax as ms
        >>> x = ms.Tensor(np.ones((256,), np.float32))
        >>> ms.memory_stats()["total_allocated_memory"] >= 1024
        True
    """
    current, peaks = _sample()
    return {
        "total_reserved_memory": current["reserved"],
        "total_allocated_memory": current["allocated"],
        "total_idle_memory": current["reserved"] - current["allocated"],
        "total_eager_free_memory": 0,
        "max_reserved_memory": peaks["reserved"],
        "max_allocated_memory": peaks["allocated"],
        "common_mem_pool_stats": {"block_unit_size": 0, "block_counts": 0, "blocks_info": {}},
        "persistent_mem_pool_stats": {"block_counts": 0, "block_unit_size": 0, "blocks_info": {}},  # (MindSpore's key order)
    }


def memory_allocated():
    """The bytes the tensors of this process occupy on the current device now (int).

    Example:
        >>> import sporax as ms
        >>> isinstance(ms.memory_allocated(), int)
        True
    """
    return _sample()[0]["allocated"]


def max_memory_allocated():
    """The peak of :func:`memory_allocated` since the process started or the last reset (int, bytes).

    Example:
        >>> import sporax as ms
        >>> ms.max_memory_allocated() >= ms.memory_allocated()
        True
    """
    return _sample()[1]["allocated"]


def memory_reserved():
    """The bytes the memory pool of the current device holds now, allocated or idle (int).

    Example:
        >>> import sporax as ms
        >>> ms.memory_reserved() >= ms.memory_allocated()
        True
    """
    return _sample()[0]["reserved"]


def max_memory_reserved():
    """The peak of :func:`memory_reserved` since the process started or the last reset (int, bytes).

    Example:
        >>> import sporax as ms
        >>> ms.max_memory_reserved() >= ms.memory_reserved()
        True
    """
    return _sample()[1]["reserved"]


def _reset(key):
    device = current_device()
    stats = device.memory_stats() or {}
    peak_key = {"allocated": "peak_bytes_in_use", "reserved": "peak_pool_bytes"}[key]
    if peak_key in stats:
        _device_peak_at_reset[key] = int(stats[peak_key])
    _peaks[key] = 0
    _sample()


def reset_max_memory_allocated():
    """Start the peak of :func:`max_memory_allocated` again from the current value.

    Example:
        >>> import sporax as ms
        >>> ms.reset_max_memory_allocated()
        >>> ms.max_memory_allocated() == ms.memory_allocated()
        True
    """
    _reset("allocated")


def reset_max_memory_reserved():
    """Start the peak of :func:`max_memory_reserved` again from the current value.

    Example:
        >>> import sporax as ms
        >>> ms.reset_max_memory_reserved()
    """
    _reset("reserved")


def reset_peak_memory_stats():
    """Reset both peaks (:func:`max_memory_allocated` and :func:`max_memory_reserved`).

    Example:
        >>> import sporax as ms
        >>> ms.reset_peak_memory_stats()
    """
    _reset("reserved")
    _reset("allocated")


def _format_size(size):
    prefixes = ["B  ", "KB", "MB", "GB", "TB", "PB"]
    prefix, scaled = prefixes[0], size
    for next_prefix in prefixes[1:]:
        if scaled < 768 * 1024:
            break
        prefix, size, scaled = next_prefix, size // 1024, scaled / 1024
    return f"{size:6d} {prefix}"


def memory_summary():
    """The statistics of :func:`memory_stats` as MindSpore's readable table (str).

    Example:
        >>> import sporax as ms
        >>> "Allocated memory" in ms.memory_summary()
        True
    """
    stats = memory_stats()
    rows = [("total_reserved_memory", "Reserved memory"), ("total_allocated_memory", "Allocated memory"),
            ("total_idle_memory", "Idle memory"), ("total_eager_free_memory", "Eager free memory"),
            ("max_reserved_memory", "Max reserved memory"), ("max_allocated_memory", "Max allocated memory")]
    lines = ["=" * 45, " {:^43} ".format("Memory summary"), "=" * 45, " {:<20} | {:<20} ".format("Metric", "Data")]
    for key, title in rows:
        lines.append("-" * 45)
        lines.append(" {:<20} | {:<20} ".format(title, _format_size(stats[key])))
    lines.append("=" * 45)
    return "|" + "|\n|".join(lines) + "|\n"


def empty_cache():
    """Free the device memory of tensors no longer reachable.

    Collects the Python garbage that still holds device arrays (reference cycles), so their buffers
    go back to the device. XLA's allocator keeps the pool it has grown (JAX has no call that shrinks
    it); on GPU set ``XLA_PYTHON_CLIENT_ALLOCATOR=platform`` before start-up for a pool-less allocator.

    Example:
        >>> import sporax as ms
        >>> ms.empty_cache()
    """
    before = memory_reserved()
    gc.collect()
    log.info(f"The empty_cache operation is executed successfully, release size: {before - memory_reserved()}.")


def memory_replay(file_path):
    """Not available: replays an Ascend memory-allocation trace.

    Raises:
        NotImplementedError: always; XLA plans device memory itself at compile time and has no
        allocation log to replay. Use ``memory_stats`` / the Profiler's memory view instead.
    """
    raise NotImplementedError(
        f"mindspore.runtime.memory_replay('{file_path}') replays a memory-allocation trace of MindSpore's Ascend "
        "memory pool; sporax's memory is planned by XLA at compile time and has no such trace to replay. Inspect "
        "memory with mindspore.memory_stats() or mindspore.Profiler(profile_memory=True) instead.")


_ALLOCATOR_REASON = ("JAX's device clients allocate through XLA's own allocator and take no user allocator at run "
                     "time; on GPU choose XLA's allocator with XLA_PYTHON_CLIENT_ALLOCATOR (default, platform) "
                     "before start-up instead")


class PluggableAllocator:
    """Not available: a device allocator loaded from a user's shared library.

    Raises:
        NotImplementedError: always (JAX accepts no user allocator).
    """

    def __init__(self, path_to_so_file: str, alloc_fn_name: str, free_fn_name: str):
        raise NotImplementedError(f"mindspore.PluggableAllocator('{path_to_so_file}') is not supported: "
                                  f"{_ALLOCATOR_REASON}.")


class MemPool:
    """Not available: a memory pool served by a :class:`PluggableAllocator`.

    Raises:
        NotImplementedError: always (JAX accepts no user allocator).
    """

    def __init__(self, allocator: PluggableAllocator):
        raise NotImplementedError(f"mindspore.MemPool is not supported: {_ALLOCATOR_REASON}.")


def use_mem_pool(pool: MemPool):
    """Not available: route allocations to a :class:`MemPool`.

    Raises:
        NotImplementedError: always (JAX accepts no user allocator).
    """
    raise NotImplementedError(f"mindspore.use_mem_pool is not supported: {_ALLOCATOR_REASON}.")
