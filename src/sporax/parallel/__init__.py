"""``sporax.parallel``: distributed training on JAX's runtime (``mindspore.communication``, ``mindspore.parallel``).

- ``communication``: ``init`` (``jax.distributed.initialize`` from the launcher's variables), ranks,
  groups, ``GlobalComm``;
- ``collectives``: the engine of ``ops.AllReduce`` & co. and of ``comm_func``;
- ``context_view``, ``algo_parameters``: the parallel context as MindSpore's private helpers read it;
- ``launch``: ``sporax launch`` / ``msrun``.
"""
from sporax.parallel.algo_parameters import (
    get_algo_parameters, reset_algo_parameters, set_algo_parameters)
from sporax.parallel.communication import (
    HCCL_WORLD_COMM_GROUP, MCCL_WORLD_COMM_GROUP, NCCL_WORLD_COMM_GROUP, GlobalComm, create_group,
    destroy_group, get_group_rank_from_world_rank, get_group_size, get_local_rank, get_local_rank_size,
    get_process_group_ranks, get_rank, get_world_rank_from_group_rank, init, release)
from sporax.parallel import comm_func

__all__ = ["set_algo_parameters", "get_algo_parameters", "reset_algo_parameters", "init", "release",
           "get_rank", "get_local_rank", "get_group_size", "get_local_rank_size", "create_group",
           "destroy_group", "get_group_rank_from_world_rank", "get_world_rank_from_group_rank",
           "get_process_group_ranks", "GlobalComm", "HCCL_WORLD_COMM_GROUP", "NCCL_WORLD_COMM_GROUP",
           "MCCL_WORLD_COMM_GROUP", "comm_func"]
