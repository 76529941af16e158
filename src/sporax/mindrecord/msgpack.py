"""The MessagePack subset MindRecord stores its raw (non-blob) fields in.

MindSpore serialises each row's scalar fields as a MessagePack map with sorted keys, choosing
encodings the way its C++ JSON library does: the smallest integer form (unsigned for values
>= 0), a float32 whenever the value survives the round trip through float32, the shortest
string header. Writing with the same rules makes sporax's pages byte-identical to MindSpore's.
"""
import struct

import numpy as np


def pack(value):
    """Encode a dict/str/int/float/bool/None/bytes/list as MessagePack bytes."""
    out = bytearray()
    _pack(value, out)
    return bytes(out)


def _pack(value, out):
    if value is None:
        out.append(0xC0)
    elif value is True or value is False:
        out.append(0xC3 if value else 0xC2)
    elif isinstance(value, (int, np.integer)):
        _pack_int(int(value), out)
    elif isinstance(value, (float, np.floating)):
        value = float(value)
        with np.errstate(over="ignore"):
            single = np.float32(value)
        if np.isfinite(single) and float(single) == value:
            out.append(0xCA)
            out += struct.pack(">f", value)
        else:
            out.append(0xCB)
            out += struct.pack(">d", value)
    elif isinstance(value, str):
        data = value.encode("utf-8")
        _header(out, len(data), 0xA0, 32, (0xD9, 0xDA, 0xDB))
        out += data
    elif isinstance(value, (bytes, bytearray)):
        _header(out, len(value), None, 0, (0xC4, 0xC5, 0xC6))
        out += value
    elif isinstance(value, dict):
        _header(out, len(value), 0x80, 16, (None, 0xDE, 0xDF))
        for key in sorted(value):
            _pack(key, out)
            _pack(value[key], out)
    elif isinstance(value, (list, tuple)):
        _header(out, len(value), 0x90, 16, (None, 0xDC, 0xDD))
        for item in value:
            _pack(item, out)
    else:
        raise TypeError(f"MindRecord cannot store a value of type {type(value).__name__}.")


def _pack_int(value, out):
    if value >= 0:
        if value < 128:
            out.append(value)
        else:
            for code, fmt, limit in ((0xCC, ">B", 1 << 8), (0xCD, ">H", 1 << 16),
                                     (0xCE, ">I", 1 << 32), (0xCF, ">Q", 1 << 64)):
                if value < limit:
                    out.append(code)
                    out += struct.pack(fmt, value)
                    return
            raise OverflowError(f"MindRecord integer {value} does not fit in 64 bits.")
    elif value >= -32:
        out.append(value & 0xFF)
    else:
        for code, fmt, limit in ((0xD0, ">b", 1 << 7), (0xD1, ">h", 1 << 15),
                                 (0xD2, ">i", 1 << 31), (0xD3, ">q", 1 << 63)):
            if value >= -limit:
                out.append(code)
                out += struct.pack(fmt, value)
                return
        raise OverflowError(f"MindRecord integer {value} does not fit in 64 bits.")


def _header(out, length, fix_code, fix_limit, codes):
    if fix_code is not None and length < fix_limit:
        out.append(fix_code | length)
        return
    for code, fmt, limit in zip(codes, (">B", ">H", ">I"), (1 << 8, 1 << 16, 1 << 32)):
        if code is not None and length < limit:
            out.append(code)
            out += struct.pack(fmt, length)
            return
    raise OverflowError("MindRecord value is too long for MessagePack.")


_FIXED = {0xCC: ">B", 0xCD: ">H", 0xCE: ">I", 0xCF: ">Q", 0xD0: ">b", 0xD1: ">h", 0xD2: ">i",
          0xD3: ">q", 0xCA: ">f", 0xCB: ">d"}
_LENGTHS = {0xD9: (">B", "str"), 0xDA: (">H", "str"), 0xDB: (">I", "str"),
            0xC4: (">B", "bin"), 0xC5: (">H", "bin"), 0xC6: (">I", "bin"),
            0xDC: (">H", "array"), 0xDD: (">I", "array"), 0xDE: (">H", "map"), 0xDF: (">I", "map")}


def unpack(data):
    """Decode one MessagePack value that fills ``data``; ValueError when it is malformed."""
    try:
        value, end = _unpack(data, 0)
    except (IndexError, struct.error, UnicodeDecodeError) as error:
        raise ValueError(f"malformed MessagePack record ({error})") from None
    if end != len(data):
        raise ValueError(f"malformed MessagePack record ({len(data) - end} trailing bytes)")
    return value


def _unpack(data, pos):
    code = data[pos]
    pos += 1
    if code < 0x80:
        return code, pos
    if code >= 0xE0:
        return code - 0x100, pos
    if 0xA0 <= code <= 0xBF:
        return _text(data, pos, code & 0x1F)
    if 0x80 <= code <= 0x8F:
        return _map(data, pos, code & 0x0F)
    if 0x90 <= code <= 0x9F:
        return _array(data, pos, code & 0x0F)
    if code in (0xC0, 0xC2, 0xC3):
        return {0xC0: None, 0xC2: False, 0xC3: True}[code], pos
    if code in _FIXED:
        fmt = _FIXED[code]
        size = struct.calcsize(fmt)
        return struct.unpack_from(fmt, data, pos)[0], pos + size
    if code in _LENGTHS:
        fmt, kind = _LENGTHS[code]
        length = struct.unpack_from(fmt, data, pos)[0]
        pos += struct.calcsize(fmt)
        if kind == "str":
            return _text(data, pos, length)
        if kind == "bin":
            return bytes(data[pos:pos + length]), pos + length
        return (_array if kind == "array" else _map)(data, pos, length)
    raise ValueError(f"unsupported MessagePack code 0x{code:02x}")


def _text(data, pos, length):
    if pos + length > len(data):
        raise IndexError("string runs past the record")
    return bytes(data[pos:pos + length]).decode("utf-8"), pos + length


def _array(data, pos, count):
    items = []
    for _ in range(count):
        item, pos = _unpack(data, pos)
        items.append(item)
    return items, pos


def _map(data, pos, count):
    result = {}
    for _ in range(count):
        key, pos = _unpack(data, pos)
        result[key], pos = _unpack(data, pos)
    return result, pos
