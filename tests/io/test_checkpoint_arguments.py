"""save_checkpoint / load_checkpoint argument checks: error types and first lines recorded from MindSpore 2.10."""
import os

import numpy as np
import pytest

import sporax as ms
from sporax import nn


@pytest.fixture(name="saved")
def saved_checkpoint(tmp_path):
    net = nn.Dense(3, 2)
    path = str(tmp_path / "net.ckpt")
    ms.save_checkpoint(net, path)
    return net, path


@pytest.mark.parametrize("prefix, error, first_line", [
    (1, TypeError, "For 'load_checkpoint', the type of 'specify_prefix' or 'filter_prefix' must be string, "
                   "list[string] or tuple[string], but got <class 'int'>."),
    ("", ValueError, "For 'load_checkpoint', the value of 'specify_prefix' or 'filter_prefix' can't include ''."),
    ([], ValueError, "For 'load_checkpoint', the argument 'specify_prefix' or 'filter_prefix' can't be empty when "
                     "'specify_prefix' or 'filter_prefix' is list or tuple."),
    (["weight", 2], TypeError, "For 'load_checkpoint', when 'specify_prefix' or 'filter_prefix' is list or tuple, "
                               "the element in it must be string, but got <class 'int'> at index 1."),
])
@pytest.mark.parametrize("argument", ["filter_prefix", "specify_prefix"])
def test_load_checkpoint_prefix_checks(saved, argument, prefix, error, first_line):
    with pytest.raises(error) as caught:
        ms.load_checkpoint(saved[1], **{argument: prefix})
    assert str(caught.value).splitlines()[0] == first_line


def test_load_checkpoint_file_name_type_and_real_path(saved, tmp_path, monkeypatch):
    with pytest.raises(TypeError, match=r"^For 'load_checkpoint', the argument 'ckpt_file_name' must be string, "
                                        r"but got <class 'int'>\.$"):
        ms.load_checkpoint(3)
    with pytest.raises(ValueError, match=r"^For 'load_checkpoint', the checkpoint file should end with '\.ckpt' or "
                                         r"'\.safetensors', please input the correct 'format'\.$"):
        ms.load_checkpoint(saved[1], format="pt")
    # MindSpore names an encrypted file by its real path however it was given
    ms.save_checkpoint(saved[0], str(tmp_path / "enc.ckpt"), enc_key=b"0123456789abcdef")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError) as caught:
        ms.load_checkpoint("enc.ckpt")
    assert str(caught.value).splitlines()[0] == (
        f"Failed to read the checkpoint file {os.path.realpath('enc.ckpt')}. The file may be corrupted, "
        "and the content cannot be parsed.")


@pytest.mark.parametrize("append_dict, first_line", [
    ([1], "For 'save_checkpoint', the argument 'append_dict' must be dict, but got <class 'list'>."),
    ({"x": [1, 2]}, "For 'save_checkpoint', the type of dict 'append_info' must be key: string, value: int, float, "
                    "bool or Generator, but got key: <class 'str'>, value: <class 'list'>"),
    ({1: 2}, "For 'save_checkpoint', the type of dict 'append_info' must be key: string, value: int, float, "
             "bool or Generator, but got key: <class 'int'>, value: <class 'int'>"),
])
def test_save_checkpoint_append_dict_checks(tmp_path, append_dict, first_line):
    with pytest.raises(TypeError) as caught:
        ms.save_checkpoint(nn.Dense(3, 2), str(tmp_path / "a.ckpt"), append_dict=append_dict)
    assert str(caught.value).splitlines()[0] == first_line
    assert not os.listdir(tmp_path)


def test_save_checkpoint_format_check(tmp_path):
    with pytest.raises(ValueError, match=r"^For 'save_checkpoint', the format must be 'safetensors' or 'ckpt', "
                                         r"but got pt\.$"):
        ms.save_checkpoint(nn.Dense(3, 2), str(tmp_path / "a"), format="pt")


def test_append_dict_values_load_with_mindspore_types(tmp_path):
    path = str(tmp_path / "a.ckpt")
    ms.save_checkpoint(nn.Dense(3, 2), path, append_dict={"epoch_num": 5, "lr": 0.1, "tag": "hello",
                                                          "t": ms.Tensor(np.float32(2.5)), "b": True})
    loaded = ms.load_checkpoint(path)
    assert loaded["tag"] == "hello"
    assert [(name, str(loaded[name].dtype)) for name in ("epoch_num", "lr", "t", "b")] == [
        ("epoch_num", "Int64"), ("lr", "Float32"), ("t", "Float32"), ("b", "Bool")]


def test_load_param_into_net_passes_string_entries_of_an_append_dict(tmp_path):
    # MindSpore 2.10: ([], ['tag', 'epoch_num']) -- the str entry load_checkpoint returns is no error
    path = str(tmp_path / "a.ckpt")
    ms.save_checkpoint(nn.Dense(3, 2), path, append_dict={"tag": "hello", "epoch_num": 3})
    assert ms.load_param_into_net(nn.Dense(3, 2), ms.load_checkpoint(path)) == ([], ["tag", "epoch_num"])


def _dense_dict(bias_dtype):
    net = nn.Dense(3, 2)
    values = {param.name: param for param in net.get_parameters()}
    values["bias"] = ms.Parameter(ms.Tensor(np.array([1, 2]).astype(bias_dtype)), name="bias")
    return values


def test_load_param_into_net_converts_int_dtypes_but_not_under_strict_load():
    net = nn.Dense(3, 2)
    net.bias = ms.Parameter(ms.Tensor(np.zeros(2, np.int64)), name="bias")
    assert ms.load_param_into_net(net, _dense_dict(np.int32)) == ([], [])
    assert str(net.bias.dtype) == "Int64" and net.bias.asnumpy().tolist() == [1, 2]
    # MindSpore 2.10, strict_load=True: float16 into float32 is refused
    with pytest.raises(RuntimeError) as caught:
        ms.load_param_into_net(nn.Dense(3, 2), _dense_dict(np.float16), strict_load=True)
    assert str(caught.value).startswith(
        "For 'load_param_into_net', bias in the argument 'net' should have the same type as bias in the argument "
        "'parameter_dict'. but got its type Float32 in the argument 'net' and type Float16 in the argument "
        "'parameter_dict'.")


@pytest.mark.parametrize("net, values, first_line", [
    (1, {}, "For 'load_param_into_net', the argument 'net' should be a Cell, but got <class 'int'>."),
    (nn.Dense(3, 2), [1], "For 'load_param_into_net', the argument 'parameter_dict' should be a dict, "
                          "but got <class 'list'>."),
])
def test_load_param_into_net_argument_checks(net, values, first_line):
    with pytest.raises(TypeError) as caught:
        ms.load_param_into_net(net, values)
    assert str(caught.value).splitlines()[0] == first_line


@pytest.mark.parametrize("call, error", [
    (lambda path: ms.save_checkpoint(nn.Dense(3, 2), path, integrated_save=1), TypeError),
    (lambda path: ms.save_checkpoint(nn.Dense(3, 2), path, async_save=1), TypeError),
    (lambda path: ms.load_checkpoint(path, dec_key="abc"), ValueError),
    (lambda path: ms.load_checkpoint(path, crc_check=1), ValueError),
    (lambda path: ms.load_param_into_net(nn.Dense(3, 2), ms.load_checkpoint(path), strict_load=1), TypeError),
    (lambda path: ms.save_checkpoint(nn.Dense(3, 2), 3), TypeError),
])
def test_argument_types_are_checked(saved, call, error):
    # the error types MindSpore 2.10 raises (save and load went ahead in sporax)
    with pytest.raises(error):
        call(saved[1])


def test_crc_check_of_a_file_without_crc_loads_it(saved):
    # MindSpore 2.10 warns ("the ckpt file do not contain the crc code") and loads the file
    assert list(ms.load_checkpoint(saved[1], crc_check=True)) == ["weight", "bias"]


@pytest.mark.parametrize("save_obj, first_line", [
    (3, "For 'save_checkpoint', the parameter 'save_obj' must be nn.Cell, list or dict, but got <class 'int'>."),
    ({1: ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="a")},
     "For save_checkpoint, when save_obj is made up by dict, the key should be str and"),
])
def test_save_obj_checks(tmp_path, save_obj, first_line):
    # MindSpore 2.10's error type and (start of the) first line; a non-str dict key was an AttributeError
    with pytest.raises(TypeError) as caught:
        ms.save_checkpoint(save_obj, str(tmp_path / "x.ckpt"))
    assert str(caught.value).startswith(first_line)
