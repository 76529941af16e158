"""Cell.to / compile / set_jit_config / set_boost / pipeline_stage / bprop_debug / exist_names (MindSpore 2.10 rules)."""
import numpy as np
import pytest

import sporax as ms
from sporax import nn


def _net():
    net = nn.SequentialCell([nn.Dense(3, 4), nn.BatchNorm1d(4)])
    net.set_train(False)
    return net


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_to_casts_float_parameters_in_place(mode):
    ms.set_context(mode=mode)
    try:
        net = _net()
        weight = net[0].weight
        x = np.ones((2, 3), np.float32)
        expected = net(ms.Tensor(x)).asnumpy()
        assert net.to(ms.float16) is net
        assert net[0].weight is weight and weight.dtype == ms.float16 and net[1].moving_mean.dtype == ms.float16
        out = net(ms.Tensor(x, ms.float16))
        assert out.dtype == ms.float16
        np.testing.assert_allclose(out.asnumpy().astype(np.float32), expected, rtol=2e-3, atol=2e-3)
        net.to(ms.Tensor(np.ones(1), ms.float32))
        assert weight.dtype == ms.float32
        net.to(device="CPU", dtype=ms.float64)
        assert weight.dtype == ms.float64
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_to_rejects_integer_dtype_and_other_devices():
    with pytest.raises(TypeError, match="floating point"):
        _net().to(ms.int32)
    with pytest.raises(ValueError, match="not available"):
        _net().to(device="Ascend")


def test_compile_builds_without_running():
    net = _net()
    calls = []
    net.register_forward_pre_hook(lambda cell, inputs: calls.append(1))
    net.compile(ms.Tensor(np.ones((2, 3), np.float32)))
    assert calls == []


def test_settings():
    net = _net()
    with pytest.raises(AttributeError):
        net.pipeline_stage
    net.pipeline_stage = 2
    assert net.pipeline_stage == 2
    with pytest.raises(ValueError):
        net.pipeline_stage = -1
    with pytest.raises(TypeError):
        net.pipeline_stage = True
    assert net.bprop_debug is False
    net.bprop_debug = True
    assert net.bprop_debug is True
    with pytest.raises(TypeError):
        net.bprop_debug = 1
    assert net.exist_names == set()
    assert net.set_boost("less_bn") is net and net[0].get_flags()["less_bn"] is True
    with pytest.raises(ValueError):
        net.set_boost("more_bn")
    net.set_jit_config(ms.JitConfig(jit_level="O1"))
    net.set_jit_config(ms.JitConfig(jit_level="O2"))  # ignored with a warning, as in MindSpore
    assert net._jit_config_dict["jit_level"] == "O1"
    with pytest.raises(TypeError):
        net.set_jit_config({"jit_level": "O1"})
