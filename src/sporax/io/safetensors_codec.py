"""Arrays to and from safetensors bytes with MindSpore's metadata (``formats.md`` B)."""
import binascii
import json
import struct

import ml_dtypes
import numpy as np
from safetensors import deserialize
from safetensors.numpy import save


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


def _dtype(name):
    """The NumPy dtype of a safetensors dtype name; BF16 is ml_dtypes' (NumPy has none, so safetensors.numpy refuses it)."""
    if name in ("BOOL", "BF16"):
        return np.bool_ if name == "BOOL" else ml_dtypes.bfloat16
    return np.dtype({"F": "float", "I": "int", "U": "uint"}[name[0]] + name[1:])


def _load(data):
    """``{name: ndarray}`` of safetensors bytes: the library parses them, each tensor is viewed in its dtype."""
    return {name: np.frombuffer(view["data"], _dtype(view["dtype"])).reshape(view["shape"])
            for name, view in deserialize(data)}


def decode(data, file_name, crc_check=False):
    """safetensors bytes -> ``{name: ndarray}`` in sorted name order."""
    try:
        data = bytes(data)
        records = _load(data)
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
