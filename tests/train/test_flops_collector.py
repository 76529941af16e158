"""``FlopsUtilizationCollector`` in ``Model.train``: FLOPs from the compiled step, MFU/HFU per step."""
import re

import numpy as np
import pytest

import sporax as ms
from sporax import nn
from sporax.dataset import NumpySlicesDataset
from sporax.train import FlopsUtilizationCollector, Model


def _train(callback):
    data = {"x": np.random.rand(64, 10).astype(np.float32), "y": np.random.randint(0, 5, (64,)).astype(np.int32)}
    dataset = NumpySlicesDataset(data=data, shuffle=False).batch(32)
    net = nn.Dense(10, 5)
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  nn.Momentum(net.trainable_params(), 0.01, 0.9))
    model.train(1, dataset, callbacks=[callback])


def test_prints_flops_and_utilisation_in_graph_mode(capsys):
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        _train(FlopsUtilizationCollector(data_size=2, computility=1e9))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    lines = capsys.readouterr().out.splitlines()
    flops = re.match(r"Full model flops is (\d+), Full hardware flops is (\d+), Shard model flops is (\d+), "
                     r"Shard hardware flops is (\d+)\.", lines[0])
    assert flops, lines
    model_flops = int(flops.group(1))
    assert model_flops >= 3 * 2 * 32 * 10 * 5 - 2 * 32 * 10 * 5  # forward and weight-gradient matmuls at least
    assert int(flops.group(3)) == model_flops
    # MindSpore prints the utilisation on the steps that are not multiples of data_size: step 1 of 2.
    assert re.fullmatch(r"Train per step time: +[0-9.]+ ms mfu:[0-9.]+% hfu:[0-9.]+%", lines[1]), lines


def test_pynative_is_refused():
    with pytest.raises(ValueError, match="only support graph mode"):
        _train(FlopsUtilizationCollector(data_size=2))


@pytest.mark.parametrize("kwargs, error", [({"data_size": 0}, ValueError), ({"data_size": 1, "full_flops": 1},
                                                                              TypeError)])
def test_bad_arguments(kwargs, error):
    with pytest.raises(error):
        FlopsUtilizationCollector(**kwargs)
