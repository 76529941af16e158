"""The shared base of the corpus loaders: a dataset read once into a table of rows.

Each loader (AGNews, YesNo, Caltech256, ...) only says where its rows are (``_load_table``:
one list per column) and how a stored cell becomes a value (``_cell``: an image path is read or
decoded there, on demand). Sampling, shuffling, sharding and ``num_samples`` come from
:class:`MappableDataset`.
"""
import io
import os
import wave

import numpy as np
from PIL import Image

from sporax.dataset.core import config
from sporax.dataset.engine.datasets_text import shuffle_flag
from sporax.dataset.engine.datasets_vision import _check_dir as check_dir  # noqa: F401 (shared)
from sporax.dataset.engine.sources import MappableDataset


def check_choice(where, name, value, allowed, default=None):
    """``value`` (``default`` when None) if it is one of ``allowed``, else a ValueError."""
    value = default if value is None else value
    if value not in allowed:
        raise ValueError(f"{where}: Input {name} is not within the valid set of {list(allowed)}, "
                         f"but got {value!r}.")
    return value


def string(value):
    return np.array(value, dtype=np.str_)


class TableDataset(MappableDataset):
    """A source whose rows are listed once (lazily, on first use) as one list per column."""

    _parallel_reads = True

    def __init__(self, num_samples=None, num_parallel_workers=None, shuffle=None, sampler=None,
                 num_shards=None, shard_id=None, cache=None):
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id,
                         cache)
        self._table = None

    def _load_table(self):
        """One list per output column, every list one entry per row."""
        raise NotImplementedError(f"{type(self).__name__} must implement _load_table() (an "
                                  "internal method of its base class).")

    def _cell(self, column, value):
        """The output value of a stored cell (identity; loaders reading files override it)."""
        return value

    def _loaded(self):
        if self._table is None:
            table = self._load_table()
            if not table or not table[0]:
                raise RuntimeError(f"{type(self).__name__}: no data found under "
                                   f"{getattr(self, 'dataset_dir', None) or 'the given files'}; "
                                   "check the path and the usage against the dataset's documented "
                                   "layout.")
            self._table = table
        return self._table

    def _num_rows(self):
        return len(self._loaded()[0])

    def _read(self, indices):
        table = self._loaded()
        return [[self._cell(j, column[int(i)]) for i in indices] for j, column in enumerate(table)]

    def _labels(self):
        names = self._column_names()
        if "label" in names:
            return np.asarray([np.asarray(v).item() if np.asarray(v).size == 1 else 0
                               for v in self._loaded()[names.index("label")]])
        return None


class FileCorpusDataset(TableDataset):
    """A text corpus read from several files, MindSpore's non-mappable file sources.

    ``shuffle`` takes a bool or :class:`Shuffle` as MindSpore's file sources do. Without shuffling,
    rows come in MindSpore's order: file ``k`` goes to reader ``k % workers`` and the readers'
    rows are taken in turn (``interleave``), so the order depends on ``num_parallel_workers``
    (capped by the CPU count) exactly as it does there.
    """

    def __init__(self, num_samples=None, num_parallel_workers=None, shuffle=None,
                 num_shards=None, shard_id=None, cache=None):
        super().__init__(num_samples, num_parallel_workers, shuffle_flag(type(self).__name__,
                                                                          shuffle),
                         None, num_shards, shard_id, cache)

    def _file_rows(self):
        """One list of rows (tuples of column values) per file, in MindSpore's file order."""
        raise NotImplementedError(f"{type(self).__name__} must implement _file_rows() (an "
                                  "internal method of its base class).")

    def _load_table(self):
        workers = self.num_parallel_workers or config.get_num_parallel_workers()
        workers = max(1, min(workers, os.cpu_count() or 1))
        rows = interleave(self._file_rows(), workers)
        return [list(column) for column in zip(*rows)] if rows else []


def interleave(per_file_rows, workers):
    """Rows of several files as ``workers`` readers give them: reader ``k`` reads files
    ``k, k + workers, ...`` one after another; the output takes one row from each unfinished
    reader in turn."""
    streams = [[row for rows in per_file_rows[k::workers] for row in rows] for k in range(workers)]
    out, position = [], 0
    longest = max((len(s) for s in streams), default=0)
    for position in range(longest):
        out.extend(stream[position] for stream in streams if position < len(stream))
    return out


def read_bytes(path):
    with open(path, "rb") as handle:
        return np.frombuffer(handle.read(), dtype=np.uint8)


def read_image(where, path, decode, mode="RGB"):
    """An image file as its encoded bytes (uint8 vector) or, with ``decode``, HWC uint8 pixels."""
    data = read_bytes(path)
    if not decode:
        return data

    try:
        with Image.open(io.BytesIO(data.tobytes())) as image:
            return np.asarray(image.convert(mode))
    except Exception as error:
        raise RuntimeError(f"{where}: cannot decode {path} as an image: {error}") from None


def read_wav(where, path):
    """A PCM WAV file as (float32 waveform of shape (channels, frames), sample rate).

    Samples are divided by the largest positive value of their width (32767 for 16 bits), as
    MindSpore's audio loaders scale them.
    """
    try:
        with wave.open(path, "rb") as handle:
            channels, width = handle.getnchannels(), handle.getsampwidth()
            rate, frames = handle.getframerate(), handle.readframes(handle.getnframes())
    except (wave.Error, EOFError, OSError) as error:
        raise RuntimeError(f"{where}: {path} is not a readable PCM WAV file: {error}.") from None
    if width == 1:
        samples = (np.frombuffer(frames, np.uint8).astype(np.float32) - 128) / 127
    elif width == 2:
        samples = np.frombuffer(frames, "<i2").astype(np.float32) / 32767
    elif width == 3:
        raw = np.frombuffer(frames, np.uint8).reshape(-1, 3)
        value = raw[:, 0].astype(np.int32) | raw[:, 1].astype(np.int32) << 8 | \
            raw[:, 2].astype(np.int8).astype(np.int32) << 16
        samples = value.astype(np.float32) / 8388607
    else:
        samples = (np.frombuffer(frames, "<i4").astype(np.float64) / 2147483647).astype(np.float32)
    return np.ascontiguousarray(samples.reshape(-1, channels).T), rate


def sorted_files(directory, suffix=None):
    """The regular files of ``directory`` in sorted order (those ending with ``suffix``)."""
    if not os.path.isdir(directory):
        return []
    return [name for name in sorted(os.listdir(directory))
            if os.path.isfile(os.path.join(directory, name))
            and (suffix is None or name.lower().endswith(suffix))]


def sorted_dirs(directory):
    if not os.path.isdir(directory):
        return []
    return [name for name in sorted(os.listdir(directory))
            if os.path.isdir(os.path.join(directory, name))]


def read_lines(where, path, keep_empty=True):
    """The lines of a UTF-8 text file without their line breaks."""
    try:
        with open(path, encoding="utf-8", newline="") as handle:
            lines = [line.rstrip("\r\n") for line in handle.read().splitlines(True)]
    except UnicodeDecodeError as error:
        raise RuntimeError(f"{where}: {path} is not UTF-8 text ({error.reason} at byte "
                           f"{error.start}); the file is damaged or in another encoding.") from None
    except OSError as error:
        raise RuntimeError(f"{where}: cannot read {path}: {error}.") from None
    return lines if keep_empty else [line for line in lines if line]
