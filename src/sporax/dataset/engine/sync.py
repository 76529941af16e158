"""``sync_wait`` / ``sync_update``: let the training loop pace the pipeline."""
import threading

from sporax.dataset.engine.block import Block
from sporax.dataset.engine.datasets import Dataset

_POLL = 0.05


class SyncWaitDataset(Dataset):
    """Passes ``num_batch`` batches, then blocks until ``sync_update(condition_name)`` allows more.

    A batch is as many rows as the ``batch`` above this node takes (one row where there is none),
    as MindSpore counts them."""

    def __init__(self, child, condition_name, num_batch=1, callback=None):
        if not isinstance(condition_name, str):
            # Any str names the condition, the empty one too (MindSpore 2.10's sync_update example uses '').
            raise TypeError(f"sync_wait: condition_name must be a str, but got {type(condition_name).__name__}.")
        if isinstance(num_batch, bool) or not isinstance(num_batch, int) or num_batch < 1:
            raise ValueError(f"sync_wait: num_batch must be a positive int, but got {num_batch!r}.")
        if callback is not None and not callable(callback):
            raise TypeError("sync_wait: callback must be callable.")
        super().__init__(child)
        self.condition_name, self.num_batch, self.callback = condition_name, num_batch, callback
        self._condition = threading.Condition()
        self._allowed = num_batch
        self._passed = 0
        self.rows_per_batch = 1  # set by a batch built above this node

    def update(self, num_batch=None, data=None):
        """Allow ``num_batch`` more batches (default: the node's num_batch); call the callback."""
        if self.callback is not None:
            self.callback(data)
        with self._condition:
            self._allowed += self.num_batch if num_batch is None else num_batch
            self._condition.notify_all()

    def release(self):
        """Stop blocking for good (the pipeline ends or is abandoned)."""
        with self._condition:
            self._allowed = float("inf")
            self._condition.notify_all()

    def _blocks(self, ctx):
        with self._condition:
            if self._allowed != float("inf"):
                self._allowed = self.num_batch
            self._passed = 0
        for block in self.children[0]._blocks(ctx):
            position = 0
            while position < block.n:
                with self._condition:
                    while self._passed >= self._allowed * self.rows_per_batch:
                        if ctx.stop.is_set():
                            return
                        ctx.watchdog.progress()  # waiting for sync_update is not a stall
                        self._condition.wait(_POLL)
                    count = int(min(block.n - position, self._allowed * self.rows_per_batch - self._passed))
                    self._passed += count
                yield block.slice(position, position + count) if count != block.n else \
                    Block(block.columns, block.n, block.start)
                position += count


def count_rows_per_batch(dataset, batch_size):
    """Tell the sync_wait nodes under a new ``batch`` (down to the next batch) how many rows make a batch."""
    stack = list(dataset.children)
    while stack:
        node = stack.pop()
        if isinstance(node, SyncWaitDataset):
            node.rows_per_batch = batch_size
        if not hasattr(node, "batch_size"):
            stack.extend(node.children)


def _sync_nodes(dataset):
    """Every SyncWaitDataset in the graph under ``dataset`` (itself included), each once."""
    stack, seen = [dataset], set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, SyncWaitDataset):
            yield node
        stack.extend(node.children)


def paces(dataset):
    """Whether a sync_wait in the graph under ``dataset`` (itself included) paces the pipeline.

    A stage above one must not ask for a row before it has handed the previous ones on: the rows
    ``sync_update`` has not yet allowed come only after the training loop has seen those.
    """
    return next(_sync_nodes(dataset), None) is not None


def find_sync_node(dataset, condition_name):
    """The SyncWaitDataset named ``condition_name`` in the graph under ``dataset``."""
    for node in _sync_nodes(dataset):
        if node.condition_name == condition_name:
            return node
    raise RuntimeError(f"sync_update: there is no sync_wait with condition_name "
                       f"'{condition_name}' in this pipeline.")
