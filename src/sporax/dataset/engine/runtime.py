"""Running pipelines: per-epoch context, prefetch threads, ordered worker threads, errors.

Process workers live in ``process_pool``.
"""
import collections
import os
import queue
import threading
import time
import traceback

from sporax.dataset.core import config
from sporax.dataset.engine import watchdog as stall

_POLL = 0.05  # seconds between checks of the stop flag / worker liveness while waiting


class PipelineStopped(Exception):
    """Raised inside pipeline threads when the run was stopped (iterator closed or failed)."""


class PartialFailure(Exception):
    """User code failed part-way through a block.

    ``rows`` is the Block of the rows before the failing one (already processed), ``error`` the
    error to report. Whoever hands blocks on delivers ``rows`` first and then raises ``error``,
    so rows that came before a failing row reach the user before the error, as in MindSpore.
    """

    def __init__(self, rows, error):
        super().__init__(str(error))
        self.rows, self.error = rows, error


def rows_then_error(failure, stop=None):
    """Generator: the rows a PartialFailure kept (if any), then its error (setting ``stop`` first)."""
    if failure.rows is not None and failure.rows.n:
        yield failure.rows
    if stop is not None:
        stop.set()
    raise failure.error from None


def attempt(function, item):
    """``function(item)``, or the PartialFailure it raised (to be handed on by ``deliver``)."""
    try:
        return function(item)
    except PartialFailure as failure:
        return failure


def deliver(result):
    """Generator: a block, or a PartialFailure's rows and then its error."""
    if isinstance(result, PartialFailure):
        yield from rows_then_error(result)
    else:
        yield result


def user_error(node, what, row, exc, row_label="row"):
    """The RuntimeError reported for an exception raised by user code inside the pipeline."""
    text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    return RuntimeError(
        "Exception thrown from user defined Python function in dataset.\n"
        f"{node} failed on {what}, {row_label} {row}: {type(exc).__name__}: {exc}\n\n"
        f"Python call stack of the user function:\n{text}")


def builtin_op_error(op_name, node, what, row, exc):
    """The RuntimeError MindSpore reports when one of its own (C++) transforms fails inside ``map``."""
    return RuntimeError(
        "Exception thrown from dataset pipeline. Refer to 'Dataset Pipeline Error Message'.\n"
        f"map operation: [{op_name}] failed. {exc}\n"
        f"({node} failed on {what}, row {row}: {type(exc).__name__})")


class RunContext:
    """State of one running epoch: seed, epoch number, node ids, stop flag, resources to close."""

    def __init__(self, root, epoch, seed, sampler_pass=None, streams=None):
        self.epoch = epoch
        # The iterator's random streams that run on across its epochs (dataset_random.MindSporeStreams);
        # None outside an iterator.
        self.streams = streams
        # Which pass of a sampler's order this epoch reads (see sampler_order): counted per iterator.
        self.sampler_pass = epoch if sampler_pass is None else sampler_pass
        self.seed = seed
        self.stop = threading.Event()
        self.node_ids = {}
        self.starts = collections.Counter()
        self.starts_per_epoch = {}
        self.forced_indices = {}  # id(source) -> the row ids a cache above it asks for
        self.watchdog = stall.Watchdog()
        self._closers = []
        self._lock = threading.Lock()
        self._number(root)

    def _number(self, node, starts=1):
        # Depth-first numbering: ids depend only on the graph's shape, so seeds derived from them
        # are the same run to run. ``starts``: how often one epoch starts the node (repeats above).
        if id(node) in self.node_ids:
            return
        self.node_ids[id(node)] = len(self.node_ids)
        self.starts_per_epoch[id(node)] = starts
        child_starts = getattr(node, "_child_starts", None)
        starts *= child_starts() if child_starts else 1
        for child in node.children:
            self._number(child, starts)

    def node_id(self, node):
        """The node's stable id within this pipeline."""
        return self.node_ids.get(id(node), 0)

    def sampler_pass_of(self, node, start):
        """Which pass of its sampler's order the node's ``start``-th start in this epoch reads:
        MindSpore counts repeat passes on across epochs (epoch 2 of ``repeat(3)`` reads passes 3-5)."""
        return self.sampler_pass * self.starts_per_epoch.get(id(node), 1) + start

    def next_start(self, node):
        """How many times this node's output was started before in this epoch (repeat passes)."""
        with self._lock:
            count = self.starts[id(node)]
            self.starts[id(node)] = count + 1
        return count

    def on_close(self, closer):
        """Register a callable run when the epoch ends or is abandoned."""
        with self._lock:
            self._closers.append(closer)

    def join_seconds(self, seconds):
        """How long closing may wait for a thread: not at all after a stall (it is stuck)."""
        return 0.0 if self.watchdog.stalled else seconds

    def close(self):
        """Stop every thread and process of this run; returns once they are told to stop."""
        self.stop.set()
        with self._lock:
            closers, self._closers = self._closers[::-1], []
        for closer in closers:
            try:
                closer()
            except Exception:  # closing must never raise over the original error
                pass


_END = object()


def prefetch(ctx, blocks, size, name):
    """Run generator ``blocks`` in a daemon thread, ``size`` blocks ahead of the consumer."""
    buffer = queue.Queue(maxsize=max(1, size))
    failure = []

    def put(item):
        while not ctx.stop.is_set():
            try:
                buffer.put(item, timeout=_POLL)
                return True
            except queue.Full:
                continue
        return False

    def produce():
        try:
            for block in blocks:
                if not put(block):
                    break
            else:
                put(_END)
        except BaseException as exc:  # handed to the consumer, which raises it
            failure.append(exc)
            put(_END)
        finally:
            blocks.close()

    thread = threading.Thread(target=produce, name=f"sporax-dataset-{name}", daemon=True)
    thread.start()
    ctx.on_close(lambda: thread.join(timeout=ctx.join_seconds(1.0)))
    waiting_since = time.monotonic()
    while True:
        try:
            item = buffer.get(timeout=_POLL)
        except queue.Empty:
            if ctx.stop.is_set():
                # Stopped by a failure still travelling up the producer's generators, or by
                # the consumer: let the producer finish so its error is not lost.
                thread.join(timeout=ctx.join_seconds(2.0))
            if failure:
                raise failure[0]
            if ctx.stop.is_set():
                return
            try:
                ctx.watchdog.check(waiting_since)
            except RuntimeError:
                ctx.stop.set()  # the stall error: every stage stops; closing ends the workers
                raise
            continue
        ctx.watchdog.progress()
        if item is _END:
            if failure:
                raise failure[0]
            return
        yield item
        # The consumer asks for the next item now: time spent on its side is never a stall.
        waiting_since = time.monotonic()


class _Task:
    __slots__ = ("done", "value", "error")

    def __init__(self):
        self.done = threading.Event()
        self.value = None
        self.error = None


def ordered_threads(ctx, items, function, workers, window, name, op=None, label="row"):
    """Apply ``function`` to ``items`` on ``workers`` daemon threads; yield results in order.

    A failing item is reported when its turn comes: every earlier result is delivered first.
    ``op`` (default ``name``) and ``label`` name the operation and its rows in stall reports.
    """
    tasks = queue.Queue()

    def work(slot):
        stall.bind(slot)
        while not ctx.stop.is_set():
            try:
                entry = tasks.get(timeout=_POLL)
            except queue.Empty:
                continue
            if entry is None:
                return
            task, item = entry
            slot.start(stall.first_row(item))
            try:
                task.value = function(item)
            except BaseException as exc:
                task.error = exc
            slot.finish()
            task.done.set()

    threads, slots = [], []
    for i in range(workers):
        thread_name = f"sporax-dataset-{name}-{i}"
        slots.append(ctx.watchdog.add(stall.WorkerSlot(op or name, f"worker thread {thread_name}",
                                                       label)))
        threads.append(threading.Thread(target=work, args=(slots[-1],), name=thread_name,
                                        daemon=True))
    for thread in threads:
        thread.start()

    def shutdown():
        for _ in threads:
            tasks.put(None)
        join_all(threads, ctx.join_seconds(1.0))
        if not ctx.watchdog.stalled:  # after a stall the report may still need them
            ctx.watchdog.remove(slots)

    ctx.on_close(shutdown)
    pending = collections.deque()

    def take():
        task = pending.popleft()
        while not task.done.wait(_POLL):
            if ctx.stop.is_set():
                raise PipelineStopped()
        if isinstance(task.error, PartialFailure):
            # The kept rows go out first; stopping now would drop them on the way.
            return rows_then_error(task.error, ctx.stop)
        if task.error is not None:
            ctx.stop.set()  # the run is over: every worker stops at its next row
            raise task.error
        return (task.value,)

    try:
        for item in items:
            task = _Task()
            pending.append(task)
            tasks.put((task, item))
            if len(pending) >= window:
                yield from take()
        while pending:
            yield from take()
    finally:
        shutdown()


def join_all(workers, seconds):
    """Join threads or processes, all within ``seconds`` in total (never one timeout each)."""
    deadline = time.monotonic() + seconds
    for worker in workers:
        worker.join(timeout=max(0.0, deadline - time.monotonic()))


def default_start_method():
    """'fork' where available (user lambdas need no pickling), else 'spawn'."""
    method = config.get_multiprocessing_start_method()
    if method == "fork" and not hasattr(os, "fork"):
        return "spawn"
    return method


def ordered_processes(ctx, items, function, workers, window, name, start_method="fork", op=None,
                      label="row"):
    """Like ordered_threads but on worker processes (see ``process_pool``)."""
    from sporax.dataset.engine.process_pool import ordered_processes as run

    return run(ctx, items, function, workers, window, name, start_method, op, label)
