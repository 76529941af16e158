"""Sources over Python objects: GeneratorDataset, NumpySlicesDataset, PaddedDataset."""
import itertools

import numpy as np

from sporax.dataset.engine import runtime
from sporax.dataset.engine import samplers
from sporax.dataset.engine import watchdog as stall
from sporax.dataset.engine import validation as check
from sporax.dataset.engine.block import Block, to_array
from sporax.dataset.engine.sources import BLOCK_ROWS, MappableDataset, gather


def _numpy_dtype(dtype):
    """A MindSpore/sporax dtype or NumPy dtype as a NumPy dtype."""
    if dtype is None:
        return None
    try:
        return np.dtype(dtype)
    except TypeError:
        from sporax.core.dtype import to_numpy_dtype

        return np.dtype(to_numpy_dtype(dtype))


class _BatchedSource:
    """A random-access source whose item ``k`` is the ``k``-th index list of a batch sampler,
    read from the user's source and combined column by column (stacked, or ``collate_fn``)."""

    def __init__(self, where, source, batch_sampler, collate_fn):
        if not (hasattr(source, "__getitem__") and hasattr(source, "__len__")):
            raise ValueError(f"{where}: batch_sampler needs a random-access source (with __getitem__ "
                             "and __len__).")
        if collate_fn is not None and not callable(collate_fn):
            raise TypeError(f"{where}: collate_fn must be callable, got {type(collate_fn).__name__}.")
        self.source = source
        self.batches = [list(indices) for indices in batch_sampler]
        self.collate_fn = collate_fn

    def __len__(self):
        return len(self.batches)

    def __getitem__(self, index):
        rows = [self.source[i] for i in self.batches[index]]
        rows = [row if isinstance(row, (tuple, list)) else (row,) for row in rows]
        columns = [[np.asarray(row[c]) for row in rows] for c in range(len(rows[0]))]
        if self.collate_fn is not None:
            result = self.collate_fn(*columns)
            return result if isinstance(result, (tuple, list)) else (result,)
        return tuple(np.stack(column) for column in columns)


class GeneratorDataset(MappableDataset):
    """Rows from a Python source: a generator function, an iterable, an iterator, or a
    random-access object with ``__getitem__`` and ``__len__``.

    Each row must be a tuple (or list) with one value per column in ``column_names``.
    Random-access sources honour shuffle/sampler/num_shards; the others are read in order.
    """

    _parallel_reads = True
    _sampler_excludes_options = False  # its conflicts are checked by the sampler's resolution

    def __init__(self, source, column_names=None, column_types=None, schema=None,
                 num_samples=None, num_parallel_workers=1, shuffle=None, sampler=None,
                 num_shards=None, shard_id=None, python_multiprocessing=True, max_rowsize=None,
                 batch_sampler=None, collate_fn=None):
        where = type(self).__name__
        if batch_sampler is not None:
            if any(value is not None for value in (num_samples, shuffle, num_shards, shard_id, sampler)):
                raise ValueError("batch_sampler is mutually exclusive with num_samples, shuffle, num_shards, "
                                 "shard_id and sampler.")
            source = _BatchedSource(where, source, batch_sampler, collate_fn)
            shuffle = False
        elif collate_fn is not None:
            raise ValueError("collate_fn can be specified only when batch_sampler is set.")
        self.source = source
        self.random_access = hasattr(source, "__getitem__") and hasattr(source, "__len__")
        if schema is not None:
            names, types = schema.columns_and_types()
            column_names = column_names or names
            column_types = column_types or types
        if column_names is None:
            raise ValueError(f"{where}: Neither columns_names nor schema are provided; pass "
                             "column_names=[...] naming the values each row holds.")
        self.column_names = check.column_list(where, "column_names", column_names, allow_none=False)
        if column_types is not None and len(column_types) != len(self.column_names):
            raise ValueError(f"{where}: column_types must have one dtype per column name.")
        self._types = None if column_types is None else [_numpy_dtype(t) for t in column_types]
        if isinstance(sampler, samplers.PKSampler):  # MindSpore 2.10's ValueError, for every subclass too
            raise ValueError("GeneratorDataset doesn't support PKSampler.")
        if self.random_access:
            super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        else:
            if num_shards is not None or shard_id is not None:
                raise ValueError(f"{where}: num_shards is not supported if source does not have "
                                 "attribute '__getitem__'.")
            if sampler is not None:
                raise ValueError(f"{where}: sampler is not supported if source does not have "
                                 "attribute '__getitem__'.")
            super().__init__(num_samples, num_parallel_workers, None, None, None, None)
            if num_samples is not None:
                check.integer(where, "num_samples", num_samples, 0, check.INT32_MAX)
        self.python_multiprocessing = python_multiprocessing

    def _column_names(self):
        return self.column_names

    def _num_rows(self):
        return len(self.source)

    def _static_size(self):
        if self.random_access:
            return super()._static_size()
        if hasattr(self.source, "__len__"):
            size = len(self.source)
            return size if not self.num_samples else min(size, self.num_samples)
        return None

    def _row(self, value, index):
        if not isinstance(value, (tuple, list)):
            value = (value,)
        if len(value) != len(self.column_names):
            raise RuntimeError(
                f"{type(self).__name__}: row {index} has {len(value)} value(s) but column_names "
                f"names {len(self.column_names)} column(s) {self.column_names}; make the source "
                "return one value per column (a tuple), or fix column_names.")
        row = [to_array(v) for v in value]
        for name, array, dtype in zip(self.column_names, row, self._types or ()):
            # MindSpore 2.10 checks a number column against column_types/schema (no cast)
            if dtype is not None and dtype.kind in "biufc" and array.dtype != dtype:
                raise RuntimeError(
                    f"Invalid Python function, type of returned data in '{type(self).__name__}' should be same "
                    f"with specified column_types, but the type of returned data: {type(array)}, specified "
                    f"column type: {dtype}. (Row {index}, column '{name}' holds {array.dtype}: return "
                    f"{dtype} arrays, e.g. np.asarray(value, np.{dtype}), or declare {array.dtype}.)")
        return row

    def _columns(self, rows):
        return [[row[j] for row in rows] for j in range(len(self.column_names))]

    def _read(self, indices):
        rows = []
        progress = stall.current_values()
        for index in indices:
            index = int(index)
            progress[stall.ROW] = index
            try:
                rows.append(self._row(self.source[index], index))
            except Exception as exc:
                if not isinstance(exc, RuntimeError) or not str(exc).startswith(type(self).__name__):
                    exc = runtime.user_error(f"{type(self).__name__} (source.__getitem__)",
                                             "the source", index, exc, "index")
                raise runtime.PartialFailure(Block(self._columns(rows), len(rows)), exc) from None
        return self._columns(rows)

    def _blocks(self, ctx):
        if self.random_access:
            if self.python_multiprocessing and self._workers() > 1:
                yield from self._process_blocks(ctx)
            else:
                yield from super()._blocks(ctx)
            return
        yield from self._iterate(ctx)

    def _process_blocks(self, ctx):
        indices = self._epoch_indices(ctx)
        chunks = [(start, indices[start:start + BLOCK_ROWS])
                  for start in range(0, len(indices), BLOCK_ROWS)]
        workers = self._workers()
        name = type(self).__name__
        yield from runtime.ordered_processes(ctx, iter(chunks), self._read_block, workers,
                                             2 * workers, name, runtime.default_start_method(),
                                             f"{name} (source.__getitem__)", "index")

    def _iterate(self, ctx):
        source = self.source
        name = type(self).__name__
        try:
            iterator = source() if callable(source) and not hasattr(source, "__iter__") \
                else iter(source)
        except Exception as exc:
            raise runtime.user_error(f"{name} (creating the source iterator)", "the source", 0,
                                     exc) from None
        limit = self.num_samples or None
        index = 0
        while not ctx.stop.is_set():
            count = BLOCK_ROWS if limit is None else min(BLOCK_ROWS, limit - index)
            if count <= 0:
                return
            rows = []
            try:
                with stall.working(ctx, f"{name} (the source generator)", index) as slot:
                    progress = slot.values
                    for value in itertools.islice(iterator, count):
                        rows.append(self._row(value, index + len(rows)))
                        progress[stall.ROW] = index + len(rows)
            except Exception as exc:
                if not isinstance(exc, RuntimeError) or not str(exc).startswith(name):
                    exc = runtime.user_error(f"{name} (the source generator)", "row",
                                             index + len(rows), exc)
                # The rows read before the failing one are delivered before the error.
                yield from runtime.rows_then_error(
                    runtime.PartialFailure(Block(self._columns(rows), len(rows), index), exc))
            if not rows:
                return
            yield Block([[row[j] for row in rows] for j in range(len(self.column_names))],
                        len(rows), index)
            index += len(rows)
            if len(rows) < count:
                return


def _slices_column(value):
    """One column: a stacked array, or (rows of different lengths, as MindSpore accepts them) a
    list of per-row arrays."""
    try:
        column = np.asarray(value)
        if column.dtype != object or not isinstance(value, (list, tuple)):
            return column
    except ValueError:
        if not isinstance(value, (list, tuple)):
            raise
    try:
        rows = [np.asarray(row) for row in value]
    except ValueError:
        rows = None
    if rows is None or any(row.dtype == object or row.ndim == 0 for row in rows):
        raise TypeError("NumpySlicesDataset: data columns must be rectangular numbers or strings, or lists "
                        "of number/string sequences of different lengths (got nested object data).")
    return rows


def _slices_columns(data, column_names):
    """NumpySlicesDataset input as (names, columns): stacked arrays or lists of per-row arrays."""
    if isinstance(data, (list, dict, np.ndarray)) and len(data) == 0:
        raise ValueError("Argument data cannot be empty (NumpySlicesDataset reads its rows as the slices of data "
                         "along the first axis; give at least one row).")
    if isinstance(data, dict):
        names = list(data)
        columns = [_slices_column(value) for value in data.values()]
    elif isinstance(data, tuple):
        names = [f"column_{i}" for i in range(len(data))]
        columns = [_slices_column(value) for value in data]
    elif isinstance(data, (list, np.ndarray)):
        names = ["column_0"]
        columns = [_slices_column(data)]
    elif type(data).__name__ == "DataFrame":
        names = [str(name) for name in data.columns]
        columns = [data[name].to_numpy() for name in data.columns]
    else:
        raise TypeError("NumpySlicesDataset: data must be a list, tuple, dict or NumPy array, "
                        f"but got {type(data).__name__}.")
    if column_names is not None:
        column_names = [column_names] if isinstance(column_names, str) else list(column_names)
        if len(column_names) != len(columns):
            raise ValueError(f"NumpySlicesDataset: {len(column_names)} column_names given for "
                             f"{len(columns)} column(s) of data.")
        names = column_names
    for column in columns:
        if isinstance(column, list):
            continue
        if column.ndim == 0:
            raise ValueError("NumpySlicesDataset: every column of data must have at least one "
                             "dimension (rows are slices along the first axis).")
        if column.dtype == object:
            raise TypeError("NumpySlicesDataset: data columns must be rectangular numbers or "
                            "strings (got ragged or object data).")
    if len({len(column) for column in columns}) > 1:
        raise ValueError("NumpySlicesDataset: all columns must have the same number of rows, "
                         f"but got {[len(c) for c in columns]}.")
    if columns and len(columns[0]) == 0:  # MindSpore 2.10 says only "Syntax error."
        raise RuntimeError("NumpySlicesDataset: the columns of data have no rows; give at least one row.")
    return names, columns


class NumpySlicesDataset(GeneratorDataset):
    """Rows are the slices, along the first axis, of a list, tuple, dict or NumPy array."""

    _parallel_reads = False

    def __init__(self, data, column_names=None, num_samples=None, num_parallel_workers=1,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None):
        names, self._columns = _slices_columns(data, column_names)
        super().__init__(self._columns, names, None, None, num_samples, num_parallel_workers,
                         shuffle, sampler, num_shards, shard_id, python_multiprocessing=False)
        self.random_access = True

    def _num_rows(self):
        return len(self._columns[0])

    def _read(self, indices):
        return [[column[index] for index in indices] if isinstance(column, list) else gather(column, indices)
                for column in self._columns]


class PaddedDataset(GeneratorDataset):
    """Rows given as a list of dicts {column: value} (used to pad shards)."""

    _parallel_reads = False

    def __init__(self, padded_samples):
        if not isinstance(padded_samples, list) or not padded_samples or \
                not all(isinstance(sample, dict) for sample in padded_samples):
            raise TypeError("PaddedDataset: padded_samples must be a non-empty list of dicts.")
        names = list(padded_samples[0])
        rows = [tuple(sample[name] for name in names) for sample in padded_samples]
        super().__init__(rows, names, shuffle=False, python_multiprocessing=False)
