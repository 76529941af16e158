"""Row <-> bytes for one MindRecord schema: raw (MessagePack) and blob parts of a row.

A schema maps field names to ``{"type": T}`` (scalar: int32/int64/float32/float64/string,
or bytes) or ``{"type": T, "shape": [...]}`` (a NumPy array of a numeric type). Scalars go to
the raw part: a MessagePack map with sorted keys (``{"id": 0}`` when a schema has none, as
MindSpore writes). Bytes and arrays are blob fields (sorted by name): one blob field is stored
as its bytes alone; several are each prefixed by their length (8 bytes, big-endian). A row
without blob fields stores four zero bytes. int32/int64 arrays are stored compressed: the
element count (4 bytes, big-endian), a bitmap of 2 bits per element (most significant pair
first) giving each element's width (1, 2, 4 or 8 bytes), then each element little-endian in the
narrowest signed width that holds it. Float arrays are stored as their little-endian bytes.
"""
import struct

import numpy as np

from sporax.mindrecord import msgpack

SCALAR_TYPES = ("int32", "int64", "float32", "float64", "string", "bytes")
ARRAY_TYPES = ("int32", "int64", "float32", "float64")
EMPTY_BLOB = b"\x00\x00\x00\x00"


def blob_fields(fields):
    """Sorted names of the fields stored in the blob part."""
    return sorted(name for name, spec in fields.items()
                  if "shape" in spec or spec["type"] == "bytes")


def raw_fields(fields):
    """Sorted names of the scalar fields stored in the raw part."""
    blobs = set(blob_fields(fields))
    return sorted(name for name in fields if name not in blobs)


def encode_raw(fields, row):
    raw = {name: _python_scalar(row[name]) for name in raw_fields(fields)}
    return msgpack.pack(raw if raw else {"id": 0})


def _python_scalar(value):
    if isinstance(value, np.generic):
        return value.item()
    return value


def encode_blob(fields, row):
    """The blob bytes of ``row`` and how many bytes integer compression saved."""
    names = blob_fields(fields)
    if not names:
        return EMPTY_BLOB, 0
    parts, saved = [], 0
    for name in names:
        spec, value = fields[name], row[name]
        if spec["type"] == "bytes":
            parts.append(bytes(value))
            continue
        array = np.ascontiguousarray(value, dtype=spec["type"])
        if spec["type"] in ("int32", "int64"):
            data = compress_ints(array)
            saved += array.nbytes - len(data)
        else:
            data = array.astype(array.dtype.newbyteorder("<"), copy=False).tobytes()
        parts.append(data)
    if len(parts) == 1:
        return parts[0], saved
    return b"".join(struct.pack(">Q", len(part)) + part for part in parts), saved


_PAIR_SHIFTS = np.array([6, 4, 2, 0], dtype=np.uint8)  # a bitmap byte holds four 2-bit codes, first one highest
_BYTE_INDEX = np.arange(8)


def compress_ints(array):
    """The compressed form of an integer array (see the module docstring), built with whole-array
    NumPy operations: an image field of a saved dataset has thousands of elements per row."""
    values = array.reshape(-1).astype(np.int64)
    count = len(values)
    codes = np.full(count, 3, dtype=np.uint8)
    for code, bits in ((2, 32), (1, 16), (0, 8)):
        limit = 1 << (bits - 1)
        codes[(values >= -limit) & (values < limit)] = code
    padded = np.zeros(-(-count // 4) * 4, dtype=np.uint8)
    padded[:count] = codes
    bitmap = (padded.reshape(-1, 4) << _PAIR_SHIFTS).sum(axis=1, dtype=np.uint8)
    # The low bytes of an element's little-endian two's complement are its narrower two's complement.
    little_endian = values.astype("<i8").view(np.uint8).reshape(count, 8)
    body = little_endian[_BYTE_INDEX < (1 << codes.astype(np.int64))[:, None]]
    return struct.pack(">I", count) + bitmap.tobytes() + body.tobytes()


def decompress_ints(data, dtype):
    count = struct.unpack_from(">I", data, 0)[0]
    bitmap_size = (count + 3) // 4
    bitmap = np.frombuffer(data, dtype=np.uint8, count=bitmap_size, offset=4)
    codes = ((bitmap[:, None] >> _PAIR_SHIFTS) & 3).reshape(-1)[:count]
    widths = 1 << codes.astype(np.int64)
    position = 4 + bitmap_size + int(widths.sum())
    if position != len(data):
        raise ValueError(f"compressed integers take {position} bytes of a {len(data)}-byte field")
    body = np.frombuffer(data, dtype=np.uint8, offset=4 + bitmap_size)
    starts = np.cumsum(widths) - widths
    present = _BYTE_INDEX < widths[:, None]
    little_endian = np.zeros((count, 8), dtype=np.uint8)
    little_endian[present] = body[(starts[:, None] + _BYTE_INDEX)[present]]
    negative = little_endian[np.arange(count), widths - 1] >= 0x80
    little_endian[~present & negative[:, None]] = 0xFF  # sign extension of the narrower elements
    return little_endian.view("<i8").reshape(count).astype(dtype)


def decode_raw(data):
    return msgpack.unpack(data)


def decode_blob(fields, data, wanted=None):
    """The blob fields of one row as a dict (only ``wanted`` names when given)."""
    names = blob_fields(fields)
    if not names:
        return {}
    if len(names) == 1:
        pieces = {names[0]: data}
    else:
        pieces, position = {}, 0
        for name in names:
            length = struct.unpack_from(">Q", data, position)[0]
            position += 8
            if position + length > len(data):
                raise ValueError(f"blob field '{name}' runs past the end of its row")
            pieces[name] = bytes(data[position:position + length])
            position += length
    result = {}
    for name in names:
        if wanted is not None and name not in wanted:
            continue
        result[name] = _blob_value(fields[name], pieces[name])
    return result


def _blob_value(spec, data):
    if spec["type"] == "bytes":
        return bytes(data)
    if spec["type"] in ("int32", "int64"):
        values = decompress_ints(data, spec["type"])
    else:
        values = np.frombuffer(data, dtype=np.dtype(spec["type"]).newbyteorder("<"))
        values = values.astype(spec["type"])
    return values.reshape(spec["shape"])
