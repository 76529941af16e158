"""File sources (CSV, text, MNIST, CIFAR, TFRecord) given a damaged file either read it or raise
an error that names the file: never a bare UnicodeDecodeError, struct.error or IndexError."""
import os
import struct

import numpy as np
import pytest

import sporax.dataset as ds

from tests.dataset.test_annotated_sources import _example


def _rows(dataset):
    return list(dataset.create_tuple_iterator(output_numpy=True))


def _write(path, data):
    with open(path, "wb") as handle:
        handle.write(data)


def _mnist(folder):
    images = np.arange(3 * 28 * 28, dtype=np.uint8).reshape(3, 28, 28)
    _write(os.path.join(folder, "train-images-idx3-ubyte"),
           bytes([0, 0, 8, 3]) + struct.pack(">III", 3, 28, 28) + images.tobytes())
    _write(os.path.join(folder, "train-labels-idx1-ubyte"),
           bytes([0, 0, 8, 1]) + struct.pack(">I", 3) + bytes([1, 2, 3]))
    return os.path.join(folder, "train-images-idx3-ubyte"), lambda: _rows(ds.MnistDataset(folder, shuffle=False))


def _mnist_labels(folder):
    _, read = _mnist(folder)
    return os.path.join(folder, "train-labels-idx1-ubyte"), read


def _cifar(folder):
    path = os.path.join(folder, "data_batch_1.bin")
    _write(path, np.arange(2 * 3073, dtype=np.uint8).tobytes())
    return path, lambda: _rows(ds.Cifar10Dataset(folder, shuffle=False))


def _csv(folder):
    path = os.path.join(folder, "c.csv")
    _write(path, b"a,b\n1,2\n3,4\n5,6\n")
    return path, lambda: _rows(ds.CSVDataset(path, column_defaults=[1, 1], shuffle=False))


def _text(folder):
    path = os.path.join(folder, "t.txt")
    _write(path, "hello\nwörld\n".encode())
    return path, lambda: _rows(ds.TextFileDataset(path, shuffle=False))


def _tfrecord(folder):
    path = os.path.join(folder, "d.tfrecord")
    records = b""
    for i in range(2):
        data = _example({"a": ("int", [i]), "c": ("bytes", [b"x%d" % i])})
        records += struct.pack("<Q", len(data)) + b"\0" * 4 + data + b"\0" * 4
    _write(path, records)
    return path, lambda: _rows(ds.TFRecordDataset(path, shuffle=False))


@pytest.mark.parametrize("make", [_mnist, _mnist_labels, _cifar, _csv, _text, _tfrecord],
                         ids=lambda make: make.__name__.strip("_"))
def test_damaged_source_files_name_the_file(tmp_path, make):
    path, read = make(str(tmp_path))
    read()  # the intact file reads
    data = open(path, "rb").read()
    named = 0
    for offset in sorted(set(range(min(len(data), 24))) | {len(data) - 1}):
        for how in ("zero", "ff", "truncate"):
            damaged = bytearray(data)
            if how == "truncate":
                damaged = damaged[:offset]
            else:
                damaged[offset] = 0 if how == "zero" else 0xFF
            _write(path, bytes(damaged))
            try:
                read()
            except (RuntimeError, ValueError) as error:
                assert path in str(error), f"{how} at {offset}: {type(error).__name__}: {error}"
                named += 1
    assert named > 0
