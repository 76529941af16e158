"""Running a node that has ``cache=DatasetCache(...)``: validation and the cached epoch.

A cached node (a source, or a ``map`` over a source) keys its output rows by the source's row
id. Each epoch draws the source's row order from its sampler as usual; rows already in the
cache are read from it, and only the missing ones are read from the source and pushed through
the cached operations (the source is told which rows to read), then stored. Maps keep rows one
to one and in order, which is what lets a row of the cached node be matched to its source row.
"""
import numpy as np

from sporax.dataset.engine import serializer_deserializer
from sporax.dataset.engine.block import Block
from sporax.dataset.engine.cache_client import DatasetCache

ROWS_PER_BLOCK = 64

# Operations MindSpore refuses below a cache, with the node name its error gives.
_REFUSED = {
    "BatchDataset": "BatchNode", "PaddedBatchDataset": "BatchNode",
    "BucketBatchByLengthDataset": "BucketBatchByLengthNode", "SkipDataset": "SkipNode",
    "TakeDataset": "TakeNode (possibly from Split)", "ZipDataset": "ZipNode",
    "ConcatDataset": "ConcatNode", "FilterDataset": "FilterNode",
    "FlatMapDataset": "FlatMapNode", "SyncWaitDataset": "SyncWaitNode",
}
_ROW_PRESERVING = ("MapDataset", "ProjectDataset", "RenameDataset")


def check_cache_argument(cache):
    """``cache`` must be None or a DatasetCache (MindSpore's TypeError otherwise)."""
    if cache is not None and not isinstance(cache, DatasetCache):
        raise TypeError(f"Argument cache with value {cache} is not of type [{DatasetCache}], "
                        f"but got {type(cache)}.")
    return cache


def _refuse(message):
    raise RuntimeError(f"{message} A DatasetCache may sit on a source or on a map whose inputs "
                       "are maps, project and rename over one source; move the cache up or down.")


def cached_source(node):
    """The source below cached ``node``, after checking the nodes in between as MindSpore does."""
    from sporax.dataset.engine.datasets_user_defined import GeneratorDataset
    from sporax.dataset.engine.sources import MappableDataset

    current = node
    while True:
        name = type(current).__name__
        if isinstance(current, GeneratorDataset):
            _refuse("There is currently no support for GeneratorOp under cache.")
        if name == "MapDataset" and any(getattr(op, "random", False) for op in current.operations):
            _refuse("MapNode containing random operation is not supported as a descendant of cache.")
        if name == "RepeatDataset":
            _refuse("A cache over a RepeatNode of a mappable dataset is not supported.")
        if name in _REFUSED:
            _refuse(f"{_REFUSED[name]} is not supported as a descendant operator under a cache.")
        if name == "ShuffleDataset":
            raise NotImplementedError(
                "shuffle below a cached map is not supported by sporax (its rows cannot be matched "
                "to source rows); shuffle the source (shuffle=True) or shuffle above the cached map.")
        if isinstance(current, MappableDataset):
            break
        if name not in _ROW_PRESERVING or len(current.children) != 1:
            _refuse(f"{name} is not supported as a descendant operator under a cache.")
        current = current.children[0]
        if getattr(current, "cache", None) is not None:
            source = current
            while source.children:
                source = source.children[0]
            _refuse(f"Nested cache operations over {type(source).__name__} is not supported.")
    return current


def _cache_key(node):
    """Which rows of the cache belong to ``node``: the pipeline's JSON where it has one."""
    try:
        return serializer_deserializer.fingerprint(node)
    except Exception:  # a node the JSON cannot describe: the node itself
        return ("node", id(node))


def _rows(blocks):
    for block in blocks:
        yield from block.rows()


def _block(rows, width, start):
    from sporax.dataset.engine.mapping import as_stacked

    columns = []
    for j in range(width):
        values = [row[j] for row in rows]
        stacked = as_stacked(values)
        columns.append(values if stacked is None else stacked)
    return Block(columns, len(rows), start)


def cached_blocks(node, ctx, produce):
    """One epoch of cached ``node``; ``produce(ctx)`` runs it uncached (on the rows it is told)."""
    source = cached_source(node)
    store = node.cache._store(_cache_key(node))
    indices = [int(i) for i in source._epoch_indices(ctx)]
    from_source = [i not in store for i in indices]
    fresh = None
    if any(from_source):
        ctx.forced_indices[id(source)] = np.asarray(
            [i for i, miss in zip(indices, from_source) if miss], dtype=np.int64)
        fresh = produce(ctx)
    fresh_rows = _rows(fresh) if fresh is not None else iter(())
    width = len(node._column_names())
    try:
        for start in range(0, len(indices), ROWS_PER_BLOCK):
            if ctx.stop.is_set():
                return
            rows = []
            for position in range(start, min(start + ROWS_PER_BLOCK, len(indices))):
                row_id = indices[position]
                if from_source[position]:
                    row = next(fresh_rows)
                    store.put(row_id, row)
                else:
                    row = store.get(row_id)
                rows.append(row)
            yield _block(rows, width, start)
    finally:
        if fresh is not None:
            fresh.close()
