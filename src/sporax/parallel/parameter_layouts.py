"""AutoParallel's parameter layouts: the search's choice placed on the devices, a strategy file read or written.

Contract:
    * ``search_layouts(network, inputs)`` runs the ``recursive_programming`` search
      (``sporax.parallel.auto_parallel_search``) over the weights no strategy names, and puts each
      weight and its optimizer slots on the devices as chosen (replicated, or split along the
      dimensions the search's unit names).
    * ``load_layouts(network, path)`` lays out the weights a MindSpore strategy file names as it says
      (each becomes a strategy, as ``parameter_plan`` gives, so the search leaves it).
    * ``save_layouts(path, planned, loaded)`` writes MindSpore's JSON strategy file
      (``parallel_layout_item``: ``dev_matrix``, ``tensor_map``, ``param_split_shape``,
      ``indices_offset``), which ``build_searched_strategy`` reads back; it also names each trainable
      weight XLA split by propagation, as held (``held_layout``), so that the slices ranks save with
      ``integrated_save=False`` merge back with ``transform_checkpoints``.

Example:
    >>> from jax.sharding import PartitionSpec
    >>> from sporax.parallel.parameter_layouts import tensor_map
    >>> tensor_map(PartitionSpec("d"), 2)
    [0, -1]
"""
import json
import warnings

import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec

from sporax.core.tensor import Tensor
from sporax.parallel import algo_parameters, auto_parallel_search as search, optimizer_shard, \
    strategy as strategies
from sporax.parallel.layout import Layout


def search_layouts(network, inputs):
    """Run the search for ``network``'s weights (``sporax.parallel.auto_parallel_search``) and place them;
    ``{name: (spec, devices, shape)}``."""
    devices = strategies.device_count()
    # A training step's weights are the ones its optimizer updates (not the optimizer's own slots).
    trained = getattr(network, "weights", None) or network.trainable_params()
    free = {id(param) for param in trained if "_sporax_strategy" not in param.__dict__}
    weights = {param.name: param for param in trained if len(param.shape) >= 2 and id(param) in free}
    by_name = {param.name: param for param in trained}
    slots = optimizer_shard.optimizer_slots(network, by_name)  # a weight's slots share its layout
    batch = next((int(value.shape[0]) for value in inputs if isinstance(value, Tensor) and value.ndim), 1)
    first = [value for value in inputs if isinstance(value, Tensor) and value.ndim]
    rows = int(np.prod(first[0].shape[:-1])) if first and first[0].ndim >= 2 else batch
    capacity = algo_parameters.get_cost_model_context("device_memory_capacity")
    units, grouped = [], set()
    for name, cell, block in search.attention_blocks(network):
        unit = search.attention_unit(f"attention {name or type(cell).__name__}", (cell, block), rows, devices)
        if all(id(param) in free for param, _ in unit.layouts):
            units.append(unit)
            grouped.update(id(param) for param, _ in unit.layouts)
    for name, cell in search.multihead_attentions(network):
        unit = search.multihead_attention_unit(f"attention {name or type(cell).__name__}", cell, rows, devices)
        if all(id(param) in free for param, _ in unit.layouts):
            units.append(unit)
            grouped.update(id(param) for param, _ in unit.layouts)
    holders = search.owners(network)
    for name, param in weights.items():
        if id(param) not in grouped:
            units.append(search.weight_unit(name, tuple(param.shape), search.output_elements(
                holders.get(id(param)), tuple(param.shape), first), devices, param=param))
    choices = search.plan_units(units, devices, capacity)
    mesh = strategies.strategy_mesh(devices)
    axes = tuple(mesh.axis_names)
    axis = axes if len(axes) > 1 else axes[0]
    planned = {}
    for unit in units:
        for param, dims in unit.layouts:
            split = choices[unit.name]
            spec = PartitionSpec(*[axis if split and along else None for along in dims]) if split else PartitionSpec()
            for placed in [param] + slots.get(param.name, []):
                placed.set_data(Tensor._wrap(jax.device_put(placed._value, NamedSharding(mesh, spec))))
            planned[param.name] = (spec, devices, tuple(param.shape))
        if unit.heads_of is not None:
            # (3, E, E) projections split by output rows, (N, H, S, D) queries/keys/values by heads
            unit.heads_of.__dict__["_sporax_head_split"] = (
                NamedSharding(mesh, PartitionSpec(None, axis, None)), NamedSharding(mesh, PartitionSpec(None, axis))
            ) if choices[unit.name] else None
    return planned


def tensor_map(spec, rank):
    """MindSpore's tensor_map of a layout split over every device (dev_matrix ``[devices]``): the device-matrix
    axis each dimension is split along, counted from the right (``0``), or ``-1`` where it is not split."""
    along = tuple(spec) + (None,) * (rank - len(tuple(spec)))
    return [-1 if dim is None else 0 for dim in along]


def load_layouts(network, file_path, only_trainable=True):
    """Lay out the Parameters of ``network`` that the strategy file ``file_path`` names; ``{name: (dev_matrix,
    tensor_map)}`` of those it laid out. Each becomes a strategy (as ``parameter_plan`` gives), so the search and
    the parallel optimizer leave it as the file says."""
    from sporax.parallel.strategy_file import build_searched_strategy

    strategy = build_searched_strategy(file_path)
    params = network.trainable_params() if only_trainable else network.get_parameters()
    devices = strategies.device_count()
    plan, loaded = {}, {}
    for param in params:
        layout = strategy.get(param.name)
        if layout is None:
            continue
        dev_matrix = tuple(int(size) for size in layout.dev_matrix[0].dim)
        tensor_map = tuple(int(axis) for axis in layout.tensor_map[0].dim)
        if len(tensor_map) != len(param.shape) or any(axis >= len(dev_matrix) for axis in tensor_map) or \
                int(np.prod(dev_matrix)) != devices:
            raise ValueError(f"For 'AutoParallel.load_param_strategy_file', the layout of '{param.name}' in "
                             f"{file_path} (dev_matrix {list(dev_matrix)}, tensor_map {list(tensor_map)}) does not "
                             f"fit its shape {tuple(param.shape)} on the {devices} devices of this run: the file "
                             f"must come from a run with {devices} devices and this network.")
        # As a Layout over the file's device matrix, so that rank r holds the block MindSpore's rank r holds
        # (the block the checkpoint tools cut for it); tensor_map counts the axes from the right, -1: unsplit.
        names = tuple(f"axis{index}" for index in range(len(dev_matrix)))
        plan[param.name] = Layout(dev_matrix, names)(
            *["None" if axis == -1 else names[len(dev_matrix) - 1 - axis] for axis in tensor_map])
        loaded[param.name] = (list(dev_matrix), list(tensor_map))
    by_name = {param.name: param for param in params}
    for name, item in plan.items():
        param = by_name[name]
        param.__dict__["_sporax_strategy"] = item
        sharding = strategies.sharding_for(name, item, param.shape)
        param.set_data(Tensor._wrap(jax.device_put(param._value, sharding)))
    return loaded


def held_layout(array, devices, with_whole=False):
    """``(dev_matrix, tensor_map)`` of how ``array`` is split over the devices now (mesh axes that split one
    dimension together merge into one device-matrix axis); None for a whole array unless ``with_whole``."""
    sharding = getattr(array, "sharding", None)
    mesh, spec = getattr(sharding, "mesh", None), getattr(sharding, "spec", None)
    if mesh is None or spec is None or not any(spec):
        return ([devices], [-1] * array.ndim) if with_whole else None
    if [device.id for device in mesh.devices.flat] != [device.id for device in jax.devices()[:mesh.devices.size]]:
        raise NotImplementedError("A strategy file describes devices in rank order; this Parameter is laid out "
                                  "on a mesh of other devices, which sporax cannot write as a strategy.")
    names = list(mesh.axis_names)
    entries = [() if entry is None else ((entry,) if isinstance(entry, str) else tuple(entry))
               for entry in tuple(spec) + (None,) * (array.ndim - len(tuple(spec)))]
    groups = []  # device-matrix axes, left to right: (mesh axis indices, the tensor dimension they split or None)
    index = 0
    while index < len(names):
        dimension = next((d for d, entry in enumerate(entries) if entry and entry[0] == names[index]), None)
        width = len(entries[dimension]) if dimension is not None else 1
        if dimension is not None and list(entries[dimension]) != names[index:index + width]:
            raise NotImplementedError(f"A strategy file cannot describe the split {spec} over the mesh axes "
                                      f"{names}: one dimension's axes must be neighbours in mesh order.")
        groups.append((range(index, index + width), dimension))
        index += width
    dev_matrix = [int(np.prod([mesh.devices.shape[axis] for axis in axes])) for axes, _ in groups]
    tensor_map = [-1] * array.ndim
    for position, (_, dimension) in enumerate(groups):
        if dimension is not None:
            tensor_map[dimension] = len(groups) - 1 - position
    return dev_matrix, tensor_map


def save_layouts(file_path, planned, loaded, parameters=None, trainable=None):
    """Write MindSpore's JSON strategy file: the searched layouts ``planned`` (``{name: (spec, devices, shape)}``),
    the layouts ``loaded`` from a strategy file (``{name: (dev_matrix, tensor_map)}``), with ``parameters`` the
    layout each of those Parameters holds now, and of ``trainable`` those split now."""
    layouts = {name: ([devices], tensor_map(spec, len(shape))) for name, (spec, devices, shape) in planned.items()}
    layouts.update(loaded)
    devices = strategies.device_count()
    for param in parameters or ():
        if param.name not in layouts:
            layouts[param.name] = held_layout(param._value, devices, with_whole=True)
    for param in trainable or ():
        # a weight XLA split by propagation (from the operator strategies): the file must say how, so that the
        # slices each rank saves (integrated_save=False) merge back
        if param.name not in layouts:
            try:
                layout = held_layout(param._value, devices)
            except NotImplementedError as error:
                warnings.warn(f"The strategy file {file_path} leaves out '{param.name}': {error} Its slices saved "
                              "with integrated_save=False cannot be merged; save it with integrated_save=True.")
                continue
            if layout is not None:
                layouts[param.name] = layout
    items = {name: {"dev_matrix": list(dev_matrix), "tensor_map": list(map_), "param_split_shape": [],
                    "indices_offset": [], "field": 0, "opt_weight_shard_step": 0, "opt_weight_shard_size": 0}
             for name, (dev_matrix, map_) in layouts.items()}
    with open(file_path, "w", encoding="utf-8") as file:
        json.dump({"parallel_layout_item": items}, file, indent=2)
