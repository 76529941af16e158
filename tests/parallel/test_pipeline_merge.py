"""merge_pipeline_strategys against MindSpore 2.10's merge of the same stage files
(tests/fixtures/parallel/record_pipeline_merge.py); the merged file reads back as layouts."""
import json
import os

import pytest

import sporax as ms
from sporax.io import wire

HERE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures", "parallel",
                    "pipeline_strategies")


def _fields(path):
    with open(path, "rb") as handle:
        data = handle.read()
    return sorted((number, value if wire_type == 0 else bytes(data[value[0]:value[1]]))
                  for number, wire_type, value, _ in wire.iterate_fields(data))


def test_protobuf_merge_matches_mindspore(tmp_path):
    target = tmp_path / "merged" / "strategy.ckpt"
    ms.merge_pipeline_strategys(os.path.join(HERE, "protobuf"), str(target))
    # MindSpore lists the stage files in directory order; the items are the same.
    assert _fields(str(target)) == _fields(os.path.join(HERE, "merged_mindspore.ckpt"))
    layouts = ms.build_searched_strategy(str(target))
    assert sorted(layouts) == ["0-embedding.weight", "0-fc1.weight", "1-fc2.weight", "1-head.bias"]
    assert list(layouts["1-fc2.weight"].tensor_map[0].dim) == [1, -1]


def test_json_merge_matches_mindspore(tmp_path):
    target = tmp_path / "strategy.json"
    ms.merge_pipeline_strategys(os.path.join(HERE, "json"), str(target))
    with open(target) as handle, open(os.path.join(HERE, "merged_mindspore.json")) as expected:
        assert json.load(handle) == json.load(expected)


def test_errors(tmp_path):
    with pytest.raises(NotADirectoryError):
        ms.merge_pipeline_strategys(str(tmp_path / "missing"), str(tmp_path / "out.ckpt"))
    (tmp_path / "a.ckpt").write_bytes(b"")
    (tmp_path / "b.json").write_text("{}")
    with pytest.raises(ValueError, match="all '.ckpt' or all '.json'"):
        ms.merge_pipeline_strategys(str(tmp_path), str(tmp_path / "out" / "x.ckpt"))
