"""SEMI_AUTO_PARALLEL / AUTO_PARALLEL on 2 and 4 host devices: same values as one device, real collectives;
``Cell.set_data_parallel``: same values and gradients as one device, batch split.

One subprocess (shard_worker.py, with XLA_FLAGS=--xla_force_host_platform_device_count=4; this
test process has one device) runs every check and reports JSON; each test reads its part.
"""
import json
import os
import socket
import subprocess
import sys

import numpy as np
import pytest

WORKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "shard_worker.py")


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    env = dict(os.environ)
    env["XLA_FLAGS"] = "--xla_force_host_platform_device_count=4"
    env["JAX_PLATFORMS"] = "cpu"
    # A compilation cache of the worker's own: 18 of its programs are the very program of an earlier check (the
    # same MatMul network and strategy under another mode or call), read back instead of compiled again.
    env["SPORAX_COMPILATION_CACHE_DIR"] = str(tmp_path_factory.mktemp("shard_worker_cache"))
    env["JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS"] = "0"
    completed = subprocess.run([sys.executable, WORKER], capture_output=True, text=True, timeout=240, env=env)
    assert completed.returncode == 0, completed.stderr[-4000:]
    return json.loads(completed.stdout)


@pytest.mark.parametrize("key", ["semi_auto_parallel/2/rows", "semi_auto_parallel/2/columns",
                                 "semi_auto_parallel/4/rows", "semi_auto_parallel/4/columns",
                                 "auto_parallel/4/rows", "auto_parallel/4/columns"])
def test_matmul_strategy_matches_one_device(results, key):
    # ops.MatMul().shard(((2, 1), (1, 1))) (rows of the input: data parallel) and ((1, 1), (1, 2))
    # (columns of the weight: model parallel): forward, value_and_grad, and two TrainOneStepCell
    # steps equal the single-device run; the weight gradient's reduction is an all-reduce.
    result = results[key]
    assert result["forward_and_grads"]
    assert result["train"]
    assert "all-reduce" in result["collectives"]


def test_one_device_program_has_no_collectives(results):
    assert results["standalone_collectives"] == []


@pytest.mark.parametrize("devices", [2, 4])
def test_split_forward_needs_no_communication(results, devices):
    # A row split of the input or a column split of the weight computes a matmul locally; the
    # output stays sharded, so the forward program has no collective.
    assert results[f"forward_hlo/{devices}/rows"] == []
    assert results[f"forward_hlo/{devices}/columns"] == []


def test_data_parallel_mode_ignores_strategies(results):
    result = results["data_parallel_ignores"]
    assert result["forward_and_grads"]
    assert result["collectives"] == [] and result["devices"] == 1


def test_layout_strategy(results):
    result = results["layout"]
    assert result["forward_and_grads"] and result["train"]
    assert "all-reduce" in result["collectives"]
    assert result["weight_spec"] == "P(None, 'mp')"  # the updated weight stays column-split


def test_cell_shard_and_parameter_plan(results):
    result = results["cell_shard"]
    assert result["forward"]
    assert result["weight_spec"] == "P(None, 'p0')"  # parameter_plan (1, 2) placed the weight
    assert "all-gather" in result["collectives"]


def test_ms_shard_function(results):
    result = results["ms_shard"]
    assert result["is_wrapper"] and result["value"]
    assert result["spec"] == "P('p0', 'p1')"  # out_strategy ((2, 2),)


def test_ms_shard_cell_with_parameter_plan(results):
    assert results["ms_shard_cell"] == {"value": True, "weight_spec": "P(None, 'p0')"}


def test_model_train_semi_auto_parallel(results):
    # Model.train with three sharded ops gives the one-device weights, per step and in sink mode.
    assert results["model_train"] == {"False": True, "True": True}


def test_tuple_strategies_share_one_prime_axis_mesh(results):
    assert results["specs"] == {"(2, 1)": "P('p0', None)", "(2, 2)": "P('p0', 'p1')",
                                "(4, 1)": "P(('p0', 'p1'), None)", "(1, 1)": "P(None, None)"}


def test_strategies_that_do_not_fit_are_rejected(results):
    errors = results["errors"]
    assert errors["three"].startswith("ValueError: For 'MatMul', the strategy (3, 1)") and "4 devices" in errors["three"]
    assert errors["rank"].startswith("ValueError: For 'MatMul', the strategy (2,) has 1 dimensions")
    assert errors["indivisible"].startswith("ValueError: For 'MatMul', dimension 1 of the input of shape (4, 6)")


def _free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.slow
def test_strategies_across_two_processes():
    # Two processes with 2 devices each (jax.distributed over gloo): the same strategies on the 4
    # global devices give the single-device training result; a column-split weight is gathered
    # from both processes by asnumpy.
    env = dict(os.environ)
    env.pop("XLA_FLAGS", None)
    env["JAX_PLATFORMS"] = "cpu"
    port = str(_free_port())
    workers = [subprocess.Popen([sys.executable, WORKER, str(rank), port], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, env=env) for rank in range(2)]
    outputs = []
    try:
        for worker in workers:
            out, err = worker.communicate(timeout=180)
            assert worker.returncode == 0, err[-4000:]
            line = next(line for line in out.splitlines() if line.startswith("RESULT "))
            outputs.append(json.loads(line[len("RESULT "):]))
    finally:
        for worker in workers:
            if worker.poll() is None:
                worker.kill()
                worker.wait()
    for result in outputs:
        assert result["global_devices"] == 4 and result["local_devices"] == 2
        for label in ("rows", "columns"):
            assert result[label]["train"]
            assert "all-reduce" in result[label]["collectives"]


def test_pipeline_stages_in_one_process_run_every_stage_over_the_devices(results):
    # 2 stages on 4 host devices of one process: the same losses as without stages (2 micro-batches).
    assert results["pipeline_one_process"]


@pytest.mark.parametrize("mode", ["semi_auto_parallel", "auto_parallel"])
def test_set_data_parallel_values_and_gradients_match_one_device(results, mode):
    base, run = results["set_data_parallel"]["base"], results["set_data_parallel"][mode]
    np.testing.assert_allclose(run["out"], base["out"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(run["loss"], base["loss"], rtol=1e-5)
    np.testing.assert_allclose(run["grad_x"], base["grad_x"], rtol=1e-5, atol=1e-6)
    for grad, expected in zip(run["grads"], base["grads"]):
        np.testing.assert_allclose(grad, expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("mode", ["semi_auto_parallel", "auto_parallel"])
def test_set_data_parallel_splits_the_batch_over_the_devices(results, mode):
    # An (8, 4) batch on 4 devices: each device holds 2 rows of the input and of the output.
    run = results["set_data_parallel"][mode]
    assert run["input_shard"] == [2, 4]
    assert run["out_shard"] == [2, 3]
    assert run["attrs"] == ["data_parallel", "data_parallel"]


def test_set_data_parallel_in_stand_alone_keeps_one_device(results):
    # The strategy acts only in the sharding modes: STAND_ALONE keeps the whole batch on one device.
    runs = results["set_data_parallel"]
    assert runs["stand_alone"]["input_shard"] == [8, 4]
    np.testing.assert_allclose(runs["stand_alone"]["out"], runs["base"]["out"])
    assert runs["base"]["attrs"] == [None, None]
