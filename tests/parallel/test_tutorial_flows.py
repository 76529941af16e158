"""The API flows of MindSpore's parallel tutorial pages (operator-level, mint shard, Layouts, optimizer parallel,
recompute, pipeline training and inference, sharding propagation and recursive programming) on 8 host devices,
each equal to the same flow on one device (tutorial_flows_worker.py in a subprocess)."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn, ops
from sporax.nn import no_init_parameters
from sporax.parallel.auto_parallel import AutoParallel, cells_used_by
from sporax.parallel.nn import GradAccumulation, Pipeline, PipelineCell

WORKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tutorial_flows_worker.py")
SRC = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "src"))
FLOWS = ("operator_tuple", "operator_layout", "mint_tuple", "mint_layout", "optimizer_parallel", "recompute",
         "pipeline", "pipeline_inference", "sharding_propagation", "recursive_programming")


@pytest.fixture(autouse=True)
def one_device_context_after_each_test():
    # AutoParallel's call sets the process's auto-parallel context (as MindSpore's does); the tests after
    # this file must start from the default one.
    yield
    ms.reset_auto_parallel_context()


@pytest.fixture(scope="module")
def flows(tmp_path_factory):
    out = tmp_path_factory.mktemp("tutorial_flows")
    env = dict(os.environ, JAX_PLATFORMS="cpu", PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    completed = subprocess.run([sys.executable, WORKER, str(out)], capture_output=True, text=True, timeout=600,
                               env=env)
    assert completed.returncode == 0, completed.stderr[-4000:]
    return json.loads(completed.stdout.strip().splitlines()[-1]), out


@pytest.mark.slow
@pytest.mark.parametrize("flow", FLOWS)
def test_tutorial_flow_on_8_devices_equals_one_device(flows, flow):
    result = flows[0][flow]
    np.testing.assert_allclose(result["parallel"], result["single"], rtol=2e-4, atol=1e-6)


@pytest.mark.slow
def test_hsdp_on_a_training_function_splits_its_weights(flows):
    assert "p0" in flows[0]["optimizer_parallel"]["layer1_weight_split"]


@pytest.mark.slow
def test_strategy_file_asked_before_the_first_call_is_written_at_compile(flows):
    for mode in ("sharding_propagation", "recursive_programming"):
        assert "parallel_layout_item" in json.loads((flows[1] / f"{mode}.json").read_text())
    items = json.loads((flows[1] / "recursive_programming.json").read_text())["parallel_layout_item"]
    assert set(items) == {"dense1.weight", "dense2.weight"}


def test_cells_used_by_a_training_function():
    net = nn.Dense(3, 2)
    optimizer = nn.SGD(net.trainable_params(), 0.1)
    loss_fn = nn.MSELoss()

    def forward(x, y):
        return loss_fn(net(x), y)

    def train_step(x, y):
        loss = forward(x, y)
        optimizer(())
        return loss

    found = cells_used_by(train_step)
    assert sorted(type(cell).__name__ for cell in found) == ["Dense", "MSELoss", "SGD"]
    parallel = AutoParallel(train_step)
    # the function's weights keep their names inside AutoParallel
    names = {param.name for param in parallel.get_parameters()}
    assert {"weight", "bias", "learning_rate"} <= names


def test_auto_parallel_runs_a_function_as_one_device():
    with no_init_parameters():
        net = nn.Dense(3, 2)
    x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    parallel = AutoParallel(lambda inputs: ops.relu(net(inputs)))
    np.testing.assert_allclose(parallel(x).asnumpy(), ops.relu(net(x)).asnumpy(), rtol=1e-6)


def test_get_pipeline_stages_reports_what_pipeline_set():
    parallel = AutoParallel(nn.Dense(2, 2))
    assert parallel.get_pipeline_stages() == 1
    parallel.pipeline(stages=2)
    assert parallel.get_pipeline_stages() == 2


def test_auto_parallel_argument_checks():
    with pytest.raises(TypeError, match="'network' must be a Cell or a function"):
        AutoParallel(3)
    with pytest.raises(TypeError, match="file_path"):
        AutoParallel(nn.Dense(2, 2)).save_param_strategy_file("")


def test_save_param_strategy_file_before_the_first_call(tmp_path):
    parallel = AutoParallel(nn.Dense(2, 2), parallel_mode="recursive_programming")
    path = tmp_path / "strategy.json"
    parallel.save_param_strategy_file(str(path))
    assert not path.exists()
    parallel(Tensor(np.ones((4, 2), np.float32)))
    assert "weight" in json.loads(path.read_text())["parallel_layout_item"]


def test_pipeline_wrappers_of_mindspore_parallel_nn():
    net = nn.SequentialCell(nn.Dense(4, 4), nn.Dense(4, 2))
    wrapped = Pipeline(net, 2, stage_config={"0": 0, "1": 1})
    assert isinstance(wrapped, PipelineCell) and (net[0].pipeline_stage, net[1].pipeline_stage) == (0, 1)
    x = Tensor(np.ones((4, 4), np.float32))
    # one process: the micro-batch loop sums the slices' outputs
    np.testing.assert_allclose(wrapped(x).asnumpy(), net(x[:2]).asnumpy() + net(x[2:]).asnumpy(), rtol=1e-6)
    with pytest.raises(TypeError, match="'micro_size' must be int"):
        Pipeline(net, 2.0)
    with pytest.raises(ValueError, match="'micro_size' must be larger than 0"):
        Pipeline(net, 0)
    with pytest.raises(KeyError, match="no sub-Cell named 'missing'"):
        Pipeline(net, 2, stage_config={"missing": 0})
    assert GradAccumulation(net, 2).micro_size == 2
