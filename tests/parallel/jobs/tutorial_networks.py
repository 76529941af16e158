"""The networks of MindSpore's parallel tutorial pages that the one-process flows (tutorial_flows_worker.py) and
the msrun job (tutorial_pages.py) both train."""
import mindspore as ms
from mindspore import Parameter, nn, ops
from mindspore.common.initializer import initializer
from mindspore.nn.utils import no_init_parameters
from mindspore.parallel import Layout


def strategies(cell, layouts):
    """Give ``cell`` the pages' three MatMul weights; the strategies of the first two MatMuls, as the pages write
    them: split counts, or Layouts over a (2, 2, 2) and an (8,) device matrix."""
    cell.fc1_weight = Parameter(initializer("normal", [64, 32], ms.float32))
    cell.fc2_weight = Parameter(initializer("normal", [32, 32], ms.float32))
    cell.fc3_weight = Parameter(initializer("normal", [32, 10], ms.float32))
    if not layouts:
        return ((2, 4), (4, 1)), ((1, 8), (8, 1))
    layout = Layout((2, 2, 2), ("dp", "sp", "mp"))
    layout2 = Layout((8,), ("tp",))
    return (layout("mp", ("sp", "dp")), layout(("sp", "dp"), "None")), (layout2("None", "tp"), layout2("tp", "None"))


class OperatorNetwork(nn.Cell):
    """The operator-parallel page's network: three MatMul weights, strategies on MatMul/ReLU."""

    def __init__(self, layouts=False):
        super().__init__()
        self.flatten = ops.Flatten()
        first, second = strategies(self, layouts)
        self.matmul1 = ops.MatMul().shard(first)
        self.matmul2 = ops.MatMul().shard(second)
        self.relu1 = ops.ReLU().shard(((4, 1),))
        self.relu2 = ops.ReLU().shard(((8, 1),))
        self.matmul3 = ops.MatMul()

    def construct(self, x):
        x = self.relu1(self.matmul1(self.flatten(x), self.fc1_weight))
        x = self.relu2(self.matmul2(x, self.fc2_weight))
        return self.matmul3(x, self.fc3_weight)


class DenseNetwork(nn.Cell):
    """The optimizer-parallel and pipeline pages' network: Dense layers."""

    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.layer1 = nn.Dense(64, 64)
        self.relu1 = nn.ReLU()
        self.layer2 = nn.Dense(64, 32)
        self.relu2 = nn.ReLU()
        self.layer3 = nn.Dense(32, 10)

    def construct(self, x):
        return self.layer3(self.relu2(self.layer2(self.relu1(self.layer1(self.flatten(x))))))


class Propagated(nn.Cell):
    """The sharding-propagation page's network: one MatMul strategy given, the rest propagated or searched."""

    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.dense1 = nn.Dense(64, 64)
        self.dense2 = nn.Dense(64, 10)
        self.dense1.matmul.shard(((2, 1), (4, 1)))

    def construct(self, x):
        return self.dense2(ops.relu(self.dense1(self.flatten(x))))


def hsdp(step, net):
    net.layer1.set_comm_fusion(0)
    net.layer2.set_comm_fusion(1)
    net.layer3.set_comm_fusion(2)
    step.hsdp(threshold=1)


def propagated_step():
    """The search pages' network and training step (Momentum, CrossEntropyLoss), weights created at compile."""
    with no_init_parameters():
        net = Propagated()
        optimizer = nn.Momentum(net.trainable_params(), 0.01, 0.9)
    return net, nn.TrainOneStepCell(nn.WithLossCell(net, nn.CrossEntropyLoss()), optimizer)
