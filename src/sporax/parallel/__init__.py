"""``sporax.parallel``: distributed training on JAX's runtime (``mindspore.communication``, ``mindspore.parallel``).

- ``communication``: ``init`` (``jax.distributed.initialize`` from the launcher's variables), ranks,
  groups, ``GlobalComm``;
- ``collectives``: the engine of ``ops.AllReduce`` & co. and of ``comm_func``;
- ``context_view``, ``algo_parameters``: the parallel context as MindSpore's private helpers read it;
- ``shard``, ``layout``, ``strategy``: strategies and layouts as ``NamedSharding``s (SEMI_AUTO/AUTO_PARALLEL);
- ``checkpoint``, ``checkpoint_transform``, ``strategy_file``: distributed checkpoints;
- ``launch``: ``sporax launch`` / ``msrun``.
"""
from sporax.parallel.algo_parameters import (
    get_algo_parameters, reset_algo_parameters, set_algo_parameters)
from sporax.parallel.communication import (
    HCCL_WORLD_COMM_GROUP, MCCL_WORLD_COMM_GROUP, NCCL_WORLD_COMM_GROUP, GlobalComm, create_group,
    destroy_group, get_group_rank_from_world_rank, get_group_size, get_local_rank, get_local_rank_size,
    get_process_group_ranks, get_rank, get_world_rank_from_group_rank, init, release)
from sporax.parallel import comm_func
from sporax.parallel import pipeline_stages  # noqa: F401 - registers the pipeline runner with sporax.state.world

# --- mindspore.parallel: shardings, layouts and distributed checkpoints ---
from sporax.parallel.checkpoint import load_distributed_checkpoint, load_segmented_checkpoints, merge_sliced_parameter
from sporax.parallel.checkpoint_transform import (
    convert_checkpoint_by_rank, convert_checkpoints, rank_list_for_convert, rank_list_for_transform,
    transform_checkpoint_by_rank, transform_checkpoints,
)
from sporax.parallel.layout import Layout
from sporax.parallel.shard import shard
from sporax.parallel.strategy_file import build_searched_strategy, restore_group_info_list

__all__ = [
    # communication
    "set_algo_parameters", "get_algo_parameters", "reset_algo_parameters", "init", "release",
    "get_rank", "get_local_rank", "get_group_size", "get_local_rank_size", "create_group",
    "destroy_group", "get_group_rank_from_world_rank", "get_world_rank_from_group_rank",
    "get_process_group_ranks", "GlobalComm", "HCCL_WORLD_COMM_GROUP", "NCCL_WORLD_COMM_GROUP",
    "MCCL_WORLD_COMM_GROUP", "comm_func",
    # shardings and distributed checkpoints
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
from sporax.parallel.pipeline_merge import merge_pipeline_strategys  # noqa: E402
__all__.append("merge_pipeline_strategys")
from sporax.parallel.pipeline_shared import sync_pipeline_shared_parameters  # noqa: E402
__all__.append("sync_pipeline_shared_parameters")
from sporax.parallel.safetensors_merge import unified_safetensors  # noqa: E402
__all__.append("unified_safetensors")
from sporax.parallel.replicas import parameter_broadcast  # noqa: E402
__all__.append("parameter_broadcast")
from sporax.parallel.operator_strategy import set_op_strategy_config  # noqa: E402
__all__.append("set_op_strategy_config")
