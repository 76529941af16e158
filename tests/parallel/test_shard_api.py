"""Primitive.shard, Layout, Cell.shard and ms.shard on one device: MindSpore 2.10's checks and records.

The expected answers were recorded from MindSpore 2.10 by
tests/fixtures/parallel/record_shard_checks.py (the same expressions evaluated there).
Multi-device behaviour (constraints, collectives, values) is in test_shard_devices.py.
"""
import importlib.util
import json
import os

import numpy as np
import pytest

import sporax as ms
from sporax import Layout, Parameter, Tensor, nn, ops

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "fixtures", "parallel")


def _recorder():
    spec = importlib.util.spec_from_file_location("record_shard_checks",
                                                  os.path.join(FIXTURES, "record_shard_checks.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


RECORDER = _recorder()
with open(os.path.join(FIXTURES, "shard_checks.json")) as _handle:
    EXPECTED = json.load(_handle)


@pytest.mark.parametrize("case", sorted(RECORDER.CASES))
def test_matches_mindspore(case):
    namespace = {"ops": ops, "Layout": Layout}
    assert RECORDER.evaluate(namespace, {case: RECORDER.CASES[case]})[case] == EXPECTED[case]


def test_layout_call_records_map_on_the_layout_and_returns_a_copy():
    layout = Layout((2, 2, 2), ("dp", "sp", "mp"))
    first = layout("dp", "sp")
    assert first is not layout
    assert layout.to_dict()["tensor_map"] == (2, 1)
    layout("mp", "None")
    assert first.to_dict()["tensor_map"] == (2, 1)
    assert layout.to_dict()["tensor_map"] == (0, -1)


def test_layout_partition_spec():
    layout = Layout((2, 2, 2), ("dp", "sp", "mp"))
    assert layout(("dp", "sp"), "None").partition_spec() == (("dp", "sp"), None)
    assert layout("mp", "dp").partition_spec() == ("mp", "dp")


def test_public_paths():
    import sporax.parallel as parallel

    assert ms.Layout is parallel.Layout
    assert ms.shard is parallel.shard
    for name in ("load_distributed_checkpoint", "merge_sliced_parameter", "build_searched_strategy",
                 "transform_checkpoints", "transform_checkpoint_by_rank", "rank_list_for_transform"):
        assert getattr(ms, name) is getattr(parallel, name)


class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.ones((2, 2), np.float32)), name="w")
        self.matmul = ops.MatMul().shard(((2, 1), (1, 1)))

    def construct(self, x):
        return self.matmul(x, self.w)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_sharded_primitive_runs_normally_on_one_device(mode):
    # A strategy in STAND_ALONE mode is recorded but changes nothing (as MindSpore).
    ms.set_context(mode=mode)
    try:
        net = _Net()
        x = np.arange(4, dtype=np.float32).reshape(2, 2)
        np.testing.assert_allclose(net(Tensor(x)).asnumpy(), x @ np.ones((2, 2), np.float32))
        assert type(net.matmul).__name__ == "MatMul" and isinstance(net.matmul, ops.MatMul)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_sharded_primitive_pickles():
    import pickle

    matmul = ops.MatMul(transpose_b=True).shard(((2, 1), (1, 1)))
    again = pickle.loads(pickle.dumps(matmul))
    assert type(again) is type(matmul) and again.attrs == matmul.attrs
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    np.testing.assert_allclose(again(Tensor(a), Tensor(a)).asnumpy(), a @ a.T)


def test_shard_on_one_device_returns_fn_and_cell_shard_does_nothing():
    # MindSpore: with a group size of 1, ms.shard returns fn and Cell.shard returns None, unchecked.
    def function(x):
        return x

    assert ms.shard(function, ((2, 1),)) is function
    assert ms.shard(function, 5) is function
    net = _Net()
    assert net.shard(((2, 1),)) is None
    assert net.shard(5) is None
    assert net._hooks is None


def test_more_devices_asked_than_visible_says_how_to_get_them():
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL, device_num=4)
    try:
        with pytest.raises(RuntimeError, match="xla_force_host_platform_device_count=4"):
            _Net()(Tensor(np.ones((2, 2), np.float32)))
    finally:
        ms.reset_auto_parallel_context()
        ms.set_context(mode=ms.PYNATIVE_MODE)
