"""Index samplers of ``mindspore.dataset.dataloader``: sequential, random (NumPy generators), batched, sharded.

Random draws follow MindSpore 2.10 call for call (``numpy.random.Generator.permutation`` per pass,
``integers`` in chunks of 32 with replacement), so a seeded generator gives MindSpore's indices.
"""
import itertools
import math
from typing import Generic, Iterator, TypeVar

import numpy as np

from sporax.dataset.dataloader.argument_checks import check_exact_type, check_positive, check_type

_T_co = TypeVar("_T_co", covariant=True)
_INT64_END = int(np.iinfo(np.int64).max) + 1
_DRAW_CHUNK = 32  # MindSpore draws sampling-with-replacement indices 32 at a time


class Sampler(Generic[_T_co]):
    """Base of the samplers: a subclass defines ``__iter__`` over dataset indices (and ``__len__``).

    Args:
        data_source (Dataset, optional): the dataset sampled. Default: ``None``.
    """

    def __init__(self, data_source=None) -> None:
        del data_source  # subclasses keep what they need


class SequentialSampler(Sampler[int]):
    """Indices ``0 .. len(data_source) - 1`` in order.

    Args:
        data_source (Dataset): the dataset sampled.
    """

    def __init__(self, data_source) -> None:
        super().__init__(data_source)
        self.data_source = data_source

    def __iter__(self) -> Iterator[int]:
        yield from range(len(self.data_source))

    def __len__(self) -> int:
        return len(self.data_source)


class RandomSampler(Sampler[int]):
    """Indices in random order: permutations of the dataset, or uniform draws with ``replacement``.

    Args:
        data_source (Dataset): the dataset sampled.
        replacement (bool, optional): draw with replacement. Default: ``False``.
        num_samples (int, optional): indices per pass. Default: ``None``, the dataset's length.
        generator (numpy.random.Generator, optional): the random source. Default: ``None``, a fresh
            generator per pass seeded from ``numpy.random`` (so ``numpy.random.seed`` fixes it).
    """

    def __init__(self, data_source, replacement=False, num_samples=None, generator=None) -> None:
        super().__init__(data_source)
        check_exact_type(replacement, "replacement", bool, "bool")
        if num_samples is not None:
            check_exact_type(num_samples, "num_samples", int, "int")
            if num_samples <= 0:
                raise ValueError(f"num_samples must be a positive integer value, but got num_samples = {num_samples}")
        if generator is not None:
            check_exact_type(generator, "generator", np.random.Generator, "numpy.random.Generator")
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator

    @property
    def num_samples(self) -> int:
        """The number of indices one pass yields."""
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self) -> Iterator[int]:
        size = len(self.data_source)
        generator = self.generator
        if generator is None:
            generator = np.random.default_rng(np.random.randint(0, _INT64_END, dtype=np.int64))
        if self.replacement:
            chunks = [_DRAW_CHUNK] * (self.num_samples // _DRAW_CHUNK) + [self.num_samples % _DRAW_CHUNK]
            for chunk in chunks:
                yield from generator.integers(0, size, size=(chunk,), dtype=np.int64).tolist()
            return
        for _ in range(self.num_samples // size):
            yield from generator.permutation(size).tolist()
        # the last (partial) permutation is drawn even when nothing of it is used, as MindSpore does
        yield from generator.permutation(size).tolist()[:self.num_samples % size]

    def __len__(self) -> int:
        return self.num_samples


class BatchSampler(Sampler[list]):
    """Groups another sampler's indices into lists of ``batch_size``.

    Args:
        sampler (Union[Sampler, Iterable]): the indices grouped.
        batch_size (int): indices per batch.
        drop_last (bool): drop a last batch shorter than ``batch_size``.
    """

    def __init__(self, sampler, batch_size, drop_last) -> None:
        super().__init__()
        check_type(batch_size, "batch_size", valid_type=int, invalid_type=bool)
        check_positive(batch_size, "batch_size")
        check_type(drop_last, "drop_last", valid_type=bool)
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self) -> Iterator[list]:
        indices = iter(self.sampler)
        while True:
            batch = list(itertools.islice(indices, self.batch_size))
            if not batch or (self.drop_last and len(batch) < self.batch_size):
                return
            yield batch

    def __len__(self) -> int:
        if self.drop_last:
            return len(self.sampler) // self.batch_size
        return -(-len(self.sampler) // self.batch_size)


class InfiniteSampler(Sampler):
    """The placeholder sampler of an iterable-style dataset: endless ``None`` (the dataset decides the end)."""

    def __iter__(self):
        return itertools.repeat(None)


# () -> (world size, rank): registered by the package above the array layers (sporax/__init__),
# so this NumPy-only module never imports the communication layer.
_process_group = []


def use_process_group(world_size_and_rank):
    """Make ``DistributedSampler`` read the default ``num_replicas``/``rank`` from ``world_size_and_rank()``."""
    _process_group[:] = [world_size_and_rank]


def _world_size_and_rank():
    if not _process_group:
        raise RuntimeError("DistributedSampler: num_replicas/rank default to the process group's world size "
                           "and rank, but none is registered: import sporax first, or pass num_replicas and rank.")
    return _process_group[0]()


class DistributedSampler(Sampler):
    """This replica's share of the dataset: every ``num_replicas``-th index from ``rank`` on.

    Args:
        dataset (Dataset): the dataset sampled.
        num_replicas (int, optional): the number of replicas. Default: ``None``, the world size.
        rank (int, optional): this replica. Default: ``None``, this process's rank.
        shuffle (bool, optional): permute the indices (seeded with ``seed + epoch``). Default: ``True``.
        seed (int, optional): the shuffle seed, the same on every replica. Default: ``0``.
        drop_last (bool, optional): drop the tail instead of padding with repeated indices. Default: ``False``.
    """

    def __init__(self, dataset, num_replicas=None, rank=None, shuffle=True, seed=0, drop_last=False) -> None:
        super().__init__(dataset)
        for value, name, kind in ((num_replicas, "num_replicas", int), (rank, "rank", int)):
            if value is not None:
                check_exact_type(value, name, kind, "int")
        for value, name, kind in ((shuffle, "shuffle", bool), (seed, "seed", int), (drop_last, "drop_last", bool)):
            check_exact_type(value, name, kind, kind.__name__)
        if num_replicas is None or rank is None:
            world_size, world_rank = _world_size_and_rank()
            num_replicas = world_size if num_replicas is None else num_replicas
            rank = world_rank if rank is None else rank
        if num_replicas <= 0:
            raise ValueError(f"Invalid num_replicas: {num_replicas}, num_replicas must be greater than 0.")
        if rank >= num_replicas or rank < 0:
            raise ValueError(f"Invalid rank: {rank}, rank must be in the interval [0, {num_replicas - 1}]")
        self.dataset, self.num_replicas, self.rank = dataset, num_replicas, rank
        self.shuffle, self.seed, self.drop_last, self.epoch = shuffle, seed, drop_last, 0
        if drop_last and len(dataset) % num_replicas:
            self.num_samples = math.ceil((len(dataset) - num_replicas) / num_replicas)
        else:
            self.num_samples = math.ceil(len(dataset) / num_replicas)
        self.total_samples = self.num_samples * num_replicas

    def __iter__(self) -> Iterator[int]:
        size = len(self.dataset)
        if self.shuffle:
            indices = np.random.default_rng(self.seed + self.epoch).permutation(size).tolist()
        else:
            indices = list(range(size))
        if self.drop_last:
            indices = indices[:self.total_samples]
        else:  # pad with the first indices, repeated as often as needed
            padding = self.total_samples - size
            indices += (indices * math.ceil(padding / size))[:padding] if padding > 0 else []
        return iter(indices[self.rank:self.total_samples:self.num_replicas])

    def __len__(self) -> int:
        return self.num_samples

    def set_epoch(self, epoch) -> None:
        """Reseed the shuffle for ``epoch`` (call it every epoch so epochs differ)."""
        check_exact_type(epoch, "epoch", int, "int")
        self.epoch = epoch
