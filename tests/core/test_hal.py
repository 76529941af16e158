"""mindspore.hal (sporax.core.hal): device queries answer as MindSpore 2.10's do on its CPU package."""
import pytest

from sporax.core import hal, runtime


def test_cpu_queries_match_mindspore():
    # MindSpore 2.10 (CPU): is_available True, device_count 1, name 'CPU', capability/properties/arch None.
    assert hal.is_available("CPU") is True
    assert hal.device_count("CPU") == 1
    assert hal.get_device_name(0, "CPU") == "CPU"
    assert hal.get_device_capability(0, "CPU") is None
    assert hal.get_device_properties(0, "CPU") is None
    assert hal.get_arch_list("CPU") is None


def test_absent_backends_and_bad_arguments():
    assert hal.is_available("Ascend") is False
    with pytest.raises(ValueError, match="Ascend backend is not available"):
        hal.device_count("Ascend")
    with pytest.raises(ValueError, match="device_target must be one of"):
        hal.is_available("TPU")
    with pytest.raises(ValueError, match=r"device_id must be in \[0, 1\)"):
        hal.get_device_name(3, "CPU")


def test_streams_and_memory_are_the_runtimes():
    assert hal.current_stream() == hal.default_stream()
    assert hal.memory_allocated is runtime.memory_allocated and hal.Stream is runtime.Stream
    assert isinstance(hal.max_memory_allocated(), int)
