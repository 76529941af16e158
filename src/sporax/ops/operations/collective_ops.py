"""The uneven and rooted collective Primitives: ``AllGatherV``, ``ReduceScatterV``, ``AlltoAllV``, ``AlltoAllVC``,
``Reduce``, ``CollectiveGather``, ``CollectiveScatter``, ``Barrier`` and ``BatchISendIRecv``.

Thin adapters onto ``sporax.parallel`` (the engine of ``ops.AllReduce`` & co. and of the
communication functions), run eagerly: in a script that never called ``init`` the world is this one
process, under ``sporax launch``/``msrun`` they run across the processes. As in MindSpore, a rooted
collective gives the processes that do not receive the result a meaningless ``[0]`` of shape (1,),
and an empty result is a shape ``()`` tensor.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> ops.AllGatherV()(Tensor(np.array([1.0, 2.0], np.float32)), [2]).asnumpy().tolist()
    [1.0, 2.0]
"""
import jax.numpy as jnp
import numpy as np

from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor
from sporax.ops._dispatch import array_of, wrap
from sporax.ops.primitive import Primitive
from sporax.parallel import collectives, comm_p2p, communication
from sporax.parallel.collectives import ReduceOp
from sporax.parallel.communication import GlobalComm
from sporax.parallel.process_group import gather_uneven, reduce_scatter_uneven


def _group(name, group):
    if not isinstance(group, str):
        raise TypeError(f"For '{name}', the argument 'group' must be type of string, but got {type(group)}.")
    return group


def _rank_of_group(members):
    return members.index(communication._World.rank) if GlobalComm.INITED else 0


def _counts(name, argument, values, count=None):
    """A list of ints from a tuple, list or 1-D Tensor; ``count`` entries when given."""
    if isinstance(values, Tensor):
        values = np.asarray(values._value).reshape(-1).tolist()
    if not isinstance(values, (tuple, list)) or not all(isinstance(v, (int, np.integer)) and v >= 0 for v in values):
        raise TypeError(f"For '{name}', '{argument}' must be a tuple, list or Tensor of non-negative ints, but got "
                        f"{values!r}.")
    values = [int(v) for v in values]
    if count is not None and len(values) != count:
        raise ValueError(f"For '{name}', '{argument}' needs one entry per member of the group ({count}), but got "
                         f"{len(values)}.")
    return values


def _flat(name, x):
    value = array_of(name, "input_x", x)
    if value.ndim != 1:
        raise ValueError(f"For '{name}', 'input_x' must be flattened to 1-D first, but got shape {value.shape}.")
    return value


def _maybe_empty(value):
    return wrap(value if value.size else jnp.zeros((), value.dtype))


def _placeholder(value):
    return wrap(jnp.zeros((1,), value.dtype))


class AllGatherV(Primitive):
    """Gather 1-D tensors of different lengths from every process of ``group``, concatenated in rank order.

    Args:
        group (str): the communication group. Default: the world.

    Inputs:
        - **input_x** (Tensor) - 1-D.
        - **output_split_sizes** (Union[tuple[int], list[int], Tensor]) - the length each rank contributes.

    Outputs:
        1-D Tensor of ``sum(output_split_sizes)`` elements (shape ``()`` when that is 0).
    """

    def __init__(self, group=GlobalComm.WORLD_COMM_GROUP):
        super().__init__("AllGatherV")
        self.group = _group("AllGatherV", group)
        self.add_prim_attr("group", group)

    def __call__(self, input_x, output_split_sizes):
        value = _flat("AllGatherV", input_x)
        members = collectives.members_of("AllGatherV", self.group)
        sizes = _counts("AllGatherV", "output_split_sizes", output_split_sizes, len(members))
        if sizes[_rank_of_group(members)] != value.shape[0]:
            raise ValueError(f"For 'AllGatherV', this rank's input has {value.shape[0]} elements but "
                             f"output_split_sizes gives it {sizes[_rank_of_group(members)]}.")
        return _maybe_empty(gather_uneven(value, sizes, self.group))


class ReduceScatterV(Primitive):
    """Reduce a 1-D tensor over ``group`` and give rank i its ``input_split_sizes[i]`` elements of the result.

    Args:
        op (str): ``ReduceOp.SUM`` (default), ``MAX`` or ``MIN``.
        group (str): the communication group. Default: the world.

    Inputs:
        - **input_x** (Tensor) - 1-D, the same length on every rank.
        - **input_split_sizes** (Union[tuple[int], list[int], Tensor]) - the elements each rank receives.

    Outputs:
        1-D Tensor (shape ``()`` when this rank receives nothing).
    """

    def __init__(self, op=ReduceOp.SUM, group=GlobalComm.WORLD_COMM_GROUP):
        super().__init__("ReduceScatterV")
        checked = collectives.check_reduce_op("ReduceScatterV", op)
        self.add_prim_attr("op", op).add_prim_attr("group", _group("ReduceScatterV", group))
        self.op = checked  # after add_prim_attr, which sets the attribute to the value as given

    def __call__(self, input_x, input_split_sizes):
        value = _flat("ReduceScatterV", input_x)
        members = collectives.members_of("ReduceScatterV", self.group)
        sizes = _counts("ReduceScatterV", "input_split_sizes", input_split_sizes, len(members))
        if sum(sizes) != value.shape[0]:
            raise ValueError(f"For 'ReduceScatterV', input_split_sizes must add up to the input's "
                             f"{value.shape[0]} elements, but got {sizes}.")
        return _maybe_empty(reduce_scatter_uneven(value, sizes, self.op, self.group))


def _exchange(name, value, send, receive, group):
    """Send ``send[i]`` elements to group rank i and receive ``receive[i]`` from it (1-D, rank order)."""
    received, _ = comm_p2p.all_to_all_single_with_output_shape((sum(receive),), wrap(value), receive, send, group)
    return _maybe_empty(received._value.reshape(-1))


class AlltoAllV(Primitive):
    """Each rank sends ``send_numel_list[i] * block_size`` elements of its 1-D input to rank i, in order, and
    receives ``recv_numel_list[i] * block_size`` elements from rank i.

    Args:
        group (str): the communication group. Default: the world.
        block_size (int): the unit of the counts, in elements. Default: 1.

    Inputs:
        - **input_x** (Tensor) - 1-D.
        - **send_numel_list** (Union[tuple[int], list[int], Tensor]) - per rank, the blocks sent.
        - **recv_numel_list** (Union[tuple[int], list[int], Tensor]) - per rank, the blocks received.

    Outputs:
        1-D Tensor: the received elements in rank order (shape ``()`` when none).
    """

    def __init__(self, group=GlobalComm.WORLD_COMM_GROUP, block_size=1):
        super().__init__("AlltoAllV")
        self.group = _group("AlltoAllV", group)
        if isinstance(block_size, bool) or not isinstance(block_size, int) or block_size < 1:
            raise ValueError(f"For 'AlltoAllV', block_size must be a positive int, but got {block_size!r}.")
        self.block_size = block_size
        self.add_prim_attr("group", group).add_prim_attr("block_size", block_size)

    def __call__(self, input_x, send_numel_list, recv_numel_list):
        value = _flat("AlltoAllV", input_x)
        count = len(collectives.members_of("AlltoAllV", self.group))
        send = [n * self.block_size for n in _counts("AlltoAllV", "send_numel_list", send_numel_list, count)]
        receive = [n * self.block_size for n in _counts("AlltoAllV", "recv_numel_list", recv_numel_list, count)]
        if sum(send) != value.shape[0]:
            raise ValueError(f"For 'AlltoAllV', send_numel_list * block_size must add up to the input's "
                             f"{value.shape[0]} elements, but got {send}.")
        return _exchange("AlltoAllV", value, send, receive, self.group)


class AlltoAllVC(Primitive):
    """``AlltoAllV`` with every rank's counts in one matrix: ``send_count_matrix[i * n + j]`` blocks go from rank i
    to rank j (``transpose=True`` reads the matrix transposed, for the reverse exchange).

    Args:
        group (str): the communication group. Default: the world.
        block_size (int): the unit of the counts, in elements. Default: 1.
        transpose (bool): read ``send_count_matrix`` transposed. Default: False.

    Inputs:
        - **input_x** (Tensor) - 1-D.
        - **send_count_matrix** (Union[list[int], Tensor]) - n * n counts.

    Outputs:
        1-D Tensor: the received elements in rank order (shape ``()`` when none).
    """

    def __init__(self, group=GlobalComm.WORLD_COMM_GROUP, block_size=1, transpose=False):
        super().__init__("AlltoAllVC")
        self.group = _group("AlltoAllVC", group)
        if isinstance(block_size, bool) or not isinstance(block_size, int) or block_size < 1:
            raise ValueError(f"For 'AlltoAllVC', block_size must be a positive int, but got {block_size!r}.")
        if not isinstance(transpose, bool):
            raise TypeError(f"For 'AlltoAllVC', transpose must be a bool, but got {type(transpose)}.")
        self.block_size, self.transpose = block_size, transpose
        self.add_prim_attr("group", group).add_prim_attr("block_size", block_size).add_prim_attr("transpose",
                                                                                                 transpose)

    def __call__(self, input_x, send_count_matrix):
        value = _flat("AlltoAllVC", input_x)
        members = collectives.members_of("AlltoAllVC", self.group)
        count = len(members)
        matrix = np.asarray(_counts("AlltoAllVC", "send_count_matrix", send_count_matrix, count * count))
        matrix = matrix.reshape(count, count) * self.block_size
        if self.transpose:
            matrix = matrix.T
        me = _rank_of_group(members)
        send, receive = matrix[me].tolist(), matrix[:, me].tolist()
        if sum(send) != value.shape[0]:
            raise ValueError(f"For 'AlltoAllVC', row {me} of send_count_matrix (* block_size) must add up to the "
                             f"input's {value.shape[0]} elements, but got {send}.")
        return _exchange("AlltoAllVC", value, send, receive, self.group)


class Reduce(Primitive):
    """Reduce a tensor over ``group`` into the process of group rank ``dest_rank``.

    Args:
        dest_rank (int): the group rank that receives the result.
        op (str): ``ReduceOp.SUM`` (default), ``MAX``, ``MIN`` or ``PROD``.
        group (str): the communication group. Default: the world.

    Inputs:
        - **input_x** (Tensor).

    Outputs:
        Tensor of ``input_x``'s shape on ``dest_rank``; a meaningless shape (1,) tensor elsewhere.
    """

    def __init__(self, dest_rank, op=ReduceOp.SUM, group=GlobalComm.WORLD_COMM_GROUP):
        super().__init__("Reduce")
        if isinstance(dest_rank, bool) or not isinstance(dest_rank, int):
            raise TypeError(f"For 'Reduce', dest_rank must be an int, but got {type(dest_rank)}.")
        self.dest_rank = dest_rank
        checked = collectives.check_reduce_op("Reduce", op)
        self.add_prim_attr("dest_rank", dest_rank).add_prim_attr("op", op)
        self.add_prim_attr("group", _group("Reduce", group))
        self.op = checked  # after add_prim_attr, which sets the attribute to the value as given

    def __call__(self, input_x):
        value = array_of("Reduce", "input_x", input_x)
        members = collectives.members_of("Reduce", self.group)
        if not 0 <= self.dest_rank < len(members):
            raise ValueError(f"For 'Reduce', dest_rank must be in [0, {len(members)}), but got {self.dest_rank}.")
        reduced = collectives.all_reduce(value, self.op, self.group)
        return wrap(reduced) if _rank_of_group(members) == self.dest_rank else _placeholder(value)


def _world_to_group_rank(name, rank, members):
    if isinstance(rank, bool) or not isinstance(rank, int):
        raise TypeError(f"For '{name}', the rank must be an int, but got {type(rank)}.")
    if rank not in members:
        raise ValueError(f"For '{name}', rank {rank} is not a member of the group (world ranks {list(members)}).")
    return members.index(rank)


def _rooted(primitive, attribute, rank, group):
    """Record the root (a world rank) and the group of a rooted collective; returns the root."""
    primitive.group = _group(primitive.name, group)
    primitive.add_prim_attr(attribute, rank).add_prim_attr("group", group)
    return rank


def _rooted_call(primitive, input_x, root):
    """``(input array, group members, the root's group rank)``."""
    members = collectives.members_of(primitive.name, primitive.group)
    return array_of(primitive.name, "input_x", input_x), members, _world_to_group_rank(primitive.name, root, members)


class CollectiveGather(Primitive):
    """Gather every process's tensor along axis 0 into the process of world rank ``dest_rank``.

    Args:
        dest_rank (int): the world rank that receives the result.
        group (str): the communication group. Default: the world.

    Inputs:
        - **input_x** (Tensor) - the same shape on every process.

    Outputs:
        Tensor of ``(n * x_1, x_2, ...)`` on ``dest_rank``; a meaningless shape (1,) tensor elsewhere.
    """

    def __init__(self, dest_rank, group=GlobalComm.WORLD_COMM_GROUP):
        super().__init__("CollectiveGather")
        self.dest_rank = _rooted(self, "dest_rank", dest_rank, group)

    def __call__(self, input_x):
        value, members, target = _rooted_call(self, input_x, self.dest_rank)
        gathered = collectives.all_gather(value, self.group)
        return wrap(gathered) if _rank_of_group(members) == target else _placeholder(value)


class CollectiveScatter(Primitive):
    """Split the tensor of world rank ``src_rank`` evenly along axis 0; group rank i receives block i.

    Args:
        src_rank (int): the world rank whose tensor is scattered. Default: 0.
        group (str): the communication group. Default: the world.

    Inputs:
        - **input_x** (Tensor) - its dimension 0 divides by the group size (the same shape on every process).

    Outputs:
        Tensor of ``(x_1 / n, x_2, ...)``.
    """

    def __init__(self, src_rank=0, group=GlobalComm.WORLD_COMM_GROUP):
        super().__init__("CollectiveScatter")
        self.src_rank = _rooted(self, "src_rank", src_rank, group)

    def __call__(self, input_x):
        value, members, source = _rooted_call(self, input_x, self.src_rank)
        if value.ndim == 0 or value.shape[0] % len(members):
            raise ValueError(f"For 'CollectiveScatter', dimension 0 of the input {tuple(value.shape)} must divide by "
                             f"the group size {len(members)}.")
        rows = value.shape[0] // len(members)
        me = _rank_of_group(members)
        return wrap(collectives.broadcast(value, source, self.group)[me * rows:(me + 1) * rows])


class Barrier(Primitive):
    """Block until every process of ``group`` called it.

    Args:
        group (str): the communication group. Default: the world.
    """

    def __init__(self, group=GlobalComm.WORLD_COMM_GROUP):
        super().__init__("Barrier")
        self.group = _group("Barrier", group)
        self.add_prim_attr("group", group)

    def __call__(self):
        collectives.barrier(self.group)


class BatchISendIRecv(Primitive):
    """Send and receive several tensors together, in the order of ``op_types``.

    Args:
        op_types (Union[tuple[str], list[str]]): ``"isend"`` or ``"irecv"`` per message.
        remote_ranks (Union[tuple[int], list[int]]): the peer (world rank) of each message.
        receive_shapes (Union[tuple, list]): the shape of each ``"irecv"``, in order. Default: None.
        receive_dtypes (Union[tuple, list]): the dtype of each ``"irecv"``, in order. Default: None.
        group (str): the communication group. Default: the world.

    Inputs:
        - **input_x** (Union[tuple[Tensor], list[Tensor]]) - the tensors of the ``"isend"`` messages, in order.

    Outputs:
        tuple(Tensor): per message, a meaningless scalar for ``"isend"`` and the received tensor for ``"irecv"``.
    """

    def __init__(self, op_types, remote_ranks, receive_shapes=None, receive_dtypes=None,
                 group=GlobalComm.WORLD_COMM_GROUP):
        super().__init__("BatchISendIRecv")
        receive_shapes = [] if receive_shapes is None else receive_shapes
        receive_dtypes = [] if receive_dtypes is None else receive_dtypes
        for name, value in (("op_types", op_types), ("remote_ranks", remote_ranks),
                            ("receive_shapes", receive_shapes), ("receive_dtypes", receive_dtypes)):
            if not isinstance(value, (tuple, list)):
                raise TypeError(f"For 'BatchISendIRecv', '{name}' must be a tuple or list, but got {type(value)}.")
        if len(op_types) != len(remote_ranks):
            raise ValueError(f"For 'BatchISendIRecv', op_types ({len(op_types)}) and remote_ranks "
                             f"({len(remote_ranks)}) must have the same length.")
        if len(receive_shapes) != len(receive_dtypes):
            raise ValueError("For 'BatchISendIRecv', receive_shapes and receive_dtypes must have the same length.")
        if any(kind not in ("isend", "irecv") for kind in op_types):
            raise ValueError(f"For 'BatchISendIRecv', every op type must be 'isend' or 'irecv', but got {op_types}.")
        if sum(kind == "irecv" for kind in op_types) != len(receive_shapes):
            raise ValueError("For 'BatchISendIRecv', receive_shapes needs one shape per 'irecv' of op_types.")
        self.op_types, self.remote_ranks = tuple(op_types), tuple(remote_ranks)
        self.receive_shapes = tuple(tuple(shape) for shape in receive_shapes)
        self.receive_dtypes = tuple(mstype.normalize(dtype) for dtype in receive_dtypes)
        self.group = _group("BatchISendIRecv", group)
        self.add_prim_attr("op_types", self.op_types).add_prim_attr("remote_ranks", self.remote_ranks)
        self.add_prim_attr("group", group)

    def __call__(self, input_x=()):
        tensors = list(input_x) if isinstance(input_x, (tuple, list)) else [input_x]
        sends = [kind for kind in self.op_types if kind == "isend"]
        if len(tensors) != len(sends):
            raise RuntimeError(f"For 'BatchISendIRecv', input_x needs one tensor per 'isend' of op_types "
                               f"({len(sends)}), but got {len(tensors)}.")
        sent, received = iter(tensors), iter(zip(self.receive_shapes, self.receive_dtypes))
        messages = []
        for kind, peer in zip(self.op_types, self.remote_ranks):
            if kind == "isend":
                messages.append(comm_p2p.P2POp("isend", next(sent), peer, self.group))
            else:
                shape, dtype = next(received)
                messages.append(comm_p2p.P2POp("irecv", shape, peer, self.group, recv_dtype=dtype))
        return comm_p2p.batch_isend_irecv(messages)
