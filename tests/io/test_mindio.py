"""MindIO: used when installed; without it, preload reports False as MindSpore does."""
import importlib
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


def test_init_ckpt_file_system_without_mindio_uses_python_files():
    # MindSpore 2.10: a new FileSystem is {'create': open, 'create_args': ('ab',), 'open': open,
    # 'open_args': ('rb',), 'backend': 'basic'}; init_ckpt_file_system returns None, sets the four
    # fields on any object and leaves 'backend' as it was; None raises AttributeError.
    assert vars(mindio.FileSystem()) == {"create": open, "create_args": ("ab",), "open": open,
                                         "open_args": ("rb",), "backend": "basic"}
    target = types.SimpleNamespace(backend="x", create=None)
    serialization = importlib.import_module("sporax.train.serialization")  # mindspore.train.serialization's names
    assert serialization.init_ckpt_file_system(target) is None
    assert vars(target) == {"backend": "x", "create": open, "create_args": ("ab",), "open": open, "open_args": ("rb",)}
    with pytest.raises(AttributeError, match="create"):
        mindio.init_ckpt_file_system(None)


def test_init_ckpt_file_system_uses_an_installed_mindio(monkeypatch):
    fake = types.SimpleNamespace(initialize=lambda server_info: 0, create_file=object(), open_file=object())
    monkeypatch.setitem(sys.modules, "mindio_acp", fake)
    target = mindio.FileSystem()
    mindio.init_ckpt_file_system(target)
    assert (target.create, target.create_args, target.open, target.open_args, target.backend) == (
        fake.create_file, (), fake.open_file, (), "mindio")


def test_train_namespaces_serve_mindspores_names():
    import sporax.train.callback as callback
    from sporax.parallel.replicas import get_ckpt_path_with_strategy
    from sporax.train.ascend_services import export_split_mindir

    serialization = importlib.import_module("sporax.train.serialization")
    assert serialization.get_ckpt_path_with_strategy is get_ckpt_path_with_strategy
    assert serialization.export_split_mindir is export_split_mindir
    assert (callback.FlopsUtilizationCollector, callback.SummaryLandscape, callback.TrainFaultTolerance) == (
        ms.train.FlopsUtilizationCollector, ms.train.SummaryLandscape, ms.train.TrainFaultTolerance)
