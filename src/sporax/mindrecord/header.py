"""The shard header: a JSON document at the start of every MindRecord shard file.

On disk a shard is ``[8-byte little-endian JSON length][JSON][zeros up to header_size]``
followed by pages, page ``i`` at ``header_size + i * page_size``; the file ends where its
highest page's data ends. The JSON (compact, UTF-8) holds, in MindSpore's key order:
header_size, index_fields, page (one entry per page), page_size, compression_size, schema,
shard_addresses (every shard's file name), shard_id, statistics, version.
"""
import json
import os
import struct

from sporax.mindrecord import schema as record_schema
from sporax.mindrecord.errors import MRMInvalidHeaderSizeError

MIN_HEADER_SIZE, MAX_HEADER_SIZE = 1 << 14, 1 << 27
MIN_PAGE_SIZE, MAX_PAGE_SIZE = 1 << 15, 1 << 28
DEFAULT_HEADER_SIZE, DEFAULT_PAGE_SIZE = 1 << 24, 1 << 25
MIN_SHARD_COUNT, MAX_SHARD_COUNT = 1, 1000
VERSION = "3.0"


class DamagedFileError(RuntimeError):
    """A MindRecord file (or its .db index) is not what its header says."""


def _check_size(size, low, high, error, what):
    if not isinstance(size, int) or isinstance(size, bool) or not low <= size <= high:
        raise error(f"Invalid {what} size: {size!r}; it must be an int in [{low} bytes, "
                    f"{high} bytes].")
    return size


def check_header_size(size):
    # MindSpore raises these from its C++ writer, so as RuntimeError
    return _check_size(size, MIN_HEADER_SIZE, MAX_HEADER_SIZE, RuntimeError, "header")


def check_page_size(size):
    return _check_size(size, MIN_PAGE_SIZE, MAX_PAGE_SIZE, RuntimeError, "page")


class ShardHeader:
    """The header of one shard: sizes, schema, index fields, page table, shard list."""

    def __init__(self, fields=None, desc="", index_fields=None, header_size=DEFAULT_HEADER_SIZE,
                 page_size=DEFAULT_PAGE_SIZE, addresses=(), shard_id=0, pages=None,
                 compression_size=0, version=VERSION):
        self.fields = dict(fields or {})
        self.desc = desc
        self.index_fields = list(index_fields) if index_fields else []
        self.header_size = header_size
        self.page_size = page_size
        self.addresses = list(addresses)
        self.shard_id = shard_id
        self.pages = list(pages or [])
        self.compression_size = compression_size
        self.version = version

    @property
    def blob_fields(self):
        return record_schema.blob_fields(self.fields)

    def to_json(self):
        schema = {"blob_fields": self.blob_fields, "desc": self.desc,
                  "schema": {name: dict(sorted(spec.items()))
                             for name, spec in sorted(self.fields.items())}}
        document = {
            "header_size": self.header_size,
            "index_fields": ([{"index_field": name, "schema_id": 0} for name in self.index_fields]
                             or None),
            "page": [dict(sorted(page.items())) for page in self.pages] or None,
            "page_size": self.page_size,
            "compression_size": self.compression_size,
            "schema": [schema],
            "shard_addresses": self.addresses,
            "shard_id": self.shard_id,
            "statistics": None,
            "version": self.version,
        }
        return json.dumps(document, separators=(",", ":"), ensure_ascii=False).encode("utf-8")

    def to_bytes(self):
        """The header block without its zero padding: length, then JSON."""
        text = self.to_json()
        if 8 + len(text) > self.header_size:
            raise MRMInvalidHeaderSizeError(
                f"The shard header needs {8 + len(text)} bytes but header_size is "
                f"{self.header_size}; call FileWriter.set_header_size with a larger value.")
        return struct.pack("<Q", len(text)) + text

    @classmethod
    def from_document(cls, document):
        schemas = document.get("schema") or []
        if len(schemas) != 1:
            raise ValueError(f"expected one schema, found {len(schemas)}")
        schema = schemas[0]
        fields = {name: dict(spec) for name, spec in schema["schema"].items()}
        index = [entry["index_field"] for entry in document.get("index_fields") or []]
        return cls(fields, schema.get("desc", ""), index, document["header_size"],
                   document["page_size"], document.get("shard_addresses", []),
                   document.get("shard_id", 0), document.get("page") or [],
                   document.get("compression_size", 0), document.get("version", VERSION))


_FIELD_TYPES = ("int32", "int64", "float32", "float64", "string", "bytes")
_ARRAY_TYPES = ("int32", "int64", "float32", "float64")
_PAGE_KEYS = ("page_id", "page_size", "start_row_id", "end_row_id", "page_type_id")


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _check_document(header):
    """Raise ValueError saying which part of a decoded header cannot be what MindSpore writes."""
    for name, value in (("header_size", header.header_size), ("page_size", header.page_size)):
        if not _is_int(value) or value <= 0:
            raise ValueError(f"{name} is {value!r}, not a positive int")
    for name, spec in header.fields.items():
        kind = spec.get("type")
        if kind not in _FIELD_TYPES:
            raise ValueError(f"field {name!r} has type {kind!r}, not one of {', '.join(_FIELD_TYPES)}")
        if "shape" in spec:
            shape = spec["shape"]
            if kind not in _ARRAY_TYPES or not isinstance(shape, list) or not all(
                    _is_int(size) and (size > 0 or size == -1) for size in shape):
                raise ValueError(f"field {name!r} has shape {shape!r} for type {kind!r}")
    for name in header.index_fields:
        if name not in header.fields:
            raise ValueError(f"index field {name!r} is not in the schema")
    for page in header.pages:
        if not isinstance(page, dict):
            raise ValueError(f"a page entry is {page!r}, not an object")
        for key in _PAGE_KEYS:
            if not _is_int(page.get(key)) or page[key] < 0:
                raise ValueError(f"page {page.get('page_id')!r} has {key} {page.get(key)!r}")
        if page.get("page_type") not in ("RAW_DATA", "BLOB_DATA"):
            raise ValueError(f"page {page['page_id']} has page_type {page.get('page_type')!r}")
        if page["page_size"] > header.page_size:
            raise ValueError(f"page {page['page_id']} holds {page['page_size']} bytes, more than "
                             f"page_size {header.page_size}")


def read_header(path):
    """The ShardHeader of the shard file ``path``; DamagedFileError names the file if broken."""
    try:
        with open(path, "rb") as handle:
            prefix = handle.read(8)
            if len(prefix) < 8:
                raise DamagedFileError(
                    f"Invalid file, MindRecord file {path} is too short ({len(prefix)} bytes) "
                    "to hold a shard header; it is truncated or not a MindRecord file.")
            length = struct.unpack("<Q", prefix)[0]
            if not 0 < length <= MAX_HEADER_SIZE:
                raise DamagedFileError(
                    f"Invalid file, MindRecord file {path} does not start with a shard header "
                    f"(header length field {length}); it is not a MindRecord file or it is damaged.")
            text = handle.read(length)
    except OSError as error:
        raise DamagedFileError(f"Invalid file, failed to open MindRecord file {path}: {error}.") \
            from None
    if len(text) < length:
        raise DamagedFileError(f"Invalid file, MindRecord file {path} is truncated inside its "
                               f"header ({len(text)} of {length} header bytes).")
    try:
        header = ShardHeader.from_document(json.loads(text.decode("utf-8")))
        _check_document(header)
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        raise DamagedFileError(f"Invalid file, the header of MindRecord file {path} is not a "
                               f"valid shard header ({error}); the file is damaged.") from None
    # A shard that got no rows (4 rows over 8 shards) is its header alone, as MindSpore writes it too.
    end = max((header.header_size + page["page_id"] * header.page_size + page["page_size"]
               for page in header.pages), default=8 + length)
    size = os.path.getsize(path)
    if size < end:
        raise DamagedFileError(f"Invalid file, MindRecord file {path} is truncated: its header "
                               f"describes {end} bytes but the file has {size}.")
    return header
