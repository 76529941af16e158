"""``mindspore.hal``: MindSpore's older device-runtime namespace (streams, events, memory statistics
and device queries), served from sporax's runtime and from the devices JAX sees.

MindSpore names device backends by target ('CPU', 'GPU', 'Ascend'); here a target is available
when JAX has devices of that kind (Ascend never is). The CPU target is named 'CPU' and reports no
capability, properties or architectures, as MindSpore's does.
"""
from collections import namedtuple

import jax

from sporax.core import context, jax_private
from sporax.core.runtime import (Event, Stream, StreamCtx, communication_stream, current_stream,  # noqa: F401
                                 default_stream, empty_cache, max_memory_allocated, max_memory_reserved,
                                 memory_allocated, memory_reserved, memory_stats, memory_summary,
                                 reset_max_memory_allocated, reset_max_memory_reserved, reset_peak_memory_stats,
                                 set_cur_stream, synchronize)

_PLATFORMS = {"CPU": "cpu", "GPU": "gpu"}
_TARGETS = ("CPU", "GPU", "Ascend")

DeviceProperties = namedtuple("DeviceProperties", "name major minor total_memory multi_processor_count")


def _target(device_target, function):
    if device_target is None:
        device_target = context.get_context("device_target")
    if device_target not in _TARGETS:
        raise ValueError(f"For 'mindspore.hal.{function}', device_target must be one of {_TARGETS}, "
                         f"but got {device_target!r}.")
    return device_target


def _devices(device_target):
    platform = _PLATFORMS.get(device_target)
    if platform is None:
        return []
    try:
        return jax.devices(platform)
    except RuntimeError:
        return []


def _device(device_id, device_target, function):
    device_target = _target(device_target, function)
    devices = _devices(device_target)
    if not devices:
        raise ValueError(f"For 'mindspore.hal.{function}', the {device_target} backend is not available to this "
                         f"process; check with mindspore.hal.is_available('{device_target}').")
    if not 0 <= device_id < len(devices):
        raise ValueError(f"For 'mindspore.hal.{function}', device_id must be in [0, {len(devices)}), "
                         f"but got {device_id}.")
    return device_target, devices[device_id]


def is_available(device_target=None):
    """Whether this process can run on ``device_target`` (default: the context's target).

    Example:
        >>> import sporax.core.hal as hal
        >>> hal.is_available("CPU")
        True
    """
    return bool(_devices(_target(device_target, "is_available")))


def is_initialized(device_target=None):
    """Whether the runtime of ``device_target`` has started (the first computation starts it)."""
    device_target = _target(device_target, "is_initialized")
    return device_target in _PLATFORMS and jax_private.backends_started() and bool(_devices(device_target))


def device_count(device_target=None):
    """How many devices of ``device_target`` this process sees."""
    device_target = _target(device_target, "device_count")
    devices = _devices(device_target)
    if not devices:
        raise ValueError(f"For 'mindspore.hal.device_count', the {device_target} backend is not available to "
                         f"this process; check with mindspore.hal.is_available('{device_target}').")
    return len(devices)


def _capability(device):
    major, _, minor = str(getattr(device, "compute_capability", "") or "").partition(".")
    return (int(major), int(minor)) if major.isdigit() and minor.isdigit() else None


def get_device_capability(device_id, device_target=None):
    """``(major, minor)`` compute capability of a GPU; None on CPU."""
    device_target, device = _device(device_id, device_target, "get_device_capability")
    return None if device_target == "CPU" else _capability(device)


def get_device_name(device_id, device_target=None):
    """The device's model name ('CPU' on the CPU target)."""
    device_target, device = _device(device_id, device_target, "get_device_name")
    return "CPU" if device_target == "CPU" else device.device_kind


def get_device_properties(device_id, device_target=None):
    """Name, capability, memory and multiprocessor count of a GPU; None on CPU."""
    device_target, device = _device(device_id, device_target, "get_device_properties")
    if device_target == "CPU":
        return None
    major, minor = _capability(device) or (None, None)
    limit = (device.memory_stats() or {}).get("bytes_limit")
    return DeviceProperties(device.device_kind, major, minor, limit, getattr(device, "core_count", None))


def get_arch_list(device_target=None):
    """The GPU architectures of the visible devices (``['sm_90']``); None on CPU."""
    device_target = _target(device_target, "get_arch_list")
    if device_target == "CPU":
        return None
    capabilities = sorted({_capability(device) for device in _devices(device_target)} - {None})
    return [f"sm_{major}{minor}" for major, minor in capabilities] or None


__all__ = ["Event", "Stream", "StreamCtx", "communication_stream", "current_stream", "default_stream",
           "device_count", "empty_cache", "get_arch_list", "get_device_capability", "get_device_name",
           "get_device_properties", "is_available", "is_initialized", "max_memory_allocated",
           "max_memory_reserved", "memory_allocated", "memory_reserved", "memory_stats", "memory_summary",
           "reset_max_memory_allocated", "reset_max_memory_reserved", "reset_peak_memory_stats",
           "set_cur_stream", "synchronize"]
