"""The row order of MindSpore's MindRecord reader, reproduced so that seeded MindDatasets read the same rows.

MindSpore 2.10 shuffles MindRecord rows in its reader (``ShardShuffle``), not in the dataset
sampler, and with another engine: GCC's ``std::default_random_engine`` (``minstd_rand0``) with
GCC's ``std::shuffle``. Pass k (k = 0 the first epoch of an iterator, then later epochs and
``repeat`` passes) uses seed + 1 + k, where seed is the dataset seed:

* global shuffle (``shuffle=True``, ``Shuffle.GLOBAL``/``ADAPTIVE``, ``Shuffle.PARTIAL`` below a
  million rows, ``RandomSampler``): pass k shuffles pass k - 1's rows; ``num_samples`` keeps the
  first rows, and later passes shuffle only those;
* with replacement (``shuffle=True`` with ``num_samples``): row i of pass k is
  ``std::mt19937(seed + 1 + k + i)``'s first draw below the previous pass's row count, picking
  from the previous pass's rows (so pass 2 only repeats rows of pass 1, as MindSpore does);
* shards (``num_shards``, ``DistributedSampler``): every pass shuffles the rows afresh, then takes
  every ``num_shards``-th row from ``shard_id`` (wrapping to the first rows);
* ``Shuffle.FILES`` reorders pass k - 1's runs of each file's size, in the order the engine
  shuffles the file numbers to; ``Shuffle.INFILE`` shuffles each file's run, each with a fresh
  engine on the same seed.

Recorded on MindSpore 2.10 (``ds.config.set_seed(0)``, 10 rows, ``shuffle=True``): pass 1
[2, 7, 1, 6, 8, 0, 4, 9, 5, 3], pass 2 [5, 2, 8, 9, 7, 3, 4, 0, 1, 6]; 37-, 1000- and 50000-row
orders of four seeds are identical too.

Interface for MindDataset::

    passes = ReaderPasses()                 # one per dataset: caches the last pass of a chain
    passes.chained(step, key, k, rows)      # pass k: step(rows, seed) for the passes 0..k
    global_step(count), draw_step(count), files_step(bounds), infile_step(bounds): the steps
    sharded(n, seed, k): pass k's fresh order before sharding
"""
from sporax.dataset.engine.sampler_order import MinimalStandard, TwisterWords, below, shuffle


class ReaderPasses:
    """Successive passes of one reader, remembering the last (pass k reorders pass k - 1)."""

    def __init__(self):
        self._last = None  # (key, k, rows)

    def chained(self, step, key, k, rows):
        """Pass ``k`` (0 first): ``step(rows, seed + 1 + j)`` applied for j = 0..k.

        Args:
            step: a function (list of row ids, pass seed) -> list of row ids.
            key: (dataset seed, anything else that changes the chain); key[0] is the seed.
            k: the pass number.
            rows: the rows before the first pass.

        Example:
            >>> ReaderPasses().chained(global_step(10), (0, "global"), 0, range(10))
            [2, 7, 1, 6, 8, 0, 4, 9, 5, 3]
        """
        last = self._last
        if last is not None and last[0] == key and last[1] <= k:
            done, rows = last[1], list(last[2])
        else:
            done, rows = -1, list(rows)
        for j in range(done + 1, k + 1):
            rows = step(rows, key[0] + 1 + j)
        self._last = (key, k, tuple(rows))
        return rows


def global_step(count):
    """Shuffle every row, keep the first ``count``."""
    def step(rows, seed):
        return shuffle(rows, MinimalStandard(seed))[:count]
    return step


def draw_step(count):
    """``count`` rows drawn with replacement: draw i from ``std::mt19937(seed + i)``."""
    def step(rows, seed):
        return [rows[below(TwisterWords(seed + i), len(rows))] for i in range(count)]
    return step


def files_step(bounds):
    """Reorder the runs between ``bounds`` (each file's end, cumulative) by a shuffled file order."""
    def step(rows, seed):
        starts = [0] + list(bounds[:-1])
        files = shuffle(list(range(len(bounds))), MinimalStandard(seed))
        return [row for f in files for row in rows[starts[f]:bounds[f]]]
    return step


def infile_step(bounds):
    """Shuffle each run between ``bounds``, each with a fresh engine on the same seed."""
    def step(rows, seed):
        starts = [0] + list(bounds[:-1])
        return [row for start, end in zip(starts, bounds)
                for row in shuffle(rows[start:end], MinimalStandard(seed))]
    return step


def sharded(n, seed, k):
    """Pass ``k``'s order over ``n`` rows before ``num_shards`` splits it (a fresh shuffle each pass)."""
    return shuffle(list(range(n)), MinimalStandard(seed + 1 + k))
