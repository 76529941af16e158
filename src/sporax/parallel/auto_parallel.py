"""``mindspore.parallel.auto_parallel.AutoParallel``: a network compiled over every device, with a strategy search.

Contract:
    * ``AutoParallel(network, parallel_mode)`` wraps ``network`` (often a ``TrainOneStepCell``);
      calling it runs the network in AUTO_PARALLEL (``"recursive_programming"``,
      ``"sharding_propagation"``) or SEMI_AUTO_PARALLEL (``"semi_auto"``) over every device.
    * ``"recursive_programming"`` searches, at the first call, a layout for each weight that no
      strategy names (a 2-D or higher trainable Parameter: Dense/MatMul weights, embedding tables,
      convolution kernels): replicated (data parallel: the weight's gradient is all-reduced each
      step) or split along its first dimension over the devices (model parallel: the layer's
      output is gathered, forward and backward). The cost model counts the bytes each choice
      communicates per step and the bytes it keeps per device (weight, gradient and two optimizer
      slots); it picks the cheapest communication, then, while the weights do not fit
      ``device_memory_capacity`` (``set_cost_model_context``), splits the largest replicated one.
      Strategies given with ``parameter_plan``/``Cell.shard`` are honoured, not searched. XLA's
      sharding propagation (GSPMD) lays out the rest of the program.
    * ``"sharding_propagation"`` and ``"semi_auto"`` search nothing: the strategies the user wrote
      are propagated.
    * ``save_param_strategy_file(path)`` writes the chosen layouts as MindSpore's JSON strategy
      file (``parallel_layout_item``: ``dev_matrix``, ``tensor_map``, ``param_split_shape``,
      ``indices_offset``), which ``build_searched_strategy`` reads back.
    * ``pipeline(stages=N)`` sets ``pipeline_stages``: the network's ``PipelineCell`` runs each stage
      on its own process (``sporax.parallel.pipeline_stages``).
    * ``hsdp(shard_size, threshold, optimizer_level)`` turns on the parallel optimizer: after the
      search, the weights the optimizer updates and their optimizer slots are split over the
      devices (``sporax.parallel.optimizer_shard``).

Example:
    >>> from sporax import nn
    >>> from sporax.parallel.auto_parallel import AutoParallel
    >>> AutoParallel(nn.Dense(4, 2), parallel_mode="recursive_programming").parallel_mode
    'recursive_programming'
"""
import json

import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec

from sporax.core import context
from sporax.core.tensor import Tensor
from sporax.nn.cell import Cell
from sporax.parallel import algo_parameters, optimizer_shard, strategy as strategies

_MODES = ("semi_auto", "sharding_propagation", "recursive_programming")
_SCHEDULERS = ("1f1b", "gpipe", "seqpipe", "seqvpp", "seqsmartvpp", "zero_bubble_v")
_STATE_COPIES = 4  # a trainable weight, its gradient and two optimizer slots (Momentum/Adam) per device


def plan_weights(shapes, batch, devices, capacity, itemsize=4):
    """The search: ``{name: split}`` with ``split`` True (first dimension over the devices) or False (replicated).

    ``shapes``: ``{name: shape}`` of the weights to place; ``batch``: the rows of a step's input.
    """
    choices, costs = {}, {}
    for name, shape in shapes.items():
        size = int(np.prod(shape)) * itemsize
        ring = 2 * (devices - 1) / devices
        replicated_bytes = ring * size  # the gradient's all-reduce
        split_bytes = 2 * (devices - 1) / devices * batch * shape[0] * itemsize  # gather the output, fwd + bwd
        splittable = shape[0] % devices == 0
        choices[name] = splittable and split_bytes < replicated_bytes
        costs[name] = (size, splittable)

    def memory():
        return sum(_STATE_COPIES * size / (devices if choices[name] else 1) for name, (size, _) in costs.items())

    for name, (size, splittable) in sorted(costs.items(), key=lambda item: -item[1][0]):
        if memory() <= capacity:
            break
        if splittable:
            choices[name] = True
    if memory() > capacity:
        raise RuntimeError(f"AutoParallel: the weights need {memory():.0f} bytes per device even split over "
                           f"{devices} devices, more than device_memory_capacity={capacity:.0f}; use more devices "
                           "or raise it with set_cost_model_context(device_memory_capacity=...).")
    return choices


def search_layouts(network, inputs):
    """Run the search for ``network``'s weights (see the module doc) and place them; ``{name: (spec, devices,
    shape)}``."""
    devices = strategies.device_count()
    # A training step's weights are the ones its optimizer updates (not the optimizer's own slots).
    trained = getattr(network, "weights", None) or network.trainable_params()
    weights = {param.name: param for param in trained
               if len(param.shape) >= 2 and "_sporax_strategy" not in param.__dict__}
    slots = optimizer_shard.optimizer_slots(network, weights)  # a weight's slots share its layout
    batch = next((int(value.shape[0]) for value in inputs if isinstance(value, Tensor) and value.ndim), 1)
    capacity = algo_parameters.get_cost_model_context("device_memory_capacity")
    choices = plan_weights({name: tuple(param.shape) for name, param in weights.items()}, batch, devices, capacity)
    mesh = strategies.strategy_mesh(devices)
    axes = tuple(mesh.axis_names)
    planned = {}
    for name, split in choices.items():
        param = weights[name]
        spec = PartitionSpec(axes if len(axes) > 1 else axes[0], *([None] * (len(param.shape) - 1))) if split \
            else PartitionSpec()
        for placed in [param] + slots.get(name, []):
            placed.set_data(Tensor._wrap(jax.device_put(placed._value, NamedSharding(mesh, spec))))
        planned[name] = (spec, devices, tuple(param.shape))
    return planned


class AutoParallel(Cell):
    """Run ``network`` over every device with MindSpore's AutoParallel configuration (see the module doc).

    Args:
        network (Cell): the network (a training step or a forward net).
        parallel_mode (str): ``"semi_auto"``, ``"sharding_propagation"`` or ``"recursive_programming"``.
            Default: ``"semi_auto"``.

    Inputs:
        The network's inputs.

    Outputs:
        The network's outputs.
    """

    def __init__(self, network, parallel_mode="semi_auto"):
        super().__init__(auto_prefix=False)
        if not isinstance(network, Cell):
            raise TypeError(f"For 'AutoParallel', the argument 'network' must be a Cell, but got "
                            f"{type(network).__name__}.")
        if parallel_mode not in _MODES:
            raise ValueError(f"For 'AutoParallel', the argument 'parallel_mode' must be one of {list(_MODES)}, "
                             f"but got {parallel_mode!r}.")
        self.network = network
        self.parallel_mode = parallel_mode
        self._dataset_strategy = "data_parallel"
        self._planned = None  # {parameter name: PartitionSpec}, after the first call
        self._pipeline = {}  # the pipeline_* settings of pipeline()
        self._hsdp = None  # (shard_size, threshold, optimizer_level) of hsdp()
        self._optimizer_sharded = None  # {weight name: PartitionSpec}, after the first call with hsdp()

    def dataset_strategy(self, config):
        """How each process's inputs form the global batch: ``"data_parallel"``, ``"full_batch"`` or tuples."""
        self._dataset_strategy = config

    def pipeline(self, stages=1, output_broadcast=False, interleave=False, scheduler="1f1b"):
        """Run the network's ``PipelineCell`` over ``stages`` pipeline stages (the job's processes split evenly).

        Args:
            stages (int): the number of stages (the job's processes are split into that many). Default: ``1``.
            output_broadcast (bool): in inference, broadcast the last stage's result. Default: ``False``.
            interleave (bool): interleaved scheduling (not supported: ``NotImplementedError``). Default: ``False``.
            scheduler (str): ``"1f1b"``, ``"gpipe"``, ``"seqpipe"``, ``"seqvpp"``, ``"seqsmartvpp"`` or
                ``"zero_bubble_v"``. Stages across processes run GPipe's schedule only: another value raises
                ``NotImplementedError`` naming it when they run (``sporax.parallel.pipeline_stages.schedule``).
                Default: ``"1f1b"``.
        """
        for name, value, kind in (("stages", stages, int), ("output_broadcast", output_broadcast, bool),
                                  ("interleave", interleave, bool), ("scheduler", scheduler, str)):
            if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
                raise TypeError(f"For 'AutoParallel.pipeline', the argument '{name}' must be {kind.__name__} type, "
                                f"but got the type : {type(value)}.")
        if stages <= 0:
            raise ValueError(f"For 'AutoParallel.pipeline', the argument 'stages' must be larger than zero, but got "
                             f"value: {stages}.")
        if scheduler not in _SCHEDULERS:
            raise ValueError(f"For 'AutoParallel.pipeline', the argument 'scheduler' must be one of "
                             f"{list(_SCHEDULERS)}, but got the value : {scheduler}.")
        if interleave:
            raise NotImplementedError("AutoParallel.pipeline(interleave=True): interleaved stages (several "
                                      "segments of a stage per process) are not supported by sporax; use "
                                      "interleave=False.")
        self._pipeline = {"pipeline_stages": stages, "pipeline_result_broadcast": output_broadcast,
                          "pipeline_interleave": interleave, "pipeline_scheduler": scheduler}

    def hsdp(self, shard_size=-1, threshold=64, optimizer_level="level1"):
        """Shard the weights the optimizer updates and their optimizer state over the devices
        (``sporax.parallel.optimizer_shard``), at the first call.

        Args:
            shard_size (int): the devices of a shard group (consecutive devices); ``-1``: every device.
                Default: ``-1``.
            threshold (int): weights smaller than this many KB stay replicated. Default: ``64``.
            optimizer_level (str): ``"level1"``, ``"level2"`` or ``"level3"``; each splits the weight and its
                optimizer state (XLA schedules the gradient's reduce-scatter and the weight's all-gather).
                Default: ``"level1"``.
        """
        self._hsdp = optimizer_shard.check_config(shard_size, threshold, optimizer_level)

    def _configure(self):
        mode = "semi_auto_parallel" if self.parallel_mode == "semi_auto" else "auto_parallel"
        context.set_auto_parallel_context(parallel_mode=mode, dataset_strategy=self._dataset_strategy,
                                          **self._pipeline)
        if self._hsdp is not None:
            shard_size, threshold, level = self._hsdp
            context.set_auto_parallel_context(enable_parallel_optimizer=True, optimizer_weight_shard_size=shard_size,
                                              parallel_optimizer_config={"parallel_optimizer_threshold": threshold,
                                                                         "optimizer_level": level})

    def __call__(self, *inputs, **kwargs):
        # The configuration and the search act on the real Parameters, before any trace binds them.
        self._configure()
        if self._planned is None:
            self._planned = {}
            if self.parallel_mode == "recursive_programming":
                self._planned = search_layouts(self.network, inputs)
            if self._hsdp is not None:  # after the search: it shards only what stays replicated
                self._optimizer_sharded = optimizer_shard.shard_optimizer(self.network, *self._hsdp)
        return super().__call__(*inputs, **kwargs)

    def construct(self, *inputs):
        return self.network(*inputs)

    def save_param_strategy_file(self, file_path):
        """Write the searched weight layouts as MindSpore's JSON strategy file (after the first call)."""
        if self._planned is None:
            raise RuntimeError("AutoParallel.save_param_strategy_file: call the network once first; the layouts "
                               "are chosen when it compiles.")
        items = {}
        for name, (spec, devices, shape) in self._planned.items():
            split = spec != PartitionSpec()
            # MindSpore's tensor_map counts device-matrix axes from the right; -1 is "not split".
            tensor_map = [0 if split and index == 0 else -1 for index in range(len(shape))]
            items[name] = {"dev_matrix": [devices], "tensor_map": tensor_map,
                           "param_split_shape": [], "indices_offset": [], "field": 0,
                           "opt_weight_shard_step": 0, "opt_weight_shard_size": 0}
        with open(file_path, "w", encoding="utf-8") as file:
            json.dump({"parallel_layout_item": items}, file, indent=2)


__all__ = ["AutoParallel"]


def search_for_context(cell, arrays):
    """``set_auto_parallel_context(parallel_mode="auto_parallel")`` with the default ``recursive_programming``
    search: before a top-level Cell's first program compiles, search its weights' layouts, unless the user
    wrote strategies (a sharded Primitive or Parameter) or wrapped it in ``AutoParallel``."""
    if context.get_auto_parallel_context("parallel_mode") != "auto_parallel" or \
            context.get_auto_parallel_context("search_mode") != "recursive_programming" or \
            getattr(cell, "_sporax_searched", False) or isinstance(cell, AutoParallel):
        return
    cell.__dict__["_sporax_searched"] = True
    from sporax.ops.primitive import Primitive

    for _, child in cell.cells_and_names():
        if isinstance(child, AutoParallel) or any(
                isinstance(value, Primitive) and "_sporax_strategy" in value.__dict__
                for value in vars(child).values()):
            return
    if any("_sporax_strategy" in param.__dict__ for param in cell.get_parameters()):
        return
    search_layouts(cell, [Tensor._wrap(array) if hasattr(array, "shape") else array for array in arrays])

