"""The running context (``mindspore.context``): execution mode, device target and settings.

``mode`` is read by ``Cell.__call__`` (GRAPH_MODE compiles ``construct``); ``device_target``
picks the JAX backend. MindSpore's other keys are accepted and stored (sporax's XLA compiler
has no counterpart for them), and unknown keys raise ``ValueError`` as in MindSpore. The auto
parallel context stores its values here; ``sporax.parallel`` gives them effect.

Example:
    >>> from sporax.core import context
    >>> context.set_context(mode=context.GRAPH_MODE)
    >>> context.get_context("mode")
    0
"""
import contextlib
import contextvars
import copy
import functools
import os
import warnings

import jax

from sporax import log
from sporax.core import context_memory, process_setup, product_precision
from sporax.core.random_state import get_seed, set_seed

GRAPH_MODE = 0
PYNATIVE_MODE = 1
# jit_syntax_level values
STRICT = 0
COMPATIBLE = 1
LAX = 2

_VALID_TARGETS = ("CPU", "GPU", "Ascend", "Davinci")

# MindSpore's keys with its defaults on a CPU build; values sporax has no use for are only stored.
_DEFAULT_CONTEXT = {
    "aoe_config": {}, "aoe_job_type": "2", "aoe_tune_mode": "", "ascend_config": {},
    "atomic_clean_policy": "", "bias_add_comm_swap": False, "check_bprop": False,
    "compile_cache_path": "", "compute_communicate_fusion_level": 0, "conv_allow_hf32": "",
    "conv_allow_tf32": True, "conv_dgrad_algo": "normal", "conv_fprop_algo": "normal",
    "conv_wgrad_algo": "normal", "cur_step_num": 0, "dataset_broadcast_opt_level": 0, "debug_level": 0,
    "deterministic": "OFF", "device_id": 0, "device_target": None, "disable_format_transform": False,
    "enable_allreduce_slice_to_reducescatter": False, "enable_begin_end_inline_opt": False,
    "enable_compile_cache": None, "enable_concat_eliminate_opt": False,
    "enable_flash_attention_load_balance": False, "enable_fused_cast_add_opt": False,
    "enable_grad_comm_opt": False, "enable_graph_kernel": False, "enable_interleave_parallel_branch": False,
    "enable_interleave_split_concat_branch": False, "enable_offloading_packed_experts": True,
    "enable_opt_shard_comm_opt": False, "enable_parallel_split": False, "enable_profiling": False,
    "enable_reduce_precision": True, "enable_task_opt": False, "env_config_path": "", "exec_order": "bfs",
    "ge_options": "", "gpu_config": {}, "graph_kernel_flags": "", "hccl_watchdog": True,
    "host_scheduling_max_threshold": "", "infer_boost": "off", "inter_op_parallel_num": 0,
    "interleaved_layernorm_comm": False, "interleaved_matmul_comm": False, "jit_compile": "",
    "jit_config": {}, "jit_level": "", "jit_syntax_level": LAX, "last_triggered_step": 0,
    "matmul_allow_hf32": "", "matmul_allow_tf32": False, "matmul_grad_comm_overlap": "",
    "max_call_depth": 1000, "max_device_memory": 1024.0, "memory_optimize_level": 0,
    "mempool_block_size": 1.0, "mode": PYNATIVE_MODE, "need_ckpt": False, "op_debug_option": "",
    "op_precision_mode": "", "op_timeout": 900, "pp_1f1b_overlap": "", "precision_mode": "",
    "print_file_path": "", "profiling_options": "training_trace", "pynative_synchronize": False,
    "recompute_allgather_overlap_fagrad": False, "recompute_comm_overlap": "", "runtime_num_threads": 2,
    "save_checkpoint_steps": 0, "save_graphs": 0, "save_graphs_path": ".", "topo_order": "",
    "variable_memory_max_size": "0", "reserve_class_name_in_scope": True, "support_binary": False,
}
# Keys MindSpore 2.10 still accepts with a deprecation warning and no longer stores (get_context rejects them).
_DEPRECATED_IGNORED = ("enable_sparse", "auto_tune_mode", "enable_auto_mixed_precision")
# Stored keys MindSpore 2.10 warns about when set.
_DEPRECATED_STORED = ("reserve_class_name_in_scope",)
# Keys MindSpore 2.10 refuses as removed: the version that removed each and what replaces it.
_REMOVED = {"exception_dump": ("2.6", "device_context.ascend.op_debug.aclinit_config()"),
            "precompile_only": ("2.10", "env MS_DEV_PRECOMPILE_ONLY"), "grad_for_scalar": ("2.10", "tensor derivative")}
# Keys MindSpore only takes inside ascend_config.
_ASCEND_CONFIG_KEYS = ("precision_mode", "jit_compile", "atomic_clean_policy", "matmul_allow_hf32",
                       "conv_allow_hf32", "op_precision_mode", "host_scheduling_max_threshold", "ge_options",
                       "op_debug_option")

_context = copy.deepcopy(_DEFAULT_CONTEXT)
_device_warned = False
_requested = {"device_target": None}  # the target the script asked for, before any fallback


def _check_type(name, value, types):
    if not isinstance(value, types):
        expected = types if isinstance(types, type) else types[0]
        raise TypeError(f"The parameter '{name}' must be {expected}, but got {type(value)}")


def _jax_platform():
    return jax.default_backend()


def _effective_target(requested):
    """The MindSpore device target the JAX backend can serve for ``requested`` (warns once on a fallback)."""
    global _device_warned
    available = {device.platform for device in jax.devices()}
    try:
        available |= {device.platform for device in jax.devices("cpu")}
    except RuntimeError:  # a JAX build without a CPU backend: the default devices are all there is
        available = available
    if requested == "CPU" and "cpu" in available:
        return "CPU"
    if requested == "GPU" and "gpu" in available:
        return "GPU"
    backend = _jax_platform()
    fallback = "GPU" if backend == "gpu" else "CPU"
    if not _device_warned:
        _device_warned = True
        warnings.warn(f"set_context/set_device: device_target='{requested}' is not available to JAX on this "
                      f"machine (JAX backend: '{backend}'); sporax runs on '{fallback}' instead. Set "
                      f"device_target='{fallback}' to silence this warning.", RuntimeWarning, stacklevel=4)
    return fallback


def _apply_device(target, device_id):
    """Make JAX place new arrays on ``device_id`` of ``target`` (when it differs from JAX's default)."""
    platform = {"CPU": "cpu", "GPU": "gpu"}[target]
    # This process's own devices: after communication.init() jax.devices() lists every process's.
    devices = jax.local_devices(backend=platform)
    device = devices[device_id] if device_id < len(devices) else devices[0]
    if device is not jax.local_devices()[0] or jax.config.jax_default_device is not None:
        process_setup.set_default_device(device)


def _set_device_target(value):
    if not isinstance(value, str) or value not in _VALID_TARGETS:
        raise ValueError("For 'context.set_context', the argument 'device_target' must be one of "
                         f"{list(_VALID_TARGETS)}, but got {value}.")
    _requested["device_target"] = "Ascend" if value == "Davinci" else value
    target = _effective_target(_requested["device_target"])
    _context["device_target"] = target
    _apply_device(target, _context["device_id"])


def requested_device_target():
    """The device target the script set (None if unset), before any fallback: MindSpore's CPU-only ways key on it."""
    return _requested["device_target"]


def _set_device_id(value):
    _check_type("device_id", value, int)
    if not 0 <= value <= 4095:
        raise ValueError(f"For 'context.set_context', the argument 'device_id' must be in range [0, 4095], "
                         f"but got {value}.")
    _context["device_id"] = value
    if _context["device_target"] is not None:
        _apply_device(_context["device_target"], value)


def _set_mode(value):
    _check_type("mode", value, int)
    if value not in (GRAPH_MODE, PYNATIVE_MODE):
        raise ValueError("For 'context.set_context', the argument 'mode' should be context.GRAPH_MODE (0) or "
                         f"context.PYNATIVE_MODE (1), but got {value}.")
    _context["mode"] = int(value)


def _set_save_graphs(value):
    value = {True: 2, False: 0}.get(value, value) if isinstance(value, bool) else value
    if not isinstance(value, int) or not 0 <= value <= 3:
        raise ValueError(f"value for save_graphs should be 0-3 but got '{value}'")
    _context["save_graphs"] = value


def _set_jit_syntax_level(value):
    if value not in (STRICT, COMPATIBLE, LAX):
        raise ValueError(f"For 'jit_syntax_level', the value should be context.STRICT or context.LAX, but got {value}.")
    _context["jit_syntax_level"] = value


# the jit_syntax_level of the JitConfig whose Cell is being compiled (None: the context's)
_config_syntax_level = contextvars.ContextVar("sporax_config_syntax_level", default=None)
_CONFIG_LEVELS = {"STRICT": STRICT, "COMPATIBLE": COMPATIBLE, "LAX": LAX}


def jit_syntax_level():
    """The graph syntax level in force, MindSpore's order: the environment variable MS_DEV_JIT_SYNTAX_LEVEL
    (0 strict, 1 compatible, 2 lax), then the compiled Cell's ``JitConfig``, then the context key."""
    level = os.environ.get("MS_DEV_JIT_SYNTAX_LEVEL", "").strip()
    if level in ("0", "1", "2"):
        return int(level)
    configured = _config_syntax_level.get()
    return _context["jit_syntax_level"] if configured is None else configured


def jit_syntax_strict():
    """Whether MindSpore's STRICT graph syntax applies (``jit_syntax_level() == STRICT``)."""
    return jit_syntax_level() == STRICT


@contextlib.contextmanager
def config_syntax_level(name):
    """Compile under a ``JitConfig(jit_syntax_level=name)`` ("STRICT", "COMPATIBLE", "LAX"; "" keeps the context's).

    Example:
        >>> with config_syntax_level("STRICT"):
        ...     jit_syntax_strict()
        True
    """
    token = _config_syntax_level.set(_CONFIG_LEVELS.get(str(name).upper()))
    try:
        yield
    finally:
        _config_syntax_level.reset(token)


def _set_jit_config(value):
    _check_type("jit_config", value, dict)
    _context["jit_config"] = dict(value)
    if "jit_level" in value:
        _context["jit_level"] = value["jit_level"]


def _set_max_call_depth(value):
    _check_type("max_call_depth", value, int)
    if value <= 0:
        raise ValueError(f"For 'context.set_context', the argument 'max_call_depth' must be greater than 0, "
                         f"but got {value}.")
    _context["max_call_depth"] = value


def _apply_compile_cache():
    """Point JAX's persistent cache at ``compile_cache_path`` (or the default), or switch it off."""
    if _context["enable_compile_cache"] is False:
        process_setup.use_compile_cache(None)
        return
    path = _context["compile_cache_path"]
    process_setup.use_compile_cache(os.path.expanduser(path) if path else (process_setup.default_cache_folder()
                                                                            or process_setup.home_cache_folder()))


def _set_compile_cache_setting(name, value):
    _check_type(name, value, bool if name == "enable_compile_cache" else str)
    _context[name] = value
    _apply_compile_cache()


def _set_gpu_config(value):
    get_context("device_target")  # resolves the target, which decides whether gpu_config applies
    product_precision.set_gpu_config(_context, value)


_SETTERS = {"device_target": _set_device_target, "device_id": _set_device_id, "mode": _set_mode,
            "save_graphs": _set_save_graphs, "jit_syntax_level": _set_jit_syntax_level,
            "jit_config": _set_jit_config, "max_call_depth": _set_max_call_depth,
            **{name: functools.partial(_set_compile_cache_setting, name) for name in ("enable_compile_cache",
                                                                                      "compile_cache_path")},
            "gpu_config": _set_gpu_config,
            **{name: functools.partial(product_precision.set_setting, _context, name)
               for name in product_precision.SETTINGS},
            **{name: functools.partial(context_memory.set_setting, _context, lambda: get_context("device_target"),
                                       name) for name in context_memory.SETTINGS}}


def set_context(**kwargs):
    """Set context keys (``mindspore.set_context``).

    Args:
        mode (int): ``GRAPH_MODE`` (0) compiles Cells; ``PYNATIVE_MODE`` (1, default) runs eagerly.
        device_target (str): 'CPU', 'GPU' or 'Ascend'; a target JAX cannot reach here falls back to
            the available backend with one warning.
        device_id (int): the device index, 0 to 4095.
        **kwargs: MindSpore's other keys (save_graphs, jit_config, max_call_depth, ...): stored.

    Raises:
        ValueError: for a key MindSpore does not know, or a bad value.
    """
    for key in [key for key in kwargs if key in _DEPRECATED_IGNORED + _DEPRECATED_STORED]:
        log.warning(f"For 'context.set_context', '{key}' parameter is deprecated, and will be removed in the "
                    "next version.")
    kwargs = {key: value for key, value in kwargs.items() if key not in _DEPRECATED_IGNORED}
    for key in kwargs:
        if key in _REMOVED:
            version, replacement = _REMOVED[key]
            raise ValueError(f"For 'context.set_context', the parameter '{key}' has been removed since MindSpore "
                             f"{version} version. Please use the {replacement} instead.")
        if key in _ASCEND_CONFIG_KEYS:
            raise ValueError(f"Please set '{key}' through parameter ascend_config")
        if key not in _DEFAULT_CONTEXT:
            raise ValueError(f"For 'context.set_context', the keyword argument {key} is not recognized! For "
                             "detailed usage of 'set_context', please refer to the Mindspore official website.")
    # device_id first, so that a call with both selects the right device once.
    for key in sorted(kwargs, key=lambda name: name != "device_id"):
        setter = _SETTERS.get(key)
        if setter is not None:
            setter(kwargs[key])
        else:
            _context[key] = kwargs[key]


def get_context(attr_key):
    """Return the value of context key ``attr_key`` (``mindspore.get_context``)."""
    if attr_key == "enable_ge":
        # MindSpore's read-only flag for its GE (Ascend graph engine) backend, which sporax never runs.
        return False
    if attr_key not in _context:
        raise ValueError(f"For 'context.get_context', the argument {attr_key} is not recognized! For detailed "
                         "usage of 'get_context', please refer to the Mindspore official website.")
    if attr_key == "device_target" and _context["device_target"] is None:
        _context["device_target"] = "GPU" if _jax_platform() == "gpu" else "CPU"
    return _context[attr_key]


def get_mode():
    """The execution mode, without validation (the per-call path of ``Cell.__call__``)."""
    return _context["mode"]


def set_device(device_target, device_id=None):
    """Choose the device (``mindspore.set_device``): 'CPU', 'GPU' or 'Ascend', and its index."""
    if device_target not in ("CPU", "GPU", "Ascend"):
        raise ValueError(f"The argument 'device_target' must be one of ['CPU', 'GPU', 'Ascend'], but got "
                         f"{device_target}.")
    if device_id is not None:
        set_context(device_id=device_id)
    set_context(device_target=device_target)


class ParallelMode:
    """The values of the auto parallel context's ``parallel_mode``."""

    STAND_ALONE = "stand_alone"
    DATA_PARALLEL = "data_parallel"
    HYBRID_PARALLEL = "hybrid_parallel"
    SEMI_AUTO_PARALLEL = "semi_auto_parallel"
    AUTO_PARALLEL = "auto_parallel"
    MODE_LIST = [STAND_ALONE, DATA_PARALLEL, HYBRID_PARALLEL, SEMI_AUTO_PARALLEL, AUTO_PARALLEL]


_DEFAULT_AUTO_PARALLEL = {
    "parallel_mode": ParallelMode.STAND_ALONE, "device_num": 1, "global_rank": 0, "gradients_mean": False,
    "gradient_fp32_sync": True, "loss_repeated_mean": True, "full_batch": False,
    "dataset_strategy": "data_parallel", "enable_parallel_optimizer": False, "parameter_broadcast": False,
    "pipeline_stages": 1, "search_mode": "recursive_programming",
    "auto_parallel_search_mode": "recursive_programming", "strategy_ckpt_load_file": "",
    "strategy_ckpt_save_file": "", "all_reduce_fusion_config": [], "enable_alltoall": False,
    "grad_accumulation_step": 1,
    "comm_fusion": {"openstate": True, "allreduce": {"mode": "auto", "config": None},
                    "allgather": {"mode": "auto", "config": None},
                    "reducescatter": {"mode": "auto", "config": None}},
    "strategy_ckpt_config": {"load_file": "", "save_file": "", "only_trainable_params": True},
    "sharding_propagation": False, "optimizer_weight_shard_size": -1,
    "optimizer_weight_shard_aggregated_save": False, "pipeline_result_broadcast": False,
    "dump_local_norm": False, "dump_local_norm_path": "", "dump_device_local_norm": False,
    "pipeline_interleave": False, "pipeline_scheduler": "1f1b", "force_fp32_communication": False,
    "auto_pipeline": False, "auto_parallel_new_interface": False, "init_param_in_compile": True,
    "communi_parallel_mode": "all_group_parallel",
}
# Keys MindSpore takes in set_auto_parallel_context but never returns from the getter.
_SET_ONLY_AUTO_PARALLEL = ("parallel_optimizer_config", "pipeline_config")
_auto_parallel = copy.deepcopy(_DEFAULT_AUTO_PARALLEL)
# Keys the user set since the last reset: MindSpore's "device_num is set" and similar checks read them.
_auto_parallel_set_keys = set()


_SEARCH_MODES = ("recursive_programming", "dynamic_programming", "sharding_propagation")


def _dataset_strategy(value):
    """'data_parallel', 'full_batch', or one sharding tuple per dataset column (stored as lists)."""
    if isinstance(value, str):
        if value not in ("full_batch", "data_parallel"):
            raise ValueError("For 'set_auto_parallel_context', the argument 'dataset_strategy' must be 'full_batch' "
                             f"or 'data_parallel', but got the value : {value}.")
        return value
    if not isinstance(value, (tuple, list)) or not all(
            isinstance(column, (tuple, list)) and all(isinstance(n, int) and not isinstance(n, bool) and n > 0
                                                      for n in column) for column in value):
        raise TypeError("For 'set_auto_parallel_context', the argument 'dataset_strategy' must be a string or a "
                        f"tuple of tuples of positive ints (one per dataset column), but got {value!r}.")
    return [list(column) for column in value]


_PIPELINE_SCHEDULERS = ("1f1b", "gpipe", "seqpipe", "seqvpp", "seqsmartvpp", "zero_bubble_v")


def _pipeline_config(value):
    """MindSpore's checks of ``pipeline_config``; the ``pipeline_interleave``/``pipeline_scheduler`` values it sets
    (the getter returns them, as MindSpore's). The dict is the whole configuration: a key left out takes its default
    (MindSpore needs both keys)."""
    if not isinstance(value, dict):
        raise TypeError(f"The parameter 'pipeline_config' must be <class 'dict'>, but got {type(value)}.")
    unknown = [name for name in value if name not in ("pipeline_interleave", "pipeline_scheduler")]
    if unknown:
        raise ValueError(f"For 'set_auto_parallel_context', pipeline_config has unknown keys {unknown}: it takes "
                         f"'pipeline_interleave' (bool) and 'pipeline_scheduler' (str).")
    interleave = value.get("pipeline_interleave", _DEFAULT_AUTO_PARALLEL["pipeline_interleave"])
    scheduler = value.get("pipeline_scheduler", _DEFAULT_AUTO_PARALLEL["pipeline_scheduler"])
    if not isinstance(interleave, bool):
        raise TypeError(f"For 'pipeline_interleave', the 'pipeline_interleave' must be a bool, but got "
                        f"{type(interleave).__name__}.")
    if scheduler not in _PIPELINE_SCHEDULERS:
        raise ValueError(f"For 'set_auto_parallel_context', pipeline_config's 'pipeline_scheduler' must be one of "
                         f"{list(_PIPELINE_SCHEDULERS)}, but got {scheduler!r}.")
    return {"pipeline_interleave": interleave, "pipeline_scheduler": scheduler}


def set_auto_parallel_context(**kwargs):
    """Store auto parallel settings (``mindspore.set_auto_parallel_context``); ``sporax.parallel`` reads them."""
    for key, value in kwargs.items():
        if key not in _DEFAULT_AUTO_PARALLEL and key not in _SET_ONLY_AUTO_PARALLEL:
            raise ValueError(f"Set context keyword {key} is not recognized!")
        if key == "parallel_mode" and value not in ParallelMode.MODE_LIST:
            raise ValueError("The context configuration parameter 'parallel_mode' only support 'stand_alone', "
                             "'data_parallel', 'hybrid_parallel', 'semi_auto_parallel' and 'auto_parallel', "
                             f"but got the value : {value}.")
        if key == "device_num" and (isinstance(value, bool) or not isinstance(value, int) or value <= 0):
            raise ValueError("The context configuration parameter 'device_num' must be a positive integer, "
                             f"but got the value of device_num : {value}.")
        if key == "global_rank" and (isinstance(value, bool) or not isinstance(value, int) or
                                     not 0 <= value <= 4095):
            raise ValueError("The context configuration parameter 'global_rank' must be in [0, 4095], "
                             f"but got the value of global_rank : {value}.")
        if key in ("search_mode", "auto_parallel_search_mode") and value not in _SEARCH_MODES:
            raise ValueError("The context configuration parameter 'auto_parallel_search_mode' only support "
                             "'recursive_programming', 'dynamic_programming' and 'sharding_propagation', "
                             f"but got the value: {value}.")
        if key == "dataset_strategy":
            value = _dataset_strategy(value)
        if key == "pipeline_config":
            _auto_parallel.update(_pipeline_config(value))
        if key in ("gradients_mean", "gradient_fp32_sync", "loss_repeated_mean", "full_batch",
                   "enable_parallel_optimizer", "parameter_broadcast"):
            _check_type(key, value, bool)
        _auto_parallel[key] = value
        _auto_parallel_set_keys.add(key)
        if key == "dataset_strategy" and isinstance(value, str):
            _auto_parallel["full_batch"] = value == "full_batch"
        if key == "search_mode":
            _auto_parallel["auto_parallel_search_mode"] = value
        if key == "auto_parallel_search_mode":
            _auto_parallel["search_mode"] = value


def get_auto_parallel_context(attr_key):
    """Return an auto parallel setting (``mindspore.get_auto_parallel_context``)."""
    if attr_key not in _DEFAULT_AUTO_PARALLEL:
        raise ValueError(f"Get context keyword {attr_key} is not recognized!")
    return _auto_parallel[attr_key]


def reset_auto_parallel_context():
    """Restore every auto parallel setting to its default."""
    _auto_parallel.clear()
    _auto_parallel.update(copy.deepcopy(_DEFAULT_AUTO_PARALLEL))
    _auto_parallel_set_keys.clear()


def auto_parallel_snapshot():
    """The auto parallel settings as they are now, for ``restore_auto_parallel`` (``AutoParallel`` sets its own
    for the length of a call)."""
    return copy.deepcopy(_auto_parallel), set(_auto_parallel_set_keys)


def restore_auto_parallel(snapshot):
    """Put back the settings ``auto_parallel_snapshot`` returned."""
    settings, set_keys = snapshot
    _auto_parallel.clear()
    _auto_parallel.update(copy.deepcopy(settings))
    _auto_parallel_set_keys.clear()
    _auto_parallel_set_keys.update(set_keys)


def auto_parallel_key_is_set(attr_key):
    """Whether ``set_auto_parallel_context`` set ``attr_key`` since the last reset."""
    return attr_key in _auto_parallel_set_keys


_DEFAULT_PS = {"enable_ps": False, "config_file_path": "", "enable_ssl": False, "worker_num": 0,
               "server_num": 0, "ms_role": "MS_NOT_PS"}
_ps_context = dict(_DEFAULT_PS)


def set_ps_context(**kwargs):
    """Store parameter-server settings (sporax has no parameter server; enable_ps=True is refused)."""
    for key, value in kwargs.items():
        if key not in _DEFAULT_PS:
            raise ValueError(f"Set PS context keyword {key} is not recognized!")
        if key == "enable_ps" and value:
            raise NotImplementedError("set_ps_context(enable_ps=True): sporax has no parameter-server mode; "
                                      "use data parallel training (set_auto_parallel_context) instead.")
        _ps_context[key] = value


def get_ps_context(attr_key):
    """Return a parameter-server setting."""
    if attr_key not in _ps_context:
        raise ValueError(f"Get PS context keyword {attr_key} is not recognized!")
    return _ps_context[attr_key]


def reset_ps_context():
    """Restore the parameter-server settings to their defaults."""
    _ps_context.clear()
    _ps_context.update(_DEFAULT_PS)


__all__ = ["GRAPH_MODE", "PYNATIVE_MODE", "STRICT", "COMPATIBLE", "LAX", "set_context", "get_context",
           "set_auto_parallel_context", "get_auto_parallel_context", "reset_auto_parallel_context",
           "ParallelMode", "set_ps_context", "get_ps_context", "reset_ps_context", "set_device",
           "set_seed", "get_seed"]
