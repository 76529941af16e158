"""Named data queues: MindSpore's device queue (``dataset.device_que().send()`` feeds one,
``ops.GetNext(shared_name=...)`` reads it).

A queue holds whole batches (tuples of NumPy arrays), bounded so a sender runs ahead of the
reader by at most ``capacity`` batches. The sender closes it when its data ends or fails; a
reader then gets a clear error instead of waiting forever, and a reader that waits longer than
its timeout for a batch gets one too. Pure Python: the dataset engine and the ops both use it.
"""
import queue
import threading
import time

_POLL = 0.05


class QueueClosed(RuntimeError):
    """The queue was closed and holds no more batches."""


class DataQueue:
    """A bounded, closable queue of batches with a name."""

    def __init__(self, name, capacity):
        self.name = name
        self._items = queue.Queue(maxsize=max(1, capacity))
        self._closed = threading.Event()
        self._reason = None
        self._peeked = None

    def put(self, batch, stop=None):
        """Add ``batch``; waits while full. Returns False when closed or ``stop`` is set first."""
        while not self._closed.is_set() and not (stop is not None and stop.is_set()):
            try:
                self._items.put(batch, timeout=_POLL)
                return True
            except queue.Full:
                continue
        return False

    def close(self, reason="the sender finished"):
        """No more batches will come; readers drain what is left, then get QueueClosed."""
        if not self._closed.is_set():
            self._reason = reason
            self._closed.set()

    @property
    def closed(self):
        return self._closed.is_set()

    def get(self, timeout):
        """The next batch; QueueClosed when closed and empty, TimeoutError after ``timeout`` s."""
        if self._peeked is not None:
            batch, self._peeked = self._peeked, None
            return batch
        deadline = time.monotonic() + timeout
        while True:
            try:
                return self._items.get(timeout=min(_POLL, max(0.0, deadline - time.monotonic())))
            except queue.Empty:
                if self._closed.is_set() and self._items.empty():
                    raise QueueClosed(f"the data queue '{self.name}' is closed and empty "
                                      f"({self._reason}).") from None
                if time.monotonic() >= deadline:
                    raise TimeoutError(f"no batch arrived in data queue '{self.name}' within "
                                       f"{timeout} s.") from None

    def peek(self, timeout):
        """The next batch without taking it (the next ``get`` returns it)."""
        if self._peeked is None:
            self._peeked = self.get(timeout)
        return self._peeked

    def size(self):
        return self._items.qsize() + (self._peeked is not None)


_queues = {}
# Re-entrant: the garbage collector can run a TransferDataset's __del__ (release -> remove) in the
# middle of create/find on the same thread, while the lock is held; a plain Lock would deadlock there.
_lock = threading.RLock()
_created = threading.Condition(_lock)


def create(name, capacity):
    """A new queue ``name`` (replacing a closed one of that name)."""
    with _lock:
        old = _queues.get(name)
        if old is not None and not old.closed:
            raise RuntimeError(f"A data queue named '{name}' is already being fed; release its "
                               "TransferDataset first or choose another queue_name.")
        _queues[name] = DataQueue(name, capacity)
        _created.notify_all()
        return _queues[name]


def find(name, timeout):
    """The queue ``name``, waiting up to ``timeout`` s for a sender to create it."""
    deadline = time.monotonic() + timeout
    with _lock:
        while name not in _queues:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no data queue named '{name}' was created within {timeout} s.")
            _created.wait(min(left, _POLL))
        return _queues[name]


def remove(name, data_queue):
    """Forget ``data_queue`` (if it is still the one registered under ``name``)."""
    with _lock:
        if _queues.get(name) is data_queue:
            del _queues[name]
