"""Random numbers for dataset transforms: deterministic per pipeline, independent of thread count.

Under a set dataset seed, the transforms that know MindSpore 2.10's draws (``mindspore_draws``:
RandomCrop, the flips, RandomResizedCrop, RandomColorAdjust, RandomRotation, RandomAffine, RandomResize,
RandomSharpness/Posterize/Solarize, the bernoulli ones, RandomApply/RandomChoice, AutoAugment, RandAugment,
TrivialAugmentWide, RandomColor, RandomLighting, CutOut, UniformAugment, RandomSelectSubpolicy, MixUpBatch,
CutMixBatch, the box transforms, BoundingBoxAugment, the random spectrogram masks, Dither's RPDF/GPDF)
follow its per-worker streams instead (MindSporeStreams, below): their values then
depend on the map's requested
``num_parallel_workers``, as MindSpore's do, but still not on how many threads or processes run it
(RandomErasing and RandomOrder, Python in MindSpore, draw from Python's seeded ``random`` in row order, and
MixUp from NumPy's seeded global generator).
Everything else works as follows.

Interface for transform authors (``sporax.dataset.transforms`` / ``vision`` / ``text``)::

    from sporax.dataset.core.random import current_rng

    class RandomHorizontalFlip:
        def __call__(self, image):
            if current_rng().random() < self.prob:   # draw from the pipeline's generator
                image = image[:, ::-1]
            return image

``current_rng()`` returns a ``numpy.random.Generator``:

* Inside a running pipeline, the engine processes rows in *blocks* (fixed-size runs of
  consecutive rows whose boundaries depend only on the pipeline and the data, never on the
  number of workers). Before a worker (thread or process) applies a ``map`` node's operations
  to a block, it installs a generator seeded from
  ``(dataset.config.get_seed(), epoch, map node id, block index)`` and applies the operations
  row by row in row order. So the draws a transform makes for a given row are the same run to
  run and for any ``num_parallel_workers`` / ``python_multiprocessing`` setting, as long as the
  transform draws the same amount per row (draw unconditionally when in doubt).
* Outside a pipeline (eager use: ``vision.RandomCrop(8)(image)``), it returns a process-wide
  generator seeded from ``dataset.config.get_seed()``; ``dataset.config.set_seed`` re-seeds it.
  Once ``set_seed`` was called, each eager call of a random transform draws from a fresh
  generator instead, so every call repeats the same draws, as MindSpore 2.10 (which builds a new
  kernel, seeded with the dataset seed, per eager call). Transforms that reproduce MindSpore's own
  draws take ``eager_words()``: that call's ``std::mt19937(seed)`` outputs.

Optional batched fast path: a transform may define ``_batch_call(self, *columns)`` where each
column is a stacked ``numpy.ndarray`` whose first axis is the row axis (all rows of the block
have the same shape and dtype). If every operation of a ``map`` defines it, the engine calls it
once per block instead of ``__call__`` once per row; it must return the stacked outputs (one
array, or a tuple of arrays, one per output column) with the same number of rows, and must
draw its random numbers from ``current_rng()`` in row order (e.g. ``rng.integers(0, k, n)``).
Return ``NotImplemented`` to make the engine fall back to per-row calls for that block.
"""
import threading

import numpy as np

_local = threading.local()
_global = {"rng": None, "seed": None}


def _mix(*parts):
    """Combine integers into a SeedSequence entropy list (non-negative 32-bit words)."""
    words = []
    for part in parts:
        part = int(part)
        words.append(part & 0xFFFFFFFF)
        words.append((part >> 32) & 0xFFFFFFFF)
    return words


def make_rng(*parts):
    """A fresh generator seeded deterministically from integers ``parts``."""
    return np.random.Generator(np.random.PCG64(_mix(*parts)))


def current_rng():
    """The generator random transforms must draw from (see module docstring)."""
    rng = getattr(_local, "rng", None)
    if rng is None:
        return global_rng()
    if type(rng) is _LazySeed or type(rng) is _EagerDraws or type(rng) is MindSporeStreams:  # built on first draw
        if rng.generator is None:
            rng.generator = make_rng(*rng.parts)
        return rng.generator
    return rng


class _EagerDraws:
    """The draws of one eager call of a random transform under a set dataset seed."""

    __slots__ = ("parts", "generator", "words")

    def __init__(self, seed):
        self.parts = (seed, 0x5EED)
        self.generator = None
        self.words = None


class eager_call:
    """Context manager around a random transform's ``__call__``: outside a pipeline and under a set
    dataset seed, the call draws from a fresh generator (see module docstring); else nothing changes.

    Example:
        >>> with eager_call():
        ...     flip = current_rng().random() < 0.5
    """

    __slots__ = ("previous", "installed")

    def __enter__(self):
        from sporax.dataset.core import config

        self.installed = getattr(_local, "rng", None) is None and config.seed_was_set()
        if self.installed:
            self.previous = set_current_rng(_EagerDraws(config.get_seed()))
        return self

    def __exit__(self, *exc):
        if self.installed:
            set_current_rng(self.previous)
        return False


def eager_words(op=None):
    """``std::mt19937`` outputs for transform ``op``'s draws as MindSpore makes them, or None: an
    eager call under a set seed, or a pipeline row under a set seed (see ``MindSporeStreams``).
    Transforms that reproduce MindSpore's own draws use them; with None they draw from
    ``current_rng()``."""
    rng = getattr(_local, "rng", None)
    if type(rng) is MindSporeStreams:
        return None if op is None else rng.words_for(op)
    if type(rng) is not _EagerDraws:
        return None
    if rng.words is None:
        from sporax.dataset.engine.sampler_order import TwisterWords

        rng.words = TwisterWords(rng.parts[0])
    return rng.words


def global_rng():
    """The process-wide generator used outside pipelines, seeded from dataset.config.get_seed()."""
    from sporax.dataset.core import config

    seed = config.effective_seed()
    if _global["rng"] is None or _global["seed"] != seed:
        _global["rng"] = make_rng(seed, 0x5EED)
        _global["seed"] = seed
    return _global["rng"]


def reset_global_rng():
    """Forget the eager generator so the next draw re-seeds it (called by config.set_seed)."""
    _global["rng"] = None


def set_current_rng(rng):
    """Install ``rng`` as this thread's generator (``None`` removes it); returns the previous one."""
    previous = getattr(_local, "rng", None)
    _local.rng = rng
    return previous


class _LazySeed:
    """The seed of a block's generator, turned into the generator on the first draw.

    Building a PCG64 generator costs tens of microseconds; most map operations draw nothing,
    so a block only pays for it when a transform actually asks ``current_rng()``.
    """

    __slots__ = ("parts", "generator")

    def __init__(self, parts):
        self.parts = parts
        self.generator = None


class block_rng:
    """Context manager installing the generator for one block of one map node (built lazily)."""

    __slots__ = ("seed", "previous")

    def __init__(self, seed, epoch, node_id, block_index):
        self.seed = _LazySeed((seed, epoch, node_id, block_index))

    def __enter__(self):
        self.previous = set_current_rng(self.seed)
        return self

    @property
    def rng(self):
        """The block's generator (built now if no transform drew from it yet)."""
        if self.seed.generator is None:
            self.seed.generator = make_rng(*self.seed.parts)
        return self.seed.generator

    def __exit__(self, *exc):
        set_current_rng(self.previous)
        return False


class MindSporeStreams:
    """The random draws of a ``map`` under a set dataset seed, made as MindSpore 2.10 makes them.

    MindSpore gives each of a map's ``num_parallel_workers`` workers its own copy of every random
    operation, seeded ``std::mt19937(seed + worker)``; rows go to the workers in turn, and each
    epoch's end marker takes a turn too. A copy's stream runs on across the epochs of one iterator;
    a new iterator starts every stream afresh. So row r of epoch e (n rows an epoch) is drawn by
    worker ``(e * (n + 1) + r) % workers``. The draws depend on the *requested* worker count (as
    MindSpore's do), never on how many threads run the map. Transforms that know MindSpore's draws
    take their words from ``eager_words(self)``; others draw from the block's generator as usual.

    Args:
        parts: the block generator's seed parts (for ``current_rng()``).
        state: the iterator's dict that keeps the streams and the row counter across epochs.
        key: the map node's id; seed: the dataset seed; workers: the requested worker count.

    Example:
        >>> streams = MindSporeStreams((5, 0, 1, 0), {}, 1, 5, 2)
        >>> streams.next_row(); first = streams.words_for("crop")()   # std::mt19937(5)'s first word
        >>> streams.next_row(); second = streams.words_for("crop")()  # std::mt19937(6)'s first word
    """

    __slots__ = ("parts", "generator", "state", "key", "seed", "workers", "worker", "nested")

    def __init__(self, parts, state, key, seed, workers):
        self.parts, self.generator = parts, None
        self.state, self.key, self.seed, self.workers = state, key, seed, max(1, int(workers))
        self.worker = 0
        self.nested = 0

    def next_row(self):
        """Hand the next row to its worker."""
        turn = self.state.get(("turn", self.key), 0)
        self.worker = turn % self.workers
        self.state[("turn", self.key)] = turn + 1

    def end_epoch(self):
        """The epoch's end marker takes a worker's turn."""
        self.state[("turn", self.key)] = self.state.get(("turn", self.key), 0) + 1

    def words_for(self, op):
        """The stream of ``op``'s copy in the current row's worker."""
        from sporax.dataset.engine.sampler_order import TwisterWords

        key = (self.key, id(op), self.worker)
        words = self.state.get(key)
        if words is None:
            # A worker's copy of an operation inside RandomApply/RandomChoice keeps the seed it was built
            # with: MindSpore re-seeds only the map's own operations with seed + worker.
            words = self.state[key] = TwisterWords(self.seed + (0 if self.nested else self.worker))
        return words


class python_operation:
    """Context manager around the transforms a MindSpore *Python* operation (RandomOrder) runs: MindSpore calls
    them eagerly, so under a set seed each call of a random one repeats its eager draws, in a pipeline too.

    Used inside such an operation's ``__call__``::

        with python_operation():
            columns = apply_chain(self.transforms, columns)
    """

    __slots__ = ("previous",)

    def __enter__(self):
        self.previous = set_current_rng(None)  # each transform's call then installs its own eager draws
        return self

    def __exit__(self, *exc):
        set_current_rng(self.previous)
        return False


class nested_operations:
    """Context manager around the operations a RandomApply/RandomChoice runs: in a seeded pipeline their
    copies keep the dataset seed in every worker (``MindSporeStreams.words_for``).

    Example:
        >>> with nested_operations():
        ...     columns = apply_chain(self.transforms, columns)
    """

    __slots__ = ("streams",)

    def __enter__(self):
        rng = getattr(_local, "rng", None)
        self.streams = rng if type(rng) is MindSporeStreams else None
        if self.streams is not None:
            self.streams.nested += 1
        return self

    def __exit__(self, *exc):
        if self.streams is not None:
            self.streams.nested -= 1
        return False
