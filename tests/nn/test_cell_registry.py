"""Cell.__setattr__ rules for an existing Parameter, as MindSpore 2.10 applies them."""
import numpy as np
import pytest

import sporax
from sporax import Parameter, Tensor, nn


class _CountingCell(nn.Cell):
    """Scales its input by 10 every second call, resetting its counter with `self.step = 0`
    (the pattern of mindcv's GradientAccumulation)."""

    def __init__(self):
        super().__init__()
        self.step = Parameter(Tensor(0, sporax.int32), name="step")

    def construct(self, x):
        self.step += 1
        if self.step >= 2:
            x = x * 10
            self.step = 0
        return x


def test_graph_mode_assigns_a_number_to_a_parameter():
    # MindSpore 2.10, GRAPH_MODE: outputs [1, 1], [10, 10], [1, 1]; step after each call 1, 0, 1.
    sporax.set_context(mode=sporax.GRAPH_MODE)
    try:
        cell = _CountingCell()
        seen = []
        for _ in range(3):
            out = cell(Tensor(np.ones(2, np.float32)))
            seen.append((out.asnumpy().tolist(), int(cell.step.asnumpy())))
        assert seen == [([1.0, 1.0], 1), ([10.0, 10.0], 0), ([1.0, 1.0], 1)]
        assert isinstance(cell.step, Parameter) and cell.step.dtype == sporax.int32
    finally:
        sporax.set_context(mode=sporax.PYNATIVE_MODE)


def test_outside_construct_a_number_cannot_replace_a_parameter():
    # MindSpore 2.10 raises this TypeError outside construct, and in PyNative construct too.
    cell = _CountingCell()
    with pytest.raises(TypeError, match="Parameter 'step' already exists in network, can not assign this type"):
        cell.step = 5


def test_number_assigned_to_parameter_in_construct_pynative_graph_parity():
    # The PyNative/GRAPH difference, as in MindSpore 2.10: GRAPH compiles `self.step = 0` into an assignment
    # (test above); PyNative runs construct as Python, where the same line raises the TypeError of plain code.
    cell = _CountingCell()
    assert cell(Tensor(np.ones(2, np.float32))).asnumpy().tolist() == [1.0, 1.0]
    with pytest.raises(TypeError, match="Parameter 'step' already exists in network, can not assign this type"):
        cell(Tensor(np.ones(2, np.float32)))


class _Holder(nn.Cell):
    def __init__(self, name, value):
        super().__init__()
        setattr(self, name, value)

    def helper(self):
        return 1


@pytest.mark.parametrize("name", ["cells", "helper"])
def test_a_cell_under_a_method_name_is_refused(name):
    # Recorded on MindSpore 2.10 CPU: a Cell under a name its class defines raises KeyError in __init__
    with pytest.raises(KeyError) as caught:
        _Holder(name, nn.ReLU())
    assert str(caught.value) == (f"\"For 'insert_child_to_cell', the {name} child cell already exists in the "
                                 "network.Cannot insert another child cell with the same name.\"")


def test_other_values_and_names_are_kept():
    # Recorded on MindSpore 2.10 CPU: an int under a method's name, a Cell under 'training' or a new name are set
    assert _Holder("cells", 3).cells == 3
    assert isinstance(_Holder("training", nn.ReLU()).training, nn.ReLU)
    assert isinstance(_Holder("bar", nn.ReLU()).bar, nn.ReLU)
