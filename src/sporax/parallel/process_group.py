"""``mindspore.ops``' communication functions (``ops.communication``): the process-group API.

MindSpore 2.10 exports under ``mindspore.ops`` a second, PyTorch-like communication API beside
``comm_func``: ``init_process_group``, ``new_group``, ``get_rank``, collectives that write their
result into a tensor the caller passes (``all_reduce(tensor)``, ``all_gather_into_tensor(output,
input)`` …), point-to-point messages (``process_group_messages``) and the ``*_object`` functions
(``process_group_objects``). They run on ``comm_func``'s engine: in a script that never called
``init`` the world is this one process; under ``sporax launch``/``msrun`` they span the processes.
By default each function writes into the output tensor it was given and returns a handle (``None``
unless ``async_op=True``); ``set_comm_ops_inplace(False, [names])`` makes ``all_reduce``,
``all_gather_into_tensor``, ``reduce_scatter_tensor``, ``all_to_all(_single)``, ``send``/``recv``
and ``isend``/``irecv`` return ``(Tensor, handle)``; the others refuse that mode with MindSpore's
``ValueError``. ``src``/``dst``/``peer`` are world ranks, as MindSpore takes them.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> x = Tensor(np.array([1.0, 2.0], np.float32))
    >>> ops.all_reduce(x) is None, x.asnumpy().tolist()  # a world of one process
    (True, [1.0, 2.0])
"""
import hashlib

import jax.numpy as jnp

from sporax.core import context
from sporax.core.tensor import Tensor
from sporax.ops._dispatch import wrap
from sporax.parallel import collectives, comm_p2p, communication
from sporax.parallel.collectives import ReduceOp
from sporax.parallel.comm_func import CommHandle
from sporax.parallel.comm_p2p import all_to_all_v_c
from sporax.parallel.communication import GlobalComm, _World

# MindSpore's in-place switch, per function (all in place by default).
_INPLACE = {name: True for name in (
    "all_reduce", "all_gather_into_tensor", "all_gather_into_tensor_uneven", "all_to_all", "all_to_all_single",
    "reduce_scatter_tensor", "reduce_scatter_tensor_uneven", "isend", "irecv", "send", "recv", "all_gather",
    "reduce_scatter", "barrier", "broadcast", "reduce", "batch_isend_irecv", "all_gather_object",
    "broadcast_object_list", "gather_object", "scatter_object_list", "send_object_list", "recv_object_list",
    "gather_into_tensor", "scatter_tensor", "all_to_all_v_c")}
_BACKEND_OF_TARGET = {"Ascend": "hccl", "GPU": "nccl", "CPU": "mccl"}


def set_comm_ops_inplace(is_enable, func_list=None):
    """Choose whether the communication functions write into their output tensor (``True``, the default) or
    return a new tensor.

    Args:
        is_enable (bool): in place or not.
        func_list (list[str], optional): the functions to switch; ``None`` switches all of them.

    Example:
        >>> from sporax import ops
        >>> ops.set_comm_ops_inplace(True)
    """
    if not isinstance(is_enable, bool):
        raise TypeError(f"For 'set_comm_ops_inplace', the argument 'is_enable' must be type of bool, but got "
                        f"'is_enable' type : {type(is_enable)}.")
    if func_list is None:
        func_list = list(_INPLACE)
    if not isinstance(func_list, (list, tuple)):
        raise TypeError(f"For 'set_comm_ops_inplace', func_list must be a list or tuple, but got {type(func_list)}.")
    for name in func_list:
        if name not in _INPLACE:
            raise ValueError(f"For 'set_comm_ops_inplace', the function name in `func_list` must be one of "
                             f"{sorted(_INPLACE)}, but got {name!r}.")
    for name in func_list:
        _INPLACE[name] = is_enable


def _inplace_only(function):
    if not _INPLACE[function]:
        raise ValueError(f"For '{function}', non-inplace mode is currently not supported (as in MindSpore): call "
                         f"set_comm_ops_inplace(True, ['{function}']).")


# --- arguments ------------------------------------------------------------------------------------------

def _group(function, group):
    group = GlobalComm.WORLD_COMM_GROUP if group is None else group
    if not isinstance(group, str):
        raise TypeError(f"For '{function}', the argument 'group' must be type of string, but got 'group' type : "
                        f"{type(group)}.")
    return group


def _tensor(function, name, value):
    if not isinstance(value, Tensor):
        raise TypeError(f"For '{function}', the argument '{name}' must be a Tensor, but got {type(value).__name__}.")
    return value._value


def _tensors(function, name, values):
    if not isinstance(values, (list, tuple)) or not all(isinstance(value, Tensor) for value in values):
        raise TypeError(f"For '{function}', the argument '{name}' must be a list of Tensors, but got {values!r}.")
    return [value._value for value in values]


def _async(function, async_op):
    if not isinstance(async_op, bool):
        raise TypeError(f"For '{function}', the argument 'async_op' must be a bool, but got {type(async_op)}.")
    return async_op


def _members(function, group):
    return collectives.members_of(function, group)


def _my_index(members):
    return members.index(_World.rank) if GlobalComm.INITED else 0


def _group_rank(function, world_rank, group):
    """The group rank of world rank ``world_rank`` (MindSpore's src/dst/peer are world ranks)."""
    if isinstance(world_rank, bool) or not isinstance(world_rank, int):
        raise TypeError(f"For '{function}', the rank must be an int, but got {type(world_rank)}.")
    members = _members(function, group)
    if world_rank not in members:
        raise ValueError(f"For '{function}', rank {world_rank} is not a member of group '{group}' "
                         f"(world ranks {list(members)}).")
    return members.index(world_rank)


def _store(function, output, array):
    """Write ``array`` into ``output`` in place; the shape must be the one the collective produced."""
    if tuple(output.shape) != tuple(array.shape):
        raise ValueError(f"For '{function}', the output tensor must have shape {tuple(array.shape)}, but got "
                         f"{tuple(output.shape)}.")
    if array.dtype != output._value.dtype:
        raise TypeError(f"For '{function}', the output tensor must have the input's dtype {array.dtype}, but got "
                        f"{output._value.dtype}.")
    output._array, output._init = array, None


def _done(async_op, array=None):
    """The handle MindSpore returns: ``None`` for a blocking call, else a handle whose ``wait`` blocks."""
    return CommHandle(wrap(array) if array is not None else None) if async_op else None


def _result(function, output, array, async_op):
    """In place: store and return the handle; otherwise ``(Tensor, handle)``."""
    if _INPLACE[function]:
        _store(function, output, array)
        return _done(async_op, array)
    return wrap(array), _done(async_op, array)


# --- the process world ----------------------------------------------------------------------------------

def is_available():
    """Whether the distributed module is available: always ``True`` (as MindSpore)."""
    return True


def is_initialized():
    """Whether ``init_process_group`` (or ``communication.init``) ran in this process."""
    return bool(GlobalComm.INITED)


def init_process_group(backend="hccl", init_method=None, timeout=None, world_size=-1, rank=-1, store=None,
                       group_name="", pg_options=None, device_id=None):
    """Join the distributed job started by ``sporax launch``/``msrun`` and create the world group.

    Args:
        backend (str): ``"hccl"`` (default), ``"nccl"`` or ``"mccl"``; JAX's runtime serves all of them.
        init_method, timeout, store, pg_options: accepted; the launcher's variables give the address.
        world_size (int): -1, or the number of processes the launcher started.
        rank (int): -1, or this process's rank as the launcher set it.
        group_name (str): ignored unless empty or the world group's name.
        device_id (int, optional): the device this process uses.

    Example:
        >>> from sporax import ops
        >>> ops.init_process_group()  # doctest: +SKIP
    """
    if not isinstance(backend, str) or backend not in ("hccl", "nccl", "mccl"):
        raise TypeError(f"For 'init_process_group', the argument 'backend' must be one of 'hccl', 'nccl' and "
                        f"'mccl', but got {backend!r}.")
    for name, value in (("world_size", world_size), ("rank", rank)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"For 'init_process_group', the argument '{name}' must be an int, but got {value!r}.")
    if not isinstance(group_name, str):
        raise TypeError(f"For 'init_process_group', group_name must be a str, but got {type(group_name)}.")
    if device_id is not None:
        context.set_context(device_id=device_id)
    # On a GPU or CPU target the backend is the device's, whatever the script names (scripts say "hccl").
    target = context.get_context("device_target") or "CPU"
    communication.init(_BACKEND_OF_TARGET.get(target, backend))
    for name, value, actual in (("world_size", world_size, _World.size), ("rank", rank, _World.rank)):
        if value != -1 and value != actual:
            raise ValueError(f"For 'init_process_group', {name}={value} differs from the launcher's {actual}: "
                             f"start the script with 'sporax launch --worker_num=N' and leave {name}=-1.")


def destroy_process_group(group=None):
    """Destroy ``group``, or with ``None`` the whole process group (``communication.release``)."""
    if group is None or communication.is_world(_group("destroy_process_group", group)):
        communication.release()
        return
    communication.destroy_group(group)


def get_rank(group=None):
    """This process's rank in ``group`` (the world by default); -1 where this process is not a member."""
    group = _group("get_rank", group)
    try:
        return communication.get_rank(group)
    except (RuntimeError, ValueError):
        return -1


def get_world_size(group=None):
    """The number of processes in ``group`` (the world by default); -1 where the group is unknown."""
    group = _group("get_world_size", group)
    try:
        return communication.get_group_size(group)
    except (RuntimeError, ValueError):
        return -1


def new_group(ranks=None, timeout=None, backend=None, pg_options=None, use_local_synchronization=False,
              group_desc=None):
    """Create a group of the world ranks ``ranks`` and return its name (MindSpore's naming); ``None`` gives
    the world group's name.

    Example:
        >>> from sporax import ops
        >>> ops.new_group()
        'hccl_world_group'
    """
    if ranks is None:
        return GlobalComm.WORLD_COMM_GROUP
    if not isinstance(ranks, list):
        raise TypeError(f"For 'new_group', ranks must be a list, but got {type(ranks)}.")
    ranks = sorted(ranks)
    backend = "hccl" if backend is None else backend
    if not isinstance(backend, str) or backend not in ("hccl", "mccl"):
        raise TypeError(f"For 'new_group', the input backend must be hccl or mccl, but got {backend}.")
    name = f"{backend}_{len(ranks)}_" + hashlib.sha1("_".join(map(str, ranks)).encode("utf-8")).hexdigest()
    if name not in _World.groups:
        communication.create_group(name, ranks, pg_options)
    return name


def get_backend(group=None):
    """The communication backend of ``group``: ``"hccl"``, ``"nccl"`` or ``"mccl"`` (sporax: the device's)."""
    group = _group("get_backend", group)
    if GlobalComm.INITED:
        communication.group_ranks(group)
        return GlobalComm.BACKEND
    return _BACKEND_OF_TARGET.get(context.get_context("device_target") or "CPU", "mccl")


def get_global_rank(group, group_rank):
    """The world rank of member ``group_rank`` of ``group``."""
    group = _group("get_global_rank", group)
    if isinstance(group_rank, bool) or not isinstance(group_rank, int):
        raise TypeError(f"For 'get_global_rank', group_rank must be an int, but got {type(group_rank)}.")
    members = communication.group_ranks(group)
    if not 0 <= group_rank < len(members):
        raise ValueError(f"For 'get_global_rank', group_rank must be in [0, {len(members)}) for group '{group}', "
                         f"but got {group_rank}.")
    return members[group_rank]


def get_group_rank(group, global_rank):
    """The rank in ``group`` of world rank ``global_rank``."""
    group = _group("get_group_rank", group)
    if isinstance(global_rank, bool) or not isinstance(global_rank, int):
        raise TypeError(f"For 'get_group_rank', global_rank must be an int, but got {type(global_rank)}.")
    members = communication.group_ranks(group)
    if global_rank not in members:
        raise ValueError(f"For 'get_group_rank', world rank {global_rank} is not a member of group '{group}' "
                         f"(members {list(members)}).")
    return members.index(global_rank)


def get_process_group_ranks(group=None):
    """The world ranks of ``group``'s members, in group-rank order."""
    return list(communication.group_ranks(_group("get_process_group_ranks", group)))


# --- collectives ----------------------------------------------------------------------------------------

def all_reduce(tensor, op=ReduceOp.SUM, group=None, async_op=False):
    """Reduce ``tensor`` over ``group`` (``op``: sum, prod, max, min or avg); every member gets the result."""
    group, async_op = _group("all_reduce", group), _async("all_reduce", async_op)
    value = _tensor("all_reduce", "tensor", tensor)
    return _result("all_reduce", tensor, collectives.all_reduce(value, op, group), async_op)


def all_gather(tensor_list, tensor, group=None, async_op=False):
    """``tensor_list[i]`` receives the ``tensor`` of group rank i."""
    group, async_op = _group("all_gather", group), _async("all_gather", async_op)
    _inplace_only("all_gather")
    value = _tensor("all_gather", "tensor", tensor)
    _tensors("all_gather", "tensor_list", tensor_list)
    size = len(_members("all_gather", group))
    if len(tensor_list) != size:
        raise TypeError(f"For 'all_gather', tensor_list needs one tensor per member of group '{group}' ({size}), "
                        f"but got {len(tensor_list)}.")
    gathered = collectives.all_gather(value.reshape((1,) + value.shape), group)
    for output, block in zip(tensor_list, gathered):
        _store("all_gather", output, block)
    return _done(async_op, gathered)


def all_gather_into_tensor(output_tensor, input_tensor, group=None, async_op=False):
    """``output_tensor`` receives every member's ``input_tensor`` concatenated along axis 0."""
    group, async_op = _group("all_gather_into_tensor", group), _async("all_gather_into_tensor", async_op)
    value = _tensor("all_gather_into_tensor", "input_tensor", input_tensor)
    if _INPLACE["all_gather_into_tensor"]:
        _tensor("all_gather_into_tensor", "output_tensor", output_tensor)
    return _result("all_gather_into_tensor", output_tensor, collectives.all_gather(value, group), async_op)


def _split_sizes(function, name, sizes, rows, count):
    if sizes is None or len(sizes) == 0:
        if rows % count:
            raise ValueError(f"For '{function}', dimension 0 ({rows}) must divide by the group size {count} when "
                             f"'{name}' is not given.")
        return [rows // count] * count
    sizes = list(sizes)
    if len(sizes) != count or sum(sizes) != rows or any(size < 0 for size in sizes):
        raise ValueError(f"For '{function}', '{name}' needs {count} non-negative sizes adding up to {rows}, but "
                         f"got {sizes}.")
    return sizes


def gather_uneven(value, sizes, group):
    """Every member's ``value`` (``sizes[i]`` rows from group rank i) concatenated along axis 0."""
    widest = max(sizes) if sizes else 0
    padded = jnp.zeros((widest,) + value.shape[1:], value.dtype).at[:value.shape[0]].set(value)
    blocks = collectives.all_gather(padded[None], group)
    return jnp.concatenate([blocks[i, :rows] for i, rows in enumerate(sizes)], axis=0)


def reduce_scatter_uneven(value, sizes, op, group):
    """``value`` reduced over ``group``; this member keeps its ``sizes[rank]`` rows (in rank order)."""
    me = _my_index(_members("reduce_scatter", group))
    start = sum(sizes[:me])
    return collectives.all_reduce(value, op, group)[start:start + sizes[me]]


def _uneven_arguments(function, output, input, group, async_op):  # noqa: A002
    """The checked arguments of the uneven collectives: ``(group, async_op, input array, group members)``."""
    group, async_op = _group(function, group), _async(function, async_op)
    _inplace_only(function)
    _tensor(function, "output", output)
    return group, async_op, _tensor(function, "input", input), _members(function, group)


def all_gather_into_tensor_uneven(output, input, output_split_sizes=None, group=None,  # noqa: A002
                                  async_op=False):
    """Like ``all_gather_into_tensor``, with member i contributing ``output_split_sizes[i]`` rows."""
    function = "all_gather_into_tensor_uneven"
    group, async_op, value, members = _uneven_arguments(function, output, input, group, async_op)
    sizes = _split_sizes(function, "output_split_sizes", output_split_sizes, output.shape[0], len(members))
    if value.shape[0] != sizes[_my_index(members)]:
        raise ValueError(f"For '{function}', this member's input has {value.shape[0]} rows but "
                         f"output_split_sizes gives it {sizes[_my_index(members)]}.")
    _store(function, output, gather_uneven(value, sizes, group))
    return _done(async_op, output._value)


def reduce_scatter(output, input_list, op=ReduceOp.SUM, group=None, async_op=False):
    """Reduce the lists over ``group``; ``output`` receives the reduction of everyone's ``input_list[rank]``."""
    group, async_op = _group("reduce_scatter", group), _async("reduce_scatter", async_op)
    _inplace_only("reduce_scatter")
    _tensor("reduce_scatter", "output", output)
    values = _tensors("reduce_scatter", "input_list", input_list)
    size = len(_members("reduce_scatter", group))
    if len(values) != size:
        raise TypeError(f"For 'reduce_scatter', input_list needs one tensor per member of group '{group}' "
                        f"({size}), but got {len(values)}.")
    if any(value.shape != values[0].shape or value.dtype != values[0].dtype for value in values):
        raise TypeError("For 'reduce_scatter', the tensors of input_list must share one shape and dtype.")
    reduced = collectives.reduce_scatter(jnp.stack(values), op, group)[0]
    _store("reduce_scatter", output, reduced)
    return _done(async_op, reduced)


def reduce_scatter_tensor(output, input, op=ReduceOp.SUM, group=None, async_op=False):  # noqa: A002
    """Reduce ``input`` over ``group``; ``output`` receives this member's block of axis 0."""
    group, async_op = _group("reduce_scatter_tensor", group), _async("reduce_scatter_tensor", async_op)
    value = _tensor("reduce_scatter_tensor", "input", input)
    if _INPLACE["reduce_scatter_tensor"]:
        _tensor("reduce_scatter_tensor", "output", output)
    return _result("reduce_scatter_tensor", output, collectives.reduce_scatter(value, op, group), async_op)


def reduce_scatter_tensor_uneven(output, input, input_split_sizes=None, op=ReduceOp.SUM, group=None,  # noqa: A002
                                 async_op=False):
    """Reduce ``input`` over ``group``; member i receives ``input_split_sizes[i]`` rows of the result."""
    function = "reduce_scatter_tensor_uneven"
    group, async_op, value, members = _uneven_arguments(function, output, input, group, async_op)
    sizes = _split_sizes(function, "input_split_sizes", input_split_sizes, value.shape[0], len(members))
    _store(function, output, reduce_scatter_uneven(value, sizes, op, group))
    return _done(async_op, output._value)


def reduce(tensor, dst, op=ReduceOp.SUM, group=None, async_op=False):
    """Reduce ``tensor`` over ``group`` into the ``tensor`` of world rank ``dst``; the others keep theirs."""
    group, async_op = _group("reduce", group), _async("reduce", async_op)
    _inplace_only("reduce")
    value = _tensor("reduce", "tensor", tensor)
    target = _group_rank("reduce", dst, group)
    reduced = collectives.all_reduce(value, op, group)
    if _my_index(_members("reduce", group)) == target:
        _store("reduce", tensor, reduced)
    return _done(async_op, reduced)


def broadcast(tensor, src, group=None, async_op=False):
    """Every member's ``tensor`` receives the ``tensor`` of world rank ``src``."""
    group, async_op = _group("broadcast", group), _async("broadcast", async_op)
    _inplace_only("broadcast")
    value = _tensor("broadcast", "tensor", tensor)
    result = collectives.broadcast(value, _group_rank("broadcast", src, group), group)
    _store("broadcast", tensor, result)
    return _done(async_op, result)


def barrier(group=None, async_op=False, device_ids=None):
    """Block until every member of ``group`` reached the barrier."""
    group, async_op = _group("barrier", group), _async("barrier", async_op)
    collectives.barrier(group)
    return _done(async_op)


def gather_into_tensor(output_tensor, input_tensor, dst=0, group=None, async_op=False):
    """World rank ``dst``'s ``output_tensor`` receives every member's ``input_tensor`` along axis 0."""
    group, async_op = _group("gather_into_tensor", group), _async("gather_into_tensor", async_op)
    _inplace_only("gather_into_tensor")
    value = _tensor("gather_into_tensor", "input_tensor", input_tensor)
    target = _group_rank("gather_into_tensor", dst, group)
    gathered = collectives.all_gather(value, group)
    if _my_index(_members("gather_into_tensor", group)) == target:
        _tensor("gather_into_tensor", "output_tensor", output_tensor)
        _store("gather_into_tensor", output_tensor, gathered)
    return _done(async_op, gathered)


def scatter_tensor(output_tensor, input_tensor, src=0, group=None, async_op=False):
    """World rank ``src``'s ``input_tensor`` split along axis 0: ``output_tensor`` of member i receives block i."""
    group, async_op = _group("scatter_tensor", group), _async("scatter_tensor", async_op)
    _inplace_only("scatter_tensor")
    value = _tensor("scatter_tensor", "input_tensor", input_tensor)
    _tensor("scatter_tensor", "output_tensor", output_tensor)
    members = _members("scatter_tensor", group)
    if value.ndim == 0 or value.shape[0] % len(members):
        raise ValueError(f"For 'scatter_tensor', dimension 0 of the input {tuple(value.shape)} must divide by the "
                         f"group size {len(members)}.")
    rows = value.shape[0] // len(members)
    me = _my_index(members)
    block = collectives.broadcast(value, _group_rank("scatter_tensor", src, group), group)[me * rows:(me + 1) * rows]
    _store("scatter_tensor", output_tensor, block)
    return _done(async_op, block)


def all_to_all(output_tensor_list, input_tensor_list, group=None, async_op=False):
    """Send ``input_tensor_list[i]`` to group rank i; ``output_tensor_list[i]`` receives group rank i's."""
    group, async_op = _group("all_to_all", group), _async("all_to_all", async_op)
    _tensors("all_to_all", "input_tensor_list", input_tensor_list)
    shapes = [output.shape if isinstance(output, Tensor) else output for output in output_tensor_list]
    received, _ = comm_p2p.all_to_all_with_output_shape(shapes, list(input_tensor_list), group)
    if not _INPLACE["all_to_all"]:
        return received, _done(async_op)
    for output, value in zip(output_tensor_list, received):
        _store("all_to_all", output, value._value)
    return _done(async_op)


def all_to_all_single(output, input, output_split_sizes=None, input_split_sizes=None, group=None,  # noqa: A002
                      async_op=False):
    """Split ``input``'s rows by ``input_split_sizes``, send block i to group rank i; ``output`` receives the
    blocks of every member, in rank order (``output_split_sizes`` rows each)."""
    group, async_op = _group("all_to_all_single", group), _async("all_to_all_single", async_op)
    shape = output.shape if isinstance(output, Tensor) else output
    received, _ = comm_p2p.all_to_all_single_with_output_shape(shape, input, output_split_sizes, input_split_sizes,
                                                                group)
    return _result("all_to_all_single", output, received._value.reshape(tuple(shape)), async_op) \
        if _INPLACE["all_to_all_single"] else (received, _done(async_op))


# The point-to-point and object functions live in their own modules; they use the helpers above.
from sporax.parallel.process_group_messages import P2POp, batch_isend_irecv, irecv, isend, recv, send  # noqa: E402,I001
from sporax.parallel.process_group_objects import (  # noqa: E402
    all_gather_object, broadcast_object_list, gather_object, recv_object_list, scatter_object_list, send_object_list)

__all__ = [
    "is_available", "is_initialized", "init_process_group", "destroy_process_group", "get_rank", "get_world_size",
    "new_group", "get_backend", "get_global_rank", "get_group_rank", "get_process_group_ranks", "all_reduce",
    "all_gather", "all_gather_into_tensor", "all_gather_into_tensor_uneven", "reduce_scatter",
    "reduce_scatter_tensor", "reduce_scatter_tensor_uneven", "reduce", "broadcast", "barrier", "gather_into_tensor",
    "scatter_tensor", "all_to_all", "all_to_all_single", "all_to_all_v_c", "send", "recv", "isend", "irecv", "P2POp",
    "batch_isend_irecv", "all_gather_object", "broadcast_object_list", "gather_object", "scatter_object_list",
    "send_object_list", "recv_object_list", "set_comm_ops_inplace"]
