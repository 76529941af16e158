"""Arrays to and from safetensors bytes with MindSpore's metadata (``formats.md`` B)."""
import binascii
import json
import struct

import ml_dtypes
import numpy as np
from safetensors.numpy import load, save


def _crc(records):
    crc = 0
    for name, array in sorted(records.items()):
        crc = binascii.crc32(name.encode("utf-8"), crc)
        crc = binascii.crc32(np.ascontiguousarray(array).tobytes(), crc)
    return crc


def encode(entries, crc_check=False, remove_redundancy=None, **unused):
    """``(name, ndarray)`` pairs -> safetensors bytes with ``{"format": "ms"}`` metadata."""
    records = {}
    for name, value in entries:
        if isinstance(value, str):
            raise ValueError(f"For 'save_checkpoint', format='safetensors' cannot store the string "
                             f"entry {name!r}; save it with format='ckpt'.")
        records[name] = np.asarray(value, order="C")
    metadata = {"format": "ms"}
    if crc_check:
        metadata["crc_num"] = str(_crc(records))
    if remove_redundancy is not None:
        metadata["remove_redundancy"] = str(bool(remove_redundancy))
    return save(records, metadata=metadata)


def _load_with_bfloat16(data):
    """``safetensors.numpy.load`` for files holding BF16 tensors (NumPy has no bfloat16; ml_dtypes does)."""
    length = struct.unpack_from("<Q", data)[0]
    header = json.loads(data[8:8 + length])
    records = {}
    for name, entry in header.items():
        if name == "__metadata__":
            continue
        begin, end = entry["data_offsets"]
        chunk = data[8 + length + begin:8 + length + end]
        if entry["dtype"] == "BF16":
            records[name] = np.frombuffer(chunk, ml_dtypes.bfloat16).reshape(entry["shape"]).copy()
        else:  # the library reads every other dtype, one tensor at a time
            records[name] = load(_single(entry, chunk))["t"]
    return records


def _single(entry, chunk):
    header = json.dumps({"t": {"dtype": entry["dtype"], "shape": entry["shape"],
                               "data_offsets": [0, len(chunk)]}}).encode()
    header += b" " * (-len(header) % 8)
    return struct.pack("<Q", len(header)) + header + chunk


def decode(data, file_name, crc_check=False):
    """safetensors bytes -> ``{name: ndarray}`` in sorted name order."""
    try:
        data = bytes(data)
        try:
            records = load(data)
        except Exception:  # noqa: BLE001 - BF16 is what safetensors.numpy refuses; anything else fails again below
            records = _load_with_bfloat16(data)
    except Exception as error:
        raise ValueError(f"For 'load_checkpoint', {file_name} is not a readable safetensors file: "
                         f"{error}") from None
    if crc_check:
        length = struct.unpack_from("<Q", data)[0]
        metadata = json.loads(bytes(data[8:8 + length])).get("__metadata__", {})
        if "crc_num" not in metadata:
            raise ValueError(f"For 'load_checkpoint', crc_check=True but {file_name} has no crc_num.")
        if int(metadata["crc_num"]) != _crc(records):
            raise ValueError(f"For 'load_checkpoint', {file_name}: CRC check failed: the file is corrupted.")
    return dict(sorted(records.items()))
