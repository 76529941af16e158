"""MindSpore's summary event file: length-prefixed, CRC-checked records of protobuf ``Event`` messages.

Each record is ``uint64 length`` (little endian), the masked CRC-32C of those 8 bytes, the
``Event`` bytes, and the masked CRC-32C of the ``Event`` bytes (the TFRecord framing MindInsight
reads). The messages are those of MindSpore's ``summary.proto`` (encoded here directly):

    Event    {1: double wall_time, 2: int64 step, 3: string version, 5: Summary summary}
    Summary  {1: repeated Value value}
    Value    {1: string tag, 3: float scalar_value, 4: Image image, 8: TensorProto tensor,
              9: Histogram histogram}
    Image    {1: int32 height, 2: int32 width, 3: int32 colorspace, 4: bytes encoded_image (PNG)}
    Histogram{1: repeated Bucket{1: double left, 2: double width, 3: int64 count},
              2: nan_count, 3: pos_inf_count, 4: neg_inf_count, 5: double max, 6: double min,
              7: double sum, 8: int64 count}
    TensorProto {1: repeated int64 dims (unpacked), 2: DataType data_type, 3: packed float float_data}

The first record of a file is ``Event{wall_time, version="MindSpore.Event:1"}``.
"""
import struct

from sporax.io.wire import encode_varint, length_delimited

VERSION = "MindSpore.Event:1"


def _crc32c_table():
    table = []
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1
        table.append(crc)
    return table


_TABLE = _crc32c_table()


def crc32c(data):
    """The CRC-32C (Castagnoli) checksum of ``data``."""
    crc = 0xFFFFFFFF
    table = _TABLE
    for byte in data:
        crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def masked_crc32c(data):
    crc = crc32c(data)
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def frame(payload):
    """One record of the file: length, its checksum, the payload, its checksum."""
    header = struct.pack("<Q", len(payload))
    return header + struct.pack("<I", masked_crc32c(header)) + payload + struct.pack("<I", masked_crc32c(payload))


def read_records(data):
    """The payloads of a summary file's bytes, checking both checksums of every record."""
    payloads = []
    position = 0
    while position < len(data):
        if position + 12 > len(data):
            raise ValueError(f"Summary file truncated at byte {position} (record header).")
        header = data[position:position + 8]
        (length,) = struct.unpack("<Q", header)
        (header_crc,) = struct.unpack("<I", data[position + 8:position + 12])
        if header_crc != masked_crc32c(header):
            raise ValueError(f"Summary file: bad length checksum at byte {position}.")
        payload = data[position + 12:position + 12 + length]
        end = position + 12 + length
        if end + 4 > len(data):
            raise ValueError(f"Summary file truncated at byte {position} (record payload).")
        (payload_crc,) = struct.unpack("<I", data[end:end + 4])
        if payload_crc != masked_crc32c(payload):
            raise ValueError(f"Summary file: bad payload checksum at byte {end}.")
        payloads.append(payload)
        position = end + 4
    return payloads


def varint_field(number, value):
    return encode_varint(number << 3) + encode_varint(int(value))


def double_field(number, value):
    return encode_varint((number << 3) | 1) + struct.pack("<d", float(value))


def float_field(number, value):
    return encode_varint((number << 3) | 5) + struct.pack("<f", float(value))


def version_event(wall_time):
    return double_field(1, wall_time) + length_delimited(3, VERSION.encode())


def summary_event(wall_time, step, values):
    """An ``Event`` holding one ``Summary`` of the already encoded ``Value`` messages."""
    summary = b"".join(length_delimited(1, value) for value in values)
    return double_field(1, wall_time) + varint_field(2, step) + length_delimited(5, summary)
