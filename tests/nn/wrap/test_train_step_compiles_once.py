"""A PyNative TrainOneStepCell of a mobilenet-like network compiles one program and reuses it on every step."""
import numpy as np
import pytest

import sporax as ms
from sporax import nn


class Block(nn.Cell):
    """Depthwise + pointwise convolutions, BatchNorm (moving statistics), hardswish and dropout (RNG state):
    the state a mindocr backbone carries through its train step."""

    def __init__(self):
        super().__init__()
        self.depthwise = nn.Conv2d(4, 4, 3, pad_mode="pad", padding=1, group=4)
        self.norm = nn.BatchNorm2d(4)
        self.act = nn.HSwish()
        self.pointwise = nn.Conv2d(4, 2, 1, has_bias=True)
        self.drop = nn.Dropout(p=0.1)

    def construct(self, x):
        return (self.drop(self.pointwise(self.act(self.norm(self.depthwise(x))))) ** 2).mean()


def _losses(mode, steps=3):
    ms.set_context(mode=mode)
    ms.set_seed(0)
    net = Block()
    net.set_train(True)
    step = nn.TrainOneStepCell(net, nn.Adam(net.trainable_params(), learning_rate=1e-2))
    x = ms.Tensor(np.random.default_rng(0).standard_normal((2, 4, 6, 6)).astype(np.float32))
    losses = [float(step(x).asnumpy()) for _ in range(steps)]
    return losses, step, net


@pytest.fixture(autouse=True)
def _pynative_after():
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


def test_three_pynative_steps_run_one_compiled_program_with_graph_modes_values():
    losses, step, net = _losses(ms.PYNATIVE_MODE)
    programs = step.__dict__["_sporax_compiled"].programs
    assert len(programs) == 1 and not programs[0].eager, "one compiled program for every step, no eager fallback"
    assert len(set(losses)) == 3, "each step trained the weights and drew a new dropout mask"
    assert not np.allclose(net.norm.moving_mean.asnumpy(), 0), "BatchNorm's statistics updated"
    graph_losses, _, _ = _losses(ms.GRAPH_MODE)
    np.testing.assert_allclose(losses, graph_losses, rtol=1e-5)
