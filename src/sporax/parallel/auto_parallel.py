"""``mindspore.parallel.auto_parallel.AutoParallel``: a network compiled over every device, with a strategy search.

Contract:
    * ``AutoParallel(network, parallel_mode)`` wraps ``network`` (often a ``TrainOneStepCell``, or,
      as in MindSpore's tutorials, a training-step function, ``jit`` or not: the Cells it reaches
      through its closure and globals become children, their Parameters keeping their names);
      calling it runs the network in AUTO_PARALLEL (``"recursive_programming"``,
      ``"sharding_propagation"``) or SEMI_AUTO_PARALLEL (``"semi_auto"``) over every device.
      Weights made under ``no_init_parameters`` get their values at the first call, in the
      network's order (the same values as without AutoParallel).
    * ``"recursive_programming"`` searches, at the first call, a layout for each attention block
      (replicated, or split by heads) and each other weight that no strategy names (a 2-D or higher
      trainable Parameter: Dense/MatMul weights, embedding tables, convolution kernels; replicated,
      or split along its first dimension): the cheapest communication per step, then, while the
      weights do not fit ``device_memory_capacity`` (``set_cost_model_context``), the largest
      replicated unit split (``sporax.parallel.auto_parallel_search``; placed by
      ``sporax.parallel.parameter_layouts``).
      Strategies given with ``parameter_plan``/``Cell.shard`` are honoured, not searched. XLA's
      sharding propagation (GSPMD) lays out the rest of the program.
    * ``"sharding_propagation"`` and ``"semi_auto"`` search nothing: the strategies the user wrote
      are propagated.
    * ``save_param_strategy_file(path)`` (before or after the first call; before, the file is
      written once the first call compiled) writes the chosen layouts as MindSpore's JSON strategy
      file (``parallel_layout_item``: ``dev_matrix``, ``tensor_map``, ``param_split_shape``,
      ``indices_offset``), which ``build_searched_strategy`` reads back.
    * ``pipeline(stages=N)`` sets ``pipeline_stages``: the network's ``PipelineCell`` runs each stage
      on its own process (``sporax.parallel.pipeline_stages``).
    * ``hsdp(shard_size, threshold, optimizer_level)`` turns on the parallel optimizer: after the
      search, the weights the optimizer updates and their optimizer slots are split over the
      devices (``sporax.parallel.optimizer_shard``).
    * ``load_param_strategy_file(path)`` lays out, at the first call, the weights a strategy file
      names as it says (before the search, which leaves them); ``no_init_parameters_in_compile()``
      leaves weights made under ``no_init_parameters`` to get their values when first read.
    * The settings hold while the network runs: each call sets the auto-parallel context
      (``parallel_mode``, ``dataset_strategy``, pipeline, parallel optimizer, ``gradients_mean``,
      ``comm_fusion`` ...) and puts the user's own context back afterwards.
    * Per-operator strategy files, the communication-group file and local-norm printing raise
      ``NotImplementedError`` naming the method.

Example:
    >>> from sporax import nn
    >>> from sporax.parallel.auto_parallel import AutoParallel
    >>> AutoParallel(nn.Dense(4, 2), parallel_mode="recursive_programming").parallel_mode
    'recursive_programming'
"""
import json
import os

from sporax.core import context
from sporax.core.tensor import Tensor
from sporax.nn.cell import Cell
from sporax.parallel import optimizer_shard, parameter_layouts
# Named here too, where the tests and earlier code import them from.
from sporax.parallel.auto_parallel_search import plan_weights  # noqa: F401
from sporax.parallel.function_cells import cells_used_by
from sporax.parallel.parameter_layouts import search_layouts

_MODES = ("semi_auto", "sharding_propagation", "recursive_programming")
_SCHEDULERS = ("1f1b", "gpipe", "seqpipe", "seqvpp", "seqsmartvpp", "zero_bubble_v")


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
        if not isinstance(network, Cell) and not callable(network):
            raise TypeError(f"For 'AutoParallel', the argument 'network' must be a Cell or a function, but got "
                            f"{type(network).__name__}.")
        if parallel_mode not in _MODES:
            raise ValueError(f"For 'AutoParallel', the argument 'parallel_mode' must be one of {list(_MODES)}, "
                             f"but got {parallel_mode!r}.")
        self.network = network
        if not isinstance(network, Cell):
            # A training-step function (MindSpore's tutorials pass one): the Cells it reaches become this
            # Cell's children, keeping their Parameters' names, so that the search, the parallel
            # optimizer and the strategy file see the weights and optimizer slots it updates.
            for index, cell in enumerate(cells_used_by(network)):
                self.insert_child_to_cell(f"cell_{index}", cell)
        self.parallel_mode = parallel_mode
        self._strategy_file = None  # save_param_strategy_file's path, written after the first call
        self._dataset_strategy = "data_parallel"
        self._planned = None  # {parameter name: PartitionSpec}, after the first call
        self._pipeline = {}  # the pipeline_* settings of pipeline()
        self._hsdp = None  # (shard_size, threshold, optimizer_level) of hsdp()
        self._optimizer_sharded = None  # {weight name: PartitionSpec}, after the first call with hsdp()
        self._init_param_in_compile = True  # no_init_parameters_in_compile() clears it
        self._load_strategy_file = None  # load_param_strategy_file's path, read at the first call
        self._loaded = {}  # {parameter name: (dev_matrix, tensor_map)} that file laid out
        self._only_trainable_params = True  # disable_strategy_file_only_for_trainable_params() clears it
        self._context_settings = {}  # further auto-parallel context keys the methods below set for each call
        self._speed_up_file = None  # transformer_opt's file (recorded)

    def no_init_parameters_in_compile(self):
        """Do not give weights made under ``no_init_parameters`` their values when the network first compiles.

        Without it, the first call initialises every such weight in the network's order (the values a run
        without AutoParallel gets); with it, a weight gets its value only when first read, and one the network
        never reads (or one a checkpoint loaded first) is never initialised.
        """
        self._init_param_in_compile = False
        self._context_settings["init_param_in_compile"] = False

    def load_param_strategy_file(self, file_path):
        """Lay out the weights as a strategy file says (MindSpore's JSON or protobuf strategy file), at the first call.

        Each trainable weight the file names (every Parameter after
        ``disable_strategy_file_only_for_trainable_params``) takes the file's layout (``dev_matrix`` and
        ``tensor_map``) instead of the search's choice; the others are searched as usual.

        Args:
            file_path (str): the file ``save_param_strategy_file`` (sporax's or MindSpore's) wrote.
        """
        if not isinstance(file_path, str):
            raise TypeError(f"For 'AutoParallel.load_param_strategy_file', the argument 'file_path' must be str, "
                            f"but got the type : {type(file_path)} .")
        self._load_strategy_file = file_path

    def disable_strategy_file_only_for_trainable_params(self):
        """Save (and load) the layouts of every Parameter in the strategy file, not only the trainable ones."""
        self._only_trainable_params = False

    def enable_gradients_mean(self):
        """Average, not sum, the gradients a ``DistributedGradReducer`` all-reduces (``gradients_mean=True`` in the
        auto-parallel context during each call; the one SPMD program's own gradients are those of the global batch
        either way)."""
        self._context_settings["gradients_mean"] = True

    def disable_gradient_fp32_sync(self):
        """``gradient_fp32_sync=False`` in the auto-parallel context during each call."""
        self._context_settings["gradient_fp32_sync"] = False

    def disable_loss_repeated_mean(self):
        """``loss_repeated_mean=False`` in the auto-parallel context during each call."""
        self._context_settings["loss_repeated_mean"] = False

    def enable_fp32_communication(self):
        """``force_fp32_communication=True`` in the auto-parallel context during each call."""
        self._context_settings["force_fp32_communication"] = True

    def comm_fusion(self, config):
        """Communication fusion settings (``comm_fusion`` in the auto-parallel context during each call).

        XLA combines the program's collectives itself (its all-reduce and all-gather combiners), so the settings
        are recorded, not acted on.

        Args:
            config (dict): ``{"openstate": bool, "allreduce"/"allgather"/"reducescatter": {"mode": ..., "config":
                ...}}``, or None.
        """
        if config is not None and not isinstance(config, dict):
            raise TypeError(f"For 'AutoParallel.comm_fusion', the argument 'config' must be {dict}, but got "
                            f"{type(config)}.")
        self._context_settings["comm_fusion"] = config

    def transformer_opt(self, file_path):
        """MindSpore's Ascend speed-up switches (a ``parallel_speed_up.json``), or None/'' to turn them off.

        They overlap communication with computation on Ascend; XLA schedules that overlap itself, so the file is
        checked (it must exist and hold a JSON object) and recorded, not acted on.

        Args:
            file_path (Union[str, None]): the JSON file, or None/''.
        """
        if file_path is not None and not isinstance(file_path, str):
            raise TypeError(f"For 'AutoParallel.transformer_opt', the argument 'file_path' must be str or None, "
                            f"but got the type : {type(file_path)} .")
        if file_path:
            try:
                with open(file_path, encoding="utf-8") as file:
                    config = json.load(file)
            except (OSError, ValueError) as error:
                raise ValueError(f"For 'AutoParallel.transformer_opt', '{file_path}' must be a readable JSON file "
                                 f"(MindSpore's parallel_speed_up.json): {error}") from error
            if not isinstance(config, dict):
                raise ValueError(f"For 'AutoParallel.transformer_opt', '{file_path}' must hold a JSON object of "
                                 f"switches, but holds a {type(config).__name__}.")
        self._speed_up_file = file_path or None

    def save_operator_strategy_file(self, file_path):
        """Not available: save the per-operator strategies of sharding propagation (see ``set_op_strategy_config``)."""
        _operator_strategy_file("save_operator_strategy_file", file_path)

    def load_operator_strategy_file(self, file_path):
        """Not available: load per-operator strategies for sharding propagation (see ``set_op_strategy_config``)."""
        _operator_strategy_file("load_operator_strategy_file", file_path)

    def set_group_ckpt_save_file(self, file_path):
        """Not available: sporax writes no communication-group file (one SPMD program has no per-rank groups)."""
        if not isinstance(file_path, str):
            raise TypeError(f"For 'AutoParallel.set_group_ckpt_save_file', the argument 'file_path' must be str, "
                            f"but got the type : {type(file_path)} .")
        raise NotImplementedError(
            "AutoParallel.set_group_ckpt_save_file: sporax compiles one SPMD program over every device and writes no "
            "communication-group file; a checkpoint's layouts are in the strategy file (save_param_strategy_file).")

    def print_local_norm(self):
        """Not available: printing each device's local gradient norms."""
        raise NotImplementedError("AutoParallel.print_local_norm: sporax does not print per-device local norms; "
                                  "compute them in the training step (ops.norm of each gradient) if needed.")

    def dump_local_norm(self, file_path):
        """Not available: writing each device's local gradient norms to files."""
        if not isinstance(file_path, str):
            raise TypeError(f"For 'AutoParallel.dump_local_norm', the argument 'file_path' must be str, but got the "
                            f"type : {type(file_path)} .")
        raise NotImplementedError("AutoParallel.dump_local_norm: sporax does not write per-device local norms; "
                                  "compute them in the training step (ops.norm of each gradient) if needed.")

    def enable_device_local_norm(self):
        """Not available: per-device local norms."""
        raise NotImplementedError("AutoParallel.enable_device_local_norm: sporax does not compute per-device local "
                                  "norms; compute them in the training step (ops.norm of each gradient) if needed.")

    def dataset_strategy(self, config):
        """How each process's inputs form the global batch: ``"data_parallel"``, ``"full_batch"`` or tuples."""
        self._dataset_strategy = config

    def pipeline(self, stages=1, output_broadcast=False, interleave=False, scheduler="1f1b"):
        """Run the network's ``PipelineCell`` over ``stages`` pipeline stages (the job's processes split evenly).

        Args:
            stages (int): the number of stages (the job's processes are split into that many). Default: ``1``.
            output_broadcast (bool): in inference, broadcast the last stage's result. Default: ``False``.
            interleave (bool): interleaved stages (several ``pipeline_segment``s per stage), run in the
                interleaved 1F1B order (GPipe's with ``scheduler="gpipe"``). Default: ``False``.
            scheduler (str): ``"1f1b"``, ``"gpipe"``, ``"seqpipe"``, ``"seqvpp"``, ``"seqsmartvpp"`` or
                ``"zero_bubble_v"``. Stages across processes run ``"gpipe"`` in GPipe's order and the others in
                each stage's 1F1B order (interleaved where a stage holds several pieces), with the same losses
                and weights (``sporax.parallel.pipeline_schedulers``, which checks each scheduler's conditions).
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
        self._pipeline = {"pipeline_stages": stages, "pipeline_result_broadcast": output_broadcast,
                          "pipeline_interleave": interleave, "pipeline_scheduler": scheduler}

    def get_pipeline_stages(self):
        """The number of pipeline stages ``pipeline(stages=...)`` set (``1`` without pipeline parallelism)."""
        return self._pipeline.get("pipeline_stages", 1)

    def hsdp(self, shard_size=-1, threshold=64, optimizer_level="level1"):
        """Shard the weights the optimizer updates and their optimizer state over the devices
        (``sporax.parallel.optimizer_shard``), at the first call.

        Args:
            shard_size (int): the devices of a shard group (consecutive devices); ``-1``: every device.
                Default: ``-1``.
            threshold (int): weights smaller than this many KB stay replicated. Default: ``64``.
            optimizer_level (str): each splits the weight and its optimizer state; ``"level1"`` keeps the
                gradient whole, ``"level2"`` splits it like the weight, ``"level3"`` also gathers the weight
                again in the backward instead of keeping the forward's gathered copy. Default: ``"level1"``.
        """
        self._hsdp = optimizer_shard.check_config(shard_size, threshold, optimizer_level)

    def _network_cell(self):
        """The Cell whose weights the search and the parallel optimizer lay out (self, for a function)."""
        return self.network if isinstance(self.network, Cell) else self

    def _configure(self):
        mode = "semi_auto_parallel" if self.parallel_mode == "semi_auto" else "auto_parallel"
        context.set_auto_parallel_context(parallel_mode=mode, dataset_strategy=self._dataset_strategy,
                                          **self._pipeline, **self._context_settings)
        if self._hsdp is not None:
            shard_size, threshold, level = self._hsdp
            context.set_auto_parallel_context(enable_parallel_optimizer=True, optimizer_weight_shard_size=shard_size,
                                              parallel_optimizer_config={"parallel_optimizer_threshold": threshold,
                                                                         "optimizer_level": level})

    def __call__(self, *inputs, **kwargs):
        # The settings hold for this call only, as MindSpore's (which sets them for the compile and clears them
        # after); the user's own auto-parallel context comes back afterwards.
        saved = context.auto_parallel_snapshot()
        try:
            # The configuration and the search act on the real Parameters, before any trace binds them.
            self._configure()
            if self._planned is None:
                self._first_call(inputs)
            outputs = super().__call__(*inputs, **kwargs)
        finally:
            context.restore_auto_parallel(saved)
        if self._strategy_file is not None:
            self._write_strategy_file(self._strategy_file)
            self._strategy_file = None
        return outputs

    def _first_call(self, inputs):
        self._planned = {}
        network = self._network_cell()
        if self._init_param_in_compile:
            # Weights made under no_init_parameters get their values now, in the network's order, as in a
            # run without AutoParallel (the search below reads only some of them, in its own order).
            network.init_parameters_data()
        if self._load_strategy_file is not None:
            self._loaded = parameter_layouts.load_layouts(network, self._load_strategy_file, self._only_trainable_params)
        if self.parallel_mode == "recursive_programming":
            self._planned = search_layouts(network, inputs)
        if self._hsdp is not None:  # after the search: it shards only what stays replicated
            self._optimizer_sharded = optimizer_shard.shard_optimizer(network, *self._hsdp)

    def construct(self, *inputs):
        return self.network(*inputs)

    def save_param_strategy_file(self, file_path):
        """Write the weight layouts as MindSpore's JSON strategy file at ``file_path``.

        As MindSpore's, it may be called before the first call: the file is then written when the network
        compiles (the layouts are chosen then); after it, the file is written at once.

        Args:
            file_path (str): the JSON file to write.
        """
        if not isinstance(file_path, str) or not file_path:
            raise TypeError(f"For 'AutoParallel.save_param_strategy_file', the argument 'file_path' must be a "
                            f"non-empty str, but got {file_path!r}.")
        if self._planned is None:
            self._strategy_file = file_path
            return
        self._write_strategy_file(file_path)

    def _write_strategy_file(self, file_path):
        network = self._network_cell()
        everything = None if self._only_trainable_params else network.get_parameters()
        parameter_layouts.save_layouts(file_path, self._planned, self._loaded, everything, network.trainable_params())


__all__ = ["AutoParallel"]


def _operator_strategy_file(method, file_path):
    if not isinstance(file_path, str):
        raise TypeError(f"For 'AutoParallel.{method}', the argument 'file_path' must be str, but got the type : "
                        f"{type(file_path)} .")
    if not os.path.isabs(file_path):
        raise KeyError(f"For 'AutoParallel.{method}', the argument 'file_path' must be an absolute path.")
    if os.path.splitext(file_path)[1] != ".json":
        raise KeyError(f"For 'AutoParallel.{method}', the file type must be .json")
    raise NotImplementedError(
        f"AutoParallel.{method}: sporax's search chooses parameter layouts and lets XLA's GSPMD propagate the "
        "operators' shardings, so there are no per-operator strategies to save or load. Use "
        "save_param_strategy_file / load_param_strategy_file for the parameter layouts instead.")


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

