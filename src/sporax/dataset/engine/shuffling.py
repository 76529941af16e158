"""``shuffle``'s buffer, on whole blocks of stacked rows at once (the same rows as row by row).

The buffer algorithm (MindSpore's): the first ``size`` rows fill the buffer; after that every
incoming row takes the place of a buffered row drawn at random (``rng.integers(0, size)``, drawn
1024 at a time), which is emitted; at the end the remaining buffer is emitted in a random
permutation. While every block's columns are stacked arrays of one shape and dtype, this module
runs that algorithm on arrays: a chunk of incoming rows takes its slots in one draw, the row a
slot gives out is the buffered one on the slot's first use in the chunk and the chunk's own
earlier row on later uses. A block that cannot be stacked switches the rest of the epoch to the
row-by-row loop; either way the output rows and block boundaries are exactly those of the loop.
"""
import numpy as np

from sporax.dataset.engine.block import Block, from_rows


class _Draws:
    """The slot draws, refilled 1024 at a time exactly when the row loop would refill them."""

    def __init__(self, rng, size):
        self.rng, self.size = rng, size
        self.values, self.used = rng.integers(0, size, 1024), 0

    def next(self):
        if self.used == len(self.values):
            self.values, self.used = self.rng.integers(0, self.size, 1024), 0
        value = self.values[self.used]
        self.used += 1
        return value

    def take(self, count):
        parts = []
        while count:
            if self.used == len(self.values):
                self.values, self.used = self.rng.integers(0, self.size, 1024), 0
            step = min(count, len(self.values) - self.used)
            parts.append(self.values[self.used:self.used + step])
            self.used += step
            count -= step
        return np.concatenate(parts) if len(parts) > 1 else parts[0]


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

    def exchange(self, columns, slots):
        """Put incoming rows into ``slots`` (in order); return the rows given out, in order."""
        count = len(slots)
        order = np.argsort(slots, kind="stable")
        ordered = slots[order]
        repeat = ordered[1:] == ordered[:-1]
        previous = np.full(count, -1, np.int64)  # the chunk's earlier row that last filled this slot
        previous[order[1:][repeat]] = order[:-1][repeat]
        last = np.ones(count, bool)  # the row that stays in its slot at the end of the chunk
        last[order[:-1][repeat]] = False
        from_store = previous < 0
        out = []
        for mine, column in zip(self.stacked(), columns):
            given = np.empty((count,) + mine.shape[1:], mine.dtype)
            given[from_store] = np.take(mine, slots[from_store], axis=0)
            given[~from_store] = np.take(column, previous[~from_store], axis=0)
            mine[slots[last]] = column[last]
            out.append(given)
        return out


_MAX_ROW_BYTES = 8192  # larger rows: the row loop moves references, cheaper than copying the rows (measured)


def _stackable(block):
    if not all(isinstance(column, np.ndarray) and column.ndim >= 1 for column in block.columns):
        return False
    return sum(column[:1].nbytes for column in block.columns) <= _MAX_ROW_BYTES


def shuffled_blocks(blocks, size, rng, width, out_rows):
    """Blocks of the rows of ``blocks`` shuffled through a ``size``-row buffer (see module docstring)."""
    draws = _Draws(rng, size)
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
                emitter.add(_Arrays(store.exchange(rest, draws.take(block.n - room))), block.n - room)
        else:
            if buffer is None:
                buffer = _rows_of(store.stacked(), store.filled) if store is not None else []
            given = []
            for row in block.rows():
                if len(buffer) < size:
                    buffer.append(row)
                    continue
                slot = draws.next()
                given.append(buffer[slot])
                buffer[slot] = row
            emitter.add(given, len(given))
        yield from emitter.blocks()
    if buffer is None:
        filled = store.filled if store is not None else 0
        order = rng.permutation(filled)
        if filled:  # gathered a block at a time, as the consumer asks: small copies, no second buffer
            columns = store.stacked()
            for begin in range(0, filled, out_rows):
                chunk = order[begin:begin + out_rows]
                emitter.add(_Arrays([np.take(column, chunk, axis=0) for column in columns]), len(chunk))
                yield from emitter.blocks()
    else:
        order = rng.permutation(len(buffer))
        emitter.add([buffer[position] for position in order], len(buffer))
    yield from emitter.blocks(final=True)


def mindspore_shuffled_blocks(blocks, size, words, width, out_rows):
    """Blocks of the rows of ``blocks`` in MindSpore 2.10's shuffle order, drawn from ``words``
    (``std::mt19937_64`` outputs: the dataset seed's stream, running on across the iterator's epochs).

    MindSpore's buffer: the first ``size`` rows fill it; then each step takes slot ``word % rows
    buffered``, emits that row, moves the last buffered row into the slot and puts the next incoming
    row last; once the input ends the buffer drains the same way, shrinking by one each step.
    """
    emitter = _Emitter(width, out_rows)
    buffer = []
    for block in blocks:
        given = []
        for row in block.rows():
            if len(buffer) < size:
                buffer.append(row)
                continue
            slot = words() % size
            given.append(buffer[slot])
            buffer[slot] = buffer[-1]
            buffer[-1] = row
        emitter.add(given, len(given))
        yield from emitter.blocks()
    given = []
    while buffer:
        slot = words() % len(buffer)
        given.append(buffer[slot])
        buffer[slot] = buffer[-1]
        buffer.pop()
    emitter.add(given, len(given))
    yield from emitter.blocks(final=True)
