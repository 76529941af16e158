"""Converters from common data set layouts to MindRecord (``mindspore.mindrecord.*ToMR``).

Each writes the schema, description and index fields MindSpore's converter writes:

* ``Cifar10ToMR``: the CIFAR-10 Python version (``data_batch_*``, ``test_batch`` pickles) to
  ``destination`` (train) and ``destination + "_test"``; rows ``{"id", "label", "data"}``
  with each image JPEG-encoded (quality 95, as OpenCV's default; Pillow encodes here, so the
  JPEG bytes differ from MindSpore's while the images decode alike). The pickles are read
  with an unpickler that only builds NumPy arrays, never arbitrary objects.
* ``ImageNetToMR``: a map file of ``<dir> <label>`` lines and a folder of class folders of
  ``*.JPEG``/``*.jpg`` files; rows ``{"label", "image", "file_name"}``, 256 rows per shard
  in turn (MindSpore's parallel writer).
* ``CsvToMR``: a CSV file with a header line; each column typed as pandas would read it
  (all integers -> int64, all numbers -> float64 with empty cells as NaN, True/False ->
  int32, else string); every column is an index field.
"""
import csv
import importlib
import io
import math
import os
import pickle
import re
import warnings

import numpy as np
from PIL import Image

from sporax.mindrecord.errors import PathNotExistsError
from sporax.mindrecord.writer import SUCCESS, FileWriter, check_file_name

_BATCH_ROWS = 256


class _ArraysOnly(pickle.Unpickler):
    """Unpickle CIFAR batches: dicts, lists, bytes and NumPy arrays, nothing else."""

    _ALLOWED = {("numpy.core.multiarray", "_reconstruct"), ("numpy._core.multiarray", "_reconstruct"),
                ("numpy", "ndarray"), ("numpy", "dtype")}

    def find_class(self, module, name):
        if (module, name) in self._ALLOWED:
            if module == "numpy":
                return getattr(np, name)
            try:
                return importlib.import_module("numpy._core.multiarray")._reconstruct
            except ImportError:  # NumPy 1.x
                return importlib.import_module("numpy.core.multiarray")._reconstruct
        raise pickle.UnpicklingError(f"global '{module}.{name}' is forbidden in a CIFAR batch")


def _load_cifar_batch(path, label_keys=None):
    """(HWC images, labels) of a CIFAR pickle; with ``label_keys``, a tuple of those label lists."""
    with open(path, "rb") as handle:
        try:
            batch = _ArraysOnly(handle, encoding="bytes").load()
        except (pickle.UnpicklingError, EOFError, UnicodeDecodeError) as error:
            raise RuntimeError(f"Not a valid Cifar10 Dataset: {path} ({error}).") from None
    images = np.asarray(batch[b"data"], dtype=np.uint8).reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1)
    if label_keys is not None:
        return images, tuple(np.asarray(batch[key]).reshape(-1) for key in label_keys)
    return images, np.asarray(batch[b"labels"]).reshape(-1)


def _jpeg(image):
    buffer = io.BytesIO()
    Image.fromarray(image).save(buffer, format="JPEG", quality=95)
    return buffer.getvalue()


class Cifar10ToMR:
    """Convert the CIFAR-10 Python version to MindRecord (see the module notes).

    Example:
        >>> Cifar10ToMR("/data/cifar-10-batches-py", "/data/cifar10.mindrecord").transform()
    """

    def __init__(self, source, destination):
        check_file_name(source)
        files = os.listdir(source)
        if not any(f.startswith("data_batch_") for f in files):
            raise PathNotExistsError("data_batch_*")
        if not any(f.startswith("test_batch") for f in files):
            raise PathNotExistsError("test_batch")
        check_file_name(destination)
        self.source, self.destination = source, destination

    def run(self, fields=None):
        if fields and not isinstance(fields, list):
            raise ValueError("The parameter fields should be None or list")
        files = sorted(os.listdir(self.source))
        train = [_load_cifar_batch(os.path.join(self.source, f))
                 for f in files if re.match("data_batch_", f)]
        test = _load_cifar_batch(os.path.join(self.source, "test_batch"))
        images = np.concatenate([images for images, _ in train])
        labels = np.concatenate([labels for _, labels in train])
        self._write(self.destination, images, labels, fields, "img_train")
        self._write(self.destination + "_test", test[0], test[1], fields, "img_test")
        return SUCCESS

    def transform(self, fields=None):
        """Write the train and test MindRecord files (``fields``: index fields)."""
        self.run(fields)

    @staticmethod
    def _write(file_name, images, labels, fields, desc):
        writer = FileWriter(file_name, 1)
        writer.add_schema({"id": {"type": "int64"}, "label": {"type": "int64"},
                           "data": {"type": "bytes"}}, desc)
        if fields:
            writer.add_index(fields)
        writer.write_raw_data([{"id": i, "data": _jpeg(image), "label": int(label)}
                               for i, (image, label) in enumerate(zip(images, labels))])
        writer.commit()


def _partitions(partition_number):
    if not isinstance(partition_number, int) or isinstance(partition_number, bool):
        raise ValueError("The parameter partition_number must be int")
    return partition_number


class ImageNetToMR:
    """Convert an ImageNet-style folder to MindRecord (see the module notes).

    Example:
        >>> ImageNetToMR("/data/labels_map.txt", "/data/train", "/data/imagenet.mindrecord", 4).transform()
    """

    def __init__(self, map_file, image_dir, destination, partition_number=1):
        for path in (map_file, image_dir, destination):
            check_file_name(path)
        self.map_file, self.image_dir, self.destination = map_file, image_dir, destination
        self.partition_number = _partitions(partition_number)
        self.writer = FileWriter(destination, self.partition_number)

    def _rows(self):
        if not os.path.exists(self.map_file):
            raise IOError(f"map file {self.map_file} not exists")
        folders = {}
        with open(self.map_file) as handle:
            for line in handle:
                parts = line.split(" ")
                if len(parts) >= 2:
                    folders[parts[1]] = parts[0]
        found = {}
        for label, folder in folders.items():
            path = os.path.join(self.image_dir, folder)
            if os.path.isdir(path):
                found[label] = path
            else:
                warnings.warn(f"{path} dir is not exist")
        if not found:
            raise PathNotExistsError(f"not valid image dir in {self.image_dir}")
        for label, path in found.items():
            for item in os.listdir(path):
                file_name = os.path.join(path, item)
                if not item.endswith("JPEG") and not item.endswith("jpg"):
                    warnings.warn(f"{file_name} file is not suffix with JPEG/jpg, skip it.")
                    continue
                with open(file_name, "rb") as handle:
                    data = handle.read()
                if data:
                    yield {"file_name": str(file_name), "label": int(label), "image": data}

    def run(self):
        self.writer.set_header_size(1 << 24)
        self.writer.set_page_size(1 << 26)
        self.writer.add_schema({"label": {"type": "int32"}, "image": {"type": "bytes"},
                                "file_name": {"type": "string"}}, "imagenet_schema")
        self.writer.add_index(["label", "file_name"])
        _write_in_batches(self.writer, self._rows(), parallel_writer=True)
        return 0

    def transform(self):
        """Write the MindRecord files."""
        self.run()


def _write_in_batches(writer, rows, parallel_writer=False):
    batch = []
    for row in rows:
        batch.append(row)
        if len(batch) == _BATCH_ROWS:
            writer.write_raw_data(batch, parallel_writer)
            batch = []
    if batch:
        writer.write_raw_data(batch, parallel_writer)
    writer.commit()


_INTEGER = re.compile(r"^\s*[+-]?\d+\s*$")
_BOOLEANS = {"True": 1, "TRUE": 1, "true": 1, "False": 0, "FALSE": 0, "false": 0}


def _column_type(values):
    present = [v for v in values if v != ""]
    if present and len(present) == len(values) and all(_INTEGER.match(v) for v in values):
        return "int64"
    if present and all(v in _BOOLEANS for v in values):
        return "bool"
    try:
        [float(v) for v in present]
    except ValueError:
        return "string"
    return "float64"  # all numbers, or all empty (NaN)


def _cell(kind, value):
    if kind == "int64":
        return int(value)
    if kind == "bool":
        return _BOOLEANS[value]
    if kind == "float64":
        return float(value) if value != "" else math.nan
    return value if value != "" else math.nan  # pandas reads an empty cell as NaN


class CsvToMR:
    """Convert a CSV file to MindRecord (see the module notes).

    Example:
        >>> CsvToMR("/data/table.csv", "/data/table.mindrecord", ["a", "b"]).transform()
    """

    def __init__(self, source, destination, columns_list=None, partition_number=1):
        if not isinstance(source, str):
            raise ValueError("The parameter source must be str.")
        check_file_name(source)
        if columns_list and (not isinstance(columns_list, list)
                             or any(not isinstance(c, str) for c in columns_list)):
            raise ValueError("The parameter columns_list must be list of str.")
        if not isinstance(destination, str):
            raise ValueError("The parameter destination must be str.")
        check_file_name(destination)
        self.source, self.destination, self.columns_list = source, destination, columns_list
        self.partition_number = _partitions(partition_number)
        self.writer = FileWriter(destination, self.partition_number)

    def run(self):
        if not os.path.exists(self.source):
            raise IOError(f"Csv file {self.source} do not exist.")
        with open(self.source, newline="", encoding="utf-8") as handle:
            lines = list(csv.reader(handle))
        header, body = lines[0], [line for line in lines[1:] if line]
        columns = self.columns_list or header
        for column in columns:
            if column not in header:
                raise RuntimeError(f"The parameter columns_list is illegal, column {column} does "
                                   "not exist.")
        kinds = {name: _column_type([line[header.index(name)] for line in body])
                 for name in columns}
        schema = {name: {"type": "int32" if kind == "bool" else kind}
                  for name, kind in kinds.items()}
        self.writer.set_header_size(1 << 24)
        self.writer.set_page_size(1 << 26)
        self.writer.add_schema(schema, "csv_schema")
        for name in columns:
            if str(name).isdigit():
                raise ValueError(f"The first line content: {name} of the CSV file is used as a "
                                 "column name and does not allow starting with a number.")
        self.writer.add_index(list(columns))
        rows = ({name: _cell(kinds[name], line[header.index(name)]) for name in columns}
                for line in body)
        _write_in_batches(self.writer, rows)
        return 0

    def transform(self):
        """Write the MindRecord files."""
        self.run()
