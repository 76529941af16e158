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
import numpy as np

from sporax.core import dtype as mstype
from sporax.ops._dispatch import array_of, wrap
from sporax.ops.primitive import Primitive
from sporax.parallel import collectives, communication, neighbor_exchange, point_to_point
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


class NeighborExchange(Primitive):
    """Send tensors to some ranks of ``group`` and receive tensors from others, in one operation.

    Every process names only its own messages; the k-th tensor this process sends to a rank is the
    k-th tensor that rank receives from it. Differentiable: the gradient is the reverse exchange.
    MindSpore runs it only in GRAPH mode (its PyNative call raises NotImplementedError); sporax
    runs it in both modes.

    Args:
        send_rank_ids (list[int]): the group ranks the inputs go to, one per input.
        recv_rank_ids (list[int]): the group ranks the outputs come from, one per output.
        recv_shapes (tuple[list[int]]): the shape of each output.
        send_shapes (tuple[list[int]]): the shape of each input.
        recv_type (mindspore.dtype): the dtype of the outputs.
        group (str): the communication group. Default: the world.

    Inputs:
        - **input_x** (tuple[Tensor]) - of shapes ``send_shapes`` (called without inputs when
          ``send_rank_ids`` is empty).

    Outputs:
        tuple[Tensor] of shapes ``recv_shapes`` and dtype ``recv_type`` (``None`` when
        ``recv_rank_ids`` is empty).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, float32, ops
        >>> exchange = ops.NeighborExchange([0], [0], ([2],), ([2],), float32)  # a world of one: to itself
        >>> exchange((Tensor(np.ones(2, np.float32)),))[0].asnumpy().tolist()
        [1.0, 1.0]
    """

    def __init__(self, send_rank_ids, recv_rank_ids, recv_shapes, send_shapes, recv_type,
                 group=GlobalComm.WORLD_COMM_GROUP):
        super().__init__("NeighborExchange")
        self.send_rank_ids, self.recv_rank_ids = send_rank_ids, recv_rank_ids
        self.recv_shapes, self.send_shapes, self.recv_type = recv_shapes, send_shapes, recv_type
        self.group = group
        for name in ("send_rank_ids", "recv_rank_ids", "recv_shapes", "send_shapes", "recv_type", "group"):
            self.add_prim_attr(name, getattr(self, name))
        self.add_prim_attr("no_eliminate", True)

    def _check(self):
        """MindSpore's checks of the attributes (its shape inference runs them at the first call)."""
        for shapes_name, ranks_name in (("recv_shapes", "recv_rank_ids"), ("send_shapes", "send_rank_ids")):
            shapes, ranks = getattr(self, shapes_name), getattr(self, ranks_name)
            if not isinstance(shapes, tuple) or not all(
                    isinstance(shape, (list, tuple)) and all(_is_int(d) for d in shape) for shape in shapes):
                raise TypeError(f"For 'NeighborExchange', attr '{shapes_name}' must be a tuple(list, list, ...).")
            if not isinstance(ranks, list) or not all(_is_int(rank) for rank in ranks):
                raise TypeError(f"For 'NeighborExchange', attr '{ranks_name}' must be a list[int, int, ...].")
            if len(shapes) != len(ranks):
                raise ValueError(f"For 'NeighborExchange', attr '{shapes_name}' size must be equal to attr  "
                                 f"'{ranks_name}' size, but got attr '{shapes_name}' size: {len(shapes)}, "
                                 f"attr '{ranks_name}' size: {len(ranks)}")
        if not mstype.is_dtype(self.recv_type):
            raise TypeError(f"For 'NeighborExchange', attr 'recv_type' must be a mindspore data type, but got: "
                            f"{self.recv_type!r}.")
        if not isinstance(self.group, str):
            raise TypeError(f"For 'NeighborExchange', attr 'group' must be a str, but got: {self.group!r}.")

    def __call__(self, *inputs):
        self._check()
        if not self.send_rank_ids:
            if inputs:
                raise ValueError(f"For 'NeighborExchange', the 'input_numbers' must be equal to 0 when "
                                 f"'send_rank_ids' is empty, but got {len(inputs)}.")
            values = ()
        else:
            if len(inputs) != 1:
                raise ValueError(f"For 'NeighborExchange', the 'input_numbers' must be equal to 1, but got "
                                 f"{len(inputs)}.")
            if not isinstance(inputs[0], (tuple, list)):
                raise TypeError(f"For 'NeighborExchange', the input must be a tuple of Tensors, "
                                f"but got {type(inputs[0])}.")
            if len(inputs[0]) != len(self.send_shapes):
                raise RuntimeError(f"For 'NeighborExchange', input tuple size must be equal to attr 'send_shapes' "
                                   f"size, but got input tuple size: {len(inputs[0])}, attr 'send_shapes' size: "
                                   f"{len(self.send_shapes)}.")
            values = tuple(array_of("NeighborExchange", "input_x", value) for value in inputs[0])
        received = neighbor_exchange.neighbor_exchange(
            values, self.send_rank_ids, self.recv_rank_ids, self.recv_shapes, self.send_shapes,
            mstype.dtype_to_nptype(self.recv_type), self.group)
        return tuple(wrap(value) for value in received) if received else None


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


class NeighborExchangeV2(Primitive):
    """Halo exchange of an NCHW tensor with up to 8 neighbouring ranks of ``group``.

    Directions are numbered ``0`` top, ``1`` top-right, ``2`` right, ``3`` bottom-right, ``4``
    bottom, ``5`` bottom-left, ``6`` left, ``7`` top-left. The ``send_lens[side]`` rows/columns at
    each edge that has a neighbour go to it; the blocks received grow the output on their sides.
    Differentiable: the gradient is the reverse exchange. Runs in PyNative and GRAPH mode (MindSpore:
    GRAPH mode only).

    Args:
        send_rank_ids (list[int]): 8 group ranks, ``-1`` where nothing is sent.
        send_lens (list[int]): 4 widths ``[top, bottom, left, right]`` sent.
        recv_rank_ids (list[int]): 8 group ranks, ``-1`` where nothing is received.
        recv_lens (list[int]): 4 widths ``[top, bottom, left, right]`` received.
        data_format (str): only ``"NCHW"``.
        group (str): the communication group. Default: the world.

    Inputs:
        - **input_x** (Tensor) - of shape ``(N, C, H, W)``.

    Outputs:
        Tensor of shape ``(N, C, H + top + bottom, W + left + right)`` (the received sides only).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> none = [-1] * 8
        >>> ops.NeighborExchangeV2(none, [0, 0, 0, 0], none, [0, 0, 0, 0], "NCHW")(
        ...     Tensor(np.ones((1, 1, 2, 2), np.float32))).shape  # no neighbours: the input
        (1, 1, 2, 2)
    """

    def __init__(self, send_rank_ids, send_lens, recv_rank_ids, recv_lens, data_format,
                 group=GlobalComm.WORLD_COMM_GROUP):
        super().__init__("NeighborExchangeV2")
        self.send_rank_ids, self.recv_rank_ids = send_rank_ids, recv_rank_ids
        self.send_lens, self.recv_lens, self.format = send_lens, recv_lens, data_format
        self.data_format = data_format
        self.group = group
        for name in ("send_rank_ids", "send_lens", "recv_rank_ids", "recv_lens", "data_format", "group"):
            self.add_prim_attr(name, getattr(self, name))
        self.add_prim_attr("no_eliminate", True)
        self.rank_size = communication.get_group_size(group)
        for name, ranks in (("send_rank_ids", send_rank_ids), ("recv_rank_ids", recv_rank_ids)):
            for rank in ranks:
                if rank == -1:
                    continue
                if not _is_int(rank):
                    raise TypeError(f"The 'rank_id in {name}' must be 'int',  but got '{type(rank).__name__}'.")
                if not 0 <= rank < self.rank_size:
                    raise ValueError(f"The 'rank_id in {name}' must be in range of [0, {self.rank_size}), "
                                     f"but got {rank} with type 'int'.")

    def __call__(self, input_x):
        neighbor_exchange.check_v2_attributes(self.send_rank_ids, self.send_lens, self.recv_rank_ids,
                                              self.recv_lens, self.format)
        x = array_of("NeighborExchangeV2", "input_x", input_x)
        return wrap(neighbor_exchange.neighbor_exchange_v2(x, self.send_rank_ids, self.send_lens,
                                                           self.recv_rank_ids, self.recv_lens, self.group))


__all__ = ["ReduceOp", "AllReduce", "AllGather", "ReduceScatter", "Broadcast", "AlltoAll", "NeighborExchange",
           "NeighborExchangeV2"]


_RECEIVE_DTYPES = ("float16", "float32", "float64", "bfloat16", "int8", "int16", "int32", "int64", "uint8",
                   "uint16", "uint32", "uint64")


def _check_rank(name, label, rank):
    if not _is_int(rank):
        raise TypeError(f"For '{name}', the argument '{label}' must be an int, but got {type(rank).__name__}.")


class Send(Primitive):
    """Send a tensor to rank ``dest_rank`` of ``group``; the ``Receive`` there with the same ``sr_tag`` gets it.

    Runs in PyNative and GRAPH mode; in a compiled program of a 2-process job the message is an
    XLA collective-permute inside the program. As MindSpore's, the gradient of ``input_x`` is the
    gradient of the matching ``Receive``'s output, sent back by the receiver (the output's own
    gradient is ignored), under ``grad``/``value_and_grad`` whether or not the output reaches what is
    differentiated (it may be used only through ``ops.Depend``). ``group_back`` is recorded only
    (the gradient travels in ``group``).

    Args:
        sr_tag (int): the message's tag; the matching ``Receive`` names the same tag.
        dest_rank (int): the destination's rank in ``group``.
        group (str): the communication group. Default: the world.
        group_back (str): the group of the gradient's message. Default: the world.

    Inputs:
        - **input_x** (Tensor) - the tensor to send.

    Outputs:
        Tensor: ``input_x`` (use it with ``ops.Depend`` to order the send).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> send = ops.Send(sr_tag=0, dest_rank=1)  # in a job: send(x) on rank 0, Receive(0, 0, ...)() on rank 1
        >>> send.attrs["rank"], send.attrs["sr_tag"]
        (1, 0)
    """

    def __init__(self, sr_tag, dest_rank, group=GlobalComm.WORLD_COMM_GROUP, group_back=GlobalComm.WORLD_COMM_GROUP):
        super().__init__("Send")
        _check_rank("Send", "sr_tag", sr_tag)
        _check_rank("Send", "dest_rank", dest_rank)
        self.sr_tag, self.rank = sr_tag, dest_rank
        self.group, self.group_back = _check_group("Send", group), _check_group("Send", group_back)
        for name, value in (("sr_tag", sr_tag), ("rank", dest_rank), ("group", group), ("group_back", group_back)):
            self.add_prim_attr(name, value)
        self.add_prim_attr("no_eliminate", True)

    def __call__(self, input_x):
        value = array_of("Send", "input_x", input_x)
        return wrap(point_to_point.send(value, self.rank, self.sr_tag, self.group))


class Receive(Primitive):
    """Receive a tensor of ``shape`` and ``dtype`` from rank ``src_rank`` of ``group`` (its ``Send`` with ``sr_tag``).

    Args:
        sr_tag (int): the message's tag, as the sender's ``Send``.
        src_rank (int): the sender's rank in ``group``.
        shape (list[int]): the shape of the received tensor.
        dtype (mindspore.dtype): its dtype (float16/32/64, bfloat16, int8-64, uint8-64).
        group (str): the communication group. Default: the world.
        group_back (str): the group of the gradient's message. Default: the world.

    Inputs:
        None.

    Outputs:
        Tensor of ``shape`` and ``dtype``: the sender's tensor. Its gradient is sent back to the sender
        (see ``Send``).

    Example:
        >>> from sporax import float32, ops
        >>> ops.Receive(sr_tag=0, src_rank=0, shape=[2, 8], dtype=float32).shape
        [2, 8]
    """

    def __init__(self, sr_tag, src_rank, shape, dtype, group=GlobalComm.WORLD_COMM_GROUP,
                 group_back=GlobalComm.WORLD_COMM_GROUP):
        super().__init__("Receive")
        _check_rank("Receive", "sr_tag", sr_tag)
        _check_rank("Receive", "src_rank", src_rank)
        if not isinstance(shape, (list, tuple)) or not all(_is_int(d) and d >= 0 for d in shape):
            raise TypeError(f"For 'Receive', the argument 'shape' must be a list of non-negative ints, but got "
                            f"{shape!r}.")
        if not mstype.is_dtype(dtype) or np.dtype(mstype.dtype_to_nptype(dtype)).name not in _RECEIVE_DTYPES:
            raise TypeError(f"For 'Receive', the argument 'dtype' must be one of {', '.join(_RECEIVE_DTYPES)}, but "
                            f"got {dtype!r}.")
        self.sr_tag, self.rank, self.shape, self.dtype = sr_tag, src_rank, list(shape), dtype
        self.group, self.group_back = _check_group("Receive", group), _check_group("Receive", group_back)
        for name in ("sr_tag", "rank", "shape", "dtype", "group", "group_back"):
            self.add_prim_attr(name, getattr(self, name))
        self.add_prim_attr("no_eliminate", True)

    def __call__(self, *inputs):
        if inputs:
            raise ValueError(f"For 'Receive', no input is taken (the tensor comes from rank {self.rank}), but got "
                             f"{len(inputs)} inputs.")
        return wrap(point_to_point.receive(self.rank, self.sr_tag, tuple(self.shape),
                                           mstype.dtype_to_nptype(self.dtype), self.group))
