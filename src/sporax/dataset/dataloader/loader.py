"""``DataLoader``: batches of a map-style or iterable-style dataset, collated into Tensors."""
import copy
import logging
import multiprocessing

import numpy as np

from sporax.dataset.dataloader.argument_checks import check_exclusive, check_non_negative, check_positive, check_type
from sporax.dataset.dataloader.collation import default_collate, default_convert
from sporax.dataset.dataloader.datasets import IterableDataset
from sporax.dataset.dataloader.samplers import BatchSampler, InfiniteSampler, RandomSampler, SequentialSampler
from sporax.dataset.dataloader.workers import WorkerInfo, WorkerRounds, acting_as

_LOG = logging.getLogger("sporax.dataset")
_INT64_END = int(np.iinfo(np.int64).max) + 1


class _Fetcher:
    """Turns one index (or one list of indices) of the index sampler into a collated sample or batch."""

    def __init__(self, dataset, batched, collate_fn, drop_last):
        self.dataset, self.batched, self.drop_last = dataset, batched, drop_last
        self.collate_fn = collate_fn or (default_collate if batched else default_convert)
        self.reset()

    def reset(self):
        """Restart an iterable-style dataset's stream."""
        self.stream = iter(self.dataset) if isinstance(self.dataset, IterableDataset) else None
        self.ended = False

    def fetch(self, index):
        if self.stream is None:
            data = [self.dataset[item] for item in index] if self.batched else self.dataset[index]
            return self.collate_fn(data)
        if self.ended:
            raise StopIteration
        if not self.batched:
            return self.collate_fn(next(self.stream))
        data = []
        for _ in index:
            try:
                data.append(next(self.stream))
            except StopIteration:
                self.ended = True
                break
        if not data or (self.drop_last and len(data) < len(index)):
            raise StopIteration
        return self.collate_fn(data)


class _Iterator:
    """One pass over a DataLoader (in the calling process, or through its in-process workers)."""

    def __init__(self, loader):
        self.loader = loader
        self.indices = iter(loader.index_sampler)
        self.fetcher = loader.new_fetcher()  # made here even with workers, which start from copies of it
        self.workers = None
        if loader.num_workers:
            # drawn before the sampler's first index, as MindSpore does: a seeded generator then gives
            # MindSpore's shuffle with workers too
            base_seed = int(loader.generator.integers(0, _INT64_END, dtype=np.int64))
            self.workers = []
            for worker in range(loader.num_workers):
                info = WorkerInfo(id=worker, num_workers=loader.num_workers, seed=base_seed + worker,
                                  dataset=loader.dataset)
                self.workers.append((info, copy.copy(self.fetcher)))
                if loader.worker_init_fn is not None:
                    with acting_as(info):
                        loader.worker_init_fn(info.id)
            self._start_workers()

    def _start_workers(self):
        for info, fetcher in self.workers:
            with acting_as(info):  # a worker's stream starts inside it: get_worker_info() splits the data
                fetcher.reset()
        self.fetcher = WorkerRounds(self.workers)

    def reset(self):
        """Start a persistent loader's next pass (its workers keep their WorkerInfo and seed)."""
        self.indices = iter(self.loader.index_sampler)
        self._start_workers()

    def __iter__(self):
        return self

    def __len__(self):
        return len(self.loader.index_sampler)

    def __next__(self):
        return self.fetcher.fetch(next(self.indices))


class DataLoader:
    """Iterates a dataset in batches: samples drawn by a sampler, merged by ``collate_fn`` into Tensors.

    Args:
        dataset (Dataset): a map-style (``__getitem__``) or iterable-style (``IterableDataset``) dataset.
        batch_size (int, optional): samples per batch; ``None`` yields single converted samples. Default: ``1``.
        shuffle (bool, optional): draw the indices with a ``RandomSampler``. Default: ``None`` (no).
        sampler (Union[Sampler, Iterable], optional): the index order. Default: ``None``.
        batch_sampler (Union[Sampler, Iterable], optional): lists of indices, one per batch. Default: ``None``.
        num_workers (int, optional): the number of workers (run in this process in MindSpore's
            round-robin order: see ``sporax.dataset.dataloader.workers``). Default: ``0``.
        collate_fn (Callable, optional): merges a list of samples. Default: ``None``, ``default_collate``
            (``default_convert`` without batching).
        pin_memory (bool, optional): no effect on CPU (as MindSpore on CPU warns). Default: ``False``.
        drop_last (bool, optional): drop a last batch shorter than ``batch_size``. Default: ``False``.
        timeout (float, optional): seconds to wait for a worker (checked; workers run inline). Default: ``0.0``.
        worker_init_fn (Callable[[int], None], optional): run once in each worker at its start. Default: ``None``.
        multiprocessing_context (Union[str, multiprocessing.context.BaseContext], optional): checked only.
        generator (numpy.random.Generator, optional): the shuffle's and worker seeds' random source.
            Default: ``None``, a fresh unseeded generator.
        prefetch_factor (int, optional): tasks per worker ahead (checked only). Default: ``None``, 2 with workers.
        persistent_workers (bool, optional): keep the workers (and their seeds) between passes. Default: ``False``.
        in_order (bool, optional): yield in index order. Default: ``True``.

    Examples:
        >>> from mindspore.dataset.dataloader import DataLoader
        >>> print(list(DataLoader([0, 1])))  # any object with __getitem__ and __len__ is a map-style dataset
        [Tensor(shape=[1], dtype=Int64, value= [0]), Tensor(shape=[1], dtype=Int64, value= [1])]
    """

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None, num_workers=0,
                 collate_fn=None, pin_memory=False, drop_last=False, timeout=0.0, worker_init_fn=None,
                 multiprocessing_context=None, generator=None, *, prefetch_factor=None, persistent_workers=False,
                 in_order=True):
        _check_arguments(dict(locals()))
        self.dataset, self.num_workers, self.collate_fn = dataset, num_workers, collate_fn
        self.pin_memory, self.timeout, self.worker_init_fn = pin_memory, timeout, worker_init_fn
        self.generator = generator if generator is not None else np.random.default_rng()
        self.persistent_workers, self.in_order = persistent_workers, in_order
        self.multiprocessing_context = multiprocessing_context
        self.prefetch_factor = 2 if prefetch_factor is None and num_workers > 0 else prefetch_factor
        self.iterable = isinstance(dataset, IterableDataset)
        if sampler is None:
            if self.iterable:
                sampler = InfiniteSampler()
            elif shuffle:
                sampler = RandomSampler(dataset, generator=self.generator)
            else:
                sampler = SequentialSampler(dataset)
        self.sampler = sampler
        if batch_sampler is not None:
            batch_size, drop_last = None, False
        elif batch_size is not None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.batch_size, self.drop_last, self.batch_sampler = batch_size, drop_last, batch_sampler
        self.index_sampler = batch_sampler if batch_sampler is not None else sampler
        if pin_memory:
            _LOG.warning("Set pin_memory as True on CPU device will not have any effect.")
        self._persistent = None

    def new_fetcher(self):
        """A fresh fetcher of this loader's dataset (one per worker: each streams its own iterator)."""
        return _Fetcher(self.dataset, self.batch_sampler is not None, self.collate_fn, self.drop_last)

    def __iter__(self):
        if self.num_workers and self.persistent_workers:
            if self._persistent is None:
                self._persistent = _Iterator(self)
            else:
                self._persistent.reset()
            return self._persistent
        return _Iterator(self)

    def __len__(self):
        if not self.iterable:
            return len(self.index_sampler)
        if self.batch_size is None:
            return len(self.dataset)
        if self.drop_last:
            return len(self.dataset) // self.batch_size
        return -(-len(self.dataset) // self.batch_size)


def _check_arguments(arguments):
    """DataLoader's argument checks, in MindSpore 2.10's order and words."""
    dataset, workers = arguments["dataset"], arguments["num_workers"]
    if isinstance(dataset, IterableDataset):
        for name, given in (("shuffle", arguments["shuffle"]), ("sampler", arguments["sampler"] is not None),
                            ("batch_sampler", arguments["batch_sampler"] is not None)):
            check_exclusive(given, name, "when dataset is iterable style")
    elif not hasattr(dataset, "__getitem__"):
        raise NotImplementedError(f"{type(dataset).__name__} should implement __getitem__ method if it is map style.")
    check_type(arguments["batch_size"], "batch_size", valid_type=int, invalid_type=bool, allow_none=True)
    check_positive(arguments["batch_size"], "batch_size")
    check_type(arguments["shuffle"], "shuffle", valid_type=bool, allow_none=True)
    if arguments["sampler"] is not None and arguments["shuffle"]:
        raise ValueError("sampler cannot be specified with shuffle.")
    if arguments["batch_sampler"] is not None:
        for name, given in (("batch_size", arguments["batch_size"] != 1), ("shuffle", arguments["shuffle"]),
                            ("sampler", arguments["sampler"] is not None), ("drop_last", arguments["drop_last"])):
            check_exclusive(given, name, "with batch_sampler")
    check_type(workers, "num_workers", valid_type=int, invalid_type=bool)
    check_non_negative(workers, "num_workers")
    check_type(arguments["pin_memory"], "pin_memory", valid_type=bool)
    check_type(arguments["drop_last"], "drop_last", valid_type=bool)
    check_type(arguments["timeout"], "timeout", valid_type=(int, float), invalid_type=bool)
    check_non_negative(arguments["timeout"], "timeout")
    context = arguments["multiprocessing_context"]
    if context is not None:
        _needs_workers("multiprocessing_context", workers)
        if not isinstance(context, (str, multiprocessing.context.BaseContext)):
            raise TypeError(f"multiprocessing_context must be {multiprocessing.get_all_start_methods()} or "
                            f"multiprocessing.context.BaseContext, but got: {context}.")
    check_type(arguments["generator"], "generator", valid_type=np.random.Generator, allow_none=True)
    if arguments["prefetch_factor"] is not None:
        _needs_workers("prefetch_factor", workers)
        check_type(arguments["prefetch_factor"], "prefetch_factor", valid_type=int, invalid_type=bool)
        check_positive(arguments["prefetch_factor"], "prefetch_factor")
    check_type(arguments["persistent_workers"], "persistent_workers", valid_type=bool)
    if arguments["persistent_workers"]:
        _needs_workers("persistent_workers", workers)
    check_type(arguments["in_order"], "in_order", valid_type=bool)


def _needs_workers(name, workers):
    if workers <= 0:
        raise ValueError(f"{name} must only be specified when num_workers is greater than 0, but got: {workers}.")
