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
