"""``mindspore.communication.comm_func``: collective communication as functions of Tensors.

``all_reduce``, ``all_gather_into_tensor`` and ``reduce_scatter_tensor`` return
``(Tensor, handle)`` as MindSpore 2.10 does; the handle is ``None`` unless ``async_op=True``, when
it is a ``CommHandle`` whose ``wait()`` blocks until the result is ready (JAX dispatches
asynchronously, so the work does overlap). ``send``/``recv`` take world ranks; both sides must
call, as in MindSpore.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.parallel import comm_func
    >>> out, handle = comm_func.all_reduce(Tensor(np.ones(2, np.float32)))  # a world of one
    >>> out.asnumpy().tolist(), handle
    ([1.0, 1.0], None)
"""
import jax.numpy as jnp

from sporax.core.tensor import Tensor
from sporax.ops._dispatch import array_of, wrap
from sporax.parallel import collectives, communication
from sporax.parallel.collectives import ReduceOp
from sporax.parallel.communication import GlobalComm


class CommHandle:
    """The handle of an asynchronous collective: ``wait()`` blocks until its result is ready."""

    def __init__(self, result=None):
        self._result = result

    def wait(self):
        if self._result is not None:
            self._result._value.block_until_ready()


def _tensor(function, tensor):
    if not isinstance(tensor, Tensor):
        raise TypeError(f"For {function}, the input tensor must be tensor, but got {type(tensor)}.")
    return array_of(function, "tensor", tensor)


def _with_handle(result, async_op):
    result = wrap(result)
    return result, (CommHandle(result) if async_op else None)


def all_reduce(tensor, op=ReduceOp.SUM, group=GlobalComm.WORLD_COMM_GROUP, async_op=False):
    """Reduce ``tensor`` over ``group``; returns ``(Tensor, handle)``."""
    return _with_handle(collectives.all_reduce(_tensor("all_reduce", tensor), op, group), async_op)


def all_gather_into_tensor(tensor, group=GlobalComm.WORLD_COMM_GROUP, async_op=False):
    """Concatenate every member's ``tensor`` along axis 0; returns ``(Tensor, handle)``."""
    return _with_handle(collectives.all_gather(_tensor("all_gather_into_tensor", tensor), group), async_op)


def reduce_scatter_tensor(tensor, op=ReduceOp.SUM, group=GlobalComm.WORLD_COMM_GROUP, async_op=False):
    """Reduce over ``group`` and keep this member's block of axis 0; returns ``(Tensor, handle)``."""
    value = _tensor("reduce_scatter_tensor", tensor)
    return _with_handle(collectives.reduce_scatter(value, op, group), async_op)


def broadcast(tensor, src=0, group=GlobalComm.WORLD_COMM_GROUP):
    """Every member receives the ``tensor`` of world rank ``src``."""
    value = _tensor("broadcast", tensor)
    return wrap(collectives.broadcast(value, _group_rank("broadcast", src, group), group))


def reduce(tensor, dst, op=ReduceOp.SUM, group=GlobalComm.WORLD_COMM_GROUP):
    """Reduce ``tensor`` over ``group``; world rank ``dst`` gets the result, the others a meaningless ``[0]``."""
    value = _tensor("reduce", tensor)
    target = _group_rank("reduce", dst, group)
    reduced = collectives.all_reduce(value, op, group)
    return wrap(reduced if communication.get_rank(group) == target else _placeholder(value))


def gather_into_tensor(tensor, dst=0, group=GlobalComm.WORLD_COMM_GROUP):
    """World rank ``dst`` gets every member's ``tensor`` concatenated along axis 0; the others ``[0]``."""
    value = _tensor("gather_into_tensor", tensor)
    target = _group_rank("gather_into_tensor", dst, group)
    gathered = collectives.all_gather(value, group)
    return wrap(gathered if communication.get_rank(group) == target else _placeholder(value))


def scatter_tensor(tensor, src=0, group=GlobalComm.WORLD_COMM_GROUP):
    """World rank ``src``'s ``tensor`` split along axis 0: each member receives its block, in rank order."""
    value = _tensor("scatter_tensor", tensor)
    source = _group_rank("scatter_tensor", src, group)
    size = len(collectives.members_of("scatter_tensor", group))
    if value.ndim == 0 or value.shape[0] % size:
        raise ValueError(f"For scatter_tensor, the first dimension of the input ({value.shape}) must be divisible "
                         f"by the group size {size}.")
    chunk = value.shape[0] // size
    rank = communication.get_rank(group)
    return wrap(collectives.broadcast(value, source, group)[rank * chunk:(rank + 1) * chunk])


def _placeholder(value):
    """What MindSpore gives the ranks that do not receive a rooted collective's result."""
    return jnp.zeros((1,), value.dtype)


def barrier(group=GlobalComm.WORLD_COMM_GROUP):
    """Block until every member of ``group`` reached the barrier."""
    if not isinstance(group, str):
        raise TypeError(f"group must be type of string, but got {type(group)}")
    collectives.barrier(group)


def _group_rank(function, world_rank, group):
    if isinstance(world_rank, bool) or not isinstance(world_rank, int):
        raise TypeError(f"For {function}, the rank must be int, but got {type(world_rank)}.")
    if communication.is_world(group):
        return world_rank
    return communication.get_group_rank_from_world_rank(world_rank, group)


def send(tensor, dst=0, group=GlobalComm.WORLD_COMM_GROUP, tag=0):
    """Send ``tensor`` to world rank ``dst`` (which calls ``recv``)."""
    value = _tensor("send", tensor)
    flush_queued()  # the queued isend/irecv messages of this process go first, in call order
    target = _group_rank("send", dst, group)
    collectives.exchange(value, communication.get_rank(group), target, group).block_until_ready()


def recv(tensor, src=0, group=GlobalComm.WORLD_COMM_GROUP, tag=0):
    """Receive from world rank ``src`` a tensor of ``tensor``'s shape and dtype (``src`` calls ``send``)."""
    value = _tensor("recv", tensor)
    flush_queued()
    source = _group_rank("recv", src, group)
    return wrap(collectives.exchange(value, source, communication.get_rank(group), group))


from sporax.parallel.comm_p2p import (  # noqa: E402
    P2POp, all_to_all_single_with_output_shape, all_to_all_v_c, all_to_all_with_output_shape, batch_isend_irecv,
    flush_queued, irecv, isend)

__all__ = ["CommHandle", "ReduceOp", "all_reduce", "all_gather_into_tensor", "reduce_scatter_tensor", "broadcast",
           "reduce", "gather_into_tensor", "scatter_tensor", "barrier", "send", "recv", "isend", "irecv", "P2POp",
           "batch_isend_irecv", "all_to_all_with_output_shape", "all_to_all_single_with_output_shape",
           "all_to_all_v_c"]
