"""``dataset.config``: process-wide settings of the dataset pipeline (seed, workers, prefetch)."""
import enum
import json
import os
import random as python_random

import numpy as np

from sporax.dataset.core import debug_hooks
from sporax.dataset.core import random as _random

UINT32_MAX = 4294967295
INT32_MAX = 2147483647
_DEFAULT_SEED = 5489  # MindSpore's default (the mt19937 default seed)
_WATCHDOG_INTERVALS = 3  # warnings at 1x and 2x the interval, the error at 3x

_state = {
    "seed": _DEFAULT_SEED,
    "seed_set": False,
    "prefetch_size": 16,
    "num_parallel_workers": max(1, min(8, os.cpu_count() or 1)),
    "enable_shared_mem": True,
    "callback_timeout": 60,
    "monitor_sampling_interval": 1000,
    "autotune": False,
    "autotune_interval": 0,
    "auto_num_workers": False,
    "auto_offload": False,
    "numa_enable": False,
    "dynamic_shape": False,
    "debug_mode": False,
    "debug_hooks": [],
    "watchdog": True,
    "multiprocessing_timeout_interval": 300,
    "watchdog_timeout": None,  # None: _WATCHDOG_INTERVALS warning intervals
    "multiprocessing_start_method": "fork",
    "error_samples_mode": 0,
    "fast_recovery": True,
    "sending_batches": 0,
    "iterator_mode": {"do_copy": False, "parallel_convert": False},
    "video_backend": "CPU",
}


def _check_int(name, value, low, high, low_open, what):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be of type int, but got {type(value).__name__}.")
    bad = value <= low if low_open else value < low
    if bad or value > high:
        left = "(" if low_open else "["
        raise ValueError(f"{what} is not within the required range {left}{low}, {high}].")


def _check_bool(name, value):
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be of type bool, but got {type(value).__name__}.")


def _set_flag(key, name, value):
    _check_bool(name, value)
    _state[key] = value


def _set_int(key, name, value, low_open, what=None):
    """Store an int setting in [0, INT32_MAX] ((0, ...] with ``low_open``); ``what`` names it in errors."""
    _check_int(name, value, 0, INT32_MAX, low_open, what or name)
    _state[key] = value


def _getter(name, key, doc=None):
    """The public function ``name`` that returns the setting ``key`` (``doc``: by default, a
    pointer to the matching ``set_`` function, which documents the setting)."""
    def getter():
        return _state[key]

    getter.__name__ = getter.__qualname__ = name
    getter.__doc__ = doc or f"The value last given to ``set_{name[len('get_'):]}`` (or its default)."
    return getter


def set_seed(seed):
    """Seed every random operation of the dataset pipeline (shuffles, samplers, random transforms)."""
    _check_int("seed", seed, 0, UINT32_MAX, False, "seed given")
    _state["seed"] = seed
    _state["seed_set"] = True
    _random.reset_global_rng()
    # MindSpore's set_seed seeds Python's and NumPy's global generators too: the Python transforms
    # (its own RandomErasing, mindcv's auto-augment and mixup) draw from them.
    python_random.seed(seed)
    np.random.seed(seed)


get_seed = _getter("get_seed", "seed", "The dataset seed (5489 until set_seed is called).")


def seed_was_set():
    """Whether set_seed was called."""
    return _state["seed_set"]


_process_seed = []


def effective_seed():
    """The seed pipelines use: the set seed, or (never set) one random seed per process.

    Without set_seed, shuffles differ from run to run as in MindSpore; with it they repeat.
    """
    if _state["seed_set"]:
        return _state["seed"]
    if _state["debug_mode"]:
        # debug mode makes runs repeatable: an unset seed becomes 1, as in MindSpore
        set_seed(1)
        return 1
    if not _process_seed:
        _process_seed.append(int.from_bytes(os.urandom(4), "little"))
    return _process_seed[0]


def set_prefetch_size(size):
    """Rows (or batches) each pipeline stage may run ahead of its consumer."""
    _set_int("prefetch_size", "size", size, True)


get_prefetch_size = _getter("get_prefetch_size", "prefetch_size", "The prefetch queue size (default 16).")


def set_num_parallel_workers(num):
    """Default worker count for map/batch/sources that are not given num_parallel_workers."""
    _set_int("num_parallel_workers", "num", num, True, "Number of parallel workers given")


get_num_parallel_workers = _getter("get_num_parallel_workers", "num_parallel_workers", "The default worker count.")


def set_enable_shared_mem(enable):
    """Whether multiprocessing workers hand batches over in shared memory."""
    _set_flag("enable_shared_mem", "enable", enable)


def set_auto_num_workers(enable):
    """Whether worker counts are chosen automatically."""
    _set_flag("auto_num_workers", "enable", enable)


def set_auto_offload(offload):
    """Whether transforms may be offloaded to the device (recorded; sporax runs them on the host)."""
    _set_flag("auto_offload", "offload", offload)


def set_dynamic_shape(is_dynamic):
    """Whether the pipeline sends batches of varying shapes to the device (recorded: sporax's device queue
    takes each batch in its own shape either way).

    Raises:
        TypeError: ``is_dynamic`` is not a bool (MindSpore 2.10's message).
    """
    if not isinstance(is_dynamic, bool):
        raise TypeError("is_dynamic must be a boolean dtype.")
    _state["dynamic_shape"] = is_dynamic


def get_dynamic_shape():
    """The ``set_dynamic_shape`` setting (False until set)."""
    return _state["dynamic_shape"]


def set_numa_enable(numa_enable):
    """Whether workers are bound to NUMA nodes (recorded)."""
    _set_flag("numa_enable", "numa_enable", numa_enable)


def set_enable_watchdog(enable):
    """Whether the watchdog stops a stalled pipeline (default True).

    On, a pipeline whose user code makes no progress for ``get_watchdog_timeout()`` seconds is
    stopped with a RuntimeError naming the operation, the worker and the row, and its worker
    processes are ended. Off, the pipeline waits as long as the user code takes, warning every
    ``get_multiprocessing_timeout_interval()`` seconds.

    Args:
        enable (bool): whether the watchdog is on.

    Example:
        >>> import sporax.dataset as ds
        >>> ds.config.set_enable_watchdog(True)
    """
    _set_flag("watchdog", "enable", enable)


def set_fast_recovery(fast_recovery):
    """Whether a restarted pipeline skips the shuffle replay (recorded)."""
    _set_flag("fast_recovery", "fast_recovery", fast_recovery)


get_enable_shared_mem = _getter("get_enable_shared_mem", "enable_shared_mem")
get_auto_num_workers = _getter("get_auto_num_workers", "auto_num_workers")
get_auto_offload = _getter("get_auto_offload", "auto_offload")
get_numa_enable = _getter("get_numa_enable", "numa_enable")
get_enable_watchdog = _getter("get_enable_watchdog", "watchdog")
get_fast_recovery = _getter("get_fast_recovery", "fast_recovery")


def set_enable_autotune(enable, filepath_prefix=None):
    """Accepted for compatibility; sporax sizes its queues statically (no autotuning, no tuned-config file).

    ``filepath_prefix`` is checked as MindSpore 2.10 checks it: a str always; when enabling, not empty, not a
    directory, in an existing directory (a RuntimeError then leaves autotune on, as in MindSpore).
    """
    _check_bool("enable", enable)
    if filepath_prefix is not None and not isinstance(filepath_prefix, str):
        raise TypeError(f"json_filepath must be a str value but was: {filepath_prefix}.")
    _state["autotune"] = enable
    if enable and filepath_prefix is not None:
        _check_autotune_prefix(filepath_prefix)


def _check_autotune_prefix(prefix):
    if not prefix:
        raise RuntimeError("The value of json_filepath cannot be the empty string.")
    if os.path.isdir(prefix) or prefix.endswith(os.sep):
        raise RuntimeError(f"Syntax error. Invalid json_filepath parameter. <{prefix}> is a directory, not filename.")
    folder = os.path.dirname(prefix)
    if folder and not os.path.isdir(folder):
        raise RuntimeError(f"Syntax error. Invalid json_filepath parameter.  Directory <{folder}> does not exist.")


get_enable_autotune = _getter("get_enable_autotune", "autotune", "Whether autotune was requested.")


def set_autotune_interval(interval):
    """Accepted for compatibility (autotune is not performed)."""
    _set_int("autotune_interval", "interval", interval, False)


get_autotune_interval = _getter("get_autotune_interval", "autotune_interval", "The autotune interval.")


def set_callback_timeout(timeout):
    """Seconds a DSWaitedCallback waits."""
    _set_int("callback_timeout", "timeout", timeout, True)


get_callback_timeout = _getter("get_callback_timeout", "callback_timeout", "The callback timeout in seconds.")


def set_monitor_sampling_interval(interval):
    """Accepted for compatibility (performance monitor interval, ms)."""
    _set_int("monitor_sampling_interval", "interval", interval, False)


get_monitor_sampling_interval = _getter("get_monitor_sampling_interval", "monitor_sampling_interval",
                                        "The monitor sampling interval (ms).")


def set_multiprocessing_timeout_interval(interval):
    """Seconds without progress after which a waiting pipeline warns, and between warnings.

    The warning names the operation, the worker (thread or process) and the row that is not
    moving. Default 300, as in MindSpore. See ``set_watchdog_timeout`` for the error that follows.

    Args:
        interval (int): seconds, in (0, 2147483647].

    Example:
        >>> import sporax.dataset as ds
        >>> ds.config.set_multiprocessing_timeout_interval(300)
    """
    _set_int("multiprocessing_timeout_interval", "interval", interval, True)


get_multiprocessing_timeout_interval = _getter("get_multiprocessing_timeout_interval",
                                              "multiprocessing_timeout_interval",
                                              "The multiprocessing timeout interval in seconds.")


def set_watchdog_timeout(timeout):
    """Seconds without progress after which the watchdog stops a pipeline with an error.

    sporax's second limit beside MindSpore's warning interval: a map function, source or
    predicate that makes no progress (no row done) for ``timeout`` seconds stops the pipeline
    with a RuntimeError naming the operation, the worker and the row, instead of hanging; worker
    processes are ended. Applies while ``get_enable_watchdog()``. By default (or after
    ``set_watchdog_timeout(None)``) it is three warning intervals,
    ``3 * get_multiprocessing_timeout_interval()``: 900 s with MindSpore's default interval.

    Args:
        timeout (Union[int, float, None]): seconds, > 0; None for three warning intervals.

    Example:
        >>> import sporax.dataset as ds
        >>> ds.config.set_watchdog_timeout(600)
    """
    if timeout is not None:
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)):
            raise TypeError("timeout must be of type int, float or None, but got "
                            f"{type(timeout).__name__}.")
        if not 0 < timeout <= INT32_MAX:
            raise ValueError(f"timeout given is not within the required range (0, {INT32_MAX}]: "
                             f"{timeout!r}.")
        timeout = float(timeout)
    _state["watchdog_timeout"] = timeout


def get_watchdog_timeout():
    """Seconds without progress after which the watchdog stops a pipeline (default: three
    warning intervals, ``3 * get_multiprocessing_timeout_interval()``)."""
    timeout = _state["watchdog_timeout"]
    if timeout is None:
        return float(_WATCHDOG_INTERVALS * _state["multiprocessing_timeout_interval"])
    return timeout


def set_multiprocessing_start_method(start_method="fork"):
    """Start method of process workers: 'fork' or 'spawn'."""
    if start_method not in ("fork", "spawn"):
        raise ValueError(f"start_method must be 'fork' or 'spawn', but got {start_method!r}.")
    _state["multiprocessing_start_method"] = start_method


get_multiprocessing_start_method = _getter("get_multiprocessing_start_method", "multiprocessing_start_method",
                                           "The start method of process workers.")


def set_debug_mode(debug_mode_flag, debug_hook_list=None):
    """Debug mode: pipelines run single-threaded, and every later ``map`` runs the debug hooks.

    Args:
        debug_mode_flag (bool): turn debug mode on or off.
        debug_hook_list (list[DebugHook], optional): hooks run before a map's first operation and after
            each one (see ``mindspore.dataset.debug``). Default: ``None``, one PrintMetaDataHook. An empty
            list keeps the hooks set before.

    Examples:
        >>> import sporax.dataset as ds
        >>> ds.config.set_debug_mode(True)
    """
    hooks = debug_hooks.checked_hook_list(debug_hook_list)
    _set_flag("debug_mode", "debug_mode_flag", debug_mode_flag)
    if hooks:
        _state["debug_hooks"] = hooks


def debug_hook_list():
    """The hooks a map runs in debug mode (empty until set_debug_mode is called)."""
    return _state["debug_hooks"]


get_debug_mode = _getter("get_debug_mode", "debug_mode", "Whether debug mode is on.")


class ErrorSamplesMode(enum.IntEnum):
    """What a map does with a row whose operations raise: RETURN raises the error, SKIP drops the
    row, REPLACE drops it and appends a good row in its place at the epoch's end."""

    RETURN = 0
    REPLACE = 1
    SKIP = 2


def set_error_samples_mode(error_samples_mode):
    """Set what a map does with a row whose operations raise (see ErrorSamplesMode).

    Args:
        error_samples_mode (ErrorSamplesMode): RETURN, REPLACE or SKIP.
    """
    if not isinstance(error_samples_mode, ErrorSamplesMode):
        raise TypeError(f"Argument error_samples_mode with value {error_samples_mode} is not of type "
                        f"[{ErrorSamplesMode!r}], but got {type(error_samples_mode)}.")
    _state["error_samples_mode"] = int(error_samples_mode)


def get_error_samples_mode():
    """The error samples mode (ErrorSamplesMode.RETURN until set)."""
    return ErrorSamplesMode(_state["error_samples_mode"])


def set_sending_batches(batch_num):
    """Accepted for compatibility (device queue sending limit)."""
    _set_int("sending_batches", "batch_num", batch_num, False)


def set_iterator_mode(do_copy=False, parallel_convert=False):
    """Default copy mode of iterators."""
    _state["iterator_mode"] = {"do_copy": bool(do_copy), "parallel_convert": bool(parallel_convert)}


def get_iterator_mode():
    """The iterator mode dictionary."""
    return dict(_state["iterator_mode"])


def set_video_backend(backend):
    """Set the backend that decodes videos: "CPU" (sporax decodes on the CPU only).

    Args:
        backend (str): "CPU" or "Ascend"; "Ascend" (the NPU's video decoder) raises
            NotImplementedError on sporax.

    Examples:
        >>> import sporax.dataset as ds
        >>> ds.config.set_video_backend("CPU")
    """
    if not isinstance(backend, str):
        raise TypeError(f"set_video_backend: backend must be a str, but got {type(backend).__name__}.")
    if backend not in ("CPU", "Ascend"):
        raise ValueError(f"set_video_backend: backend must be one of ['CPU', 'Ascend'], but got {backend!r}.")
    if backend == "Ascend":
        raise NotImplementedError("set_video_backend: the 'Ascend' video decoder needs an Ascend NPU, which sporax "
                                  "does not run on; videos are decoded on the CPU ('CPU').")
    _state["video_backend"] = backend


get_video_backend = _getter("get_video_backend", "video_backend", "The backend that decodes videos (\"CPU\").")


def load(file):
    """Load settings from a JSON file with MindSpore's config keys (seed, numParallelWorkers, ...)."""
    with open(file) as handle:
        data = json.load(handle)
    if "seed" in data:
        set_seed(int(data["seed"]))
    if "numParallelWorkers" in data:
        set_num_parallel_workers(int(data["numParallelWorkers"]))
    if "prefetchSize" in data:
        set_prefetch_size(int(data["prefetchSize"]))
    if "callbackTimeout" in data:
        set_callback_timeout(int(data["callbackTimeout"]))
    if "monitorSamplingInterval" in data:
        set_monitor_sampling_interval(int(data["monitorSamplingInterval"]))
