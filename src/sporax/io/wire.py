"""The protobuf wire encoding of MindSpore's ``checkpoint.proto``, with byte offsets.

The schema is three tiny messages (``Checkpoint{repeated Value}``, ``Value{tag, tensor}``,
``TensorProto{dims, tensor_type, tensor_content}``). sporax encodes them directly rather than
through a generated protobuf class because the format needs byte-exact control (unpacked dims,
field order, 512 MiB record splitting) and a reader that reports the byte offset of damage
(``formats.md`` A.1–A.4).
"""


class WireError(ValueError):
    """Malformed protobuf bytes; ``offset`` is where reading failed."""

    def __init__(self, message, offset):
        super().__init__(message)
        self.offset = offset


def encode_varint(value):
    if value < 0:
        value += 1 << 64
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def length_delimited(field_number, payload):
    return encode_varint((field_number << 3) | 2) + encode_varint(len(payload)) + payload


def decode_varint(data, position, end):
    result = shift = 0
    start = position
    while True:
        if position >= end:
            raise WireError("truncated varint", start)
        byte = data[position]
        position += 1
        result |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return result, position
        if shift > 63:
            raise WireError("varint longer than 10 bytes", start)


def iterate_fields(data, start=0, end=None):
    """Yield ``(field_number, wire_type, value, offset)``; ``value`` is an int or a (begin, end) span."""
    end = len(data) if end is None else end
    position = start
    while position < end:
        offset = position
        key, position = decode_varint(data, position, end)
        field_number, wire_type = key >> 3, key & 7
        if wire_type == 0:
            value, position = decode_varint(data, position, end)
        elif wire_type == 2:
            length, position = decode_varint(data, position, end)
            if position + length > end:
                raise WireError(f"field {field_number} claims {length} bytes but only "
                                f"{end - position} remain", offset)
            value = (position, position + length)
            position += length
        elif wire_type == 1:
            value, position = (position, position + 8), position + 8
        elif wire_type == 5:
            value, position = (position, position + 4), position + 4
        else:
            raise WireError(f"unknown wire type {wire_type}", offset)
        if position > end:
            raise WireError(f"field {field_number} runs past the end of its message", offset)
        yield field_number, wire_type, value, offset


def encode_record(name, tensor_type, dims, content):
    """One ``Checkpoint`` message holding one ``Value``: the unit a ``.ckpt`` file concatenates."""
    tensor = b"".join(b"\x08" + encode_varint(dim) for dim in dims)
    tensor += length_delimited(2, tensor_type.encode()) + length_delimited(3, content)
    value = length_delimited(1, name.encode()) + length_delimited(2, tensor)
    return length_delimited(1, value)


def decode_records(data, end=None):
    """Yield ``(name, tensor_type, dims, content_memoryview, offset)`` for each record."""
    view = memoryview(data)
    for field_number, wire_type, span, offset in iterate_fields(data, 0, end):
        if (field_number, wire_type) != (1, 2):
            raise WireError(f"expected a checkpoint record (field 1), found field {field_number} "
                            f"of wire type {wire_type}", offset)
        name = tensor_span = None
        for number, kind, value, inner_offset in iterate_fields(data, *span):
            if number == 1 and kind == 2:
                name = bytes(view[value[0]:value[1]]).decode("utf-8", errors="replace")
            elif number == 2 and kind == 2:
                tensor_span = value
            elif number == 3:
                raise WireError("MapParameter records (MapTensorProto) are not supported", inner_offset)
        if name is None or tensor_span is None:
            raise WireError("record without a name or tensor", offset)
        dims, tensor_type, content = [], None, None
        for number, kind, value, inner_offset in iterate_fields(data, *tensor_span):
            if number == 1 and kind == 0:
                dims.append(value - (1 << 64) if value >= 1 << 63 else value)
            elif number == 1 and kind == 2:
                position = value[0]
                while position < value[1]:
                    dim, position = decode_varint(data, position, value[1])
                    dims.append(dim)
            elif number == 2 and kind == 2:
                tensor_type = bytes(view[value[0]:value[1]]).decode("ascii", errors="replace")
            elif number == 3 and kind == 2:
                content = view[value[0]:value[1]]
        if tensor_type is None or content is None:
            raise WireError(f"record {name!r} has no tensor type or content", offset)
        yield name, tensor_type, dims, content, offset
