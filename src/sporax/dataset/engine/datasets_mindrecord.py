"""MindDataset: rows of MindRecord files (``sporax.mindrecord``) as a random-access source.

Columns are the schema's fields in name order (or ``columns_list``). Scalars come out as 0-d
arrays of their schema type, strings as 0-d unicode arrays, ``bytes`` fields as a 1-element
``numpy.bytes_`` array (what MindSpore yields; ``vision.Decode`` takes it), array fields as
arrays of their shape. Without shuffling the order is file by file, each in write order.
``Shuffle.FILES`` shuffles the file order, ``Shuffle.INFILE`` the rows within each file,
``True``/``Shuffle.ADAPTIVE``/``Shuffle.GLOBAL`` all rows, ``Shuffle.PARTIAL`` the rows within
each run of a million. Under a dataset seed these orders are MindSpore's (``mindrecord_order``).
``padded_sample``/``num_padded`` append copies of a
sample so every one of ``num_shards`` shards gets the same number of rows.
"""
import numpy as np

from sporax.dataset.core import config
from sporax.dataset.core.random import make_rng
from sporax.dataset.engine import mindrecord_order as reader_order
from sporax.dataset.engine.samplers import DistributedSampler, RandomSampler, Shuffle
from sporax.dataset.engine.sources import MappableDataset
from sporax.mindrecord.reader import open_shards

_PARTIAL_ROWS = 1_000_000  # Shuffle.PARTIAL shuffles within runs of this many rows


class MindDataset(MappableDataset):
    """Read MindRecord files (``mindspore.dataset.MindDataset``).

    Args:
        dataset_files (str, list[str]): one file (every shard of its set is read) or a list.
        columns_list (list[str]): columns to read, in this order. Default: all, by name.
        num_parallel_workers (int): reader threads.
        shuffle (bool, Shuffle): see the module notes. Default: None (global shuffle).
        num_shards (int), shard_id (int): read one of ``num_shards`` interleaved shards.
        sampler (Sampler): choose rows (exclusive with shuffle/num_shards).
        padded_sample (dict), num_padded (int): rows appended for even sharding.
        num_samples (int): read at most this many rows.

    Example:
        >>> data = MindDataset("/tmp/demo.mindrecord", columns_list=["label"], shuffle=False)
        >>> for row in data.create_dict_iterator(output_numpy=True): print(row["label"])
    """

    _parallel_reads = True

    def __init__(self, dataset_files, columns_list=None, num_parallel_workers=None, shuffle=None,
                 num_shards=None, shard_id=None, sampler=None, padded_sample=None,
                 num_padded=None, num_samples=None, cache=None):
        where = type(self).__name__
        if shuffle is not None and not isinstance(shuffle, (bool, Shuffle)):
            raise TypeError(f"{where}: shuffle must be of type None, bool or Shuffle, but got "
                            f"{shuffle!r}.")
        self._mode = None  # a shuffle the sampler does not do: FILES, INFILE or PARTIAL
        if shuffle in (Shuffle.FILES, Shuffle.INFILE, Shuffle.PARTIAL):
            if num_samples and shuffle is not Shuffle.PARTIAL:
                raise ValueError("'Shuffle.FILES' or 'Shuffle.INFILE' and 'num_samples' cannot "
                                 "be specified at the same time.")
            self._mode = shuffle
        if columns_list is not None and not isinstance(columns_list, list):
            raise TypeError(f"{where}: columns_list must be a list of column names, but got "
                            f"{type(columns_list).__name__}.")
        _check_padding(columns_list, padded_sample, num_padded)
        if isinstance(shuffle, Shuffle):
            shuffle = self._mode is None and shuffle is not Shuffle.FALSE
        self._shards = open_shards(where, dataset_files)
        self.dataset_files = [shard.path for shard in self._shards]
        self._fields = self._shards[0].header.fields
        if columns_list is not None:
            unknown = [c for c in columns_list if c not in self._fields]
            if unknown or not columns_list:
                raise RuntimeError(f"{where}: columns_list {columns_list} does not match the "
                                   f"schema of {self.dataset_files[0]}, whose fields are "
                                   f"{sorted(self._fields)}.")
        self.columns_list = list(columns_list) if columns_list else sorted(self._fields)
        self.padded_sample = padded_sample
        self.num_padded = num_padded or 0
        self._starts = np.cumsum([0] + [len(shard) for shard in self._shards])
        self._passes = reader_order.ReaderPasses()
        super().__init__(num_samples, num_parallel_workers, shuffle,
                         sampler, num_shards, shard_id, cache)
        total = self._num_rows()
        if self.num_padded and num_shards and total % num_shards:
            raise RuntimeError(f"{where}: the dataset has {total - self.num_padded} rows plus "
                               f"num_padded={self.num_padded}, which is not divisible by "
                               f"num_shards={num_shards}.")

    def _column_names(self):
        return list(self.columns_list)

    def _num_rows(self):
        return int(self._starts[-1]) + self.num_padded

    def _epoch_indices(self, ctx):
        self._prepare_sampler()
        start = ctx.next_start(self)
        indices = self._reader_indices(ctx.seed, ctx.sampler_pass_of(self, start))
        if indices is not None:
            return indices
        rng = make_rng(ctx.seed, ctx.epoch, ctx.node_id(self), start)
        indices = np.asarray(self.sampler.indices(self._num_rows(), rng), dtype=np.int64)
        if self._mode is not None:
            indices = self._through(self._file_order(rng), indices)
        return indices

    def _reader_indices(self, seed, k):
        """Pass ``k``'s rows in MindSpore's reader order (see ``mindrecord_order``), or None where
        that order was not recorded (a child sampler, PARTIAL over a million rows)."""
        sampler, n = self.sampler, self._num_rows()
        if sampler.child_sampler is not None or not n:
            return None
        real = int(self._starts[-1])
        if self._mode is not None:
            if sampler.is_shuffled():
                return None
            bounds = tuple(int(end) for end in self._starts[1:])
            if self._mode is Shuffle.FILES:
                step = reader_order.files_step(bounds)
            elif self._mode is Shuffle.INFILE:
                step = reader_order.infile_step(bounds)
            elif real <= _PARTIAL_ROWS:
                step = reader_order.global_step(real)
            else:
                return None
            order = self._passes.chained(step, (seed, self._mode), k, range(real))
            positions = np.asarray(sampler.indices(n, None), dtype=np.int64)
            return self._through(np.asarray(order, dtype=np.int64), positions)
        if isinstance(sampler, RandomSampler):
            count = sampler.count(n)
            step = reader_order.draw_step(count) if sampler.replacement else reader_order.global_step(count)
            key = (seed, sampler.replacement, n, count)
            return np.asarray(self._passes.chained(step, key, k, range(n)), dtype=np.int64)
        if isinstance(sampler, DistributedSampler) and sampler.shuffle:
            return sampler._shard(np.asarray(reader_order.sharded(n, seed, k), dtype=np.int64), n)
        return None

    @staticmethod
    def _through(order, indices):
        """Map sampler positions through a row order (padded rows past it stay)."""
        real = indices < len(order)
        indices = indices.copy()
        indices[real] = order[indices[real]]
        return indices

    def __getitem__(self, index):
        """Row ``index`` of the first epoch's order (shuffled unless ``shuffle=False``), as a
        list of arrays in column order."""
        if not isinstance(index, int) or isinstance(index, bool):
            raise TypeError(f"Argument index with value {index!r} is not of type [<class 'int'>], "
                            f"but got {type(index)}.")
        if index < 0:
            raise ValueError(f"index cannot be negative, but got {index}.")

        self._prepare_sampler()
        order = self._reader_indices(config.get_seed(), 0)
        if order is None:
            rng = make_rng(config.get_seed(), 0, 0, 0)
            order = np.asarray(self.sampler.indices(self._num_rows(), rng), dtype=np.int64)
            if self._mode is not None:
                order = self._file_order(rng)[order]
        if index >= len(order):
            raise RuntimeError(f"Input index is not within the required interval of [0, "
                               f"{len(order) - 1}], but got {index}.")
        return [column[0] for column in self._read([int(order[index])])]

    def _file_order(self, rng):
        if self._mode is Shuffle.PARTIAL:
            ranges = [np.arange(start, min(start + _PARTIAL_ROWS, self._starts[-1]))
                      for start in range(0, int(self._starts[-1]), _PARTIAL_ROWS)]
            ranges = [r[rng.permutation(len(r))] for r in ranges]
            return np.concatenate(ranges) if ranges else np.zeros(0, np.int64)
        ranges = [np.arange(self._starts[k], self._starts[k + 1]) for k in range(len(self._shards))]
        if self._mode is Shuffle.FILES:
            ranges = [ranges[k] for k in rng.permutation(len(ranges))]
        else:
            ranges = [r[rng.permutation(len(r))] for r in ranges]
        return np.concatenate(ranges) if ranges else np.zeros(0, np.int64)

    def _read(self, indices):
        columns = [[] for _ in self.columns_list]
        real_rows = int(self._starts[-1])
        for index in np.asarray(indices).tolist():
            if index >= real_rows:
                record = self.padded_sample
            else:
                k = int(np.searchsorted(self._starts, index, side="right")) - 1
                record = self._shards[k].record(index - int(self._starts[k]), self.columns_list)
            for j, name in enumerate(self.columns_list):
                columns[j].append(_as_array(self._fields[name], record[name]))
        return columns


def _as_array(spec, value):
    if "shape" in spec:
        return np.asarray(value, dtype=spec["type"])
    kind = spec["type"]
    if kind == "bytes":
        return np.array([bytes(value)])
    if kind == "string":
        return np.array(str(value))
    return np.array(value, dtype=kind)


def _check_padding(columns_list, padded_sample, num_padded):
    if padded_sample is not None:
        if not isinstance(padded_sample, dict):
            raise TypeError("MindDataset: padded_sample must be a dict of column -> value.")
        if num_padded is None:
            raise RuntimeError("padded_sample is specified and requires num_padded as well.")
        if not isinstance(num_padded, int) or num_padded < 0:
            raise ValueError(f"num_padded is invalid, num_padded={num_padded}.")
        if columns_list is None:
            raise RuntimeError("padded_sample is specified and requires columns_list as well.")
        for column in columns_list:
            if column not in padded_sample:
                raise ValueError("padded_sample cannot match columns_list.")
    elif num_padded is not None:
        raise RuntimeError("num_padded is specified but padded_sample is not.")
