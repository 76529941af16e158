"""Memory statistics (``mindspore.memory_stats`` & co.) against the bytes of the arrays sporax holds."""
import gc

import numpy as np
import pytest

import sporax as ms
from sporax.core import memory


def test_allocated_memory_counts_new_tensors_and_drops_freed_ones():
    gc.collect()
    before = ms.memory_allocated()
    tensor = ms.Tensor(np.ones((1024,), np.float32))
    assert ms.memory_allocated() - before == 4096
    del tensor
    gc.collect()
    assert ms.memory_allocated() == before


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
