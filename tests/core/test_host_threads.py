"""Host-thread settings: CPU affinity applied through the OS, the dispatch knobs checked as MindSpore."""
import os

import pytest

import sporax as ms
from sporax.core import host_threads


@pytest.fixture
def fresh_settings(monkeypatch):
    """Each test sees a process where nothing was set yet; the affinity is restored afterwards."""
    monkeypatch.setattr(host_threads, "_settings", {})
    affinity = os.sched_getaffinity(0)
    yield host_threads._settings
    os.sched_setaffinity(0, affinity)


def test_set_cpu_affinity_binds_the_main_thread(fresh_settings):
    cpus = sorted(os.sched_getaffinity(0))
    ms.set_cpu_affinity(True, [str(cpus[0])])
    assert os.sched_getaffinity(0) == {cpus[0]}
    assert fresh_settings["cpu_affinity"] == {"main": [cpus[0]]}
    with pytest.raises(RuntimeError, match="cannot be set repeatedly"):
        ms.set_cpu_affinity(True)


def test_set_cpu_affinity_module_indices_pick_from_the_list(fresh_settings):
    cpus = sorted(os.sched_getaffinity(0))
    ms.set_cpu_affinity(True, [",".join(map(str, cpus))], {"main": [len(cpus) - 1], "minddata": [0]})
    assert os.sched_getaffinity(0) == {cpus[-1]}
    assert fresh_settings["cpu_affinity"]["minddata"] == [cpus[0]]


def test_set_cpu_affinity_reads_a_bind_file(fresh_settings, tmp_path):
    cpu = sorted(os.sched_getaffinity(0))[0]
    bind = tmp_path / "bind.json"
    bind.write_text(f'{{"bind_cpu": {{"device0": {{"main": "{cpu}"}}}}}}')
    ms.set_cpu_affinity(True, bind_file=str(bind))
    assert os.sched_getaffinity(0) == {cpu}


@pytest.mark.parametrize("arguments, error, message", [
    ((1,), TypeError, "'enable_affinity' must be bool"),
    ((True, "0-3"), TypeError, "must be list"),
    ((True, ["0-x"]), ValueError, "should be in format"),
    ((True, ["100000"]), RuntimeError, "is not available"),
    ((True, None, {"main": [-1]}), ValueError, "non-negative integer"),
])
def test_set_cpu_affinity_bad_arguments(fresh_settings, arguments, error, message):
    with pytest.raises(error, match=message):
        ms.set_cpu_affinity(*arguments)


def test_disabled_affinity_changes_nothing(fresh_settings):
    affinity = os.sched_getaffinity(0)
    ms.set_cpu_affinity(False)
    assert os.sched_getaffinity(0) == affinity


def test_dispatch_threads_num_once_and_positive(fresh_settings):
    with pytest.raises(ValueError, match="positive"):
        ms.dispatch_threads_num(0)
    with pytest.raises(TypeError, match="'threads_num' must be int"):
        ms.dispatch_threads_num(2.0)
    ms.dispatch_threads_num(4)
    assert host_threads.runtime_settings()["dispatch_threads_num"] == 4
    with pytest.raises(RuntimeError, match="can not be set repeatedly"):
        ms.dispatch_threads_num(4)


def test_kernel_launch_group_and_capture_exclude_each_other(fresh_settings):
    with pytest.raises(ValueError, match="evenly divisible"):
        ms.set_kernel_launch_group(thread_num=3, kernel_group_num=8)
    ms.set_kernel_launch_group()
    assert fresh_settings["kernel_launch_group"] == (2, 8)
    with pytest.raises(RuntimeError, match="can not be set together"):
        ms.set_kernel_launch_capture(True)
    fresh_settings.clear()
    ms.set_kernel_launch_capture(True, ["matmul"])
    with pytest.raises(RuntimeError, match="can not be set together"):
        ms.set_kernel_launch_group()
    with pytest.raises(TypeError, match="op_capture_skip must be a list"):
        ms.set_kernel_launch_capture(False, "matmul")
