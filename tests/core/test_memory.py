"""Memory statistics (``mindspore.memory_stats`` & co.) against the bytes of the arrays sporax holds."""
import gc

import numpy as np
import pytest

import sporax as ms
from sporax.core import memory


def test_allocated_memory_counts_new_tensors_and_drops_freed_ones():
    # Other arrays may come and go meanwhile (lazily built constants, an earlier test's background thread): allow
    # 1 KiB of them, and measure again when another allocation landed inside the window.
    for attempt in range(3):
        gc.collect()
        before = ms.memory_allocated()
        tensor = ms.Tensor(np.ones((1024,), np.float32))
        with_tensor = ms.memory_allocated()
        del tensor
        gc.collect()
        after = ms.memory_allocated()
        if 4096 <= with_tensor - before <= 4096 + 1024 and 4096 - 1024 <= with_tensor - after <= 4096 + 1024:
            return
    raise AssertionError(f"a 4 KiB Tensor moved memory_allocated by {with_tensor - before} bytes up and "
                         f"{with_tensor - after} down")


def test_peak_survives_a_free_until_reset():
    gc.collect()
    ms.reset_peak_memory_stats()
    base = ms.memory_allocated()
    tensor = ms.Tensor(np.ones((2048,), np.float32))
    assert ms.max_memory_allocated() >= base + 8192
    del tensor
    gc.collect()
    assert ms.max_memory_allocated() >= base + 8192  # the peak remains after the free
    ms.reset_max_memory_allocated()
    assert ms.max_memory_allocated() == ms.memory_allocated() == base


def test_stats_keys_and_invariants():
    stats = ms.memory_stats()
    assert set(stats) == {"total_reserved_memory", "total_allocated_memory", "total_idle_memory",
                          "total_eager_free_memory", "max_reserved_memory", "max_allocated_memory",
                          "common_mem_pool_stats", "persistent_mem_pool_stats"}
    assert stats["total_idle_memory"] == stats["total_reserved_memory"] - stats["total_allocated_memory"] >= 0
    assert stats["max_reserved_memory"] >= stats["total_reserved_memory"]
    assert ms.memory_reserved() >= ms.memory_allocated()
    assert ms.max_memory_reserved() >= ms.memory_reserved()
    ms.reset_max_memory_reserved()
    assert ms.max_memory_reserved() == ms.memory_reserved()


def test_summary_table_reports_the_stats(monkeypatch):
    monkeypatch.setattr(memory, "memory_stats", lambda: {
        "total_reserved_memory": 3 * 1024 ** 3, "total_allocated_memory": 1024, "total_idle_memory": 0,
        "total_eager_free_memory": 0, "max_reserved_memory": 0, "max_allocated_memory": 2048})
    lines = memory.memory_summary().splitlines()
    assert lines[1].strip("|").strip() == "Memory summary"
    assert "| Reserved memory      |   3072 MB" in lines[5]
    assert "| Allocated memory     |   1024 B" in lines[7]
    assert "| Max allocated memory |   2048 B" in lines[15]


def test_empty_cache_frees_cyclic_garbage_holding_tensors():
    gc.collect()
    before = ms.memory_allocated()
    holder = {"tensor": ms.Tensor(np.ones((4096,), np.float32))}
    holder["self"] = holder  # a cycle only the garbage collector frees
    del holder
    ms.empty_cache()
    assert ms.memory_allocated() == before


@pytest.mark.parametrize("call", [lambda: ms.PluggableAllocator("a.so", "alloc", "free"), lambda: ms.MemPool(None),
                                  lambda: ms.use_mem_pool(None), lambda: ms.memory_replay("trace.csv")])
def test_allocator_apis_are_refused_with_the_reason(call):
    with pytest.raises(NotImplementedError, match="XLA|JAX"):
        call()


class _AllocatorDevice:
    """A device whose client keeps allocator statistics (JAX's GPU/TPU clients report these keys)."""

    def __init__(self):
        self.stats = {"bytes_in_use": 1000, "peak_bytes_in_use": 5000, "pool_bytes": 8000, "peak_pool_bytes": 9000,
                      "bytes_limit": 16000}

    def memory_stats(self):
        return dict(self.stats)


def test_allocator_statistics_of_an_accelerator(monkeypatch):
    device = _AllocatorDevice()
    monkeypatch.setattr(memory, "current_device", lambda: device)
    monkeypatch.setattr(memory, "_peaks", {"allocated": 0, "reserved": 0})
    monkeypatch.setattr(memory, "_device_peak_at_reset", {"allocated": None, "reserved": None})
    stats = ms.memory_stats()
    assert (stats["total_allocated_memory"], stats["total_reserved_memory"], stats["total_idle_memory"]) == \
        (1000, 8000, 7000)
    assert (stats["max_allocated_memory"], stats["max_reserved_memory"]) == (5000, 9000)
    ms.reset_peak_memory_stats()  # the device's peak (5000) was before the reset: only later values count
    assert ms.max_memory_allocated() == 1000 and ms.max_memory_reserved() == 8000
    device.stats.update(bytes_in_use=1500)
    assert ms.max_memory_allocated() == 1500
    device.stats.update(bytes_in_use=1200, peak_bytes_in_use=7000)  # a new device peak after the reset
    assert ms.max_memory_allocated() == 7000
