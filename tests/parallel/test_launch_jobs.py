"""Jobs of 2 CPU processes started with ``python -m sporax launch`` (each test starts and stops its processes)."""
import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from tests.parallel.helpers import free_port

JOBS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "jobs")
SRC = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "src"))


def _launch(tmp_path, job, *flags, timeout=150, script_args=()):
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    command = [sys.executable, "-m", "sporax", "launch", "--worker_num=2", "--local_worker_num=2",
               f"--master_port={free_port()}", f"--log_dir={tmp_path / 'logs'}", *flags,
               os.path.join(JOBS, job), str(tmp_path), *script_args]
    started = time.monotonic()
    process = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=timeout)
    return process, time.monotonic() - started


@pytest.fixture(scope="module")
def job_results(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("collectives_and_dp")
    process, _ = _launch(tmp_path, "collectives_and_dp.py")
    logs = "".join((tmp_path / "logs" / f"worker_{rank}.log").read_text() for rank in (0, 1)
                   if (tmp_path / "logs" / f"worker_{rank}.log").exists())
    assert process.returncode == 0, process.stdout + process.stderr + logs
    return [json.loads((tmp_path / f"result_{rank}.json").read_text()) for rank in (0, 1)], tmp_path


def test_launcher_writes_msrun_worker_logs_and_sets_ranks(job_results):
    results, tmp_path = job_results
    assert sorted(os.listdir(tmp_path / "logs")) == ["worker_0.log", "worker_1.log"]
    assert [(r["rank"], r["size"], r["local"], r["backend"], r["inited"]) for r in results] == [
        (0, 2, [0, 2], "mccl", True), (1, 2, [1, 2], "mccl", True)]


@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_collective_primitives_against_numpy(job_results, mode):
    results, _ = job_results
    inputs = [np.arange(6, dtype=np.float32).reshape(2, 3) + 10 * rank for rank in (0, 1)]
    for rank, result in enumerate(results):
        got = {name: np.array(value) for name, value in result[mode].items()}
        np.testing.assert_array_equal(got["all_reduce"], inputs[0] + inputs[1])
        np.testing.assert_array_equal(got["all_reduce_max"], np.maximum(inputs[0], inputs[1]))
        np.testing.assert_array_equal(got["all_gather"], np.concatenate(inputs))
        np.testing.assert_array_equal(got["reduce_scatter"], (inputs[0] + inputs[1])[rank:rank + 1])
        np.testing.assert_array_equal(got["broadcast"], inputs[1])
        blocks = [x[:, :2][:, rank:rank + 1] for x in inputs]  # AlltoAll(split_dim=1, concat_dim=0)
        np.testing.assert_array_equal(got["all_to_all"], np.concatenate(blocks))
        # d/dx [sum(AllReduce(x)^2) + sum(AllGather(x))] = AllReduce(2 * AllReduce(x)) + ReduceScatter(ones)
        np.testing.assert_array_equal(got["grad"], 4 * (inputs[0] + inputs[1]) + 2)


def test_grad_reducer_in_graph_mode_averages_large_gradients(job_results):
    results, _ = job_results
    for result in results:
        assert result["big_reduced"] == [1.5] * 6 + [6.0]  # mean of 1 and 2, then plain device work


def test_comm_func_on_two_processes(job_results):
    results, _ = job_results
    inputs = [np.arange(6, dtype=np.float32).reshape(2, 3) + 10 * rank for rank in (0, 1)]
    for rank, result in enumerate(results):
        got = result["comm_func"]
        np.testing.assert_array_equal(got["all_reduce"], inputs[0] + inputs[1])
        assert got["all_reduce_handle"] is True
        np.testing.assert_array_equal(got["all_reduce_max_async"], np.maximum(inputs[0], inputs[1]))
        np.testing.assert_array_equal(got["all_gather_into_tensor"], np.concatenate(inputs))
        np.testing.assert_array_equal(got["reduce_scatter_tensor"], (inputs[0] + inputs[1])[rank:rank + 1])
        np.testing.assert_array_equal(got["broadcast"], inputs[1])
    total = (inputs[0] + inputs[1]).tolist()
    assert [r["comm_func"]["reduce_to_1"] for r in results] == [[0.0], total]  # rank 0: MindSpore's [0.]
    assert [r["comm_func"]["gather_into_tensor_to_0"] for r in results] == [np.concatenate(inputs).tolist(), [0.0]]
    assert [r["comm_func"]["scatter_tensor_from_1"] for r in results] == [inputs[1][:1].tolist(),
                                                                           inputs[1][1:].tolist()]
    assert results[0]["comm_func"]["send"] is None
    np.testing.assert_array_equal(results[1]["comm_func"]["recv"], inputs[0])


def test_a_created_group_orders_its_ranks(job_results):
    results, _ = job_results
    inputs = [np.arange(6, dtype=np.float32).reshape(2, 3) + 10 * rank for rank in (0, 1)]
    for rank, result in enumerate(results):
        got = result["group"]
        assert (got["rank"], got["size"]) == (1 - rank, 2)
        assert (got["world_rank_of_group_rank_0"], got["group_rank_of_world_rank_0"]) == (1, 1)
        np.testing.assert_array_equal(got["all_gather"], np.concatenate([inputs[1], inputs[0]]))
        np.testing.assert_array_equal(got["broadcast_from_group_rank_0"], inputs[1])


def test_data_parallel_two_processes_match_one_process_on_the_whole_batch(job_results):
    results, _ = job_results
    for name, initial in results[0]["single_initial"].items():
        # set_seed gives every rank (and the single process) the same initial weights
        np.testing.assert_array_equal(results[0]["dp_initial"][name], initial)
        np.testing.assert_array_equal(results[1]["dp_initial"][name], initial)
        single = np.array(results[0]["single_final"][name])
        assert not np.allclose(single, initial)  # training moved the weights
        for result in results:
            np.testing.assert_allclose(result["dp_final"][name], single, rtol=1e-5, atol=1e-6)
            np.testing.assert_allclose(result["dp_sink_final"][name], single, rtol=1e-5, atol=1e-6)  # sink mode


def test_checkpoint_files_of_the_ranks_are_named_as_mindspore_names_them(job_results):
    results, _ = job_results
    fixture = os.path.join(os.path.dirname(__file__), "..", "fixtures", "parallel", "checkpoint_names.json")
    expected = json.load(open(fixture))["files_seen_by_rank"]
    assert [result["checkpoint_files"] for result in results] == [expected["0"], expected["1"]]


def test_parameter_broadcast_starts_every_rank_from_rank_0s_weights(job_results):
    results, _ = job_results
    for name, single in results[0]["single_final"].items():
        for result in results:
            np.testing.assert_allclose(result["dp_broadcast_final"][name], single, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("how, message", [pytest.param("kill", "worker 1 was killed by signal SIGKILL",
                                                       marks=pytest.mark.slow),
                                          ("raise", "ValueError: rank 1 failed at step 3")])
def test_a_dying_worker_ends_the_job_with_its_error_and_no_process_left(tmp_path, how, message):
    process, seconds = _launch(tmp_path, "dies.py", "--cluster_time_out=60", timeout=120, script_args=(how,))
    assert process.returncode == 1
    assert message in process.stderr
    assert "worker_1.log" in process.stderr
    assert seconds < 60
    for rank in (0, 1):
        pid = int((tmp_path / f"pid_{rank}").read_text())
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


def _wait_for_pids(tmp_path, deadline):
    paths = [tmp_path / f"pid_{rank}" for rank in (0, 1)]
    while not all(path.exists() and path.read_text() for path in paths):
        assert time.monotonic() < deadline, "the workers did not start"
        time.sleep(0.1)
    return [int(path.read_text()) for path in paths]


def _assert_gone(pids, deadline):
    for pid in pids:
        while True:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            assert time.monotonic() < deadline, f"worker {pid} is still running"
            time.sleep(0.1)


@pytest.mark.slow
@pytest.mark.parametrize("signal_number", [signal.SIGINT, signal.SIGKILL])
def test_stopping_the_launcher_stops_every_worker(tmp_path, signal_number):
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    launcher = subprocess.Popen(
        [sys.executable, "-m", "sporax", "launch", "--worker_num=2", "--local_worker_num=2",
         f"--master_port={free_port()}", f"--log_dir={tmp_path / 'logs'}", os.path.join(JOBS, "sleeps.py"),
         str(tmp_path)], cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        pids = _wait_for_pids(tmp_path, time.monotonic() + 60)
        launcher.send_signal(signal_number)  # Ctrl-C, or the launcher killed outright
        _, stderr = launcher.communicate(timeout=30)
        _assert_gone(pids, time.monotonic() + 15)
    finally:
        launcher.kill()
        launcher.wait()
    if signal_number == signal.SIGINT:
        assert launcher.returncode == 130 and "stopping all workers" in stderr


def _start(tmp_path, port, job, out_dir):
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out_dir.mkdir(exist_ok=True)
    return subprocess.Popen(
        [sys.executable, "-m", "sporax", "launch", "--worker_num=2", "--local_worker_num=2",
         f"--master_port={port}", "--cluster_time_out=60", f"--log_dir={out_dir / 'logs'}",
         os.path.join(JOBS, job), str(out_dir)],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.mark.parametrize("when", ["running", pytest.param("starting", marks=pytest.mark.slow)])
def test_a_second_job_on_the_port_of_a_running_one_fails_at_once(tmp_path, when):
    port = free_port()
    first = _start(tmp_path, port, "waits_for_stop.py", tmp_path / "first")
    try:
        if when == "running":  # the first job's coordination service listens on the port
            deadline = time.monotonic() + 90
            while not all((tmp_path / "first" / f"ready_{rank}").exists() for rank in (0, 1)):
                assert first.poll() is None, first.communicate()
                assert time.monotonic() < deadline, "the first job did not start"
                time.sleep(0.1)
        else:  # its workers are starting: nothing listens on the port yet
            assert first.stdout.readline().startswith("Start worker process with rank id:0")
        started = time.monotonic()
        second = _start(tmp_path, port, "waits_for_stop.py", tmp_path / "second")
        _, stderr = second.communicate(timeout=60)
        assert second.returncode == 1 and time.monotonic() - started < 20
        assert f"--master_port {port} is in use by another job" in stderr
        assert not (tmp_path / "second" / "logs").exists(), "the second job started workers"
        (tmp_path / "first" / "stop").write_text("")
        _, stderr = first.communicate(timeout=90)
        assert first.returncode == 0, stderr
        assert [(tmp_path / "first" / f"sum_{rank}").read_text() for rank in (0, 1)] == ["3.0", "3.0"]
    finally:
        first.kill()
        first.wait()


@pytest.mark.slow  # a third two-process job (about 15 s)
def test_worker_log_name_and_bind_core_as_msrun_takes_them(tmp_path):
    import socket

    process, _ = _launch(tmp_path, "affinity.py", "--worker_log_name=job_{hostname}", "--bind_core={0: [0], 1: ['0-0']}",
                         timeout=60)
    assert process.returncode == 0, process.stdout + process.stderr
    hostname = socket.gethostname()
    assert sorted(os.listdir(tmp_path / "logs")) == [f"job_{hostname}_0.log", f"job_{hostname}_1.log"]
    assert [(tmp_path / f"cores_{rank}").read_text() for rank in (0, 1)] == ["0", "0"]
    process, _ = _launch(tmp_path, "affinity.py", "--bind_core=True", timeout=60)
    assert process.returncode == 0, process.stdout + process.stderr
    available = sorted(os.sched_getaffinity(0))
    share = max(1, len(available) // 2)
    for rank in (0, 1):
        cores = [int(core) for core in (tmp_path / f"cores_{rank}").read_text().split(",")]
        start = (rank * share) % len(available)
        assert cores == available[start:start + share]
    process, _ = _launch(tmp_path, "affinity.py", "--bind_core=maybe", timeout=60)
    assert process.returncode != 0 and "--bind_core" in process.stderr
