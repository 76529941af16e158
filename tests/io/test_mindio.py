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
    # MindSpore 2.10's messages: ValueError for 0, TypeError for a float.
    with pytest.raises(ValueError, match="must be int and must > 0, but got '0' with type 'int'"):
        ms.set_mindio_server_info(0)
    with pytest.raises(TypeError, match="must be int, but got 'float'"):
        ms.set_mindio_server_info(1.5)
