"""The ``.ckpt`` wire format, safetensors and encryption against files written by MindSpore 2.10."""
import binascii
import os
import struct

import numpy as np
import pytest

from sporax.io import ckpt_codec, encryption, safetensors_codec

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "fixtures", "mindspore-2.10")
PLAIN = ["mlp", "lenet5", "small_cnn", "list_of_dicts", "mlp_append_dict", "append_mixed"]


def read(name):
    with open(os.path.join(FIXTURES, name), "rb") as handle:
        return handle.read()


@pytest.mark.parametrize("name", PLAIN)
def test_decode_then_encode_is_byte_identical(name):
    data = read(name + ".ckpt")
    values = ckpt_codec.decode(data, name)
    assert ckpt_codec.encode(list(values.items())) == data


@pytest.mark.parametrize("name", ["mlp", "lenet5", "small_cnn"])
def test_values_match_the_params_npz(name):
    values = ckpt_codec.decode(read(name + ".ckpt"), name)
    params = np.load(os.path.join(FIXTURES, name + "_params.npz"))
    assert list(values) == [key for key in values if key in params.files]
    assert set(values) == set(params.files)
    for key in params.files:
        np.testing.assert_array_equal(values[key], params[key])
        assert values[key].dtype == np.float32


def test_list_of_dicts_documented_bytes():
    data = read("list_of_dicts.ckpt")
    assert data[:6].hex() == "0a2c0a0177" + "12"
    values = ckpt_codec.decode(data, "list_of_dicts")
    np.testing.assert_array_equal(values["w"], np.arange(6, dtype=np.float32).reshape(2, 3) * 0.5)
    assert values["b"].dtype == np.int32 and values["b"].tolist() == [1, 2, 3]


def test_append_dict_typing_and_strings():
    values = ckpt_codec.decode(read("append_mixed.ckpt"), "append_mixed")
    assert values["lr"].dtype == np.float32 and values["lr"].shape == ()
    assert values["lr"] == np.float32(0.01)
    assert values["use_amp"].dtype == np.bool_ and bool(values["use_amp"])
    assert values["note"] == "héllo"
    appended = ckpt_codec.decode(read("mlp_append_dict.ckpt"), "mlp_append_dict")
    assert appended["epoch_num"].dtype == np.int64 and int(appended["epoch_num"]) == 3
    assert int(appended["step_num"]) == 96


def test_crc_trailer_matches_mindspore():
    with_crc = read("mlp_crc.ckpt")
    assert ckpt_codec.add_crc(read("mlp.ckpt")) == with_crc
    assert ckpt_codec.strip_crc(with_crc, True, "mlp_crc.ckpt") == read("mlp.ckpt")
    damaged = bytearray(with_crc)
    damaged[100] ^= 0xFF
    with pytest.raises(ValueError, match="CRC check failed"):
        ckpt_codec.strip_crc(bytes(damaged), True, "mlp_crc.ckpt")
    assert int.from_bytes(with_crc[-10:], "big") == binascii.crc32(read("mlp.ckpt"))


@pytest.mark.parametrize("mode", ["AES-GCM", "AES-CBC"])
def test_decrypts_mindspore_files(mode):
    data = read("mlp_" + mode.lower().replace("-", "_") + ".ckpt")
    assert encryption.is_encrypted(data)
    assert encryption.decrypt(data, b"0123456789abcdef", mode, "f") == read("mlp.ckpt")


@pytest.mark.parametrize("mode", ["AES-GCM", "AES-CBC", "SM4-CBC"])
def test_encrypt_layout_roundtrip(mode, monkeypatch):
    # A fixed IV: with a random one, a wrong CBC key yields valid padding (so no error) once in ~256 runs.
    monkeypatch.setattr(encryption.os, "urandom", lambda size: bytes(range(size)))
    plain = read("mlp.ckpt")
    key = b"0123456789abcdef"
    sealed = encryption.encrypt(plain, key, mode)
    assert struct.unpack_from("<I", sealed)[0] == encryption.MAGIC[mode]
    assert encryption.decrypt(sealed, key, mode, "f") == plain
    with pytest.raises(ValueError, match="decryption of the block at byte 0 failed"):
        encryption.decrypt(sealed, b"fedcba9876543210", mode, "f")


def test_wrong_mode_is_named():
    data = read("mlp_aes_gcm.ckpt")
    with pytest.raises(ValueError, match="encrypted with AES-GCM"):
        encryption.decrypt(data, b"0123456789abcdef", "AES-CBC", "f")


@pytest.mark.parametrize("cut", [1, 7, 40, 1000, 57027])
def test_truncated_file_names_byte_offset(cut):
    data = read("mlp.ckpt")[:cut]
    with pytest.raises(ValueError, match=r"byte \d+"):
        ckpt_codec.decode(data, "mlp.ckpt")


def test_random_garbage_never_crashes_or_hangs():
    rng = np.random.default_rng(0)
    original = read("lenet5.ckpt")
    for _ in range(200):
        data = bytearray(original[: rng.integers(1, 3000)])
        for position in rng.integers(0, len(data), size=5):
            data[position] = rng.integers(0, 256)
        try:
            ckpt_codec.decode(bytes(data), "x.ckpt")
        except ValueError as error:
            assert "x.ckpt" in str(error)


def test_empty_tensors_are_dropped_and_big_ones_split(monkeypatch):
    monkeypatch.setattr(ckpt_codec, "SPLIT_BYTES", 64)
    big = np.arange(40, dtype=np.float32).reshape(4, 10)  # 160 bytes -> 64 + 64 + 32
    data = ckpt_codec.encode([("empty", np.zeros((0, 3), np.float32)), ("big", big)])
    assert data.count(b"big") == 3
    values = ckpt_codec.decode(data, "x")
    assert list(values) == ["big"]
    np.testing.assert_array_equal(values["big"], big)


def test_bfloat16_and_bool_bytes():
    import ml_dtypes

    data = ckpt_codec.encode([("h", np.ones(2, ml_dtypes.bfloat16)), ("m", np.array([True, False]))])
    assert b"BFloat16" in data and bytes.fromhex("803f803f") in data
    values = ckpt_codec.decode(data, "x")
    assert values["h"].dtype == ml_dtypes.bfloat16 and values["m"].tolist() == [True, False]


@pytest.mark.parametrize("name", ["mlp", "lenet5", "small_cnn"])
def test_safetensors_byte_identical(name):
    data = read(name + ".safetensors")
    values = safetensors_codec.decode(data, name)
    assert list(values) == sorted(values)
    assert safetensors_codec.encode(list(values.items())) == data
    np.testing.assert_array_equal(values[sorted(values)[0]],
                                  ckpt_codec.decode(read(name + ".ckpt"), name)[sorted(values)[0]])


def test_safetensors_crc_and_strings():
    values = {"a": np.ones(3, np.float32), "b": np.arange(2)}
    data = safetensors_codec.encode(list(values.items()), crc_check=True)
    assert list(safetensors_codec.decode(data, "f", crc_check=True)) == ["a", "b"]
    with pytest.raises(ValueError, match="string"):
        safetensors_codec.encode([("s", "text")])
