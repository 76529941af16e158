"""float32 product precision as MindSpore's GPU defaults: full float32 matmuls, TF32 convolutions, and the
settings that flip them (``device_context.gpu.op_precision``, ``set_context(gpu_config=...)``).

Checked on the CPU through the precision each lowered StableHLO product carries (XLA:GPU reads it; XLA:CPU
computes float32 either way). Errors and the CPU-target behaviour were recorded from MindSpore 2.10 (CPU build).
"""
import re

import jax
import numpy as np
import pytest

import sporax
import sporax.numpy as snp
from sporax import Tensor, mint, nn, ops
from sporax.core import context, device_targets, product_precision
from sporax.ops.lowering.switch import plain_lowering
from tests.compat.test_hook import hook  # noqa: F401  (the shared install/uninstall fixture)

_PRODUCT = re.compile(r"stablehlo\.(dot_general|convolution)\b.*?precision(?:_config)? = "
                      r"\[(?:#stablehlo<precision )?(\w+)")


@pytest.fixture
def gpu_target():
    """The context as on a GPU target; the precision settings back to MindSpore's defaults afterwards."""
    saved = dict(context._context)
    context._context["device_target"] = "GPU"
    yield
    product_precision.set_setting(context._context, "matmul_allow_tf32", False)
    product_precision.set_setting(context._context, "conv_allow_tf32", True)
    context._context.clear()
    context._context.update(saved)


def _precisions(function, *arrays):
    """The (product, precision) pairs of ``function``'s lowered StableHLO, traced with XLA's plain forms."""
    def run(*values):
        return function(*(Tensor(value) for value in values))._value
    with plain_lowering():
        text = jax.jit(run).lower(*(np.asarray(array) for array in arrays)).as_text()
    return sorted(set(_PRODUCT.findall(text)))


_A = np.ones((2, 8, 8), np.float32)
_X, _W = np.ones((1, 3, 8, 8), np.float32), np.ones((4, 3, 3, 3), np.float32)


def _matmul_sites():
    dense = nn.Dense(8, 4)
    return {"matmul": (lambda a: ops.matmul(a, a), _A), "bmm": (lambda a: ops.bmm(a, a), _A),
            "einsum": (lambda a: ops.einsum("bij,bjk->bik", a, a), _A),
            "tensordot": (lambda a: snp.tensordot(a, a, 1), _A[0]), "addmm": (lambda a: ops.addmm(a, a, a), _A[0]),
            "baddbmm": (lambda a: ops.baddbmm(a, a, a), _A), "Dense": (dense, _A[0]),
            "linear": (lambda a: mint.nn.functional.linear(a, a), _A[0])}


def test_matrix_products_are_full_float32_and_convolutions_tf32_by_default():
    for name, (function, array) in _matmul_sites().items():
        assert _precisions(function, array) == [("dot_general", "HIGHEST")], name
    assert _precisions(lambda x, w: ops.conv2d(x, w), _X, _W) == [("convolution", "DEFAULT")]
    assert _precisions(nn.Conv2d(3, 4, 3), _X) == [("convolution", "DEFAULT")]
    assert _precisions(nn.Conv2dTranspose(3, 4, 3, stride=2), _X) == [("convolution", "DEFAULT")]
    assert context.get_context("matmul_allow_tf32") is False and context.get_context("conv_allow_tf32") is True


def test_the_settings_flip_the_lowered_precision(gpu_target):
    matmul = (lambda a: ops.matmul(a, a), _A)
    conv = (lambda x, w: ops.conv2d(x, w), _X, _W)
    device_targets.gpu_matmul_allow_tf32(True)
    assert _precisions(*matmul) == [("dot_general", "DEFAULT")]
    assert _precisions(*conv) == [("convolution", "DEFAULT")]
    device_targets.gpu_conv_allow_tf32(False)
    assert _precisions(*matmul) == [("dot_general", "DEFAULT")]
    assert _precisions(*conv) == [("convolution", "HIGHEST")]
    sporax.set_context(gpu_config={"matmul_allow_tf32": False})
    assert _precisions(*matmul) == [("dot_general", "HIGHEST")]
    assert _precisions(*conv) == [("convolution", "HIGHEST")]
    assert context.get_context("gpu_config") == {"matmul_allow_tf32": False}


class _Traces:
    count = 0  # a class attribute: graph syntax keeps a list's append inside the program


def test_a_program_compiled_under_one_setting_is_not_reused_under_another(gpu_target):
    @sporax.jit
    def product(a, x, w):
        _Traces.count += 1
        return ops.matmul(a, a), ops.conv2d(x, w)

    _Traces.count = 0
    arguments = Tensor(_A[0]), Tensor(_X), Tensor(_W)
    product(*arguments)
    product(*arguments)
    assert _Traces.count == 1
    device_targets.gpu_matmul_allow_tf32(True)
    product(*arguments)
    device_targets.gpu_conv_allow_tf32(False)
    product(*arguments)
    assert _Traces.count == 3  # each change traced again
    device_targets.gpu_matmul_allow_tf32(False)
    device_targets.gpu_conv_allow_tf32(True)
    product(*arguments)  # back to the first setting: its program again
    assert _Traces.count == 3


def test_setting_types_are_checked_as_mindspore():
    # MindSpore 2.10: matmul_allow_tf32(1) -> TypeError, before any device check
    for setting in (device_targets.gpu_matmul_allow_tf32, device_targets.gpu_conv_allow_tf32):
        with pytest.raises(TypeError, match=r"^The parameter 'value' must be <class 'bool'>, but got <class 'int'>$"):
            setting(1)
    with pytest.raises(TypeError, match=r"^The parameter 'gpu_config' must be <class 'dict'>, but got <class 'str'>$"):
        sporax.set_context(gpu_config="matmul_allow_tf32")
    # MindSpore 2.10: set_context(matmul_allow_tf32=1) -> RuntimeError "Got illegal param 30 and value with type
    # <class 'int'>"
    with pytest.raises(RuntimeError, match="'matmul_allow_tf32' must be <class 'bool'>, but got <class 'int'>"):
        sporax.set_context(matmul_allow_tf32=1)


def test_a_cpu_target_ignores_the_gpu_settings_as_mindspore():
    # MindSpore 2.10 on a CPU target: op_precision.matmul_allow_tf32(True) logs "CPU device is not supported" and
    # returns None; set_context(gpu_config=...) warns and ignores it (get_context('gpu_config') stays {}).
    if context.get_context("device_target") != "CPU":
        pytest.skip("a GPU target")
    before = dict(context._context)
    assert device_targets.gpu_matmul_allow_tf32(True) is None
    sporax.set_context(gpu_config={"matmul_allow_tf32": True, "unknown": 1})
    assert context._context == before
    assert jax.config.jax_default_matmul_precision == "highest"


def test_gpu_config_errors_as_mindspore(gpu_target):
    with pytest.raises(ValueError, match=r"^For 'context.set_context', the key of argument 'gpu_config' must be one "
                                         r"of \{'conv_fprop_algo': \['normal', .*, but got unknown\.$"):
        sporax.set_context(gpu_config={"unknown": 1})
    with pytest.raises(ValueError, match=r"^For 'gpu_config', the value of argument matmul_allow_tf32 must be one of "
                                         r"\[True, False\], but got yes\.$"):
        sporax.set_context(gpu_config={"matmul_allow_tf32": "yes"})
    with pytest.raises(ValueError, match=r"^For 'mindspore.device_context.gpu.op_tuning.conv_fprop_algo', the "
                                         r"argument must be in \['normal', .*\] but got fastest\.$"):
        device_targets.gpu_conv_fprop_algo("fastest")
    sporax.set_context(gpu_config={"conv_fprop_algo": "gemm", "conv_allow_tf32": 0})  # MindSpore takes 0 as False
    assert context.get_context("conv_fprop_algo") == "gemm" and context.get_context("conv_allow_tf32") is False
    device_targets.gpu_conv_wgrad_algo("algo_3")
    assert context.get_context("conv_wgrad_algo") == "algo_3"


def test_served_at_mindspores_paths(hook):
    import mindspore as ms
    from mindspore.device_context.gpu import op_precision, op_tuning

    assert op_precision.matmul_allow_tf32 is device_targets.gpu_matmul_allow_tf32
    assert op_precision.conv_allow_tf32 is device_targets.gpu_conv_allow_tf32
    assert op_tuning.conv_dgrad_algo is device_targets.gpu_conv_dgrad_algo
    assert ms.device_context.gpu.matmul_allow_tf32 is device_targets.gpu_matmul_allow_tf32
    assert ms.device_context.gpu.is_available is device_targets.gpu_is_available
