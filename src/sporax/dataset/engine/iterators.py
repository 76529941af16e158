"""Iterators over a pipeline: epochs, output conversion, shutdown."""
import collections

import numpy as np

from sporax.dataset.core import config
from sporax.dataset.engine import runtime
from sporax.dataset.engine.block import skip_rows
from sporax.dataset.engine.pipeline_internals import check_is_tree

# (Tensor of a NumPy array, Tensor of any other value): registered by the package above the
# array layers (sporax/__init__), so the engine itself never imports JAX or sporax's Tensor.
_tensor_factories = []


def use_tensor_factories(from_array, from_value):
    """Make iterators hand out ``from_array(ndarray)`` / ``from_value(other column value)`` Tensors."""
    _tensor_factories[:] = [(from_array, from_value)]


def tensor_factories():
    """The registered ``(from_array, from_value)``: ``from_value`` is the Tensor type itself."""
    if not _tensor_factories:
        raise RuntimeError("The dataset iterator hands out sporax Tensors, but no Tensor type is registered: "
                           "import sporax (not only sporax.dataset's engine) before iterating, or pass "
                           "output_numpy=True for NumPy arrays.")
    return _tensor_factories[0]


def _tensor_converter():
    """``column value -> sporax.Tensor`` (dicts, lists and tuples converted leaf by leaf)."""
    from_array, from_value = tensor_factories()

    def convert(value):
        if isinstance(value, dict):  # a Python-object column: convert its leaves
            return {key: convert(item) for key, item in value.items()}
        if isinstance(value, (list, tuple)):
            return type(value)(convert(item) for item in value)
        if isinstance(value, np.ndarray):
            if value.dtype.kind in "USO":  # strings stay NumPy arrays, as in MindSpore
                return _own_width(value)
            return from_array(value)
        return from_value(np.asarray(value))  # PIL images and Python scalars included

    return convert


def _as_output_array(value):
    """A column value as ``output_numpy`` gives it.

    MindSpore hands out int64 columns with the C ``long long`` type (NumPy prints them
    ``array(0, dtype=int64)``, unlike a default-int array); dict values stay dicts.
    """
    if isinstance(value, dict):
        return value
    if not isinstance(value, np.ndarray):
        value = np.asarray(value)
    if value.dtype.char == "l" and value.dtype.itemsize == 8:
        value = value.view(np.longlong)
    return _own_width(value)


def _own_width(value):
    """A string/bytes array as wide as its own longest element (at least 1): MindSpore hands out each row and
    batch so (``<U2`` then ``<U1``), whatever the column's widest value."""
    if value.dtype.kind not in "US":
        return value
    return np.asarray(value.tolist(), dtype=value.dtype.kind).reshape(value.shape)


def _epoch_seed():
    return config.effective_seed()


def _draws_as_mindspore(dataset):
    """Whether a map of the tree under ``dataset`` draws from MindSpore's streams (a set seed and an operation
    that knows MindSpore's draws; see core.random.MindSporeStreams)."""
    if not config.seed_was_set():
        return False
    pending = [dataset]
    while pending:
        node = pending.pop()
        if any(getattr(op, "mindspore_draws", False) for op in getattr(node, "operations", ()) or ()):
            return True
        pending.extend(getattr(node, "children", ()))
    return False


def run_epoch(dataset, epoch, sampler_pass=None, streams=None):
    """Start one epoch of ``dataset``; returns (context, generator of blocks).

    ``sampler_pass``: the epoch's number within its iterator (MindSpore's sampler restarts its
    order with each new iterator); defaults to ``epoch``. ``streams``: the iterator's dict of
    random streams that run on across its epochs (see ``RunContext.streams``).
    """
    ctx = runtime.RunContext(dataset, epoch, _epoch_seed(), sampler_pass, streams)
    blocks = dataset._blocks(ctx)
    if not config.get_debug_mode():
        blocks = runtime.prefetch(ctx, blocks, max(1, config.get_prefetch_size() // 4), "prefetch")
    return ctx, blocks


def count_rows(dataset):
    """Rows in one epoch, by running it (for sizes that cannot be known statically)."""
    dataset.get_col_names()  # a pipeline that cannot run raises its column error first
    ctx, blocks = run_epoch(dataset, 0)
    try:
        return sum(block.n for block in blocks)
    finally:
        blocks.close()
        ctx.close()


class TupleIterator:
    """Rows as lists of Tensors (or NumPy arrays with ``output_numpy=True``).

    Each pass of a ``for`` loop is one epoch; after ``num_epochs`` epochs (-1: unlimited) the
    iterator is finished and further use raises RuntimeError.

    Epochs are numbered (shuffle orders and random transforms depend on the number): normally
    they continue the dataset's count. A resume position -- ``dataset.set_init_step(step)`` (a
    global step, as in MindSpore: ``step // dataset_size`` whole epochs are skipped and count
    towards ``num_epochs``) or ``ResumedIterator``'s start step (used by ``Model.train``;
    ``num_epochs`` counts the epochs delivered) -- numbers them from 0 instead and starts
    ``step`` rows in, so the rows and their order are exactly those an uninterrupted run has
    from that step on.
    """

    _as_dict = False
    _start_step = None

    def __init__(self, dataset, columns=None, num_epochs=-1, output_numpy=False, do_copy=False):
        if isinstance(num_epochs, bool) or not isinstance(num_epochs, int) or \
                (num_epochs != -1 and num_epochs < 1):
            raise ValueError(f"num_epochs should be either -1 or a positive integer, but got "
                             f"{num_epochs!r}.")
        check_is_tree(dataset)
        self.dataset = dataset
        names = dataset.get_col_names()
        if columns is not None:
            columns = [columns] if isinstance(columns, str) else list(columns)
            for column in columns:
                if column not in names:
                    # MindSpore 2.10: RuntimeError "Invalid column, column name: zz does not exist."
                    raise RuntimeError(f"create_tuple_iterator: Invalid column, column name: {column} does not "
                                       f"exist; the dataset's columns are {names}.")
            self._positions = [names.index(column) for column in columns]
            self._names = columns
        else:
            self._positions = None
            self._names = names
        self.num_epochs = num_epochs
        self.output_numpy = output_numpy
        self.do_copy = do_copy
        self._epochs_done = 0
        self._epoch_number = None  # the next epoch's number, once positioned by a resume step
        self._skip = 0
        self._resumed = False  # positioned by a resume step, its first epoch not started yet
        self._position(self._start_step)
        self._ctx = None
        self._blocks = None
        self._streams = {}  # MindSpore's per-worker random streams, kept across this iterator's epochs
        self._rows = iter(())
        self._convert = None if output_numpy else _tensor_converter()

    def get_col_names(self):
        """The column names of the rows this iterator returns."""
        return list(self._names)

    def __iter__(self):
        return self

    def _position(self, start_step):
        """Place the first epoch at a resume step (see the class docstring)."""
        explicit = start_step is not None
        step = start_step if explicit else self.dataset.get_init_step()
        if not explicit and not step:
            return
        size = self.dataset.get_dataset_size()
        if step and not size:
            raise ValueError("Cannot resume an empty dataset at a step: it has no rows.")
        epoch, self._skip = divmod(step, size) if size else (0, 0)
        if not explicit:  # MindSpore's set_init_step: the skipped epochs count as done
            if self.num_epochs != -1 and epoch >= self.num_epochs:
                raise RuntimeError(
                    f"Cannot reset the pipeline, reset step must be less than dataset_size * "
                    f"num_epochs. step: {step}, dataset_size: {size}, num_epochs: "
                    f"{self.num_epochs}.")
            self._epochs_done = epoch
        self._epoch_number = epoch
        self._resumed = True

    def _start_epoch(self):
        if self.num_epochs != -1 and self._epochs_done >= self.num_epochs:
            raise RuntimeError(
                f"The iterator has already produced its {self.num_epochs} epoch(s) (num_epochs="
                f"{self.num_epochs}); create a new iterator or pass a larger num_epochs.")
        resumed, self._resumed = self._resumed, False
        if self._epoch_number is None:
            epoch, sampler_pass = self.dataset._epochs_started, self._epochs_done
        else:
            epoch, self._epoch_number = self._epoch_number, self._epoch_number + 1
            sampler_pass = epoch
        self.dataset._epochs_started = epoch + 1
        if resumed and epoch and _draws_as_mindspore(self.dataset):
            # A resumed iterator's MindSpore streams run on from the epochs it skipped (their draws depend on
            # the rows, so those epochs are replayed): the resumed rows then equal an uninterrupted run's.
            for skipped in range(epoch):
                collections.deque(run_epoch(self.dataset, skipped, skipped, self._streams)[1], maxlen=0)
        self._ctx, self._blocks = run_epoch(self.dataset, epoch, sampler_pass, self._streams)
        self._rows = iter(())
        skip, self._skip = self._skip, 0
        if skip:
            self._blocks = skip_rows(self._blocks, skip)

    def _next_block_rows(self):
        while True:
            try:
                block = next(self._blocks)
            except StopIteration:
                return False
            except BaseException:
                self.stop()
                raise
            if block.n:
                if self._positions is not None:
                    block = block.select(self._positions)
                self._rows = block.rows()
                return True

    def __next__(self):
        while True:
            for row in self._rows:
                return self._finish(row)
            if self._blocks is None:
                self._start_epoch()
            if not self._next_block_rows():
                self._end_epoch()
                raise StopIteration

    def _end_epoch(self):
        self._epochs_done += 1
        self.stop()

    def _finish(self, row):
        if self._convert is None:
            row = [_as_output_array(value) for value in row]
        else:
            row = [self._convert(value) for value in row]
        if self._as_dict:
            return dict(zip(self._names, row))
        return row

    def stop(self):
        """End the current epoch now, stopping its threads and processes."""
        blocks, ctx = self._blocks, self._ctx
        self._blocks, self._ctx, self._rows = None, None, iter(())
        if ctx is not None:
            ctx.stop.set()
        if blocks is not None:
            try:
                blocks.close()
            except Exception:
                pass
        if ctx is not None:
            ctx.close()

    release = stop
    terminate = stop

    def __del__(self):
        try:
            self.stop()
        except Exception:
            pass


class ResumedIterator(TupleIterator):
    """A TupleIterator whose first row is global step ``start_step`` of an uninterrupted run."""

    def __init__(self, dataset, start_step, num_epochs=-1, output_numpy=False):
        self._start_step = start_step
        super().__init__(dataset, None, num_epochs, output_numpy)


class DictIterator(TupleIterator):
    """Rows as {column name: value} dicts."""

    _as_dict = True
