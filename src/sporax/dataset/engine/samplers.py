"""Samplers: which row indices a random-access source reads in one epoch, and in what order.

A sampler turns the source's row count ``n`` into an index array. Shuffling samplers draw from
the generator the engine passes in, seeded from ``(dataset seed, epoch, node id)`` — never from
the shard id, so every shard of a DistributedSampler sees the same permutation and the shards
partition it. Where the engine passes the ``(dataset seed, pass)`` key, the Random-, Distributed-,
SubsetRandom- and WeightedRandomSampler give MindSpore 2.10's own order instead (``sampler_order``).
"""
import bisect
import itertools
import math

import numpy as np

from sporax.dataset.core.option_enums import string_enum
from sporax.dataset.engine import sampler_order
from sporax.dataset.engine import validation as check


Shuffle = string_enum("Shuffle", __name__, "Shuffle levels of file-based sources (MindSpore's ``dataset.Shuffle``).",
                      "false", "adaptive", "global", "partial", "files", "infile")


class BuiltinSampler:
    """Base of the built-in samplers (``add_child`` chains: this samples the child's output)."""

    def __init__(self, num_samples=None):
        if num_samples is not None:
            check.integer(type(self).__name__, "num_samples", num_samples, 0, check.INT32_MAX)
        self.num_samples = num_samples
        self.child_sampler = None

    def add_child(self, sampler):
        """Sample the indices ``sampler`` yields instead of 0..n-1."""
        if not isinstance(sampler, BuiltinSampler):
            raise TypeError("add_child: sampler must be a dataset sampler, but got "
                            f"{type(sampler).__name__}.")
        if self.child_sampler is not None:
            raise RuntimeError("add_child: this sampler already has a child sampler.")
        self.child_sampler = sampler

    def get_child(self):
        """The child sampler (or None)."""
        return self.child_sampler

    def get_num_samples(self):
        """num_samples as given (None: all)."""
        return self.num_samples

    def is_shuffled(self):
        """Whether this sampler (or its child) reorders rows randomly."""
        child = self.child_sampler.is_shuffled() if self.child_sampler else False
        return self._shuffles() or child

    def is_sharded(self):
        """Whether this sampler (or its child) returns one shard of the rows."""
        child = self.child_sampler.is_sharded() if self.child_sampler else False
        return isinstance(self, DistributedSampler) or child

    def _shuffles(self):
        return False

    def _cap(self, count):
        return count if self.num_samples in (None, 0) else min(count, self.num_samples)

    # -- engine interface -------------------------------------------------------------------------
    def _check_settings(self):
        """Settings MindSpore 2.10 accepts when the sampler is made and refuses when the pipeline runs or is sized
        (a RuntimeError then): none unless a sampler says so."""

    def count(self, n):
        """Rows this sampler yields for a source of ``n`` rows."""
        self._check_settings()
        if self.child_sampler is not None:
            n = self.child_sampler.count(n)
        return self._count(n)

    def indices(self, n, rng, pass_key=None):
        """The index array for one epoch over ``n`` rows.

        ``pass_key`` is ``(dataset seed, pass number)`` where the engine knows it: samplers that
        reproduce MindSpore's own order (Random- and DistributedSampler) use it, not ``rng``.
        """
        self._check_settings()
        if self.child_sampler is None:
            return np.asarray(self._keyed_indices(n, rng, pass_key), dtype=np.int64)
        base = self.child_sampler.indices(n, rng, pass_key)
        own = self._keyed_indices(len(base), rng, pass_key)
        return base[np.asarray(own, dtype=np.int64)]

    def _keyed_indices(self, n, rng, pass_key):
        return self._indices(n, rng)


class SequentialSampler(BuiltinSampler):
    """Rows in order, from ``start_index`` on, ``num_samples`` of them."""

    def __init__(self, start_index=None, num_samples=None):
        super().__init__(num_samples)
        if start_index is not None:
            check.integer("SequentialSampler", "start_index", start_index, 0, check.INT32_MAX)
        self.start_index = start_index or 0

    def _count(self, n):
        if n and self.start_index >= n:
            raise RuntimeError("SequentialSampler: Invalid parameter, start_index must be less than num_rows, but "
                               f"got start_index: {self.start_index}, num_rows: {n}.")
        return self._cap(max(0, n - self.start_index))

    def _indices(self, n, rng):
        return np.arange(self.start_index, self.start_index + self._count(n))


class RandomSampler(BuiltinSampler):
    """A random permutation (or draws with ``replacement``) of the rows."""

    def __init__(self, replacement=False, num_samples=None, shuffle=Shuffle.GLOBAL):
        super().__init__(num_samples)
        check.boolean("RandomSampler", "replacement", replacement)
        self.replacement = replacement
        self.shuffle = shuffle
        # False: every epoch reads the first pass's order (what Dataset.split(randomize=True) chains in).
        self.reshuffle_each_epoch = True
        self._orders = sampler_order.PassOrders()

    def _shuffles(self):
        return True

    def _count(self, n):
        return self._cap(n)

    def _keyed_indices(self, n, rng, pass_key):
        if pass_key is None or not n:
            return self._indices(n, rng)
        # MindSpore's own order for the seed and pass, so seeded pipelines read the same rows.
        seed, k = pass_key
        k = k if self.reshuffle_each_epoch else 0
        if self.replacement:
            return sampler_order.draws(n, seed, k, self._count(n))
        return self._orders.permutation(n, seed, k)[:self._count(n)]

    def _indices(self, n, rng):
        count = self._count(n)
        if self.replacement:
            return rng.integers(0, n, count) if n else np.zeros(0, np.int64)
        return rng.permutation(n)[:count]


class DistributedSampler(BuiltinSampler):
    """Shard ``shard_id`` of ``num_shards``: rows shard_id, shard_id + num_shards, ...

    Every shard gets ceil(n / num_shards) rows; the last ones wrap around to the first rows
    (as MindSpore pads shards), so all shards have equal length.
    """

    def __init__(self, num_shards, shard_id, shuffle=True, num_samples=None, offset=-1):
        super().__init__(num_samples)
        # As MindSpore 2.10: types are checked here, shard_id < num_shards when the pipeline runs
        check.integer("DistributedSampler", "num_shards", num_shards, 1, check.INT32_MAX)
        check.integer("DistributedSampler", "shard_id", shard_id, 0, check.INT32_MAX)
        check.boolean("DistributedSampler", "shuffle", shuffle)
        if not isinstance(offset, int) or isinstance(offset, bool):
            raise TypeError(f"DistributedSampler: offset must be an int, but got {type(offset).__name__}.")
        self.num_shards, self.shard_id, self.shuffle, self.offset = num_shards, shard_id, shuffle, offset
        self._orders = sampler_order.PassOrders()

    def _shuffles(self):
        return self.shuffle

    def _check_settings(self):
        if self.shard_id >= self.num_shards:
            raise RuntimeError(f"DistributedSampler: shard_id must be in range [0, {self.num_shards}), but got: "
                               f"{self.shard_id}")

    def _count(self, n):
        if self.offset == -1:
            return self._cap(math.ceil(n / self.num_shards)) if n else 0
        return self._cap(len(self._offset_positions(n)))

    def _offset_positions(self, n):
        # As MindSpore 2.10: with an offset the shards are not padded; shard d reads the positions p
        # with (p + offset) % num_shards == d, e.g. 10 rows, 3 shards, offset 2 -> [1, 4, 7], [2, 5, 8], [0, 3, 6, 9].
        if self.offset > self.num_shards:
            raise RuntimeError(f"DistributedSampler: offset must be no more than num_shards({self.num_shards}), "
                               f"but got: {self.offset}")
        return np.arange((self.shard_id - self.offset) % self.num_shards, n, self.num_shards)

    def _keyed_indices(self, n, rng, pass_key):
        if pass_key is None or not self.shuffle or not n:
            return self._indices(n, rng)
        # MindSpore's order: its distributed sampler's passes start from seed + 1.
        seed, k = pass_key
        return self._shard(np.asarray(self._orders.permutation(n, seed + 1, k)), n)

    def _indices(self, n, rng):
        if n == 0:
            return np.zeros(0, np.int64)
        return self._shard(rng.permutation(n) if self.shuffle else np.arange(n), n)

    def _shard(self, order, n):
        if self.offset != -1:
            return order[self._offset_positions(n)[:self._count(n)]]
        positions = (self.shard_id + self.num_shards * np.arange(self._count(n))) % n
        return order[positions]


class SubsetSampler(BuiltinSampler):
    """Exactly the given ``indices``, in order."""

    def __init__(self, indices, num_samples=None):
        super().__init__(num_samples)
        self.indices_list = _index_list(type(self).__name__, indices)

    def _count(self, n):
        return self._cap(len(self.indices_list))

    def _indices(self, n, rng):
        chosen = np.asarray(self.indices_list[:self._count(n)], dtype=np.int64)
        _check_bounds(type(self).__name__, chosen, n)
        return chosen


def _check_bounds(where, chosen, n):
    # As MindSpore 2.10: a negative index is out of bound too (it does not count from the end)
    bad = chosen[(chosen < 0) | (chosen >= n)]
    if len(bad):
        raise RuntimeError(f"{where}: Sample ID ({int(bad[0])}) is out of bound, expected range [0, {n - 1}]")


class SubsetRandomSampler(SubsetSampler):
    """The given ``indices`` in a random order."""

    def _shuffles(self):
        return True

    def _indices(self, n, rng):
        chosen = np.asarray(self.indices_list, np.int64)
        _check_bounds("SubsetRandomSampler", chosen, n)
        return chosen[rng.permutation(len(chosen))][:self._count(n)]

    def _keyed_indices(self, n, rng, pass_key):
        if pass_key is None or not self.indices_list:
            return self._indices(n, rng)
        # MindSpore re-seeds std::mt19937(seed) every pass and shuffles the previous pass's order again.
        seed, k = pass_key
        cached = getattr(self, "_last_pass", None)
        if cached is not None and cached[0] == seed and cached[1] <= k:
            done, order = cached[1], list(cached[2])
        else:
            done, order = -1, list(self.indices_list)
        for _ in range(done + 1, k + 1):
            sampler_order.shuffle(order, sampler_order.TwisterWords(seed))
        self._last_pass = (seed, k, tuple(order))
        chosen = np.asarray(order, np.int64)
        _check_bounds("SubsetRandomSampler", chosen, n)
        return chosen[:self._count(n)]


class WeightedRandomSampler(BuiltinSampler):
    """Draw rows with probability proportional to ``weights``."""

    def __init__(self, weights, num_samples=None, replacement=True):
        super().__init__(num_samples)
        weights = np.asarray(weights, dtype=np.float64)
        if weights.ndim != 1:
            raise TypeError("WeightedRandomSampler: weights must be a list of numbers.")
        check.boolean("WeightedRandomSampler", "replacement", replacement)
        self.weights, self.replacement = weights, replacement

    def _check_settings(self):
        # As MindSpore 2.10: weights are checked when the pipeline runs or is sized (a RuntimeError)
        if len(self.weights) == 0:
            raise RuntimeError("WeightedRandomSampler: weights vector must not be empty")
        if (self.weights < 0).any():
            first = int(np.flatnonzero(self.weights < 0)[0])
            raise RuntimeError("WeightedRandomSampler: weights vector must not contain negative numbers, got: "
                               f"weights[{first}] = {self.weights[first]:f}")
        if not self.weights.sum() > 0:
            raise RuntimeError("WeightedRandomSampler: elements of weights vector must not be all zero")

    def _shuffles(self):
        return True

    def _count(self, n):
        return self._cap(min(n, len(self.weights)) if self.num_samples is None else n)

    def _indices(self, n, rng):
        count = self._count(n)
        weights = self.weights[:n] if len(self.weights) > n else self.weights
        if not self.replacement and count > np.count_nonzero(weights):
            raise RuntimeError("WeightedRandomSampler: cannot draw more rows without replacement "
                               "than there are rows with a non-zero weight.")
        return rng.choice(len(weights), size=count, replace=self.replacement,
                          p=weights / weights.sum())

    def _keyed_indices(self, n, rng, pass_key):
        if pass_key is None:
            return self._indices(n, rng)
        count = self._count(n)
        weights = (self.weights[:n] if len(self.weights) > n else self.weights).tolist()
        if not self.replacement and count > np.count_nonzero(weights):
            raise RuntimeError("WeightedRandomSampler: cannot draw more rows without replacement "
                               "than there are rows with a non-zero weight.")
        # MindSpore re-seeds std::mt19937(seed) every pass: with replacement GCC's discrete_distribution
        # (a canonical double against the cumulative probabilities), without it the rows of the
        # smallest exponential(1) draw / weight, in ascending order.
        words = sampler_order.TwisterWords(pass_key[0])
        if self.replacement:
            total = sum(weights)
            cumulative = list(itertools.accumulate(weight / total for weight in weights))
            cumulative[-1] = 1.0
            return [bisect.bisect_left(cumulative, sampler_order.canonical(words)) for _ in range(count)]
        keys = [(-math.log(1.0 - sampler_order.canonical(words)) / weight if weight else math.inf, index)
                for index, weight in enumerate(weights)]
        return [index for _, index in sorted(keys)[:count]]


class PKSampler(BuiltinSampler):
    """``num_val`` rows of every class (needs a source with a label column)."""

    def __init__(self, num_val, num_class=None, shuffle=False, class_column="label",
                 num_samples=None):
        super().__init__(num_samples)
        check.integer("PKSampler", "num_val", num_val, 1, check.INT32_MAX)
        if num_class is not None:
            raise NotImplementedError("PKSampler(num_class=...) is not supported; leave it None.")
        self.num_val, self.shuffle, self.class_column = num_val, shuffle, class_column
        self.labels = None  # set by the source before sampling

    def _shuffles(self):
        return self.shuffle

    def _classes(self):
        if self.labels is None:
            raise RuntimeError("PKSampler can only be used with a source that has class labels "
                               "(MnistDataset, Cifar10Dataset, ImageFolderDataset...).")
        return np.unique(self.labels)

    def _count(self, n):
        return self._cap(len(self._classes()) * self.num_val)

    def _indices(self, n, rng):
        chosen = []
        for label in self._classes():
            rows = np.flatnonzero(self.labels == label)
            if self.shuffle:
                rows = rows[rng.permutation(len(rows))]
            chosen.append(np.resize(rows, self.num_val))
        chosen = np.concatenate(chosen)
        if self.shuffle:
            chosen = chosen[rng.permutation(len(chosen))]
        return chosen[:self._count(n)]

    def _keyed_indices(self, n, rng, pass_key):
        if pass_key is None:
            return self._indices(n, rng)
        # MindSpore's: the classes in label order, shuffled (shuffle=True) by std::mt19937(seed) on the first pass
        # only; then for each class num_val rows drawn with replacement, pass k from std::mt19937(seed + k).
        seed, k = pass_key
        classes = self._classes().tolist()
        words = sampler_order.TwisterWords(seed)
        if self.shuffle:
            sampler_order.shuffle(classes, words)
        if k:
            words = sampler_order.TwisterWords(seed + k)
        chosen = []
        for label in classes:
            rows = np.flatnonzero(self.labels == label)
            chosen.extend(int(rows[sampler_order.below(words, len(rows))]) for _ in range(self.num_val))
        return chosen[:self._count(n)]


class Sampler(BuiltinSampler):
    """Base for user samplers: subclass it and implement ``__iter__`` yielding row indices.

    ``self.dataset_size`` holds the source's row count while ``__iter__`` runs.
    """

    def __init__(self, num_samples=None):
        super().__init__(num_samples)
        self.dataset_size = 0

    def __iter__(self):
        raise NotImplementedError("Sampler subclasses must implement __iter__ yielding indices.")

    def _count(self, n):
        self.dataset_size = n
        return self._cap(len(self._indices(n, None)))

    def _indices(self, n, rng):
        self.dataset_size = n
        chosen = np.fromiter((int(i) for i in self), dtype=np.int64)
        return chosen if self.num_samples in (None, 0) else chosen[:self.num_samples]


class IterableSampler(Sampler):
    """Adapter for any iterable of indices given as ``sampler=`` (lists, NumPy arrays, objects)."""

    def __init__(self, iterable):
        super().__init__(None)
        self.iterable = iterable

    def __iter__(self):
        return iter(self.iterable)


def _index_list(where, indices):
    if isinstance(indices, int):
        indices = [indices]
    try:
        values = [int(i) for i in indices]
    except (TypeError, ValueError):
        raise TypeError(f"{where}: indices must be a list of ints, but got {indices!r}.") from None
    return values


def resolve(where, sampler, shuffle, num_samples, num_shards, shard_id):
    """The sampler a source uses, from its sampler/shuffle/num_samples/num_shards/shard_id args."""
    check.shards(where, num_shards, shard_id)
    if num_samples is not None:
        check.integer(where, "num_samples", num_samples, 0, check.INT32_MAX)
    if isinstance(sampler, BuiltinSampler):
        if shuffle is not None or num_shards is not None or num_samples is not None:
            raise ValueError(
                f"{where}: Conflicting arguments during sampler assignments. num_samples: "
                f"{num_samples}, num_shards: {num_shards}, shard_id: {shard_id}, shuffle: "
                f"{shuffle}. Give either sampler or these arguments.")
        return sampler
    if sampler is not None:
        # A user's own sampler (any object with __iter__, a list of indices) decides order and
        # sharding itself: as MindSpore, shuffle and num_shards are then ignored and num_samples
        # only caps how many of its indices are read.
        if isinstance(sampler, (list, tuple, np.ndarray)):
            return SubsetSampler(list(sampler), num_samples=num_samples)
        if hasattr(sampler, "__iter__"):
            adapted = IterableSampler(sampler)
            adapted.num_samples = num_samples
            return adapted
        raise TypeError(f"{where}: sampler must be a dataset sampler or an iterable of indices, "
                        f"but got {type(sampler).__name__}.")
    shuffled = shuffle is None or (shuffle is not False and shuffle != 0)
    if num_shards is not None:
        return DistributedSampler(num_shards, shard_id, shuffle=bool(shuffled),
                                  num_samples=num_samples)
    if not shuffled:
        return SequentialSampler(num_samples=num_samples)
    # As MindSpore: a shuffled source capped by num_samples draws its rows with replacement.
    return RandomSampler(replacement=num_samples is not None, num_samples=num_samples)
