"""sporax: MindSpore's Python programming model on JAX/XLA.

This package is the top-level ``mindspore`` surface: ``import mindspore as ms`` under
``sporax run`` (or after ``sporax.compat.install()``) gives these very objects.
"""
__version__ = "0.1.0"
# The MindSpore release whose behaviour sporax follows: ``mindspore.__version__`` under the compat
# hook, since libraries branch on it (a 0.x would send them down their MindSpore 1.x paths).
MINDSPORE_VERSION = "2.10.0"

# A launcher process (`python -m sporax launch`, `msrun`) runs the launch here and exits: it needs neither JAX nor
# the namespace below, which its workers import themselves.
from sporax.launcher_process import run_if_launcher as _run_if_launcher

_run_if_launcher()

# --- Tensor, Parameter, dtypes, context, seeds ---
from sporax.core import context, dtype
from sporax.core.context import (
    COMPATIBLE, GRAPH_MODE, LAX, PYNATIVE_MODE, STRICT, ParallelMode, get_auto_parallel_context,
    get_context, get_ps_context, reset_auto_parallel_context, reset_ps_context, set_auto_parallel_context,
    set_context, set_device, set_ps_context,
)
from sporax.core.dtype import (
    Int, QuantDtype, TensorType, Type, bfloat16, bool_, byte, cdouble, cfloat, complex64,
    complex128, double, dtype_to_nptype, dtype_to_pytype, float8_e4m3fn, float8_e5m2, float16,
    float32, float64, float_, get_py_obj_dtype, half, hifloat8, int8, int16, int32, int64, int_,
    intc, intp, list_, long, number, pytype_to_dtype, qint4x2, short, single, string,
    tensor_type, tuple_, type_none, ubyte, uint, uint8, uint16, uint32, uint64, uintc, uintp,
    ushort,
)
from sporax.core.parameter import Parameter, ParameterTuple
from sporax.core.sparse import COOTensor, CSRTensor, RowTensor
from sporax.core.random_state import get_seed, set_seed
from sporax.core.tensor import Tensor, from_numpy, tensor

# --- the namespaces: mindspore.ops, mindspore.nn, mindspore.dataset, mindspore.train ---
from sporax import ops, nn, dataset, train  # noqa: E402,I001 - after core, in dependency order

# The dataset pipeline is NumPy-only: its iterators get sporax's Tensor from here, above both.
from sporax.core.tensor_print import numpy_backed as _numpy_backed  # noqa: E402
from sporax.dataset.engine import iterators as _dataset_iterators  # noqa: E402

_dataset_iterators.use_tensor_factories(_numpy_backed, Tensor)
from sporax.core import random_state as _random_state  # noqa: E402
from sporax.dataset.core import config as _dataset_config  # noqa: E402

_random_state.on_set_seed(_dataset_config.set_seed)  # MindSpore's set_seed seeds the pipeline too

# --- autodiff and graph mode ---
from sporax.autodiff import (
    get_grad, grad, jacfwd, jacrev, jvp, recompute, value_and_grad, vjp, vmap,
)
from sporax.graph import (
    JitConfig, constexpr, jit, jit_class, lazy_inline, ms_memory_recycle, mutable, no_inline,
)

# --- checkpoints and export ---
from sporax.io import export, load, load_checkpoint, load_param_into_net, save_checkpoint

# --- distributed: shardings, layouts, distributed checkpoints ---
from sporax.parallel import (
    Layout, build_searched_strategy, load_distributed_checkpoint, load_segmented_checkpoints,
    merge_sliced_parameter, rank_list_for_transform, restore_group_info_list, shard,
    transform_checkpoint_by_rank, transform_checkpoints,
)

# --- training: Model, callbacks, metrics, mixed precision (mindspore re-exports mindspore.train) ---
from sporax.train import (
    F1, MAE, MSE, Accuracy, Callback, CheckpointConfig, DatasetHelper, EarlyStopping, Fbeta,
    History, LambdaCallback, Loss, LossMonitor, Metric, Model, ModelCheckpoint, Precision, Recall,
    ReduceLROnPlateau, RunContext, SummaryCollector, TimeMonitor, Top1CategoricalAccuracy,
    Top5CategoricalAccuracy, TopKCategoricalAccuracy, connect_network_with_dataset, data_sink,
    get_metric_fn, names, rearrange_inputs,
)
from sporax.train import amp
from sporax.train.amp import (
    DynamicLossScaleManager, FixedLossScaleManager, LossScaleManager, build_train_network,
)

# --- logging and profiling ---
from sporax import log, profiler
from sporax.profiler import Profiler
# --- mindspore.numpy and mindspore.mint (name tables onto the ops and Cells above) ---
from sporax import mint, numpy  # noqa: E402
from sporax.dataset.dataloader import samplers as _dataloader_samplers  # noqa: E402


def _world_size_and_rank():
    """The default (num_replicas, rank) of ``DistributedSampler``: mint.distributed's world (1, 0 alone)."""
    from sporax.mint import distributed  # noqa: PLC0415 - the communication layer loads on first use

    return distributed.get_world_size(), distributed.get_rank()


_dataloader_samplers.use_process_group(_world_size_and_rank)

# MindSpore's legacy paths spelled with this package's name (``sporax.common.dtype``) are rows of
# the compat table too; the finder only answers for paths no real sporax module has.
from sporax.compat import install_legacy_paths as _install_legacy_paths  # noqa: E402

_install_legacy_paths()

# --- random generators, symbolic shapes, runtime, fault-tolerance callbacks ---
from sporax.core.generator import Generator, manual_seed, seed  # noqa: E402
from sporax.core.symbol import Symbol  # noqa: E402
from sporax.core.runtime import set_memory, synchronize  # noqa: E402
from sporax.io import load_checkpoint_async  # noqa: E402
from sporax.train import BackupAndRestore, LearningRateScheduler  # noqa: E402
from sporax.train import OnRequestExit  # noqa: E402
from sporax.train.metrics import (  # noqa: E402
    BleuScore, ConfusionMatrix, CosineSimilarity, Dice, HausdorffDistance, MeanSurfaceDistance, Perplexity, ROC,
    RootMeanSquareDistance, auc, get_metrics,
)
from sporax.parallel.algo_parameters import (  # noqa: E402
    get_algo_parameters, reset_algo_parameters, set_algo_parameters,
)
from sporax.core.generator import default_generator, get_rng_state, initial_seed, set_rng_state  # noqa: E402
from sporax.log import get_level, get_log_config  # noqa: E402
from sporax.core.tensor_checks import is_tensor  # noqa: E402
from sporax.train.thor import ConvertModelUtils  # noqa: E402
from sporax.train.summary import SummaryRecord  # noqa: E402
from sporax.io.format_convert import ckpt_to_safetensors, safetensors_to_ckpt  # noqa: E402
from sporax.core.tensor_swap import swap_tensors  # noqa: E402
from sporax.core.execution_settings import set_deterministic, set_recursion_limit  # noqa: E402
from sporax.train.metrics import ConfusionMatrixMetric  # noqa: E402
from sporax.train.metrics import OcclusionSensitivity  # noqa: E402
from sporax.io.checkpoint_status import async_ckpt_thread_status  # noqa: E402
from sporax.core.execution_settings import launch_blocking  # noqa: E402
from sporax.parallel.pipeline_merge import merge_pipeline_strategys  # noqa: E402
from sporax.parallel.pipeline_shared import sync_pipeline_shared_parameters  # noqa: E402
from sporax.install_check import run_check  # noqa: E402
from sporax.core.sparse_legacy import SparseTensor  # noqa: E402
from sporax.core.device_info import frombuffer, get_current_device  # noqa: E402
from sporax.autodiff.no_grad import _no_grad  # noqa: E402
from sporax.core.runtime import (  # noqa: E402
    Event, MemPool, PluggableAllocator, Stream, StreamCtx, StreamLimitCtx, communication_stream, current_stream,
    default_stream, dispatch_threads_num, empty_cache, get_device_limit, get_stream_limit, max_memory_allocated,
    max_memory_reserved, memory_allocated, memory_replay, memory_reserved, memory_stats, memory_summary,
    reset_max_memory_allocated, reset_max_memory_reserved, reset_peak_memory_stats, reset_stream_limit,
    set_cpu_affinity, set_cur_stream, set_device_limit, set_kernel_launch_capture, set_kernel_launch_group,
    set_stream_limit, use_mem_pool,
)
from sporax.core.device_context import DeviceCtx  # noqa: E402
from sporax.io.mindir_file import load_mindir, save_mindir  # noqa: E402
from sporax.graph.dynamic_shape import enable_dynamic  # noqa: E402
from sporax.graph.dump_flags import set_dump  # noqa: E402
from sporax.graph.flops import flops_collection  # noqa: E402
from sporax.io.mindio import mindio_preload, set_mindio_server_info  # noqa: E402
from sporax.parallel import parameter_broadcast, unified_safetensors  # noqa: E402
from sporax.train import (  # noqa: E402
    ConvertNetUtils, FlopsUtilizationCollector, SummaryLandscape, TrainFaultTolerance, export_split_mindir,
    get_ckpt_path_with_strategy,
)
from sporax.autodiff.saved_tensors import register_saved_tensors_hooks, saved_tensors_hooks  # noqa: E402
from sporax.io.obfuscation import load_obf_params_into_net, obfuscate_ckpt  # noqa: E402
from sporax.graph.rewrite import Node, NodeType, ScopedValue, SymbolTree  # noqa: E402
from sporax.ops.tensor_storage import UntypedStorage  # noqa: E402
from sporax.autodiff.custom_function import _Function  # noqa: E402


def __getattr__(name):
    # ``mindspore.bool``/``int``/``float``: dtypes under builtin names, kept out of this namespace.
    try:
        return dtype.BUILTIN_NAMED[name]
    except KeyError:
        raise AttributeError(f"module 'sporax' has no attribute {name!r}") from None


# Last, so that every object the import created is frozen (process_setup, 8.).
from sporax.core.process_setup import freeze_import_objects as _freeze_import_objects  # noqa: E402

_freeze_import_objects()
