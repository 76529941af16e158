"""Distributed checkpoints against MindSpore 2.10's answers on a 4-rank layout, and against NumPy.

tests/fixtures/parallel/record_distributed_checkpoint.py wrote the strategy files (MindSpore's
protobuf and JSON formats), the per-rank checkpoints and expected.npz with MindSpore 2.10.
"""
import importlib.util
import os
import shutil

import numpy as np
import pytest

import sporax as ms
from sporax import Parameter, Tensor

HERE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "parallel")
DATA = os.path.join(HERE, "dist_ckpt")
EXPECTED = np.load(os.path.join(DATA, "expected.npz"))
FILES = [os.path.join(DATA, f"rank_{rank}.ckpt") for rank in range(4)]
STRATEGY = os.path.join(DATA, "strategy.ckpt")
DST_STRATEGY = os.path.join(DATA, "dst_strategy.ckpt")


def _recorder():
    spec = importlib.util.spec_from_file_location("record_dist", os.path.join(HERE, "record_distributed_checkpoint.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


RECORDER = _recorder()
NAMES = ("dense.weight", "dense.bias", "scale")


@pytest.mark.parametrize("file_name", ["strategy.ckpt", "strategy.json"])
def test_build_searched_strategy_reads_both_formats(file_name):
    strategy = ms.build_searched_strategy(os.path.join(DATA, file_name))
    assert sorted(strategy) == sorted(NAMES)
    for name in NAMES:
        layout = strategy[name]
        tensor_map = list(layout.tensor_map[0].dim)
        recorded = EXPECTED["searched/" + name]
        assert list(layout.dev_matrix[0].dim) == list(recorded[0])
        assert tensor_map == list(recorded[1][:len(tensor_map)]) == list(RECORDER.LAYOUTS[name])
        assert layout.field == 0


def test_build_searched_strategy_errors(tmp_path):
    with pytest.raises(TypeError, match="'strategy_filename' should be string"):
        ms.build_searched_strategy(5)
    with pytest.raises(ValueError, match="no such strategy file"):
        ms.build_searched_strategy(str(tmp_path / "missing.ckpt"))
    empty = tmp_path / "empty.ckpt"
    empty.write_bytes(b"")
    with pytest.raises(ValueError, match="should not be empty"):
        ms.build_searched_strategy(str(empty))
    broken = tmp_path / "broken.ckpt"
    broken.write_bytes(b"\x1a\xff\xff")
    with pytest.raises(TypeError, match="json or protobuf"):
        ms.build_searched_strategy(str(broken))
    assert ms.build_searched_strategy(FILES[0]) == {}  # a checkpoint parses but holds no layout (as MindSpore)


@pytest.mark.parametrize("name", NAMES)
def test_merge_sliced_parameter_with_strategy(name):
    strategy = ms.build_searched_strategy(STRATEGY)
    slices = [ms.load_checkpoint(path)[name] for path in FILES]
    merged = ms.merge_sliced_parameter(slices, strategy)
    assert isinstance(merged, Parameter) and merged.name == name
    np.testing.assert_array_equal(merged.asnumpy(), EXPECTED["merged/" + name])
    np.testing.assert_array_equal(merged.asnumpy(), RECORDER.FULL[name])


def test_merge_sliced_parameter_concatenates_without_strategy():
    full = RECORDER.FULL["dense.weight"]
    rows = [Parameter(Tensor(full[i:i + 1]), name="dense.weight") for i in range(4)]
    np.testing.assert_array_equal(ms.merge_sliced_parameter(rows).asnumpy(), EXPECTED["concat/dense.weight"])


def test_merge_sliced_parameter_errors():
    one = Parameter(Tensor(np.ones(2, np.float32)), name="a")
    with pytest.raises(TypeError, match="should be list"):
        ms.merge_sliced_parameter(5)
    with pytest.raises(ValueError, match="should not be empty"):
        ms.merge_sliced_parameter([])
    with pytest.raises(TypeError, match="should be 'Parameter'"):
        ms.merge_sliced_parameter([one, 1])
    with pytest.raises(ValueError, match="same name"):
        ms.merge_sliced_parameter([one, Parameter(Tensor(np.ones(2, np.float32)), name="b")])
    with pytest.raises(KeyError, match="should be a key"):
        ms.merge_sliced_parameter([one], {"b": 1})
    with pytest.raises(TypeError, match="'strategy' should be dict"):
        ms.merge_sliced_parameter([one], 5)
    strategy = ms.build_searched_strategy(STRATEGY)
    bias = Parameter(Tensor(np.ones(3, np.float32)), name="dense.bias")
    with pytest.raises(ValueError, match="device_count is 4"):
        ms.merge_sliced_parameter([bias, bias], strategy)


def _Net():
    return RECORDER.make_net(ms)


def test_load_distributed_checkpoint_merges_by_strategy():
    net = _Net()
    assert ms.load_distributed_checkpoint(net, FILES, train_strategy_filename=STRATEGY) is True
    for name, param in net.parameters_and_names():
        np.testing.assert_array_equal(param.asnumpy(), EXPECTED["loaded/" + name])


def test_load_distributed_checkpoint_predict_strategy_splits_for_the_rank():
    net = _Net()
    # Columns in two over device axis 1 (the first of the matrix): ranks (0, 1) hold the left half.
    predict = {"dense.weight": [[2, 2], [-1, 1]]}
    for rank, columns in ((1, slice(0, 3)), (3, slice(3, 6))):
        params = ms.load_distributed_checkpoint(net, FILES, predict, STRATEGY, rank_id=rank, return_param_dict=True)
        np.testing.assert_array_equal(params["dense.weight"].asnumpy(), RECORDER.FULL["dense.weight"][:, columns])
        np.testing.assert_array_equal(params["dense.bias"].asnumpy(), RECORDER.FULL["dense.bias"])


def test_load_distributed_checkpoint_without_strategy_loads_rank_0(tmp_path):
    net = _Net()
    whole = {"dense.weight": np.full((4, 6), 2.0, np.float32), "dense.bias": np.ones(6, np.float32),
             "scale": np.arange(3, dtype=np.float32)}
    paths = []
    for rank in range(2):
        path = str(tmp_path / f"r{rank}.ckpt")
        ms.save_checkpoint([{"name": k, "data": Tensor(v + rank)} for k, v in whole.items()], path)
        paths.append(path)
    ms.load_distributed_checkpoint(net, paths)
    for name, param in net.parameters_and_names():
        np.testing.assert_array_equal(param.asnumpy(), whole[name])


def test_load_distributed_checkpoint_errors():
    net = _Net()
    with pytest.raises(ValueError, match="valid checkpoint file"):
        ms.load_distributed_checkpoint(net, ["x"])
    with pytest.raises(ValueError, match="'predict_strategy' must be isinstance"):
        ms.load_distributed_checkpoint(net, FILES, predict_strategy=5)
    with pytest.raises(ValueError, match="device count is 4"):
        ms.load_distributed_checkpoint(net, FILES[:2], train_strategy_filename=STRATEGY)
    with pytest.raises(ValueError, match="'format' and 'output_format'"):
        ms.load_distributed_checkpoint(net, FILES, format="xx")
    with pytest.raises(NotImplementedError, match="unified safetensors"):
        ms.load_distributed_checkpoint(net, FILES, unified_safetensors_dir="somewhere")


def test_transform_checkpoints_matches_mindspore(tmp_path):
    for rank, path in enumerate(FILES):
        os.makedirs(tmp_path / "src" / f"rank_{rank}")
        shutil.copy(path, tmp_path / "src" / f"rank_{rank}" / f"checkpoint_{rank}.ckpt")
    ms.transform_checkpoints(str(tmp_path / "src"), str(tmp_path / "dst"), "transformed_", STRATEGY, DST_STRATEGY)
    for rank in range(4):
        loaded = ms.load_checkpoint(str(tmp_path / "dst" / f"rank_{rank}" / f"transformed_{rank}.ckpt"))
        assert sorted(loaded) == sorted(NAMES)
        for name in NAMES:
            np.testing.assert_array_equal(loaded[name].asnumpy(), EXPECTED[f"transformed/{rank}/{name}"])
    with pytest.raises(TypeError, match="ckpt_prefix should be a str"):
        ms.transform_checkpoints(str(tmp_path / "src"), str(tmp_path / "x"), 5)
    with pytest.raises(ValueError, match="can not be empty"):
        os.makedirs(tmp_path / "nothing")
        ms.transform_checkpoints(str(tmp_path / "nothing"), str(tmp_path / "x"), "p")


@pytest.mark.parametrize("label", ["fwd", "back"])
@pytest.mark.parametrize("rank", range(4))
def test_rank_list_for_transform_matches_mindspore(label, rank):
    src, dst = (STRATEGY, DST_STRATEGY) if label == "fwd" else (DST_STRATEGY, STRATEGY)
    assert ms.rank_list_for_transform(rank, src, dst) == list(EXPECTED[f"rank_list/{label}/{rank}"])


def test_rank_list_for_transform_with_whole_tensors():
    assert ms.rank_list_for_transform(0, None, STRATEGY) == list(EXPECTED["rank_list/src_whole/0"]) == [0]
    assert ms.rank_list_for_transform(0, STRATEGY, None) == list(EXPECTED["rank_list/dst_whole/0"]) == [3, 2, 1, 0]


@pytest.mark.parametrize("rank", range(4))
def test_transform_checkpoint_by_rank_from_the_listed_ranks(tmp_path, rank):
    needed = ms.rank_list_for_transform(rank, STRATEGY, DST_STRATEGY)
    target = str(tmp_path / f"rank{rank}.ckpt")
    ms.transform_checkpoint_by_rank(rank, {r: FILES[r] for r in needed}, target, STRATEGY, DST_STRATEGY)
    loaded = ms.load_checkpoint(target)
    for name in NAMES:
        np.testing.assert_array_equal(loaded[name].asnumpy(), EXPECTED[f"by_rank/{rank}/{name}"])


def test_transform_checkpoint_by_rank_errors(tmp_path):
    target = str(tmp_path / "out.ckpt")
    with pytest.raises(ValueError, match="do not hold every slice"):
        ms.transform_checkpoint_by_rank(0, {0: FILES[0]}, target, STRATEGY, DST_STRATEGY)
    with pytest.raises(TypeError, match="checkpoint_files_map"):
        ms.transform_checkpoint_by_rank(0, [FILES[0]], target, STRATEGY, DST_STRATEGY)
    with pytest.raises(TypeError, match="save_checkpoint_file_name"):
        ms.transform_checkpoint_by_rank(0, {0: FILES[0]}, "out.bin", STRATEGY, DST_STRATEGY)


def test_load_segmented_checkpoints(tmp_path):
    ms.save_checkpoint([{"name": "a", "data": Tensor(np.arange(3, dtype=np.float32))}], str(tmp_path / "part0.ckpt"))
    ms.save_checkpoint([{"name": "b", "data": Tensor(np.ones((2, 2), np.float32))}], str(tmp_path / "part1.ckpt"))
    loaded = ms.load_segmented_checkpoints(str(tmp_path))
    assert sorted(loaded) == ["a", "b"]
    np.testing.assert_array_equal(loaded["a"].asnumpy(), np.arange(3, dtype=np.float32))
    with pytest.raises(TypeError, match="ckpt_file_dir should be a str"):
        ms.load_segmented_checkpoints(5)
    with pytest.raises(ValueError, match="Or it's not a directory"):
        ms.load_segmented_checkpoints(str(tmp_path / "part0.ckpt"))


def test_convert_names_are_the_transform_functions():
    import sporax.parallel as parallel

    assert parallel.convert_checkpoints is parallel.transform_checkpoints
    assert parallel.convert_checkpoint_by_rank is parallel.transform_checkpoint_by_rank
    assert parallel.rank_list_for_convert(2, STRATEGY, DST_STRATEGY) == list(EXPECTED["rank_list/fwd/2"])


def test_restore_group_info_list(tmp_path):
    ranks = ms.restore_group_info_list(os.path.join(DATA, "group_info.pb"))
    assert ranks == list(EXPECTED["group_info"]) == [0, 2, 4, 6]
    with pytest.raises(TypeError, match="should be str"):
        ms.restore_group_info_list(5)
    with pytest.raises(ValueError, match="no such group information file"):
        ms.restore_group_info_list(str(tmp_path / "missing.pb"))
    no_list = tmp_path / "groups_only.pb"
    no_list.write_bytes(b"\x0a\x00")  # one empty ParallelGroupItem, no ckpt_restore_rank_list
    with pytest.raises(ValueError, match="no restore rank list"):
        ms.restore_group_info_list(str(no_list))
