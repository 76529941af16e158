"""``unified_safetensors`` on MindSpore 2.10's 4-rank checkpoints (tests/fixtures/parallel/dist_ckpt).

The expected whole tensors are MindSpore's own merge (``expected.npz``, ``merged/<name>``); the file
layout (``part0.safetensors`` + ``param_name_map.json``) is what MindSpore 2.10's
``unified_safetensors`` writes for these inputs.
"""
import json
import os

import numpy as np
import pytest
from safetensors.numpy import load_file, save_file

import sporax as ms

DATA = os.path.join(os.path.dirname(__file__), "..", "fixtures", "parallel", "dist_ckpt")
STRATEGY = os.path.join(DATA, "strategy.ckpt")
EXPECTED = np.load(os.path.join(DATA, "expected.npz"))
NAMES = ("dense.bias", "dense.weight", "scale")


@pytest.fixture
def rank_files(tmp_path):
    source = tmp_path / "src"
    for rank in range(4):
        ms.ckpt_to_safetensors(os.path.join(DATA, f"rank_{rank}.ckpt"), str(source / f"rank_{rank}"))
    return source


def test_merges_the_ranks_as_mindspore(rank_files, tmp_path):
    ms.unified_safetensors(str(rank_files), STRATEGY, str(tmp_path / "out"))
    assert sorted(os.listdir(tmp_path / "out")) == ["param_name_map.json", "part0.safetensors"]
    merged = load_file(str(tmp_path / "out" / "part0.safetensors"))
    assert sorted(merged) == sorted(NAMES)
    for name in NAMES:
        np.testing.assert_array_equal(merged[name], EXPECTED["merged/" + name])
    index = json.loads((tmp_path / "out" / "param_name_map.json").read_text())
    assert index == {"metadata": {"total_size": 132},
                     "weight_map": {name: "part0.safetensors" for name in NAMES}}


def test_choice_func_filters_and_renames(rank_files, tmp_path):
    def choice(name):
        return False if name == "scale" else "model." + name

    ms.unified_safetensors(str(rank_files), STRATEGY, str(tmp_path / "out"), choice_func=choice)
    merged = load_file(str(tmp_path / "out" / "part0.safetensors"))
    assert sorted(merged) == ["model.dense.bias", "model.dense.weight"]
    np.testing.assert_array_equal(merged["model.dense.weight"], EXPECTED["merged/dense.weight"])


def test_entries_without_layout_go_to_hyper_param(rank_files, tmp_path):
    path = rank_files / "rank_0" / "rank_0.safetensors"
    tensors = load_file(str(path))
    tensors["global_step"] = np.array([7], np.int32)
    save_file(tensors, str(path), metadata={"format": "ms"})
    ms.unified_safetensors(str(rank_files), STRATEGY, str(tmp_path / "out"))
    assert load_file(str(tmp_path / "out" / "hyper_param.safetensors"))["global_step"].tolist() == [7]


def test_missing_rank_is_an_error(rank_files, tmp_path):
    for file in os.listdir(rank_files / "rank_3"):
        os.remove(rank_files / "rank_3" / file)
    with pytest.raises(ValueError, match="rank3 is needed"):
        ms.unified_safetensors(str(rank_files), STRATEGY, str(tmp_path / "out"))
    assert not (tmp_path / "out").exists() or not os.listdir(tmp_path / "out")


def test_bad_arguments(tmp_path):
    with pytest.raises(ValueError, match="'src_dir'"):
        ms.unified_safetensors(str(tmp_path / "nowhere"), STRATEGY, str(tmp_path / "out"))
    with pytest.raises(ValueError, match="'split_dst_file'"):
        ms.unified_safetensors(str(tmp_path), STRATEGY, str(tmp_path / "out"), split_dst_file=(3, 2))
