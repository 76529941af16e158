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



def test_ascend_debug_and_tuning_settings_are_served_and_ignored_off_ascend(hook):
    # MindSpore 2.10 on CPU runs each docstring example (logging that the device is unsupported) and returns None.
    import mindspore as ms  # noqa: PLC0415 - served only while the hook is installed

    assert ms.device_context.ascend.op_debug.execute_timeout(100) is None
    assert ms.device_context.ascend.op_debug.debug_option("oom") is None
    assert ms.device_context.ascend.op_tuning.op_compile(True) is None
    assert ms.device_context.ascend.op_tuning.aoe_tune_mode("online") is None
    assert ms.device_context.ascend.op_tuning.aoe_job_type("1") is None
    assert ms.device_context.ascend.op_tuning.aclnn_cache(True, 10000) is None
    assert ms.device_context.gpu.device.is_available() is device_targets.gpu_is_available()

def test_op_precision_mode_checks_its_path_type_as_mindspore():
    with pytest.raises(TypeError, match=r"^The parameter 'path' must be <class 'str'>, but got <class 'int'>$"):
        device_targets.ascend_op_precision_mode(3)


def test_op_precision_is_served_at_mindspores_path(hook):
    from mindspore.device_context.ascend import op_precision  # noqa: PLC0415 - served only while the hook is installed

    assert op_precision.precision_mode is device_targets.ascend_precision_mode
    assert op_precision.conv_allow_hf32 is device_targets.ascend_conv_allow_hf32


@pytest.mark.parametrize("num, error, message", [
    (1.5, TypeError, r"^The parameter 'num' must be <class 'int'>, but got <class 'float'>$"),
    (0, ValueError, r"^The 'num' must be int and must > 0, but got '0' with type 'int'.$"),
    (-1, ValueError, r"^The 'num' must be int and must > 0, but got '-1' with type 'int'.$"),
    (True, TypeError, r"^The 'num' must be int and must > 0, but got 'True' with type 'bool'.$"),
])
def test_cpu_threads_num_checks_as_mindspore(num, error, message, monkeypatch):
    # MindSpore 2.10's messages for device_context.cpu.op_tuning.threads_num
    monkeypatch.setattr(device_targets, "_cpu_op_settings", {})
    with pytest.raises(error, match=message):
        device_targets.cpu_threads_num(num)


def test_cpu_threads_num_is_set_once_at_mindspores_paths(hook, monkeypatch):
    # MindSpore 2.10: the docstring's threads_num(10) returns None; a second call raises RuntimeError.
    import mindspore as ms
    from mindspore.device_context.cpu import op_tuning  # noqa: PLC0415 - served only while the hook is installed

    monkeypatch.setattr(device_targets, "_cpu_op_settings", {})
    assert op_tuning.threads_num is ms.device_context.cpu.threads_num is device_targets.cpu_threads_num
    assert device_targets.cpu_op_threads_num() is None
    assert op_tuning.threads_num(10) is None
    assert device_targets.cpu_op_threads_num() == 10
    with pytest.raises(RuntimeError, match=r"^The 'threads_num' can not be set repeatedly.$"):
        op_tuning.threads_num(4)
