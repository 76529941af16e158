"""``comm_func``'s point-to-point and all-to-all functions on sporax's message plans.

``isend``/``irecv``/``P2POp``/``batch_isend_irecv``/``all_to_all_with_output_shape``/
``all_to_all_single_with_output_shape`` (MindSpore 2.10's ``mindspore.communication.comm_func``).
Peers are world ranks, as MindSpore takes them. Every exchange runs as a message plan
(``sporax.parallel.point_to_point``): each process names its own messages and they run in one
global order, so matching calls cannot deadlock whatever order the processes list them in.

``isend``/``irecv`` are asynchronous: they queue their message and return at once. The queued
messages of a process leave together, as one plan, when one of their handles is waited on, when
the tensor ``irecv`` returned is first read, or before this process's next ``send``/``recv``/
``batch_isend_irecv``. The received tensor is a lazily filled Tensor, so reading it before
``wait()`` gives the received values (MindSpore's would be undefined until ``wait()``). They run in
PyNative mode, as MindSpore's, and under a gradient (``ms.grad``/``value_and_grad``, in either mode):
there each message is sent at once, inside the differentiated program, and, as MindSpore's, ``isend``'s
backward receives the sent tensor's gradient from ``dst`` and ``irecv``'s sends the received tensor's
gradient back to ``src`` (whether or not the function's output uses them). Under a gradient, the n-th
``isend`` to a peer with a tag pairs with that peer's n-th ``irecv`` from this process with the tag, and
both processes must post their messages in one order (one compiled program holds them).
``batch_isend_irecv`` under a gradient runs its messages as one plan there (any order on each side), its
receives' gradients going back to their senders.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.parallel import comm_func
    >>> out, _ = comm_func.all_to_all_single_with_output_shape((2,), Tensor(np.arange(2.0)))  # a world of one
    >>> out.asnumpy().tolist()
    [0.0, 1.0]
"""
import weakref

import jax
import jax.numpy as jnp

from sporax.autodiff import gradient_sinks
from sporax.core import dtype as mstype
from sporax.core.initializer import Initializer
from sporax.core.tensor import Tensor
from sporax.ops._dispatch import array_of, wrap
from sporax.parallel import collectives, communication, point_to_point
from sporax.parallel.communication import GlobalComm
from sporax.parallel.point_to_point import Receive, Send, exchange_messages

_queued = []  # this process's isend/irecv messages not sent yet: (kind, world peer, tag, value or spec, slot)


class _Received(Initializer):
    """The initializer of an ``irecv`` result: reading the tensor sends the queued messages first."""

    def __init__(self):
        super().__init__()
        self.array = None
        self.tensor = lambda: None  # a weak reference to the Tensor it fills, once made

    def _generate(self, shape, np_dtype):
        if self.array is None:
            flush_queued()
        return self.array


class P2PHandle:
    """The handle of ``isend``/``irecv``: ``wait()`` sends this process's queued messages and waits for them."""

    def __init__(self, slot=None):
        self._slot = slot

    def wait(self):
        flush_queued()
        if self._slot is not None and self._slot.array is not None:
            self._slot.array.block_until_ready()


def _tagged(entries):
    """Give the n-th message of a (peer, tag) its occurrence number, so that repeated pairs keep their order."""
    seen = {}
    tagged = []
    for peer, tag in entries:
        occurrence = seen.get((peer, tag), 0)
        seen[(peer, tag)] = occurrence + 1
        tagged.append((peer, (tag, occurrence)))
    return tagged


def _run(sends, receives, group, function="batch_isend_irecv"):
    """sends: [(peer, tag, array)], receives: [(peer, tag, shape, dtype)] -> the received arrays."""
    send_tags = _tagged([(peer, tag) for peer, tag, _ in sends])
    receive_tags = _tagged([(peer, tag) for peer, tag, _, _ in receives])
    return exchange_messages(
        tuple(array for _, _, array in sends), tuple(Send(peer, tag) for peer, tag in send_tags),
        tuple(Receive(peer, tag, shape, dtype) for (peer, tag), (_, _, shape, dtype) in zip(receive_tags, receives)),
        group, function)


def flush_queued():
    """Send and receive every queued ``isend``/``irecv`` message of this process, as one plan."""
    if not _queued:
        return
    batch = list(_queued)
    _queued.clear()
    sends = [(peer, tag, value) for kind, peer, tag, value, _ in batch if kind == "send"]
    receives = [(peer, tag) + spec for kind, peer, tag, spec, _ in batch if kind == "receive"]
    received = iter(_run(sends, receives, GlobalComm.WORLD_COMM_GROUP, "isend/irecv"))
    for kind, _, _, _, slot in batch:
        if kind == "receive":
            slot.array = next(received)
            tensor = slot.tensor()
            if tensor is not None:
                tensor.init_data()  # filled now, so that printing it shows the values


def _world_peer(function, rank, group):
    """Check that world rank ``rank`` belongs to ``group``; returns it."""
    if isinstance(rank, bool) or not isinstance(rank, int):
        raise TypeError(f"For {function}, the rank must be int, but got {type(rank)}.")
    if not isinstance(group, str):
        raise TypeError(f"For {function}, the group must be type of string, but got {type(group)}.")
    members = communication.group_ranks(group)
    if rank not in members:
        raise ValueError(f"For {function}, rank {rank} is not a member of group '{group}' (members {list(members)}).")
    return rank


def _eager_only(function, value):
    if isinstance(value, jax.core.Tracer):
        raise RuntimeError(f"For {function}, only PyNative mode is supported (as MindSpore's), or a gradient "
                           f"(ms.grad/value_and_grad) taken through it: it can not run inside GRAPH mode "
                           f"or jit without a gradient (sporax traces it); call it outside them.")


def _group_rank(rank, group):
    return list(communication.group_ranks(group)).index(rank)


def _differentiated_tag(direction, peer, tag):
    """The message tag of an exchange under a gradient: the n-th isend to a peer with ``tag`` pairs with the
    peer's n-th irecv of it."""
    return ("comm_func", tag, gradient_sinks.occurrence((direction, peer, tag)))


def isend(tensor, dst=0, group=GlobalComm.WORLD_COMM_GROUP, tag=0):
    """Queue ``tensor`` for world rank ``dst`` (which calls ``irecv`` or ``recv``); returns a handle."""
    if not isinstance(tensor, Tensor):
        raise TypeError("For isend, the input tensor must be tensor")
    if gradient_sinks.active():
        # Under a gradient the message is part of the differentiated program: sent now (after the queued
        # ones), and its backward receives the sent tensor's gradient from dst, as MindSpore's.
        flush_queued()
        peer = _world_peer("isend", dst, group)
        point_to_point.send(tensor._value, _group_rank(peer, group), _differentiated_tag("to", peer, tag), group)
        return P2PHandle()
    _eager_only("isend", tensor._value)
    _queued.append(("send", _world_peer("isend", dst, group), tag, tensor._value, None))
    return P2PHandle()


def irecv(tensor, src=0, group=GlobalComm.WORLD_COMM_GROUP, tag=0):
    """Queue the receipt of a tensor of ``tensor``'s shape and dtype from world rank ``src``; ``(Tensor, handle)``."""
    if not isinstance(tensor, Tensor):
        raise TypeError("For irecv, the input tensor must be tensor")
    dtype = jnp.dtype(tensor._value.dtype)
    if gradient_sinks.active():
        # Under a gradient: received now, and the received tensor's gradient is sent back to src.
        flush_queued()
        peer = _world_peer("irecv", src, group)
        received = point_to_point.receive(_group_rank(peer, group), _differentiated_tag("from", peer, tag),
                                          tuple(tensor.shape), dtype, group)
        return Tensor._wrap(received), P2PHandle()
    _eager_only("irecv", tensor._value)
    slot = _Received()
    _queued.append(("receive", _world_peer("irecv", src, group), tag, (tuple(tensor.shape), dtype), slot))
    received = Tensor(shape=tensor.shape, dtype=tensor.dtype, init=slot)
    slot.tensor = weakref.ref(received)
    return received, P2PHandle(slot)


class P2POp:
    """One message of ``batch_isend_irecv``: ``op`` (``"isend"``/``"irecv"`` or those functions), a tensor (or,
    for ``irecv``, a shape with ``recv_dtype``), the peer's world rank and the group.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor
        >>> from sporax.parallel import comm_func
        >>> comm_func.P2POp("isend", Tensor(np.ones(2, np.float32)), 0).peer
        0
    """

    def __new__(cls, op, tensor, peer, group=None, tag=0, recv_dtype=None):
        if not (isinstance(op, str) or callable(op)):
            raise TypeError(f"op must be type of string or function, but got type of {type(op)}")
        op_name = op if isinstance(op, str) else op.__name__
        if op_name not in ("isend", "irecv"):
            raise ValueError(f"Expected ``op`` to be of type ``isend`` or `irecv``, but got {op_name}")
        if not isinstance(tensor, (Tensor, tuple)):
            raise TypeError(f"Expected ``tensor`` to be type of tuple or Tensor, but got {type(tensor)}.")
        if tag != 0:
            raise NotImplementedError("``tag`` not support yet. (P2POp: MindSpore 2.10 refuses a tag too; leave "
                                      "tag=0, messages pair up in the order they are posted.)")
        return object.__new__(cls)

    def __init__(self, op, tensor, peer, group=None, tag=0, *, recv_dtype=None):
        if not isinstance(peer, int):
            raise TypeError(f"peer must be type of int, but got type of {type(peer)}")
        if recv_dtype and not mstype.is_dtype(recv_dtype):
            raise TypeError(f"recv_dtype must be type of mindspore dtype, but got type of {type(recv_dtype)}")
        self.op, self.tensor, self.peer, self.group, self.tag, self.recv_dtype = op, tensor, peer, group, tag, recv_dtype


def batch_isend_irecv(p2p_op_list):
    """Run the sends and receives of ``p2p_op_list`` together; a tuple with, per op, a meaningless scalar for an
    ``isend`` and the received tensor for an ``irecv``."""
    if not isinstance(p2p_op_list, list):
        raise TypeError(f"p2p_op_list must be type of list, but got type of {p2p_op_list}.")
    if not p2p_op_list:
        raise TypeError("p2p_op_list can not be empty list.")
    sends, receives, kinds = [], [], []
    for index, p2p_op in enumerate(p2p_op_list):
        if not isinstance(p2p_op, P2POp):
            raise TypeError("must be type of P2POp")
        kind = p2p_op.op if isinstance(p2p_op.op, str) else p2p_op.op.__name__
        peer = _world_peer("batch_isend_irecv", p2p_op.peer, p2p_op.group or GlobalComm.WORLD_COMM_GROUP)
        if kind == "isend":
            value = array_of("batch_isend_irecv", "tensor", p2p_op.tensor)
            if not gradient_sinks.active():  # under a gradient the plan runs inside the differentiated program
                _eager_only("batch_isend_irecv", value)
            sends.append((peer, 0, value))
        elif isinstance(p2p_op.tensor, Tensor):
            receives.append((peer, 0, tuple(p2p_op.tensor.shape), jnp.dtype(p2p_op.tensor._value.dtype)))
        else:
            if p2p_op.recv_dtype is None:
                raise ValueError(f"'recv_dtype' of {index}th P2POp in p2p_op_list is None but op_types is'irecv' "
                                 f"and P2POp.tensor is a tuple type.")
            receives.append((peer, 0, tuple(p2p_op.tensor), mstype.dtype_to_nptype(p2p_op.recv_dtype)))
        kinds.append((kind, sends[-1][2].dtype if kind == "isend" else None))
    flush_queued()
    received = iter(_run(sends, receives, GlobalComm.WORLD_COMM_GROUP))
    return tuple(wrap(next(received)) if kind == "irecv" else wrap(jnp.zeros((), dtype)) for kind, dtype in kinds)


def _output_spec(function, shape_or_tensor):
    if isinstance(shape_or_tensor, Tensor):
        return tuple(shape_or_tensor.shape)
    if isinstance(shape_or_tensor, (tuple, list)):
        return tuple(shape_or_tensor)
    raise TypeError(f"Expected tensor or tuple, but got {type(shape_or_tensor)}")


def _members(function, group):
    group = GlobalComm.WORLD_COMM_GROUP if group is None else group
    return group, collectives.members_of(function, group)


def _all_to_all(function, blocks, out_shapes, dtype, group):
    """Send ``blocks[i]`` to group rank i and receive an array of ``out_shapes[i]`` from it (empty ones skipped)."""
    sends = [(peer, 0, block) for peer, block in enumerate(blocks) if block.size]
    receives = [(peer, 0, shape, dtype) for peer, shape in enumerate(out_shapes) if _numel(shape)]
    received = iter(_run(sends, receives, group, function))
    return [next(received) if _numel(shape) else jnp.zeros(shape, dtype) for shape in out_shapes]


def _numel(shape):
    count = 1
    for dim in shape:
        count *= dim
    return count


def all_to_all_with_output_shape(output_shape_list, input_tensor_list, group=None, async_op=False):
    """Send ``input_tensor_list[i]`` to group rank i and receive a tensor of ``output_shape_list[i]`` from it.

    Returns ``(tuple of Tensors, handle)``; the handle is ``None`` unless ``async_op``.
    """
    from sporax.parallel.comm_func import CommHandle

    for values, allowed in ((input_tensor_list, (Tensor,)), (output_shape_list, (Tensor, tuple, list))):
        if not isinstance(values, (list, tuple)):
            raise TypeError(f"Expected list or tuple, but got {type(values)}.")
        for value in values:
            if not isinstance(value, allowed):
                raise TypeError(f"Expected tensor{' or tuple' if len(allowed) > 1 else ''}, but got {type(value)}")
    dtypes = [tensor.dtype for tensor in input_tensor_list]
    if any(dtype != dtypes[0] for dtype in dtypes):
        raise TypeError(f"all_to_all input dtype must be the same, but got {dtypes[0]} and "
                        f"{next(d for d in dtypes if d != dtypes[0])}.")
    group, members = _members("all_to_all_with_output_shape", group)
    if len(input_tensor_list) != len(members) or len(output_shape_list) != len(members):
        raise ValueError(f"For all_to_all_with_output_shape, the input and output lists need one entry per member "
                         f"of group '{group}' ({len(members)}), but got {len(input_tensor_list)} and "
                         f"{len(output_shape_list)}.")
    blocks = [array_of("all_to_all_with_output_shape", "input_tensor_list", t) for t in input_tensor_list]
    dtype = blocks[0].dtype if blocks else jnp.float32
    outputs = _all_to_all("all_to_all_with_output_shape", blocks,
                          [_output_spec("all_to_all_with_output_shape", s) for s in output_shape_list], dtype, group)
    result = tuple(wrap(value) for value in outputs)
    return result, (CommHandle(result[0]) if async_op and result else None)


def all_to_all_single_with_output_shape(output_shape, tensor, output_split_sizes=None, input_split_sizes=None,
                                        group=None, async_op=False):
    """Split ``tensor``'s rows by ``input_split_sizes`` (default: equally), send block i to group rank i, and
    concatenate the blocks received (``output_split_sizes`` rows each) into a tensor of ``output_shape``.

    Returns ``(Tensor, handle)``; a shape ``()`` Tensor when nothing is received, as MindSpore.
    """
    from sporax.parallel.comm_func import CommHandle

    if not isinstance(tensor, Tensor):
        raise TypeError(f"Expected tensor, but got {type(tensor)}")
    out_shape = _output_spec("all_to_all_single_with_output_shape", output_shape)
    group, members = _members("all_to_all_single_with_output_shape", group)
    size = len(members)
    value = array_of("all_to_all_single_with_output_shape", "tensor", tensor)
    splits = []
    for name, given, rows in (("input", input_split_sizes, value.shape[0]), ("output", output_split_sizes,
                                                                               out_shape[0])):
        if given is None or not given:
            if rows % size:
                raise ValueError(f"{name} shape at dim 0 must be divided by world_size, but got {rows} and {size}.")
            given = (rows // size,) * size
        if len(given) != size or sum(given) != rows:
            raise ValueError(f"For all_to_all_single_with_output_shape, '{name}_split_sizes' needs {size} sizes "
                             f"adding up to {rows}, but got {list(given)}.")
        splits.append(tuple(given))
    offsets = [sum(splits[0][:i]) for i in range(size)]
    blocks = [value[offset:offset + rows] for offset, rows in zip(offsets, splits[0])]
    out_shapes = [(rows,) + tuple(out_shape[1:]) for rows in splits[1]]
    outputs = _all_to_all("all_to_all_single_with_output_shape", blocks, out_shapes, value.dtype, group)
    result = wrap(jnp.concatenate(outputs, axis=0) if _numel(out_shape) else jnp.zeros((), value.dtype))
    return result, (CommHandle(result) if async_op else None)


def all_to_all_v_c(output, input, send_count_matrix, group=None, async_op=False):  # noqa: A002 - MindSpore's name
    """Exchange rows by a matrix of counts and write the received rows into ``output`` (in place).

    ``send_count_matrix[i * n + j]`` is the number of rows (first-dimension entries) group rank i
    sends to group rank j; rank i sends its rows in the order of j, and ``output`` receives the
    rows from every rank in the order of the sender. Returns a handle when ``async_op``, else ``None``.
    """
    from sporax.parallel.comm_func import CommHandle

    for value in (input, output):
        if not isinstance(value, Tensor):
            raise TypeError(f"Expected tensor, but got {type(value)}")
    group = GlobalComm.WORLD_COMM_GROUP if group is None else group
    if not isinstance(group, str):
        raise TypeError(f"The argument 'group' must be type of string, but got 'group' type : {type(group)}.")
    if not isinstance(async_op, bool):
        raise TypeError(f"The argument 'async_op' must be a bool, but got {type(async_op)}.")
    if not isinstance(send_count_matrix, list):
        raise TypeError(f"send_count_matrix must be list, but got {type(send_count_matrix)}")
    if not all(isinstance(count, int) for count in send_count_matrix):
        raise TypeError("send_count_matrix elements must be of type int")
    _, members = _members("all_to_all_v_c", group)
    size = len(members)
    if size * size != len(send_count_matrix):
        raise TypeError(f"send_count_matrix must be square matrix, but got {len(send_count_matrix)}.")
    value = array_of("all_to_all_v_c", "input", input)
    row_shape = tuple(value.shape[1:])
    if _numel(row_shape) != _numel(output.shape[1:]):
        raise ValueError(f"The input and output dimensions except 0 must be of equal size, but got "
                         f"{_numel(row_shape)} and {_numel(output.shape[1:])}.")
    me = members.index(communication._World.rank) if communication.GlobalComm.INITED else 0
    sent = send_count_matrix[me * size:(me + 1) * size]
    offsets = [sum(sent[:j]) for j in range(size)]
    blocks = [value[offset:offset + count] for offset, count in zip(offsets, sent)]
    out_shapes = [(send_count_matrix[i * size + me],) + row_shape for i in range(size)]
    received = _all_to_all("all_to_all_v_c", blocks, out_shapes, value.dtype, group)
    output.copy_(wrap(jnp.concatenate(received, axis=0).reshape(output.shape)))
    return CommHandle(output) if async_op else None
