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
    # MindSpore 2.10's graph package (its custom-pass registry is not provided; lazy_inline is jit's).
    "mindspore.graph": "sporax.graph",
    "mindspore.graph.lazy_inline": "sporax.graph",
    "mindspore.common.sparse_tensor": "sporax.core.sparse",
    "mindspore.common.recompute": "sporax.autodiff",
    "mindspore.context": "sporax.core.context",
    # mindspore.version holds only __version__ (the hook answers it with MINDSPORE_VERSION).
    "mindspore.version": "sporax",
    # --- mindspore.ops: functions, Primitive classes, composites ---
    "mindspore.ops.operations": "sporax.ops.operations",
    "mindspore.ops.operations.comm_ops": "sporax.ops.operations",
    "mindspore.ops.communication": "sporax.parallel.process_group_api",
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
    "mindspore.nn.probability": "sporax.nn.probability",
    "mindspore.nn.probability.distribution": "sporax.nn.probability.distribution",
    "mindspore.nn.probability.bijector": "sporax.nn.probability.bijector",
    "mindspore.nn.probability.bnn_layers": "sporax.nn.probability.bnn_layers",
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
    "mindspore.dataset.debug": "sporax.dataset.core.debug_hooks",
    "mindspore.dataset.vision": "sporax.dataset.vision",
    "mindspore.dataset.audio": "sporax.dataset.audio",
    "mindspore.dataset.audio.transforms": "sporax.dataset.audio",
    "mindspore.dataset.audio.utils": "sporax.dataset.audio",
    "mindspore.dataset.vision.transforms": "sporax.dataset.vision",
    "mindspore.dataset.vision.c_transforms": "sporax.dataset.vision",
    "mindspore.dataset.vision.py_transforms": "sporax.dataset.vision",
    "mindspore.dataset.vision.py_transforms_util": "sporax.dataset.vision.python_helpers",
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
    "mindspore.numpy.fft": "sporax.numpy.fft",
    "mindspore.scipy": "sporax.scipy",
    "mindspore.scipy.linalg": "sporax.scipy.linalg",
    "mindspore.scipy.fft": "sporax.scipy.fft",
    "mindspore.scipy.optimize": "sporax.scipy.optimize",
    "mindspore.scipy.optimize.minimize": "sporax.scipy.optimize",
    "mindspore.scipy.optimize.line_search": "sporax.scipy.optimize",
    "mindspore.scipy.optimize.linear_sum_assignment": "sporax.scipy.optimize",
    "mindspore.mint.optim": "sporax.mint.optim",
    "mindspore.mint.nn": "sporax.mint.nn",
    "mindspore.mint.nn.functional": "sporax.mint.nn.functional",
    "mindspore.mint.linalg": "sporax.mint.linalg",
    "mindspore.mint.special": "sporax.mint.special",
    "mindspore.mint.distributed": "sporax.mint.distributed",
    "mindspore.mint.functional": "sporax.mint.nn.functional",  # MindSpore binds mint.nn.functional there too
    "mindspore.dataset.text.utils": "sporax.dataset.text",
    # --- logging, profiling (``mindspore.profiler.profiling``: the 1.x path of the same Profiler) ---
    "mindspore.log": "sporax.log",
    "mindspore.profiler": "sporax.profiler",
    "mindspore.profiler.profiling": "sporax.profiler",
    "mindspore.profiler.schedule": "sporax.profiler.schedule",
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
    "mindspore.communication._comm_helper": "sporax.parallel.communication",
    "mindspore.train.node_strategy_pb2": "sporax.parallel.strategy_messages",
    "mindspore.parallel.strategy": "sporax.parallel.strategy_metadata",
    "mindspore.train._utils": "sporax.parallel.strategy_metadata",
    "mindspore.train.callback._checkpoint": "sporax.train.callback.checkpoint",
    "mindspore.ops._grad_experimental": "sporax.parallel.context_view",
    "mindspore.ops._grad_experimental.grad_comm_ops": "sporax.parallel.context_view",
    "mindspore.common.file_system": "sporax.io.mindio",
    # Ascend's stress test: refused as MindSpore refuses it off Ascend.
    "mindspore.utils": "sporax.train.ascend_services",
    "mindspore.utils.dlpack": "sporax.ops.dlpack",
    "mindspore.parallel": "sporax.parallel",
    "mindspore.parallel._auto_parallel_context": "sporax.parallel.context_view",
    "mindspore.parallel._utils": "sporax.parallel.context_view",
    "mindspore.parallel._cost_model_context": "sporax.parallel.algo_parameters",
    "mindspore.parallel.algo_parameter_config": "sporax.parallel.algo_parameters",
    # --- logging, profiling (``mindspore.profiler.profiling``: the 1.x path of the same Profiler) ---
    # --- mindspore.parallel: shardings, layouts, distributed checkpoints ---
    "mindspore.parallel.shard": "sporax.parallel",
    "mindspore.parallel.auto_parallel": "sporax.parallel.auto_parallel",
    "mindspore.parallel.nn": "sporax.parallel.nn",
    "mindspore.parallel.nn.parallel_cell_wrapper": "sporax.parallel.nn",
    "mindspore.parallel.nn.parallel_grad_reducer": "sporax.parallel.nn",
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
    "mindspore._c_expression.amp": "sporax.train.amp.strategy",  # AmpLevel, create_amp_strategy (mindone)
    "mindspore._c_expression.typing": "sporax.core.dtype",  # the classes of the dtype objects (Float, BFloat ...)
    "mindspore._checkparam": "sporax.core.validator",
    "mindspore.common.generator": "sporax.core.generator",
    "mindspore.common.np_dtype": "sporax.core.numpy_dtype",
    "mindspore.ops._primitive_cache": "sporax.ops.primitive",
    "mindspore.ops.operations._grad_ops": "sporax.ops.operations.grad_ops",
    "mindspore.ops.operations._inner_ops": "sporax.ops.operations",
    # MindSpore's hand-written Primitives (Cast, Shape ...); mindnlp 0.4 stores an infer_value_for_* hook on ops_def.
    "mindspore.ops.operations.manually_defined": "sporax.ops.operations",
    "mindspore.ops.operations.manually_defined.ops_def": "sporax.ops.operations",
    "mindspore.ops.operations.array_ops": "sporax.ops.operations",
    "mindspore.ops.operations.math_ops": "sporax.ops.operations",
    "mindspore.ops.operations.nn_ops": "sporax.ops.operations",
    "mindspore.ops.operations.random_ops": "sporax.ops.operations",
    "mindspore.ops.operations.sparse_ops": "sporax.ops.operations.sparse_component_ops",
    "mindspore.ops.operations.other_ops": "sporax.ops.operations",
    "mindspore.ops.auto_generate": "sporax.ops",
    "mindspore.ops.auto_generate.gen_ops_def": "sporax.ops",
    "mindspore.ops.auto_generate.gen_ops_prim": "sporax.ops",
    "mindspore._extends": "sporax.graph",
    "mindspore._extends.parse": "sporax.graph",
    "mindspore._extends.parse.compile_config": "sporax.graph.compile_config",
    "mindspore.dataset.engine.cache_client": "sporax.dataset.engine.cache_client",
    "mindspore.dataset.engine.serializer_deserializer": "sporax.dataset.engine.serializer_deserializer",
    # --- module-per-file paths the model zoo imports from (mindspore-ai/models official/) ---
    "mindspore.nn.layer.basic": "sporax.nn",
    "mindspore.nn.layer.conv": "sporax.nn",
    "mindspore.nn.layer.dense": "sporax.nn",
    "mindspore.nn.layer.normalization": "sporax.nn",
    "mindspore.nn.layer.pooling": "sporax.nn",
    "mindspore.nn.layer.rnns": "sporax.nn",
    "mindspore.nn.layer.rnn_cells": "sporax.nn",
    "mindspore.nn.layer.container": "sporax.nn",
    "mindspore.nn.layer.embedding": "sporax.nn",
    "mindspore.nn.layer.math": "sporax.nn",
    "mindspore.nn.layer.padding": "sporax.nn",
    "mindspore.nn.layer.image": "sporax.nn",
    "mindspore.nn.layer.combined": "sporax.nn",
    "mindspore.nn.layer.channel_shuffle": "sporax.nn",
    "mindspore.nn.layer.timedistributed": "sporax.nn",
    "mindspore.nn.layer.transformer": "sporax.nn",
    "mindspore.nn.layer.thor_layer": "sporax.nn",
    "mindspore.nn.optim.ada_grad": "sporax.nn",
    "mindspore.nn.optim.adadelta": "sporax.nn",
    "mindspore.nn.optim.adafactor": "sporax.nn",
    "mindspore.nn.optim.adamax": "sporax.nn",
    "mindspore.nn.optim.asgd": "sporax.nn",
    "mindspore.nn.optim.ftrl": "sporax.nn",
    "mindspore.nn.optim.lamb": "sporax.nn",
    "mindspore.nn.optim.lars": "sporax.nn",
    "mindspore.nn.optim.lazyadam": "sporax.nn",
    "mindspore.nn.optim.proximal_ada_grad": "sporax.nn",
    "mindspore.nn.optim.rprop": "sporax.nn",
    "mindspore.nn.optim.thor": "sporax.nn",
    "mindspore.nn.grad": "sporax.nn",
    "mindspore.nn.grad.cell_grad": "sporax.nn",
    "mindspore.train.metrics.accuracy": "sporax.train",
    "mindspore.train.metrics.metric": "sporax.train",
    "mindspore.train.metrics.loss": "sporax.train",
    "mindspore.train.metrics.topk": "sporax.train",
    "mindspore.train.metrics.precision": "sporax.train",
    "mindspore.train.metrics.recall": "sporax.train",
    "mindspore.train.metrics.fbeta": "sporax.train",
    "mindspore.train.metrics.error": "sporax.train",
    "mindspore.train.metrics.auc": "sporax.train",
    "mindspore.train.metrics.roc": "sporax.train",
    "mindspore.train.metrics.dice": "sporax.train",
    "mindspore.train.metrics.bleu_score": "sporax.train",
    "mindspore.train.metrics.confusion_matrix": "sporax.train",
    "mindspore.train.metrics.perplexity": "sporax.train",
    "mindspore.train.metrics.cosine_similarity": "sporax.train",
    "mindspore.dataset.engine.datasets": "sporax.dataset",
    "mindspore.dataset.engine.datasets_vision": "sporax.dataset",
    "mindspore.dataset.engine.datasets_text": "sporax.dataset",
    "mindspore.dataset.engine.datasets_audio": "sporax.dataset",
    "mindspore.dataset.engine.datasets_user_defined": "sporax.dataset",
    "mindspore.dataset.engine.datasets_standard_format": "sporax.dataset",
    "mindspore.dataset.engine.iterators": "sporax.dataset",
    "mindspore.dataset.engine.samplers": "sporax.dataset",
    "mindspore.dataset.samplers": "sporax.dataset",  # MindSpore binds engine.samplers there too
    "mindspore.dataset.callback": "sporax.dataset.callback",
    "mindspore.dataset.core": "sporax.dataset.core",
    "mindspore.dataset.core.config": "sporax.dataset.core.config",
    "mindspore.ops.composite.base": "sporax.ops.composite",
    "mindspore.ops.composite.math_ops": "sporax.ops.composite",
    "mindspore.ops.composite.multitype_ops": "sporax.ops.composite",
    "mindspore.ops.operations.control_ops": "sporax.ops.operations",
    "mindspore.ops.operations.custom_ops": "sporax.ops.operations",
    "mindspore.ops.operations.debug_ops": "sporax.ops.operations",
    "mindspore.ops.operations.image_ops": "sporax.ops.operations",
    "mindspore.ops.operations.linalg_ops": "sporax.ops.operations",
    # --- MindSpore's own module layout under ops.function / ops.operations / ops.composite (its tests import it) ---
    "mindspore.ops.function.array_func": "sporax.ops.functional",
    "mindspore.ops.function.math_func": "sporax.ops.functional",
    "mindspore.ops.function.nn_func": "sporax.ops.functional",
    "mindspore.ops.function.random_func": "sporax.ops.functional",
    "mindspore.ops.function.sparse_unary_func": "sporax.ops.functional",
    "mindspore.ops.function.fft_func": "sporax.ops.functional",
    "mindspore.ops.function.grad": "sporax.ops.functional",
    "mindspore.ops.function.grad.grad_func": "sporax.ops.functional",
    "mindspore.ops.operations.spectral_ops": "sporax.ops.operations",
    "mindspore.ops.operations.inner_ops": "sporax.ops.operations",
    "mindspore.ops.operations._sequence_ops": "sporax.ops.operations",
    "mindspore.ops.operations._scalar_ops": "sporax.ops.operations",
    "mindspore.ops.operations._quant_ops": "sporax.ops.operations",
    "mindspore.ops.operations._embedding_cache_ops": "sporax.ops.operations",
    "mindspore.ops.operations._rl_inner_ops": "sporax.ops.operations",
    "mindspore.ops.operations._csr_ops": "sporax.ops.operations.csr_ops",
    "mindspore.ops.operations._thor_ops": "sporax.ops.operations",
    "mindspore.ops.operations._ocr_ops": "sporax.ops.operations",
    "mindspore.ops.operations._map_tensor_ops": "sporax.ops.operations",
    "mindspore.ops.operations._infer_ops": "sporax.ops.operations",
    "mindspore.ops.function.clip_func": "sporax.ops.functional",
    "mindspore.ops.function.debug_func": "sporax.ops.functional",
    "mindspore.ops.function.image_func": "sporax.ops.functional",
    "mindspore.ops.function.linalg_func": "sporax.ops.functional",
    "mindspore.ops.function.other_func": "sporax.ops.functional",
    "mindspore.ops.function.parameter_func": "sporax.ops.functional",
    "mindspore.ops.function.sparse_func": "sporax.ops.functional",
    "mindspore.ops.function.spectral_func": "sporax.ops.functional",
    "mindspore.ops.function.vmap_func": "sporax.ops.functional",
    "mindspore.common.jit_config": "sporax.graph",
    "mindspore.ops.op_info_register": "sporax.ops.op_info_register",
    "mindspore.runtime": "sporax.core.runtime",
    "mindspore.hal": "sporax.core.hal",
    "mindspore.device_context": "sporax.core.device_targets",
    "mindspore.device_context.cpu": "sporax.core.device_targets",
    "mindspore.device_context.gpu": "sporax.core.device_targets",
    "mindspore.device_context.ascend": "sporax.core.device_targets",
    "mindspore.device_context.ascend.op_precision": "sporax.core.device_targets",
    "mindspore.device_context.ascend.op_debug": "sporax.core.device_targets",
    "mindspore.device_context.ascend.op_tuning": "sporax.core.device_targets",
    "mindspore.device_context.gpu.device": "sporax.core.device_targets",
    "mindspore.device_context.gpu.op_precision": "sporax.core.device_targets",
    "mindspore.device_context.gpu.op_tuning": "sporax.core.device_targets",
    "mindspore.device_context.cpu.op_tuning": "sporax.core.device_targets",
    "mindspore.rewrite": "sporax.graph.rewrite",
    "mindspore.safeguard": "sporax.io.obfuscation",
    "mindspore.onnx": "sporax.io.onnx_export",
    # The module of MindSpore 2.10's overloaded functions (mint's, spelled at their generated home).
    "mindspore.ops.functional_overload": "sporax.mint",
    # --- mindspore.boost: its gradient accumulation (mindcv's TrainStep subclasses it) ---
    "mindspore.boost": "sporax.nn.wrap.gradient_accumulation",
    "mindspore.boost.grad_accumulation": "sporax.nn.wrap.gradient_accumulation",
    "mindspore.boost.base": "sporax.nn.wrap.boost_processes",
}

# Private names MindSpore defines at a legacy path and user code subclasses or calls (``from
# mindspore.nn.loss.loss import _Loss``): the alias module looks a name up here when the canonical
# module lacks it, so the canonical package keeps only public names.
PRIVATE_HOMES = {
    "mindspore.nn.loss.loss": "sporax.nn.loss.base",
    "mindspore.nn.layer.conv": "sporax.nn.layer.conv",
    "mindspore.nn.layer.normalization": "sporax.nn.layer.normalization",
    "mindspore.nn.wrap.cell_wrapper": "sporax.nn.wrap.micro_batch",
    "mindspore.ops.function.nn_func": "sporax.ops.functional.multihead_attention_pieces",
    "mindspore.train.summary.summary_record": "sporax.train.summary.record",
    "mindspore.train.amp": "sporax.train.amp.legacy_builders",
    "mindspore.nn.wrap.loss_scale": "sporax.train.amp.legacy_builders",
    # the generated module-level Primitive instances (``cast_op``), made at first use
    **dict.fromkeys(("mindspore.ops.auto_generate", "mindspore.ops.auto_generate.gen_ops_prim",
                     "mindspore.ops.auto_generate.gen_ops_def"), "sporax.ops.operations.primitive_instances"),
}



def _public_spellings(namespace, internal_names):
    """Rows for MindSpore's generated names of public functions: ``amax_ext`` (and ``chunk_view``,
    ``transpose_ext_view``) is ``<namespace>.amax``; a name without such a suffix is the same name."""
    rows = {}
    for internal in internal_names.split():
        public = internal
        for suffix in ("_ext_view", "_ext", "_view"):
            if public.endswith(suffix):
                public = public[:-len(suffix)]
                break
        rows[internal] = f"{namespace}.{public}"
    return rows


# Names MindSpore binds in its generated/internal modules to objects it also exports publicly
# (``mindspore.ops.function.math_func.amax_ext is mindspore.mint.amax``); user code and MindSpore's
# own docstring examples call them there. Each row: alias path -> {name: sporax object path}; the
# alias module looks a name up here when its canonical module lacks it. Recorded from MindSpore
# 2.10 (the names whose object is identical to a public one that sporax has).
_GPU_PRECISION = ("matmul_allow_tf32", "conv_allow_tf32")
_GPU_TUNING = ("conv_fprop_algo", "conv_dgrad_algo", "conv_wgrad_algo")
_AUTO_GENERATE_NAMES = {
    **_public_spellings("sporax.mint", """
        acos_ext acosh_ext argmax_ext argmin_ext argsort_ext asin_ext asinh_ext atan2_ext atan_ext
        batch_norm_elemt batch_norm_gather_stats_with_counts batch_norm_stats bincount_ext bmm_ext
        broadcast_to_view clone conv_tbc cummin_ext cumsum_ext diag_ext frac_ext histc_ext
        index_select_ext isneginf_ext log10_ext log2_ext logaddexp_ext logsumexp_ext mm_ext
        narrow_view npu_gelu outer_ext select_ext_view stack_ext topk_ext trace_ext
        transpose_ext_view triangular_solve vdot"""),
    **_public_spellings("sporax.mint.nn.functional", """
        adaptive_avg_pool3d_ext avg_pool1d_ext elu_ext fold_ext leaky_relu_ext max_unpool2d_ext mish_ext selu_ext
        softplus_ext unfold_ext"""),
    # The generated Primitive classes sporax has (MindSpore's own tests import them from these modules).
    **_public_spellings("sporax.ops.operations", """
        AddExt AddScalar ArgMaxExt BatchMatMulExt BoolNot BroadcastToView Chunk ChunkView ClampScalar Contiguous
        Copy Divs EqualExt ExpandDimsView FlattenExt FullLike GeluExt GreaterEqualScalar IndexSelect LayerNormExt
        LeakyReLUExt LessScalar LinalgVectorNorm MaskedFillScalar MatMulExt Max MeanExt Min Muls Narrow NarrowView
        Norm OnesLikeExt PowScalarTensor PowTensorScalar ProdExt ScalarAdd ScalarBool ScalarDiv ScalarEq
        ScalarFloorDiv ScalarGe ScalarGt ScalarLe ScalarLog ScalarLt ScalarMax ScalarMin ScalarMod ScalarMul
        ScalarPow ScalarSub ScalarUadd ScalarUsub SiLU SoftplusExt SplitTensor SplitTensorView SplitWithSize
        SplitWithSizeView SubExt SubScalar SumExt TExt TensorToScalar TrilExt TupleToTensor View ZerosLikeExt
        StackExt OneHotExt Scatter TopkExt CumsumExt SortExt FmodScalar GroupedMatmul Swiglu Outer
        MoeFinalizeRouting MoeInitRoutingV2 MoeTokenUnpermute MoeDistributeDispatch MoeDistributeCombine
        FusedAddTopKDiv DynamicQuantExt QuantV2 QuantBatchMatmul GroupedMatmulV4 DropoutExt InplaceCopy
        MaxDim MinDim NewOnes NewZeros SliceExt SliceExtView"""),
    **_public_spellings("sporax.mint", "flatten_ext"),
    "clamp_scalar": "sporax.mint.clamp",  # MindSpore's two kernels of mint.clamp (number or Tensor bounds)
    "clamp_tensor": "sporax.mint.clamp",
    "expand_dims_view": "sporax.ops.functional.expand_dims",
    "transpose_view": "sporax.ops.functional.transpose",
    "copy": "sporax.mint.clone",
    "view": "sporax.ops.functional.reshape",
    "inplace_addr": "sporax.mint.addr_",
    "inplace_elu": "sporax.ops.functional.inplace.inplace_elu",
    "inplace_silu": "sporax.ops.functional.inplace.inplace_silu",
    "inplace_hardtanh": "sporax.mint.nn.functional.hardtanh_",
    "inplace_threshold": "sporax.mint.nn.functional.threshold_",
    "linalg_qr": "sporax.mint.linalg.qr",
    "muls": "sporax.ops.tensor_muls",
    "slice_op": "sporax.ops.tensor_slice",
    # ``add_ext(input, other, alpha)`` takes ``alpha`` by position too (mint.add's is keyword-only).
    "add_ext": "sporax.ops.operations.primitive_instances.add_ext_op",
    "sub_ext": "sporax.ops.operations.primitive_instances.sub_ext_op",
}

NAMES = {
    "mindspore.ops.function.math_func": {
        **_public_spellings("sporax.mint", """
            acos_ext acosh_ext addbmm_ext addcmul_ext addmm_ext addmv_ext amax_ext amin_ext
            arccos_ext arccosh_ext arcsin_ext arcsinh_ext arctan2_ext arctan_ext argmax_ext asin_ext
            asinh_ext atan2_ext atan_ext bincount_ext bitwise_and_ext bitwise_or_ext bitwise_xor_ext
            bmm_ext frac_ext histc_ext inverse_ext linspace_ext median_ext norm_ext pow_ext std_ext
            std_mean_ext var_ext var_mean_ext"""),
        **_public_spellings("sporax.mint.linalg", "matrix_norm_ext vector_norm_ext"),
        "linalg_norm": "sporax.mint.linalg.norm",
        "muls": "sporax.ops.tensor_muls",
        "mean_ext": "sporax.ops.mean",  # (input, axis=None, keep_dims=False): ops.mean's parameters
    },
    "mindspore.ops.function.array_func": {
        **_public_spellings("sporax.mint", """
            arange_ext chunk_view full_ext full_like_ext gather_ext meshgrid_ext ones_like_ext
            scatter_add_ext sort_ext split_view tril_ext unbind_ext unique_ext unsqueeze_view
            zeros_like_ext"""),
        "slice_op": "sporax.ops.tensor_slice",
        "chunk_ext": "sporax.mint.chunk",
        "max_ext": "sporax.mint.max",
        "min_ext": "sporax.mint.min",
        "new_ones": "sporax.ops.tensor_shape.new_ones",
        "new_zeros": "sporax.ops.tensor_shape.new_zeros",
        "arg_max_with_value_": "sporax.ops.operations.reduce_ops.arg_max_with_value_",
        "arg_min_with_value_": "sporax.ops.operations.reduce_ops.arg_min_with_value_",
    },
    "mindspore.ops.function.nn_func": {
        **_public_spellings("sporax.mint.nn.functional", """
            avg_pool2d_ext avg_pool3d_ext batch_norm_ext cross_entropy_ext dropout2d_ext dropout_ext
            glu_ext interpolate_ext kl_div_ext log_softmax_ext logsigmoid_ext max_pool2d_ext
            nll_loss_ext pad_ext relu_ l1_loss_ext softmax_ext"""),
        **_public_spellings("sporax.mint", "conv2d_ext gather_ext flatten_ext"),
        "ctc_greedy_decoder": "sporax.ops.ctc_greedy_decoder",
        # interpolate_ext's size helpers (mindone's layers_compat), MindSpore's own spelling
        "_interploate_ext_make_tuple": "sporax.ops.functional.interpolate_sizes.per_spatial_axis",
        "_interpolate_ext_scale_factor_convert_size": "sporax.ops.functional.interpolate_sizes.scale_factor_to_size",
    },
    "mindspore.ops.function.random_func": _public_spellings("sporax.mint", """
        multinomial_ext normal_ext rand_ext rand_like_ext randint_ext randint_like_ext randn_ext
        randn_like_ext randperm_ext"""),
    "mindspore.ops.auto_generate": _AUTO_GENERATE_NAMES,
    # The classes of the pipeline's stages (``isinstance(ds.batch(2), BatchDataset)``), each in its own module here.
    "mindspore.dataset.engine.datasets": {
        **{name: f"sporax.dataset.engine.batching.{name}"
           for name in ("BatchDataset", "BucketBatchByLengthDataset", "PaddedBatchDataset")},
        **{name: f"sporax.dataset.engine.operations.{name}"
           for name in ("ConcatDataset", "FilterDataset", "ProjectDataset", "RenameDataset", "RepeatDataset",
                        "ShuffleDataset", "SkipDataset", "TakeDataset", "ZipDataset")},
        "MapDataset": "sporax.dataset.engine.mapping.MapDataset",
        "SyncWaitDataset": "sporax.dataset.engine.sync.SyncWaitDataset",
        "TransferDataset": "sporax.dataset.engine.transfer.TransferDataset",
    },
    # ``nn.layer``'s CosineSimilarity is a Cell; the ``mindspore.nn`` one is the metric (sporax.nn's).
    **dict.fromkeys(("mindspore.nn.layer", "mindspore.nn.layer.math"),
                    {"CosineSimilarity": "sporax.nn.layer.math_cells.CosineSimilarity"}),
    "mindspore.boost": {name: f"sporax.nn.wrap.boost_processes.{name}"
                        for name in ("OptimizerProcess", "ParameterProcess")},
    "mindspore.ops": {"Tensor": "sporax.core.tensor.Tensor"},  # MindSpore's ops re-exports the Tensor class
    # One module serves the three targets; each path's names are its target's functions.
    **{f"mindspore.device_context.{target}": {name: f"sporax.core.device_targets.{target}_{name}"
                                              for name in names}
       for target, names in (("cpu", ("device_count", "is_available", "threads_num")),
                             ("ascend", ("device_count", "is_available")))},
    "mindspore.device_context.cpu.op_tuning": {"threads_num": "sporax.core.device_targets.cpu_threads_num"},
    # The GPU's operator settings (MindSpore's gpu namespace re-exports op_precision's and op_tuning's).
    **{path: {name: f"sporax.core.device_targets.gpu_{name}" for name in names}
       for path, names in (("mindspore.device_context.gpu",
                            _GPU_PRECISION + _GPU_TUNING + ("device_count", "is_available")),
                           ("mindspore.device_context.gpu.op_precision", _GPU_PRECISION),
                           ("mindspore.device_context.gpu.op_tuning", _GPU_TUNING))},
    # Ascend's operator debugging and tuning settings, and the GPU's device queries (also in gpu's namespace).
    **{path: {name: f"sporax.core.device_targets.{target}_{name}" for name in names}
       for path, target, names in (
           ("mindspore.device_context.ascend.op_debug", "ascend",
            ("execute_timeout", "debug_option", "aclinit_config")),
           ("mindspore.device_context.ascend.op_tuning", "ascend",
            ("op_compile", "aoe_tune_mode", "aoe_job_type", "aclnn_cache")),
           ("mindspore.device_context.gpu.device", "gpu", ("device_count", "is_available")))},
    # Ascend's operator-precision settings (accepted and ignored off Ascend, as MindSpore does).
    "mindspore.device_context.ascend.op_precision": {
        name: f"sporax.core.device_targets.ascend_{name}"
        for name in ("precision_mode", "op_precision_mode", "matmul_allow_hf32", "conv_allow_hf32")},
    "mindspore.ops.auto_generate.gen_ops_def": _AUTO_GENERATE_NAMES,
    "mindspore.ops.auto_generate.gen_ops_prim": _AUTO_GENERATE_NAMES,
    "mindspore.common.api": {"flops_collection": "sporax.train.ascend_services.flops_collection"},
    "mindspore.common.seed": {"_get_graph_seed": "sporax.core.seeded_streams.graph_seed"},
    "mindspore.parallel.shard": {"_DistributedTensorInfo": "sporax.parallel.layout._DistributedTensorInfo"},
    # The C++ context object and process queries libraries read (mindformers' version_control).
    "mindspore._c_expression": {**{name: f"sporax.core.backend_context.{name}"
                                   for name in ("MSContext", "is_reboot_node", "swap_cache")},
                                # mindnlp 0.4's Parameter builds one with no arguments.
                                "ParamInfo": "sporax.core.parameter.ParamInfo"},
    # Its other names are mint's own (the row above serves the module from sporax.mint).
    "mindspore.ops.functional_overload": {
        **_public_spellings("sporax.mint.nn.functional", "conv1d conv2d conv3d gelu pixel_shuffle"),
        **_public_spellings("sporax.ops", "all_gather_matmul matmul_reduce_scatter nsa_compress"),
    },
}


def canonical_name(alias_name):
    """Return the canonical sporax module name for a MindSpore module path, or None."""
    return ALIASES.get(alias_name)
