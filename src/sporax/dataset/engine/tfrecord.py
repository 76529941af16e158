"""TFRecordDataset: rows of ``tf.train.Example`` records, decoded without TensorFlow."""
import struct

import numpy as np

from sporax.dataset.engine.datasets_text import FileRowsDataset, expand_files
from sporax.dataset.engine.samplers import Shuffle


def _varint(data, position):
    result = shift = 0
    while True:
        byte = data[position]
        position += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, position
        shift += 7


def _fields(data):
    """(field number, wire type, value) of a protobuf message (value: int or bytes)."""
    position, end = 0, len(data)
    while position < end:
        key, position = _varint(data, position)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, position = _varint(data, position)
        elif wire == 2:
            length, position = _varint(data, position)
            value, position = data[position:position + length], position + length
        elif wire == 5:
            value, position = data[position:position + 4], position + 4
        elif wire == 1:
            value, position = data[position:position + 8], position + 8
        else:
            raise RuntimeError(f"TFRecordDataset: unsupported protobuf wire type {wire}.")
        yield number, wire, value


def _feature(data):
    """A tf.train.Feature as a NumPy array."""
    for kind, _, payload in _fields(data):
        if kind == 1:  # BytesList
            values = [value for number, _, value in _fields(payload) if number == 1]
            if len(values) == 1:
                return np.frombuffer(values[0], dtype=np.uint8).copy()
            return np.array(values)
        if kind == 2:  # FloatList (packed or not)
            floats = []
            for number, wire, value in _fields(payload):
                if wire == 2:
                    floats.extend(struct.unpack(f"<{len(value) // 4}f", value))
                else:
                    floats.append(struct.unpack("<f", value)[0])
            return np.asarray(floats, np.float32)
        if kind == 3:  # Int64List (packed or not)
            ints = []
            for number, wire, value in _fields(payload):
                if wire == 2:
                    position = 0
                    while position < len(value):
                        item, position = _varint(value, position)
                        ints.append(item)
                else:
                    ints.append(value)
            return np.asarray([i - (1 << 64) if i >= 1 << 63 else i for i in ints], np.int64)
    return np.zeros(0, np.float32)


def parse_example(data):
    """A serialized tf.train.Example as {feature name: array}."""
    features = {}
    for number, _, payload in _fields(data):
        if number != 1:
            continue
        for entry_number, _, entry in _fields(payload):
            if entry_number != 1:
                continue
            key, value = None, b""
            for part, _, content in _fields(entry):
                if part == 1:
                    key = bytes(content).decode()
                elif part == 2:
                    value = content
            features[key] = _feature(value)
    return features


def read_records(path):
    """The record payloads of a TFRecord file (uncompressed)."""
    with open(path, "rb") as handle:
        data = handle.read()
    position, records = 0, []
    while position < len(data):
        if position + 12 > len(data):
            raise RuntimeError(f"TFRecordDataset: {path} ends inside a record header.")
        (length,) = struct.unpack_from("<Q", data, position)
        start = position + 12
        records.append(data[start:start + length])
        position = start + length + 4
    return records


class TFRecordDataset(FileRowsDataset):
    """Rows of TFRecord files of tf.train.Example; one column per feature (sorted names), or
    the columns of ``schema`` / ``columns_list``. int64 lists are int64, float lists float32, a
    single bytes value a uint8 array."""

    def __init__(self, dataset_files, schema=None, columns_list=None, num_samples=None,
                 num_parallel_workers=None, shuffle=Shuffle.GLOBAL, num_shards=None, shard_id=None,
                 shard_equal_rows=False, cache=None, compression_type=None):
        where = type(self).__name__
        self.dataset_files = expand_files(where, dataset_files)
        if compression_type not in (None, ""):
            raise NotImplementedError(f"{where}(compression_type={compression_type!r}) is not "
                                      "supported by sporax; decompress the files first.")
        if isinstance(schema, str):
            from sporax.dataset.engine.schema import Schema

            schema = Schema(schema)
        self.schema = schema
        self.columns_list = None if columns_list is None else list(columns_list)
        super().__init__(num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache)
        self._names = self._decide_columns()

    def _decide_columns(self):
        if self.columns_list is not None:
            return self.columns_list
        if self.schema is not None:
            return [c["name"] for c in self.schema.columns]
        records = read_records(self.dataset_files[0])
        return sorted(parse_example(records[0])) if records else []

    def _column_names(self):
        return self._names

    def _load_rows(self):
        specs = {}
        if self.schema is not None:
            specs = {c["name"]: c for c in self.schema.columns}
        columns = [[] for _ in self._names]
        for path in self.dataset_files:
            for record in read_records(path):
                features = parse_example(record)
                for j, name in enumerate(self._names):
                    if name not in features:
                        raise RuntimeError(f"TFRecordDataset: a record of {path} has no feature "
                                           f"'{name}'; its features are {sorted(features)}.")
                    value = features[name]
                    spec = specs.get(name)
                    if spec is not None:
                        value = value.astype(spec["type"])
                        if spec["shape"] is not None:
                            value = value.reshape(spec["shape"])
                    columns[j].append(value)
        return [_Rows(values) for values in columns]


class _Rows(list):
    """A column of per-row arrays that supports index arrays (``column[indices]``)."""

    def __getitem__(self, index):
        if isinstance(index, np.ndarray):
            return [list.__getitem__(self, int(i)) for i in index]
        return list.__getitem__(self, index)
