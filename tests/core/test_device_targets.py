"""``mindspore.device_context.cpu/gpu/ascend`` queries (behaviour recorded from MindSpore 2.10 on a CPU host)."""
import jax
import pytest

from sporax.core import device_targets
from tests.compat.test_hook import hook  # noqa: F401  (the shared install/uninstall fixture)


def _has_gpu():
    try:
        return bool(jax.devices("gpu"))
    except RuntimeError:
        return False


def test_cpu_is_one_available_device():
    # MindSpore 2.10: device_context.cpu.device_count() == 1, is_available() is True
    assert device_targets.cpu_device_count() == 1
    assert device_targets.cpu_is_available() is True


def test_ascend_never_exists():
    # MindSpore 2.10 without Ascend: is_available() False, device_count() RuntimeError "Device Ascend not exist."
    assert device_targets.ascend_is_available() is False
    with pytest.raises(RuntimeError, match="Ascend not exist"):
        device_targets.ascend_device_count()


def test_gpu_counts_what_jax_sees():
    if _has_gpu():
        assert device_targets.gpu_is_available() is True
        assert device_targets.gpu_device_count() == len(jax.devices("gpu"))
    else:
        # MindSpore 2.10 without a GPU: is_available() False, device_count() RuntimeError "Device_target GPU not exist."
        assert device_targets.gpu_is_available() is False
        with pytest.raises(RuntimeError, match="GPU not exist"):
            device_targets.gpu_device_count()


def test_served_per_target_under_the_mindspore_paths(hook):
    import mindspore as ms
    from mindspore.device_context.ascend import is_available as ascend_is_available
    from mindspore.device_context.cpu import device_count

    assert device_count is device_targets.cpu_device_count and device_count() == 1
    assert ascend_is_available is device_targets.ascend_is_available
    assert ms.device_context.gpu.is_available is device_targets.gpu_is_available
    assert ms.device_context.gpu.device_count is device_targets.gpu_device_count


def test_ascend_precision_settings_are_accepted_and_ignored_off_ascend():
    # MindSpore 2.10 on CPU returns None from each (logging that the device is unsupported).
    assert device_targets.ascend_precision_mode("force_fp16") is None
    assert device_targets.ascend_matmul_allow_hf32(True) is None
    assert device_targets.ascend_conv_allow_hf32(False) is None
    assert device_targets.ascend_op_precision_mode("./op_precision.ini") is None


def test_op_precision_mode_checks_its_path_type_as_mindspore():
    with pytest.raises(TypeError, match=r"^The parameter 'path' must be <class 'str'>, but got <class 'int'>$"):
        device_targets.ascend_op_precision_mode(3)


def test_op_precision_is_served_at_mindspores_path(hook):
    from mindspore.device_context.ascend import op_precision  # noqa: PLC0415 - served only while the hook is installed

    assert op_precision.precision_mode is device_targets.ascend_precision_mode
    assert op_precision.conv_allow_hf32 is device_targets.ascend_conv_allow_hf32
