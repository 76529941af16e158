"""Arrays to and from MindSpore ``.ckpt`` bytes (``formats.md`` A.2–A.6)."""
import binascii

import ml_dtypes
import numpy as np

from sporax import log
from sporax.io.wire import WireError, decode_records, encode_record

SPLIT_BYTES = 512 * 1024 * 1024
CRC_MARKER = b"crc_num"

# The dtype strings MindSpore writes and accepts; complex types cannot be loaded by MindSpore.
NUMPY_BY_NAME = {
    "Float16": np.dtype("<f2"), "Float32": np.dtype("<f4"), "Float64": np.dtype("<f8"),
    "BFloat16": np.dtype(ml_dtypes.bfloat16), "Int8": np.dtype("i1"), "Int16": np.dtype("<i2"),
    "Int32": np.dtype("<i4"), "Int64": np.dtype("<i8"), "UInt8": np.dtype("u1"),
    "UInt16": np.dtype("<u2"), "UInt32": np.dtype("<u4"), "UInt64": np.dtype("<u8"),
    "Bool": np.dtype("?"),
}
NAME_BY_NUMPY = {dtype: name for name, dtype in NUMPY_BY_NAME.items()}


def encode(entries):
    """``entries``: ``(name, ndarray | str)`` pairs in file order -> ``.ckpt`` bytes."""
    chunks = []
    for name, value in entries:
        if isinstance(value, str):
            chunks.append(encode_record(name, "str", [0], value.encode("utf-32-le")))
            continue
        array = np.asarray(value, order="C")
        if array.size == 0:
            continue  # MindSpore writes no record for an empty tensor
        type_name = NAME_BY_NUMPY.get(array.dtype.newbyteorder("<") if array.dtype.byteorder == ">"
                                      else array.dtype)
        if type_name is None:
            raise TypeError(f"save_checkpoint: parameter {name!r} has dtype {array.dtype}, which a "
                            f"MindSpore checkpoint cannot hold (supported: {', '.join(NUMPY_BY_NAME)}).")
        content = array.astype(array.dtype.newbyteorder("<"), copy=False).tobytes()
        for start in range(0, len(content), SPLIT_BYTES):
            chunks.append(encode_record(name, type_name, array.shape, content[start:start + SPLIT_BYTES]))
    return b"".join(chunks)


def add_crc(data):
    return data + CRC_MARKER + binascii.crc32(data).to_bytes(10, "big")


def strip_crc(data, check, file_name):
    """Remove a CRC trailer if present; verify it when ``check``."""
    if len(data) >= 17 and bytes(data[-17:-10]) == CRC_MARKER:
        body = data[:-17]
        if check and binascii.crc32(body) != int.from_bytes(data[-10:], "big"):
            raise ValueError(f"load_checkpoint: {file_name}: CRC check failed: the file is corrupted "
                             "(its CRC-32 trailer does not match its contents).")
        return body
    if check:
        # MindSpore 2.10 warns and loads the file
        log.warning(f"For 'load_checkpoint', the ckpt file do not contain the crc code, please check the file. "
                    f"({file_name} was saved without crc_check=True.)")
    return data


def decode(data, file_name):
    """``.ckpt`` bytes -> ordered ``{name: ndarray | str}``; joins records split by size."""
    result = {}
    pieces = {}
    previous = None
    try:
        for name, type_name, dims, content, offset in decode_records(data):
            if type_name == "str":
                result[name] = bytes(content).decode("utf-32-le")
                pieces.pop(name, None)
                previous = None
                continue
            dtype = NUMPY_BY_NAME.get(type_name)
            if dtype is None:
                raise WireError(f"parameter {name!r} has unknown tensor type {type_name!r}", offset)
            if any(dim < 0 for dim in dims):
                raise WireError(f"parameter {name!r} has a negative dimension {dims}", offset)
            if name == previous:
                pieces[name][1].append(content)
            else:
                # A name seen before (``append_dict`` repeating a saved parameter, as MindSpore's
                # fault-recovery tutorial does with 'momentum'): the later record wins, as in MindSpore.
                pieces[name] = (dims, [content], dtype, offset)
                result[name] = None
            previous = name
    except WireError as error:
        raise ValueError(f"load_checkpoint: {file_name}: byte {error.offset}: {error}. The file is "
                         "truncated or is not a MindSpore checkpoint.") from None
    for name, (dims, contents, dtype, offset) in pieces.items():
        raw = b"".join(bytes(c) for c in contents)
        count = int(np.prod(dims, dtype=np.int64)) if dims else 1
        if len(raw) != count * dtype.itemsize:
            raise ValueError(f"load_checkpoint: {file_name}: byte {offset}: parameter {name!r} of "
                             f"shape {tuple(dims)} needs {count * dtype.itemsize} bytes, found {len(raw)}.")
        result[name] = np.frombuffer(raw, dtype).reshape(dims).copy()
    return result
