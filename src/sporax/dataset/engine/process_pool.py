"""Process workers: ordered results, shared-memory transport, dead-worker detection.

Each worker gets its own pipe. Tasks go out through a sender thread (so the consumer never
blocks on a full pipe while results pile up), results come back in task order. A result's
large NumPy buffers travel through a ``multiprocessing.shared_memory`` segment (pickle
protocol 5 out-of-band buffers): the pipe carries only the small pickle and the segment name.
"""
import collections
import multiprocessing
from multiprocessing import resource_tracker, shared_memory
import os
import pickle
import queue
import threading
import traceback
import warnings

from sporax.dataset.core import config
from sporax.dataset.engine import watchdog as stall
from sporax.dataset.engine.runtime import PartialFailure, PipelineStopped, join_all, rows_then_error

_POLL = 0.05
_SHARED_MIN_BYTES = 32 * 1024  # smaller results are cheaper to send through the pipe


def encode(value, shared):
    """A message for ``value``: in-band pickle, or pickle + shared-memory segment for buffers."""
    buffers = []
    data = pickle.dumps(value, protocol=5, buffer_callback=buffers.append)
    raws = [buffer.raw() for buffer in buffers]
    total = sum(raw.nbytes for raw in raws)
    if not shared or total < _SHARED_MIN_BYTES:
        if not raws:
            return ("inline", data)
        return ("inline", pickle.dumps(value, protocol=5))

    segment = shared_memory.SharedMemory(create=True, size=total)
    # The main process unlinks the segment after reading it; this process must not track it.
    resource_tracker.unregister(segment._name, "shared_memory")
    sizes, offset = [], 0
    for raw in raws:
        size = raw.nbytes
        segment.buf[offset:offset + size] = raw.cast("B")
        sizes.append(size)
        offset += size
    name = segment.name
    segment.close()
    return ("shared", data, name, sizes)


def decode(message):
    """The value of a message made by ``encode`` (shared segments are copied and unlinked)."""
    if message[0] == "inline":
        return pickle.loads(message[1])

    _, data, name, sizes = message
    segment = shared_memory.SharedMemory(name=name)
    try:
        buffers, offset = [], 0
        for size in sizes:
            buffers.append(bytearray(segment.buf[offset:offset + size]))
            offset += size
    finally:
        segment.close()
        segment.unlink()
    return pickle.loads(data, buffers=buffers)


def discard(message):
    """Free the shared segment of a message that will never be decoded."""
    if message and message[0] == "shared":
        try:
            segment = shared_memory.SharedMemory(name=message[2])
            segment.close()
            segment.unlink()
        except OSError:
            pass


def _worker_main(connection, function, parent_pid, shared, slot_values):
    """Body of a process worker: receive items, send back results or the error."""
    slot = stall.WorkerSlot("", "", values=slot_values)  # the main process reads these values
    stall.bind(slot)
    slot.finish()  # started: ready for tasks
    while True:
        try:
            while not connection.poll(0.5):
                if os.getppid() != parent_pid:  # the main process is gone: stop
                    return
            item = connection.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return
        if item is None:
            return
        slot.start(stall.first_row(item))
        try:
            message = ("ok", encode(function(item), shared))
        except PartialFailure as failure:  # the rows before the failing one travel back too
            message = ("partial", encode(failure.rows, shared), _sendable(failure.error))
        except BaseException as exc:
            message = ("error", _sendable(exc))
        slot.finish()
        try:
            connection.send(message)
        except Exception as exc:  # an unpicklable result: report it instead of dying silently
            connection.send(("error", RuntimeError(f"cannot send a result to the main process: {exc}")))


def _sendable(exc):
    """``exc`` if it pickles, else a RuntimeError carrying its traceback text."""
    if _picklable(exc):
        return exc
    return RuntimeError("".join(traceback.format_exception(type(exc), exc, exc.__traceback__)))


def _picklable(value):
    try:
        pickle.dumps(value)
        return True
    except Exception:
        return False


class _Pool:
    """``workers`` processes, each with its own pipe, plus the thread that sends them tasks."""

    def __init__(self, ctx, function, workers, name, start_method, op, label):
        self.ctx, self.name = ctx, name
        context = multiprocessing.get_context(start_method)
        if start_method == "fork":
            resource_tracker.ensure_running()  # children share it instead of starting their own
        shared = config.get_enable_shared_mem()
        self.connections, self.processes, self.slots = [], [], []
        with warnings.catch_warnings():
            # Forking beside JAX's threads is safe here: children run only NumPy/user code.
            warnings.simplefilter("ignore")
            for i in range(workers):
                parent_end, child_end = context.Pipe()
                # The worker's busy flag, row and progress time; busy starting until it runs.
                values = context.RawArray("d", [1.0, stall.STARTING, 0.0])
                process = context.Process(target=_worker_main, daemon=True,
                                          args=(child_end, function, os.getpid(), shared, values),
                                          name=f"sporax-dataset-{name}-{i}")
                process.start()
                child_end.close()
                self.slots.append(ctx.watchdog.add(stall.WorkerSlot(
                    op or name, f"worker process {process.pid}", label, values)))
                self.connections.append(parent_end)
                self.processes.append(process)
        self.outbox = queue.Queue()
        self.send_error = []
        self.sender = threading.Thread(target=self._send_loop, daemon=True,
                                       name=f"sporax-dataset-{name}-sender")
        self.sender.start()

    def _send_loop(self):
        while True:
            entry = self.outbox.get()
            if entry is None:
                return
            worker, item = entry
            try:
                self.connections[worker].send(item)
            except (OSError, ValueError) as exc:
                self.send_error.append((worker, exc))
                return

    def dead(self, worker):
        process = self.processes[worker]
        process.join(timeout=0.5)  # let the exit code arrive
        return RuntimeError(
            f"{self.name}: worker process {process.pid} died unexpectedly with exit code "
            f"{process.exitcode} (killed, out of memory, or crashed in native code). Retry with "
            "python_multiprocessing=False to see the error in this process.")

    def result(self, worker):
        connection, process = self.connections[worker], self.processes[worker]
        try:
            while not connection.poll(_POLL):
                if self.ctx.stop.is_set():
                    raise PipelineStopped()
                if self.send_error and self.send_error[0][0] == worker or \
                        (not process.is_alive() and not connection.poll(0)):
                    raise self.dead(worker)
            message = connection.recv()
        except (EOFError, OSError):
            raise self.dead(worker) from None
        if message[0] == "error":
            self.ctx.stop.set()
            raise message[1]
        if message[0] == "partial":
            raise PartialFailure(decode(message[1]), message[2])
        return decode(message[1])

    def shutdown(self):
        self.outbox.put(None)
        self.sender.join(timeout=1.0)
        for connection in self.connections:
            try:
                connection.send(None)
            except Exception:
                pass
        join_all(self.processes, self.ctx.join_seconds(0.5))  # a stalled worker would not answer
        for process in self.processes:
            if process.is_alive():
                process.terminate()
        join_all(self.processes, 0.5)
        for process in self.processes:
            if process.is_alive():
                process.kill()
        join_all(self.processes, 0.5)
        for connection in self.connections:
            try:  # free the shared segments of results nobody will read
                while connection.poll(0):
                    message = connection.recv()
                    if message[0] in ("ok", "partial"):
                        discard(message[1])
            except Exception:
                pass
            connection.close()
        if not self.ctx.watchdog.stalled:
            self.ctx.watchdog.remove(self.slots)


def ordered_processes(ctx, items, function, workers, window, name, start_method="fork", op=None,
                      label="row"):
    """Apply ``function`` to ``items`` on worker processes; yield results in order."""
    pool = _Pool(ctx, function, workers, name, start_method, op, label)
    ctx.on_close(pool.shutdown)
    pending = collections.deque()

    def take():
        try:
            return (pool.result(pending.popleft()),)
        except PartialFailure as failure:
            return rows_then_error(failure, ctx.stop)

    try:
        for index, item in enumerate(items):
            worker = index % workers
            pool.outbox.put((worker, item))
            pending.append(worker)
            if len(pending) >= window:
                yield from take()
        while pending:
            yield from take()
    finally:
        pool.shutdown()
