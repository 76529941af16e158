"""Pipeline stages on their own processes (sporax.parallel.pipeline_stages): a 2-process job, one stage each,
against the same training in one process; and the checks that need no job."""
import json
import os
import re

import numpy as np
import pytest

import sporax as ms
from sporax import nn
from sporax.parallel import pipeline_stages
from sporax.parallel.auto_parallel import AutoParallel
from tests.parallel.helpers import run_job

STAGE_OF = {"layer1": 0, "layer2": 1, "layer3": 1}


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    return run_job("pipeline.py", tmp_path_factory.mktemp("pipeline"), timeout=400)


@pytest.mark.slow
@pytest.mark.parametrize("micro", ["2", "4", "2_pynative"])
@pytest.mark.parametrize("way", ["cell", "auto"])
def test_two_stages_on_two_processes_equal_one_process(results, way, micro):
    key = f"{way}_{micro}"
    single_losses, single_weights = results[0][f"{key}_single"][:2]
    # The last stage returns the loss; the first returns zeros (it does not compute the loss).
    np.testing.assert_allclose(results[1][key][0], single_losses, rtol=1e-5)
    np.testing.assert_array_equal(results[0][key][0], [0.0] * 3)
    for name, expected in single_weights.items():  # each stage's own weights, after 3 steps
        stage = next(STAGE_OF[part] for part in name.split(".") if part in STAGE_OF)
        np.testing.assert_allclose(results[stage][key][1][name], expected, rtol=1e-5, atol=1e-6)


@pytest.mark.slow
def test_each_process_compiles_only_its_stage(results):
    # Micro-batches of 4 rows: layer3's logits are f32[4,3] (stage 1), layer1's input f32[4,4] (stage 0).
    first, second = results[0]["cell_2"][2], results[1]["cell_2"][2]
    assert "f32[4,3]" not in first and "f32[4,3]" in second
    assert "f32[4,4]" in first and "f32[4,4]" not in second
    for hlo in (first, second):  # activations forward and gradients backward, as collective-permutes
        assert len(re.findall(r"collective-permute(-start)?\(", hlo)) == 4
        assert "callback" not in hlo.lower()


@pytest.fixture(scope="module")
def replicas(tmp_path_factory):
    return run_job("pipeline_replicas.py", tmp_path_factory.mktemp("pipeline_replicas"), size=4, timeout=500)


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["", "_pynative", "_1f1b"])
def test_two_stages_of_two_data_parallel_processes_equal_one_process_on_the_global_batch(replicas, mode):
    single_losses, single_weights = replicas[0][f"single{mode.replace('_1f1b', '')}"][:2]
    # Ranks 2 and 3 (the last stage) hold the losses of their halves of the global batch; the
    # one-process loss on the whole batch is their mean. The first stage returns zeros.
    halves = [replicas[rank][f"pipeline{mode}"][0] for rank in (2, 3)]
    np.testing.assert_allclose(np.mean(halves, axis=0), single_losses, rtol=1e-5)
    assert not np.allclose(halves[0], halves[1])  # each process saw its own half
    for rank in (0, 1):
        np.testing.assert_array_equal(replicas[rank][f"pipeline{mode}"][0], [0.0] * 3)
    for name, expected in single_weights.items():  # layers 0-1 are stage 0 (ranks 0, 1), the rest stage 1
        stage = 0 if int(name.split(".")[0]) < 2 else 1
        for rank in (2 * stage, 2 * stage + 1):
            np.testing.assert_allclose(replicas[rank][f"pipeline{mode}"][1][name], expected, rtol=1e-5, atol=1e-6)


@pytest.mark.slow
def test_four_stages_on_four_processes_run_1f1b_and_equal_one_process(replicas):
    single_losses, single_weights = replicas[0]["four_single"][:2]
    np.testing.assert_allclose(replicas[3]["four_stages"][0], single_losses, rtol=1e-5)  # the last stage's loss
    stage_of_layer = {"0": 0, "2": 1, "4": 3}
    for name, expected in single_weights.items():
        np.testing.assert_allclose(replicas[stage_of_layer[name.split(".")[0]]]["four_stages"][1][name], expected,
                                   rtol=1e-5, atol=1e-6)
    for rank in range(4):  # every process recorded the stages' work in one order: each stage's is 1F1B's
        events = replicas[rank]["four_stages"][2]
        for stage in range(4):
            warm_up = 4 - stage  # min(stages - stage, micro-batches), then one backward and one forward in turn
            expected = [f"F{m}" for m in range(warm_up)] + [f"{kind}{m + shift}" for m in range(4 - warm_up)
                                                             for kind, shift in (("B", 0), ("F", warm_up))]
            expected += [f"B{m}" for m in range(4 - warm_up, 4)]
            assert [f"{kind}{m}" for at, kind, m in events if at == stage] == expected


@pytest.mark.slow
def test_stage_replicas_compile_their_stage_with_permutes_only(replicas):
    hlos = [replicas[rank]["pipeline"][2] for rank in range(4)]
    for rank, hlo in enumerate(hlos):
        assert ("f32[4,3]" in hlo) == (rank >= 2)  # the last layer's micro-batch logits: stage 1 only
        assert re.findall(r"collective-permute(-start)?\(", hlo)  # hand-overs and in-stage gradient sums
        assert "callback" not in hlo.lower() and "all-gather" not in hlo


@pytest.mark.slow
def test_a_scheduler_whose_conditions_fail_is_refused_by_name_when_the_stages_run(replicas):
    # zero_bubble_v needs the V placement's two chunks (pipeline_segment 0 and 1); this network has one
    for rank in range(4):
        assert "pipeline_scheduler='zero_bubble_v' needs the V placement's 2 chunks" in replicas[rank]["refused_zbv"]


@pytest.mark.slow
def test_interleaved_stages_on_two_processes_equal_one_process(results):
    # layer1, relu1, layer2 are segment 0 of stages 0, 0, 1; relu2 (stage 0) and layer3 (stage 1) segment 1:
    # the activations go 0 -> 1 -> 0 -> 1 and the last stage's losses and each stage's weights equal one process.
    single_losses, single_weights = results[0]["cell_2_single"][:2]
    np.testing.assert_allclose(results[1]["interleave_2"][0], single_losses, rtol=1e-5)
    for name, expected in single_weights.items():
        stage = next(STAGE_OF[part] for part in name.split(".") if part in STAGE_OF)
        np.testing.assert_allclose(results[stage]["interleave_2"][1][name], expected, rtol=1e-5, atol=1e-6)
    # four hand-overs per micro-batch forward (and back): more collective-permutes than the plain split's
    count = [len(re.findall(r"collective-permute(?:-start)?\(", results[0][key][2])) for key in ("cell_2", "interleave_2")]
    assert count[1] > count[0]


def test_several_processes_per_stage_are_data_parallel_inside_the_stage(monkeypatch):
    from sporax.parallel import communication
    from sporax.state import world

    monkeypatch.setattr(world._Job, "size", 4)
    monkeypatch.setattr(communication._World, "rank", 3)
    ms.set_auto_parallel_context(pipeline_stages=2)
    try:
        assert pipeline_stages.layout() == pipeline_stages.Layout(stages=2, per_stage=2, stage=1, rank=3, replica=1)
        ms.set_auto_parallel_context(pipeline_stages=3)
        with pytest.raises(ValueError, match="4 processes can not be split into pipeline_stages=3"):
            pipeline_stages.layout()
    finally:
        ms.reset_auto_parallel_context()


def test_one_process_runs_every_stage():
    assert pipeline_stages.layout() is None


def test_a_network_without_stages_is_refused():
    with pytest.raises(ValueError, match="no sub-Cell of the network has a pipeline_stage"):
        pipeline_stages.stages_of(nn.SequentialCell(nn.Dense(2, 2)), 2)


def test_a_stage_beyond_pipeline_stages_is_refused():
    net = nn.SequentialCell(nn.Dense(2, 2), nn.Dense(2, 2))
    net[1].pipeline_stage = 2
    with pytest.raises(ValueError, match="pipeline_stage=2, but pipeline_stages=2"):
        pipeline_stages.stages_of(net, 2)


def test_stages_of_names_where_the_stage_changes():
    net = nn.SequentialCell(nn.Dense(2, 2), nn.SequentialCell(nn.Dense(2, 2), nn.ReLU()))
    net[0].pipeline_stage = 0
    net[1].pipeline_stage = 1
    net[1][0].pipeline_stage = 1  # the same stage as around it: nothing changes there
    assert pipeline_stages.stages_of(net, 2) == {id(net[0]): 0, id(net[1]): 1}


def test_a_parameter_of_two_stages_is_refused():
    first, second = nn.Dense(2, 2), nn.Dense(2, 2)
    second.weight = first.weight  # tied weights across the stages
    net = nn.SequentialCell(first, second)
    first.pipeline_stage, second.pipeline_stage = 0, 1
    stage_of = pipeline_stages.stages_of(net, 2)
    with pytest.raises(NotImplementedError, match="used by Cells of pipeline stages 0 and 1"):
        pipeline_stages.weights_by_stage(net, stage_of)
    second.weight = ms.Parameter(ms.Tensor(np.ones((2, 2), np.float32)), name="own")
    weights = pipeline_stages.weights_by_stage(net, stage_of)
    assert [len(weights[0]), len(weights[1])] == [2, 2]


def test_auto_parallel_pipeline_sets_the_context_and_checks_its_arguments():
    ms.reset_auto_parallel_context()
    try:
        parallel = AutoParallel(nn.Dense(2, 1))
        parallel.pipeline(stages=2, scheduler="gpipe")
        parallel._configure()
        assert ms.get_auto_parallel_context("pipeline_stages") == 2
        assert ms.get_auto_parallel_context("pipeline_scheduler") == "gpipe"
    finally:
        ms.reset_auto_parallel_context()
    with pytest.raises(TypeError, match="'stages' must be int"):
        parallel.pipeline(stages="2")
    with pytest.raises(ValueError, match="must be larger than zero"):
        parallel.pipeline(stages=0)
    with pytest.raises(ValueError, match="'scheduler' must be one of"):
        parallel.pipeline(stages=2, scheduler="fifo")
    parallel.pipeline(stages=2, interleave=True)
    assert parallel._pipeline["pipeline_interleave"] is True


def test_pipeline_config_is_reflected_by_the_getter_as_mindspore():
    recorded = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures",
                                           "parallel", "pipeline_config.json")))
    try:
        for record in recorded["records"]:
            if record["config"] == "reset":
                ms.reset_auto_parallel_context()
            elif record["config"] is not None:
                ms.set_auto_parallel_context(pipeline_config=record["config"])
            assert ms.get_auto_parallel_context("pipeline_scheduler") == record["pipeline_scheduler"]
            assert ms.get_auto_parallel_context("pipeline_interleave") == record["pipeline_interleave"]
        for record in recorded["errors"]:
            errors = {"TypeError": TypeError, "ValueError": ValueError}
            with pytest.raises(errors[record["error"]], match="pipeline"):
                ms.set_auto_parallel_context(pipeline_config=record["config"])
    finally:
        ms.reset_auto_parallel_context()
