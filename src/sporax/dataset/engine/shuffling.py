"""``shuffle``'s buffer as MindSpore 2.10's ShuffleOp runs it, on whole blocks of stacked rows at once.

The buffer algorithm (MindSpore's): the first ``size`` rows fill the buffer; after that, for every
incoming row, the buffered row in slot ``word % size`` is emitted, the last slot's row moves into
that slot and the incoming row takes the last slot; at the end the buffer drains the same way, the
draw modulo the rows left, the last row moving into the emptied slot. ``word`` is the next output of
``std::mt19937_64(seed)``, one engine per iterator that runs on across epochs and repeat passes. So
a seeded pipeline reads MindSpore's exact order. While every block's columns are stacked arrays of
one shape and dtype, the slots are followed as row ids and the rows gathered a chunk at a time; a
block that cannot be stacked switches the rest of the epoch to the row-by-row loop; either way the
output rows and block boundaries are exactly those of the loop.
"""
import numpy as np

from sporax.dataset.engine.block import Block, from_rows


def _rows_of(columns, count):
    """Rows (lists of per-column values) of stacked columns, as ``Block.rows`` gives them."""
    return [[column[i, ...] for column in columns] for i in range(count)]


class _Emitter:
    """Collects output rows (stacked pieces or row lists) and cuts them into blocks of ``size``."""

    def __init__(self, width, size):
        self.width, self.size = width, size
        self.pieces, self.count, self.start = [], 0, 0

    def add(self, piece, count):
        if count:
            self.pieces.append((piece, count))
            self.count += count

    def blocks(self, final=False):
        while self.count >= self.size or (final and self.count):
            count = min(self.size, self.count)
            taken, needed = [], count
            while needed:
                piece, rows = self.pieces.pop(0)
                if rows > needed:  # split: the rest stays first in line
                    self.pieces.insert(0, (_slice(piece, needed, None), rows - needed))
                    piece, rows = _slice(piece, 0, needed), needed
                taken.append((piece, rows))
                needed -= rows
            self.count -= count
            yield self._block(taken, count)
            self.start += count

    def _block(self, taken, count):
        if all(_is_arrays(piece) for piece, _ in taken):
            columns = [taken[0][0][j] if len(taken) == 1 else np.concatenate([piece[j] for piece, _ in taken])
                       for j in range(self.width)]
            return Block(columns, count, self.start)
        rows = []
        for piece, rows_in_piece in taken:
            rows.extend(_rows_of(piece.columns, rows_in_piece) if _is_arrays(piece) else piece)
        return from_rows(rows, self.width, self.start)


class _Arrays:
    """A stacked piece of output: one array per column."""

    __slots__ = ("columns",)

    def __init__(self, columns):
        self.columns = columns

    def __getitem__(self, j):
        return self.columns[j]


def _is_arrays(piece):
    return isinstance(piece, _Arrays)


def _slice(piece, begin, end):
    if _is_arrays(piece):
        return _Arrays([column[begin:end] for column in piece.columns])
    return piece[begin:end]


class _Store:
    """The buffer as stacked arrays: while filling, the incoming columns themselves (no copy);
    from the first exchange on (or at the end), one contiguous array per column."""

    def __init__(self, columns, size):
        self.size, self.filled = size, 0
        self.shapes = [(column.shape[1:], column.dtype) for column in columns]
        self.chunks, self.columns = [], None

    def accepts(self, columns):
        return all(isinstance(column, np.ndarray) and (column.shape[1:], column.dtype) == shape
                   for column, shape in zip(columns, self.shapes))

    def append(self, columns):
        self.chunks.append(columns)
        self.filled += len(columns[0])

    def stacked(self):
        """The buffered rows as one array per column."""
        if self.columns is None:
            self.columns = [np.concatenate([chunk[j] for chunk in self.chunks]) if len(self.chunks) > 1
                            else self.chunks[0][j].copy() for j in range(len(self.shapes))]
            self.chunks = None
        return self.columns

    def exchange(self, columns, words):
        """Let the incoming rows of ``columns`` through the full buffer (see module docstring); return the
        rows given out, in order."""
        size, count = self.size, len(columns[0])
        moved = {}  # buffer position -> the id of the row there now (store row < size, incoming size + j)
        given, last = [], size - 1
        for incoming in range(count):
            slot = words() % size
            given.append(moved.get(slot, slot))
            moved[slot] = moved.get(last, last)
            moved[last] = size + incoming
        given = np.array(given, np.int64)
        positions = np.fromiter(moved, np.int64, len(moved))
        sources = np.fromiter(moved.values(), np.int64, len(moved))
        out = []
        for mine, column in zip(self.stacked(), columns):
            out.append(_gather(mine, column, given, size))
            mine[positions] = _gather(mine, column, sources, size)
        return out

    def drain(self, words):
        """The buffered rows' ids in the order the drain gives them out."""
        return _drain_order(list(range(self.filled)), words)


def _gather(mine, column, ids, size):
    """Rows ``ids`` of the buffer (ids below ``size``) followed by the incoming ``column`` (the rest)."""
    from_store = ids < size
    rows = np.empty((len(ids),) + mine.shape[1:], mine.dtype)
    rows[from_store] = np.take(mine, ids[from_store], axis=0)
    rows[~from_store] = np.take(column, ids[~from_store] - size, axis=0)
    return rows


def _drain_order(items, words):
    """``items`` as the buffer drains them: slot ``word % rows left``, the last row moving into it."""
    out = []
    for last in range(len(items) - 1, -1, -1):
        slot = words() % (last + 1)
        out.append(items[slot])
        items[slot] = items[last]
    return out


_MAX_ROW_BYTES = 8192  # larger rows: the row loop moves references, cheaper than copying the rows (measured)


def _stackable(block):
    if not all(isinstance(column, np.ndarray) and column.ndim >= 1 for column in block.columns):
        return False
    return sum(column[:1].nbytes for column in block.columns) <= _MAX_ROW_BYTES


def shuffled_blocks(blocks, size, words, width, out_rows):
    """Blocks of the rows of ``blocks`` shuffled through a ``size``-row buffer (see module docstring);
    ``words`` gives the engine's 64-bit outputs (``sampler_order.Twister64Words``)."""
    emitter = _Emitter(width, out_rows)
    store, buffer = None, None  # stacked buffer, or the row list once a block could not be stacked
    for block in blocks:
        if not block.n:
            continue
        if buffer is None and _stackable(block) and (store is None or store.accepts(block.columns)):
            if store is None:
                store = _Store(block.columns, size)
            columns = block.columns
            room = min(size - store.filled, block.n)
            if room:
                store.append([column[:room] for column in columns])
            if room < block.n:
                rest = [column[room:] for column in columns]
                emitter.add(_Arrays(store.exchange(rest, words)), block.n - room)
        else:
            if buffer is None:
                buffer = _rows_of(store.stacked(), store.filled) if store is not None else []
            given = []
            for row in block.rows():
                if len(buffer) < size:
                    buffer.append(row)
                    continue
                slot = words() % size
                given.append(buffer[slot])
                buffer[slot] = buffer[size - 1]
                buffer[size - 1] = row
            emitter.add(given, len(given))
        yield from emitter.blocks()
    if buffer is None:
        filled = store.filled if store is not None else 0
        if filled:  # gathered a block at a time, as the consumer asks: small copies, no second buffer
            order = np.array(store.drain(words), np.int64)
            columns = store.stacked()
            for begin in range(0, filled, out_rows):
                chunk = order[begin:begin + out_rows]
                emitter.add(_Arrays([np.take(column, chunk, axis=0) for column in columns]), len(chunk))
                yield from emitter.blocks()
    else:
        emitter.add(_drain_order(buffer, words), len(buffer))
    yield from emitter.blocks(final=True)
