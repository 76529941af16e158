"""Cifar10ToMR, ImageNetToMR and CsvToMR: schemas, rows, and ImageNetToMR's bytes against a
conversion recorded with MindSpore 2.10."""
import io
import os
import pickle
import sys

import numpy as np
import pytest
from PIL import Image

import sporax.dataset as ds
from sporax.mindrecord import Cifar10ToMR, CsvToMR, FileReader, ImageNetToMR, PathNotExistsError

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "fixtures", "mindrecord")
sys.path.insert(0, FIXTURES)
import scenarios  # noqa: E402


def test_imagenet_to_mr_writes_what_mindspore_writes(tmp_path, monkeypatch):
    recorded = tmp_path / "recorded"
    recorded.mkdir()
    files = scenarios.unpack_recorded("imagenet_to_mr", str(recorded))
    assert len(files) == 4
    monkeypatch.chdir(tmp_path)
    map_file, image_dir = scenarios.imagenet_input(".")
    os.makedirs("converted")
    with pytest.warns(UserWarning, match="notes.txt"):
        ImageNetToMR(map_file, image_dir, os.path.join("converted", "imagenet.mindrecord"),
                     2).transform()
    for file in files:
        ours = (tmp_path / "converted" / file[len("imagenet_to_mr."):])
        if file.endswith(".db"):
            assert ours.stat().st_size > 0
        else:
            assert ours.read_bytes() == (recorded / file).read_bytes(), file
    rows = list(FileReader(str(tmp_path / "converted" / "imagenet.mindrecord0")).get_next())
    assert [r["label"] for r in rows] == [0, 1, 2]
    assert [r["image"] for r in rows] == [bytes([k]) * (50 + k) + b"jpeg" for k in range(3)]


def write_cifar(folder, batches=2, per_batch=3):
    rng = np.random.default_rng(0)
    images, labels = [], []
    c, y, x = np.meshgrid(np.arange(3), np.arange(32), np.arange(32), indexing="ij")
    for b, name in enumerate([f"data_batch_{k + 1}" for k in range(batches)] + ["test_batch"]):
        # smooth planes (JPEG keeps them to a few grey levels), different per image
        data = np.stack([(20 + 3 * x + 2 * y + 30 * c + 5 * (b * per_batch + i)).astype(np.uint8)
                         .reshape(-1) for i in range(per_batch)])
        label = rng.integers(0, 10, per_batch).tolist()
        with open(os.path.join(folder, name), "wb") as handle:
            pickle.dump({b"data": data, b"labels": label, b"batch_label": b"x"}, handle)
        images.append(data.reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1))
        labels.append(label)
    return images, labels


def test_cifar10_to_mr(tmp_path):
    source = tmp_path / "cifar"
    source.mkdir()
    images, labels = write_cifar(str(source))
    destination = str(tmp_path / "cifar10.mindrecord")
    Cifar10ToMR(str(source), destination).transform(["label"])
    train = list(FileReader(destination).get_next())
    test = list(FileReader(destination + "_test").get_next())
    assert [r["id"] for r in train] == list(range(6)) and [r["id"] for r in test] == [0, 1, 2]
    assert [r["label"] for r in train] == labels[0] + labels[1]
    assert [r["label"] for r in test] == labels[2]
    decoded = np.asarray(Image.open(io.BytesIO(train[4]["data"])))
    assert decoded.shape == (32, 32, 3)
    assert np.abs(decoded.astype(int) - images[1][1].astype(int)).mean() < 3
    assert FileReader(destination).schema() == {
        "id": {"type": "int64"}, "label": {"type": "int64"}, "data": {"type": "bytes"}}


def test_cifar10_to_mr_refuses_code_in_pickles(tmp_path):
    source = tmp_path / "cifar"
    source.mkdir()
    write_cifar(str(source), batches=1)
    with open(source / "data_batch_1", "wb") as handle:
        pickle.dump({b"data": os.system}, handle)
    with pytest.raises(RuntimeError, match="Not a valid Cifar10 Dataset"):
        Cifar10ToMR(str(source), str(tmp_path / "c.mindrecord")).transform()
    with pytest.raises(PathNotExistsError, match="data_batch"):
        Cifar10ToMR(str(tmp_path), str(tmp_path / "c.mindrecord"))


def test_csv_to_mr(tmp_path):
    source = tmp_path / "table.csv"
    source.write_text("name,count,score,flag\na,1,0.5,True\nb,-2,,False\nc,3,2,True\n")
    destination = str(tmp_path / "table.mindrecord")
    CsvToMR(str(source), destination).transform()
    assert FileReader(destination).schema() == {
        "name": {"type": "string"}, "count": {"type": "int64"}, "score": {"type": "float64"},
        "flag": {"type": "int32"}}
    rows = list(FileReader(destination).get_next())
    assert [r["name"] for r in rows] == ["a", "b", "c"]
    assert [r["count"] for r in rows] == [1, -2, 3]
    assert rows[0]["score"] == 0.5 and np.isnan(rows[1]["score"]) and rows[2]["score"] == 2.0
    assert [r["flag"] for r in rows] == [1, 0, 1]
    data = ds.MindDataset(destination, columns_list=["count"], shuffle=False)
    assert [int(r[0]) for r in data.create_tuple_iterator(output_numpy=True)] == [1, -2, 3]
    with pytest.raises(RuntimeError, match="column nope does not exist"):
        CsvToMR(str(source), str(tmp_path / "t2.mindrecord"), ["nope"]).transform()
