"""MindIO: used when installed; without it, preload reports False as MindSpore does."""
import sys
import types

import pytest

import sporax as ms
from sporax.io import mindio


def test_preload_without_mindio_is_false():
    assert ms.mindio_preload("net.ckpt") is False
    with pytest.raises(TypeError, match="'ckpt_file_name' should be str"):
        ms.mindio_preload(3)


def test_preload_uses_an_installed_mindio(monkeypatch):
    calls = []
    fake = types.SimpleNamespace(initialize=lambda server_info: calls.append(dict(server_info)) or 0,
                                 preload=calls.append)
    monkeypatch.setitem(sys.modules, "mindio_acp", fake)
    monkeypatch.setattr(mindio, "_server_info", {"memfs.data_block_pool_capacity_in_gb": "100"})
    ms.set_mindio_server_info(8)
    assert ms.mindio_preload("net.ckpt") is True
    assert calls == [{"memfs.data_block_pool_capacity_in_gb": "8"}, "net.ckpt"]


def test_server_info_must_be_positive():
    with pytest.raises(ValueError, match="positive int"):
        ms.set_mindio_server_info(0)
