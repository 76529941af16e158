"""Standard-format sources: CSVDataset."""
import csv

import numpy as np

from sporax.dataset.engine.datasets_text import FileRowsDataset, expand_files
from sporax.dataset.engine.samplers import Shuffle


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
        self.dataset_files = expand_files(where, dataset_files)
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
            with open(self.dataset_files[0], newline="", encoding="utf-8") as handle:
                self.column_names = next(csv.reader(handle, delimiter=field_delim), [])

    def _column_names(self):
        return self.column_names

    def _load_rows(self):
        records = []
        for number, path in enumerate(self.dataset_files):
            with open(path, newline="", encoding="utf-8") as handle:
                reader = csv.reader(handle, delimiter=self.field_delim)
                if self._header:
                    next(reader, None)
                records.extend(row for row in reader if row)
        width = len(self.column_names)
        for row in records:
            if len(row) != width:
                raise RuntimeError(f"CSVDataset: a row has {len(row)} fields but there are "
                                   f"{width} columns ({self.column_names}): {row}.")
        columns = []
        for j in range(width):
            fields = [row[j] for row in records]
            default = None if self.column_defaults is None else self.column_defaults[j]
            columns.append(_convert(fields, default, self.column_names[j]))
        return columns


def _convert(fields, default, name):
    if default is None or isinstance(default, str):
        filled = [field if field or default is None else default for field in fields]
        return np.array(filled) if filled else np.zeros(0, dtype="<U1")
    kind, dtype = (int, np.int32) if isinstance(default, int) else (float, np.float32)
    values = []
    for field in fields:
        if field == "":
            values.append(default)
            continue
        try:
            values.append(kind(field))
        except ValueError:
            raise RuntimeError(f"CSVDataset: column '{name}' holds {field!r}, which is not a "
                               f"{kind.__name__} like its default {default!r}.") from None
    return np.array(values, dtype=dtype)
