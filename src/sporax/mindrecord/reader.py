"""Reading MindRecord shards: ``load_shard`` (one file) and ``FileReader`` (a dataset).

A record is found through the shard's ``.db`` index (page ids and byte ranges of its raw and
blob parts); both parts carry an 8-byte length prefix that must agree with the index, so a
damaged or truncated file is reported with its name instead of yielding garbage.
"""
import mmap
import os
import struct

from sporax import temporary_files
from sporax.mindrecord import header as headers
from sporax.mindrecord.encryption import readable
from sporax.mindrecord.errors import ParamTypeError, ParamValueError
from sporax.mindrecord.index import read_index_rows, read_positions
from sporax.mindrecord.layout import ShardLayout
from sporax.mindrecord.schema import blob_fields, decode_blob, decode_raw, raw_fields


class Shard:
    """One shard file: its header, the index positions of its records, its bytes."""

    def __init__(self, path):
        self.path = path
        temporary_files.remove_stale(path)
        self.header = headers.read_header(path)
        self.positions = read_positions(path)
        with open(path, "rb") as handle:
            # mapped, not read: pages are sparse and shards may be large; slices copy out
            self.data = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
        self.pages = {page["page_id"]: page for page in self.header.pages}
        self._raw_fields = raw_fields(self.header.fields)
        self._blob_fields = blob_fields(self.header.fields)

    def __len__(self):
        return len(self.positions)

    def _part(self, page_id, start, end, kind, row):
        page = self.pages.get(page_id)
        if page is None or end > page["page_size"] or start + 8 > end:
            raise headers.DamagedFileError(
                f"Invalid file, the index of MindRecord file {self.path} points record {row} "
                f"to page {page_id} bytes [{start}, {end}), which its header does not hold; "
                "the file or its .db index is damaged.")
        offset = self.header.header_size + page_id * self.header.page_size
        chunk = self.data[offset + start:offset + end]
        length = struct.unpack_from("<Q", chunk)[0] if len(chunk) >= 8 else -1
        if length != len(chunk) - 8:
            raise headers.DamagedFileError(
                f"Invalid file, record {row} of MindRecord file {self.path} is damaged: its "
                f"{kind} part should hold {end - start - 8} bytes but the length stored in the "
                f"file is {length}.")
        return chunk[8:]

    def record(self, row, columns=None):
        """Record ``row`` (in ROW_ID order) as a dict: raw fields, then blob fields."""
        (_, raw_page, raw_start, raw_end, _, blob_page, blob_start,
         blob_end) = self.positions[row]
        fields = self.header.fields
        result = {}
        try:
            if self._raw_fields and (columns is None or set(columns) & set(self._raw_fields)):
                raw = decode_raw(self._part(raw_page, raw_start, raw_end, "raw", row))
                for name in self._raw_fields:
                    if columns is None or name in columns:
                        result[name] = raw[name]
            if self._blob_fields and (columns is None or set(columns) & set(self._blob_fields)):
                blob = self._part(blob_page, blob_start, blob_end, "blob", row)
                result.update(decode_blob(fields, blob, columns))
        except (ValueError, KeyError, struct.error) as error:
            raise headers.DamagedFileError(
                f"Invalid file, record {row} of MindRecord file {self.path} cannot be decoded "
                f"({error}); the file is damaged.") from None
        return result

    def to_layout(self, sink):
        """A ShardLayout continuing this shard (to append rows): its page table, and the bytes
        of its last blob and raw pages, the only ones appending can change."""
        layout = ShardLayout(self.header.shard_id, self.header.page_size, sink)
        layout.pages = [dict(self.pages[page_id]) for page_id in range(len(self.pages))]
        for kind in ("BLOB_DATA", "RAW_DATA"):
            page = layout.last(kind)
            if page is not None:
                offset = self.header.header_size + page["page_id"] * self.header.page_size
                layout.data[page["page_id"]] = bytearray(self.data[offset:offset + page["page_size"]])
        layout.positions = [tuple(p) for p in self.positions]
        layout.index_values = read_index_rows(self.path, self.header.index_fields)
        return layout


def load_shard(path):
    return Shard(path)


def dataset_paths(where, file_name, missing=ValueError):
    """The shard files to read: every shard named in the header of a single path, or exactly
    the files of a list."""
    load_all = not isinstance(file_name, (list, tuple))
    if not load_all:
        paths = [os.fspath(p) for p in file_name]
        if not paths:
            raise ParamValueError(f"{where}: the list of MindRecord files is empty.")
    elif isinstance(file_name, (str, os.PathLike)):
        paths = [os.fspath(file_name)]
    else:
        raise ParamTypeError("file_name", "str or list")
    for path in paths:
        if not os.path.isfile(path):
            raise missing(f"{where}: The file {path} does not exist or permission denied!")
    if load_all:
        head = headers.read_header(readable(paths[0]))
        folder = os.path.dirname(paths[0])
        siblings = [os.path.join(folder, name) for name in head.addresses]
        if len(siblings) > 1:
            for sibling in siblings:
                if not os.path.isfile(sibling):
                    raise headers.DamagedFileError(
                        f"Invalid file, MindRecord file {paths[0]} belongs to a set of "
                        f"{len(siblings)} shards but shard {sibling} does not exist.")
            return [readable(sibling) for sibling in siblings]
    return [readable(path) for path in paths]


def open_shards(where, file_name, missing=ValueError):
    shards = [load_shard(path) for path in dataset_paths(where, file_name, missing)]
    first = shards[0].header.fields
    for shard in shards[1:]:
        if shard.header.fields != first:
            raise headers.DamagedFileError(
                f"{where}: MindRecord files {shards[0].path} and {shard.path} have different "
                "schemas; files read together must share one schema.")
    return shards


class FileReader:
    """Read the records of MindRecord files (``mindspore.mindrecord.FileReader``).

    Args:
        file_name (str, list[str]): one file (all shards of its set are read) or a list of files.
        num_consumer (int): reader threads in MindSpore; accepted for compatibility (1-max).
        columns (list[str]): fields to return (default: all).
        operator (int): reserved by MindSpore. Default: None.

    Example:
        >>> reader = FileReader("/tmp/demo.mindrecord")
        >>> for row in reader.get_next(): print(row["label"])
        >>> reader.close()
    """

    def __init__(self, file_name, num_consumer=4, columns=None, operator=None):
        # reading is sequential here: num_consumer is checked, then not needed
        if not isinstance(num_consumer, int) or isinstance(num_consumer, bool) or num_consumer < 1:
            raise ParamValueError(f"Parameter num_consumer: {num_consumer!r} should be an int "
                                  "of at least 1.")
        if columns is not None:
            if not isinstance(columns, list):
                raise ParamTypeError("columns", "list")
        self._shards = open_shards("FileReader", file_name, RuntimeError)
        fields = self._shards[0].header.fields
        if columns is not None:
            unknown = [c for c in columns if c not in fields]
            if unknown:
                raise ParamValueError(f"FileReader: columns {unknown} are not in the schema "
                                      f"({sorted(fields)}).")
        self._columns = columns
        self._closed = False

    def get_next(self):
        """Yield each record as a dict (shard by shard, in file order)."""
        for shard in self._shards:
            for row in range(len(shard)):
                if self._closed:
                    return
                yield shard.record(row, self._columns)

    def close(self):
        self._closed = True

    def schema(self):
        return {name: dict(spec) for name, spec in self._shards[0].header.fields.items()}

    def len(self):
        return sum(len(shard) for shard in self._shards)
