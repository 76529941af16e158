"""Stall detection: a pipeline whose user code stops making progress warns, then stops with an error.

Every place that runs user code (a map function, a source's generator or ``__getitem__``, a
filter predicate, a ``per_batch_map``) does so through a :class:`WorkerSlot` that records which
operation runs, on which worker, on which row, and when it started. A process worker's slot
lives in shared memory, so the main process sees its row too. Moving to the next row is a
single store (``current_values()[ROW] = row``); the waiting consumer notices the change.

The thread that consumes the pipeline checks, while it waits, how long nothing has moved:

* after ``dataset.config.get_multiprocessing_timeout_interval()`` seconds (MindSpore's knob,
  default 300) it logs a warning naming the operation, the worker and the row, and repeats it
  every interval;
* after ``dataset.config.get_watchdog_timeout()`` seconds (sporax's second limit; by default
  three intervals) it stops the pipeline with a RuntimeError naming them, and ends its worker
  processes -- unless ``dataset.config.set_enable_watchdog(False)``, which keeps waiting (still
  warning).

A user function that hangs in a worker thread cannot be interrupted (Python has no way to kill
a thread); the pipeline abandons it and the thread ends whenever the function returns. In
``dataset.config.set_debug_mode(True)`` the pipeline runs in the consumer's own thread, so there
is nobody to watch it: no warning, no error.
"""
import contextlib
import logging
import threading
import time

from sporax.dataset.core import config
from sporax.dataset.engine.block import Block

_LOG = logging.getLogger("sporax.dataset")
_local = threading.local()  # the slot of the user code running on this thread, if any

_BUSY, ROW, _PROGRESS = 0, 1, 2
STARTING = -2.0  # the row of a worker process that is still starting (importing modules)


class WorkerSlot:
    """What one worker is doing: busy or not, its row, the time of its last progress.

    ``values`` is a plain list, or a ``multiprocessing`` shared array for a process worker
    (written by the worker, read by the main process; ``time.monotonic`` is one clock for every
    process of the machine).
    """

    def __init__(self, op, worker, label="row", values=None):
        self.op, self.worker, self.label = op, worker, label
        self.values = values if values is not None else [0.0, -1.0, 0.0]
        self.values[_PROGRESS] = time.monotonic()
        self._seen_row, self._seen_at = None, 0.0  # the consumer's view of the row's changes

    def start(self, row):
        values = self.values
        values[ROW] = row
        values[_PROGRESS] = time.monotonic()
        values[_BUSY] = 1.0

    def finish(self):
        self.values[_PROGRESS] = time.monotonic()
        self.values[_BUSY] = 0.0

    def busy(self):
        return self.values[_BUSY] != 0.0

    def progress_time(self, now=None):
        """When this worker last moved (started or finished a task, or went to a new row)."""
        if now is not None:
            row = self.values[ROW]
            if row != self._seen_row:
                self._seen_row, self._seen_at = row, now
        return max(self.values[_PROGRESS], self._seen_at)

    def describe(self, now):
        row = int(self.values[ROW])
        where = f", {self.label} {row}" if row >= 0 else ""
        if row == STARTING:
            where = ", starting (importing modules in the new process)"
        return (f"{self.op}{where} ({self.worker}, no progress for "
                f"{now - self.progress_time():.1f} s)")


def current_values():
    """The values of this thread's slot (store a row at ``[ROW]``), or a scratch list if none."""
    slot = getattr(_local, "slot", None)
    return [0.0, 0.0, 0.0] if slot is None else slot.values


def bind(slot):
    """Make ``slot`` this thread's slot (worker threads and processes, for their whole life)."""
    _local.slot = slot


def first_row(item):
    """The first row of a worker task: a map's (index, Block) or a source's (start, indices)."""
    if isinstance(item, tuple) and len(item) == 2:
        start, payload = item
        if isinstance(payload, Block):
            return payload.start
        try:
            return int(payload[0]) if len(payload) else int(start)
        except (TypeError, ValueError):
            return int(start) if isinstance(start, int) else -1
    return -1


@contextlib.contextmanager
def working(ctx, op, row, label="row"):
    """Run user code of ``op`` inline on this thread, starting at ``row``, watched for stalls."""
    slot = ctx.watchdog.slot_for(op, threading.current_thread().name, label)
    previous = getattr(_local, "slot", None)
    _local.slot = slot
    slot.start(row)
    try:
        yield slot
    finally:
        slot.finish()
        _local.slot = previous


class Watchdog:
    """The stall detector of one running epoch (see the module docstring)."""

    def __init__(self):
        self.slots = []
        self._inline = {}
        self._lock = threading.Lock()
        self.progress_at = time.monotonic()
        self.stalled = False
        self._warned_at = None

    def add(self, slot):
        with self._lock:
            self.slots.append(slot)
        return slot

    def remove(self, slots):
        """Forget the slots of workers that ended (a repeat pass starts new ones)."""
        with self._lock:
            self.slots = [slot for slot in self.slots if slot not in slots]

    def slot_for(self, op, worker, label):
        key = (op, worker, label)
        slot = self._inline.get(key)
        if slot is None:
            slot = self._inline[key] = self.add(WorkerSlot(op, f"thread {worker}", label))
        return slot

    def progress(self):
        """Something moved (a block delivered, a wait on the user that is not a stall)."""
        self.progress_at = time.monotonic()

    def check(self, waiting_since):
        """Called by the waiting consumer: warn or raise when nothing moved for too long."""
        now = time.monotonic()
        with self._lock:
            slots = list(self.slots)
        last = max([self.progress_at, waiting_since] + [slot.progress_time(now) for slot in slots])
        idle = now - last
        interval = config.get_multiprocessing_timeout_interval()
        limit = config.get_watchdog_timeout()
        enabled = config.get_enable_watchdog()
        if enabled and idle >= limit:
            self.stalled = True
            raise RuntimeError(self._error_text(slots, now, idle, limit))
        if idle >= interval and (self._warned_at is None or self._warned_at < last or
                                 now - self._warned_at >= interval):
            self._warned_at = now
            _LOG.warning(self._warning_text(slots, now, idle, interval, limit, enabled))

    @staticmethod
    def _culprits(slots, now):
        busy = sorted((slot for slot in slots if slot.busy()), key=WorkerSlot.progress_time)
        if not busy:
            return ("no user function is running: the pipeline itself is waiting (a source "
                    "reading files, or a lock)")
        return "; ".join(slot.describe(now) for slot in busy)

    def _warning_text(self, slots, now, idle, interval, limit, enabled):
        then = (f"the watchdog stops the pipeline with an error after {limit:g} s without "
                "progress (dataset.config.set_watchdog_timeout)" if enabled else
                "the watchdog is off (dataset.config.set_enable_watchdog(False)): the pipeline "
                "keeps waiting")
        return (f"Dataset pipeline: no progress for {idle:.1f} s. Waiting on: "
                f"{self._culprits(slots, now)}. Check whether the user defined function is stuck "
                "or too slow. This warning repeats every "
                f"{interval} s (dataset.config.set_multiprocessing_timeout_interval); {then}.")

    def _error_text(self, slots, now, idle, limit):
        return (f"Dataset pipeline stalled: no progress for {idle:.1f} s. Stuck: "
                f"{self._culprits(slots, now)}. The watchdog stopped the pipeline (limit: "
                f"dataset.config.set_watchdog_timeout, now {limit:g} s): its worker processes are "
                "ended, a stuck worker thread is left to finish on its own. "
                "Likely cause: the user defined function is stuck (a deadlock, an endless loop, "
                "a wait on I/O or a lock). Fix the function; if it is only slow, raise the limit "
                "with dataset.config.set_watchdog_timeout(seconds), or turn the watchdog off with "
                "dataset.config.set_enable_watchdog(False) to wait as long as it takes.")
