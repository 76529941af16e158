"""The rewrite API: nodes of a construct (as MindSpore 2.10 names and types them), edits, the rebuilt network."""
import numpy as np
import pytest

import sporax as ms
from sporax import nn, ops
from sporax.graph.rewrite import Node, NodeType, ScopedValue, SymbolTree, ValueType


class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 3)
        self.relu = nn.ReLU()
        self.add = ops.Add()

    def construct(self, x, y=1):
        x = self.dense(x)
        z = x + y
        x = self.relu(z)
        x = ops.abs(x)
        x = self.add(x, z)
        return x


X = np.linspace(-1, 1, 8, dtype=np.float32).reshape(2, 4)


def test_nodes_as_mindspore_parses_them():
    tree = SymbolTree.create(_Net())
    rows = [(node.get_name(), node.get_node_type(), [str(t) for t in node.get_targets()],
             [str(a) for a in node.get_args()], [n.get_name() for n in node.get_inputs()],
             [n.get_name() for n in node.get_users()]) for node in tree.nodes()]
    # MindSpore 2.10 gives the same types, targets, args, inputs and users (it names the function
    # node 'abs_opt' and the output 'return_1').
    assert rows == [
        ("input_x", NodeType.Input, ["x"], [], [], ["dense"]),
        ("input_y", NodeType.Input, ["y"], [], [], ["binop_add"]),
        ("dense", NodeType.CallCell, ["x"], ["x"], ["input_x"], ["binop_add"]),
        ("binop_add", NodeType.MathOps, ["z"], ["x", "y"], ["dense", "input_y"], ["relu", "add"]),
        ("relu", NodeType.CallCell, ["x"], ["z"], ["binop_add"], ["abs"]),
        ("abs", NodeType.CallFunction, ["x"], ["x"], ["relu"], ["add"]),
        ("add", NodeType.CallPrimitive, ["x"], ["x", "z"], ["abs", "binop_add"], ["return"]),
        ("return", NodeType.Output, [], ["x"], ["add"], []),
    ]
    assert tree.get_node("dense").get_instance_type() is nn.Dense
    assert tree.get_node("abs").get_instance_type() is ops.abs
    assert [node.get_name() for node in tree.get_inputs()] == ["input_x", "input_y"]


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_insert_erase_and_rebuild(mode):
    net = _Net()
    tree = SymbolTree.create(net)
    sigmoid = Node.create_call_cell(nn.Sigmoid(), targets=["x"], args=[ScopedValue.create_naming_value("x")],
                                    name="sig")
    tree.insert(tree.after(tree.get_node("relu")), sigmoid)
    tree.erase("abs")
    assert "x = self.sig(x)" in tree.get_code() and "ops.abs" not in tree.get_code()
    ms.set_context(mode=mode)
    try:
        rebuilt = tree.get_network()
        out = rebuilt(ms.Tensor(X)).asnumpy()
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    weight, bias = net.dense.weight.asnumpy(), net.dense.bias.asnumpy()
    z = X @ weight.T + bias + 1
    expected = 1 / (1 + np.exp(-np.maximum(z, 0))) + z
    np.testing.assert_allclose(out, expected, rtol=1e-5)
    assert rebuilt.dense is net.dense and isinstance(rebuilt, _Net)
    assert not hasattr(net, "sig")  # the original network is untouched


def test_replace_rewire_and_output():
    tree = SymbolTree.create(_Net())
    function = Node.create_call_function(ops.neg, ["w"], [ScopedValue.create_naming_value("z")])
    tree.replace(tree.get_node("abs"), [function])
    tree.get_node("add").set_arg_by_node(0, tree.get_node("neg"))
    tree.set_output(0, "w")
    assert tree.get_node("add").get_inputs()[0].get_name() == "neg"
    net = tree.get_network()
    dense = net.dense(ms.Tensor(X)).asnumpy()
    np.testing.assert_allclose(net(ms.Tensor(X)).asnumpy(), -(dense + 1), rtol=1e-6)
    assert tree.unique_name("x") == "x_1" and tree.unique_name("fresh") == "fresh"


def test_scoped_values():
    assert str(ScopedValue.create_naming_value("conv", "self")) == "self.conv"
    assert str(ScopedValue.create_variable_value(3)) == "3"
    assert ScopedValue.create_variable_value((1, "a")).type == ValueType.TupleValue
    assert str(ScopedValue.create_variable_value(None)) == "None"
    assert ScopedValue.create_name_values(["a", "b"], ["self", ""]) == [
        ScopedValue.create_naming_value("a", "self"), ScopedValue.create_naming_value("b")]
    assert [(m.name, m.value) for m in NodeType][:3] == [("Unknown", 0), ("CallCell", 1), ("CallPrimitive", 2)]
    with pytest.raises(ValueError, match="Length of names"):
        ScopedValue.create_name_values(["a"], ["self", "self"])
    with pytest.raises(TypeError, match="'scope'"):
        ScopedValue.create_naming_value("a", 1)


def test_errors():
    with pytest.raises(TypeError, match="'network' should be 'Cell'"):
        SymbolTree.create(3)
    tree = SymbolTree.create(_Net())
    with pytest.raises(ValueError, match="no node named"):
        tree.erase("missing")
    with pytest.raises(ValueError, match="cannot be erased"):
        tree.erase("return")
    with pytest.raises(NotImplementedError, match="ControlFlow"):
        tree.flatten_static_if_control_flow()
