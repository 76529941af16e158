"""The parallel optimizer: ``AutoParallel.hsdp`` and ``set_auto_parallel_context(enable_parallel_optimizer=True)``.

Contract:
    * In SEMI_AUTO_PARALLEL or AUTO_PARALLEL (one SPMD program over every device), each weight an
      optimizer updates is laid out split along its first dimension over its shard group, and so
      are its optimizer slots (Momentum's ``moments``, Adam's ``moment1``/``moment2``, ...): each
      device holds ``1/shard_size`` of them and updates its slice (every ``optimizer_level``).
    * In the program, the Cell that owns a split weight all-gathers it before use (its forward
      sees the whole weight), and the weight's gradient is laid out by ``optimizer_level``, as
      MindSpore's: ``level1`` whole on every device (an all-reduce; each device then updates its
      slice), ``level2`` and ``level3`` split like the weight (a reduce-scatter: each device
      receives only the sum of its slice). ``level3`` also gathers the weight again in the backward
      pass, as MindSpore's, so the forward's gathered copy is not held until the backward: the
      owning Cell runs as ``Cell.recompute()`` (its residuals are its inputs and the split
      weight), and its recomputation in the backward gathers the weight anew. The re-gather is
      tied to the backward's values so that no compiler merges it with the forward's.
    * Left replicated: weights smaller than ``threshold`` KB (``shape[0] * ... * itemsize``),
      ``Parameter(parallel_optimizer=False)``, weights whose first dimension the group size does
      not divide, and weights a strategy or AutoParallel's search already laid out.
    * ``shard_size`` (``-1``: every device) groups consecutive devices, MindSpore's
      ``optimizer_weight_shard_size``: the weight is split within each group and repeated across
      groups; it must divide the device count.
    * The layouts are placed once, before the training step first compiles; the compiled steps
      keep them (``sporax.state.program``), and the results equal the unsharded run.
    * DATA_PARALLEL across processes (one program per rank) keeps every state whole: a warning says so.

Example:
    >>> from sporax.parallel.optimizer_shard import check_config
    >>> check_config(-1, 64, "level1")
    (-1, 64, 'level1')
"""
import functools
import threading
import warnings

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec

from sporax.core import context
from sporax.core.parameter import ParameterTuple
from sporax.core.tensor import Tensor
from sporax.nn.recompute import _UnhookedBody
from sporax.parallel import strategy as strategies

LEVELS = ("level1", "level2", "level3")


def check_config(shard_size, threshold, optimizer_level, owner="AutoParallel.hsdp"):
    """MindSpore's checks of the parallel optimizer settings; returns them."""
    if isinstance(shard_size, bool) or not isinstance(shard_size, int) or (shard_size <= 0 and shard_size != -1):
        raise ValueError(f"For '{owner}', shard_size must be a positive integer or -1, but got {shard_size!r}.")
    if isinstance(threshold, bool) or not isinstance(threshold, int) or threshold < 0:
        raise ValueError(f"For '{owner}', threshold must be a positive integer or 0 (KB), but got {threshold!r}.")
    if optimizer_level not in LEVELS:
        raise ValueError(f"For '{owner}', optimizer_level should be in {list(LEVELS)}, but got {optimizer_level!r}.")
    return shard_size, threshold, optimizer_level


def context_config():
    """``(shard_size, threshold, optimizer_level)`` from ``set_auto_parallel_context``'s settings."""
    config = dict(context._auto_parallel.get("parallel_optimizer_config") or {})  # set-only key: no getter
    shard_size = config.get("optimizer_weight_shard_size",
                            context.get_auto_parallel_context("optimizer_weight_shard_size"))
    return check_config(shard_size, config.get("parallel_optimizer_threshold", 64),
                        config.get("optimizer_level", "level1"), owner="parallel_optimizer_config")


def optimizer_slots(network, weights):
    """``{weight name: [its optimizer slots]}``: the Parameters named ``<prefix>.<weight name>`` of the weight's shape
    (``moments.fc.weight``, ``moment1.fc.weight`` ...)."""
    slots = {}
    for param in network.get_parameters():
        prefix, _, rest = param.name.partition(".")
        if prefix and rest in weights and param is not weights[rest] and tuple(param.shape) == tuple(
                weights[rest].shape):
            slots.setdefault(rest, []).append(param)
    return slots


def trained_weights(network):
    """The Parameters an optimizer inside ``network`` updates (a training step's ``weights``), by name."""
    from sporax.nn.optim import Optimizer

    found = {}
    optimizers = [cell for _, cell in network.cells_and_names() if isinstance(cell, Optimizer)]
    for optimizer in optimizers:
        for param in optimizer.parameters:
            found[param.name] = param
    return found


def group_axes(mesh, shard_size):
    """The trailing axes of the strategy mesh that span ``shard_size`` consecutive devices."""
    names, sizes = list(mesh.axis_names), list(mesh.devices.shape)
    total = int(np.prod(sizes))
    if shard_size == -1 or shard_size == total:
        return tuple(names)
    chosen, product = [], 1
    while names and product < shard_size:
        chosen.insert(0, names.pop())
        product *= sizes.pop()
    if product != shard_size:
        factors = list(mesh.devices.shape)
        allowed = ", ".join(str(int(np.prod(factors[index:]))) for index in range(len(factors) - 1, -1, -1))
        raise ValueError(f"The parallel optimizer's shard_size (optimizer_weight_shard_size) {shard_size} must "
                         f"divide the {total} devices into groups of consecutive devices: sporax forms them from "
                         f"the trailing prime factors {factors} of {total}, so use a product of "
                         f"those ({allowed}) "
                         "or -1 for all devices.")
    return tuple(chosen)


def _already_laid_out(param):
    sharding = getattr(param._value, "sharding", None)
    return "_sporax_strategy" in param.__dict__ or (
        sharding is not None and len(sharding.device_set) > 1 and not sharding.is_fully_replicated)


def shard_optimizer(network, shard_size=-1, threshold=64, optimizer_level="level1"):
    """Lay out the optimizer-updated weights of ``network`` and their slots (see the module doc).

    Returns ``{weight name: PartitionSpec}`` of the weights it split.
    """
    check_config(shard_size, threshold, optimizer_level)
    count = strategies.device_count()
    if count == 1:
        return {}
    if shard_size > count:
        raise ValueError(f"The parallel optimizer's shard_size {shard_size} is larger than the {count} devices of "
                         f"this run; give a value in (0, {count}] or -1.")
    mesh = strategies.strategy_mesh(count)
    axes = group_axes(mesh, shard_size)
    group = int(np.prod([mesh.shape[name] for name in axes]))
    weights = trained_weights(network)
    slots = optimizer_slots(network, weights)
    planned = {}
    for name, param in weights.items():
        if _already_laid_out(param):
            continue
        size = int(np.prod(param.shape, dtype=np.int64)) * np.dtype(param._value.dtype).itemsize
        split = bool(param.shape) and size >= threshold * 1024 and param.param_info.parallel_optimizer and \
            param.shape[0] % group == 0
        spec = PartitionSpec(axes if len(axes) > 1 else axes[0], *([None] * (len(param.shape) - 1))) if split \
            else PartitionSpec()
        # Replicated ones are placed on every device too, so that the compiled steps keep them whole
        # rather than taking the split XLA propagates from their neighbours.
        sharding = NamedSharding(mesh, spec)
        for placed in [param] + slots.get(name, []):
            placed.set_data(Tensor._wrap(jax.device_put(placed._value, sharding)))
        if split:
            planned[name] = spec
    _gather_before_use(network, {id(weights[name]): NamedSharding(mesh, spec) for name, spec in planned.items()},
                       NamedSharding(mesh, PartitionSpec()), optimizer_level)
    return planned


@functools.lru_cache(maxsize=None)
def _gathered(whole, gradient_layout):
    """The identity that lays its value out ``whole`` (an all-gather of a split weight) and its cotangent
    as ``gradient_layout`` (whole: an all-reduce of the gradient; split: a reduce-scatter)."""

    @jax.custom_vjp
    def gather(value):
        return jax.lax.with_sharding_constraint(value, whole)

    def backward(_, cotangent):
        return (jax.lax.with_sharding_constraint(cotangent, gradient_layout),)

    gather.defvjp(lambda value: (gather(value), None), backward)
    return gather


class _Reads(threading.local):
    def __init__(self):
        self.stack = []  # per hooked Cell call: [(Parameter, its bound value, the gathered value)]


_reads = _Reads()


def _gather_before_use(network, split, whole, level):
    """Hook the Cells owning a split weight: while one runs inside a trace, the weight reads as ``_gathered``."""
    for _, cell in network.cells_and_names():
        # The Cell that holds the weight as its own attribute (not a ParameterTuple of an optimizer or a
        # training wrapper, whose reads must see the split weight).
        listed = {id(param) for value in cell.__dict__.values() if isinstance(value, ParameterTuple)
                  for param in value}
        owned = [param for param in cell.__dict__["_params"].values() if id(param) in split and id(param) not in listed]
        if not owned:
            continue
        layouts = [(param, _gathered(whole, whole if level == "level1" else split[id(param)])) for param in owned]
        if level == "level3":
            # The recomputed body gathers the weights itself (in the forward, and anew in the backward).
            cell.__dict__["_sporax_recompute_body"] = _Regathered(
                cell, [(param, gather, split[id(param)]) for param, gather in layouts])
            cell.recompute()
            layouts = []
        if "_sporax_gather_hooks" not in cell.__dict__:
            cell.register_forward_pre_hook(_before_use)
            cell.register_forward_hook(_after_use)
        cell.__dict__["_sporax_gather_hooks"] = layouts


class _Regathered(_UnhookedBody):
    """``level3``: the owning Cell's body, run by ``Cell.recompute()``, with its split weights gathered inside it.

    ``recompute`` keeps the body's inputs (the split weights among them) for the backward pass and runs the
    body again there; each run gathers the weights, so the gathered copies live within one pass only.
    ``recompute`` ties the recomputation's floating inputs to the backward's cotangent; the gathers are
    tied to the first floating input too (``w + 0 * x[0]``, exact for finite values), which keeps the
    backward's all-gather after the backward has begun rather than merged into the forward's.
    """

    __slots__ = ("layouts",)

    def __init__(self, cell, layouts):
        super().__init__(cell)
        self.layouts = layouts

    def __call__(self, *args, **kwargs):
        from sporax.state import world

        swapped = []
        if not world.in_world_trace():
            tie = _tie_of(args)
            for param, gather, layout in self.layouts:
                bound = value = param._array
                if isinstance(bound, jax.core.Tracer):
                    if tie is not None:
                        # Added while split: else the partitioner gathers the untied weight, then adds.
                        value = jax.lax.with_sharding_constraint(bound + tie.astype(bound.dtype), layout)
                    param._array = gather(value)
                    swapped.append((param, bound, param._array))
        try:
            return super().__call__(*args, **kwargs)
        finally:
            for param, bound, gathered in swapped:
                if param._array is gathered:  # not rebound by the Cell itself
                    param._array = bound


def _tie_of(args):
    """``0 * x[0]`` of the first floating Tensor argument (None when there is none)."""
    for value in args:
        array = getattr(value, "_value", None) if isinstance(value, Tensor) else None
        if array is not None and jnp.issubdtype(array.dtype, jnp.inexact) and array.size:
            return jnp.zeros((), array.dtype) * array.reshape(-1)[0]
    return None


def _before_use(cell, args):
    from sporax.state import world

    swapped = []
    if not world.in_world_trace():  # the per-rank view of a job holds no split weight
        for param, gather in cell.__dict__["_sporax_gather_hooks"]:
            bound = param._array
            if isinstance(bound, jax.core.Tracer):
                param._array = gather(bound)
                swapped.append((param, bound, param._array))
    _reads.stack.append(swapped)


def _after_use(cell, args, output):
    for param, bound, gathered in _reads.stack.pop():
        if param._array is gathered:  # not rebound by the Cell itself
            param._array = bound


def shard_for_context(cell):
    """``enable_parallel_optimizer=True``: before a top-level Cell's first program compiles, shard its optimizer
    (once per Cell)."""
    if not context.get_auto_parallel_context("enable_parallel_optimizer") or \
            getattr(cell, "_sporax_optimizer_sharded", False):
        return
    cell.__dict__["_sporax_optimizer_sharded"] = True
    if not strategies.sharding_mode():
        if context.get_auto_parallel_context("parallel_mode") == context.ParallelMode.DATA_PARALLEL and \
                jax.process_count() > 1 and trained_weights(cell):
            warnings.warn("enable_parallel_optimizer=True in data_parallel across processes: sporax keeps every "
                          "weight and optimizer state whole on each process (one program per rank). Use "
                          "parallel_mode='semi_auto_parallel' (or AutoParallel(...).hsdp()) to shard them.",
                          stacklevel=3)
        return
    shard_optimizer(cell, *context_config())
