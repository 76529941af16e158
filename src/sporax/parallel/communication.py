"""``mindspore.communication``: the process world on JAX's distributed runtime.

Contract:
    * ``init()`` joins the job that ``sporax launch`` / ``msrun`` started: it reads MindSpore's
      launcher variables (``MS_SCHED_HOST``/``MS_SCHED_PORT`` -> the coordinator address,
      ``MS_WORKER_NUM`` -> the number of processes, ``MS_NODE_ID`` or ``RANK_ID`` -> this
      process's rank, ``MS_TOPO_TIMEOUT`` -> the join timeout) and calls
      ``jax.distributed.initialize``. Process 0 hosts JAX's coordination service; there is no
      scheduler process and no socket of sporax's own. CPU processes exchange data with JAX's
      gloo collectives.
    * Before ``init()`` the rank/size getters answer from ``RANK_ID``/``RANK_SIZE`` (0 and 1 when
      unset) as MindSpore 2.10 does; group functions raise MindSpore's ``RuntimeError``.
    * ``init()`` without launcher variables raises ``RuntimeError`` (MindSpore does too), telling
      the user to start the script with ``sporax launch`` or ``msrun``.
    * Groups are named lists of world ranks. A collective over a group runs on a mesh of one
      device per member process (see ``sporax.parallel.collectives``).

Algorithm of ``init()``: JAX forbids ``jax.distributed.initialize`` once its backends exist, and
importing sporax creates the global random key. ``init()`` therefore copies every live array to
the host, clears JAX's backends, initialises the distributed runtime (gloo collectives on CPU;
see ``sporax.parallel.world_program``), and moves the global random key back onto the new backend. The world's rank of each process equals its
JAX process index.

Example:
    >>> from sporax.parallel import communication
    >>> communication.get_rank(), communication.get_group_size()  # before init: the env defaults
    (0, 1)
"""
import os
import socket

import jax
import numpy as np

from sporax.core import context, jax_private, process_setup, random_state
# The world's state lives in core, so that layers below this one can read it.
from sporax.core.world import HCCL_WORLD_COMM_GROUP, GlobalComm
from sporax.core.world import World as _World

NCCL_WORLD_COMM_GROUP = "nccl_world_group"
MCCL_WORLD_COMM_GROUP = "mccl_world_group"
_WORLD_NAMES = (HCCL_WORLD_COMM_GROUP, NCCL_WORLD_COMM_GROUP, MCCL_WORLD_COMM_GROUP)
_BACKEND_OF_TARGET = {"Ascend": "hccl", "GPU": "nccl", "CPU": "mccl"}
_WORLD_OF_BACKEND = {"hccl": HCCL_WORLD_COMM_GROUP, "nccl": NCCL_WORLD_COMM_GROUP, "mccl": MCCL_WORLD_COMM_GROUP}
_NOT_INITED = ("Distributed Communication has not been inited.You can't invoke this interface yet. "
               "Please call `init()` method first.")


def _check_group(function, group):
    if not isinstance(group, str):
        raise TypeError(f"For '{function}', the argument 'group' must be type of string, "
                        f"but got 'group' type : {type(group)}.")


def is_world(group):
    """Whether ``group`` names the world (any of MindSpore's world group names)."""
    return group in _WORLD_NAMES or group == GlobalComm.WORLD_COMM_GROUP


def group_ranks(group):
    """The world ranks of ``group``'s members, in group-rank order (the world when not inited)."""
    if is_world(group):
        return tuple(range(_World.size))
    if not GlobalComm.INITED:
        raise RuntimeError(_NOT_INITED)
    if group not in _World.groups:
        raise ValueError(f"The communication group '{group}' does not exist: create it with "
                         "create_group(group, rank_ids) first (created groups: "
                         f"{sorted(_World.groups)}).")
    return _World.groups[group]


def _launcher_settings():
    """(coordinator address, process count, process id, timeout) from the launcher variables."""
    host, port = os.getenv("MS_SCHED_HOST"), os.getenv("MS_SCHED_PORT")
    workers = os.getenv("MS_WORKER_NUM") or os.getenv("RANK_SIZE")
    rank = os.getenv("MS_NODE_ID") or os.getenv("RANK_ID")
    if not (host and port and workers and rank is not None):
        raise RuntimeError(
            "init(): this process was not started by a distributed launcher, so it does not know its peers "
            "(the environment variables MS_SCHED_HOST, MS_SCHED_PORT, MS_WORKER_NUM and MS_NODE_ID/RANK_ID "
            "are not all set). Start the script with `sporax launch --worker_num=N --local_worker_num=N "
            "script.py` (or `msrun ...`), or remove the init() call to train on one process.")
    try:
        return f"{host}:{int(port)}", int(workers), int(rank), int(os.getenv("MS_TOPO_TIMEOUT", "600"))
    except ValueError as error:
        raise RuntimeError(f"init(): a launcher variable is not a number ({error}); MS_SCHED_PORT, "
                           "MS_WORKER_NUM, MS_NODE_ID/RANK_ID and MS_TOPO_TIMEOUT must be integers.") from None


def _start_distributed_runtime(address, workers, rank, timeout):
    """``jax.distributed.initialize``, first moving the arrays that already exist off the old backend."""
    import jax.extend.backend as jax_backend

    if workers == 1:
        return  # a one-process world needs no coordination service
    saved_key = None
    if jax_private.backends_started():
        saved_key = np.asarray(random_state.global_state._array)
        default_device = jax.config.jax_default_device
        if default_device is not None:
            process_setup.set_default_device(None)
        jax_backend.clear_backends()
    # XLA's collectives between CPU processes (the compiled step is one SPMD program over every
    # process's devices; see sporax.state.world).
    process_setup.use_gloo_cpu_collectives()
    jax.distributed.initialize(coordinator_address=address, num_processes=workers, process_id=rank,
                               initialization_timeout=timeout)
    if saved_key is not None:
        random_state.global_state._array = jax.numpy.asarray(saved_key)


def _local_placement(rank, workers):
    """(local rank, local size): this process's index among the job's processes on the same host."""
    if workers == 1:
        return 0, 1
    client = jax_private.distributed_client()
    client.key_value_set(f"sporax/host/{rank}", socket.gethostname())
    hosts = [client.blocking_key_value_get(f"sporax/host/{other}", 60_000) for other in range(workers)]
    mine = hosts[rank]
    return sum(1 for other in range(rank) if hosts[other] == mine), hosts.count(mine)


_EXCHANGE_TIMEOUT_MS = 300_000


def exchange_strings(key, text, purpose):
    """Publish ``text`` under ``key`` for this process and return every process's text, in rank order.

    Uses JAX's coordination service (the key-value store of ``jax.distributed``). Every process
    must call it with the same ``key``; ``purpose`` names the step in the error raised when a
    peer never does (its Python took another path).
    """
    if _World.size == 1:
        return [text]
    client = jax_private.distributed_client()
    client.key_value_set(f"sporax/{key}/{_World.rank}", text)
    texts = []
    for other in range(_World.size):
        try:
            texts.append(client.blocking_key_value_get(f"sporax/{key}/{other}", _EXCHANGE_TIMEOUT_MS))
        except Exception as error:  # noqa: BLE001 - JAX raises its runtime's own error type
            raise RuntimeError(
                f"Process {_World.rank} waited {_EXCHANGE_TIMEOUT_MS // 1000} s for process {other} while "
                f"{purpose}, and it never arrived: the processes ran different Python (for example a branch on "
                f"get_rank() around a compiled step), or process {other} failed. Make every process call the "
                f"same compiled steps in the same order. ({error})") from None
    return texts


def init(backend_name=None):
    """Join the distributed job started by ``sporax launch``/``msrun`` (``mindspore.communication.init``).

    Args:
        backend_name (str, optional): ``"hccl"``, ``"nccl"`` or ``"mccl"``; by default the one of the
            device target (``"mccl"`` on CPU). JAX's runtime serves all of them.

    Example:
        >>> # run as: sporax launch --worker_num=2 --local_worker_num=2 train.py
        >>> from sporax.parallel import communication
        >>> communication.init()  # doctest: +SKIP
    """
    target = context.get_context("device_target") or "CPU"
    if backend_name is None:
        backend_name = _BACKEND_OF_TARGET.get(target, "mccl")
    if not isinstance(backend_name, str):
        raise TypeError(f"For 'init', the argument 'backend_name' must be a string, but got the type : "
                        f"{type(backend_name)}")
    if backend_name not in _WORLD_OF_BACKEND:
        raise RuntimeError("For 'init', the argument 'backend_name' must be one of 'hccl', 'nccl' and 'mccl', "
                           f"but got 'backend_name' : {backend_name}")
    if GlobalComm.INITED:
        return
    address, workers, rank, timeout = _launcher_settings()
    if not 0 <= rank < workers:
        raise RuntimeError(f"init(): rank {rank} is outside the job of {workers} processes (MS_NODE_ID/RANK_ID "
                           "must be in [0, MS_WORKER_NUM)).")
    _start_distributed_runtime(address, workers, rank, timeout)
    _World.rank, _World.size = rank, workers
    _World.local_rank, _World.local_size = _local_placement(rank, workers)
    _World.groups = {}
    if workers > 1:
        from sporax.state import world

        world.join(workers, rank, exchange_strings)
    GlobalComm.BACKEND = backend_name
    GlobalComm.WORLD_COMM_GROUP = _WORLD_OF_BACKEND[backend_name]
    GlobalComm.INITED = True


def release():
    """Release the communication resources (``mindspore.communication.release``; nothing to do before init)."""
    if not GlobalComm.INITED:
        return

    if _World.size > 1:
        from sporax.state import world

        world.leave()
        jax.distributed.shutdown()
    GlobalComm.INITED = False
    _World.rank, _World.size, _World.local_rank, _World.local_size, _World.groups = 0, 1, 0, 1, {}


def get_rank(group=GlobalComm.WORLD_COMM_GROUP):
    """This process's rank in ``group`` (before ``init``: ``RANK_ID`` or 0, as MindSpore)."""
    _check_group("get_rank", group)
    if not GlobalComm.INITED:
        return int(os.getenv("RANK_ID", "0"))
    members = group_ranks(group)
    if _World.rank not in members:
        raise ValueError(f"get_rank: this process (world rank {_World.rank}) is not a member of group "
                         f"'{group}' (members {list(members)}).")
    return members.index(_World.rank)


def _host_local(function, group, variable, default, attribute):
    """A host-local figure, the same in every (checked, existing) group: before ``init`` read from
    the environment ``variable`` (``default`` without it), as MindSpore does."""
    _check_group(function, group)
    if not GlobalComm.INITED:
        return int(os.getenv(variable, default))
    group_ranks(group)  # refuses a group that does not exist
    return getattr(_World, attribute)


def get_local_rank(group=GlobalComm.WORLD_COMM_GROUP):
    """This process's rank among the job's processes on its host (before ``init``: ``LOCAL_RANK`` or 0)."""
    return _host_local("get_local_rank", group, "LOCAL_RANK", "0", "local_rank")


def get_group_size(group=GlobalComm.WORLD_COMM_GROUP):
    """The number of processes in ``group`` (before ``init``: ``RANK_SIZE`` or 1, as MindSpore)."""
    _check_group("get_group_size", group)
    if not GlobalComm.INITED:
        return int(os.getenv("RANK_SIZE", "1"))
    return len(group_ranks(group))


def get_local_rank_size(group=GlobalComm.WORLD_COMM_GROUP):
    """The number of the job's processes on this host (before ``init``: ``LOCAL_RANK_SIZE`` or 1)."""
    return _host_local("get_local_rank_size", group, "LOCAL_RANK_SIZE", "1", "local_size")


def _created_group_members(function, group):
    """The members of a group made by ``create_group`` (rank translation refuses the world)."""
    _check_group(function, group)
    if not GlobalComm.INITED:
        raise RuntimeError(_NOT_INITED)
    if is_world(group):
        raise ValueError(f"Group can not be the world group (use the rank itself) in '{function}'.")
    return group_ranks(group)


def get_world_rank_from_group_rank(group, group_rank_id):
    """The world rank of member ``group_rank_id`` of ``group``."""
    members = _created_group_members("get_world_rank_from_group_rank", group)
    if not isinstance(group_rank_id, int) or not 0 <= group_rank_id < len(members):
        raise ValueError(f"get_world_rank_from_group_rank: group_rank_id must be an int in [0, {len(members)}) "
                         f"for group '{group}', but got {group_rank_id!r}.")
    return members[group_rank_id]


def get_group_rank_from_world_rank(world_rank_id, group):
    """The rank in ``group`` of world rank ``world_rank_id``."""
    members = _created_group_members("get_group_rank_from_world_rank", group)
    if world_rank_id not in members:
        raise ValueError(f"get_group_rank_from_world_rank: world rank {world_rank_id!r} is not a member of "
                         f"group '{group}' (members {list(members)}).")
    return members.index(world_rank_id)


def get_process_group_ranks(group=GlobalComm.WORLD_COMM_GROUP):
    """The world ranks of ``group``'s members."""
    _check_group("get_process_group_ranks", group)
    if not GlobalComm.INITED:
        raise RuntimeError(_NOT_INITED)
    return list(group_ranks(group))


def create_group(group, rank_ids, options=None):
    """Create communication group ``group`` of the world ranks ``rank_ids``.

    Args:
        group (str): the new group's name.
        rank_ids (list[int]): distinct world ranks, in group-rank order.
        options: backend options (accepted, unused: JAX's runtime needs none).
    """
    _check_group("create_group", group)
    if not GlobalComm.INITED:
        raise RuntimeError(_NOT_INITED)
    if is_world(group):
        raise ValueError(f"create_group: the name '{group}' is reserved for the world group.")
    if group in _World.groups:
        raise ValueError(f"create_group: the communication group '{group}' already exists.")
    if not isinstance(rank_ids, (list, tuple)) or not rank_ids:
        raise TypeError(f"create_group: rank_ids must be a non-empty list of ints, but got {rank_ids!r}.")
    if any(isinstance(r, bool) or not isinstance(r, int) or not 0 <= r < _World.size for r in rank_ids):
        raise ValueError(f"create_group: every rank id must be an int in [0, {_World.size}), but got {rank_ids}.")
    if len(set(rank_ids)) != len(rank_ids):
        raise ValueError(f"create_group: rank_ids must not repeat a rank, but got {rank_ids}.")
    _World.groups[group] = tuple(rank_ids)


def destroy_group(group):
    """Destroy communication group ``group`` (the world cannot be destroyed)."""
    _check_group("destroy_group", group)
    if not GlobalComm.INITED:
        raise RuntimeError(_NOT_INITED)
    if is_world(group):
        raise ValueError("destroy_group: the world group can not be destroyed.")
    if _World.groups.pop(group, None) is None:
        raise ValueError(f"destroy_group: the communication group '{group}' does not exist.")


def get_comm_name(group=GlobalComm.WORLD_COMM_GROUP):
    """The communicator name of ``group`` (sporax: the group name itself)."""
    _check_group("get_comm_name", group)
    if not GlobalComm.INITED:
        raise RuntimeError(_NOT_INITED)
    group_ranks(group)
    return group


__all__ = ["GlobalComm", "HCCL_WORLD_COMM_GROUP", "NCCL_WORLD_COMM_GROUP", "MCCL_WORLD_COMM_GROUP", "init",
           "release", "get_rank", "get_local_rank", "get_group_size", "get_local_rank_size",
           "get_world_rank_from_group_rank", "get_group_rank_from_world_rank", "get_process_group_ranks",
           "create_group", "destroy_group", "get_comm_name"]


# MindSpore's private ``communication._comm_helper`` helpers that libraries call (served by this module).
def _is_initialized():
    """Whether ``init`` has run in this process (False in a single process that never called it)."""
    return bool(GlobalComm.INITED)


def _get_group_map():
    """The created communication groups: ``{group name: [world ranks]}`` (``{}`` before any ``create_group``)."""
    return {group: list(ranks) for group, ranks in _World.groups.items()}


def _remove_group_info(group_name):
    """Forget the group ``group_name`` (nothing happens for an unknown name)."""
    _World.groups.pop(group_name, None)
