"""Collective communication on JAX's multi-process runtime: the engine under ``ops.AllReduce`` & co.

Contract:
    * Every function takes this process's array (a ``jax.Array`` or a tracer) and returns this
      process's result, with MindSpore's semantics: ``all_gather`` concatenates along axis 0 in
      group-rank order, ``reduce_scatter`` reduces then keeps this rank's block of axis 0,
      ``all_to_all`` splits ``split_dim`` into one block per member and concatenates the received
      blocks along ``concat_dim``.
    * A group of one member (including the world of a process that never called ``init``)
      returns the input: no communication happens.
    * Gradients follow MindSpore's bprops: AllReduce(sum) -> AllReduce(sum) of the cotangent
      (max/min: masked where the input won, prod: ``allreduce(dout*out)/x``), AllGather ->
      ReduceScatter(sum), ReduceScatter(sum) -> AllGather, Broadcast -> the cotangent,
      AlltoAll -> the inverse AlltoAll, a point-to-point exchange -> the reverse exchange.

Algorithm: a group of n processes is a 1-D mesh ``("group",)`` of one device per member. The
per-process arrays become one global array of shape ``(n, *shape)`` with
``jax.make_array_from_single_device_arrays``; a cached, jitted ``shard_map`` over the mesh runs
the ``lax`` collective (``psum``, ``all_gather``, ``psum_scatter``, ``all_to_all``,
``ppermute``), and the process reads back its own shard. On CPU, XLA executes these with gloo.
Inside a sporax trace (GRAPH mode, ``ms.jit``, ``ms.grad``) the program becomes one SPMD program
over the world mesh (``sporax.state.world``) and the collective is the ``lax`` collective over
its ``"world"`` axis (``_world_body``), in trace order after the previous one. Only inside a
trace sporax does not own (a user's own ``jax.jit``) does the eager collective run as an
``io_callback``. A ``custom_vjp`` gives the gradients above. Every member must call the same
collectives in the same order, as with MindSpore.

Example:
    >>> import jax.numpy as jnp
    >>> from sporax.parallel import collectives
    >>> collectives.all_reduce(jnp.ones(2), "sum", "hccl_world_group").tolist()  # a world of one
    [1.0, 1.0]
"""
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental import io_callback
from jax.sharding import Mesh, NamedSharding, PartitionSpec

from sporax.parallel import communication
from sporax.state import world

_AXIS = "group"


class ReduceOp:
    """The reductions of collective operations: ``SUM``, ``MAX``, ``MIN``, ``PROD``, ``AVG``."""

    SUM = "sum"
    MAX = "max"
    MIN = "min"
    PROD = "prod"
    AVG = "avg"


_REDUCE_OPS = (ReduceOp.SUM, ReduceOp.MAX, ReduceOp.MIN, ReduceOp.PROD, ReduceOp.AVG)


def check_reduce_op(function, op):
    """``op`` as MindSpore's lower-case ReduceOp value, or a ValueError naming ``function``."""
    if not isinstance(op, str) or op.lower() not in _REDUCE_OPS:
        raise ValueError(f"For '{function}', the argument 'op' must be one of ReduceOp.SUM, MAX, MIN, PROD, AVG "
                         f"('sum', 'max', 'min', 'prod', 'avg'), but got {op!r}.")
    return op.lower()


def members_of(function, group):
    """The world ranks of ``group``, checking that this process belongs to it."""
    if not isinstance(group, str):
        raise TypeError(f"For '{function}', the argument 'group' must be type of string, but got {type(group)}.")
    members = communication.group_ranks(group)
    if communication.GlobalComm.INITED and communication._World.rank not in members:
        raise ValueError(f"For '{function}', this process (world rank {communication._World.rank}) is not a "
                         f"member of group '{group}' (members {list(members)}).")
    return members


@functools.lru_cache(maxsize=None)
def _mesh(members):
    first_device = {}
    for device in jax.devices():
        first_device.setdefault(device.process_index, device)
    return Mesh(np.array([first_device[rank] for rank in members]), (_AXIS,))


def _block_body(kind, size, params):
    """The per-member function of ``kind`` on a ``(1, *shape)`` block."""
    if kind == "all_reduce":
        op = params[0]
        if op == "sum":
            return lambda block: lax.psum(block, _AXIS)
        if op == "avg":
            return lambda block: lax.psum(block, _AXIS) / size
        if op == "max":
            return lambda block: lax.pmax(block, _AXIS)
        if op == "min":
            return lambda block: lax.pmin(block, _AXIS)
        return lambda block: jnp.prod(lax.all_gather(block, _AXIS), axis=0).astype(block.dtype)
    if kind == "all_gather":
        return lambda block: lax.all_gather(block[0], _AXIS, axis=0, tiled=True)[None]
    if kind == "reduce_scatter":
        op = params[0]
        if op == "sum":
            return lambda block: lax.psum_scatter(block[0], _AXIS, scatter_dimension=0, tiled=True)[None]

        def reduce_then_scatter(block):
            reduced = _block_body("all_reduce", size, params)(block)[0]
            chunk = reduced.shape[0] // size
            return lax.dynamic_slice_in_dim(reduced, lax.axis_index(_AXIS) * chunk, chunk)[None]
        return reduce_then_scatter
    if kind == "broadcast":
        root = params[0]
        return lambda block: lax.all_gather(block, _AXIS)[root]
    if kind == "all_to_all":
        split_dim, concat_dim = params
        return lambda block: lax.all_to_all(block[0], _AXIS, split_dim, concat_dim, tiled=True)[None]
    if kind == "permute":
        return lambda block: lax.ppermute(block, _AXIS, perm=params)
    raise AssertionError(kind)


@functools.lru_cache(maxsize=None)
def _program(kind, members, params):
    mesh = _mesh(members)
    spec = PartitionSpec(_AXIS)
    body = _block_body(kind, len(members), params)
    return jax.jit(jax.shard_map(body, mesh=mesh, in_specs=spec, out_specs=spec))


def _eager(kind, value, members, params):
    """Run the collective now on this process's concrete ``value``."""
    mesh = _mesh(members)
    device = mesh.devices[members.index(communication._World.rank)]
    local = jax.device_put(jnp.asarray(value)[None], device)
    global_array = jax.make_array_from_single_device_arrays(
        (len(members),) + local.shape[1:], NamedSharding(mesh, PartitionSpec(_AXIS)), [local])
    result = _program(kind, members, params)(global_array)
    return result.addressable_shards[0].data[0]


# Above about 4 MiB one all-reduce of XLA's gloo CPU collectives gets about 10x slower (measured, jaxlib
# 0.10.2, 2 processes: DistributedGradReducer's 7.4 MB of fused gradients took 0.5 s a step; in
# pieces of 4 MiB, 30 ms), so on CPU a large sum goes in pieces of that size.
_CPU_ALL_REDUCE_BYTES = 1 << 22


def _world_sum(value):
    """``psum`` over the world axis; on CPU a value over ``_CPU_ALL_REDUCE_BYTES`` in pieces of that size."""
    size = value.size * value.dtype.itemsize
    if size <= _CPU_ALL_REDUCE_BYTES or world.world_mesh(world.world_size()).devices.flat[0].platform != "cpu":
        return lax.psum(value, world.AXIS)
    flat = value.reshape(-1)
    step = max(1, _CPU_ALL_REDUCE_BYTES // value.dtype.itemsize)
    pieces = [lax.psum(flat[start:start + step], world.AXIS) for start in range(0, flat.size, step)]
    return jnp.concatenate(pieces).reshape(value.shape)


def _world_body(kind, members, params, value):
    """``kind`` as XLA collectives over the world axis, inside the per-rank view of a world program.

    The world in rank order uses the collective itself; a created group (a subset, or another
    order) gathers the world's values and combines its members' rows, so that every process's
    program holds the same collectives.
    """
    size = world.world_size()
    if members == tuple(range(size)):
        if kind == "all_reduce":
            op = params[0]
            if op in ("sum", "avg"):
                total = _world_sum(value)
                return total / size if op == "avg" else total
            if op in ("max", "min"):
                return (lax.pmax if op == "max" else lax.pmin)(value, world.AXIS)
        elif kind == "all_gather":
            return lax.all_gather(value, world.AXIS, axis=0, tiled=True)
        elif kind == "reduce_scatter" and params[0] == "sum":
            return lax.psum_scatter(value, world.AXIS, scatter_dimension=0, tiled=True)
        elif kind == "broadcast":
            # One all-reduce of the root's value (zeros elsewhere) instead of gathering every value.
            mine = lax.axis_index(world.AXIS) == params[0]
            return lax.psum(jnp.where(mine, value, jnp.zeros_like(value)), world.AXIS)
        elif kind == "all_to_all":
            split_dim, concat_dim = params
            return lax.all_to_all(value, world.AXIS, split_dim, concat_dim, tiled=True)
    if kind == "permute":
        return lax.ppermute(value, world.AXIS, perm=[(members[source], members[target])
                                                     for source, target in params])
    rows = lax.all_gather(value, world.AXIS)[np.array(members)]  # (group size, *shape)
    me = members.index(communication._World.rank)
    count = len(members)
    if kind == "all_reduce":
        op = params[0]
        reduced = {"sum": jnp.sum, "avg": jnp.sum, "max": jnp.max, "min": jnp.min, "prod": jnp.prod}[op](rows, axis=0)
        return (reduced / count if op == "avg" else reduced).astype(value.dtype)
    if kind == "all_gather":
        return rows.reshape((count * value.shape[0],) + value.shape[1:])
    if kind == "reduce_scatter":
        reduced = _world_body("all_reduce", members, params, value)
        chunk = value.shape[0] // count
        return reduced[me * chunk:(me + 1) * chunk]
    if kind == "broadcast":
        return rows[params[0]]
    if kind == "all_to_all":
        split_dim, concat_dim = params
        chunk = value.shape[split_dim] // count
        return jnp.concatenate([lax.slice_in_dim(rows[member], me * chunk, (me + 1) * chunk, axis=split_dim)
                                for member in range(count)], axis=concat_dim)
    raise AssertionError(kind)


def _run(kind, value, members, params, out_shape):
    if world.in_world_trace():
        return _world_body(kind, members, params, value)
    if isinstance(value, jax.core.Tracer):
        world.request_world_program()
        def on_host(concrete):
            return np.asarray(_eager(kind, concrete, members, params))
        return io_callback(on_host, jax.ShapeDtypeStruct(out_shape, value.dtype), value, ordered=False)
    return _eager(kind, value, members, params)


def _cotangent_rule(kind, members, params):
    """bprop of ``kind``: (x, out, dout) -> dx."""
    if kind == "all_reduce":
        op = params[0]
        sum_back = functools.partial(_collective, "all_reduce", members=members, params=("sum",))
        if op == "sum":
            return lambda x, out, dout: sum_back(dout)
        if op == "avg":
            return lambda x, out, dout: sum_back(dout) / len(members)
        if op == "prod":
            return lambda x, out, dout: sum_back(dout * out) / x
        return lambda x, out, dout: sum_back(dout) * (x == out).astype(dout.dtype)
    if kind == "all_gather":
        return lambda x, out, dout: _collective("reduce_scatter", dout, members, ("sum",))
    if kind == "reduce_scatter":
        if params[0] != "sum":
            def refuse(x, out, dout):
                raise RuntimeError("The reducescatter bprop only support ReduceOp.SUM until now.")
            return refuse
        return lambda x, out, dout: _collective("all_gather", dout, members, ())
    if kind == "broadcast":
        return lambda x, out, dout: dout
    if kind == "all_to_all":
        split_dim, concat_dim = params
        return lambda x, out, dout: _collective("all_to_all", dout, members, (concat_dim, split_dim))
    if kind == "permute":
        reverse = tuple((target, source) for source, target in params)
        return lambda x, out, dout: _collective("permute", dout, members, reverse)
    raise AssertionError(kind)


def _output_shape(kind, shape, size, params):
    shape = tuple(shape)
    if kind == "all_gather":
        return (shape[0] * size,) + shape[1:]
    if kind == "reduce_scatter":
        return (shape[0] // size,) + shape[1:]
    if kind == "all_to_all":
        split_dim, concat_dim = params
        out = list(shape)
        out[split_dim] //= size
        out[concat_dim] *= size
        return tuple(out)
    return shape


@functools.lru_cache(maxsize=None)
def _differentiable(kind, members, params, shape):
    out_shape = _output_shape(kind, shape, len(members), params)

    @jax.custom_vjp
    def collective(value):
        return _run(kind, value, members, params, out_shape)

    def forward(value):
        out = collective(value)
        return out, (value, out)

    def backward(residuals, dout):
        value, out = residuals
        return (_cotangent_rule(kind, members, params)(value, out, dout),)

    collective.defvjp(forward, backward)
    return collective


def _collective(kind, value, members, params):
    if len(members) == 1:
        return value
    value = world.after(value, world.previous_collective())
    result = _differentiable(kind, members, params, tuple(value.shape))(value)
    world.keep_alive((result,))
    return result


def all_reduce(value, op, group):
    """Reduce ``value`` over ``group`` with ``op`` ('sum', 'max', 'min', 'prod', 'avg')."""
    op = check_reduce_op("AllReduce", op)
    return _collective("all_reduce", value, members_of("AllReduce", group), (op,))


def all_gather(value, group):
    """Concatenate every member's ``value`` along axis 0, in group-rank order."""
    if value.ndim == 0:
        raise ValueError("For 'AllGather', the input must have at least one dimension, but got a scalar.")
    return _collective("all_gather", value, members_of("AllGather", group), ())


def reduce_scatter(value, op, group):
    """Reduce over ``group``, then keep this member's block of axis 0."""
    op = check_reduce_op("ReduceScatter", op)
    members = members_of("ReduceScatter", group)
    if value.ndim == 0 or value.shape[0] % len(members):
        raise ValueError(f"For 'ReduceScatter', the first dimension of the input ({value.shape}) must be divisible "
                         f"by the group size {len(members)}.")
    return _collective("reduce_scatter", value, members, (op,))


def broadcast(value, root, group):
    """Every member receives the ``value`` of group rank ``root``."""
    members = members_of("Broadcast", group)
    if isinstance(root, bool) or not isinstance(root, int) or not 0 <= root < len(members):
        raise ValueError(f"For 'Broadcast', the root rank must be an int in [0, {len(members)}), but got {root!r}.")
    return _collective("broadcast", value, members, (root,))


def all_to_all(value, split_count, split_dim, concat_dim, group):
    """Split ``split_dim`` into one block per member, exchange, concatenate along ``concat_dim``."""
    members = members_of("AlltoAll", group)
    ndim = value.ndim
    for name, axis in (("split_dim", split_dim), ("concat_dim", concat_dim)):
        if not -ndim <= axis < ndim:
            raise ValueError(f"For 'AlltoAll', '{name}' must be in [{-ndim}, {ndim}), but got {axis}.")
    split_dim, concat_dim = split_dim % ndim, concat_dim % ndim
    if split_count != len(members):
        raise ValueError(f"For 'AlltoAll', 'split_count' must equal the group size {len(members)}, "
                         f"but got {split_count}.")
    if value.shape[split_dim] % split_count:
        raise ValueError(f"For 'AlltoAll', the input's dimension {split_dim} ({value.shape[split_dim]}) must be "
                         f"divisible by split_count {split_count}.")
    return _collective("all_to_all", value, members, (split_dim, concat_dim))


def exchange(value, source, target, group):
    """Send ``value`` from group rank ``source`` to ``target``; ``target`` gets it, ``source`` gets zeros.

    Both processes call it (the receiver with a buffer of the right shape and dtype).
    """
    members = members_of("send/recv", group)
    size = len(members)
    for name, rank in (("source", source), ("destination", target)):
        if isinstance(rank, bool) or not isinstance(rank, int) or not 0 <= rank < size:
            raise ValueError(f"For 'send/recv', the {name} rank must be an int in [0, {size}), but got {rank!r}.")
    if source == target:
        raise ValueError(f"For 'send/recv', a process can not send to itself (rank {source}).")
    pair = (members[source], members[target])
    return _collective("permute", value, pair, ((0, 1),))


def barrier(group):
    """Return once every member of ``group`` reached the barrier."""
    members = members_of("barrier", group)
    if len(members) > 1:
        _eager("all_reduce", jnp.zeros((), jnp.int32), members, ("sum",)).block_until_ready()
