"""``Dataset.split``: row counts or fractions, random or in order."""
import copy
import math

from sporax.dataset.engine import samplers
from sporax.dataset.engine.pipeline_internals import copy_graph
from sporax.dataset.engine.sources import MappableDataset


def _sizes(sizes, total):
    if not isinstance(sizes, (list, tuple)) or not sizes:
        raise TypeError(f"split: sizes must be a non-empty list of ints or floats, but got {sizes!r}.")
    if all(isinstance(s, int) and not isinstance(s, bool) for s in sizes):
        if any(s <= 0 for s in sizes):
            raise ValueError(f"split: every size must be a positive int, but got {list(sizes)}.")
        if sum(sizes) != total:
            raise RuntimeError(f"split: the sizes {list(sizes)} add up to {sum(sizes)}, but the "
                               f"dataset has {total} rows; give sizes that add up to {total}.")
        return list(sizes)
    if all(isinstance(s, float) for s in sizes):
        if any(not 0 < s <= 1 for s in sizes) or not math.isclose(sum(sizes), 1.0, abs_tol=1e-6):
            raise ValueError(f"split: fractions must each be in (0, 1] and add up to 1, but got "
                             f"{list(sizes)}.")
        counts = [round(s * total) for s in sizes]
        difference = total - sum(counts)
        # Put the rounding difference on the first split that can take it (never below 1 row).
        for i, count in enumerate(counts):
            if difference == 0:
                break
            adjusted = max(1, count + difference)
            difference -= adjusted - count
            counts[i] = adjusted
        if any(c <= 0 for c in counts):
            raise RuntimeError(f"split: the fractions {list(sizes)} give an empty split for a "
                               f"dataset of {total} rows.")
        return counts
    raise TypeError(f"split: sizes must be all ints or all floats, but got {list(sizes)}.")


def split(dataset, sizes, randomize=True):
    """Split ``dataset`` into len(sizes) datasets (see Dataset.split)."""
    total = dataset.get_dataset_size()
    counts = _sizes(sizes, total)
    if not isinstance(dataset, MappableDataset) or not getattr(dataset, "random_access", True):
        # Pipelines that are not random-access sources (a generator too) split by take/skip, each part on
        # its own copy of the pipeline (as MindSpore's): parts sharing a node would not be trees. To
        # randomize, each copy passes one 10000-row shuffle buffer that keeps its order every epoch: with
        # the same seed every copy sees the same order, so the parts do not overlap.
        parts, offset = [], 0
        for count in counts:
            part = copy_graph(dataset)
            if randomize:
                part = part.shuffle(10000)
                part.reshuffle_each_epoch = False
            part = part.skip(offset) if offset else part
            parts.append(part.take(count))
            offset += count
        return parts
    # A source: as MindSpore 2.10, split j reads rows offset_j .. offset_j + count_j of the source's own
    # order for the epoch, after (randomize) one fixed permutation of it: std::shuffle with
    # std::mt19937(seed), the first pass of a RandomSampler that does not reshuffle each epoch.
    parts, offset = [], 0
    for count in counts:
        base = copy.deepcopy(dataset.sampler)
        if randomize:
            fixed = samplers.RandomSampler()
            fixed.reshuffle_each_epoch = False
            fixed.add_child(base)
            base = fixed
        window = samplers.SequentialSampler(offset, count)
        window.add_child(base)
        part = copy.copy(dataset)
        part.dataset_size = part._shape_type_cache = None
        part._epochs_started = 0
        part.sampler = window
        parts.append(part)
        offset += count
    return parts
