"""MindSpore's pipeline schedulers for stages on their own processes (sporax.parallel.pipeline_schedulers): each
gives the one-process losses and weights on 2 processes; the conditions MindSpore sets on each are checked."""
import numpy as np
import pytest

import sporax as ms
from sporax import nn
from sporax.parallel import pipeline_schedulers, pipeline_stages
from tests.parallel.helpers import run_job

# {scheduler: {layer: stage}} as the job places them (zero_bubble_v: the V, layer3 back on stage 0)
STAGES = {"seqpipe": {"layer1": 0, "layer2": 1, "layer3": 1}, "seqvpp": {"layer1": 0, "layer2": 1, "layer3": 1},
          "seqsmartvpp": {"layer1": 0, "layer2": 1, "layer3": 1},
          "zero_bubble_v": {"layer1": 0, "layer2": 1, "layer3": 0}}


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    return run_job("pipeline_schedulers.py", tmp_path_factory.mktemp("pipeline_schedulers"), timeout=400)


@pytest.mark.slow
@pytest.mark.parametrize("scheduler", sorted(STAGES))
def test_each_scheduler_on_two_processes_equals_one_process(results, scheduler):
    single_losses, single_weights = results[0]["single"]
    last = STAGES[scheduler]["layer3"]  # the stage that computes the loss returns it, the other zeros
    np.testing.assert_allclose(results[last][scheduler][0], single_losses, rtol=1e-5)
    np.testing.assert_array_equal(results[1 - last][scheduler][0], [0.0] * 2)
    for name, expected in single_weights.items():  # each stage's own weights, after 2 steps
        stage = STAGES[scheduler][name.split(".")[0]]
        np.testing.assert_allclose(results[stage][scheduler][1][name], expected, rtol=1e-5, atol=1e-6)
        assert not np.allclose(results[1 - stage][scheduler][1][name], expected)  # the other stage's copy stays


def _staged(segments):
    net = nn.SequentialCell(nn.Dense(2, 2), nn.Dense(2, 2), nn.Dense(2, 2))
    for cell, stage, segment in zip(net, (0, 1, 0), segments):
        cell.pipeline_stage = stage
        if segment is not None:
            cell.pipeline_segment = segment
    return net


@pytest.mark.parametrize("scheduler, interleave", [
    ("1f1b", False), ("seqpipe", False), ("seqpipe", True), ("seqvpp", True), ("seqsmartvpp", True),
    ("zero_bubble_v", True), ("gpipe", True)])
def test_every_scheduler_runs_in_gpipe_order_with_one_warning_naming_it(monkeypatch, scheduler, interleave):
    warnings = []
    monkeypatch.setattr(pipeline_schedulers.log, "warning", warnings.append)
    pipeline_schedulers._warn_once.cache_clear()
    ms.set_auto_parallel_context(pipeline_stages=2, pipeline_config={"pipeline_scheduler": scheduler,
                                                                     "pipeline_interleave": interleave})
    try:
        net = _staged((0, 0, 1))
        assert pipeline_stages.schedule(net) == "gpipe"
        assert pipeline_stages.schedule(net) == "gpipe"
        expected = f"pipeline_interleave=True with pipeline_scheduler={scheduler!r}" if interleave else \
            f"pipeline_scheduler={scheduler!r} runs with GPipe's schedule"
        assert [warning.count(expected) for warning in warnings] == [1]
    finally:
        ms.reset_auto_parallel_context()


def test_gpipe_without_interleave_runs_silently(monkeypatch):
    warnings = []
    monkeypatch.setattr(pipeline_schedulers.log, "warning", warnings.append)
    ms.set_auto_parallel_context(pipeline_stages=2, pipeline_config={"pipeline_scheduler": "gpipe"})
    try:
        assert pipeline_stages.schedule(_staged((None, None, None))) == "gpipe"
        assert warnings == []
    finally:
        ms.reset_auto_parallel_context()


def test_seqsmartvpp_needs_an_even_number_of_stages():
    pipeline_schedulers.check("seqsmartvpp", 4, _staged((None, None, None)))
    with pytest.raises(ValueError, match="'seqsmartvpp' needs an even number of pipeline stages.*pipeline_stages=3"):
        pipeline_schedulers.check("seqsmartvpp", 3, _staged((None, None, None)))


@pytest.mark.parametrize("segments, chunks", [((None, None, None), 1), ((0, 1, 2), 3)])
def test_zero_bubble_v_needs_the_two_chunks_of_its_v(segments, chunks):
    with pytest.raises(ValueError, match=f"'zero_bubble_v' needs the V placement's 2 chunks.*have {chunks}"):
        pipeline_schedulers.check("zero_bubble_v", 2, _staged(segments))
    pipeline_schedulers.check("zero_bubble_v", 2, _staged((0, 0, 1)))
    assert pipeline_schedulers.chunk_count(_staged((0, 0, 1))) == 2
