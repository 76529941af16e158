"""``mindspore.device_context.cpu/gpu/ascend``: per-backend device queries (``device_count``, ``is_available``).

MindSpore 2.5+ groups its backend queries by target; each target's functions are served here under
a target prefix (``gpu_device_count`` is ``mindspore.device_context.gpu.device_count``, see the
``NAMES`` rows of ``sporax.compat.table``). A target counts the devices JAX sees of that kind, as
``mindspore.hal`` does: CPU is always one device, Ascend never exists.

Example:
    >>> from sporax.core import device_targets
    >>> device_targets.cpu_device_count(), device_targets.cpu_is_available()
    (1, True)
    >>> device_targets.ascend_is_available()
    False

The GPU's operator settings (``device_context.gpu.op_precision``: ``matmul_allow_tf32``,
``conv_allow_tf32``; ``op_tuning``: the cuDNN algorithm choices) set the context keys of the same
names on a GPU target (``sporax.core.product_precision`` gives the precision ones effect); on a CPU
target MindSpore logs an error and ignores them, and so does sporax.
"""
from sporax import log
from sporax.core import context, hal
from sporax.core.product_precision import GPU_CONFIG_VALUES


def cpu_device_count():
    """The number of CPU devices: always 1, as in MindSpore (``device_context.cpu.device_count``)."""
    return 1


def cpu_is_available():
    """Whether the CPU backend is usable: always True (``device_context.cpu.is_available``)."""
    return True


def gpu_is_available():
    """Whether this process sees a GPU (``device_context.gpu.is_available``)."""
    return bool(hal._devices("GPU"))


def gpu_device_count():
    """The number of GPUs this process sees (``device_context.gpu.device_count``).

    Raises:
        RuntimeError: no GPU is available (check with ``device_context.gpu.is_available()``).
    """
    devices = hal._devices("GPU")
    if not devices:
        raise RuntimeError("Device_target GPU not exist: this process sees no GPU; check with "
                           "mindspore.device_context.gpu.is_available() before counting.")
    return len(devices)


def ascend_is_available():
    """Whether this process sees an Ascend NPU: never, on sporax (``device_context.ascend.is_available``)."""
    return False


def ascend_device_count():
    """``device_context.ascend.device_count``: sporax runs on JAX's CPU/GPU backends, never on Ascend.

    Raises:
        RuntimeError: always (check with ``device_context.ascend.is_available()``).
    """
    raise RuntimeError("Device Ascend not exist: sporax runs on JAX's CPU and GPU backends; check with "
                       "mindspore.device_context.ascend.is_available() before counting.")


def _ascend_only(setting, namespace="op_precision"):
    """MindSpore on a non-Ascend target logs that the device is unsupported and leaves the setting unset."""
    log.warning(f"mindspore.device_context.ascend.{namespace}.{setting}: an Ascend (CANN) setting; sporax runs "
                f"on JAX's CPU and GPU backends, so it is ignored, as MindSpore ignores it on a CPU or GPU.")


def ascend_precision_mode(mode):
    """``device_context.ascend.op_precision.precision_mode``: CANN's mixed-precision mode; ignored off Ascend."""
    _ascend_only("precision_mode")


def ascend_op_precision_mode(path):
    """``device_context.ascend.op_precision.op_precision_mode``: CANN's per-op precision file; ignored off Ascend.

    Raises:
        TypeError: ``path`` is not a str (checked first, as MindSpore does).
    """
    if not isinstance(path, str):
        raise TypeError(f"The parameter 'path' must be {str}, but got {type(path)}")
    _ascend_only("op_precision_mode")


def ascend_matmul_allow_hf32(value):
    """``device_context.ascend.op_precision.matmul_allow_hf32``: Ascend's HF32 MatMul; ignored off Ascend."""
    _ascend_only("matmul_allow_hf32")


def ascend_conv_allow_hf32(value):
    """``device_context.ascend.op_precision.conv_allow_hf32``: Ascend's HF32 convolutions; ignored off Ascend."""
    _ascend_only("conv_allow_hf32")


# Ascend's operator debugging (``op_debug``) and compile/tuning (``op_tuning``) settings, ignored off Ascend.
def ascend_execute_timeout(op_timeout):
    """``device_context.ascend.op_debug.execute_timeout``: an operator's time limit on Ascend; ignored off Ascend."""
    _ascend_only("execute_timeout", "op_debug")


def ascend_debug_option(option_value):
    """``device_context.ascend.op_debug.debug_option``: CANN's debug option ("oom"); ignored off Ascend."""
    _ascend_only("debug_option", "op_debug")


def ascend_aclinit_config(config):
    """``device_context.ascend.op_debug.aclinit_config``: CANN's aclInit settings; ignored off Ascend."""
    _ascend_only("aclinit_config", "op_debug")


def ascend_op_compile(value):
    """``device_context.ascend.op_tuning.op_compile``: compile operators online on Ascend; ignored off Ascend."""
    _ascend_only("op_compile", "op_tuning")


def ascend_aoe_tune_mode(tune_mode):
    """``device_context.ascend.op_tuning.aoe_tune_mode``: CANN's AOE tuning; ignored off Ascend."""
    _ascend_only("aoe_tune_mode", "op_tuning")


def ascend_aoe_job_type(config):
    """``device_context.ascend.op_tuning.aoe_job_type``: CANN's AOE job type; ignored off Ascend."""
    _ascend_only("aoe_job_type", "op_tuning")


def ascend_aclnn_cache(enable_global_cache=False, cache_queue_length=10000):
    """``device_context.ascend.op_tuning.aclnn_cache``: CANN's aclnn operator cache; ignored off Ascend."""
    _ascend_only("aclnn_cache", "op_tuning")


def _gpu_setting(name, value):
    target = context.get_context("device_target")
    if target != "GPU":
        log.error(f"mindspore.device_context.gpu: {target} device is not supported. Please use correct device "
                  f"(the GPU setting '{name}' is ignored on a {target} target; set_device('GPU') first).")
        return
    context.set_context(**{name: value})


def _bool_value(value):
    if not isinstance(value, bool):
        raise TypeError(f"The parameter 'value' must be {bool}, but got {type(value)}")


def gpu_matmul_allow_tf32(value):
    """``device_context.gpu.op_precision.matmul_allow_tf32``: float32 matrix products in TF32 (default False:
    full float32).

    Raises:
        TypeError: ``value`` is not a bool.
    """
    _bool_value(value)
    _gpu_setting("matmul_allow_tf32", value)


def gpu_conv_allow_tf32(value):
    """``device_context.gpu.op_precision.conv_allow_tf32``: float32 convolutions in TF32 (default True).

    Raises:
        TypeError: ``value`` is not a bool.
    """
    _bool_value(value)
    _gpu_setting("conv_allow_tf32", value)


def _conv_algorithm(name, mode):
    """Store a cuDNN algorithm choice (XLA chooses its own convolution algorithms: stored only)."""
    if context.get_context("device_target") == "GPU" and mode not in GPU_CONFIG_VALUES[name]:
        raise ValueError(f"For 'mindspore.device_context.gpu.op_tuning.{name}', the argument must be in "
                         f"{GPU_CONFIG_VALUES[name]} but got {mode}.")
    _gpu_setting(name, mode)


def gpu_conv_fprop_algo(mode):
    """``device_context.gpu.op_tuning.conv_fprop_algo``: stored (XLA picks the forward algorithm itself)."""
    _conv_algorithm("conv_fprop_algo", mode)


def gpu_conv_dgrad_algo(mode):
    """``device_context.gpu.op_tuning.conv_dgrad_algo``: stored (XLA picks the data-gradient algorithm itself)."""
    _conv_algorithm("conv_dgrad_algo", mode)


def gpu_conv_wgrad_algo(mode):
    """``device_context.gpu.op_tuning.conv_wgrad_algo``: stored (XLA picks the weight-gradient algorithm itself)."""
    _conv_algorithm("conv_wgrad_algo", mode)


# ``threads_num`` may be set once per process, as MindSpore's runtime configuration allows.
_cpu_op_settings = {}


def cpu_threads_num(num):
    """``device_context.cpu.op_tuning.threads_num``: the CPU operators' thread count, settable once.

    Recorded only: XLA sizes its CPU thread pool when the backend starts (``sporax.core.process_setup``), so
    a later count cannot resize it; ``cpu_op_threads_num()`` reads the recorded value back.

    Raises:
        TypeError: ``num`` is not an int.
        ValueError: ``num`` is not positive.
        RuntimeError: the count was already set in this process.
    """
    if not isinstance(num, int):
        raise TypeError(f"The parameter 'num' must be {int}, but got {type(num)}")
    if "threads_num" in _cpu_op_settings:
        raise RuntimeError("The 'threads_num' can not be set repeatedly.")
    if isinstance(num, bool) or num <= 0:
        # MindSpore's messages: a bool passes the int check above but is refused here, as a TypeError.
        error = TypeError if isinstance(num, bool) else ValueError
        raise error(f"The 'num' must be int and must > 0, but got '{num}' with type '{type(num).__name__}'.")
    _cpu_op_settings["threads_num"] = num


def cpu_op_threads_num():
    """The CPU operators' thread count set with ``threads_num``, or None where it was never set."""
    return _cpu_op_settings.get("threads_num")
