"""Row-level operations: shuffle, repeat, take, skip, zip, concat, project, rename, filter."""
import itertools

import numpy as np

from sporax.dataset.core.random import make_rng
from sporax.dataset.engine import runtime
from sporax.dataset.engine import watchdog as stall
from sporax.dataset.engine import validation as check
from sporax.dataset.engine.block import Block, from_rows, per_row, skip_rows, to_array
from sporax.dataset.engine.datasets import Dataset
from sporax.dataset.engine.mapping import MapDataset  # noqa: F401  (re-exported)
from sporax.dataset.engine.sampler_order import Twister64Words
from sporax.dataset.engine.shuffling import shuffled_blocks

OUT_ROWS = 64  # rows per block produced by row-by-row operations


class ShuffleDataset(Dataset):
    """Rows passed through a shuffle buffer of ``buffer_size`` rows."""

    def __init__(self, child, buffer_size):
        check.integer("shuffle", "buffer_size", buffer_size, 2, check.INT32_MAX)
        super().__init__(child)
        self.buffer_size = buffer_size
        self.reshuffle_each_epoch = True

    def _blocks(self, ctx):
        # MindSpore's ShuffleOp seeds one std::mt19937_64 with the dataset seed per iterator and draws on
        # across epochs and repeat passes: the engine lives in the iterator's streams. Without reshuffling
        # (the parts of a split) every pass starts the engine afresh, so every pass has one order.
        ctx.next_start(self)
        engines = ctx.streams if ctx.streams is not None else ctx.__dict__.setdefault("shuffle_engines", {})
        key = ("shuffle", ctx.node_id(self))
        words = engines.get(key)
        if words is None or not self.reshuffle_each_epoch:
            words = engines[key] = Twister64Words(ctx.seed)
        width = len(self._column_names())
        yield from shuffled_blocks(self.children[0]._blocks(ctx), self.buffer_size, words, width, OUT_ROWS)


class RepeatDataset(Dataset):
    """The child's rows ``count`` times (forever for None / -1)."""

    def __init__(self, child, count=None):
        if count is None:
            count = -1
        if isinstance(count, bool) or not isinstance(count, (int, np.integer)) or \
                (count != -1 and not 1 <= count <= check.INT32_MAX):
            raise ValueError("repeat: count should be either -1 or positive integer, range[1, "
                             f"INT32_MAX], but got {count!r}.")
        super().__init__(child)
        self.count = int(count)

    def _static_size(self):
        size = self.children[0]._static_size()
        if size is None or self.count == -1:
            return size
        return size * self.count

    def get_dataset_size(self):
        if self.count == -1:
            return self.children[0].get_dataset_size()
        return super().get_dataset_size()

    def get_repeat_count(self):
        return self.count

    def _child_starts(self):
        """How often one epoch starts the child (the engine counts sampler passes with it)."""
        return max(self.count, 1)

    def _blocks(self, ctx):
        passes = itertools.count() if self.count == -1 else range(self.count)
        offset = 0
        for _ in passes:
            produced = 0
            for block in self.children[0]._blocks(ctx):
                produced += block.n
                yield Block(block.columns, block.n, offset + block.start)
            offset += produced
            if produced == 0 or ctx.stop.is_set():
                return


class TakeDataset(Dataset):
    """The first ``count`` rows."""

    def __init__(self, child, count=-1):
        if isinstance(count, bool) or not isinstance(count, (int, np.integer)) or \
                (count != -1 and not 0 < count <= check.INT32_MAX):
            raise ValueError("take: count should be either -1 or within the required interval of "
                             f"(0, 2147483647], got {count!r}.")
        super().__init__(child)
        self.count = int(count)

    def _static_size(self):
        size = self.children[0]._static_size()
        if self.count == -1 or size is None:
            return size
        return min(size, self.count)

    def _blocks(self, ctx):
        remaining = self.count
        for block in self.children[0]._blocks(ctx):
            if remaining == -1:
                yield block
                continue
            if block.n >= remaining:
                yield block.slice(0, remaining)
                return
            remaining -= block.n
            yield block


class SkipDataset(Dataset):
    """All rows but the first ``count``."""

    def __init__(self, child, count):
        check.integer("skip", "count", count, 0, check.INT32_MAX)
        super().__init__(child)
        self.count = int(count)

    def _static_size(self):
        size = self.children[0]._static_size()
        return None if size is None else max(0, size - self.count)

    def _blocks(self, ctx):
        yield from skip_rows(self.children[0]._blocks(ctx), self.count)


class ZipDataset(Dataset):
    """Columns of several datasets side by side; as many rows as the shortest."""

    def __init__(self, datasets):
        for dataset in datasets:
            if not isinstance(dataset, Dataset):
                raise TypeError(f"zip: every input must be a Dataset, but got {type(dataset).__name__}.")
        super().__init__(list(datasets))
        names = [name for child in self.children for name in child._column_names()]
        duplicates = [name for i, name in enumerate(names) if name in names[:i]]
        if duplicates:  # as MindSpore 2.10: a RuntimeError once the pipeline runs or is asked its columns
            self._column_error = RuntimeError(
                f"zip: duplicate column '{duplicates[0]}' already exists when zipping datasets with "
                f"columns {names}; rename or project them first so every column name is unique.")
        self._names = names

    def _column_names(self):
        return self._names

    def _static_size(self):
        sizes = [child._static_size() for child in self.children]
        return None if None in sizes else min(sizes)

    def get_batch_size(self):
        return self.children[0].get_batch_size()

    def _blocks(self, ctx):
        sources = [child._blocks(ctx) for child in self.children]
        heads = [None] * len(sources)
        start = 0
        try:
            while True:
                for i, source in enumerate(sources):
                    while heads[i] is None or heads[i].n == 0:
                        heads[i] = next(source, None)
                        if heads[i] is None:
                            return
                count = min(head.n for head in heads)
                parts = [head.slice(0, count) for head in heads]
                heads = [head.slice(count, head.n) for head in heads]
                yield Block([c for part in parts for c in part.columns], count, start)
                start += count
        finally:
            for source in sources:
                source.close()


class ConcatDataset(Dataset):
    """Rows of each dataset one after the other (one shard of them after ``use_sampler``)."""

    def __init__(self, datasets):
        for dataset in datasets:
            if not isinstance(dataset, Dataset):
                raise TypeError(f"concat: every input must be a Dataset, but got {type(dataset).__name__}.")
        super().__init__(list(datasets))
        first = list(self.children[0]._column_names())
        for child in self.children[1:]:
            if list(child._column_names()) != first:
                raise ValueError(f"concat: the datasets must have the same columns in the same "
                                 f"order, but got {first} and {list(child._column_names())}.")
        self._shard = None  # (num_shards, shard_id) once use_sampler is given a DistributedSampler
        self._interleave = False  # True once use_sampler is given a RandomSampler

    def use_sampler(self, sampler):
        """Read one shard of the concatenated rows (DistributedSampler), or the datasets' rows
        randomly interleaved, each dataset's rows staying in their order (RandomSampler).

        A DistributedSampler's shard ``k`` keeps the rows whose index modulo ``num_shards`` is
        ``k`` (shards differ by at most one row; none is padded).

        Args:
            sampler (Union[DistributedSampler, RandomSampler]): a DistributedSampler with
                ``shuffle=False``, or a RandomSampler without replacement; neither with
                ``num_samples``.

        Examples:
            >>> import numpy as np
            >>> import sporax.dataset as ds
            >>> first = ds.NumpySlicesDataset(np.arange(5), ["x"], shuffle=False)
            >>> data = first + ds.NumpySlicesDataset(np.arange(100, 103), ["x"], shuffle=False)
            >>> data.use_sampler(ds.DistributedSampler(num_shards=2, shard_id=1, shuffle=False))
            >>> [int(row[0]) for row in data.create_tuple_iterator(output_numpy=True)]
            [1, 3, 100, 102]
        """
        from sporax.dataset.engine.samplers import DistributedSampler, RandomSampler
        name = type(sampler).__name__
        if not isinstance(sampler, (DistributedSampler, RandomSampler)):
            raise TypeError(f"ConcatDataset.use_sampler: the sampler must be a DistributedSampler or a "
                            f"RandomSampler, but got {name}.")
        if isinstance(sampler, DistributedSampler) and sampler.shuffle:
            raise ValueError("ConcatDataset.use_sampler: the DistributedSampler's shuffle must be False.")
        if isinstance(sampler, RandomSampler) and sampler.replacement:
            raise ValueError("ConcatDataset.use_sampler: the RandomSampler's replacement must be False.")
        if sampler.num_samples is not None:
            raise ValueError(f"ConcatDataset.use_sampler: the {name}'s num_samples must be None.")
        self._interleave = isinstance(sampler, RandomSampler)
        self._shard = None if self._interleave else (sampler.num_shards, sampler.shard_id)
        self.dataset_size = None  # a shard has fewer rows

    def _static_size(self):
        sizes = [child._static_size() for child in self.children]
        if None in sizes:
            return None
        if self._shard is None:
            return sum(sizes)
        return len(range(self._shard[1], sum(sizes), self._shard[0]))

    def _blocks(self, ctx):
        if self._interleave:
            yield from self._interleaved_blocks(ctx)
            return
        offset = position = 0
        for child in self.children:
            produced = 0
            for block in child._blocks(ctx):
                produced += block.n
                if self._shard is None:
                    yield Block(block.columns, block.n, offset + block.start)
                    continue
                num_shards, shard_id = self._shard
                # Global row index g = position + i is kept when g % num_shards == shard_id.
                first = (shard_id - position) % num_shards
                position += block.n
                picks = np.arange(first, block.n, num_shards)
                if picks.size:
                    yield Block([column[picks] if isinstance(column, np.ndarray) else [column[i] for i in picks]
                                 for column in block.columns], picks.size, offset + block.start)
            offset += produced

    def _interleaved_blocks(self, ctx):
        """The children's rows in a random interleaving (new each epoch), each child's in order."""
        sizes = [child._static_size() for child in self.children]
        sizes = [child.get_dataset_size() if size is None else size for child, size in zip(self.children, sizes)]
        rng = make_rng(ctx.seed, ctx.epoch, ctx.node_id(self), ctx.next_start(self))
        order = rng.permutation(np.repeat(np.arange(len(sizes)), sizes))
        streams = [itertools.chain.from_iterable(block.rows() for block in child._blocks(ctx))
                   for child in self.children]
        width, rows, start = len(self.get_col_names()), [], 0
        for label in order:
            row = next(streams[label], None)
            if row is not None:
                rows.append(row)
            if len(rows) == OUT_ROWS:
                yield from_rows(rows, width, start)
                start, rows = start + len(rows), []
        if rows:
            yield from_rows(rows, width, start)


class ProjectDataset(Dataset):
    """Only the given columns, in the given order."""

    def __init__(self, child, columns):
        columns = check.column_list("project", "columns", columns, allow_none=False)
        names = list(child._column_names())
        super().__init__(child)
        self._column_error = check.missing_columns("project", "columns", columns, names)
        columns = [name for name in columns if name in names]
        self._names = columns
        self._positions = [names.index(name) for name in columns]

    def _column_names(self):
        return self._names

    def _blocks(self, ctx):
        for block in self.children[0]._blocks(ctx):
            yield block.select(self._positions)


class RenameDataset(Dataset):
    """The same rows with some columns renamed."""

    def __init__(self, child, input_columns, output_columns):
        inputs = check.column_list("rename", "input_columns", input_columns, allow_none=False)
        outputs = check.column_list("rename", "output_columns", output_columns, allow_none=False)
        if len(inputs) != len(outputs):
            raise ValueError("rename: input_columns and output_columns must have the same length.")
        names = list(child._column_names())
        super().__init__(child)
        self._column_error = check.missing_columns("rename", "input_columns", inputs, names)
        mapping = dict(zip(inputs, outputs))
        self._names = [mapping.get(name, name) for name in names]
        if len(set(self._names)) != len(self._names):
            raise ValueError(f"rename: the result {self._names} has duplicate column names.")

    def _column_names(self):
        return self._names

    def _blocks(self, ctx):
        return self.children[0]._blocks(ctx)


class FilterDataset(Dataset):
    """Rows for which ``predicate(*input_columns)`` is true."""

    def __init__(self, child, predicate, input_columns=None, num_parallel_workers=None):
        if not callable(predicate):
            raise TypeError(f"filter: predicate must be callable, but got {type(predicate).__name__}.")
        super().__init__(child, check.workers("filter", num_parallel_workers))
        names = list(child._column_names())
        inputs = check.column_list("filter", "input_columns", input_columns) or names
        self._column_error = check.missing_columns("filter", "input_columns", inputs, names)
        inputs = [name for name in inputs if name in names]
        self.predicate, self.input_columns = predicate, inputs
        self._positions = [names.index(name) for name in inputs]

    def _static_size(self):
        return None

    def _blocks(self, ctx):
        start = 0
        op = f"filter operation on input columns {self.input_columns}"
        for block in self.children[0]._blocks(ctx):
            with stall.working(ctx, op, block.start):
                keep, error = self._verdicts(block)
            if error is not None:
                # The rows kept before the failing one are delivered before the error.
                yield from runtime.rows_then_error(
                    runtime.PartialFailure(self._kept(block, keep, start), error))
            if not keep:
                continue
            yield self._kept(block, keep, start)
            start += len(keep)

    def _verdicts(self, block):
        """(kept row positions of ``block``, None), or (those before the failing row, its error)."""
        columns = [per_row(block.columns[i]) for i in self._positions]
        keep = []
        progress = stall.current_values()
        for i in range(block.n):
            progress[stall.ROW] = block.start + i
            try:
                verdict = self.predicate(*[column[i] for column in columns])
            except Exception as exc:
                return keep, runtime.user_error(f"filter operation on input columns "
                                                f"{self.input_columns}", "the predicate",
                                                block.start + i, exc)
            if bool(np.all(verdict)):
                keep.append(i)
        return keep, None

    @staticmethod
    def _kept(block, keep, start):
        return block.take_rows(keep, start)


class FlatMapDataset(Dataset):
    """Rows of the datasets (or lists of rows) that ``func`` returns for each input row."""

    def __init__(self, child, func):
        if not callable(func):
            raise TypeError(f"flat_map: func must be callable, but got {type(func).__name__}.")
        super().__init__(child)
        self.func = func
        self._names = None

    def _column_names(self):
        if self._names is None:
            first = self._expand(next(self.children[0].create_tuple_iterator(
                num_epochs=1, output_numpy=True)))
            self._names = list(first._column_names())
        return self._names

    def _static_size(self):
        return None

    def _expand(self, row):
        result = self.func(*row)
        if not isinstance(result, Dataset):
            raise TypeError("flat_map: func must return a Dataset, but it returned "
                            f"{type(result).__name__}.")
        return result

    def _blocks(self, ctx):
        for block in self.children[0]._blocks(ctx):
            for row in block.rows():
                inner = self._expand([to_array(v) for v in row])
                yield from inner._blocks(ctx)
