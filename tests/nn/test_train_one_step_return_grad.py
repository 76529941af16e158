"""TrainOneStepCell(return_grad=True) returns (loss, {parameter name: gradient}) in Parameter order, with the
values MindSpore 2.10 gives (tests/fixtures/msops/record_train_one_step_return_grad.py), in both modes."""
import json
import os

import numpy as np
import pytest

import sporax
from sporax import Tensor, nn, ops

DATA = json.load(open(os.path.join(os.path.dirname(__file__), "..", "fixtures", "msops",
                                   "train_one_step_return_grad.json")))


class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        weight = Tensor(np.linspace(-0.05, 0.05, 160).reshape(10, 16).astype(np.float32))
        self.fc1 = nn.Dense(16, 10, weight_init=weight, bias_init="zeros")

    def construct(self, x):
        return self.fc1(ops.reshape(x, (1, -1)))


@pytest.mark.parametrize("mode", [sporax.GRAPH_MODE, sporax.PYNATIVE_MODE])
def test_return_grad_gives_named_gradients(mode):
    sporax.set_context(mode=mode)
    try:
        net = _Net()
        optimizer = nn.Adam(net.trainable_params(), learning_rate=0.01)
        loss_net = nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"))
        step = nn.TrainOneStepCell(loss_net, optimizer, return_grad=True)
        step.set_train()
        for label, expect in zip((0, 3), DATA[str(mode)]):
            loss, grads = step(Tensor(np.arange(16).reshape(1, 1, 4, 4).astype(np.float32) * 0.01),
                               Tensor(np.array([label], np.int32)))
            assert isinstance(grads, dict) and list(grads) == expect["names"]
            np.testing.assert_allclose(float(loss.asnumpy()), expect["loss"], rtol=1e-5)
            for name, value in expect["grads"].items():
                np.testing.assert_allclose(grads[name].asnumpy(), value, rtol=1e-5, atol=1e-7)
    finally:
        sporax.set_context(mode=sporax.PYNATIVE_MODE)
