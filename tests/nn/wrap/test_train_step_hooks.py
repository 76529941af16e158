"""TrainOneStepCell with a hooked network: PyNative runs the hook with real values on every step."""
import numpy as np

import sporax as ms
from sporax import nn
from sporax.core.tensor import Tensor

# MindSpore 2.10, PYNATIVE_MODE, the network below: what the forward hook saw (output sums) and the losses
MINDSPORE_SEEN = [3.96, 3.06306, 1.5484]
MINDSPORE_LOSSES = [0.33615, 0.21645, 0.0776]


def _train(mode):
    ms.set_context(mode=mode)
    try:
        net = nn.Dense(3, 2, weight_init=Tensor(np.full((2, 3), 0.3, np.float32)), bias_init="zeros")
        seen = []
        net.register_forward_hook(lambda cell, inputs, output: seen.append(float(output.asnumpy().sum())))
        step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(net.trainable_params(), 0.1, 0.9))
        x = Tensor(np.arange(12, dtype=np.float32).reshape(4, 3) / 10)
        y = Tensor(np.zeros((4, 2), np.float32))
        losses = [float(step(x, y).asnumpy()) for _ in range(3)]
        return seen, losses
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_pynative_train_step_runs_forward_hook_every_step_with_values():
    seen, losses = _train(ms.PYNATIVE_MODE)
    np.testing.assert_allclose(seen, MINDSPORE_SEEN, rtol=1e-5)
    np.testing.assert_allclose(losses, MINDSPORE_LOSSES, rtol=1e-4)


def test_hooked_train_step_losses_equal_graph_mode():
    _, pynative_losses = _train(ms.PYNATIVE_MODE)
    _, graph_losses = _train(ms.GRAPH_MODE)
    np.testing.assert_allclose(pynative_losses, graph_losses, rtol=1e-5)
