"""Text sources: TextFileDataset (one row per non-empty line)."""
import contextlib
import csv
import glob
import os

import numpy as np

from sporax.dataset.engine.samplers import Shuffle
from sporax.dataset.engine.sources import MappableDataset


def expand_files(where, dataset_files):
    """A path, glob pattern or list of paths as a list of existing files (in the given order)."""
    if isinstance(dataset_files, (str, os.PathLike)):
        pattern = os.fspath(dataset_files)
        files = sorted(glob.glob(pattern)) if any(c in pattern for c in "*?[") else [pattern]
    elif isinstance(dataset_files, (list, tuple)):
        files = [os.fspath(f) for f in dataset_files]
    else:
        raise TypeError(f"{where}: dataset_files must be a path or a list of paths, but got "
                        f"{type(dataset_files).__name__}.")
    if not files:
        raise ValueError(f"{where}: dataset_files matches no file: {dataset_files!r}.")
    for path in files:
        if not os.path.isfile(path):
            raise ValueError(f"{where}: The file {path} does not exist or permission denied!")
    return files


def shuffle_flag(where, shuffle):
    """Map MindSpore's shuffle argument of file sources (bool or Shuffle) to a bool."""
    if shuffle is None:
        return True
    if isinstance(shuffle, bool):
        return shuffle
    if shuffle == Shuffle.FALSE:
        return False
    if isinstance(shuffle, Shuffle) or shuffle in ("global", "files", "infile"):
        return True
    raise TypeError(f"{where}: shuffle must be a bool or a dataset.Shuffle value, but got "
                    f"{shuffle!r}.")


@contextlib.contextmanager
def read_errors_name(where, path):
    """Re-raise a decoding or reading error of ``path`` as a RuntimeError that names the file."""
    try:
        yield
    except UnicodeDecodeError as error:
        raise RuntimeError(f"{where}: {path} is not UTF-8 text: byte {error.object[error.start]:#04x} "
                           f"at offset {error.start} ({error.reason}); the file is damaged or in "
                           "another encoding.") from None
    except csv.Error as error:
        raise RuntimeError(f"{where}: {path} is not a readable CSV file: {error}.") from None
    except OSError as error:
        raise RuntimeError(f"{where}: cannot read {path}: {error}.") from None


def file_order_rows(counts, workers, num_shards=None, shard_id=None):
    """Row numbers (into the files' concatenated rows) in the order MindSpore 2.10's unshuffled
    file sources (TextFileDataset, CSVDataset) give them.

    The rows of one shard (``ceil(total / num_shards)`` consecutive rows, wrapping around to the
    first file when the last shard runs past the end) are cut into one block per file; block i
    goes to reader i % workers (an empty file takes its turn too), and the output takes one row
    from each reader in turn, skipping a reader that has finished.
    """
    total = sum(counts)
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    per_shard = -(-total // num_shards) if num_shards else total
    low = (shard_id or 0) * per_shard
    high = low + per_shard
    readers = [[] for _ in range(workers)]
    turn = before = 0
    while before < high:
        offset = 0
        for count in counts:
            starts_inside = before <= low < before + count
            if starts_inside or low <= before < high:
                first = max(low - before, 0)
                last = min(high - before, count)
                readers[turn].append(np.arange(offset + first, offset + last))
                turn = (turn + 1) % workers
            before += count
            offset += count
    streams = [np.concatenate(blocks) if blocks else np.zeros(0, np.int64) for blocks in readers]
    longest = max(len(stream) for stream in streams)
    table = np.full((longest, workers), -1, dtype=np.int64)
    for column, stream in enumerate(streams):
        table[:len(stream), column] = stream
    order = table.reshape(-1)
    return order[order >= 0]


class FileRowsDataset(MappableDataset):
    """Base for file sources that read every row into memory (rows are small text records).

    ``_load_rows`` records each file's row count in ``_file_counts``: unshuffled, the rows come
    in MindSpore's reader order (``file_order_rows``), not file after file.
    """

    def __init__(self, num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache):
        self._shuffled = shuffle_flag(type(self).__name__, shuffle)
        super().__init__(num_samples, num_parallel_workers, self._shuffled, None, num_shards,
                         shard_id, cache)
        self._rows = None
        self._file_counts = None
        self._argument_sampler = self.sampler  # a sampler set later (use_sampler, split) reads by index

    def _load_rows(self):
        raise NotImplementedError(f"{type(self).__name__} must implement _load_rows() (an internal method of its base class).")

    def _loaded(self):
        if self._rows is None:
            self._rows = self._load_rows()
        return self._rows

    def _num_rows(self):
        return len(self._loaded()[0])

    def _read(self, indices):
        return [column[indices] for column in self._loaded()]

    def _epoch_indices(self, ctx):
        self._loaded()
        if self._shuffled or self._file_counts is None or self.sampler is not self._argument_sampler:
            return super()._epoch_indices(ctx)
        order = file_order_rows(self._file_counts, self._workers(), self.num_shards, self.shard_id)
        return order[:self.num_samples] if self.num_samples else order


class TextFileDataset(FileRowsDataset):
    """Lines of text files (empty lines skipped) in one string column 'text'."""

    def __init__(self, dataset_files, num_samples=None, num_parallel_workers=None,
                 shuffle=Shuffle.GLOBAL, num_shards=None, shard_id=None, cache=None):
        self.dataset_files = sorted(expand_files(type(self).__name__, dataset_files))
        super().__init__(num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache)

    def _column_names(self):
        return ["text"]

    def _load_rows(self):
        lines, self._file_counts = [], []
        for path in self.dataset_files:
            with read_errors_name(type(self).__name__, path), open(path, encoding="utf-8") as handle:
                before = len(lines)
                lines.extend(line.rstrip("\r\n") for line in handle if line.strip("\r\n"))
                self._file_counts.append(len(lines) - before)
        return [np.array(lines) if lines else np.zeros(0, dtype="<U1")]
