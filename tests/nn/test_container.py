"""SequentialCell, CellList, CellDict: indexing, mutation, iteration and the Parameter names they give."""
from collections import OrderedDict

import numpy as np
import pytest

from sporax import nn
from sporax.core.tensor import Tensor


def names(cell):
    return [p.name for p in cell.get_parameters()]


def dense(n=2):
    return nn.Dense(n, n)


def test_cell_list_append_insert_extend_delete_and_set():
    cells = nn.CellList([dense()])
    cells.append(dense())
    assert names(cells) == ["0.weight", "0.bias", "1.weight", "1.bias"]
    cells.insert(0, nn.ReLU())
    assert len(cells) == 3 and [n for n, _ in cells.cells_and_names()] == ["", "0", "1", "2"]
    assert names(cells) == ["1.weight", "1.bias", "2.weight", "2.bias"]
    cells.extend([dense(1)])
    assert names(cells)[-2:] == ["3.weight", "3.bias"]
    head = cells[0:2]
    assert isinstance(head, nn.CellList) and len(head) == 2 and isinstance(head[0], nn.ReLU)
    assert cells[-1] is list(cells)[-1]
    del cells[0]
    assert names(cells) == ["0.weight", "0.bias", "1.weight", "1.bias", "2.weight", "2.bias"]
    cells[0] = dense(5)
    assert names(cells)[:2] == ["0.weight", "0.bias"] and cells[0].in_channels == 5
    cells += [nn.Tanh()]
    assert len(cells) == 4 and isinstance(cells[3], nn.Tanh)
    assert repr(nn.CellList()) == "CellList()"


def test_cell_list_errors():
    with pytest.raises(TypeError, match="CellList"):
        nn.CellList([1])
    with pytest.raises(TypeError, match="list"):
        nn.CellList(None)
    with pytest.raises(IndexError):
        nn.CellList([nn.ReLU()])[3]
    with pytest.raises(NotImplementedError, match="iterate"):
        nn.CellList([nn.ReLU()])(1)


def test_container_inside_a_network_keeps_its_prefix_when_it_grows():
    class Holder(nn.Cell):
        def __init__(self):
            super().__init__()
            self.cl = nn.CellList([dense()])
            self.sq = nn.SequentialCell([dense()])

    class Outer(nn.Cell):
        def __init__(self):
            super().__init__()
            self.h = Holder()

    holder = Holder()
    holder.cl.append(dense(3))
    holder.sq.append(dense(3))
    holder.cl.insert(0, dense(4))
    assert names(holder) == ["cl.0.weight", "cl.0.bias", "cl.1.weight", "cl.1.bias", "cl.2.weight", "cl.2.bias",
                             "sq.0.weight", "sq.0.bias", "sq.1.weight", "sq.1.bias"]
    outer = Outer()
    outer.h.cl.append(dense(3))
    assert names(outer)[:4] == ["h.cl.0.weight", "h.cl.0.bias", "h.cl.1.weight", "h.cl.1.bias"]


class _Stage(nn.Cell):
    def __init__(self):
        super().__init__()
        self.blocks = nn.CellList([dense(), dense()])


class _Stages(nn.Cell):
    """mindcv's SwinTransformer pattern: an empty CellList assigned first, then stages appended."""

    def __init__(self):
        super().__init__()
        self.stages = nn.CellList()
        for _ in range(3):
            self.stages.append(_Stage())


def test_appending_to_an_empty_cell_list_names_parameters_as_mindspore_does():
    # Recorded with MindSpore 2.10: the prefix of the second stage is read off the first stage's
    # '0.blocks.0.weight', where the key '0' occurs twice and nothing confirms the first, so the last
    # occurrence ('0.blocks.') wins. Checkpoints MindSpore writes for such networks carry these names.
    assert names(_Stages()) == [
        "0.blocks.0.weight", "0.blocks.0.bias", "0.blocks.1.weight", "0.blocks.1.bias",
        "0.blocks.1.blocks.0.weight", "0.blocks.1.blocks.0.bias", "0.blocks.1.blocks.1.weight",
        "0.blocks.1.blocks.1.bias", "0.blocks.2.blocks.0.weight", "0.blocks.2.blocks.0.bias",
        "0.blocks.2.blocks.1.weight", "0.blocks.2.blocks.1.bias"]


def test_sequential_cell_forms_and_forward():
    by_name = nn.SequentialCell(OrderedDict([("a", dense()), ("b", nn.ReLU())]))
    assert repr(by_name) == ("SequentialCell(\n  (a): Dense(input_channels=2, output_channels=2, has_bias=True)\n"
                             "  (b): ReLU()\n)")
    assert names(by_name) == ["a.weight", "a.bias"]
    assert isinstance(by_name[0], nn.Dense) and isinstance(by_name[-1], nn.ReLU)
    sliced = by_name[0:1]
    assert isinstance(sliced, nn.SequentialCell) and list(sliced._cells) == ["a"]
    by_name.append(nn.Dense(2, 4))
    assert list(by_name._cells) == ["a", "b", "2"] and names(by_name)[-2:] == ["2.weight", "2.bias"]
    listed = nn.SequentialCell([dense(), nn.ReLU(), dense()])
    assert len(listed) == 3 and names(listed) == ["0.weight", "0.bias", "2.weight", "2.bias"]
    del listed[0]
    assert list(listed._cells) == ["0", "1"] and names(listed) == ["1.weight", "1.bias"]
    listed[0] = nn.Tanh()
    assert isinstance(listed[0], nn.Tanh)
    chain = nn.SequentialCell(nn.ReLU(), nn.Tanh())
    x = Tensor(np.array([-1.0, 1.0], np.float32))
    np.testing.assert_allclose(chain(x).asnumpy(), np.tanh(np.maximum([-1.0, 1.0], 0)), rtol=1e-6)
    assert [type(c).__name__ for c in chain] == ["ReLU", "Tanh"]
    assert repr(nn.SequentialCell()) == "SequentialCell()"


def test_sequential_cell_errors():
    with pytest.raises(TypeError):
        nn.SequentialCell([1])
    chain = nn.SequentialCell(nn.ReLU(), nn.Tanh())
    with pytest.raises(IndexError, match=r"\[-2, 2\)"):
        chain[5]
    with pytest.raises(TypeError, match="int"):
        chain["a"]


def test_cell_dict():
    cells = nn.CellDict({"y": dense(), "x": nn.ReLU()})
    assert list(cells.keys()) == ["y", "x"] and len(cells) == 2 and "x" in cells
    assert repr(cells) == ("CellDict(\n  (y): Dense(input_channels=2, output_channels=2, has_bias=True)\n"
                           "  (x): ReLU()\n)")
    assert names(cells) == ["y.weight", "y.bias"]
    cells["z"] = nn.Dense(1, 1)
    assert names(cells) == ["y.weight", "y.bias", "z.weight", "z.bias"]
    cells.update({"b": nn.ReLU(), "a": nn.ReLU()})
    assert list(cells) == ["y", "x", "z", "b", "a"]
    popped = cells.pop("y")
    assert isinstance(popped, nn.Dense) and "y" not in cells
    assert [k for k, _ in cells.items()] == ["x", "z", "b", "a"] and len(list(cells.values())) == 4
    del cells["x"]
    cells.clear()
    assert len(cells) == 0
    with pytest.raises(TypeError):
        cells["bad"] = 3
    with pytest.raises(KeyError):
        cells["a.b"] = nn.ReLU()


def test_sequential_cell_cell_list_reads_and_reassigns_the_children():
    first, second, third = nn.Dense(2, 3), nn.ReLU(), nn.Dense(3, 1)
    network = nn.SequentialCell([first, second, third])
    assert network.cell_list == [first, second, third]
    x = Tensor(np.ones((1, 2), np.float32))
    expected = network(x).asnumpy()
    # Iterating it runs the network (mindcv's feature extractor does this).
    out = x
    for cell in network.cell_list:
        out = cell(out)
    np.testing.assert_allclose(out.asnumpy(), expected)
    # mindcv's auto mixed precision swaps entries of _cells, then reassigns cell_list: the swap stays.
    wrapper = nn.SequentialCell([second])
    network._cells["1"] = wrapper
    network.cell_list = list(network.cells())
    assert network.cell_list == [first, wrapper, third]
    np.testing.assert_allclose(network(x).asnumpy(), expected)
    # A different list becomes the children, renumbered, their Parameters renamed.
    network.cell_list = [third, first]
    assert list(network._cells) == ["0", "1"] and network[0] is third
    assert third.weight.name == "0.weight"
