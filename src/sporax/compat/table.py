"""THE table of MindSpore module paths: each ``mindspore...`` path → the canonical sporax module.

MindSpore exposes one object under many paths (``mindspore.nn.wrap.cell_wrapper.WithLossCell`` is
``mindspore.nn.WithLossCell``). sporax keeps one canonical module per concept and serves every
MindSpore path as an alias of it, so the tree never grows a folder because MindSpore has one.
A path that is not a key here is not provided: importing it raises ``ModuleNotFoundError``.
Every row's sporax module exists (the tests import them all); add a row when its module lands.

Sources of the rows: every import in the seed scripts, the "Deep import paths worth supporting"
section of the API priority list, and the namespaces of the MindSpore 2.10 API inventory.
"""

ALIASES = {
    # --- the package itself and its public namespaces ---
    "mindspore": "sporax",
    "mindspore.nn": "sporax.nn",
    "mindspore.ops": "sporax.ops",
    "mindspore.train": "sporax.train",
    "mindspore.dataset": "sporax.dataset",
    "mindspore.amp": "sporax.train.amp",
    # --- mindspore.common: core objects ---
    "mindspore.common": "sporax",
    "mindspore.common.dtype": "sporax.core.dtype",
    "mindspore.common.initializer": "sporax.core.initializer",
    "mindspore.common.tensor": "sporax.core.tensor",
    "mindspore.common.parameter": "sporax.core.parameter",
    "mindspore.common.seed": "sporax.core.random_state",
    "mindspore.common.api": "sporax.graph",
    "mindspore.common.sparse_tensor": "sporax.core.sparse",
    "mindspore.common.recompute": "sporax.autodiff",
    "mindspore.context": "sporax.core.context",
    # --- mindspore.ops: functions, Primitive classes, composites ---
    "mindspore.ops.operations": "sporax.ops.operations",
    "mindspore.ops.operations.comm_ops": "sporax.ops.operations",
    "mindspore.ops.functional": "sporax.ops.functional",
    "mindspore.ops.composite": "sporax.ops.composite",
    "mindspore.ops.primitive": "sporax.ops",
    # --- mindspore.nn: the module layout of MindSpore 1.x/2.x, all served by sporax.nn ---
    "mindspore.nn.cell": "sporax.nn",
    "mindspore.nn.layer": "sporax.nn",
    "mindspore.nn.layer.activation": "sporax.nn",
    "mindspore.nn.loss": "sporax.nn",
    "mindspore.nn.loss.loss": "sporax.nn",
    "mindspore.nn.optim": "sporax.nn",
    "mindspore.nn.optim.optimizer": "sporax.nn",
    "mindspore.nn.optim.tft_wrapper": "sporax.nn",
    "mindspore.nn.optim.momentum": "sporax.nn",
    "mindspore.nn.optim.sgd": "sporax.nn",
    "mindspore.nn.optim.adam": "sporax.nn",
    "mindspore.nn.optim.rmsprop": "sporax.nn",
    "mindspore.nn.wrap": "sporax.nn",
    "mindspore.nn.wrap.cell_wrapper": "sporax.nn",
    "mindspore.nn.wrap.grad_reducer": "sporax.nn",
    "mindspore.nn.wrap.loss_scale": "sporax.nn",
    "mindspore.nn.learning_rate_schedule": "sporax.nn",
    "mindspore.nn.dynamic_lr": "sporax.nn",
    "mindspore.nn.utils": "sporax.nn",
    # Metrics live in sporax.train (MindSpore moved them to mindspore.train in 2.x).
    "mindspore.nn.metrics": "sporax.train",
    # --- mindspore.train: Model, callbacks, metrics, helpers; checkpoints live in sporax.io ---
    "mindspore.train.model": "sporax.train",
    "mindspore.train.callback": "sporax.train",
    "mindspore.train.callback._callback": "sporax.train",
    "mindspore.train.metrics": "sporax.train",
    "mindspore.train.dataset_helper": "sporax.train",
    "mindspore.train.loss_scale_manager": "sporax.train.amp",
    "mindspore.train.amp": "sporax.train.amp",
    "mindspore.train.summary": "sporax.train",
    "mindspore.train.summary.summary_record": "sporax.train",
    "mindspore.train.serialization": "sporax.io",
    # --- mindspore.dataset: sources, transforms (the removed c_/py_transforms paths too) ---
    "mindspore.dataset.engine": "sporax.dataset",
    "mindspore.mindrecord": "sporax.mindrecord",
    "mindspore.dataset.config": "sporax.dataset.core.config",
    "mindspore.dataset.vision": "sporax.dataset.vision",
    "mindspore.dataset.audio": "sporax.dataset.audio",
    "mindspore.dataset.audio.transforms": "sporax.dataset.audio",
    "mindspore.dataset.audio.utils": "sporax.dataset.audio",
    "mindspore.dataset.vision.transforms": "sporax.dataset.vision",
    "mindspore.dataset.vision.c_transforms": "sporax.dataset.vision",
    "mindspore.dataset.vision.py_transforms": "sporax.dataset.vision",
    "mindspore.dataset.vision.utils": "sporax.dataset.vision",
    "mindspore.dataset.transforms": "sporax.dataset.transforms",
    "mindspore.dataset.transforms.transforms": "sporax.dataset.transforms",
    "mindspore.dataset.transforms.c_transforms": "sporax.dataset.transforms",
    "mindspore.dataset.transforms.py_transforms": "sporax.dataset.transforms",
    "mindspore.dataset.text": "sporax.dataset.text",
    "mindspore.dataset.text.transforms": "sporax.dataset.text",
    # --- PyTorch-style optimizers ---
    "mindspore.experimental": "sporax.mint",
    "mindspore.experimental.optim": "sporax.mint.optim.experimental",
    "mindspore.experimental.optim.lr_scheduler": "sporax.mint.optim.lr_scheduler",
    "mindspore.mint": "sporax.mint",
    "mindspore.numpy": "sporax.numpy",
    "mindspore.scipy": "sporax.scipy",
    "mindspore.scipy.linalg": "sporax.scipy.linalg",
    "mindspore.mint.optim": "sporax.mint.optim",
    "mindspore.mint.nn": "sporax.mint.nn",
    "mindspore.mint.nn.functional": "sporax.mint.nn.functional",
    "mindspore.mint.linalg": "sporax.mint.linalg",
    "mindspore.mint.special": "sporax.mint.special",
    "mindspore.dataset.text.utils": "sporax.dataset.text",
    # --- logging, profiling (``mindspore.profiler.profiling``: the 1.x path of the same Profiler) ---
    "mindspore.log": "sporax.log",
    "mindspore.profiler": "sporax.profiler",
    "mindspore.profiler.profiling": "sporax.profiler",
    "mindspore.ops.function": "sporax.ops.functional",
    # --- MindSpore 1.x's parallel transformer layers (removed from 2.x; the zoo's GPT uses them) ---
    "mindspore.nn.transformer": "sporax.nn.parallel_transformer",
    "mindspore.nn.transformer.transformer": "sporax.nn.parallel_transformer",
    "mindspore.nn.transformer.layers": "sporax.nn.parallel_transformer",
    "mindspore.nn.transformer.loss": "sporax.nn.parallel_transformer",
    "mindspore.nn.transformer.op_parallel_config": "sporax.nn.parallel_transformer",
    "mindspore.nn.transformer.moe": "sporax.nn.parallel_transformer",
    "mindspore.train.train_thor": "sporax.train.thor",
    # --- distributed: communication, parallel context (owner: comm) ---
    "mindspore.communication": "sporax.parallel.communication",
    "mindspore.communication.management": "sporax.parallel.communication",
    "mindspore.communication.comm_func": "sporax.parallel.comm_func",
    "mindspore.parallel": "sporax.parallel",
    "mindspore.parallel._auto_parallel_context": "sporax.parallel.context_view",
    "mindspore.parallel._utils": "sporax.parallel.context_view",
    "mindspore.parallel._cost_model_context": "sporax.parallel.algo_parameters",
    "mindspore.parallel.algo_parameter_config": "sporax.parallel.algo_parameters",
    # --- logging, profiling (``mindspore.profiler.profiling``: the 1.x path of the same Profiler) ---
    # --- mindspore.parallel: shardings, layouts, distributed checkpoints ---
    "mindspore.parallel.shard": "sporax.parallel",
    "mindspore.parallel.checkpoint_transform": "sporax.parallel",
    "mindspore.parallel.checkpoint_convert": "sporax.parallel",
    # the 2.x home of the parallel transformer layers (same objects as mindspore.nn.transformer)
    "mindspore.parallel._transformer": "sporax.nn.parallel_transformer",
    "mindspore.parallel._transformer.transformer": "sporax.nn.parallel_transformer",
    "mindspore.parallel._transformer.layers": "sporax.nn.parallel_transformer",
    "mindspore.parallel._transformer.loss": "sporax.nn.parallel_transformer",
    "mindspore.parallel._transformer.op_parallel_config": "sporax.nn.parallel_transformer",
    "mindspore.parallel._transformer.moe": "sporax.nn.parallel_transformer",
    # --- MindSpore-internal paths its own tests and extensions import ---
    "mindspore._c_expression": "sporax.graph.pynative_executor",
    "mindspore._checkparam": "sporax.core.validator",
    "mindspore.common.generator": "sporax.core.generator",
    "mindspore.ops.operations._grad_ops": "sporax.ops.operations.grad_ops",
    "mindspore.ops.operations._inner_ops": "sporax.ops.operations",
    "mindspore.ops.operations.array_ops": "sporax.ops.operations",
    "mindspore.ops.operations.math_ops": "sporax.ops.operations",
    "mindspore.ops.operations.nn_ops": "sporax.ops.operations",
    "mindspore.ops.operations.random_ops": "sporax.ops.operations",
    "mindspore.ops.operations.sparse_ops": "sporax.ops.operations",
    "mindspore.ops.operations.other_ops": "sporax.ops.operations",
    "mindspore.ops.auto_generate": "sporax.ops",
    "mindspore.ops.auto_generate.gen_ops_def": "sporax.ops",
    "mindspore.ops.auto_generate.gen_ops_prim": "sporax.ops",
    "mindspore._extends": "sporax.graph",
    "mindspore._extends.parse": "sporax.graph",
    "mindspore._extends.parse.compile_config": "sporax.graph.compile_config",
    "mindspore.dataset.engine.cache_client": "sporax.dataset.engine.cache_client",
    "mindspore.dataset.engine.serializer_deserializer": "sporax.dataset.engine.serializer_deserializer",
}


def canonical_name(alias_name):
    """Return the canonical sporax module name for a MindSpore module path, or None."""
    return ALIASES.get(alias_name)
