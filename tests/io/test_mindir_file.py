"""``load_mindir``/``save_mindir`` on a MindIR that MindSpore 2.10 wrote (tests/fixtures/mindspore-2.10)."""
import os
import stat

import pytest

import sporax as ms
from sporax.io.mindir.proto import ModelProto

MLP = os.path.join(os.path.dirname(__file__), "..", "fixtures", "mindspore-2.10", "mlp.mindir")


def test_load_reads_mindspores_model_proto():
    model = ms.load_mindir(MLP)
    assert isinstance(model, ModelProto)
    # What MindSpore 2.10's own load_mindir reports for this file.
    assert (model.producer_name, model.model_version) == ("MindSpore", "2.10.0")
    assert model.graph.name == "32_1_mlp_SeedMLP_construct_8"
    assert len(model.graph.node) == 21
    assert [p.name.split(":")[-1] for p in model.graph.parameter] == [
        "fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias", "fc3.weight", "fc3.bias"]


def test_save_round_trips_and_appends_the_suffix(tmp_path):
    model = ms.load_mindir(MLP)
    model.graph.name = "edited"
    ms.save_mindir(model, str(tmp_path / "sub" / "copy"))
    path = tmp_path / "sub" / "copy.mindir"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o400
    again = ms.load_mindir(str(path))
    assert again.graph.name == "edited" and again.graph.node == model.graph.node
    assert sorted(os.listdir(tmp_path / "sub")) == ["copy.mindir"]  # no temporary file left


def test_errors(tmp_path):
    with pytest.raises(ValueError, match="failed to parse"):
        ms.load_mindir(str(tmp_path / "missing.mindir"))
    garbage = tmp_path / "garbage.mindir"
    garbage.write_bytes(b"\xff\xfe not a protobuf")
    with pytest.raises(ValueError, match="is not a MindIR|failed to parse"):
        ms.load_mindir(str(garbage))
    with pytest.raises(TypeError, match="must be ModelProto"):
        ms.save_mindir(3, str(tmp_path / "x"))
    with pytest.raises(ValueError, match="not a valid file name"):
        ms.load_mindir("bad name?.mindir")
