"""``map``: apply operations to columns of every row, on worker threads or processes."""
import functools

import numpy as np

from sporax.dataset.callback.ds_callback import run_callbacks
from sporax.dataset.core import random as dataset_random
from sporax.dataset.core import config, debug_hooks
from sporax.dataset.engine import caching, runtime, sync
from sporax.dataset.engine import watchdog as stall
from sporax.dataset.engine import validation as check
from sporax.dataset.engine.block import Block, per_row, to_array
from sporax.dataset.engine.datasets import Dataset

_MAP_OPTIONS = ("python_multiprocessing", "max_rowsize", "cache", "callbacks", "offload")


def place_columns(where, names, input_columns, output_columns, reverse_rest=False):
    """Output column order of a map (MindSpore's rule).

    Same number of inputs and outputs: each output takes its input's place. Otherwise the
    outputs come first, followed by the columns that were not inputs (in reverse order for
    ``batch``'s per_batch_map, as MindSpore 2.10 does).
    Returns (names, sources) where a source is ("out", j) or ("in", position in ``names``).
    """
    if len(input_columns) == len(output_columns):
        result = list(names)
        sources = [("in", i) for i in range(len(names))]
        for j, (old, new) in enumerate(zip(input_columns, output_columns)):
            position = names.index(old)
            result[position], sources[position] = new, ("out", j)
    else:
        rest = [i for i, name in enumerate(names) if name not in input_columns]
        if reverse_rest:
            rest.reverse()
        result = list(output_columns) + [names[i] for i in rest]
        sources = [("out", j) for j in range(len(output_columns))] + [("in", i) for i in rest]
    if len(set(result)) != len(result):
        raise ValueError(f"{where}: the output columns {result} would contain duplicate names; "
                         "choose output_columns that do not clash with the other columns.")
    return result, sources


def as_stacked(column):
    """A column as one stacked array when its rows are arrays of one shape and dtype, else None."""
    if isinstance(column, np.ndarray):
        return column
    if not column:
        return None
    first = column[0]
    if not isinstance(first, np.ndarray):
        return None
    shape, dtype = first.shape, first.dtype
    for row in column:
        if not isinstance(row, np.ndarray) or row.shape != shape or row.dtype != dtype:
            return None
    return np.stack(column)


def _apply_chain(steps, item):
    """Apply fused map stages to one (index, block) item (maps keep blocks one to one).

    When a stage fails part-way, the rows before the failing one still pass through the later
    stages, so they are delivered exactly as without the failure; the first failing row's error
    (the earliest in row order) is the one reported.
    """
    index, block = item
    for position, step in enumerate(steps):
        try:
            block = step((index, block))
        except runtime.PartialFailure as failure:
            try:
                rows = _apply_chain(steps[position + 1:], (index, failure.rows))
            except runtime.PartialFailure as later:
                rows = later.rows
            raise runtime.PartialFailure(rows, failure.error) from None
    return block


def as_outputs(result):
    """A user function's return value as a tuple of column values."""
    return result if isinstance(result, tuple) else (result,)


class _NeverStopped:
    """The stop flag handed to process workers (the pool ends them)."""

    @staticmethod
    def is_set():
        return False


# MindSpore 2.10's transforms that have only a Python kernel: their failures read as a user function's.
_PYTHON_ONLY_TRANSFORMS = frozenset({
    "FiveCrop", "Grayscale", "HsvToRgb", "LinearTransformation", "MixUp", "RandomErasing", "RandomGrayscale",
    "RandomPerspective", "RgbToHsv", "TenCrop", "ToNumpy", "ToPIL", "RandomOrder"})
_TRANSFORM_MODULES = ("sporax.dataset.vision", "sporax.dataset.transforms", "sporax.dataset.text",
                      "sporax.dataset.audio")


def _is_builtin_kernel(op):
    """Whether ``op`` is one of the library's transforms that MindSpore runs as a C++ kernel (the engine
    does not import the transform packages, so their module names tell them apart)."""
    kind = type(op)
    return (kind.__module__.startswith(_TRANSFORM_MODULES) and kind.__name__ not in _PYTHON_ONLY_TRANSFORMS
            and getattr(getattr(op, "implementation", None), "name", None) != "PY")


# Good rows a map keeps, under ErrorSamplesMode.REPLACE, to stand in for failed ones.
_REPLACE_CACHE_ROWS = 1024


class _OutputColumns(list):
    """A map's output columns; ``rows`` lists the input rows they come from (see _apply_rows)."""

    rows = None


def _counting(blocks, counted):
    """The blocks, adding their rows to ``counted["rows"]``."""
    for block in blocks:
        counted["rows"] += block.n
        yield block


class MapDataset(Dataset):
    """Rows of the child with ``operations`` applied to ``input_columns``."""

    def __init__(self, child, operations, input_columns=None, output_columns=None,
                 num_parallel_workers=None, **kwargs):
        where = "map"
        unknown = set(kwargs) - set(_MAP_OPTIONS)
        if unknown:
            raise TypeError(f"map() got an unexpected keyword argument '{sorted(unknown)[0]}'")
        super().__init__(child, check.workers(where, num_parallel_workers))
        operations = list(operations) if isinstance(operations, (list, tuple)) else [operations]
        if not operations:
            raise ValueError("map: operations must not be empty.")
        for op in operations:
            if not callable(op):
                raise TypeError(f"map: every operation must be callable (a transform or a "
                                f"function), but got {type(op).__name__}.")
        if config.get_debug_mode() and config.debug_hook_list():
            operations = debug_hooks.with_hooks(operations, config.debug_hook_list())
        self.operations = operations
        self.python_multiprocessing = bool(kwargs.get("python_multiprocessing", False))
        self.cache = caching.check_cache_argument(kwargs.get("cache"))
        callbacks = kwargs.get("callbacks")
        if callbacks is not None and not isinstance(callbacks, (list, tuple)):
            callbacks = [callbacks]
        self.callbacks = list(callbacks) if callbacks else []
        for callback in self.callbacks:
            if not hasattr(callback, "ds_step_begin"):
                raise TypeError("map: callbacks must be dataset.DSCallback objects, but got "
                                f"{type(callback).__name__}.")
        self._callback_state = {"total": 0, "begun": False}
        names = list(child._column_names())
        inputs = check.column_list(where, "input_columns", input_columns) or names[:1]
        self._column_error = check.missing_columns(where, "input_columns", inputs, names)
        if self._column_error is not None:
            inputs = [name for name in inputs if name in names] or names[:1]
        outputs = check.column_list(where, "output_columns", output_columns) or list(inputs)
        self.input_columns, self.output_columns = inputs, outputs
        self._input_positions = [names.index(name) for name in inputs]
        self._names, self._sources = place_columns(where, names, inputs, outputs)
        self._batchable = all(hasattr(op, "_batch_call") for op in operations)

    def _column_names(self):
        return self._names

    def _describe(self):
        names = [getattr(op, "__name__", None) or type(op).__name__ for op in self.operations]
        return f"map operation [{', '.join(names)}] on input columns {self.input_columns}"

    def _workers(self):
        if config.get_debug_mode():
            return 1
        return self.num_parallel_workers or config.get_num_parallel_workers()

    def _blocks(self, ctx):
        if self.cache is not None:
            blocks = caching.cached_blocks(self, ctx, self._mapped_blocks)
        else:
            blocks = self._mapped_blocks(ctx)
        if self.callbacks:
            blocks = run_callbacks(self.callbacks, blocks, ctx.epoch, self._callback_state)
        return blocks

    def _fused_chain(self):
        """This map and the maps directly below it that one worker task can run together.

        A chain of maps (``ds.map(a).map(b).map(c)``) passes every block through each map in
        turn; running the whole chain in one task per block saves a thread hand-off per map and
        block. Each map still applies its own operations with its own per-block generator, so the
        results are exactly those of separate stages. Only thread-mode maps with the same worker
        count and no callbacks below the top are fused (a map asked for one worker keeps its
        functions on one thread at a time).
        """
        chain = [self]
        workers = self._workers()
        node = self.children[0]
        # Under ErrorSamplesMode.REPLACE each map refills its own failed rows (see _replacing).
        replacing = config.get_error_samples_mode() == config.ErrorSamplesMode.REPLACE
        while (not replacing and not self.python_multiprocessing and type(node) is MapDataset
               and not node.callbacks and not node.python_multiprocessing and node._workers() == workers
               and node.cache is None):
            chain.append(node)
            node = node.children[0]
        chain.reverse()
        return chain

    def _mapped_blocks(self, ctx):
        chain = self._fused_chain()
        child = chain[0].children[0]._blocks(ctx)
        mode = config.get_error_samples_mode()
        if mode == config.ErrorSamplesMode.REPLACE:
            counted = {"rows": 0}
            child = _counting(child, counted)
            yield from self._replacing(self._run_chain(ctx, chain, child, True), counted)
        else:
            yield from self._run_chain(ctx, chain, child, mode != config.ErrorSamplesMode.RETURN)

    def _replacing(self, blocks, counted):
        """ErrorSamplesMode.REPLACE: the good rows, then as many rows as failed, taken from the good
        rows in their order (cycling when fewer), as MindSpore 2.10 appends them at the epoch's end."""
        cached, cached_rows, delivered = [], 0, 0
        for block in blocks:
            delivered += block.n
            if block.n and cached_rows < _REPLACE_CACHE_ROWS:
                cached.append(block)
                cached_rows += block.n
            yield block
        missing = counted["rows"] - delivered
        if missing <= 0:
            return
        if not cached:
            raise RuntimeError(f"{self._describe()}: all data is garbage and cannot be replaced "
                               "(ErrorSamplesMode.REPLACE): every row failed, so no good row can "
                               "stand in for the failed ones; fix the operation or use SKIP.")
        while missing > 0:
            for block in cached:
                part = block.slice(0, min(block.n, missing))
                yield Block(part.columns, part.n, delivered)
                delivered += part.n
                missing -= part.n
                if not missing:
                    break

    def _run_chain(self, ctx, chain, child, skip_errors):
        # A process worker cannot see this process's stop flag (nor pickle it, under 'spawn'):
        # it is stopped by the pool instead.
        stop = _NeverStopped() if self.python_multiprocessing else ctx.stop
        streamed = [node for node in chain if node._mindspore_streams(ctx)]
        steps = [functools.partial(node._apply, ctx.seed, ctx.epoch, ctx.node_id(node),
                                   ctx.next_start(node), stop,
                                   ctx if node in streamed else None, skip_errors) for node in chain]
        apply = steps[0] if len(steps) == 1 else functools.partial(_apply_chain, steps)
        workers = self._workers()
        op = ", then ".join(node._describe() for node in chain)  # a fused chain names every map
        # Workers read ahead of the rows they hand on, which a sync_wait below would block for
        # good (its next rows wait for the training loop to see these): hand each block on first.
        # MindSpore's streams (see MindSporeStreams) are drawn row after row: one thread.
        if workers <= 1 or streamed or sync.paces(chain[0].children[0]):
            items = enumerate(child)
            try:
                for item in items:
                    with stall.working(ctx, op, item[1].start):
                        result = runtime.attempt(apply, item)
                    yield from runtime.deliver(result)
            except GeneratorExit:
                # A take() above stopped reading. MindSpore's take drains its child to the epoch's end,
                # so its map draws for every row: do the same unless the whole run is stopping.
                if streamed and not ctx.stop.is_set():
                    for item in items:
                        runtime.attempt(apply, item)
                    for node in streamed:
                        node._streams(ctx, None).end_epoch()
                raise
            for node in streamed:  # the epoch's end marker takes a worker's turn
                node._streams(ctx, None).end_epoch()
            return

        window = workers + max(1, config.get_prefetch_size() // 4)
        if self.python_multiprocessing:
            yield from runtime.ordered_processes(ctx, enumerate(child), apply, workers, window,
                                                 "map", runtime.default_start_method(), op)
        else:
            yield from runtime.ordered_threads(ctx, enumerate(child), apply, workers, window,
                                               "map", op)

    def _mindspore_streams(self, ctx):
        """Whether this map draws as MindSpore does (see MindSporeStreams): in an iterator, under a set
        dataset seed, with an operation that knows MindSpore's draws. Such a map runs in one thread
        (its rows' draws are sequential), even when python_multiprocessing asks for processes."""
        return (ctx.streams is not None and config.seed_was_set()
                and any(getattr(op, "mindspore_draws", False) for op in self.operations))

    def _streams(self, ctx, parts):
        return dataset_random.MindSporeStreams(parts, ctx.streams, ctx.node_id(self), ctx.seed,
                                               self._workers())

    def _apply(self, seed, epoch, node_id, start, stop, streamed, skip_errors, item):
        index, block = item
        block_seed = (seed, epoch, node_id, (start << 32) + index)
        columns = [block.columns[i] for i in self._input_positions]
        if streamed is not None:
            streams = self._streams(streamed, block_seed)
            previous = dataset_random.set_current_rng(streams)
            try:
                return self._assemble(block, self._apply_rows(block, columns, stop, streams.next_row,
                                                              skip_errors))
            except runtime.PartialFailure as failure:
                raise runtime.PartialFailure(self._assemble(block, failure.rows.columns),
                                             failure.error) from None
            finally:
                dataset_random.set_current_rng(previous)
        outputs = None
        if self._batchable:
            stacked = [as_stacked(column) for column in columns]
            if all(column is not None for column in stacked):
                with dataset_random.block_rng(*block_seed):
                    outputs = self._apply_batched(block, stacked)
        if outputs is None:
            # A fresh generator: draws made by a batched attempt that gave up must not shift the rows'.
            with dataset_random.block_rng(*block_seed):
                try:
                    outputs = self._apply_rows(block, columns, stop, skip_errors=skip_errors)
                except runtime.PartialFailure as failure:
                    # The rows before the failing one, completed with their other columns.
                    raise runtime.PartialFailure(self._assemble(block, failure.rows.columns),
                                                 failure.error) from None
        return self._assemble(block, outputs)

    def _assemble(self, block, outputs):
        """The output block: the operations' outputs placed among the untouched columns (of the rows
        that did not fail, when failed rows are skipped: see _apply_rows)."""
        kept = getattr(outputs, "rows", None)
        if kept is not None and len(kept) != block.n:
            block = block.take_rows(kept)
        new_columns = [outputs[j] if kind == "out" else block.columns[j] for kind, j in self._sources]
        return Block(new_columns, block.n, block.start)

    def _apply_batched(self, block, columns):
        values = tuple(columns)
        try:
            for op in self.operations:
                result = op._batch_call(*values)
                if result is NotImplemented:
                    return None
                values = as_outputs(result)
        except Exception:
            # Row by row instead: that finds the failing row, and the rows before it are
            # delivered before the error.
            return None
        self._check_count(len(values))
        return list(values)

    def _apply_rows(self, block, columns, stop, next_row=None, skip_errors=False):
        """The operations applied row by row: the output columns (lists). With ``skip_errors``
        (ErrorSamplesMode SKIP/REPLACE) a row whose operations raise is left out, and the result's
        ``rows`` names the rows kept."""
        operations = self.operations
        count = len(self.output_columns)
        outputs = _OutputColumns([] for _ in range(count))
        outputs.rows = kept = []
        appenders = [column.append for column in outputs]
        columns = [per_row(column) for column in columns]
        progress = stall.current_values()
        for i in range(block.n):
            if stop.is_set():  # the pipeline ended (error elsewhere, iterator closed): stop early
                raise runtime.PipelineStopped()
            progress[stall.ROW] = block.start + i
            if next_row is not None:
                next_row()
            values = [column[i] for column in columns]
            try:
                for op in operations:
                    result = op(*values)
                    values = result if isinstance(result, tuple) else (result,)
            except Exception as exc:
                if skip_errors:
                    continue
                if _is_builtin_kernel(op):
                    error = runtime.builtin_op_error(type(op).__name__, self._describe(),
                                                     f"column(s) {self.input_columns}", block.start + i, exc)
                else:
                    error = runtime.user_error(self._describe(), f"column(s) {self.input_columns}",
                                               block.start + i, exc)
                raise runtime.PartialFailure(Block(outputs, len(kept), block.start), error) from None
            if len(values) != count:
                try:
                    self._check_count(len(values))
                except RuntimeError as error:
                    raise runtime.PartialFailure(Block(outputs, len(kept), block.start), error) from None
            try:  # a value no column can hold (None, objects, ragged lists) fails as user code does
                values = [value if isinstance(value, np.ndarray) else to_array(value) for value in values]
            except (TypeError, ValueError) as exc:
                error = runtime.user_error(self._describe(), f"column(s) {self.input_columns}", block.start + i, exc)
                raise runtime.PartialFailure(Block(outputs, len(kept), block.start), error) from None
            for append, value in zip(appenders, values):
                append(value)
            kept.append(i)
        return outputs

    def _check_count(self, returned):
        if returned != len(self.output_columns):
            raise RuntimeError(
                f"map: invalid columns, the operations returned {returned} column(s) but "
                f"output_columns has {len(self.output_columns)} ({self.output_columns}); pass "
                "output_columns naming one column per returned value.")
