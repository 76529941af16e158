"""20 training steps from the fixture weights give MindSpore 2.10's losses (rel 1e-4), both modes.

The reference numbers were recorded from real MindSpore by tests/fixtures/oracle/record_training.py.
"""
import json
import os

import numpy as np
import pytest

import sporax as ms
from sporax import nn
from tests.io.fixture_nets import build, fixture_path

ORACLE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "oracle", "training_losses.json")
with open(ORACLE) as handle:
    RECORDED = json.load(handle)


def batches(name, steps=20):
    rng = np.random.default_rng(7)
    if name == "mlp":
        return [(rng.standard_normal((32, 32)).astype(np.float32), rng.standard_normal((32, 1)).astype(np.float32))
                for _ in range(steps)]
    return [(rng.standard_normal((32, 1, 32, 32)).astype(np.float32), rng.integers(0, 10, 32).astype(np.int32))
            for _ in range(steps)]


@pytest.mark.parametrize("mode", ["pynative", "graph"])
@pytest.mark.parametrize("optimizer_name", ["momentum", "adam"])
@pytest.mark.parametrize("name", ["mlp", "lenet5"])
def test_losses_match_mindspore(name, optimizer_name, mode):
    ms.set_context(mode=ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE)
    try:
        net = build(name)
        params = np.load(fixture_path(name + "_params.npz"))
        ms.load_param_into_net(net, {k: ms.Parameter(ms.Tensor(params[k]), k) for k in params.files})
        loss = nn.MSELoss() if name == "mlp" else nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        if optimizer_name == "momentum":
            optimizer = nn.Momentum(net.trainable_params(), 0.01, 0.9)
        else:
            optimizer = nn.Adam(net.trainable_params(), 0.001)
        step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), optimizer)
        losses = [float(step(ms.Tensor(x), ms.Tensor(y)).asnumpy()) for x, y in batches(name)]
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    expected = RECORDED[f"{name}/{optimizer_name}" + ("/graph" if mode == "graph" else "")]
    np.testing.assert_allclose(losses, expected, rtol=1e-4)
