"""Random-access sources: sampler resolution, per-epoch index order, block reads."""
import numpy as np

from sporax.dataset.core import config
from sporax.dataset.core.random import make_rng
from sporax.dataset.engine import caching, runtime
from sporax.dataset.engine import watchdog as stall
from sporax.dataset.engine import samplers as sampling
from sporax.dataset.engine import validation as check
from sporax.dataset.engine.block import Block
from sporax.dataset.engine.datasets import SourceDataset

BLOCK_ROWS = 64  # rows per block read from a source; fixed so results never depend on workers


class MappableDataset(SourceDataset):
    """A source whose rows can be read by index; honours sampler/shuffle/num_samples/shards.

    Subclasses implement ``_num_rows()`` and ``_read(indices)`` (returning one column per output
    column: a stacked ndarray or a list of per-row values), and may set ``_labels_for_pk``.
    """

    _parallel_reads = False  # True where reading a block is slow enough for worker threads
    # MindSpore's built-in sources refuse any sampler next to shuffle/num_samples/shards (a
    # RuntimeError from their argument check); GeneratorDataset lets a list sampler through.
    _sampler_excludes_options = True

    def __init__(self, num_samples=None, num_parallel_workers=None, shuffle=None, sampler=None,
                 num_shards=None, shard_id=None, cache=None):
        where = type(self).__name__
        super().__init__(num_parallel_workers=check.workers(where, num_parallel_workers))
        if sampler is not None and self._sampler_excludes_options:
            _check_no_options_with_sampler(where, shuffle, num_samples, num_shards, shard_id)
        self.sampler = sampling.resolve(where, sampler, shuffle, num_samples, num_shards, shard_id)
        self.shuffle_flag = shuffle
        self.num_samples = num_samples
        self.num_shards, self.shard_id = num_shards, shard_id
        self.cache = caching.check_cache_argument(cache)

    def use_sampler(self, new_sampler):
        """Read the rows ``new_sampler`` picks from now on, in place of the current sampler."""
        self.sampler = self._checked_sampler("use_sampler", new_sampler)
        self.dataset_size = None

    def add_sampler(self, new_sampler):
        """Sample the current sampler's output with ``new_sampler`` (it becomes the parent)."""
        new_sampler = self._checked_sampler("add_sampler", new_sampler)
        new_sampler.add_child(self.sampler)
        self.sampler = new_sampler
        self.dataset_size = None

    def _checked_sampler(self, method, sampler):
        if getattr(self, "random_access", True) is False:
            raise ValueError(f"{type(self).__name__}.{method}: a sampler is not supported if the source does "
                             "not have attribute '__getitem__'.")
        if sampler is None:
            raise TypeError(f"{type(self).__name__}.{method}: the input sampler can not be None.")
        if not isinstance(sampler, sampling.BuiltinSampler):
            raise TypeError(f"{type(self).__name__}.{method}: the sampler must be a built-in dataset sampler "
                            f"(SequentialSampler, RandomSampler, DistributedSampler ...), but got "
                            f"{type(sampler).__name__}.")
        return sampler

    def _num_rows(self):
        raise NotImplementedError(f"{type(self).__name__} must implement _num_rows() (an internal method of its base class).")

    def _read(self, indices):
        raise NotImplementedError(f"{type(self).__name__} must implement _read() (an internal method of its base class).")

    def _static_size(self):
        self._prepare_sampler()
        return self.sampler.count(self._num_rows())

    def _prepare_sampler(self):
        sampler = self.sampler
        while sampler is not None:
            if isinstance(sampler, sampling.PKSampler) and sampler.labels is None:
                sampler.labels = self._labels()
            sampler = sampler.child_sampler

    def _labels(self):
        return None

    def _epoch_indices(self, ctx):
        self._prepare_sampler()
        start = ctx.next_start(self)
        rng = make_rng(ctx.seed, ctx.epoch, ctx.node_id(self), start)
        # Each epoch and each repeat pass is one more pass of MindSpore's sampler.
        return self.sampler.indices(self._num_rows(), rng, (ctx.seed, ctx.sampler_pass_of(self, start)))

    def _blocks(self, ctx):
        if self.cache is not None:
            return caching.cached_blocks(self, ctx, self._source_blocks)
        return self._source_blocks(ctx)

    def _source_blocks(self, ctx):
        # A cache above this source names the rows it still needs (see ``caching``).
        indices = ctx.forced_indices.pop(id(self), None)
        if indices is None:
            indices = self._epoch_indices(ctx)
        chunks = [(start, indices[start:start + BLOCK_ROWS])
                  for start in range(0, len(indices), BLOCK_ROWS)]
        workers = self._workers()
        name = type(self).__name__
        if workers > 1 and self._parallel_reads and len(chunks) > 1:
            yield from runtime.ordered_threads(ctx, iter(chunks), self._read_block, workers,
                                               2 * workers, name, f"{name} (reading)", "index")
            return
        for chunk in chunks:
            if ctx.stop.is_set():
                return
            with stall.working(ctx, f"{name} (reading)", stall.first_row(chunk), "index"):
                result = runtime.attempt(self._read_block, chunk)
            yield from runtime.deliver(result)

    def _read_block(self, chunk):
        start, indices = chunk
        try:
            return Block(self._read(indices), len(indices), start)
        except runtime.PartialFailure as failure:  # ``_read`` numbers the kept rows from 0
            failure.rows.start = start
            raise

    def _workers(self):
        if config.get_debug_mode():
            return 1
        return self.num_parallel_workers or config.get_num_parallel_workers()


def gather(array, indices):
    """``array[indices]`` for a stacked column (a copy, so users may modify rows freely)."""
    return np.take(array, indices, axis=0)


def _check_no_options_with_sampler(where, shuffle, num_samples, num_shards, shard_id):
    """Raise as MindSpore's built-in sources do when a sampler comes with the options it replaces."""
    if shuffle is not None:
        raise RuntimeError(f"{where}: sampler and shuffle cannot be specified at the same time.")
    if num_shards is not None or shard_id is not None:
        raise RuntimeError(f"{where}: sampler and sharding cannot be specified at the same time.")
    if num_samples is not None:
        raise RuntimeError(f"{where}: sampler and num_samples cannot be specified at the same time.")
