"""mindspore.boost's OptimizerProcess and ParameterProcess: groups, flags and buckets recorded from MindSpore 2.10
(the same network and calls, printed there)."""
from sporax import nn
from sporax.nn.wrap.boost_processes import OptimizerProcess, ParameterProcess


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4, 4, 3, group=2, has_bias=True)
        self.conv1 = nn.Conv2d(4, 4, 3)
        self.bn = nn.BatchNorm2d(4)
        self.fc = nn.Dense(4, 2)

    def construct(self, x):
        return self.fc(self.bn(self.conv1(self.conv(x))).mean((2, 3)))


def _groups(groups):
    return [(sorted(key for key in group if key != "params"), [p.name for p in group["params"]]) for group in groups]


def test_optimizer_process_splits_groups_for_grad_centralization_and_rebuilds():
    net = Net()
    params = net.trainable_params()
    opt = nn.Momentum([{"params": params[:3], "weight_decay": 0.01}, {"params": params[3:]}], 0.1, 0.9)
    process = OptimizerProcess(opt)
    process.add_grad_centralization(net)
    assert _groups(process.origin_params) == [
        (["grad_centralization", "weight_decay"], ["conv1.weight"]), (["weight_decay"], ["conv.weight", "conv.bias"]),
        (["grad_centralization"], ["fc.weight"]), ([], ["bn.gamma", "bn.beta", "fc.bias"])]
    new = process.generate_new_optimizer()
    assert type(new) is nn.Momentum and new is not opt
    assert [p.name for p in new.parameters] == ["conv1.weight", "conv.weight", "conv.bias", "fc.weight", "bn.gamma",
                                                "bn.beta", "fc.bias"]
    assert abs(float(new.momentum.asnumpy()) - 0.9) < 1e-7 and opt.init_args["momentum"] == 0.9


def test_parameter_process_maps_groups_by_name_and_numbers_buckets():
    params = Net().trainable_params()
    groups = ParameterProcess.generate_group_params(params[::-1], [{"params": params[:2], "lr": 0.5},
                                                                   {"params": params[2:4]}])
    assert _groups(groups) == [(["lr"], ["conv.weight", "conv.bias"]), ([], ["conv1.weight", "bn.gamma"]),
                               (["lr"], ["fc.bias", "fc.weight", "bn.beta"])]
    process = ParameterProcess()
    assert [p.comm_fusion for p in process.assign_parameter_group(params)] == [1, 1, 1, 2, 2, 2, 2]
    assert [p.comm_fusion for p in process.assign_parameter_group(params, [1, 3])] == [2, 3, 3, 4, 4, 4, 4]
