"""``set_dump``: the dump marks of Cells and Primitives, set as MindSpore sets them."""
import pytest

import sporax as ms
from sporax import nn, ops


class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(2, 2)
        self.relu = ops.ReLU()
        self.add = ops.Add()
        self.add.add_prim_attr("dump", "false")

    def construct(self, x):
        return self.relu(self.add(self.dense(x), x))


def test_marks_cells_recursively_and_marked_primitives():
    net = _Net()
    with pytest.warns(UserWarning, match="only Ascend|Only Ascend"):
        ms.set_dump(net)
    assert net.dump is True and net.dense.dump is True
    assert net.add.attrs["dump"] == "true"
    assert "dump" not in net.relu.attrs  # as MindSpore: only Primitives that carry the attribute
    with pytest.warns(UserWarning):
        ms.set_dump(net.relu, False)
    assert net.relu.attrs["dump"] == "false"


@pytest.mark.parametrize("target, enabled, message", [(3, True, "Cell or Primitive"), (ops.ReLU(), 1, "must be bool")])
def test_bad_arguments(target, enabled, message):
    with pytest.raises(ValueError, match=message):
        ms.set_dump(target, enabled)
