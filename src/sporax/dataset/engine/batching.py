"""``batch``, ``padded_batch`` and ``bucket_batch_by_length``."""
import bisect
import math

import numpy as np

from sporax.dataset.engine import runtime, sync
from sporax.dataset.engine import watchdog as stall
from sporax.dataset.engine import validation as check
from sporax.dataset.engine.block import Block, pad_rows, per_row, stack_column, stack_rows, to_array
from sporax.dataset.engine.datasets import Dataset
from sporax.dataset.engine.mapping import as_outputs, place_columns

_BATCH_OPTIONS = ("per_batch_map", "input_columns", "output_columns", "python_multiprocessing",
                  "max_rowsize")


class BatchInfo:
    """Passed to ``per_batch_map`` and callable ``batch_size``: where the pipeline is."""

    def __init__(self, batch_num, epoch_num):
        self._batch_num, self._epoch_num = batch_num, epoch_num

    def get_batch_num(self):
        """Index of the batch being built, counted from 0 in this epoch."""
        return self._batch_num

    def get_epoch_num(self):
        """Index of the current epoch, from 0."""
        return self._epoch_num


def _rows_of(pieces):
    rows = []
    for piece in pieces:
        rows.extend(piece)
    return rows


def _one_row(array):
    """A batch array as a one-row stacked column (a view, no copy); a batched dict as a list."""
    return array[None] if isinstance(array, np.ndarray) else [array]


class BatchDataset(Dataset):
    """Groups of ``batch_size`` rows stacked into arrays with a leading batch axis."""

    def __init__(self, child, batch_size, drop_remainder=False, num_parallel_workers=None,
                 **kwargs):
        unknown = set(kwargs) - set(_BATCH_OPTIONS)
        if unknown:
            raise TypeError(f"batch() got an unexpected keyword argument '{sorted(unknown)[0]}'")
        if not callable(batch_size):
            check.integer("batch", "batch_size", batch_size, 1, check.INT32_MAX)
        check.boolean("batch", "drop_remainder", drop_remainder)
        super().__init__(child, check.workers("batch", num_parallel_workers))
        self.batch_size, self.drop_remainder = batch_size, drop_remainder
        if not callable(batch_size):
            sync.count_rows_per_batch(self, batch_size)
        self.per_batch_map = kwargs.get("per_batch_map")
        names = list(child._column_names())
        self._names = names
        self.input_columns = check.column_list("batch", "input_columns", kwargs.get("input_columns"))
        self.output_columns = check.column_list("batch", "output_columns", kwargs.get("output_columns"))
        if self.per_batch_map is not None:
            if not callable(self.per_batch_map):
                raise TypeError("batch: per_batch_map must be callable.")
            inputs = self.input_columns or names
            self._column_error = check.missing_columns("batch", "input_columns", inputs, names)
            inputs = [name for name in inputs if name in names]
            outputs = self.output_columns or inputs
            self.input_columns, self.output_columns = inputs, outputs
            self._positions = [names.index(name) for name in inputs]
            self._names, self._sources = place_columns("batch", names, inputs, outputs,
                                                         reverse_rest=True)

    def _column_names(self):
        return self._names

    def _static_size(self):
        size = self.children[0]._static_size()
        if size is None or callable(self.batch_size):
            return None
        if self.drop_remainder:
            return size // self.batch_size
        return math.ceil(size / self.batch_size)

    def get_batch_size(self):
        return self.batch_size if not callable(self.batch_size) else -1

    def _size_for(self, batch_num, epoch):
        if not callable(self.batch_size):
            return self.batch_size
        size = self.batch_size(BatchInfo(batch_num, epoch))
        return check.integer("batch", "batch_size returned by the callable", size, 1, check.INT32_MAX)

    def _blocks(self, ctx):
        batch_num = 0
        size = self._size_for(batch_num, ctx.epoch)
        pending, count = [], 0
        for block in self.children[0]._blocks(ctx):
            position = 0
            while position < block.n:
                taken = min(size - count, block.n - position)
                pending.append(block.slice(position, position + taken))
                count += taken
                position += taken
                if count == size:
                    yield self._make(pending, batch_num, ctx)
                    batch_num += 1
                    size = self._size_for(batch_num, ctx.epoch)
                    pending, count = [], 0
        if count and not self.drop_remainder:
            yield self._make(pending, batch_num, ctx)

    def _stack(self, pieces, j, name):
        return stack_column([piece.columns[j] for piece in pieces], name)

    def _make(self, pieces, batch_num, ctx):
        names = list(self.children[0]._column_names())
        if self.per_batch_map is None:
            columns = [_one_row(self._stack(pieces, j, name)) for j, name in enumerate(names)]
            return Block(columns, 1, batch_num)
        inputs = [_rows_of(per_row(piece.columns[j]) for piece in pieces) for j in self._positions]
        try:
            with stall.working(ctx, f"batch operation's per_batch_map on input columns "
                               f"{self.input_columns}", batch_num, "batch"):
                outputs = as_outputs(self.per_batch_map(*inputs, BatchInfo(batch_num, ctx.epoch)))
        except Exception as exc:
            raise runtime.user_error(f"batch operation's per_batch_map on input columns "
                                     f"{self.input_columns}", "batch", batch_num, exc) from None
        if len(outputs) != len(self.output_columns):
            raise RuntimeError(f"batch: per_batch_map returned {len(outputs)} column(s) but "
                               f"output_columns has {len(self.output_columns)} "
                               f"({self.output_columns}).")
        columns = []
        for kind, j in self._sources:
            if kind == "out":
                try:  # as MindSpore 2.10: a value no column can hold (None...) fails as user code does
                    array = self._output_column(outputs[j], self.output_columns[j])
                except (TypeError, ValueError) as exc:
                    raise runtime.user_error(f"batch operation's per_batch_map on input columns "
                                             f"{self.input_columns}", "batch", batch_num, exc) from None
                if not isinstance(outputs[j], dict):  # a dict is one Python object for the whole batch
                    _check_rows(array, len(inputs[0]) if inputs else None, self.output_columns[j])
            else:
                array = self._stack(pieces, j, names[j])
            columns.append(_one_row(array))
        return Block(columns, 1, batch_num)


    @staticmethod
    def _output_column(value, name):
        if isinstance(value, dict):
            return to_array(value)
        if isinstance(value, np.ndarray):
            return value
        return stack_rows(list(value), name)


class PaddedBatchDataset(BatchDataset):
    """``batch`` that pads rows to a common shape (``pad_info``: {column: (shape, value)})."""

    def __init__(self, child, batch_size, drop_remainder=False, num_parallel_workers=None,
                 pad_info=None):
        super().__init__(child, batch_size, drop_remainder, num_parallel_workers)
        self.pad_info = _check_pad_info("padded_batch", pad_info, list(child._column_names()))

    def _stack(self, pieces, j, name):
        info = _pad_for(self.pad_info, name)
        if info is None:
            return super()._stack(pieces, j, name)
        return pad_rows(_rows_of(piece.columns[j] for piece in pieces), info[0], info[1], name)


def _check_rows(array, rows, name):
    """As MindSpore 2.10: each column ``per_batch_map`` returns holds one row per row of the batch it was given."""
    got = len(array) if np.ndim(array) else 1
    if rows is not None and got != rows:
        raise RuntimeError("Exception thrown from dataset pipeline. Refer to 'Dataset Pipeline Error Message'. \n"
                           f"[ERROR] Invalid data, column: {name} expects: {rows} rows returned from "
                           f"'per_batch_map', got: {got}\n(batch: per_batch_map must return each output column "
                           "with as many rows as the batch it was given; to change the batch size, batch again.)")


def _check_pad_info(where, pad_info, names):
    if pad_info is None:
        return None
    if not isinstance(pad_info, dict):
        raise TypeError(f"{where}: pad_info must be a dict {{column: (shape, pad_value)}}, but "
                        f"got {type(pad_info).__name__}.")
    check.existing_columns(where, "pad_info", list(pad_info), names)
    for name, value in pad_info.items():
        if value is not None and (not isinstance(value, (tuple, list)) or len(value) != 2):
            raise TypeError(f"{where}: pad_info['{name}'] must be (pad_shape, pad_value).")
    return pad_info


def _pad_for(pad_info, name):
    """(shape, value) to pad column ``name`` with; an empty pad_info pads every column with 0."""
    if pad_info is None:
        return None
    if not pad_info:
        return (None, 0)
    if name not in pad_info:
        return None
    value = pad_info[name]
    return (None, 0) if value is None else (value[0], value[1])


class BucketBatchByLengthDataset(Dataset):
    """Rows grouped by length into buckets; each bucket is batched (and padded) separately."""

    def __init__(self, child, column_names, bucket_boundaries, bucket_batch_sizes,
                 element_length_function=None, pad_info=None, pad_to_bucket_boundary=False,
                 drop_remainder=False):
        where = "bucket_batch_by_length"
        names = list(child._column_names())
        columns = check.column_list(where, "column_names", column_names, allow_none=False)
        check.existing_columns(where, "column_names", columns, names)
        boundaries = list(bucket_boundaries)
        if not boundaries or any(b <= 0 for b in boundaries) or boundaries != sorted(set(boundaries)):
            raise ValueError(f"{where}: bucket_boundaries must be a non-empty, strictly increasing "
                             "list of positive ints.")
        if len(bucket_batch_sizes) != len(boundaries) + 1 or any(s <= 0 for s in bucket_batch_sizes):
            raise ValueError(f"{where}: bucket_batch_sizes must hold len(bucket_boundaries) + 1 "
                             "positive batch sizes.")
        if element_length_function is None and len(columns) != 1:
            raise ValueError(f"{where}: element_length_function must be given when column_names "
                             "has more than one column.")
        super().__init__(child)
        self.column_names, self.boundaries = columns, boundaries
        self.batch_sizes = list(bucket_batch_sizes)
        self.length_function = element_length_function
        self.pad_info = _check_pad_info(where, pad_info, names)
        self.pad_to_bucket_boundary, self.drop_remainder = pad_to_bucket_boundary, drop_remainder
        self._positions = [names.index(name) for name in columns]

    def _static_size(self):
        return None

    def _length(self, row):
        values = [row[i] for i in self._positions]
        if self.length_function is None:
            shape = np.shape(values[0])
            return shape[0] if shape else 1
        return int(self.length_function(*values))

    def _blocks(self, ctx):
        buckets = [[] for _ in self.batch_sizes]
        batch_num = 0
        for block in self.children[0]._blocks(ctx):
            for row in block.rows():
                bucket = bisect.bisect_right(self.boundaries, self._length(row))
                buckets[bucket].append(row)
                if len(buckets[bucket]) == self.batch_sizes[bucket]:
                    yield self._make(buckets[bucket], bucket, batch_num)
                    buckets[bucket] = []
                    batch_num += 1
        if not self.drop_remainder:
            for bucket, rows in enumerate(buckets):
                if rows:
                    yield self._make(rows, bucket, batch_num)
                    batch_num += 1

    def _make(self, rows, bucket, batch_num):
        columns = []
        for j, name in enumerate(self.get_col_names()):
            values = [to_array(row[j]) for row in rows]
            info = _pad_for(self.pad_info, name) if self.pad_info is not None else (None, 0)
            if info is None:
                array = stack_rows(values, name)
            else:
                shape = info[0]
                if self.pad_to_bucket_boundary and j in self._positions and \
                        bucket < len(self.boundaries) and values[0].ndim:
                    shape = [self.boundaries[bucket] - 1] + [None] * (values[0].ndim - 1)
                array = pad_rows(values, shape, info[1], name)
            columns.append(array[None])
        return Block(columns, 1, batch_num)
