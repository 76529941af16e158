"""The precision of float32 products on a GPU, as MindSpore's GPU settings choose it.

MindSpore's GPU backend computes float32 MatMuls in full float32 unless
``device_context.gpu.op_precision.matmul_allow_tf32(True)`` (or ``set_context(gpu_config=
{"matmul_allow_tf32": True})``), and float32 convolutions in TF32 unless ``conv_allow_tf32(False)``.
sporax keeps both as context keys (``get_context("matmul_allow_tf32")``) and turns them into JAX's
default product precision (``sporax.core.process_setup.set_product_precision``), which every product
that names no precision follows (matmul, bmm, Dense, einsum, tensordot, attention, addmm/baddbmm ...);
every convolution names ``conv_precision()``, read from that same value, so a program traced under one
setting is never reused under another (JAX keys its caches on the value). On XLA:CPU float32 products
are float32 whatever the precision.

Example:
    >>> from jax import lax
    >>> from sporax.core import product_precision
    >>> product_precision.conv_precision() is lax.Precision.DEFAULT  # MindSpore's default: TF32 convolutions
    True
"""
import jax
from jax import lax

from sporax import log
from sporax.core import process_setup

SETTINGS = ("matmul_allow_tf32", "conv_allow_tf32")
# gpu_config's keys and the values MindSpore accepts for each.
GPU_CONFIG_VALUES = {
    "conv_fprop_algo": ["normal", "performance", "implicit_gemm", "precomp_gemm", "gemm", "direct", "fft",
                        "fft_tiling", "winograd", "winograd_nonfused"],
    "conv_dgrad_algo": ["normal", "performance", "algo_0", "algo_1", "fft", "fft_tiling", "winograd",
                        "winograd_nonfused"],
    "conv_wgrad_algo": ["normal", "performance", "algo_0", "algo_1", "fft", "algo_3", "fft_tiling",
                        "winograd_nonfused"],
    "conv_allow_tf32": [True, False],
    "matmul_allow_tf32": [True, False],
}
_CONV_IN_FLOAT32 = {value for (_, conv_tf32), value in process_setup.PRODUCT_PRECISIONS.items() if not conv_tf32}


def conv_precision():
    """The precision every convolution names: DEFAULT (TF32 on a GPU that has it), or HIGHEST under
    ``conv_allow_tf32=False``. Named explicitly, so that the full-float32 default of matmuls does not
    reach convolutions."""
    full = jax.config.jax_default_matmul_precision in _CONV_IN_FLOAT32
    return lax.Precision.HIGHEST if full else lax.Precision.DEFAULT


def set_setting(store, name, value):
    """Store ``matmul_allow_tf32`` or ``conv_allow_tf32`` in the context dict ``store`` and apply the policy.

    Raises:
        RuntimeError: ``value`` is not a bool (MindSpore's class for this key: "Got illegal param").
    """
    if not isinstance(value, bool):
        raise RuntimeError(f"For 'context.set_context', the parameter '{name}' must be {bool}, but got "
                           f"{type(value)}: pass True or False.")
    store[name] = value
    process_setup.set_product_precision(*(store[setting] for setting in SETTINGS))


def set_gpu_config(store, config):
    """``set_context(gpu_config={...})``: each key as a context key, checked as MindSpore checks them;
    ignored with a warning when the device target is not the GPU, as MindSpore does.

    Raises:
        TypeError: ``config`` is not a dict.
        ValueError: a key that is not one of ``GPU_CONFIG_VALUES``, or a value not allowed for its key.
    """
    if not isinstance(config, dict):
        raise TypeError(f"The parameter 'gpu_config' must be {dict}, but got {type(config)}")
    if store["device_target"] != "GPU":
        log.warning("For 'context.set_context', when set the argument 'gpu_config', the argument 'device_target' "
                    f"only supports devices in '['GPU']', but got '{store['device_target']}', ignore it.")
        return
    for key, value in config.items():
        if key not in GPU_CONFIG_VALUES:
            raise ValueError("For 'context.set_context', the key of argument 'gpu_config' must be one of "
                             f"{GPU_CONFIG_VALUES}, but got {key}.")
        if value not in GPU_CONFIG_VALUES[key]:
            raise ValueError(f"For 'gpu_config', the value of argument {key} must be one of "
                             f"{GPU_CONFIG_VALUES[key]}, but got {value}.")
    store["gpu_config"] = dict(config)
    for key, value in config.items():
        if key in SETTINGS:
            set_setting(store, key, bool(value))  # MindSpore takes 1 and 0 here ("in [True, False]")
        else:
            store[key] = value
