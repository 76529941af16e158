"""What keys a compiled program: a GRAPH_MODE Cell's own phase (``set_train`` on that Cell) and its arguments; a
jitted function's and a GRAPH_MODE gradient function's arguments. The Cells' ``training`` flags are read when a
program compiles, and a later change does not reach it; PyNative reads them at every call.

Expected values came from MindSpore 2.10 (CPU, /tmp/ms) running the same sequences (/tmp/zoo26/phase_probe.py,
jit_probe.py, grad_probe.py); the tests pin each GRAPH/PyNative difference.
"""
import numpy as np

import sporax as ms
from sporax import Tensor, nn

X2 = Tensor(np.ones(2, np.float32))
X3 = Tensor(np.ones(3, np.float32))


class _DoubledWhileTraining(nn.Cell):
    def construct(self, x):
        if self.training:
            x = x * 2
        return x.sum()


class _Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = _DoubledWhileTraining()

    def construct(self, x):
        return self.inner(x) + 1


def _value(tensor):
    return float(tensor.asnumpy())


def test_set_train_on_a_child_after_the_parent_compiled_keeps_its_graph_pynative_difference(each_mode):
    """EDCN's DenseLayer branches on ``self.training``: after ``outer(x)`` compiled with the child in inference,
    the child's ``set_train(True)`` leaves ``outer``'s graph (3.0; PyNative 5.0); a new input shape compiles anew."""
    outer = _Outer()
    values = [_value(outer(X2))]
    outer.inner.set_train(True)
    assert outer.inner.training and not outer.training
    values += [_value(outer(X2)), _value(outer(X3))]
    outer.set_train(True)  # the phase it compiled in ('train', a new Cell's): the same graph
    values.append(_value(outer(X2)))
    outer.inner.set_train(False)
    values.append(_value(outer(X2)))
    outer.set_train(False)
    values.append(_value(outer(X2)))
    outer.inner.set_train(True)
    values.append(_value(outer(X2)))
    outer.training = True  # an assigned flag is no phase
    values.append(_value(outer(X2)))
    expected = {"graph": [3.0, 3.0, 7.0, 3.0, 3.0, 3.0, 3.0, 3.0],
                "pynative": [3.0, 5.0, 7.0, 5.0, 3.0, 3.0, 5.0, 5.0]}
    assert values == expected[each_mode]


def test_a_flag_assigned_before_the_first_call_is_compiled_in_pynative_difference(each_mode):
    outer = _Outer()
    outer.inner.training = True
    values = [_value(outer(X2))]
    outer.inner.training = False
    values.append(_value(outer(X2)))
    assert values == {"graph": [5.0, 5.0], "pynative": [5.0, 3.0]}[each_mode]


def test_a_child_called_on_its_own_has_its_own_phase_pynative_difference(each_mode):
    child = _DoubledWhileTraining()
    outer = _Outer()
    outer.inner = child
    outer.set_train(True)
    values = [_value(outer(X2))]
    child.set_train(False)
    values += [_value(child(X2)), _value(outer(X2))]
    child.set_train(True)
    values += [_value(child(X2)), _value(outer(X2))]
    assert values == {"graph": [5.0, 2.0, 5.0, 4.0, 5.0], "pynative": [5.0, 2.0, 3.0, 4.0, 5.0]}[each_mode]


def test_set_train_sets_the_phase_of_that_cell_only():
    outer = _Outer()
    assert outer.phase == "train" and outer.inner.phase == "train" and not outer.training
    outer.set_train(False)
    assert outer.phase == "predict" and outer.inner.phase == "train"
    outer.inner.set_train(True)
    assert outer.phase == "predict" and outer.inner.phase == "train" and outer.inner.training


def test_a_jitted_function_keeps_the_flags_it_compiled_with(each_mode):
    # MindSpore's ms.jit, in both modes: 2.0 after set_train(True), where PyNative's plain call gives 4.0
    cell = _DoubledWhileTraining()

    @ms.jit
    def forward(x):
        return cell(x)

    values = [_value(forward(X2))]
    cell.set_train(True)
    values.append(_value(forward(X2)))
    cell.set_train(False)
    values.append(_value(forward(X2)))
    assert values == [2.0, 2.0, 2.0]


def test_a_kept_gradient_function_keeps_its_graph_pynative_difference(each_mode):
    cell = _DoubledWhileTraining()
    gradient = ms.grad(cell)
    first = gradient(X2).asnumpy().tolist()
    cell.set_train(True)
    assert first == [1.0, 1.0]
    assert gradient(X2).asnumpy().tolist() == {"graph": [1.0, 1.0], "pynative": [2.0, 2.0]}[each_mode]
    # jit of a gradient: a compiled function in both modes
    other = _DoubledWhileTraining()
    compiled = ms.jit(ms.grad(other))
    first = compiled(X2).asnumpy().tolist()
    other.set_train(True)
    assert first == compiled(X2).asnumpy().tolist() == [1.0, 1.0]


def test_a_gradient_asked_for_again_compiles_with_the_flags_of_its_first_call_pynative_difference(each_mode):
    graph = each_mode == "graph"
    outer = _Outer()
    assert _value(outer(X2)) == 3.0
    outer.inner.set_train(True)
    assert _value(outer(X2)) == (3.0 if graph else 5.0)
    assert ms.grad(outer)(X2).asnumpy().tolist() == [2.0, 2.0]
    outer.inner.set_train(False)
    assert ms.grad(outer)(X2).asnumpy().tolist() == [1.0, 1.0]
    gradient = ms.grad(outer)
    outer.inner.set_train(True)  # before its first call: that call compiles with the child training
    assert gradient(X2).asnumpy().tolist() == [2.0, 2.0]
    outer.inner.set_train(False)
    assert gradient(X2).asnumpy().tolist() == ([2.0, 2.0] if graph else [1.0, 1.0])
    with_value = ms.value_and_grad(outer)
    value, grads = with_value(X2)
    outer.inner.set_train(True)
    again, grads_again = with_value(X2)
    assert _value(value) == 3.0 and grads.asnumpy().tolist() == [1.0, 1.0]
    assert _value(again) == (3.0 if graph else 5.0)
    assert grads_again.asnumpy().tolist() == ([1.0, 1.0] if graph else [2.0, 2.0])
