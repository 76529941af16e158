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


class DropPath(nn.Cell):
    """mindcv's DropPath: a seeded Dropout of a (batch, 1) tensor of ones scales each sample's residual branch."""

    def __init__(self):
        super().__init__()
        self.dropout = nn.Dropout(p=0.25)

    def construct(self, x):
        return x * self.dropout(ms.ops.ones((x.shape[0], 1), ms.float32))


class ResidualBlock(nn.Cell):
    def __init__(self, index):
        super().__init__()
        weight = np.cos(np.arange(16) + index).reshape(4, 4).astype(np.float32) / 2
        self.dense = nn.Dense(4, 4, weight_init=ms.Tensor(weight), bias_init="zeros")
        self.drop_path = DropPath()

    def construct(self, x):
        return x + self.drop_path(ms.ops.tanh(self.dense(x)))


# MindSpore 2.10 GRAPH_MODE, set_seed(1), the three steps below
SEVEN_DROP_PATHS_LOSSES = [1.2068129777908325, 1.1252293586730957, 0.5022720694541931]


def test_seven_seeded_drop_paths_compile_into_one_step_with_mindspores_masks():
    # Each seeded Dropout keeps its stream's counter in a Parameter of its Primitive; state discovery finds them
    # all before tracing (seven of them took more rounds than discovery gives, and the step ran eagerly)
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(1)
    net = nn.SequentialCell([ResidualBlock(index) for index in range(7)])
    net.set_train()
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1))
    x = ms.Tensor(np.sin(np.arange(32)).reshape(8, 4).astype(np.float32))
    losses = [float(step(x, ms.Tensor(np.zeros((8, 4), np.float32))).asnumpy()) for _ in range(3)]
    programs = step.__dict__["_sporax_compiled"].programs
    assert len(programs) == 1 and not programs[0].eager, "one compiled program, no eager fallback"
    np.testing.assert_allclose(losses, SEVEN_DROP_PATHS_LOSSES, rtol=2e-6)  # the masks: MindSpore's
    assert int(net[6].drop_path.dropout._seeded._words.asnumpy()) == 3 * 8, "8 words a step, each step new ones"
