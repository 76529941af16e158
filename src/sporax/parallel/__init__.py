"""``mindspore.parallel``: shardings, layouts and distributed checkpoints."""
from sporax.parallel.checkpoint import load_distributed_checkpoint, load_segmented_checkpoints, merge_sliced_parameter
from sporax.parallel.checkpoint_transform import (
    convert_checkpoint_by_rank, convert_checkpoints, rank_list_for_convert, rank_list_for_transform,
    transform_checkpoint_by_rank, transform_checkpoints,
)
from sporax.parallel.layout import Layout
from sporax.parallel.shard import shard
from sporax.parallel.strategy_file import build_searched_strategy, restore_group_info_list

__all__ = [
    "Layout",
    "build_searched_strategy",
    "convert_checkpoint_by_rank",
    "convert_checkpoints",
    "load_distributed_checkpoint",
    "load_segmented_checkpoints",
    "merge_sliced_parameter",
    "rank_list_for_convert",
    "rank_list_for_transform",
    "restore_group_info_list",
    "shard",
    "transform_checkpoint_by_rank",
    "transform_checkpoints",
]
