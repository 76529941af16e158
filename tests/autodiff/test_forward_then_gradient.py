"""``loss = net(x)`` then a gradient of ``net`` at the same ``x`` in one compiled step (MindSpore 2.10 recorded).

Custom training Cells of the model zoo (DCGAN, YOLO, Wide&Deep ...) compute the loss and then ``GradOperation`` of
the same network with the same inputs. MindSpore's graph compiler merges the two forward passes: a BatchNorm in the
network moves its moving mean once (0.1 of the batch mean), where PyNative, running both, moves it twice. A
forward at other inputs, or two forwards, move it twice in both modes.
"""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn, ops
from sporax.core.parameter import ParameterTuple

X = np.array([[1.0, 2.0], [3.0, 6.0]], np.float32)  # batch mean [2, 4]
Y = np.array([[5.0, 2.0], [7.0, 6.0]], np.float32)  # batch mean [6, 4]
ONCE, TWICE = [0.2, 0.4], [0.38, 0.76]
# The moving mean after one step (from zeros, momentum 0.9), MindSpore 2.10: (GRAPH_MODE, PYNATIVE_MODE).
RECORDED = {"forward then gradient": (ONCE, TWICE), "gradient only": (ONCE, ONCE),
            "forward at y then gradient at x": ([0.74, 0.76], [0.74, 0.76]), "two forwards": (TWICE, TWICE)}


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.bn = nn.BatchNorm1d(2)
        self.fc = nn.Dense(2, 1, weight_init="ones")

    def construct(self, x):
        return self.fc(self.bn(x)).sum()


class Step(nn.Cell):
    def __init__(self, net, case):
        super().__init__()
        self.net = net
        self.weights = ParameterTuple(net.trainable_params())
        self.case = case
        self.grad = ops.GradOperation(get_by_list=True, sens_param=True)

    def construct(self, x, y):
        if self.case == "forward then gradient":
            loss = self.net(x)
            return loss, self.grad(self.net, self.weights)(x, ops.ones_like(loss))
        if self.case == "gradient only":
            return self.grad(self.net, self.weights)(x, Tensor(np.float32(1.0)))
        if self.case == "forward at y then gradient at x":
            loss = self.net(y)
            return loss, self.grad(self.net, self.weights)(x, ops.ones_like(loss))
        return self.net(x) + self.net(x)


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE], ids=["graph", "pynative"])
@pytest.mark.parametrize("case", list(RECORDED))
def test_batchnorm_statistics_move_as_mindspore(mode, case):
    """PyNative/Graph difference ("forward then gradient"): GRAPH_MODE moves the statistics once."""
    ms.set_context(mode=mode)
    try:
        net = Net()
        net.set_train()
        step = Step(net, case)
        step.set_train()
        step(Tensor(X), Tensor(Y))
        expected = RECORDED[case][0 if mode == ms.GRAPH_MODE else 1]
        np.testing.assert_allclose(net.bn.moving_mean.asnumpy(), expected, rtol=1e-6)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_merged_forward_keeps_the_gradient():
    """The merged step's weight gradient is the one a separate forward and gradient give."""
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = Net()
        net.set_train()
        _, grads = Step(net, "forward then gradient")(Tensor(X), Tensor(Y))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    # fc(bn(x)).sum() with fc weights ones: d/d fc.weight is the column sums of bn(x) (zero-mean rows): 0;
    # d/d fc.bias is the batch size; d/d gamma is sum(bn_hat) = 0 and d/d beta the batch size.
    values = {p.name.removeprefix("net."): g.asnumpy() for p, g in zip(net.trainable_params(), grads)}
    np.testing.assert_allclose(values["fc.bias"], [2.0], rtol=1e-6)
    np.testing.assert_allclose(values["bn.beta"], [2.0, 2.0], rtol=1e-6)
    np.testing.assert_allclose(values["fc.weight"], [[0.0, 0.0]], atol=1e-5)
