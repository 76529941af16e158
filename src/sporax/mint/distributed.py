"""``mindspore.mint.distributed``: the PyTorch-style process-group queries, on sporax's communication state.

MindSpore 2.10's ``mint.distributed`` spells ``communication``'s queries the PyTorch way (``group=None``
is the world group, ``get_world_size`` is ``get_group_size``). Libraries call them at import or before
any ``init`` to decide whether they run distributed; before ``init`` they answer for one process (or
what ``RANK_ID``/``RANK_SIZE`` say, as MindSpore does). The groups, collectives, messages and object
functions are the process-group API's (``ops.communication``, the very same functions); ``gather`` and
``scatter`` are their list forms (``process_group_lists``).

Example:
    >>> from sporax.mint import distributed
    >>> distributed.is_available(), distributed.is_initialized(), distributed.get_world_size()
    (True, False, 1)
"""
from sporax.parallel import communication
from sporax.parallel.communication import GlobalComm
from sporax.parallel.process_group import (  # noqa: F401 (served here too)
    P2POp, all_gather, all_gather_into_tensor, all_gather_into_tensor_uneven, all_gather_object, all_reduce,
    all_to_all, all_to_all_single, barrier, batch_isend_irecv, broadcast, broadcast_object_list,
    destroy_process_group, gather_object, get_backend, get_global_rank, get_group_rank, get_process_group_ranks,
    init_process_group, irecv, isend, new_group, recv, recv_object_list, reduce, reduce_scatter,
    reduce_scatter_tensor, reduce_scatter_tensor_uneven, scatter_object_list, send, send_object_list)
from sporax.parallel.process_group_lists import gather, scatter  # noqa: F401 (served here)


def _group(function, group):
    """The communication group a query names: None is the world group, otherwise a group's name."""
    if group is None:
        return GlobalComm.WORLD_COMM_GROUP
    if not isinstance(group, str):
        raise TypeError(f"For '{function}', the argument 'group' must be type of string, but got 'group' type : "
                        f"{type(group)}.")
    return group


def is_available():
    """Whether the distributed package can be used in this process: always True, as in MindSpore."""
    return True


def is_initialized():
    """Whether ``init_process_group`` (``mindspore.communication.init``) has run in this process."""
    return bool(GlobalComm.INITED)


def get_rank(group=None):
    """This process's rank in ``group`` (None: the world group); 0 before ``init``, as MindSpore."""
    return communication.get_rank(_group("get_rank", group))


def get_world_size(group=None):
    """The number of processes in ``group`` (None: the world group); 1 before ``init``, as MindSpore."""
    return communication.get_group_size(_group("get_world_size", group))
