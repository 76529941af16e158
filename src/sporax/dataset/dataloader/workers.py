"""DataLoader workers: ``get_worker_info`` and the worker rounds.

sporax runs the ``num_workers`` workers in the calling process, one task at a time in MindSpore's
round-robin order (``in_order=True``), so a DataLoader yields what MindSpore 2.10's worker processes
yield, in the same order, without their parallelism: each worker has its own ``WorkerInfo`` (seen by
``get_worker_info()`` while the worker fetches), its own iterator of an iterable-style dataset, and its
errors are re-raised as MindSpore re-raises a worker's error (a ``RuntimeError`` naming the worker).
What a worker process would keep to itself (changes to the dataset object, the seeding of the global
``random``/``numpy.random`` generators with the worker seed) is not isolated or done here.
"""
import contextlib
import os
import traceback

_current = [None]  # the WorkerInfo of the worker now fetching, None outside workers


class WorkerInfo:
    """What ``get_worker_info()`` returns inside a worker: read-only ``id``, ``num_workers``, ``seed``, ``dataset``."""

    _initialized = False

    def __init__(self, id, num_workers, seed, dataset):  # noqa: A002 - MindSpore's argument name
        self.id = id
        self.num_workers = num_workers
        self.seed = seed
        self.dataset = dataset
        self._initialized = True

    def __setattr__(self, key, value):
        if self._initialized:
            raise RuntimeError("Cannot modify the attributes of WorkerInfo object after initialization.")
        super().__setattr__(key, value)

    def __repr__(self):
        return (f"WorkerInfo: {{id: {self.id}, num_workers: {self.num_workers}, "
                f"seed: {self.seed}, dataset: {self.dataset}}}")


def get_worker_info():
    """The current DataLoader worker's ``WorkerInfo``, or ``None`` outside a worker.

    Examples:
        >>> from mindspore.dataset.dataloader import get_worker_info
        >>> print(get_worker_info())
        None
    """
    return _current[0]


@contextlib.contextmanager
def acting_as(info):
    """Run the block as worker ``info``: ``get_worker_info()`` answers it, errors name it."""
    previous, _current[0] = _current[0], info
    try:
        yield
    except StopIteration:
        raise
    except Exception as error:
        if isinstance(error, RuntimeError) and str(error).startswith("DataLoader worker "):
            raise
        message = "".join(traceback.format_exception(type(error), error, error.__traceback__))
        raise RuntimeError(f"DataLoader worker {info.id} (pid: {os.getpid()}) caught {type(error).__name__} "
                           f"with message:\n{message}") from error
    finally:
        _current[0] = previous


class WorkerRounds:
    """Hands each index to the next live worker in turn; a worker whose dataset iterator ends leaves the round.

    Args:
        workers (list[tuple[WorkerInfo, fetcher]]): the workers, in id order.
    """

    def __init__(self, workers):
        self.workers = workers
        self.live = [True] * len(workers)
        self.last = -1

    def fetch(self, index):
        """The next worker's result for ``index``; ``StopIteration`` once every worker has ended."""
        while any(self.live):
            count = len(self.workers)
            worker = next(position % count for position in range(self.last + 1, self.last + 1 + count)
                          if self.live[position % count])
            self.last = worker
            info, fetcher = self.workers[worker]
            try:
                with acting_as(info):
                    return fetcher.fetch(index)
            except StopIteration:
                self.live[worker] = False
        raise StopIteration
