"""Collective communication Primitives (``mindspore.ops.AllReduce`` & co., ``ops.operations.comm_ops``).

Thin adapters onto ``sporax.parallel.collectives``: they run in PyNative and GRAPH mode and are
differentiable with MindSpore's gradients. In a group of one process (the world of a script that
never called ``init``) they return their input.

Example:
    >>> import numpy as np
    >>> from sporax import ops, Tensor
    >>> ops.AllReduce()(Tensor(np.ones(2, np.float32))).asnumpy().tolist()
    [1.0, 1.0]
"""
from sporax.ops._dispatch import array_of, wrap
from sporax.ops.primitive import Primitive
from sporax.parallel import collectives
from sporax.parallel.collectives import ReduceOp
from sporax.parallel.communication import GlobalComm


def _check_group(name, group):
    if not isinstance(group, str):
        raise TypeError(f"For '{name}', the argument 'group' must be type of string, but got {type(group)}.")
    return group


class AllReduce(Primitive):
    """Reduce a tensor over the processes of ``group``; every process receives the result.

    Args:
        op (str): ``ReduceOp.SUM`` (default), ``MAX``, ``MIN`` or ``PROD``.
        group (str): the communication group. Default: the world.

    Inputs:
        - **x** (Tensor).

    Outputs:
        Tensor of the shape of ``x``.
    """

    def __init__(self, op=ReduceOp.SUM, group=GlobalComm.WORLD_COMM_GROUP):
        super().__init__("AllReduce")
        self.op = collectives.check_reduce_op("AllReduce", op)
        self.group = _check_group("AllReduce", group)
        self.add_prim_attr("op", self.op).add_prim_attr("group", group).add_prim_attr("fusion", 0)

    def __call__(self, x):
        return wrap(collectives.all_reduce(array_of("AllReduce", "x", x), self.op, self.group))


class AllGather(Primitive):
    """Concatenate the tensors of every process of ``group`` along axis 0, in rank order.

    Args:
        group (str): the communication group. Default: the world.

    Inputs:
        - **x** (Tensor) of shape ``(N, ...)``.

    Outputs:
        Tensor of shape ``(N * group_size, ...)``.
    """

    def __init__(self, group=GlobalComm.WORLD_COMM_GROUP):
        super().__init__("AllGather")
        self.group = _check_group("AllGather", group)
        self.add_prim_attr("group", group).add_prim_attr("fusion", 0).add_prim_attr("mean_flag", False)

    def __call__(self, x):
        return wrap(collectives.all_gather(array_of("AllGather", "x", x), self.group))


class ReduceScatter(Primitive):
    """Reduce over ``group``, then give each process its block of axis 0.

    Args:
        op (str): ``ReduceOp.SUM`` (default), ``MAX``, ``MIN`` or ``PROD``.
        group (str): the communication group. Default: the world.

    Inputs:
        - **x** (Tensor) of shape ``(N, ...)``, ``N`` divisible by the group size.

    Outputs:
        Tensor of shape ``(N / group_size, ...)``.
    """

    def __init__(self, op=ReduceOp.SUM, group=GlobalComm.WORLD_COMM_GROUP):
        super().__init__("ReduceScatter")
        self.op = collectives.check_reduce_op("ReduceScatter", op)
        self.group = _check_group("ReduceScatter", group)
        self.add_prim_attr("op", self.op).add_prim_attr("group", group).add_prim_attr("fusion", 0)

    def __call__(self, x):
        return wrap(collectives.reduce_scatter(array_of("ReduceScatter", "x", x), self.op, self.group))


class Broadcast(Primitive):
    """Send the tensors of group rank ``root_rank`` to every process of ``group``.

    Args:
        root_rank (int): the sending rank (in the group).
        group (str): the communication group. Default: the world.

    Inputs:
        - **input_x** (tuple[Tensor]).

    Outputs:
        tuple[Tensor]: the root's tensors.
    """

    def __init__(self, root_rank, group=GlobalComm.WORLD_COMM_GROUP):
        super().__init__("Broadcast")
        if isinstance(root_rank, bool) or not isinstance(root_rank, int):
            raise TypeError(f"For 'Broadcast', the argument 'root_rank' must be int, but got {type(root_rank)}.")
        self.root_rank = root_rank
        self.group = _check_group("Broadcast", group)
        self.add_prim_attr("root_rank", root_rank).add_prim_attr("group", group)

    def __call__(self, input_x):
        if not isinstance(input_x, (tuple, list)):
            raise TypeError(f"For 'Broadcast', the input must be a tuple of Tensors, but got {type(input_x)}.")
        return tuple(wrap(collectives.broadcast(array_of("Broadcast", "input_x", x), self.root_rank, self.group))
                     for x in input_x)


class AlltoAll(Primitive):
    """Split ``split_dim`` into ``split_count`` blocks, send block i to rank i, concatenate along ``concat_dim``.

    Args:
        split_count (int): the number of blocks (the group size).
        split_dim (int): the axis to split.
        concat_dim (int): the axis the received blocks are concatenated along.
        group (str): the communication group. Default: the world.

    Inputs:
        - **x** (Tensor).

    Outputs:
        Tensor: ``split_dim`` divided and ``concat_dim`` multiplied by ``split_count``.
    """

    def __init__(self, split_count, split_dim, concat_dim, group=GlobalComm.WORLD_COMM_GROUP):
        super().__init__("AlltoAll")
        for name, value in (("split_count", split_count), ("split_dim", split_dim), ("concat_dim", concat_dim)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"For 'AlltoAll', the argument '{name}' must be int, but got {type(value)}.")
        self.split_count, self.split_dim, self.concat_dim = split_count, split_dim, concat_dim
        self.group = _check_group("AlltoAll", group)
        self.add_prim_attr("split_count", split_count).add_prim_attr("split_dim", split_dim)
        self.add_prim_attr("concat_dim", concat_dim).add_prim_attr("group", group)

    def __call__(self, x):
        return wrap(collectives.all_to_all(array_of("AlltoAll", "x", x), self.split_count, self.split_dim,
                                           self.concat_dim, self.group))


__all__ = ["ReduceOp", "AllReduce", "AllGather", "ReduceScatter", "Broadcast", "AlltoAll"]
