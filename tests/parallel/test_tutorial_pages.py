"""MindSpore's parallel tutorial pages as real msrun jobs: ``sporax launch --worker_num=8 --local_worker_num=8
--join=True tutorial_pages.py OUT FLOW`` (8 processes, one device each), every flow equal to the same script run
stand-alone in one process on the global batch (jobs/tutorial_pages.py). Each job takes 35-50 s on 2 cores
(the checkpoint test, two jobs, about 80 s), so every test is slow.

The checkpoint flows save each rank's slice (integrated_save=False) with the strategy file, merge the slices
with transform_checkpoints, and load the merged checkpoint into another layout on 4 processes.
"""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from sporax.parallel.checkpoint import region
from tests.parallel.helpers import JOBS, SRC, free_port

SCRIPT = os.path.join(JOBS, "tutorial_pages.py")


def msrun(out, flow, size=8):
    """Run one flow as msrun runs the pages' scripts; every rank's result, in rank order."""
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    command = [sys.executable, "-m", "sporax", "launch", f"--worker_num={size}", f"--local_worker_num={size}",
               f"--master_port={free_port()}", "--join=True", f"--log_dir={out / 'logs'}", SCRIPT, str(out), flow]
    process = subprocess.run(command, cwd=out, env=env, capture_output=True, text=True, timeout=400)
    assert process.returncode == 0, process.stdout[-6000:] + process.stderr[-6000:]
    return [json.loads((out / f"result_{rank}.json").read_text()) for rank in range(size)]


def assert_equal_runs(parallel, single, names=None):
    np.testing.assert_allclose(parallel["losses"], single["losses"], rtol=2e-4, atol=1e-6)
    for name in names or single["weights"]:
        np.testing.assert_allclose(parallel["weights"][name], single["weights"][name], rtol=1e-4, atol=1e-6,
                                   err_msg=name)


# the slice of the weights rank 0 holds: each flow's strategies really split them
HELD = {"operator_tuple": {"fc1_weight": [16, 32], "fc2_weight": [4, 32]},
        "operator_layout": {"fc1_weight": [16, 32], "fc2_weight": [4, 32]},
        "optimizer_parallel": {"layer1.weight": [8, 64], "layer2.weight": [4, 64]},
        "recompute": {}, "sharding_propagation": {}, "recursive_programming": {}}


@pytest.mark.slow
@pytest.mark.parametrize("flow", list(HELD))
def test_tutorial_flow_on_8_processes_equals_one_process(tmp_path, flow):
    results = msrun(tmp_path, flow)
    single = results[0]["single"]
    assert single["losses"][0] != single["losses"][1]
    for result in results:
        assert_equal_runs(result["parallel"], single)
    for name, shape in HELD[flow].items():
        assert results[0]["parallel"]["held"][name] == shape
    items = json.loads((tmp_path / "strategy_0.json").read_text())["parallel_layout_item"]
    for name, layout in STRATEGY_FILE.get(flow, {}).items():
        assert [items[name]["dev_matrix"], items[name]["tensor_map"]] == layout, name


# what save_param_strategy_file writes for the weights the operator strategies split: rows in 4 (of a
# (2, 2, 2) mesh: dev_matrix [4, 2]), rows in 8; a Layout whose axes split a dimension in reverse mesh order
# ("sp", "dp") cannot be written as a dev_matrix and tensor_map of ints: it is left out, with a warning
STRATEGY_FILE = {"operator_tuple": {"fc1_weight": [[4, 2], [1, -1]], "fc2_weight": [[8], [0, -1]]},
                 "operator_layout": {"fc2_weight": [[8], [0, -1]]}}


@pytest.mark.slow
@pytest.mark.parametrize("stages", [2, 4])
def test_pipeline_stages_on_8_processes_equal_one_process(tmp_path, stages):
    # layer1..layer4 over the stages; the 8 // stages ranks of a stage are data parallel (each its rows)
    results = msrun(tmp_path, f"pipeline_{stages}")
    single = results[0]["single"]
    per_stage = 8 // stages
    last = [result["parallel"]["losses"] for result in results[8 - per_stage:]]
    # the one process's loss on the global batch is the mean of the last stage's per-process losses
    np.testing.assert_allclose(np.mean(last, axis=0), single["losses"], rtol=2e-4)
    assert all(result["parallel"]["losses"] == [0.0, 0.0] for result in results[:8 - per_stage])
    for rank, result in enumerate(results):
        mine = [f"layer{index + 1}" for index in range(4) if index * stages // 4 == rank // per_stage]
        names = [name for name in single["weights"] if name.split(".")[0] in mine]
        assert_equal_runs({"losses": single["losses"], "weights": result["parallel"]["weights"]}, single, names)


@pytest.mark.slow
def test_distributed_checkpoint_saved_by_8_processes_merges_and_loads_into_4(tmp_path):
    from sporax import load_checkpoint

    results = msrun(tmp_path, "checkpoint_save")
    single, merged = results[0]["single"], results[0]["merged"]
    for result in results:
        assert_equal_runs(result["parallel"], single)
    for name, value in merged.items():
        np.testing.assert_allclose(value, single["weights"][name], rtol=1e-4, atol=1e-6, err_msg=name)
    strategy = results[0]["strategy"]
    # the layouts the strategy file gave, and the one XLA propagated to layer2's bias
    assert strategy["layer1.weight"] == [[2, 4], [0, 1]] and strategy["layer2.bias"] == [[2, 4], [1]]
    for rank in range(8):  # each rank saved its own block of each split weight
        saved = load_checkpoint(str(tmp_path / "src_checkpoints" / f"rank_{rank}" / "checkpoint_0.ckpt"))
        for name, (dev_matrix, tensor_map) in strategy.items():
            if name in merged:
                whole = np.array(merged[name], np.float32)
                np.testing.assert_array_equal(saved[name].asnumpy(),
                                              whole[region(rank, dev_matrix, tensor_map, whole.shape)])
    for path in (tmp_path / "logs").iterdir():
        path.unlink()
    results = msrun(tmp_path, "checkpoint_load", size=4)
    single = results[0]["single"]
    assert results[0]["parallel"]["held"]["layer2.weight"] == [16, 32]  # another layout than the saving job's
    for result in results:
        assert_equal_runs(result["parallel"], single)
