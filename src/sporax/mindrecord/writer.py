"""``FileWriter``: write rows to MindRecord shard files and their SQLite indexes.

Rows are validated against the schema as MindSpore validates them (a row that does not match
is dropped with a warning naming the row and field), split over the shards (each call's rows
in contiguous runs, ``n // shard_num`` per shard; the remainder rows go to the next shards in
turn, so rows written one at a time spread evenly where MindSpore picks shards at random), and
placed in pages (``layout``) that go to disk as soon as they are full (``output``: a
temporary file per shard, renamed over the shard at ``commit``, which also writes the
header and the ``.db`` index).
"""
import enum
import os
import re
import warnings

import numpy as np

from sporax.mindrecord import header as headers
from sporax.mindrecord.errors import (
    MRMDefineIndexError,
    MRMGetMetaError,
    MRMInvalidSchemaError,
    MRMOpenForAppendError,
    ParamTypeError,
    ParamValueError,
)
from sporax.mindrecord.index import write_index
from sporax.mindrecord.layout import ShardLayout
from sporax.mindrecord.output import ShardOutput
from sporax.mindrecord.encryption import encrypt_written
from sporax.mindrecord.reader import load_shard
from sporax.mindrecord.schema import ARRAY_TYPES, SCALAR_TYPES, blob_fields, encode_blob, encode_raw


class MSRStatus(enum.IntEnum):
    """Status codes of MindSpore's MindRecord layer (``SUCCESS == 0``)."""

    SUCCESS = 0
    FAILED = 1


SUCCESS, FAILED = MSRStatus.SUCCESS, MSRStatus.FAILED

# Python/NumPy type name of a value -> schema types it may fill
_VALUE_TYPES = {"int": ("int32", "int64"), "float": ("float32", "float64"), "str": ("string",),
                "bytes": ("bytes",), "int32": ("int32",), "int64": ("int64",),
                "float32": ("float32",), "float64": ("float64",), "ndarray": ARRAY_TYPES}


def shard_paths(file_name, shard_num):
    """``file_name`` itself for one shard, else ``file_name`` + zero-padded shard number."""
    if shard_num == 1:
        return [file_name]
    digits = len(str(shard_num - 1))
    return [f"{file_name}{str(i).rjust(digits, '0')}" for i in range(shard_num)]


def check_file_name(file_name):
    if not isinstance(file_name, str) or not file_name:
        raise ParamValueError(f"File path is not valid: {file_name!r} (expected a non-empty str).")
    base = os.path.basename(file_name)
    if not base or any(c in base for c in '\\/:*?"<>|`&\';'):
        raise ParamValueError(f"File name should not contain '\\/:*?\"<>|`&;\\''. Got {base!r}.")
    folder = os.path.dirname(os.path.abspath(file_name))
    if not os.path.isdir(folder):
        raise ParamValueError(f"The parent directory of {file_name} does not exist.")


class FileWriter:
    """Write MindRecord files (``mindspore.mindrecord.FileWriter``).

    Args:
        file_name (str): path of the file; with ``shard_num > 1`` the shards are
            ``file_name0 .. file_nameN-1`` (zero padded), each with a ``.db`` index.
        shard_num (int): number of shard files, 1 to 1000. Default: 1.
        overwrite (bool): replace existing files of the same names. Default: False.

    Example:
        >>> writer = FileWriter("/tmp/demo.mindrecord", overwrite=True)
        >>> writer.add_schema({"label": {"type": "int32"}, "image": {"type": "bytes"}}, "demo")
        >>> writer.write_raw_data([{"label": 1, "image": b"abc"}])
        >>> writer.commit()
    """

    def __init__(self, file_name, shard_num=1, overwrite=False):
        check_file_name(file_name)
        if shard_num is None:
            raise ParamValueError("Parameter shard_num is None.")
        if not isinstance(shard_num, int) or isinstance(shard_num, bool):
            raise ParamValueError("Parameter shard_num's type is not int.")
        if not headers.MIN_SHARD_COUNT <= shard_num <= headers.MAX_SHARD_COUNT:
            raise ParamValueError(f"Parameter shard_num's value: {shard_num} should between "
                                  f"{headers.MIN_SHARD_COUNT} and {headers.MAX_SHARD_COUNT}.")
        if not isinstance(overwrite, bool):
            raise ParamValueError("Parameter overwrite's type is not bool.")
        self._file_name = file_name
        self._paths = shard_paths(file_name, shard_num)
        self._overwrite = overwrite
        self._fields = None
        self._desc = ""
        self._index_fields = []
        self._header_size = headers.DEFAULT_HEADER_SIZE
        self._page_size = headers.DEFAULT_PAGE_SIZE
        self._layouts = None
        self._outputs = None
        self._compression = [0] * shard_num
        self._committed = False
        self._checked_paths = False
        self._set_names = None  # (shard_addresses, shard ids) of a file opened for append
        self._parallel = None   # parallel_writer of the first call; later calls must agree
        self._next_shard = 0    # parallel writing sends each call's rows to one shard in turn;
        # otherwise the shard that takes the next remainder row (MindSpore picks at random)

    # --- configuration -------------------------------------------------------------------
    def add_schema(self, content, desc=None):
        """Set the schema: ``{field: {"type": T}}`` or ``{field: {"type": T, "shape": [...]}}``."""
        error = _schema_error(content)
        if error:
            raise MRMInvalidSchemaError(error)
        if self._fields is not None:
            raise MRMInvalidSchemaError("A schema is already set; MindRecord files hold one schema.")
        self._fields = {name: dict(spec) for name, spec in content.items()}
        self._desc = "" if desc is None else str(desc)

    def add_index(self, index_fields):
        """Name scalar (non-blob) fields to index in the ``.db`` files."""
        if not index_fields or not isinstance(index_fields, list):
            raise ParamTypeError("index_fields", "list")
        if self._fields is None:
            raise MRMGetMetaError("add_index needs a schema: call add_schema first.")
        blobs = blob_fields(self._fields)
        for field in index_fields:
            if field in blobs:
                raise MRMDefineIndexError(f"Failed to set field {field} since it's not primitive type.")
            if not isinstance(field, str):
                raise ParamTypeError("index field", "str")
            if field not in self._fields:
                raise MRMDefineIndexError(f"Failed to set index field {field}: it is not in the "
                                          f"schema ({sorted(self._fields)}).")
        self._index_fields = list(dict.fromkeys(self._index_fields + index_fields))

    def set_header_size(self, header_size):
        """Size of the header block of each shard, 16 KB to 128 MB. Default: 16 MB."""
        self._header_size = headers.check_header_size(header_size)

    def set_page_size(self, page_size):
        """Size of each data page, 32 KB to 256 MB (a record must fit a page). Default: 32 MB."""
        self._page_size = headers.check_page_size(page_size)

    # --- writing ---------------------------------------------------------------------------
    def _open(self):
        if self._fields is None:
            raise MRMGetMetaError("Failed to get meta info: call add_schema before writing.")
        if not self._checked_paths:
            for path in self._paths:
                for candidate in (path, path + ".db"):
                    if os.path.exists(candidate) and not self._overwrite:
                        raise RuntimeError(
                            f"Invalid file, mindrecord files already exist. Please check file "
                            f"path: {candidate}. If you do not want to keep the files, set the "
                            "'overwrite' parameter to True and try again.")
            self._checked_paths = True
        if self._layouts is None:
            self._outputs = [ShardOutput(path, self._header_size, self._page_size)
                             for path in self._paths]
            self._layouts = [ShardLayout(k, self._page_size, output.write_page)
                             for k, output in enumerate(self._outputs)]

    def write_raw_data(self, raw_data, parallel_writer=False):
        """Validate ``raw_data`` (a list of dicts) against the schema and add it to the shards."""
        if not isinstance(parallel_writer, bool):
            raise TypeError("The parameter `parallel_writer` must be bool.")
        if self._parallel is None:
            self._parallel = parallel_writer
            if parallel_writer and self._layouts is None:
                # MindSpore's parallel workers write each shard as a set of its own, with the
                # default header and page sizes (set_header_size/set_page_size do not reach them)
                self._header_size = headers.DEFAULT_HEADER_SIZE
                self._page_size = headers.DEFAULT_PAGE_SIZE
        elif self._parallel != parallel_writer:
            raise RuntimeError("The parameter `parallel_writer` must be consistent during use.")
        if self._committed:
            raise RuntimeError("Not allowed to call `write_raw_data` on flushed MindRecord "
                               "files. When creating new Mindrecord files, please remove "
                               "`commit` before `write_raw_data`. In other cases, when "
                               "appending to existing MindRecord files, please call "
                               "`open_for_append` first and then `write_raw_data`.")
        if not isinstance(raw_data, list):
            raise ParamTypeError("raw_data", "list")
        for row in raw_data:
            if not isinstance(row, dict):
                raise ParamTypeError("raw_data item", "dict")
        self._open()
        rows = _valid_rows(self._fields, raw_data)
        shards = len(self._paths)
        if parallel_writer:  # each call's rows to one shard, in turn (MindSpore's workers)
            counts = [0] * shards
            counts[self._next_shard] = len(rows)
            self._next_shard = (self._next_shard + 1) % shards
        else:
            base, extra = divmod(len(rows), shards)
            takers = {(self._next_shard + j) % shards for j in range(extra)}
            counts = [base + (k in takers) for k in range(shards)]
            self._next_shard = (self._next_shard + extra) % shards
        start = 0
        for k, (layout, count) in enumerate(zip(self._layouts, counts)):
            records = []
            for row in rows[start:start + count]:
                blob, saved = encode_blob(self._fields, row)
                self._compression[k] += saved
                values = [_python(row[name]) for name in self._effective_index()]
                records.append((encode_raw(self._fields, row), blob, values))
            if records:
                layout.append(records)
            start += count

    def _effective_index(self):
        """Index fields: those added, else every scalar (non-blob) field (MindSpore's default)."""
        if self._index_fields:
            return self._index_fields
        blobs = set(blob_fields(self._fields))
        return sorted(name for name in self._fields if name not in blobs)

    def commit(self):
        """Write every shard file and its ``.db`` index."""
        self._open()
        index = self._effective_index()
        for k, (path, layout, output) in enumerate(zip(self._paths, self._layouts, self._outputs)):
            addresses, shard_id = [os.path.basename(p) for p in self._paths], k
            if self._parallel:
                addresses, shard_id = [os.path.basename(path)], 0
            if self._set_names is not None:
                addresses, shard_id = self._set_names[0], self._set_names[1][k]
            head = headers.ShardHeader(
                self._fields, self._desc, index, self._header_size, self._page_size,
                addresses, shard_id, layout.pages, self._compression[k])
            layout.finish()
            output.commit(head.to_bytes())
            write_index(path, self._fields, index,
                        list(zip(layout.positions, layout.index_values)))
            os.chmod(path + ".db", 0o600)
        encrypt_written(self._paths)
        self._committed = True

    @classmethod
    def open_for_append(cls, file_name):
        """A FileWriter that appends rows to the MindRecord file ``file_name`` (that one shard,
        as MindSpore does; the header keeps its set's shard list)."""
        try:
            shard = load_shard(file_name)
        except headers.DamagedFileError as error:
            raise MRMOpenForAppendError(str(error)) from None
        head = shard.header
        writer = cls(file_name, 1, overwrite=True)
        writer._fields, writer._desc = head.fields, head.desc
        writer._index_fields = list(head.index_fields)
        writer._header_size, writer._page_size = head.header_size, head.page_size
        output = ShardOutput(file_name, head.header_size, head.page_size, in_place=True)
        writer._outputs = [output]
        writer._layouts = [shard.to_layout(output.write_page)]
        writer._compression = [head.compression_size]
        writer._set_names = (list(head.addresses), [head.shard_id])
        writer._checked_paths = True
        return writer


def _python(value):
    return value.item() if isinstance(value, np.generic) else value


def _schema_error(content):
    if not content:
        return "Schema content is empty."
    if not isinstance(content, dict):
        return "Schema content should be dict."
    for name, spec in content.items():
        if not isinstance(name, str) or not re.match(r"^[0-9a-zA-Z_]+$", name):
            return f"Field '{name}' should be composed of '0-9' or 'a-z' or 'A-Z' or '_'."
        if not spec or not isinstance(spec, dict):
            return f"Field '{name}' should be dict."
        if set(spec) == {"type"}:
            if spec["type"] not in SCALAR_TYPES:
                return f"Field '{name}' contain illegal attribute '{spec['type']}'."
        elif set(spec) == {"type", "shape"}:
            if spec["type"] not in ARRAY_TYPES:
                return f"Field '{name}' contain illegal attribute '{spec['type']}'."
            shape = spec["shape"]
            if not isinstance(shape, list) or not shape or \
                    any(not isinstance(d, int) or (d <= 0 and d != -1) for d in shape) or \
                    sum(d == -1 for d in shape) > 1:
                return f"Field '{name}' contains illegal attributes."
        else:
            return f"Field '{spec}' contains illegal attributes."
    return ""


def _valid_rows(fields, raw_data):
    """The rows that match the schema; others are dropped with a warning (as MindSpore does)."""
    kept = []
    for i, row in enumerate(raw_data):
        problem = _row_problem(fields, i, row)
        if problem:
            warnings.warn(problem, stacklevel=3)
        else:
            kept.append(row)
    return kept


def _row_problem(fields, i, row):
    for field, spec in fields.items():
        if field not in row:
            return f"for schema, {i} th data is wrong, there is not field: '{field}' in the raw data."
        value = row[field]
        kind = "ndarray" if isinstance(value, np.ndarray) else type(value).__name__
        if kind not in _VALUE_TYPES:
            return (f"for schema, {i} th data is wrong, data type: '{kind}' for field: "
                    f"'{field}' is not matched.")
        if spec["type"] not in _VALUE_TYPES[kind]:
            return (f"for schema, {i} th data is wrong, data type: '{spec['type']}' for field: "
                    f"'{field}' is not matched.")
        if kind == "ndarray":
            if "shape" not in spec:
                return f"for schema, {i} th data is wrong, data shape for field: '{field}' is not specified."
            if str(value.dtype) != spec["type"]:
                return (f"for schema, {i} th data is wrong, data type: '{value.dtype}' for "
                        f"field: '{field}' is not matched.")
            try:
                np.reshape(value, spec["shape"])
            except ValueError:
                return (f"for schema, {i} th data is wrong, data shape: '{value.shape}' for "
                        f"field: '{field}' is not matched.")
    return ""
