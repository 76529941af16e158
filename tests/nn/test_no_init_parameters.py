"""nn.no_init_parameters against MindSpore 2.10 (values recorded by
tests/fixtures/nn/record_no_init_parameters.py)."""
import json
import os

import numpy as np
import pytest

import sporax as ms
from sporax import nn

FIXTURE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures", "nn",
                       "no_init_parameters_mindspore.json")


@pytest.fixture(scope="module")
def expected():
    with open(FIXTURE) as handle:
        return json.load(handle)


def build():
    return nn.SequentialCell([nn.Dense(4, 3), nn.ReLU(), nn.Dense(3, 2)])


def flags(net):
    return {p.name: bool(p.has_init) for p in net.get_parameters()}


def test_parameters_hold_no_data_until_initialised(expected):
    ms.set_seed(1)
    with nn.no_init_parameters():
        net = build()
    assert flags(net) == expected["lazy_has_init"]
    assert all(p._array is None for p in net.get_parameters())
    assert net[0].weight.shape == (3, 4) and net[0].weight.dtype == ms.float32
    net.init_parameters_data()
    assert flags(net) == expected["lazy_after_init_has_init"]
    x = ms.Tensor(np.array(expected["x"], np.float32))
    np.testing.assert_allclose(net(x).asnumpy(), expected["lazy_out"], rtol=1e-5, atol=1e-6)
    ms.set_seed(1)
    np.testing.assert_allclose(build()(x).asnumpy(), expected["normal_out"], rtol=1e-5, atol=1e-6)


def test_load_checkpoint_fills_without_drawing(expected, tmp_path):
    ms.set_seed(7)
    source = build()
    path = str(tmp_path / "source.ckpt")
    ms.save_checkpoint(source, path)
    with nn.no_init_parameters():
        net = build()
    state = np.random.get_state()[1].copy()
    ms.load_checkpoint(path, net=net)
    # Loading assigned the checkpoint's values; no initializer ran (NumPy's stream is untouched).
    np.testing.assert_array_equal(np.random.get_state()[1], state)
    assert flags(net) == expected["loaded_has_init"]
    for name, value in expected["loaded_values"].items():
        np.testing.assert_allclose(net.parameters_dict()[name].asnumpy(), value, rtol=1e-6, atol=1e-7)
    x = ms.Tensor(np.array(expected["x"], np.float32))
    np.testing.assert_allclose(net(x).asnumpy(), expected["loaded_out"], rtol=1e-5, atol=1e-6)


def test_data_parameters_and_decorator(expected):
    with nn.no_init_parameters():
        from_data = ms.Parameter(ms.Tensor(np.ones(3, np.float32)), name="from_data")
    assert bool(from_data.has_init) == expected["from_data_has_init"]

    @nn.no_init_parameters()
    def make():
        return nn.Dense(2, 2)

    assert make().weight.has_init is True
    assert ms.Parameter.init_param is True  # restored after the context
    assert nn.Dense(2, 2).weight.has_init is False  # outside the context: filled at once
