"""A large CPU program compiles before its first call while an idle-priority thread touches the heap
pages its first run will write (sporax.core.process_setup.HeapPrefault,
sporax.state.program_cache.compile_with_heap_prefault): one compile, the same values."""
import time

import numpy as np
import pytest
from jax import monitoring

import sporax as ms
from sporax import Tensor, nn
from sporax.core import jax_private, process_setup
from sporax.state import program_cache

pytestmark = pytest.mark.skipif(not process_setup.heap_prefault_possible(),
                                reason="needs sporax's glibc malloc options (Linux, glibc, no malloc tuning of the user's)")


def _resident_bytes():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * process_setup._PAGE_BYTES


def test_the_touched_pages_beyond_the_need_go_back_to_the_kernel(monkeypatch):
    # At normal priority the thread touches the whole block at once (idle priority waits for a free core).
    monkeypatch.setattr(process_setup.os, "sched_setscheduler", lambda *arguments: None)
    limit = 32 * 2**20
    prefault = process_setup.HeapPrefault(limit)
    deadline = time.monotonic() + 60
    while prefault.touched < limit and time.monotonic() < deadline:
        time.sleep(0.01)
    assert prefault.touched == limit
    before = _resident_bytes()
    prefault.release(8 * 2**20)
    assert before - _resident_bytes() >= 20 * 2**20  # the 24 MiB past the need, less what others allocated
    assert prefault.touched == limit  # stopped: nothing touched after the release


class Wide(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(1024, 1024)  # 1,049,600 weights: above PREFAULT_MIN_STATE_ELEMENTS

    def construct(self, x):
        return self.dense(x)


def _train(steps=2):
    ms.set_seed(1)
    network = Wide()
    train_step = nn.TrainOneStepCell(nn.WithLossCell(network, nn.MSELoss()), nn.Momentum(network.trainable_params(),
                                                                                         0.01, 0.9))
    random = np.random.default_rng(0)
    x = Tensor(random.standard_normal((8, 1024)).astype(np.float32))
    y = Tensor(random.standard_normal((8, 1024)).astype(np.float32))
    losses = [train_step(x, y).asnumpy() for _ in range(steps)]
    return losses, network.dense.weight.asnumpy()


def test_a_large_program_compiles_once_and_computes_what_it_computes_without(monkeypatch):
    ms.set_context(mode=ms.GRAPH_MODE)
    process_setup.use_compile_cache(None)  # every compile a real one
    monkeypatch.setattr(jax_private, "compile_if_cached", lambda lowered: None)
    released = []
    original_release = process_setup.HeapPrefault.release
    monkeypatch.setattr(process_setup.HeapPrefault, "release",
                        lambda self, needed: (released.append(needed), original_release(self, needed)))
    compiles = []
    monitoring.register_event_duration_secs_listener(
        lambda event, duration, **_: compiles.append(event) if event == "/jax/core/compile/backend_compile_duration"
        else None)
    try:
        monkeypatch.delenv("SPORAX_HEAP_PREFAULT", raising=False)  # off by default
        expected = _train()
        compiles_without = len(compiles)
        monkeypatch.setenv("SPORAX_HEAP_PREFAULT", "on")
        assert released == []
        result = _train()
    finally:
        process_setup.configure_compile_cache()
    assert len(released) == 1 and released[0] >= 8 * 1024 * 4  # the train step's outputs at least
    assert len(compiles) - compiles_without == compiles_without  # no second compile of the prefaulted program
    for got, want in zip(result[0] + [result[1]], expected[0] + [expected[1]]):
        np.testing.assert_array_equal(got, want)
