"""``mindspore.parallel``: shardings, layouts and distributed checkpoints."""
from sporax.parallel.checkpoint import load_distributed_checkpoint, merge_sliced_parameter, transform_checkpoints
from sporax.parallel.layout import Layout
from sporax.parallel.shard import shard
from sporax.parallel.strategy_file import build_searched_strategy

__all__ = [
    "Layout",
    "build_searched_strategy",
    "load_distributed_checkpoint",
    "merge_sliced_parameter",
    "shard",
    "transform_checkpoints",
]
