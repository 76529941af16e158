"""Blocks: the unit of work that flows through a running pipeline.

A block holds ``n`` consecutive rows column by column. A column is either a stacked
``numpy.ndarray`` whose first axis is the row axis (fast: sources and batched transforms make
these, and ``batch`` concatenates them without touching rows one by one) or a plain list of
``n`` per-row values. ``start`` is the index of the block's first row in the producing node's
output for the current epoch (used to name the failing row in errors).
"""
import numpy as np


class Block:
    """``n`` rows stored column by column (see module docstring)."""

    __slots__ = ("columns", "n", "start")

    def __init__(self, columns, n, start=0):
        self.columns = columns
        self.n = n
        self.start = start

    def row(self, i):
        """Row ``i`` as a list of per-column values."""
        return [column[i, ...] if isinstance(column, np.ndarray) else column[i]
                for column in self.columns]

    def rows(self):
        """Iterate the rows as lists."""
        columns = [per_row(column) for column in self.columns]
        if len(columns) == 1:
            only = columns[0]
            for i in range(self.n):
                yield [only[i]]
            return
        for i in range(self.n):
            yield [column[i] for column in columns]

    def slice(self, begin, end):
        """Rows ``begin:end`` as a new block (views, no copies)."""
        return Block([column[begin:end] for column in self.columns], end - begin, self.start + begin)

    def take_rows(self, rows, start=None):
        """The rows at ``rows`` (ascending indices) as a new block starting at ``start``."""
        start = self.start if start is None else start
        if len(rows) == self.n:
            return Block(self.columns, self.n, start)
        index = np.asarray(rows, dtype=np.intp)
        return Block([column[index] if isinstance(column, np.ndarray) else [column[i] for i in rows]
                      for column in self.columns], len(rows), start)

    def select(self, indices):
        """Columns at ``indices`` (projection)."""
        return Block([self.columns[i] for i in indices], self.n, self.start)


def per_row(column):
    """A column indexable row by row where every row is an ndarray.

    Indexing a stacked 1-D column gives NumPy scalars; users and transforms must get 0-d
    arrays (as MindSpore passes them), so such columns are split into 0-d views.
    """
    if isinstance(column, np.ndarray) and column.ndim == 1:
        return [column[i, ...] for i in range(len(column))]
    return column


def from_rows(rows, num_columns, start=0):
    """Build a block from a list of rows (lists/tuples of per-column values)."""
    columns = [[row[j] for row in rows] for j in range(num_columns)]
    return Block(columns, len(rows), start)


def skip_rows(blocks, count):
    """The stream of ``blocks`` without its first ``count`` rows."""
    for block in blocks:
        if count >= block.n:
            count -= block.n
            continue
        if count:
            block, count = block.slice(count, block.n), 0
        yield block


def to_array(value):
    """Convert one value returned by user code to what a column holds (ndarray, PIL image, dict).

    A dict is a Python-object column value, as in MindSpore: it stays a dict, its leaves become
    arrays (see ``to_python_object``).
    """
    if isinstance(value, np.ndarray):
        return value
    if isinstance(value, dict):
        return to_python_object(value)
    if type(value).__module__.startswith("PIL"):
        return value
    if hasattr(value, "asnumpy"):  # a sporax Tensor returned by user code
        return value.asnumpy()
    if isinstance(value, (str, bytes)):
        return np.array(value)
    array = np.asarray(value)
    if array.dtype == object:
        raise TypeError(f"cannot convert a value of type {type(value).__name__} to a NumPy array "
                        "for a dataset column; return numbers, strings or NumPy arrays.")
    return array


def to_python_object(value):
    """A dict (or list/tuple inside one) with every leaf converted to an ndarray, containers kept.

    MindSpore carries dict column values through the pipeline as Python objects: numbers and
    strings inside become 0-d arrays, lists and tuples stay lists and tuples of converted items,
    and None stays None (a sample dict's absent fields).
    """
    if value is None:
        return None
    if isinstance(value, dict):
        return {key: to_python_object(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(to_python_object(item) for item in value)
    return to_array(value)


def stack_dicts(rows, column_name):
    """Batch dict values key by key: each key's values become one array (MindSpore's rule)."""
    batched = {}
    for key in rows[0]:
        try:
            values = [row[key] for row in rows]
        except KeyError:
            raise RuntimeError(f"Batch: the dictionary objects in column '{column_name}' do not all "
                               f"have the key {key!r}; batch dicts with the same keys, or define a "
                               "custom 'per_batch_map' function.") from None
        try:
            array = np.array(values)
        except ValueError:
            array = None
        if array is None or array.dtype == object:
            raise RuntimeError(f"Batch: failed to create a NumPy array with primitive types for the "
                               f"dictionary objects in column '{column_name}', key: {key!r}. If you "
                               "want a customized array, define a custom 'per_batch_map' function.")
        batched[key] = array
    return batched


def stack_column(pieces, column_name):
    """Stack a column's rows into one array; ``pieces`` are stacked arrays or per-row lists."""
    if all(isinstance(piece, np.ndarray) for piece in pieces):
        if len(pieces) == 1:
            return pieces[0]
        first = pieces[0]
        if all(p.shape[1:] == first.shape[1:] and p.dtype == first.dtype for p in pieces):
            return np.concatenate(pieces)
    rows = []
    for piece in pieces:
        rows.extend(piece)
    return stack_rows(rows, column_name)


def stack_rows(rows, column_name):
    """``np.stack`` with MindSpore's error for rows of different shapes (dict rows: key by key)."""
    if rows and all(isinstance(row, dict) for row in rows):
        return stack_dicts(rows, column_name)
    rows = [row if isinstance(row, np.ndarray) else to_array(row) for row in rows]
    first = rows[0].shape
    for row in rows:
        if row.shape != first:
            raise RuntimeError(
                f"Batch: cannot batch tensors with different shapes in column '{column_name}': the "
                f"first row has shape {list(first)} and another has shape {list(row.shape)}. Use "
                "padded_batch(pad_info=...) or a map that resizes/pads rows to one shape.")
    return np.stack(rows)


def pad_rows(rows, shape, value, column_name):
    """Pad each row (at the end of every axis) to ``shape`` with ``value`` and stack them; as MindSpore, an
    axis longer than the pad shape is cut to it."""
    rows = [to_array(row) for row in rows]
    if shape is None:
        shape = [max(row.shape[axis] for row in rows) for axis in range(rows[0].ndim)]
    else:
        shape = [max(row.shape[axis] for row in rows) if size is None else size
                 for axis, size in enumerate(shape)]
    out = np.empty((len(rows),) + tuple(shape), dtype=rows[0].dtype)
    out[...] = value if value is not None else 0
    for i, row in enumerate(rows):
        if row.ndim != len(shape):
            raise RuntimeError(f"padded_batch: the pad shape {list(shape)} of column '{column_name}' has rank "
                               f"{len(shape)} but a row has shape {list(row.shape)} (rank {row.ndim}); give "
                               "pad_info a shape of the column's rank.")
        kept = tuple(slice(0, min(s, t)) for s, t in zip(row.shape, shape))
        out[(i,) + kept] = row[kept]
    return out
