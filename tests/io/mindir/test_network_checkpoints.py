"""Checkpoints both ways for the networks of export.py kinds (``oracle.WITH_CHECKPOINT``): MindSpore 2.10's
``<name>.ckpt`` loads into the same network built by sporax with MindSpore's recorded outputs, and a checkpoint
sporax saves from its own weights loads into the network built by MindSpore with sporax's outputs."""
import numpy as np
import pytest

import sporax as ms
from tests.io.mindir.mindspore_runner import needs_mindspore, run_checkpoints_on_mindspore
from tests.io.mindir.oracle import NETWORKS, WITH_CHECKPOINT, inputs_outputs, network, path


def _flat(value):
    if isinstance(value, (tuple, list)):
        return [array for item in value for array in _flat(item)]
    return [value.asnumpy()]


def _outputs(net, inputs):
    return _flat(net(*[ms.Tensor(value) for value in inputs]))


@pytest.mark.parametrize("name", WITH_CHECKPOINT)
def test_mindspore_checkpoint_gives_mindspore_outputs(name):
    inputs, expected = inputs_outputs(name)
    net = network(name)
    net.set_train(False)
    missing, unused = ms.load_param_into_net(net, ms.load_checkpoint(path(name, ".ckpt")))
    assert missing == [] and unused == []
    outputs = _outputs(net, inputs)
    assert len(outputs) == len(expected)
    for got, want in zip(outputs, expected):
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


@needs_mindspore
@pytest.mark.slow  # 16 networks built and run on both sides (~20 s)
def test_mindspore_loads_sporax_checkpoints(tmp_path):
    """sporax's own initial weights (not MindSpore's), saved and run by MindSpore: equal outputs."""
    ms.set_seed(7)
    jobs, expected = [], []
    for name in WITH_CHECKPOINT:
        inputs, _ = inputs_outputs(name)
        net = network(name)
        net.set_train(False)
        expected.append(_outputs(net, inputs))
        ms.save_checkpoint(net, str(tmp_path / f"{name}.ckpt"))
        jobs.append((path("record", ".py"), NETWORKS[name], tmp_path / f"{name}.ckpt", inputs))
    for name, result, want in zip(WITH_CHECKPOINT, run_checkpoints_on_mindspore(jobs, str(tmp_path)), expected):
        assert not isinstance(result, str), f"{name}: {result}"
        assert len(result) == len(want), name
        for got, value in zip(result, want):
            assert got.dtype == value.dtype, name
            np.testing.assert_allclose(got, value, rtol=1e-4, atol=1e-5, err_msg=name)
