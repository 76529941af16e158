"""save_checkpoint / load_checkpoint / load_param_into_net against MindSpore 2.10's files."""
import os
import shutil

import numpy as np
import pytest

import sporax as ms
from sporax import nn
from tests.io.fixture_nets import FIXTURES, build, fixture_path

NETS = ["mlp", "lenet5", "small_cnn"]


@pytest.mark.parametrize("name", NETS)
@pytest.mark.parametrize("suffix", [".ckpt", ".safetensors"])
def test_fixture_loads_and_reproduces_outputs(name, suffix):
    net = build(name)
    fmt = "ckpt" if suffix == ".ckpt" else "safetensors"
    params = ms.load_checkpoint(fixture_path(name + suffix), format=fmt)
    assert all(isinstance(p, ms.Parameter) and p.name == key for key, p in params.items())
    assert ms.load_param_into_net(net, params) == ([], [])
    io = np.load(fixture_path(name + "_io.npz"))
    y = net(ms.Tensor(io["x"])).asnumpy()
    np.testing.assert_allclose(y, io["y"], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", NETS)
def test_saved_checkpoint_is_byte_identical(name, tmp_path):
    net = build(name)
    ms.load_checkpoint(fixture_path(name + ".ckpt"), net=net)
    ms.save_checkpoint(net, str(tmp_path / name))
    with open(tmp_path / (name + ".ckpt"), "rb") as mine, open(fixture_path(name + ".ckpt"), "rb") as theirs:
        assert mine.read() == theirs.read()
    ms.save_checkpoint(net, str(tmp_path / name), format="safetensors")
    with open(tmp_path / (name + ".safetensors"), "rb") as mine:
        with open(fixture_path(name + ".safetensors"), "rb") as theirs:
            assert mine.read() == theirs.read()


def test_train_wrappers_add_no_prefix(tmp_path):
    net = build("mlp")
    wrapped = nn.WithLossCell(net, nn.MSELoss())
    ms.load_checkpoint(fixture_path("mlp.ckpt"), net=net)
    ms.save_checkpoint(wrapped, str(tmp_path / "wrapped.ckpt"))
    assert list(ms.load_checkpoint(str(tmp_path / "wrapped.ckpt"))) == [
        "fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias", "fc3.weight", "fc3.bias"]


def test_append_dict_fixture():
    loaded = ms.load_checkpoint(fixture_path("mlp_append_dict.ckpt"))
    assert list(loaded)[-2:] == ["epoch_num", "step_num"]
    assert loaded["epoch_num"].dtype == ms.int64 and loaded["epoch_num"].shape == ()
    assert int(loaded["step_num"].asnumpy()) == 96
    assert ms.load_param_into_net(build("mlp"), loaded) == ([], ["epoch_num", "step_num"])


def test_list_of_dicts_and_mixed_fixture(tmp_path):
    loaded = ms.load_checkpoint(fixture_path("list_of_dicts.ckpt"))
    assert list(loaded) == ["w", "b"] and loaded["b"].dtype == ms.int32
    mixed = ms.load_checkpoint(fixture_path("append_mixed.ckpt"))
    assert mixed["note"] == "héllo" and mixed["use_amp"].dtype == ms.bool_
    assert mixed["lr"].dtype == ms.float32
    data = [{"name": "w", "data": loaded["w"]}]
    ms.save_checkpoint(data, str(tmp_path / "mixed"), append_dict={"lr": 0.01, "use_amp": True, "note": "héllo"})
    with open(tmp_path / "mixed.ckpt", "rb") as mine, open(fixture_path("append_mixed.ckpt"), "rb") as theirs:
        assert mine.read() == theirs.read()


def test_crc_and_encrypted_fixtures(tmp_path):
    reference = {k: v.asnumpy() for k, v in ms.load_checkpoint(fixture_path("mlp.ckpt")).items()}
    crc = ms.load_checkpoint(fixture_path("mlp_crc.ckpt"), crc_check=True)
    for mode in ["AES-GCM", "AES-CBC"]:
        name = "mlp_" + mode.lower().replace("-", "_") + ".ckpt"
        decrypted = ms.load_checkpoint(fixture_path(name), dec_key=b"0123456789abcdef", dec_mode=mode)
        for key, value in reference.items():
            np.testing.assert_array_equal(decrypted[key].asnumpy(), value)
            np.testing.assert_array_equal(crc[key].asnumpy(), value)
    with pytest.raises(ValueError, match="encrypted"):
        ms.load_checkpoint(fixture_path("mlp_aes_gcm.ckpt"))
    ms.save_checkpoint(build("mlp"), str(tmp_path / "c.ckpt"), crc_check=True)
    path = tmp_path / "c.ckpt"
    os.chmod(path, 0o600)
    data = bytearray(path.read_bytes())
    data[200] ^= 1
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="CRC check failed"):
        ms.load_checkpoint(str(path), crc_check=True)


def test_filters_and_choice(tmp_path):
    path = fixture_path("lenet5.ckpt")
    assert list(ms.load_checkpoint(path, filter_prefix="fc")) == ["conv1.weight", "conv2.weight"]
    assert list(ms.load_checkpoint(path, specify_prefix=["conv1", "fc3"])) == [
        "conv1.weight", "fc3.weight", "fc3.bias"]
    assert list(ms.load_checkpoint(path, choice_func=lambda n: n.endswith("bias"))) == [
        "fc1.bias", "fc2.bias", "fc3.bias"]
    ms.save_checkpoint(build("lenet5"), str(tmp_path / "x"), choice_func=lambda n: n.startswith("conv"))
    assert list(ms.load_checkpoint(str(tmp_path / "x.ckpt"))) == ["conv1.weight", "conv2.weight"]


def test_load_param_into_net_errors_and_casts():
    net = nn.Dense(3, 2)
    with pytest.raises(RuntimeError, match="same shape"):
        ms.load_param_into_net(net, {"weight": ms.Parameter(ms.Tensor(np.ones((3, 3), np.float32)), "weight")})
    with pytest.raises(RuntimeError, match="same type"):
        ms.load_param_into_net(net, {"weight": ms.Parameter(ms.Tensor(np.ones((2, 3), np.int32)), "weight")})
    result = ms.load_param_into_net(net, {"weight": ms.Parameter(ms.Tensor(np.ones((2, 3))), "weight"),
                                          "extra": ms.Parameter(ms.Tensor(1.0), "extra")})
    assert result == (["bias"], ["extra"])
    assert net.weight.dtype == ms.float32 and net.weight.asnumpy().sum() == 6


def test_file_names_and_errors(tmp_path):
    net = nn.Dense(3, 2)
    ms.save_checkpoint(net, str(tmp_path / "a"))
    assert (tmp_path / "a.ckpt").exists()
    assert oct(os.stat(tmp_path / "a.ckpt").st_mode)[-3:] == "400"
    ms.save_checkpoint(net, str(tmp_path / "a"))  # overwriting a read-only file works
    with pytest.raises(ValueError, match="does not exist"):
        ms.load_checkpoint(str(tmp_path / "missing.ckpt"))
    with pytest.raises(ValueError, match="format"):
        ms.load_checkpoint(str(tmp_path / "a.txt"))
    bad = tmp_path / "bad.ckpt"
    bad.write_bytes(b"\x0a\x50garbage")
    with pytest.raises(ValueError, match=r"bad.ckpt: byte 0"):
        ms.load_checkpoint(str(bad))
    with pytest.raises(TypeError, match="save_obj"):
        ms.save_checkpoint(42, str(tmp_path / "b"))


def test_async_save_runs_in_background_and_is_awaited(tmp_path):
    net = nn.Dense(300, 300)
    for step in range(3):
        ms.save_checkpoint(net, str(tmp_path / "async"), async_save=True, append_dict={"step": step})
    loaded = ms.load_checkpoint(str(tmp_path / "async.ckpt"))
    assert int(loaded["step"].asnumpy()) == 2
    np.testing.assert_array_equal(loaded["weight"].asnumpy(), net.weight.asnumpy())


def test_roundtrip_into_fresh_net_keeps_outputs(tmp_path):
    net = build("small_cnn")
    ms.load_checkpoint(fixture_path("small_cnn.ckpt"), net=net)
    ms.save_checkpoint(net, str(tmp_path / "cnn.ckpt"))
    fresh = build("small_cnn")
    ms.load_checkpoint(str(tmp_path / "cnn.ckpt"), net=fresh)
    x = ms.Tensor(np.load(fixture_path("small_cnn_io.npz"))["x"])
    np.testing.assert_array_equal(fresh(x).asnumpy(), net(x).asnumpy())


def test_mindspore_mindir_weights_readable():
    graph = ms.load(fixture_path("lenet5.mindir"))
    reference = ms.load_checkpoint(fixture_path("lenet5.ckpt"))
    assert set(graph.parameters) == set(reference)
    for key, value in reference.items():
        np.testing.assert_array_equal(graph.parameters[key], value.asnumpy())
    io = np.load(fixture_path("lenet5_io.npz"))  # and the graph runs (tests/io/mindir has the rest)
    np.testing.assert_allclose(nn.GraphCell(graph)(ms.Tensor(io["x"])).asnumpy(), io["y"], rtol=1e-4, atol=1e-5)


def test_list_of_parameters_saves_under_their_names(tmp_path):
    # MindSpore 2.10's save_checkpoint example saves net.trainable_params() with a choice_func.
    net = nn.SequentialCell([nn.Dense(2, 3), nn.Dense(3, 1)])
    path = str(tmp_path / "list.ckpt")
    ms.save_checkpoint(net.trainable_params(), path, choice_func=lambda name: name.startswith("0."))
    loaded = ms.load_checkpoint(path)
    assert sorted(loaded) == ["0.bias", "0.weight"]
    np.testing.assert_array_equal(loaded["0.weight"].asnumpy(), net[0].weight.asnumpy())
    # MindSpore 2.10 refuses a list that mixes Parameters with anything else.
    with pytest.raises(TypeError, match="Parameters only"):
        ms.save_checkpoint(net.trainable_params() + [{"name": "c", "data": ms.Tensor(np.ones(1))}], path)


def test_get_merged_param_data_gives_the_whole_parameter_on_one_process():
    # mindspore.train.serialization._get_merged_param_data, as checkpoint callbacks outside MindSpore call
    # it for every Parameter the layout dict names: one process holds each Parameter whole.
    from sporax.io import _get_merged_param_data

    net = nn.Dense(3, 2)
    data = ms.Tensor(net.weight.asnumpy())
    layout = {"weight": object()}
    assert _get_merged_param_data(net, layout, "weight", data, True) is data
    np.testing.assert_array_equal(_get_merged_param_data(net, layout, "weight", data, False).asnumpy(),
                                  net.weight.asnumpy())
    assert _get_merged_param_data(net, {}, "weight", data, False) is data
    with pytest.raises(ValueError, match="no Parameter named 'other'"):
        _get_merged_param_data(net, {"other": object()}, "other", data, False)


def test_load_dismatch_prefix_params_strips_a_wrapper_prefix_as_mindspore_does():
    # mindone's load_param_into_net_with_filter calls these internals; results recorded from MindSpore 2.10:
    # each prefix found ('backbone.', then 'other.') loads the missing Parameters it names.
    from sporax.io import _load_dismatch_prefix_params, _update_param

    net = nn.SequentialCell([nn.Dense(2, 3), nn.Dense(3, 1)])
    entries = {"backbone.0.weight": ms.Parameter(ms.Tensor(np.full((3, 2), 2.0, np.float32))),
               "backbone.0.bias": ms.Parameter(ms.Tensor(np.full((3,), 3.0, np.float32))),
               "other.1.weight": ms.Parameter(ms.Tensor(np.full((1, 3), 4.0, np.float32)))}
    missing = [parameter.name for parameter in net.get_parameters()]
    _load_dismatch_prefix_params(net, entries, missing, False)
    assert missing == ["1.bias"]
    np.testing.assert_array_equal(net[0].weight.asnumpy(), np.full((3, 2), 2.0))
    np.testing.assert_array_equal(net[0].bias.asnumpy(), np.full((3,), 3.0))
    np.testing.assert_array_equal(net[1].weight.asnumpy(), np.full((1, 3), 4.0))

    parameter = ms.Parameter(ms.Tensor(np.zeros((2,), np.float32)), name="p")
    _update_param(parameter, ms.Parameter(ms.Tensor(np.array([1, 2], np.float16))), False)
    assert parameter.dtype == ms.float32
    np.testing.assert_array_equal(parameter.asnumpy(), [1.0, 2.0])
    with pytest.raises(RuntimeError, match="p in the argument 'net' should have the same shape"):
        _update_param(parameter, ms.Parameter(ms.Tensor(np.zeros(3, np.float32))), False)


@pytest.mark.parametrize("strict_load", [False, True])
def test_load_param_into_net_falls_back_to_a_wrapper_prefix(strict_load):
    # YOLOX's eval loads 'ema.network.<name>' entries into the bare network: MindSpore 2.10 strips the prefix
    # unless strict_load, and still lists the entries it loaded that way in ckpt_not_load (recorded results).
    net = nn.SequentialCell([nn.Dense(2, 3), nn.Dense(3, 1)])
    initial = net[0].weight.asnumpy().copy()
    entries = {"0.bias": ms.Parameter(ms.Tensor(np.full((3,), 1.0, np.float32)), name="0.bias"),
               "ema.network.0.weight": ms.Parameter(ms.Tensor(np.full((3, 2), 2.0, np.float32)), name="a"),
               "ema.network.1.weight": ms.Parameter(ms.Tensor(np.full((1, 3), 4.0, np.float32)), name="b"),
               "step": ms.Parameter(ms.Tensor(np.array([5], np.int32)), name="step")}
    result = ms.load_param_into_net(net, entries, strict_load=strict_load)
    assert result[1] == ["ema.network.0.weight", "ema.network.1.weight", "step"]
    np.testing.assert_array_equal(net[0].bias.asnumpy(), np.ones(3))
    if strict_load:
        assert result[0] == ["0.weight", "1.weight", "1.bias"]
        np.testing.assert_array_equal(net[0].weight.asnumpy(), initial)
    else:
        assert result[0] == ["1.bias"]
        np.testing.assert_array_equal(net[0].weight.asnumpy(), np.full((3, 2), 2.0))
        np.testing.assert_array_equal(net[1].weight.asnumpy(), np.full((1, 3), 4.0))


def test_bfloat16_safetensors_load(tmp_path):
    # MindSpore 2.10 CPU writes a bfloat16 Parameter as BF16 in safetensors and loads it back with its values
    # (recorded: p_bf16 BFloat16 [1.5, -2.25, 3.0]); safetensors.numpy alone refuses BF16
    params = {"p_bf16": ms.Parameter(ms.Tensor(np.array([1.5, -2.25, 3.0], np.float32), ms.bfloat16), name="p_bf16"),
              "p_i8": ms.Parameter(ms.Tensor(np.array([-3, 7], np.int8)), name="p_i8")}
    ms.save_checkpoint(list(params.values()), str(tmp_path / "st.safetensors"), format="safetensors")
    loaded = ms.load_checkpoint(str(tmp_path / "st.safetensors"), format="safetensors")
    assert loaded["p_bf16"].dtype == ms.bfloat16 and loaded["p_i8"].dtype == ms.int8
    np.testing.assert_array_equal(loaded["p_bf16"].float().asnumpy(), [1.5, -2.25, 3.0])
    np.testing.assert_array_equal(loaded["p_i8"].asnumpy(), [-3, 7])


@pytest.mark.parametrize("dec_key, first", [
    (None, "The file may be corrupted, and the content cannot be parsed."),
    (b"fedcba9876543210", "The file may be encrypted or tempered with, please pass in the correct 'dec_key' or "
                          "check the file integrity.")])
def test_encrypted_checkpoint_without_its_key_is_mindspores_value_error(dec_key, first):
    # first lines recorded on MindSpore 2.10 CPU, loading its own AES-GCM checkpoint without / with a wrong key
    file_name = fixture_path("mlp_aes_gcm.ckpt")
    with pytest.raises(ValueError) as caught:
        ms.load_checkpoint(file_name, dec_key=dec_key, dec_mode="AES-GCM")
    # MindSpore names the file by its real path
    assert str(caught.value).splitlines()[0] == (f"Failed to read the checkpoint file {os.path.realpath(file_name)}. "
                                                 f"{first}")


def test_save_into_a_missing_folder_is_file_not_found(tmp_path):
    # MindSpore 2.10 CPU: FileNotFoundError "[Errno 2] No such file or directory: ..." and no folder or file made
    with pytest.raises(FileNotFoundError, match=r"\[Errno 2\] No such file or directory"):
        ms.save_checkpoint(build("mlp"), str(tmp_path / "no" / "such" / "x.ckpt"))
    assert os.listdir(tmp_path) == []
