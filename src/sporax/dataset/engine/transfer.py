"""``Dataset.device_que()``: a ``TransferDataset`` that sends batches to a named data queue.

``send(num_epochs)`` starts a daemon thread that iterates the dataset (as NumPy) for
``num_epochs`` epochs (-1: without end) and puts each row, a tuple of arrays, into the queue
``queue_name``; ``ops.GetNext`` / ``nn.GetNextSingleOp`` with that ``shared_name`` read them.
The queue is closed when the data ends (or the pipeline fails, with its error as the reason),
so a reader never waits for batches that cannot come.
"""
import threading
import uuid

import numpy as np

from sporax.core import data_queue
from sporax.dataset.core import config
from sporax.dataset.engine.datasets import Dataset


class TransferDataset(Dataset):
    """The dataset ``input_dataset`` sent to a data queue (MindSpore's ``TransferDataset``).

    Args:
        input_dataset (Dataset): the data to send.
        send_epoch_end (bool): mark epoch ends (kept; sporax queues need no marker).
        create_data_info_queue (bool): kept; ``get_data_info`` always works here.
        queue_name (str): the queue's name; ``''`` generates a unique one (``queue_name``).
    """

    def __init__(self, input_dataset, send_epoch_end=True, create_data_info_queue=False,
                 queue_name=""):
        super().__init__(input_dataset)
        if not isinstance(queue_name, str):
            raise TypeError(f"device_que: queue_name must be a str, but got {type(queue_name).__name__}.")
        self.queue_name = queue_name or str(uuid.uuid1())
        self._send_epoch_end = True if send_epoch_end is None else send_epoch_end
        self._create_data_info_queue = create_data_info_queue
        self.column_name = input_dataset.get_col_names()
        self._queue = None
        self._thread = None
        self._stop = threading.Event()
        self._running = threading.Event()

    def send(self, num_epochs=-1):
        """Start sending ``num_epochs`` epochs (-1: without end) to the queue ``queue_name``."""
        if isinstance(num_epochs, bool) or not isinstance(num_epochs, int) or \
                (num_epochs != -1 and num_epochs < 1):
            raise ValueError(f"send: num_epochs should be -1 or a positive int, but got {num_epochs!r}.")
        self.release()

        self._stop = threading.Event()
        self._running.set()
        self._queue = data_queue.create(self.queue_name, config.get_prefetch_size())
        self._thread = threading.Thread(target=self._feed, args=(self._queue, self._stop, num_epochs),
                                        name=f"sporax-device-queue-{self.queue_name}", daemon=True)
        self._thread.start()

    def _feed(self, target, stop, num_epochs):
        iterator = self.children[0].create_tuple_iterator(num_epochs=num_epochs, output_numpy=True)
        epoch = 0
        reason = "the dataset sent all its batches"
        try:
            while num_epochs == -1 or epoch < num_epochs:
                for row in iterator:
                    while not self._running.wait(0.05):
                        if stop.is_set():
                            return
                    if not target.put(tuple(np.asarray(column) for column in row), stop):
                        return
                epoch += 1
        except Exception as exc:  # the reader learns why no more batches come
            reason = f"the dataset pipeline failed: {type(exc).__name__}: {exc}"
        finally:
            target.close(reason)
            try:
                iterator.stop()
            except Exception:
                pass

    def stop_send(self):
        """Pause sending (batches already queued stay)."""
        self._running.clear()

    def continue_send(self):
        """Resume sending after ``stop_send``."""
        self._running.set()

    def release(self):
        """Stop the sender and remove the queue."""
        self._stop.set()
        if self._queue is not None:
            self._queue.close("the TransferDataset was released")
            data_queue.remove(self.queue_name, self._queue)
        if self._thread is not None:
            self._thread.join(timeout=2.0)
        self._queue = self._thread = None

    def get_data_info(self):
        """(types, shapes) of the next batch in the queue, as NumPy dtypes and lists."""
        if self._queue is None:
            raise RuntimeError("get_data_info: call send() first; no batch has been sent.")
        batch = self._queue.peek(timeout=60.0)
        return [column.dtype for column in batch], [list(column.shape) for column in batch]

    def create_tuple_iterator(self, columns=None, num_epochs=-1, output_numpy=False, do_copy=False):
        raise RuntimeError("TransferDataset is not iterable.")

    def create_dict_iterator(self, num_epochs=-1, output_numpy=False, do_copy=False):
        raise RuntimeError("TransferDataset is not iterable.")

    def __iter__(self):
        raise RuntimeError("TransferDataset is not iterable.")

    def __del__(self):
        try:
            self.release()
        except Exception:  # interpreter shutdown
            pass
