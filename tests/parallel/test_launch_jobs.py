"""Jobs of 2 CPU processes started with ``python -m sporax launch``: one launch runs the collectives, data-parallel,
world-program (the compiled data-parallel step is one XLA program with its all-reduce inside; SEMI_AUTO_PARALLEL
across processes forms global batches from the ranks' slices), port and dying-worker checks in turn; the others
each start and stop their own processes."""
import json
import os
import re
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


def _logs(log_dir):
    return "".join((log_dir / f"worker_{rank}.log").read_text() for rank in (0, 1)
                   if (log_dir / f"worker_{rank}.log").exists())


@pytest.fixture(scope="module")
def launched(tmp_path_factory):
    """One launch of 2 processes runs four jobs in turn (jobs/in_turn.py; each launched process pays ~5 CPU s
    to start): the collectives and data-parallel job, the world-program job, a job that waits for ``stop``
    while a second launch on its port is refused (``second``), then one whose rank 1 raises (``died``: the
    launcher's exit status and stderr, and the seconds from the start of that job to the launcher's exit)."""
    tmp_path = tmp_path_factory.mktemp("two_process_jobs")
    port = free_port()
    first = _start(tmp_path, port, "in_turn.py", tmp_path,
                   script_args=("collectives_and_dp.py", "world_program.py", "waits_for_stop.py", "dies.py,raise"))
    try:
        ready = [tmp_path / "waits_for_stop" / f"ready_{rank}" for rank in (0, 1)]
        deadline = time.monotonic() + 400
        while not all(path.exists() for path in ready):  # the first job's coordination service listens
            if first.poll() is not None:
                stdout, stderr = first.communicate()
                pytest.fail(f"the job ended before waits_for_stop.py: {stdout}{stderr}{_logs(tmp_path / 'logs')}")
            assert time.monotonic() < deadline, "the jobs did not reach waits_for_stop.py"
            time.sleep(0.1)
        second = _second_job_on(tmp_path, port)
        (tmp_path / "waits_for_stop" / "stop").write_text("")
        stopped = time.monotonic()  # dies.py starts once both ranks have summed
        stdout, stderr = first.communicate(timeout=120)
        seconds = time.monotonic() - stopped
    finally:
        first.kill()
        first.wait()
    results = {"tmp_path": tmp_path, "port": port, "second": second, "died": (first.returncode, stderr, seconds)}
    try:
        results["sums"] = [(tmp_path / "waits_for_stop" / f"sum_{rank}").read_text() for rank in (0, 1)]
        for name in ("collectives_and_dp", "world_program"):
            results[name] = [json.loads((tmp_path / name / f"result_{rank}.json").read_text()) for rank in (0, 1)]
    except FileNotFoundError as error:
        pytest.fail(f"{error}: {stdout}{stderr}{_logs(tmp_path / 'logs')}")
    return results


@pytest.fixture(scope="module")
def job_results(launched):
    return launched["collectives_and_dp"], launched["tmp_path"]


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


@pytest.fixture(scope="module")
def world_results(launched):
    return launched["world_program"]


def test_the_data_parallel_step_is_one_program_with_an_all_reduce_and_no_host_callback(world_results):
    for result in world_results:
        assert result["one_program"]
        hlo = result["hlo"]
        assert re.search(r"\ball-reduce(-start)?\(", hlo), "the gradients' all-reduce is not in the program"
        assert "callback" not in hlo.lower() and "custom-call" not in hlo  # no host callback left


def test_two_processes_equal_one_process_on_the_concatenated_batch(world_results):
    single_losses = np.array(world_results[0]["single_losses"])
    # each rank's loss is the mean over its half of the batch; the single process's, over the whole
    np.testing.assert_allclose((np.array(world_results[0]["dp_losses"]) + world_results[1]["dp_losses"]) / 2,
                               single_losses, rtol=1e-5)
    for name, single in world_results[0]["single_final"].items():
        for result in world_results:
            np.testing.assert_allclose(result["dp_final"][name], single, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("setting", ["global_batch", "full_batch"])
def test_semi_auto_across_processes_equals_one_process_on_the_concatenated_batch(world_results, setting):
    # full_batch=False: each rank's half of the rows is its slice of the global batch of 8 rows;
    # full_batch=True: every rank feeds all 8 rows. Both train as one process on the 8 rows.
    single_losses, single_weight = world_results[0]["semi_auto_single"]
    for result in world_results:
        losses, weight = result[setting]
        np.testing.assert_allclose(losses, single_losses, rtol=1e-5)
        np.testing.assert_allclose(weight, single_weight, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_send_and_receive_deliver_by_tag(world_results, mode):
    message = np.arange(16, dtype=np.float32).reshape(2, 8)
    np.testing.assert_array_equal(world_results[0][f"send_receive_{mode}"], message)  # Send returns its input
    np.testing.assert_array_equal(world_results[1][f"send_receive_{mode}"], message * 2 - message)


def test_compiled_send_and_receive_are_collective_permutes_in_the_program(world_results):
    for result in world_results:
        hlo = result["send_receive_hlo"]
        assert re.search(r"\bcollective-permute(-start)?\(", hlo)
        assert "callback" not in hlo.lower() and "custom-call" not in hlo


@pytest.mark.parametrize("way", ["split_grads_pynative", "split_jit_grads_pynative", "split_grads_graph",
                                 "split_jit_grads_graph"])
def test_gradients_cross_processes_through_send_and_receive(world_results, way):
    # Rank 0: Dense(4, 6), tanh, Send; rank 1: Receive, Dense(6, 2), mean squared error. Receive's
    # gradient travels back to rank 0 as the gradient of Send's input: each rank's weight gradients
    # are those of the one-process network (first layer: rank 0's; second: rank 1's).
    whole = world_results[0]["whole_grads"]
    for rank, expected in ((0, whole[:2]), (1, whole[2:])):
        for got, want in zip(world_results[rank][way], expected):
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
        assert np.abs(np.array(world_results[rank][way][0])).max() > 1e-3


def _assert_died(returncode, stderr, message, seconds, out_dir):
    """The launcher ended the job with rank 1's error, within a minute, and left no worker running."""
    assert returncode == 1
    assert message in stderr
    assert "worker_1.log" in stderr
    assert seconds < 60
    for rank in (0, 1):
        pid = int((out_dir / f"pid_{rank}").read_text())
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


def test_a_dying_worker_ends_the_job_with_its_error_and_no_process_left(launched):
    returncode, stderr, seconds = launched["died"]
    _assert_died(returncode, stderr, "ValueError: rank 1 failed at step 3", seconds, launched["tmp_path"] / "dies")


@pytest.mark.slow
def test_a_killed_worker_ends_the_job_with_its_signal_and_no_process_left(tmp_path):
    process, seconds = _launch(tmp_path, "dies.py", "--cluster_time_out=60", timeout=120, script_args=("kill",))
    _assert_died(process.returncode, process.stderr, "worker 1 was killed by signal SIGKILL", seconds, tmp_path)


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


def _start(tmp_path, port, job, out_dir, flags=(), script_args=()):
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out_dir.mkdir(exist_ok=True)
    return subprocess.Popen(
        [sys.executable, "-m", "sporax", "launch", "--worker_num=2", "--local_worker_num=2",
         f"--master_port={port}", *flags, f"--log_dir={out_dir / 'logs'}", os.path.join(JOBS, job), str(out_dir),
         *script_args],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _second_job_on(tmp_path, port):
    """Launch a job on ``port`` while another holds it: (exit status, stderr, seconds, whether it wrote logs)."""
    started = time.monotonic()
    second = _start(tmp_path, port, "waits_for_stop.py", tmp_path / "second", flags=("--cluster_time_out=60",))
    _, stderr = second.communicate(timeout=60)
    return second.returncode, stderr, time.monotonic() - started, (tmp_path / "second" / "logs").exists()


def _assert_refused(second, port):
    returncode, stderr, seconds, wrote_logs = second
    assert returncode == 1 and seconds < 20
    assert f"--master_port {port} is in use by another job" in stderr
    assert not wrote_logs, "the second job started workers"


def test_a_second_job_on_the_port_of_a_running_one_fails_at_once(launched):
    # The launched jobs' coordination service listens on the port (they wait in waits_for_stop.py); they go on
    # after the refusal: the AllReduce after the stop sums both ranks.
    _assert_refused(launched["second"], launched["port"])
    assert launched["sums"] == ["3.0", "3.0"]


@pytest.mark.slow
def test_a_second_job_on_the_port_of_a_starting_one_fails_at_once(tmp_path):
    port = free_port()
    first = _start(tmp_path, port, "waits_for_stop.py", tmp_path / "first", flags=("--cluster_time_out=60",))
    try:
        # its workers are starting: nothing listens on the port yet
        assert first.stdout.readline().startswith("Start worker process with rank id:0")
        _assert_refused(_second_job_on(tmp_path, port), port)
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


def test_the_launcher_process_imports_neither_jax_nor_the_namespace(tmp_path):
    """The launcher only starts and watches workers: `python -m sporax launch` imports the standard library alone
    (`-X importtime` lists every module the process imported) and still reports its argument errors."""
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    process = subprocess.run([sys.executable, "-X", "importtime", "-m", "sporax", "launch", "--bind_core=maybe",
                              "train.py"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    imported = {line.split("|")[-1].strip() for line in process.stderr.splitlines() if line.startswith("import time:")}
    assert process.returncode == 2 and "sporax launch: error: argument --bind_core" in process.stderr
    assert "sporax.launcher_process" in imported and "argparse" in imported
    assert not {name for name in imported if name.split(".")[0] in ("jax", "jaxlib", "numpy")}
    assert not {name for name in imported if name.startswith("sporax.") and name != "sporax.launcher_process"}


@pytest.mark.parametrize("argv, expected", [
    (["-m", "launch", "--worker_num=2", "train.py", "--lr", "0.1"],
     ("sporax launch", ["--worker_num=2", "train.py", "--lr", "0.1"])),
    (["/venv/bin/sporax", "launch", "train.py"], ("sporax launch", ["train.py"])),
    (["/venv/bin/msrun", "--worker_num=2", "train.py"], ("msrun", ["--worker_num=2", "train.py"])),
    (["-m", "train.py", "launch"], None),  # a worker (python -m sporax.parallel.worker SCRIPT ...)
    (["/venv/bin/sporax", "run", "launch.py"], None),
    (["train.py", "launch"], None),
    ([], None),
])
def test_only_the_launcher_commands_skip_the_namespace(argv, expected):
    from sporax.launcher_process import launcher_arguments

    assert launcher_arguments(argv) == expected
