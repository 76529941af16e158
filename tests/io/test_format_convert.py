"""ckpt_to_safetensors / safetensors_to_ckpt on checkpoints MindSpore 2.10 wrote."""
import os
import shutil

import numpy as np
import pytest
from safetensors import safe_open

import sporax as ms

FIXTURES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures", "mindspore-2.10")
CKPT = os.path.join(FIXTURES, "lenet5.ckpt")
SAFETENSORS = os.path.join(FIXTURES, "lenet5.safetensors")


def _safetensors(path):
    with safe_open(path, "np") as handle:
        return handle.metadata(), {key: handle.get_tensor(key) for key in handle.keys()}


def test_ckpt_to_safetensors_matches_mindspore_file(tmp_path):
    ms.ckpt_to_safetensors(CKPT, str(tmp_path))
    metadata, tensors = _safetensors(str(tmp_path / "lenet5.safetensors"))
    want_metadata, want = _safetensors(SAFETENSORS)
    assert metadata == want_metadata and sorted(tensors) == sorted(want)
    for name, array in want.items():
        np.testing.assert_array_equal(tensors[name], array)


def test_safetensors_to_ckpt_round_trip_with_name_map(tmp_path):
    ms.safetensors_to_ckpt(SAFETENSORS, str(tmp_path), name_map={"fc3.bias": "head.bias"})
    converted = ms.load_checkpoint(str(tmp_path / "lenet5.ckpt"))
    original = ms.load_checkpoint(CKPT)
    assert set(converted) == (set(original) - {"fc3.bias"}) | {"head.bias"}
    np.testing.assert_array_equal(converted["head.bias"].asnumpy(), original["fc3.bias"].asnumpy())


def test_rank_directories_and_regex(tmp_path):
    source = tmp_path / "ckpts"
    for rank in ("rank_0", "rank_1"):
        (source / rank).mkdir(parents=True)
        shutil.copy(CKPT, source / rank / "net_a.ckpt")
        shutil.copy(CKPT, source / rank / "net_b.ckpt")
    ms.ckpt_to_safetensors(str(source), str(tmp_path / "out"), file_name_regex="_b")
    assert sorted(os.listdir(tmp_path / "out")) == ["rank_0", "rank_1"]
    assert os.listdir(tmp_path / "out" / "rank_1") == ["net_b.safetensors"]
    ms.ckpt_to_safetensors(str(source))
    assert sorted(os.listdir(source / "rank_0")) == ["net_a.ckpt", "net_a.safetensors", "net_b.ckpt",
                                                     "net_b.safetensors"]


def test_errors(tmp_path):
    with pytest.raises(ValueError, match="valid path"):
        ms.ckpt_to_safetensors(str(tmp_path / "missing.ckpt"))
    with pytest.raises(ValueError, match=r"\.ckpt file"):
        ms.ckpt_to_safetensors(SAFETENSORS)
    with pytest.raises(ValueError, match="rank"):
        ms.safetensors_to_ckpt(str(tmp_path))
    with pytest.raises(ValueError, match="directory"):
        ms.ckpt_to_safetensors(CKPT, str(tmp_path / "out.safetensors"))


def test_async_save_status_and_type_names(tmp_path):
    import threading

    from sporax.io import tensor_to_np_type
    from sporax.io.atomic import background_saves

    assert tensor_to_np_type("Float32") is np.float32 and tensor_to_np_type("Int8") is np.int8
    assert tensor_to_np_type("Bool") is np.bool_ and tensor_to_np_type("str") == "U"
    assert tensor_to_np_type("Float128") is None
    release = threading.Event()
    background_saves.start(release.wait)
    try:
        assert ms.async_ckpt_thread_status() is True
    finally:
        release.set()
        background_saves.wait()
    assert ms.async_ckpt_thread_status() is False
