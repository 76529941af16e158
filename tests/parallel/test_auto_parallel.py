"""AutoParallel's strategy search on 4 host devices: a layer too large to replicate is split, results equal one
device (a subprocess with --xla_force_host_platform_device_count=4)."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from sporax import nn
from sporax.parallel.auto_parallel import AutoParallel, plan_weights

WORKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "auto_parallel_worker.py")
SRC = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "src"))


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    env = dict(os.environ, JAX_PLATFORMS="cpu", PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    completed = subprocess.run([sys.executable, WORKER, str(tmp_path_factory.mktemp("auto_parallel"))],
                               capture_output=True, text=True, timeout=300, env=env)
    assert completed.returncode == 0, completed.stderr[-4000:]
    return json.loads(completed.stdout.strip().splitlines()[-1])


def test_the_search_replicates_what_fits_and_splits_what_does_not(results):
    # Batch 64: gathering the first layer's 256 outputs costs more than all-reducing its 16 KB weight,
    # so it is replicated while memory allows; under a 40 KB limit it no longer fits and is split.
    assert results["default_memory"]["layouts"]["0.weight"] == "P()"
    assert results["small_memory"]["layouts"]["0.weight"] == "P(('p0', 'p1'), None)"
    assert results["small_memory"]["layouts"]["trained 0.weight"] == "P(('p0', 'p1'), None)"  # stays split
    assert results["small_memory"]["strategy_file"]["0.weight"] == [0, -1]
    assert results["default_memory"]["strategy_file"]["0.weight"] == [-1, -1]
    assert "device_memory_capacity" in results["too_small"]


def test_load_param_strategy_file_lays_out_what_the_file_says(results):
    loaded = results["load_param_strategy_file"]
    # The small-memory run's file: the weights split although the default memory would replicate them (on a
    # mesh of the file's device matrix, axes named axis0, axis1, ... left to right).
    assert loaded["searched_file"]["layouts"]["0.weight"] == "P('axis0', None)"
    assert loaded["searched_file"]["resaved"]["0.weight"] == [[4], [0, -1]]
    # MindSpore's layout dev_matrix [2, 2], tensor_map [1, -1]: rows split in 2, written back as it was read;
    # the weight the file leaves out is searched (replicated at the default memory).
    assert loaded["handwritten"]["layouts"]["2.weight"] == "P('axis0',)"
    assert loaded["handwritten"]["resaved"]["2.weight"] == [[2, 2], [1, -1]]
    assert loaded["handwritten"]["layouts"]["0.weight"] == "P()"
    assert loaded["searched_file"]["losses_equal"] and loaded["handwritten"]["losses_equal"]


@pytest.mark.parametrize("label", ["default_memory", "small_memory"])
def test_auto_parallel_training_equals_one_device(results, label):
    assert results[label]["losses_equal"] and results[label]["weights_equal"]


HEADS = "P(('p0', 'p1'), None)"


def test_attention_that_does_not_fit_replicated_is_split_by_heads(results):
    # Width 32, 4 heads, 128 tokens: all-reducing the block's 4 weights (1.5 x 16.5 KB) costs less than the
    # head split's two all-reduces of its (4, 32, 32) output, so it is replicated while memory allows; under
    # a 40 KB limit (4 copies of 16.5 KB do not fit) it is split by heads.
    assert set(results["attention_default_memory"]["layouts"].values()) == {"P()"}
    layouts = results["attention_small_memory"]["layouts"]
    for projection in ("query", "key", "value"):  # column split: each device computes its heads
        assert layouts[f"0.{projection}.weight"] == HEADS
        assert layouts[f"0.{projection}.bias"] == "P(('p0', 'p1'),)"
    assert layouts["0.out.weight"] == "P(None, ('p0', 'p1'))"  # row split: partial sums, one all-reduce
    # The only collective of the step: the all-reduce of the block's output (and of its input's gradient).
    assert results["attention_small_memory"]["collectives"] == [["f32[4,32,32]", "all-reduce"]]
    assert results["attention_default_memory"]["collectives"] == []


def test_multihead_attention_packed_weight_is_split_by_heads(results):
    # nn.MultiheadAttention(32, 4) as self-attention: replicated while memory allows; under a 40 KB limit its
    # heads are split over the 4 devices: each device computes the scores of one head (4, 1, 32, 32).
    assert set(results["multihead_default_memory"]["layouts"].values()) == {"P()"}
    assert results["multihead_default_memory"]["scores"] == ["4,4"]
    split = results["multihead_small_memory"]
    assert split["scores"] == ["4,1"]
    # At rest each device holds a quarter of the packed (96, 32) weight (by input columns: no split of its
    # rows gives each device its heads' rows of all three thirds) and of the output projection's inputs.
    assert split["layouts"] == {"0.attention.in_proj_weight": "P(None, ('p0', 'p1'))",
                                "0.attention.out_proj.weight": "P(None, ('p0', 'p1'))"}
    # The step moves the packed weight to the head split (all-to-all) and its gradient back; the block's
    # output is all-reduced once; only the replicated in_proj_bias's gradient (32 per third) is gathered:
    # nothing gathers a weight or an activation of the block.
    kinds = {kind for _, kind in split["collectives"]}
    assert "all-to-all" in kinds and ["f32[4,32,32]", "all-reduce"] in split["collectives"]
    assert [shape for shape, kind in split["collectives"] if kind == "all-gather"] == ["f32[32]"]


def test_multihead_attention_with_separate_projections_is_split_by_heads(results):
    # kdim = vdim = 16: q/k/v_proj_weight split by rows (head-major), out_proj by input columns; each device
    # computes the scores (4, 1, 32, 6) of one head; the losses equal one device's.
    cross = results["multihead_cross"]
    assert cross["small_memory"]["layouts"] == {
        "attention.q_proj_weight": HEADS, "attention.k_proj_weight": HEADS, "attention.v_proj_weight": HEADS,
        "attention.out_proj.weight": "P(None, ('p0', 'p1'))"}
    assert cross["small_memory"]["scores"] == ["4,1"]
    np.testing.assert_allclose(cross["small_memory"]["losses"], cross["single"]["losses"], rtol=1e-5)


@pytest.mark.parametrize("label", ["attention_default_memory", "attention_small_memory",
                                   "multihead_default_memory", "multihead_small_memory",
                                   "convolution_default_memory", "convolution_small_memory"])
def test_attention_and_convolution_searches_train_as_one_device(results, label):
    assert results[label]["losses_equal"] and results[label]["weights_equal"]


def test_attention_strategy_file_is_mindspores_format(results):
    written = results["attention_small_memory"]
    assert written["dev_matrix"] == [[4]]
    assert written["strategy_file"]["0.query.weight"] == [0, -1]
    assert written["strategy_file"]["0.query.bias"] == [0]
    assert written["strategy_file"]["0.out.weight"] == [-1, 0]
    assert set(map(tuple, results["attention_default_memory"]["strategy_file"].values())) == {(-1, -1), (-1,)}


def test_a_convolution_keeps_the_batch_split_until_its_kernel_does_not_fit(results):
    assert results["convolution_default_memory"]["layouts"]["0.weight"] == "P()"
    assert results["convolution_small_memory"]["layouts"]["0.weight"] == "P(('p0', 'p1'), None, None, None)"


def test_attention_blocks_are_found_by_their_projections():
    from sporax.parallel.auto_parallel_search import attention_blocks, attention_unit

    class Block(nn.Cell):
        def __init__(self):
            super().__init__()
            self.num_heads = 2
            self.wo = nn.Dense(8, 8)  # defined first: found by name, not by order
            self.wq, self.wk, self.wv = nn.Dense(8, 8), nn.Dense(8, 8), nn.Dense(8, 8, has_bias=False)

    block = Block()
    [(name, cell, found)] = attention_blocks(nn.SequentialCell(block))
    assert name == "0" and found == (block.wq, block.wk, block.wv, block.wo)
    unit = attention_unit("block", (cell, found), rows=16, devices=2)
    assert [param.name for param, _ in unit.layouts] == [block.wq.weight.name, block.wq.bias.name,
                                                         block.wk.weight.name, block.wk.bias.name,
                                                         block.wv.weight.name, block.wo.weight.name]
    assert unit.splittable and not attention_unit("block", (cell, found), rows=16, devices=4).splittable
    assert unit.split == 2 * 1.0 * 16 * 8 * 4  # two all-reduces of the (16, 8) output over 2 devices


def test_cost_model_and_arguments():
    # 4 devices, batch 8: splitting a (256, 16) weight moves 1.5 * 8 * 256 * 4 bytes, replicating it
    # 1.5 * 16 KB: the split is cheaper; an indivisible first dimension stays replicated.
    assert plan_weights({"w": (256, 16), "odd": (6, 16)}, 8, 4, 1e9) == {"w": True, "odd": False}
    with pytest.raises(ValueError, match="parallel_mode"):
        AutoParallel(nn.Dense(2, 2), parallel_mode="auto")


def test_mindspore_path_serves_the_same_class():
    import importlib

    from sporax.compat import install

    install()
    assert importlib.import_module("mindspore.parallel.auto_parallel").AutoParallel is AutoParallel


def test_auto_parallel_context_runs_the_search_before_the_first_compile(results):
    assert results["context"]["losses_equal"]
    assert results["context"]["trained 0.weight"] == "P(('p0', 'p1'), None)"
