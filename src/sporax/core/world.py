"""This process's place in a distributed job: ``GlobalComm`` (MindSpore's world information) and ``World``.

``sporax.parallel.communication`` fills both in ``init()`` and serves ``GlobalComm`` as
``mindspore.communication.GlobalComm``; the layers below it (``core.runtime``, ``nn``'s
``SyncBatchNorm``) read them here without importing the communication layer.

Example:
    >>> from sporax.core.world import GlobalComm, World
    >>> GlobalComm.INITED, World.size  # before communication.init()
    (False, 1)
"""
HCCL_WORLD_COMM_GROUP = "hccl_world_group"


class GlobalComm:
    """World communication information: ``BACKEND``, ``WORLD_COMM_GROUP``, ``INITED``, ``CHECK_ENVS``."""

    BACKEND = "hccl"
    WORLD_COMM_GROUP = HCCL_WORLD_COMM_GROUP
    INITED = False
    CHECK_ENVS = True


class World:
    """This process's place in the job once ``init()`` ran."""

    rank = 0
    size = 1
    local_rank = 0
    local_size = 1
    groups = {}  # group name -> tuple of world ranks (the world is not stored here)


def world_size():
    """The number of processes in the job (1 before ``communication.init()``)."""
    return World.size if GlobalComm.INITED else 1
