"""The compiled step across processes as ONE SPMD program over the world mesh (``sporax.state``'s half).

Contract:
    * In a job of several processes (``init()`` done), a compiled sporax program (GRAPH mode
      Cell, ``ms.jit``, ``ms.grad``'s compiled path, dataset sink) whose trace reaches a
      collective is traced again as MindSpore's per-rank view: a ``shard_map`` over a 1-D mesh
      ``("world",)`` of one device per process (in rank order). Every input (Parameters, optimizer
      state, the batch) is this process's own value; every output is this process's own result.
      The collectives (``AllReduce`` & co., ``DistributedGradReducer``, point-to-point plans) are
      XLA collectives inside that program (gloo on CPU, NCCL on GPU): no host callback, and
      dispatch stays asynchronous.
    * Programs that reach no collective are compiled for this process alone, as in one process.
    * Before compiling, the processes compare the collectives their traces contain (kind, axis,
      shapes, in order) through JAX's coordination service. If they differ (rank-dependent Python
      around a collective), the program runs eagerly on every process instead, with a warning:
      still correct. A process whose peers never compile the program waits for them at most
      5 minutes, then raises an error naming the cause.

``sporax.parallel.communication.init`` tells this module the job's size and rank (``join``); the
collectives (``sporax.parallel.collectives``) emit XLA collectives over ``AXIS`` in a world trace.

Algorithm: the first (local) trace of a program raises ``NeedsWorldProgram`` at its first
collective; ``build_program`` (``sporax.state.program``) catches it and traces ``per_rank(flat)``
instead. A local value of shape ``(d0, d1, ...)`` is the block of this process in a global
array ``(n * d0, d1, ...)`` sharded on axis 0 over the world mesh (a scalar: ``(n,)``), so
making the global array wraps the local buffer without a copy, and reading a result back takes
this process's shard.

Example:
    >>> from sporax.state import world
    >>> world.in_world_trace()
    False
"""
import contextlib
import functools
import json
import threading

import jax
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec

from sporax.state.fallback import ExplainedFallback

AXIS = "world"


class _Job:
    """This process's place in a job of several processes (set by ``sporax.parallel.communication.init``)."""

    size = 1
    rank = 0
    exchange_strings = None  # (key, text, purpose) -> every process's text, in rank order


def join(size, rank, exchange_strings):
    """Record that this process is rank ``rank`` of ``size`` (called by ``communication.init``)."""
    _Job.size, _Job.rank, _Job.exchange_strings = size, rank, exchange_strings
    world_mesh.cache_clear()


def leave():
    """Back to a world of one (``communication.release``)."""
    join(1, 0, None)


class NeedsWorldProgram(Exception):
    """Raised in a local trace by a collective: the program must be traced as the per-rank SPMD view."""

    def __init__(self):
        super().__init__("a collective across processes needs the per-rank SPMD program")


class _TraceState(threading.local):
    def __init__(self):
        self.world = False
        self.kept = []  # collective results of the world trace, kept alive as an extra output
        self.last = None  # the result of the last collective traced (the next one is ordered after it)


_trace = _TraceState()


def world_size():
    """The number of processes of the job (1 before ``init``)."""
    return _Job.size


class DivergentPrograms(ExplainedFallback):
    """The processes traced different collectives into one program: it runs eagerly instead."""

    def __init__(self, name):
        super().__init__(
            f"The processes of this job traced different collectives into {name} (Python that depends on the "
            f"rank, such as `if get_rank() == 0:` around a collective, or different shapes per rank), so it can "
            f"not be one program across processes: each collective runs on its own instead. Make every rank "
            f"run the same collectives with the same shapes to compile it.")


def in_world_trace():
    """Whether the trace now running is the per-rank view of a world program."""
    return _trace.world


def request_world_program():
    """Called by a collective inside a trace: stop a sporax program's local trace so it is traced per rank.

    Returns quietly (the caller keeps its host-callback path) in a trace sporax does not own
    (a user's own ``jax.jit``).
    """
    from sporax.state.scope import is_tracing

    if not _trace.world and world_size() > 1 and is_tracing():
        raise NeedsWorldProgram()


@contextlib.contextmanager
def world_trace():
    """Mark the trace run inside as the per-rank view (collectives emit XLA collectives over ``AXIS``)."""
    previous, kept, last = _trace.world, _trace.kept, _trace.last
    _trace.world, _trace.kept, _trace.last = True, [], None
    try:
        yield _trace.kept
    finally:
        _trace.world, _trace.kept, _trace.last = previous, kept, last


def keep_alive(values):
    """Keep the collectives that produced ``values`` in the program even where this rank ignores them.

    A rank that only sends, or drops a Broadcast's result, would otherwise have its collective
    removed as dead code while its peers wait for it in theirs.
    """
    if _trace.world:
        traced = [value for value in values if isinstance(value, jax.core.Tracer)]
        _trace.kept.extend(traced)
        if traced:
            _trace.last = traced[-1]


def previous_collective():
    """In a world trace: a value that depends on the last collective traced in the trace now running, or None.

    The processes' programs can differ around their collectives (a sender's and a receiver's), so
    XLA could schedule independent collectives in different orders on different processes, and
    they would wait for each other. A collective made to depend on this value (``after``) runs
    after the previous one everywhere: program order is trace order.
    """
    last = _trace.last
    if not _trace.world or last is None:
        return None
    if getattr(last, "_trace", None) is not getattr(jax.lax.axis_index(AXIS), "_trace", None):
        return None  # traced in another (inner or finished) trace: no order to impose from here
    return last.reshape(-1)[:1]


def after(value, previous):
    """``value``, computed only once ``previous`` exists (an ``optimization_barrier``)."""
    if previous is None:
        return value
    value, ordered_after = jax.lax.optimization_barrier((value, previous))
    keep_alive((ordered_after,))  # used, so that the barrier's dependency is not pruned
    return value


def _alive_output(kept):
    """One element of each kept collective result of this trace (not of an inner loop body), as one vector."""
    here = getattr(jax.lax.axis_index(AXIS), "_trace", None)
    pieces = [value.reshape(-1)[:1].astype(np.float32) for value in kept
              if getattr(value, "_trace", None) is here and value.size]
    return jax.numpy.concatenate(pieces) if pieces else jax.numpy.zeros((1,), np.float32)


@functools.lru_cache(maxsize=None)
def world_mesh(size):
    """The 1-D mesh ``("world",)``: the first device of each process, in rank (process index) order."""
    first_device = {}
    for device in jax.devices():
        first_device.setdefault(device.process_index, device)
    return Mesh(np.array([first_device[rank] for rank in range(size)]), (AXIS,))


def _sharding():
    return NamedSharding(world_mesh(world_size()), PartitionSpec(AXIS))


def global_shape(shape):
    """The world array's shape for a local value of ``shape`` (see the module's algorithm)."""
    size = world_size()
    return (size * shape[0],) + tuple(shape[1:]) if shape else (size,)


def global_aval(value):
    return jax.ShapeDtypeStruct(global_shape(tuple(np.shape(value))), value.dtype)


def to_global(value):
    """This process's ``value`` as its block of the world array (no copy for an array on this process's device)."""
    sharding = _sharding()
    device = sharding.mesh.devices.flat[_Job.rank]
    if not isinstance(value, jax.Array):
        value = jax.device_put(np.asarray(value), device)
    elif value.sharding.device_set != {device}:
        value = jax.device_put(value, device)
    if value.ndim == 0:
        value = value.reshape(1)
    return jax.make_array_from_single_device_arrays(global_shape(value.shape), sharding, [value])


def from_global(array, scalar):
    """This process's block of a world array (shape ``()`` restored for a ``scalar``)."""
    block = array.addressable_data(0)
    return block.reshape(()) if scalar else block


def per_rank(flat, scalar_inputs, scalar_outputs):
    """``flat(state_values, arrays)`` as a ``shard_map`` over the world mesh, each rank on its own block.

    ``scalar_inputs``: a pytree like ``(state_values, arrays)`` of booleans (local scalars, whose
    blocks are ``(1,)``); ``scalar_outputs`` is filled with the flags of the outputs when traced.
    The function returns ``flat``'s outputs and, last, the kept-alive vector (see ``keep_alive``).
    """
    spec = PartitionSpec(AXIS)

    def body(state_values, arrays):
        unflatten = functools.partial(jax.tree_util.tree_map, lambda value, scalar: value.reshape(()) if scalar
                                      else value)
        state_values, arrays = unflatten((state_values, arrays), scalar_inputs)
        with world_trace() as kept:
            outputs = flat(state_values, arrays)
            alive = _alive_output(kept)
        flags = jax.tree_util.tree_map(lambda value: np.ndim(value) == 0, outputs)
        scalar_outputs.append(flags)
        outputs = jax.tree_util.tree_map(lambda value: jax.numpy.reshape(value, (1,)) if np.ndim(value) == 0
                                         else value, outputs)
        return outputs + (alive,)

    return jax.shard_map(body, mesh=world_mesh(world_size()), in_specs=spec, out_specs=spec, check_vma=False)


# --- global batches: SEMI_AUTO/AUTO_PARALLEL across processes ----------------------------------
_batch_sharding = [None]  # local input arrays -> their global batches' NamedShardings (None: inputs are whole)


def set_batch_sharding(function):
    """Register how a compiled Cell's inputs form global batches (``sporax.parallel.strategy`` does)."""
    _batch_sharding[0] = function


def global_batch(arrays):
    """The inputs of a compiled Cell as global batches, where each process holds a slice (else unchanged).

    In SEMI_AUTO_PARALLEL/AUTO_PARALLEL across processes with ``full_batch=False`` (MindSpore's
    default), each process's input is its part of one global batch, laid out by
    ``dataset_strategy`` (``"data_parallel"``: the first dimension split over every device); the
    program is traced and run on the global arrays (``jax.make_array_from_process_local_data``).
    """
    layout = _batch_sharding[0]
    if layout is None or not arrays:
        return arrays
    placements = layout(arrays)
    if placements is None:
        return arrays
    return [array if sharding is None else jax.make_array_from_process_local_data(sharding, np.asarray(array))
            for array, sharding in zip(arrays, placements)]


# --- a hook before a Cell's first program compiles (AUTO_PARALLEL's search; see sporax.parallel.auto_parallel)
_before_first_compile = [None]


def set_before_first_compile(function):
    """Register ``function(cell, arrays)``, called before a top-level Cell's first compiled program is built."""
    _before_first_compile[0] = function


def before_first_compile(cell, arrays):
    if _before_first_compile[0] is not None:
        _before_first_compile[0](cell, arrays)


_COLLECTIVE_PARAMS = ("axes", "axis_name")


def _collectives_of(jaxpr, found):
    for equation in jaxpr.eqns:
        axes = [equation.params[name] for name in _COLLECTIVE_PARAMS if name in equation.params]
        names = [axis for value in axes for axis in (value if isinstance(value, (tuple, list)) else (value,))]
        if AXIS in names:
            found.append((equation.primitive.name,
                          [str(var.aval) for var in equation.invars],
                          sorted((key, repr(value)) for key, value in equation.params.items()
                                 if not hasattr(value, "eqns") and not hasattr(value, "jaxpr"))))
        for value in equation.params.values():
            for item in value if isinstance(value, (tuple, list)) else (value,):
                inner = getattr(item, "jaxpr", item)
                if hasattr(inner, "eqns"):
                    _collectives_of(inner, found)
    return found


_exchanges = {}  # namespace -> how many exchanges this process made in it


def exchange(namespace, text, purpose):
    """Every process's ``text`` (rank order) for the next exchange of ``namespace`` (while tracing).

    Every process traces the same programs in the same order, so the n-th exchange of a
    namespace pairs up across processes.
    """
    count = _exchanges[namespace] = _exchanges.get(namespace, 0) + 1
    return _Job.exchange_strings(f"{namespace}/{count}", text, purpose)


def processes_agree(closed_jaxpr, name):
    """Whether every process traced the same collectives (kind, operands, order) into program ``name``."""
    fingerprint = json.dumps(_collectives_of(closed_jaxpr.jaxpr, []))
    seen = exchange("world_program", fingerprint, f"compiling {name} as one program across processes")
    return all(other == fingerprint for other in seen)


# --- pipeline stages on their own processes (sporax.parallel.pipeline_stages registers itself) ---
_pipeline = [None]


def set_pipeline(runner):
    """Register the object ``nn.PipelineCell`` asks to run its micro-batches across processes: it has
    ``prepare(network)``, ``active()`` and ``run_micro_batches(cell, network, micro_batches)``."""
    _pipeline[0] = runner


def pipeline():
    """The registered pipeline runner, or None (``sporax.parallel`` not imported)."""
    return _pipeline[0]
