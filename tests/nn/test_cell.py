"""nn.Cell: registration, MindSpore's Parameter naming, traversal, modes, flags, repr, GRAPH_MODE hand-off."""
import os
import sys

import numpy as np
import pytest

from sporax import nn
from sporax.core import context
from sporax.core import dtype as mstype
from sporax.core.parameter import Parameter, ParameterTuple
from sporax.core.tensor import Tensor
from tests.nn.helpers import MINDSPORE_FIXTURES


def names(cell):
    return [p.name for p in cell.get_parameters()]


def paths(cell):
    return [name for name, _ in cell.parameters_and_names()]


def ones(*shape):
    return Tensor(np.ones(shape, np.float32))


# --- the fixture networks: names, shapes and outputs as MindSpore 2.10 wrote them ---------------------
class SeedMLP(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(32, 120)
        self.fc2 = nn.Dense(120, 84)
        self.fc3 = nn.Dense(84, 1)
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.fc3(self.relu(self.fc2(self.relu(self.fc1(x)))))


class LeNet5(nn.Cell):
    def __init__(self, num_class=10, num_channel=1):
        super().__init__()
        self.conv1 = nn.Conv2d(num_channel, 6, 5, pad_mode="valid")
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
        self.fc1 = nn.Dense(16 * 5 * 5, 120)
        self.fc2 = nn.Dense(120, 84)
        self.fc3 = nn.Dense(84, num_class)
        self.relu = nn.ReLU()
        self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()

    def construct(self, x):
        x = self.max_pool2d(self.relu(self.conv1(x)))
        x = self.max_pool2d(self.relu(self.conv2(x)))
        x = self.flatten(x)
        x = self.relu(self.fc1(x))
        x = self.relu(self.fc2(x))
        return self.fc3(x)


class SmallCNN(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, pad_mode="same", has_bias=True)
        self.bn = nn.BatchNorm2d(8)
        self.relu = nn.ReLU()
        self.pool = nn.AvgPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(8 * 8 * 8, 10)

    def construct(self, x):
        x = self.pool(self.relu(self.bn(self.conv(x))))
        return self.fc(self.flatten(x))


FIXTURE_NETS = {
    "mlp": (SeedMLP, ["fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias", "fc3.weight", "fc3.bias"]),
    "lenet5": (LeNet5, ["conv1.weight", "conv2.weight", "fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias",
                        "fc3.weight", "fc3.bias"]),
    "small_cnn": (SmallCNN, ["conv.weight", "conv.bias", "bn.moving_mean", "bn.moving_variance", "bn.gamma",
                             "bn.beta", "fc.weight", "fc.bias"]),
}


@pytest.mark.parametrize("name", sorted(FIXTURE_NETS))
def test_fixture_network_names_shapes_and_output(name):
    cls, expected = FIXTURE_NETS[name]
    net = cls()
    net.set_train(False)
    params = np.load(os.path.join(MINDSPORE_FIXTURES, f"{name}_params.npz"))
    io = np.load(os.path.join(MINDSPORE_FIXTURES, f"{name}_io.npz"))
    assert names(net) == expected
    assert paths(net) == expected
    assert [tuple(p.shape) for p in net.get_parameters()] == [params[key].shape for key in expected]
    assert [p.name for p in net.trainable_params()] == [n for n in expected if "moving" not in n]
    assert [p.name for p in net.untrainable_params()] == [n for n in expected if "moving" in n]
    for parameter in net.get_parameters():
        parameter.set_data(Tensor(params[parameter.name]))
    output = net(Tensor(io["x"])).asnumpy()
    np.testing.assert_allclose(output, io["y"], rtol=1e-5, atol=1e-6)


# --- seeds ----------------------------------------------------------------------------------------
def test_seed001_network_repr_and_parameter_names():
    class Network(nn.Cell):
        def __init__(self):
            super().__init__()
            self.flatten = nn.Flatten()
            self.dense_relu_sequential = nn.SequentialCell(
                nn.Dense(28 * 28, 512), nn.ReLU(), nn.Dense(512, 512), nn.ReLU(), nn.Dense(512, 10))

        def construct(self, x):
            return self.dense_relu_sequential(self.flatten(x))

    model = Network()
    assert repr(model) == (
        "Network(\n"
        "  (flatten): Flatten()\n"
        "  (dense_relu_sequential): SequentialCell(\n"
        "    (0): Dense(input_channels=784, output_channels=512, has_bias=True)\n"
        "    (1): ReLU()\n"
        "    (2): Dense(input_channels=512, output_channels=512, has_bias=True)\n"
        "    (3): ReLU()\n"
        "    (4): Dense(input_channels=512, output_channels=10, has_bias=True)\n"
        "  )\n"
        ")")
    assert str(model) == repr(model)
    assert [(n, tuple(p.shape)) for n, p in model.parameters_and_names()] == [
        ("dense_relu_sequential.0.weight", (512, 784)), ("dense_relu_sequential.0.bias", (512,)),
        ("dense_relu_sequential.2.weight", (512, 512)), ("dense_relu_sequential.2.bias", (512,)),
        ("dense_relu_sequential.4.weight", (10, 512)), ("dense_relu_sequential.4.bias", (10,))]
    assert model(ones(1, 28, 28)).shape == (1, 10)


def _seed002_cells():
    class PlainList(nn.Cell):
        def __init__(self):
            super().__init__()
            self.layer = [nn.Conv2d(1, 3, 3), nn.BatchNorm2d(3), nn.ReLU()]

        def construct(self, x):
            for layer in self.layer:
                x = layer(x)
            return x

    class WithCellList(nn.Cell):
        def __init__(self):
            super().__init__()
            self.layer = nn.CellList([nn.Conv2d(1, 3, 3), nn.BatchNorm2d(3), nn.ReLU()])

        def construct(self, x):
            for layer in self.layer:
                x = layer(x)
            return x

    class WithSequentialCell(nn.Cell):
        def __init__(self):
            super().__init__()
            self.layer = nn.SequentialCell([nn.Conv2d(1, 3, 3), nn.BatchNorm2d(3), nn.ReLU()])

        def construct(self, x):
            return self.layer(x)

    return PlainList, WithCellList, WithSequentialCell


def test_seed002_plain_list_registers_nothing_but_cell_list_does():
    plain, with_list, with_sequential = _seed002_cells()
    x = ones(2, 1, 8, 8)
    net = plain()
    assert net.trainable_params() == [] and names(net) == []
    assert [n for n, _ in net.cells_and_names()] == [""]
    assert net(x).shape == (2, 3, 8, 8)
    for cls in (with_list, with_sequential):
        net = cls()
        assert [p.name for p in net.trainable_params()] == ["layer.0.weight", "layer.1.gamma", "layer.1.beta"]
        assert names(net) == ["layer.0.weight", "layer.1.moving_mean", "layer.1.moving_variance",
                              "layer.1.gamma", "layer.1.beta"]
        assert [n for n, _ in net.cells_and_names()] == ["", "layer", "layer.0", "layer.1", "layer.2"]
        assert net(x).shape == (2, 3, 8, 8)


def test_seed004_submodules_and_insert_child_to_cell():
    class MyCell(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(1, 32, 3, 1)
            self.conv2 = nn.Conv2d(32, 64, 3, 1)
            self.insert_child_to_cell("conv3", nn.Conv2d(64, 128, 3, 1))
            self.sequential_block = nn.SequentialCell(nn.ReLU(), nn.Conv2d(128, 256, 3, 1), nn.ReLU())

        def construct(self, x):
            return self.sequential_block(self.conv3(self.conv2(self.conv1(x))))

    module = MyCell()
    assert [(n, type(c).__name__) for n, c in module.cells_and_names()] == [
        ("", "MyCell"), ("conv1", "Conv2d"), ("conv2", "Conv2d"), ("conv3", "Conv2d"),
        ("sequential_block", "SequentialCell"), ("sequential_block.0", "ReLU"), ("sequential_block.1", "Conv2d"),
        ("sequential_block.2", "ReLU")]
    # insert_child_to_cell does not rename (MindSpore 2.10): conv3's weight keeps its own name.
    assert names(module) == ["conv1.weight", "conv2.weight", "weight", "sequential_block.1.weight"]
    assert paths(module)[2] == "conv3.weight"


def test_seed004_parameters_requires_grad_and_repr():
    net = nn.Dense(2, 1, has_bias=True)
    assert repr(net.trainable_params()) == (
        "[Parameter (name=weight, shape=(1, 2), dtype=Float32, requires_grad=True), "
        "Parameter (name=bias, shape=(1,), dtype=Float32, requires_grad=True)]")
    for param in net.trainable_params():
        if "bias" in param.name:
            param.requires_grad = False
    assert names(nn.SequentialCell(net)) == ["0.weight", "0.bias"]
    assert [p.name for p in net.trainable_params()] == ["0.weight"]
    assert [p.name for p in net.untrainable_params()] == ["0.bias"]


def test_seed004_functional_and_cell_prefix():
    class MyCell(nn.Cell):
        def __init__(self, forward_net):
            super(MyCell, self).__init__(auto_prefix=True)
            self.net = forward_net
            self.relu = nn.ReLU()

        def construct(self, x):
            return self.relu(self.net(x))

    my_net = MyCell(nn.Conv2d(120, 240, 4, has_bias=False))
    assert repr(my_net.trainable_params()) == (
        "[Parameter (name=net.weight, shape=(240, 120, 4, 4), dtype=Float32, requires_grad=True)]")


# --- registration and naming rules ----------------------------------------------------------------
class Sub(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.ones(2, np.float32)))
        self.d = nn.Dense(2, 3)

    def construct(self, x):
        return x


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.sub = Sub()
        self.p = Parameter(Tensor(np.ones(2, np.float32)), name="custom")
        self.q = Parameter(Tensor(np.ones(2, np.float32)))
        self.lst = [nn.Dense(2, 2)]
        self.cl = nn.CellList([nn.Dense(2, 2), Sub()])

    def construct(self, x):
        return x


def test_names_follow_attribute_paths_and_keep_user_names_at_top():
    net = Net()
    assert names(net) == ["custom", "q", "sub.w", "sub.d.weight", "sub.d.bias", "cl.0.weight", "cl.0.bias",
                          "cl.1.w", "cl.1.d.weight", "cl.1.d.bias"]
    assert paths(net) == ["p", "q"] + names(net)[2:]
    assert list(net.parameters_dict()) == names(net)
    assert list(net._params) == ["p", "q"] and list(net._cells) == ["sub", "cl"]
    assert [n for n, _ in net.cells_and_names()] == ["", "sub", "sub.d", "cl", "cl.0", "cl.1", "cl.1.d"]
    assert paths(net.sub) == ["w", "d.weight", "d.bias"]
    assert [n for n, _ in net.parameters_and_names(name_prefix="top")][:2] == ["top.p", "top.q"]
    assert paths(net)[:2] == ["p", "q"] and [n for n, _ in net.parameters_and_names(expand=False)] == ["p", "q"]


def test_auto_prefix_false_keeps_names_and_true_renames_everything():
    class Wrapper(nn.Cell):
        def __init__(self, inner, auto_prefix):
            super().__init__(auto_prefix=auto_prefix)
            self.net = inner

        def construct(self, x):
            return self.net(x)

    net = Net()
    before = names(net)
    wrapped = Wrapper(net, auto_prefix=False)
    assert names(wrapped) == before
    assert paths(wrapped)[:2] == ["net.p", "net.q"]
    Wrapper(net, auto_prefix=True)
    # MindSpore renames every Parameter below, user-chosen names included.
    assert names(net)[:3] == ["net.p", "net.q", "net.sub.w"]


def test_shared_cells_and_parameters_are_listed_once():
    class Shared(nn.Cell):
        def __init__(self):
            super().__init__()
            self.a = nn.Dense(2, 2)
            self.b = self.a

        def construct(self, x):
            return x

    net = Shared()
    assert names(net) == ["b.weight", "b.bias"]
    assert paths(net) == ["a.weight", "a.bias"]
    assert [n for n, _ in net.cells_and_names()] == ["", "a"]
    assert list(net.name_cells()) == ["a"] and len(list(net.cells())) == 1


def test_parameter_tuple_attribute_registers_its_parameters():
    class WithTuple(nn.Cell):
        def __init__(self):
            super().__init__()
            self.pt = ParameterTuple([Parameter(Tensor(np.ones(1, np.float32)), name="a.b"),
                                      Parameter(Tensor(np.ones(1, np.float32)), name="c")])
            self.plain = [Parameter(Tensor(np.ones(1, np.float32)))]

    net = WithTuple()
    assert list(net._params) == ["a.b", "c"] and names(net) == ["a.b", "c"]
    assert isinstance(net.pt, ParameterTuple) and isinstance(net.plain, list)


def test_setattr_rules_for_existing_names():
    dense = nn.Dense(2, 2)
    dense.weight = Tensor(np.zeros((2, 2), np.float32))
    assert isinstance(dense.weight, Parameter) and dense.weight.name == "weight"
    np.testing.assert_array_equal(dense.weight.asnumpy(), np.zeros((2, 2)))
    with pytest.raises(TypeError, match="Parameter 'weight' already exists"):
        dense.weight = 3
    seq = nn.SequentialCell(nn.ReLU())
    holder = nn.Cell()
    holder.seq = seq
    with pytest.raises(TypeError, match="Sub cell 'seq' already exists"):
        holder.seq = 3
    holder.seq = None
    assert holder._cells["seq"] is None and holder.seq is None
    holder.t = Tensor(np.ones(2, np.float32))
    assert "t" in holder.__dict__ and names(holder) == []
    holder.x = 1
    del holder.x
    del holder.seq
    assert "seq" not in holder._cells
    with pytest.raises(AttributeError):
        del holder.missing
    with pytest.raises(AttributeError, match="has no attribute 'foo'"):
        dense.foo


def test_assignment_before_super_init_teaches():
    class Bad(nn.Cell):
        def __init__(self):
            self.a = nn.Dense(1, 1)

    with pytest.raises(AttributeError, match=r"super\(\).__init__\(\)"):
        Bad()


def test_insert_child_to_cell_checks():
    cell = nn.Cell()
    for bad in ("a.b", ""):
        with pytest.raises(KeyError):
            cell.insert_child_to_cell(bad, nn.ReLU())
    with pytest.raises(TypeError, match="child_cell"):
        cell.insert_child_to_cell("zz", 3)
    cell.insert_child_to_cell("r", nn.ReLU())
    assert isinstance(cell.r, nn.ReLU)


def test_insert_param_to_cell_and_update_parameters_name():
    cell = nn.Cell()
    cell.insert_param_to_cell("w", Parameter(Tensor(np.ones(1, np.float32))))
    assert names(cell) == ["w"]
    with pytest.raises(KeyError):
        cell.insert_param_to_cell("a.b", Parameter(Tensor(np.ones(1, np.float32))))
    dense = nn.Dense(2, 2)
    dense.update_parameters_name("pre.")
    assert names(dense) == ["pre.weight", "pre.bias"]
    with pytest.raises(TypeError):
        dense.update_parameters_name(3)


def test_set_train_set_grad_phase_and_flags():
    net = Net()
    assert net.training is False and net.phase == "train" and net.requires_grad is False
    assert net.set_train() is net
    assert all(cell.training for _, cell in net.cells_and_names())
    net.set_train(False)
    assert net.phase == "predict" and not net.sub.d.training
    assert net.get_flags() == {"training": False}
    assert net.set_grad() is net and net.requires_grad and not net.sub.requires_grad
    assert nn.Cell(flags={"a": 1}).get_flags() == {"a": 1}
    cell = nn.Cell()
    cell.add_flags(b=2)
    assert cell.b == 2
    seq = nn.SequentialCell(nn.Dense(1, 1))
    seq.add_flags_recursive(z=1)
    assert seq[0].get_flags() == {"z": 1}
    assert net.cls_name == "Net" and net.param_prefix == ""


def test_to_float_casts_inputs_and_runs_layers_in_that_type():
    dense = nn.Dense(2, 2)
    assert dense.to_float(mstype.float16) is dense
    assert dense(ones(1, 2)).dtype == mstype.float16 and dense.weight.dtype == mstype.float32
    assert dense.get_flags() == {"fp16": True, "fp32": False, "bf16": False}
    with pytest.raises(ValueError, match="dst_type"):
        nn.Cell().to_float(mstype.int32)


def test_apply_visits_children_then_self():
    net = Net()
    seen = []
    assert net.apply(lambda cell: seen.append(type(cell).__name__)) is net
    assert seen[-1] == "Net" and seen.count("Dense") == 3


def test_missing_construct_and_set_inputs():
    with pytest.raises(AttributeError, match="construct"):
        nn.Cell()(1)
    cell = nn.Cell()
    marker = ones(1)
    assert cell.set_inputs(marker) is None  # as MindSpore 2.10's
    assert cell.get_inputs() == (marker,)


def test_dynamic_shape_inputs_attribute_that_grad_wrappers_read():
    # MindSpore's own grad helpers read cell._dynamic_shape_inputs (None until set_inputs).
    cell = nn.Cell()
    assert cell._dynamic_shape_inputs is None
    assert cell._get_compile_args((1, 2)) == (1, 2)
    marker = ones(1)
    cell.set_inputs(marker)
    assert cell._dynamic_shape_inputs == (marker,)
    assert cell._get_compile_args((1,)) == (marker,)


def test_repr_of_childless_and_nested_cells():
    assert repr(nn.Cell()) == "Cell()"
    dense = nn.Dense(3, 4, activation="relu")
    assert repr(dense) == ("Dense(\n  input_channels=3, output_channels=4, has_bias=True, activation=ReLU()\n"
                           "  (activation): ReLU()\n)")
    assert repr(nn.Dense(3, 4, has_bias=False)) == "Dense(input_channels=3, output_channels=4)"


def test_graph_mode_hands_the_call_to_the_compiler(monkeypatch):
    calls = []

    def call_compiled(cell, args, kwargs):
        calls.append(type(cell).__name__)
        return cell._construct_eager(*args, **kwargs)

    monkeypatch.setattr(sys.modules["sporax.nn.cell"], "call_compiled", call_compiled)
    net = nn.SequentialCell(nn.Dense(2, 2), nn.ReLU())
    x = ones(1, 2)
    eager = net(x).asnumpy()
    assert calls == []
    context.set_context(mode=context.GRAPH_MODE)
    try:
        np.testing.assert_array_equal(net(x).asnumpy(), eager)
    finally:
        context.set_context(mode=context.PYNATIVE_MODE)
    assert calls[0] == "SequentialCell"


def test_buffers_state_dict_and_load_state_dict():
    class WithBuffers(nn.Cell):
        def __init__(self):
            super().__init__()
            self.d = nn.Dense(2, 2)
            self.bn = nn.BatchNorm1d(2)
            self.register_buffer("buf", ones(2))
            self.register_buffer("tmp", ones(1), persistent=False)

    net = WithBuffers()
    state = net.state_dict()
    assert list(state) == ["buf", "d.weight", "d.bias", "bn.moving_mean", "bn.moving_variance", "bn.gamma",
                           "bn.beta"]
    assert [n for n, _ in net.named_buffers()] == ["buf", "tmp"] and len(list(net.buffers())) == 2
    assert names(net) == ["d.weight", "d.bias", "bn.moving_mean", "bn.moving_variance", "bn.gamma", "bn.beta"]
    assert type(net.buf) is Tensor
    threes = {key: Tensor(np.full(value.shape, 3, np.float32)) for key, value in state.items()}
    assert repr(net.load_state_dict(threes)) == "<All keys matched successfully>"
    np.testing.assert_array_equal(net.d.weight.asnumpy(), np.full((2, 2), 3))
    np.testing.assert_array_equal(net.buf.asnumpy(), [3, 3])
    with pytest.raises(RuntimeError, match='Missing key\\(s\\) in state_dict: "buf"'):
        net.load_state_dict({"d.weight": ones(2, 2)})
    result = net.load_state_dict({"d.weight": ones(2, 2), "extra": ones(1)}, strict=False)
    assert result.unexpected_keys == ["extra"] and "buf" in result.missing_keys
    net.buf = Tensor(np.zeros(2, np.float32))
    assert net.buf.asnumpy().sum() == 0
    with pytest.raises(TypeError):
        net.buf = 3
    with pytest.raises(TypeError):
        net.register_buffer("p", Parameter(ones(1)))
    net.set_comm_fusion(3)
    assert all(p.comm_fusion == 3 for p in net.get_parameters())


def test_calling_a_cell_whose_init_skipped_super_teaches():
    class Forgetful(nn.Cell):
        def __init__(self):
            self.size = 3

        def construct(self):
            return self.size

    with pytest.raises(AttributeError, match=r"super\(\).__init__\(\)"):
        Forgetful()()
