"""Duplicate Parameter names are replaced by attribute paths on a Cell's first call, as MindSpore 2.10 does
(names recorded in tests/fixtures/proxy/proxy.json by record_proxy.py)."""
import json
import os

import numpy as np
import pytest

import sporax as ms
from sporax import Parameter, Tensor, nn, ops

FIXTURE = json.load(open(os.path.join(os.path.dirname(__file__), "..", "fixtures", "proxy",
                                      "proxy.json")))["duplicate_names"]


class TwoLists(nn.Cell):
    def __init__(self):
        super().__init__()
        self.cell_list1 = nn.CellList()
        self.cell_list2 = nn.CellList()
        self.cell_list1.append(nn.Dense(2, 2, weight_init="ones", bias_init="zeros"))
        self.cell_list2.append(nn.Dense(2, 2, weight_init="ones", bias_init="zeros"))
        self.w = Parameter(Tensor(np.ones(2, np.float32)), name="custom_w")

    def construct(self, x):
        return self.cell_list1[0](x) + self.cell_list2[0](x) * self.w


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_first_call_renames_duplicates_to_paths(mode):
    expected = FIXTURE[str(mode)]
    previous = ms.get_context("mode")
    ms.set_context(mode=mode)
    try:
        net = TwoLists()
        assert [p.name for p in net.trainable_params()] == expected["before"]
        net.cell_list1[0](ops.ones((2, 2), ms.float32))  # the child alone has no duplicates
        assert [p.name for p in net.trainable_params()] == expected["after_child_call"]
        out = net(ops.ones((2, 2), ms.float32))
        assert [p.name for p in net.trainable_params()] == expected["after_call"]
        np.testing.assert_allclose(out.asnumpy(), expected["output"])
        np.testing.assert_allclose(net(ops.ones((2, 2), ms.float32)).asnumpy(), expected["output"])
    finally:
        ms.set_context(mode=previous)


def test_unique_names_are_kept():
    net = nn.SequentialCell([nn.Dense(2, 2)])
    net.trainable_params()[0].name = "my_weight"
    net(ops.ones((1, 2), ms.float32))
    assert net.trainable_params()[0].name == "my_weight"


class PlainListNet(nn.Cell):
    """Cells in a plain list (DeepSpeech2 keeps its LSTMs so): MindSpore 2.10 registers none of them."""

    def __init__(self, layers):
        super().__init__()
        self.layers = [nn.Dense(2, 2, weight_init="ones", bias_init="zeros") for _ in range(layers - 1)]
        self.layers.append(nn.Dense(2, 1, weight_init="ones", bias_init="zeros"))

    def construct(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def test_cells_in_a_plain_list_are_not_registered_and_collide_in_graph_mode():
    # MindSpore 2.10 (CPU): no Parameters or Cells registered; PyNative runs the list; GRAPH_MODE refuses the
    # layers' equal bare names ('weight', RuntimeError) and so does an optimizer over them (ValueError), while one
    # unregistered layer compiles.
    x = Tensor(np.array([[1.0, 2.0]], np.float32))
    net = PlainListNet(2)
    assert net.trainable_params() == [] and [name for name, _ in net.cells_and_names()] == [""]
    np.testing.assert_array_equal(net(x).asnumpy(), [[6.0]])
    layer_parameters = [p for layer in net.layers for p in layer.trainable_params()]
    with pytest.raises(ValueError, match="its name 'weight' already exists. Please set a unique name"):
        nn.SGD(layer_parameters, 0.1)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        with pytest.raises(RuntimeError, match="its name 'weight' already exists"):
            net(x)
        np.testing.assert_array_equal(PlainListNet(1)(x).asnumpy(), [[3.0]])
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
