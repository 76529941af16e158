"""``mindspore.parallel``: shardings, layouts and distributed checkpoints."""
from sporax.parallel.layout import Layout
from sporax.parallel.shard import shard

__all__ = [
    "Layout",
    "shard",
]
