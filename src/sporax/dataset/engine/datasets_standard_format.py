"""Standard-format sources: CSVDataset, TFRecordDataset."""
import csv
import struct

import numpy as np

from sporax.dataset.engine.datasets_text import FileRowsDataset, expand_files, read_errors_name
from sporax.dataset.engine.samplers import Shuffle
from sporax.dataset.engine.schema import Schema
from sporax.dataset.engine.tfrecord import Rows, parse_example, read_records


class CSVDataset(FileRowsDataset):
    """Rows of CSV files, one column per field.

    Without ``column_defaults`` every field is a string; with them each column takes the type
    of its default (int -> int32, float -> float32, str) and empty fields take the default.
    Without ``column_names`` the first line of the first file names the columns.
    """

    def __init__(self, dataset_files, field_delim=",", column_defaults=None, column_names=None,
                 num_samples=None, num_parallel_workers=None, shuffle=Shuffle.GLOBAL,
                 num_shards=None, shard_id=None, cache=None):
        where = type(self).__name__
        self.dataset_files = sorted(expand_files(where, dataset_files))
        if not isinstance(field_delim, str) or len(field_delim) != 1 or field_delim in "\"\r\n":
            raise ValueError(f"{where}: field_delim must be one character other than a quote or "
                             "a line break.")
        self.field_delim = field_delim
        if column_defaults is not None:
            for value in column_defaults:
                if not isinstance(value, (int, float, str)) or isinstance(value, bool):
                    raise TypeError(f"{where}: column_defaults must hold int, float or str values.")
        self.column_defaults = column_defaults
        self._header = column_names is None
        self.column_names = list(column_names) if column_names is not None else None
        super().__init__(num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache)
        if self.column_names is None:
            with read_errors_name(where, self.dataset_files[0]):
                with open(self.dataset_files[0], newline="", encoding="utf-8") as handle:
                    self.column_names = next(csv.reader(handle, delimiter=field_delim), [])
            if not self.column_names:
                raise RuntimeError(f"{where}: {self.dataset_files[0]} has no header line to name "
                                   "the columns; pass column_names or fix the file.")

    def _column_names(self):
        return self.column_names

    def _load_rows(self):
        records, origins, self._file_counts = [], [], []
        for path in self.dataset_files:
            self._file_counts.append(-len(records))
            with read_errors_name("CSVDataset", path):
                with open(path, newline="", encoding="utf-8") as handle:
                    reader = csv.reader(handle, delimiter=self.field_delim)
                    if self._header:
                        next(reader, None)
                    for row in reader:
                        if row:
                            records.append(row)
                            origins.append((path, reader.line_num))
            self._file_counts[-1] += len(records)
        width = len(self.column_names)
        for row, (path, line) in zip(records, origins):
            if len(row) != width:
                raise RuntimeError(f"CSVDataset: line {line} of {path} has {len(row)} fields but "
                                   f"there are {width} columns ({self.column_names}): {row}.")
        columns = []
        for j in range(width):
            fields = [row[j] for row in records]
            default = None if self.column_defaults is None else self.column_defaults[j]
            columns.append(_convert(fields, default, self.column_names[j], origins))
        return columns


def _convert(fields, default, name, origins):
    if default is None or isinstance(default, str):
        filled = [field if field or default is None else default for field in fields]
        return np.array(filled) if filled else np.zeros(0, dtype="<U1")
    kind, dtype = (int, np.int32) if isinstance(default, int) else (float, np.float32)
    values = []
    for field, (path, line) in zip(fields, origins):
        if field == "":
            values.append(default)
            continue
        try:
            values.append(kind(field))
        except ValueError:
            raise RuntimeError(f"CSVDataset: column '{name}' at line {line} of {path} holds "
                               f"{field!r}, which is not a {kind.__name__} like its default "
                               f"{default!r}.") from None
    return np.array(values, dtype=dtype)


class TFRecordDataset(FileRowsDataset):
    """Rows of TFRecord files of tf.train.Example; one column per feature (sorted names), or
    the columns of ``schema`` / ``columns_list``. int64 lists are int64, float lists float32, a
    single bytes value a uint8 array."""

    def __init__(self, dataset_files, schema=None, columns_list=None, num_samples=None,
                 num_parallel_workers=None, shuffle=Shuffle.GLOBAL, num_shards=None, shard_id=None,
                 shard_equal_rows=False, cache=None, compression_type=None):
        where = type(self).__name__
        self.dataset_files = expand_files(where, dataset_files)
        if compression_type not in (None, ""):
            raise NotImplementedError(f"{where}(compression_type={compression_type!r}) is not "
                                      "supported by sporax; decompress the files first.")
        if isinstance(schema, str):
            schema = Schema(schema)
        self.schema = schema
        self.columns_list = None if columns_list is None else list(columns_list)
        super().__init__(num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache)
        self._names = self._decide_columns()

    def _decide_columns(self):
        if self.columns_list is not None:
            return self.columns_list
        if self.schema is not None:
            return [c["name"] for c in self.schema.columns]
        path = self.dataset_files[0]
        records = read_records(path)
        if not records:
            raise RuntimeError(f"TFRecordDataset: {path} holds no records to take the column names "
                               "from; pass schema or columns_list, or check the file.")
        return sorted(_parse(path, 0, records[0]))

    def _column_names(self):
        return self._names

    def _load_rows(self):
        specs = {}
        if self.schema is not None:
            specs = {c["name"]: c for c in self.schema.columns}
        columns = [[] for _ in self._names]
        for path in self.dataset_files:
            for number, record in enumerate(read_records(path)):
                features = _parse(path, number, record)
                for j, name in enumerate(self._names):
                    if name not in features:
                        raise RuntimeError(f"TFRecordDataset: a record of {path} has no feature "
                                           f"'{name}'; its features are {sorted(features)}.")
                    value = features[name]
                    spec = specs.get(name)
                    if spec is not None:
                        value = value.astype(spec["type"])
                        if spec["shape"] is not None:
                            value = value.reshape(spec["shape"])
                    columns[j].append(value)
        return [Rows(values) for values in columns]


def _parse(path, number, record):
    try:
        features = parse_example(record)
        if None in features:
            raise ValueError("a feature has no name")
        return features
    except (RuntimeError, ValueError, IndexError, KeyError, TypeError, struct.error) as error:
        raise RuntimeError(f"TFRecordDataset: record {number} of {path} is not a readable "
                           f"tf.train.Example ({error}); the file is damaged.") from None
