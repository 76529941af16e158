"""Sharding strategies: MindSpore's checks, and their meaning as ``jax.sharding.NamedSharding``.

A strategy is given per tensor, either as a tuple of split counts (``(2, 1)``: rows in two,
columns whole) or as a called ``Layout``. In SEMI_AUTO_PARALLEL and AUTO_PARALLEL a strategy
becomes a sharding constraint (``jax.lax.with_sharding_constraint``) inside the compiled
program; XLA's GSPMD partitioner then slices the computation and inserts the collectives
(all-reduce for a split contraction, all-gather where a replicated value is needed).

Algorithm for tuple strategies on ``n`` devices (MindSpore requires ``prod(s)`` to divide ``n``;
the remaining factor is repeated computation). All tuple strategies share ONE mesh whose axes are
the prime factors of ``n`` (``n = 4`` -> axes ``p0, p1`` of size 2), because JAX expresses the
shardings GSPMD chooses for a program's outputs on a single mesh. A dimension split ``s`` takes
unused axes whose sizes multiply to ``s`` (the prime factors of ``s``, leftmost axes first):

    (2, 1) on 4 devices -> PartitionSpec("p0", None)        (rows halved, repeated over p1)
    (2, 2) on 4 devices -> PartitionSpec("p0", "p1")
    (4, 1) on 4 devices -> PartitionSpec(("p0", "p1"), None)

A Layout maps directly: ``Mesh(devices.reshape(device_matrix), alias_name)`` with the tensor map
as the PartitionSpec.

The devices are the first ``device_num`` of ``jax.devices()`` where ``set_auto_parallel_context``
set ``device_num`` above 1, else all of them. Outside a sporax trace (PyNative) nothing is
constrained: strategies only act in compiled programs, as in MindSpore.

Inputs: one process holding several devices feeds the global batch. Across processes with
MindSpore's default ``full_batch=False``, each process's inputs are its slices of global batches laid
out by ``dataset_strategy`` (``batch_shardings``); ``full_batch=True`` takes every process's inputs
as the whole batch (each process feeds the same).

Example:
    >>> from sporax.parallel.strategy import check_strategy
    >>> check_strategy("MatMul", ((2, 1), (1, 1)), "in_strategy")  # tuples, not Layouts
    False
"""
import functools

import jax
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec

from sporax.core import context
from sporax.core.tensor import Tensor
from sporax.parallel.layout import Layout
from sporax.state import world
from sporax.state.scope import is_tracing

_SHARDING_MODES = (context.ParallelMode.SEMI_AUTO_PARALLEL, context.ParallelMode.AUTO_PARALLEL)


# --- MindSpore's checks of a strategy argument -------------------------------------------------
# The Primitives whose inputs are tuples of Tensors take a tuple of Layouts for such an input (as does
# any Primitive marked ``self_define_shard``: mindformers' multi-token-prediction Concat).
TUPLE_IN_TUPLE_PRIMITIVES = ("GroupedMatmul", "FusedInferAttentionScore", "Custom", "Index")


def check_strategy(owner, strategy, label, tuple_in_tuple=False):
    """Check ``strategy`` as ``Primitive.shard`` does; True for Layouts, False for tuples, None for ``()``.

    With ``tuple_in_tuple`` an item may be a tuple of Layouts (one per Tensor of a tuple input); it
    counts as a Layout item.
    """
    if not isinstance(strategy, tuple):
        raise TypeError(f"{label} must be tuple type, but got:{type(strategy)}")
    if strategy == ():
        return None
    kinds = []
    for item in strategy:
        if not isinstance(item, (tuple, Layout)):
            raise TypeError(f"The element of strategy must be tuple/Layout type, but got:{type(item)}")
        if isinstance(item, tuple):
            for value in item:
                if not isinstance(value, int) and not (tuple_in_tuple and isinstance(value, Layout)):
                    raise TypeError(f"The {label}: {strategy} of {owner} is not valid, the value of strategy "
                                    f"must be int type, but got:{type(value)}")
            kinds.append(bool(item) and all(isinstance(value, Layout) for value in item))
        else:
            kinds.append(True)
    return kinds[0]


def layout_values(strategy, label):
    """The ``in_layout``/``out_layout`` attribute MindSpore records: each Layout's dict without rank_list."""
    if strategy is None:
        return None
    def value_of(item):
        if not isinstance(item, Layout):
            raise TypeError(f"The {label} item should be a object of class Layout.")
        return {key: value for key, value in item.to_dict().items() if key != "rank_list"}

    values = []
    for item in strategy:
        if isinstance(item, tuple):  # a tuple input's Layouts (``check_strategy``'s tuple_in_tuple)
            values.append(tuple(value_of(layout) for layout in item))
        else:
            values.append(value_of(item))
    return tuple(values)


def check_function_strategy(strategy, label, optional=False):
    """Check an ``in_strategy``/``out_strategy`` of ``ms.shard``/``Cell.shard`` (tuples or Layouts, not both)."""
    if strategy is None and optional:
        return
    if not isinstance(strategy, tuple):
        wanted = "None or tuple" if optional else "a tuple"
        raise TypeError(f"For 'Shard', the '{label}' should be {wanted}, but got {type(strategy).__name__}.")
    kinds = set()
    for item in strategy:
        if not isinstance(item, (tuple, Layout)):
            raise TypeError(f"The '{label}' should be a tuple(tuple(int)) or tuple(mindspore.parallel.Layout), "
                            f"but got {type(item).__name__}")
        if isinstance(item, tuple) and not all(isinstance(value, int) for value in item):
            raise TypeError("The tuple strategy for each dimension should be tuple(int).")
        kinds.add(isinstance(item, Layout))
    if len(kinds) != 1:
        raise TypeError("For 'Shard', the strategy can only pass in consistent type for all dimensions.")


# --- when strategies act, and on which devices -------------------------------------------------
def device_count():
    """The number of devices strategies are laid over (``device_num`` when set above 1, else all)."""
    configured = context.get_auto_parallel_context("device_num")
    available = jax.device_count()
    if configured > available:
        raise RuntimeError(f"set_auto_parallel_context(device_num={configured}) asks for {configured} devices but "
                           f"this run sees {available}. On CPU, start Python with XLA_FLAGS="
                           f"--xla_force_host_platform_device_count={configured} (JAX reads it once, before the "
                           "first computation), or launch that many processes with sporax launch / msrun.")
    return configured if configured > 1 else available


def batch_shardings(arrays):
    """How the inputs of a compiled Cell (local ``arrays``) form global batches, or None when they are whole.

    Only across processes in SEMI_AUTO/AUTO_PARALLEL with ``full_batch=False``: ``dataset_strategy``
    ``"data_parallel"`` splits each input's first dimension over every device (a scalar stays
    whole); a tuple strategy gives one split per dimension of each input, in order.
    """
    if not sharding_mode() or context.get_auto_parallel_context("full_batch") or jax.process_count() == 1:
        return None
    if context.get_auto_parallel_context("pipeline_stages") > 1:
        return None  # one process per stage (sporax.parallel.pipeline_stages): each feeds the whole batch
    shapes = [tuple(np.shape(array)) for array in arrays]
    count = device_count()
    strategy = context.get_auto_parallel_context("dataset_strategy")
    if isinstance(strategy, str):
        return [_batch_sharding((count,) + (1,) * (len(shape) - 1), shape, count) if shape else None
                for shape in shapes]
    if len(strategy) != len(shapes):
        raise ValueError(f"set_auto_parallel_context(dataset_strategy={strategy}) gives {len(strategy)} input "
                         f"strategies, but the network is called with {len(shapes)} inputs: give one tuple per input.")
    return [_batch_sharding(tuple(columns), shape, count) for columns, shape in zip(strategy, shapes)]


def _batch_sharding(columns, shape, count):
    return tuple_sharding("dataset_strategy", columns, _global_extent(columns, shape), count)


def _global_extent(columns, shape):
    """The global shape of an input of local ``shape`` split by ``columns``: a dimension whose split spans
    several processes is that many local slices long."""
    processes = jax.process_count()
    extent, remaining = list(shape), processes
    for index, split in enumerate(columns):
        across = int(np.gcd(split, remaining))  # how many processes this dimension's split spans
        extent[index] *= across
        remaining //= across
    return tuple(extent)


world.set_batch_sharding(batch_shardings)


def _search_before_first_compile(cell, arrays):
    """AUTO_PARALLEL's search (``sporax.parallel.auto_parallel``, imported here late: it needs ``nn``), then the
    parallel optimizer's layouts (``enable_parallel_optimizer``; ``AutoParallel.hsdp`` places its own)."""
    auto = context.get_auto_parallel_context("parallel_mode") == context.ParallelMode.AUTO_PARALLEL
    if not auto and not context.get_auto_parallel_context("enable_parallel_optimizer"):
        return  # nothing to search or shard: no modules to import (~10 ms of a first step; benchmarks/first_step.md)
    from sporax.parallel.auto_parallel import AutoParallel, search_for_context
    from sporax.parallel.optimizer_shard import shard_for_context

    if auto:
        search_for_context(cell, arrays)
    if not isinstance(cell, AutoParallel):
        shard_for_context(cell)


world.set_before_first_compile(_search_before_first_compile)


def sharding_mode():
    """True when the parallel mode gives strategies effect (SEMI_AUTO_PARALLEL, AUTO_PARALLEL)."""
    return context.get_auto_parallel_context("parallel_mode") in _SHARDING_MODES


def sharding_active():
    """True inside a sporax trace in a sharding mode: the moment a strategy becomes a constraint."""
    return is_tracing() and sharding_mode()


@functools.lru_cache(maxsize=None)
def _devices(count):
    return np.array(jax.devices()[:count], dtype=object)


def _prime_factors(number):
    factors, divisor = [], 2
    while number > 1:
        while number % divisor == 0:
            factors.append(divisor)
            number //= divisor
        divisor += 1
    return factors


@functools.lru_cache(maxsize=None)
def strategy_mesh(count):
    """The one mesh of tuple strategies on ``count`` devices: one axis per prime factor of ``count``."""
    sizes = tuple(_prime_factors(count)) or (1,)
    return Mesh(_devices(count).reshape(sizes), tuple(f"p{index}" for index in range(len(sizes))))


@functools.lru_cache(maxsize=None)
def _tuple_sharding(strategy, count):
    mesh = strategy_mesh(count)
    free = list(zip(mesh.axis_names, mesh.devices.shape))
    spec = []
    for split in strategy:
        axes = []
        for factor in _prime_factors(split):
            position = next(index for index, (_, size) in enumerate(free) if size == factor)
            axes.append(free.pop(position)[0])
        spec.append(None if not axes else (axes[0] if len(axes) == 1 else tuple(axes)))
    return NamedSharding(mesh, PartitionSpec(*spec))


def tuple_sharding(owner, strategy, shape, count):
    """The NamedSharding of a tuple strategy for a tensor of ``shape``; MindSpore's checks first."""
    if len(strategy) != len(shape):
        raise ValueError(f"For '{owner}', the strategy {strategy} has {len(strategy)} dimensions but its input "
                         f"of shape {tuple(shape)} has {len(shape)}: give one split count per dimension.")
    if any(split <= 0 for split in strategy):
        raise ValueError(f"For '{owner}', every value of the strategy {strategy} must be a positive integer.")
    splits = int(np.prod(strategy)) if strategy else 1
    if count % splits:
        raise ValueError(f"For '{owner}', the strategy {strategy} splits a tensor into {splits} slices, which does "
                         f"not divide the {count} devices; use split counts whose product divides {count}.")
    for index, (size, split) in enumerate(zip(shape, strategy)):
        if size % split:
            raise ValueError(f"For '{owner}', dimension {index} of the input of shape {tuple(shape)} cannot be "
                             f"split into {split} slices by the strategy {strategy}.")
    return _tuple_sharding(tuple(strategy), count)


def layout_sharding(owner, layout, shape, count):
    """The NamedSharding of a called ``Layout`` for a tensor of ``shape``."""
    matrix, names = layout._device_shape, layout._alias_name
    if "interleaved_parallel" in names:
        raise NotImplementedError(f"For '{owner}', the Layout axis 'interleaved_parallel' (virtual sharding within "
                                  "one device) is not supported by sporax: XLA shards over real devices only.")
    spec = layout.partition_spec()
    if len(spec) != len(shape):
        raise ValueError(f"For '{owner}', the layout maps {len(spec)} dimensions but its input of shape "
                         f"{tuple(shape)} has {len(shape)}.")
    size = int(np.prod(matrix))
    ranks = layout._rank_list
    if size != count or any(rank < 0 or rank >= jax.device_count() for rank in ranks):
        raise ValueError(f"For '{owner}', the layout's device_matrix {matrix} (ranks {ranks}) must cover exactly "
                         f"the {count} devices of this run (device_num): make prod(device_matrix) == {count}.")
    devices = np.array([jax.devices()[rank] for rank in ranks], dtype=object).reshape(matrix)
    sharding = NamedSharding(Mesh(devices, names), PartitionSpec(*spec))
    for index, (extent, axes) in enumerate(zip(shape, spec)):
        parts = int(np.prod([matrix[names.index(name)] for name in ((axes,) if isinstance(axes, str) else axes or ())]))
        if extent % parts:
            raise ValueError(f"For '{owner}', dimension {index} of the input of shape {tuple(shape)} cannot be "
                             f"split into {parts} slices by its layout.")
    return sharding


def sharding_for(owner, item, shape, count=None):
    """The NamedSharding of one strategy item (a tuple or a Layout) for a tensor of ``shape``."""
    count = device_count() if count is None else count
    if isinstance(item, Layout):
        return layout_sharding(owner, item, shape, count)
    return tuple_sharding(owner, item, shape, count)


def constrain(owner, value, item):
    """``value`` (a Tensor or array) constrained to strategy ``item``; other values pass unchanged."""
    if item is None:
        return value
    if isinstance(item, tuple) and item and isinstance(item[0], Layout) and isinstance(value, (tuple, list)):
        return type(value)(constrain(owner, part, layout) for part, layout in zip(value, item))
    if isinstance(value, Tensor):
        array = value._value
        sharding = sharding_for(owner, item, array.shape)
        return Tensor._wrap(jax.lax.with_sharding_constraint(array, sharding))
    if isinstance(value, jax.Array) or isinstance(value, jax.core.Tracer):
        return jax.lax.with_sharding_constraint(value, sharding_for(owner, item, value.shape))
    return value


def constrain_all(owner, values, strategy):
    """Constrain ``values[i]`` to ``strategy[i]`` (a value beyond the strategy passes unchanged)."""
    if strategy is None:
        return values
    if len(strategy) > len(values):
        raise ValueError(f"For '{owner}', the strategy {strategy} has {len(strategy)} items but there are only "
                         f"{len(values)} inputs/outputs: give one strategy per Tensor.")
    constrained = [constrain(owner, value, item) for value, item in zip(values, strategy)]
    return tuple(constrained) + tuple(values[len(strategy):])
