"""TFRecord files of ``tf.train.Example`` records, decoded without TensorFlow."""
import struct

import numpy as np



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
        if start + length + 4 > len(data):
            raise RuntimeError(f"TFRecordDataset: {path} is truncated or damaged: the record at "
                               f"offset {position} says {length} bytes but the file ends first.")
        records.append(data[start:start + length])
        position = start + length + 4
    return records


class Rows(list):
    """A column of per-row arrays that supports index arrays (``column[indices]``)."""

    def __getitem__(self, index):
        if isinstance(index, np.ndarray):
            return [list.__getitem__(self, int(i)) for i in index]
        return list.__getitem__(self, index)
