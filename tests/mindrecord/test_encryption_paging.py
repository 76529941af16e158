"""Encrypted MindRecord files (both ways with MindSpore 2.10), MindPage, MnistToMR, Cifar100ToMR."""
import gzip
import io
import os
import pickle
import shutil

import numpy as np
import pytest
from PIL import Image

import sporax.dataset as ds
from sporax import mindrecord
from sporax.mindrecord import FileReader, FileWriter, MindPage

HERE = os.path.dirname(os.path.abspath(__file__))
ENCRYPTED = os.path.join(HERE, "..", "fixtures", "mindrecord", "encrypted")
KEY = "0123456789abcdef"
ROWS = [{"file_name": f"f{i}.jpg", "label": i % 3, "data": bytes([i, i])} for i in range(7)]


@pytest.fixture
def key():
    mindrecord.set_enc_key(KEY)
    yield KEY
    mindrecord.set_enc_key(None)
    mindrecord.set_enc_mode("AES-GCM")
    mindrecord.set_dec_mode(None)


def _mindspore_file(tmp_path):
    for name in ("enc.mindrecord", "enc.mindrecord.db"):
        with gzip.open(os.path.join(ENCRYPTED, name + ".gz")) as source, \
                open(tmp_path / name, "wb") as target:
            shutil.copyfileobj(source, target)
    return str(tmp_path / "enc.mindrecord")


def _write(path, shard_num=1):
    writer = FileWriter(path, shard_num)
    writer.add_schema({"file_name": {"type": "string"}, "label": {"type": "int32"},
                       "data": {"type": "bytes"}}, "d")
    writer.add_index(["file_name", "label"])
    writer.write_raw_data(ROWS)
    writer.commit()


def test_reads_a_file_mindspore_encrypted(tmp_path, key):
    path = _mindspore_file(tmp_path)
    assert list(FileReader(path).get_next()) == ROWS
    labels = [int(r["label"]) for r in ds.MindDataset(path, shuffle=False)
              .create_dict_iterator(output_numpy=True)]
    assert labels == [r["label"] for r in ROWS]


def test_encrypted_file_needs_the_key_and_the_right_one(tmp_path, key):
    path = _mindspore_file(tmp_path)
    mindrecord.set_enc_key(None)
    with pytest.raises(RuntimeError, match="is encrypted.*set_enc_key"):
        FileReader(path)
    mindrecord.set_enc_key("fedcba9876543210")
    with pytest.raises(RuntimeError, match="Failed to decrypt"):
        FileReader(path)


def test_writes_encrypted_files_in_mindsporee_layout(tmp_path, key):
    path = str(tmp_path / "mine.mindrecord")
    _write(path, 2)
    for shard in ("mine.mindrecord0", "mine.mindrecord1"):
        for name in (shard, shard + ".db"):
            with open(tmp_path / name, "rb") as handle:
                data = handle.read()
            assert data.endswith(b"\x00\x00\x00\x00AES-GCMENCRYPT")
            assert b"f3.jpg" not in data and b"SQLite" not in data
    got = sorted((r["file_name"], int(r["label"])) for r in FileReader(path + "0").get_next())
    assert got == sorted((r["file_name"], r["label"]) for r in ROWS)
    mindrecord.set_enc_key(None)
    with pytest.raises(RuntimeError, match="encrypted"):
        FileReader(path + "0")


def test_custom_cipher_functions(tmp_path, key):
    def flip(source, size, target, _key):
        target.write(bytes(b ^ 0x5A for b in source.read(size)))

    mindrecord.set_enc_mode(flip)
    mindrecord.set_dec_mode(flip)
    path = str(tmp_path / "udf.mindrecord")
    _write(path)
    with open(path, "rb") as handle:
        assert handle.read().endswith(b"UDF\x00\x00\x00\x00ENCRYPT")
    assert list(FileReader(path).get_next()) == ROWS


def test_setter_validation():
    with pytest.raises(ValueError, match="length"):
        mindrecord.set_enc_key("short")
    with pytest.raises(ValueError, match="not str"):
        mindrecord.set_enc_key(123)
    with pytest.raises(ValueError, match="invalid"):
        mindrecord.set_enc_mode("AES-CBC")
    with pytest.raises(ValueError, match="invalid"):
        mindrecord.set_dec_mode("SM4-CBC")


def test_mindpage_groups_by_index_field(tmp_path):
    path = str(tmp_path / "page.mindrecord")
    _write(path)
    page = MindPage(path)
    assert page.candidate_fields == ["file_name", "label"]
    page.category_field = "label"
    assert page.read_category_info() == (
        '{"categories":[{"count":3,"id":0,"name":"0"},{"count":2,"id":1,"name":"1"},'
        '{"count":2,"id":2,"name":"2"}],"key":"label_0"}')  # MindSpore 2.10's string
    assert page.read_at_page_by_id(0, 0, 2) == [ROWS[0], ROWS[3]]
    assert page.read_at_page_by_id(0, 1, 2) == [ROWS[6]]
    assert page.read_at_page_by_name("1", 0, 5) == [ROWS[1], ROWS[4]]
    page.category_field = "file_name"
    assert page.read_at_page_by_name("f3.jpg", 0, 1) == [ROWS[3]]
    with pytest.raises(mindrecord.MindRecordException, match="not a candidate category"):
        page.category_field = "data"
    with pytest.raises(RuntimeError, match="category_id: 99"):
        page.read_at_page_by_id(99, 0, 1)
    with pytest.raises(mindrecord.ParamValueError, match="Page should be int"):
        page.read_at_page_by_id(0, -1, 1)


def _gzip_idx(path, array):
    header = bytes([0, 0, 8, array.ndim]) + b"".join(int(n).to_bytes(4, "big") for n in array.shape)
    with gzip.open(path, "wb") as handle:
        handle.write(header + array.astype(np.uint8).tobytes())


def _decoded(data):
    return np.asarray(Image.open(io.BytesIO(data)))


def test_mnist_to_mr(tmp_path):
    rng = np.random.default_rng(0)
    images = {"train": np.full((3, 28, 28), 200, np.uint8), "t10k": np.full((2, 28, 28), 30, np.uint8)}
    for prefix, pixels in images.items():
        _gzip_idx(tmp_path / f"{prefix}-images-idx3-ubyte.gz", pixels)
        _gzip_idx(tmp_path / f"{prefix}-labels-idx1-ubyte.gz", rng.integers(0, 10, len(pixels)))
    mindrecord.MnistToMR(str(tmp_path), str(tmp_path / "mnist")).transform()
    reader = FileReader(str(tmp_path / "mnist_train.mindrecord"))
    assert reader.schema() == {"label": {"type": "int64"}, "data": {"type": "bytes"}}
    rows = list(reader.get_next())
    assert len(rows) == 3 and abs(int(_decoded(rows[0]["data"]).mean()) - 200) <= 2
    assert len(list(FileReader(str(tmp_path / "mnist_test.mindrecord")).get_next())) == 2


def test_cifar100_to_mr(tmp_path):
    source = tmp_path / "cifar-100-python"
    source.mkdir()
    for name, count in (("train", 3), ("test", 2)):
        data = np.full((count, 3072), 90, np.uint8)
        batch = {b"data": data, b"fine_labels": list(range(count)),
                 b"coarse_labels": [c + 10 for c in range(count)]}
        with open(source / name, "wb") as handle:
            pickle.dump(batch, handle)
    mindrecord.Cifar100ToMR(str(source), str(tmp_path / "c100.mindrecord")).transform(["fine_label"])
    rows = list(FileReader(str(tmp_path / "c100.mindrecord")).get_next())
    assert [(r["id"], r["fine_label"], r["coarse_label"]) for r in rows] == \
        [(0, 0, 10), (1, 1, 11), (2, 2, 12)]
    assert _decoded(rows[0]["data"]).shape == (32, 32, 3)
    assert len(list(FileReader(str(tmp_path / "c100.mindrecord_test")).get_next())) == 2


def test_tfrecord_to_mr(tmp_path):
    import collections
    import struct
    import sys

    sys.path.insert(0, os.path.join(HERE, "..", "dataset"))
    from test_annotated_sources import _example  # the tf.train.Example encoder of the tests

    # the fields TensorFlow's tf.io.FixedLenFeature has (TensorFlow itself is not needed)
    feature = collections.namedtuple("FixedLenFeature", "shape dtype default_value",
                                     defaults=[None])
    path = tmp_path / "d.tfrecord"
    with open(path, "wb") as handle:
        for i in range(3):
            data = _example({"file name": ("bytes", [b"img%d.jpg" % i]),
                             "image": ("bytes", [bytes([i, 255])]),
                             "label": ("int", [i * 7]), "score": ("float", [0.5 * i]),
                             "box": ("int", [i, -i, 2 * i])})
            handle.write(struct.pack("<Q", len(data)) + b"\0" * 4 + data + b"\0" * 4)
    features = {"file name": feature([], "string"), "image": feature([], "string"),
                "label": feature([], "int64"), "score": feature([], "float32"),
                "box": feature([3], "int64")}
    converter = mindrecord.TFRecordToMR(str(path), str(tmp_path / "d.mindrecord"), features,
                                        ["image"])
    assert converter.mindrecord_schema == {
        "file_name": {"type": "string"}, "image": {"type": "bytes"}, "label": {"type": "int64"},
        "score": {"type": "float32"}, "box": {"type": "int64", "shape": [3]}}
    converter.transform()
    rows = list(FileReader(str(tmp_path / "d.mindrecord")).get_next())
    assert [r["file_name"] for r in rows] == ["img0.jpg", "img1.jpg", "img2.jpg"]
    assert rows[1]["image"] == bytes([1, 255]) and rows[2]["label"] == 14
    assert rows[1]["score"] == pytest.approx(0.5)
    np.testing.assert_array_equal(rows[2]["box"], [2, -2, 4])
    with pytest.raises(ValueError, match="bytes_fields"):
        mindrecord.TFRecordToMR(str(path), str(tmp_path / "e.mindrecord"), features, ["nope"])
