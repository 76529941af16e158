"""Augmented assignment on an input Tensor in compiled code (GRAPH_MODE construct, ``ms.jit``).

MindSpore 2.10's graph updates the Tensor object in place: the caller's Tensor holds the new value
after the call, cast to its dtype; PyNative rebinds the name only; an index assignment
(``x[0] = v``) leaves the caller's Tensor as it was. Every expected value below was printed by
MindSpore 2.10 (CPU) on the same code.
"""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn


@pytest.fixture
def graph_mode():
    """GRAPH_MODE for one test: the mode MindSpore printed the values below in."""
    previous = ms.get_context("mode")
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        yield
    finally:
        ms.set_context(mode=previous)


def _tensor(*values, dtype=np.float32):
    return Tensor(np.array(values, dtype))


class AddOne(nn.Cell):
    def construct(self, a):
        a += 1
        return a


class Chain(nn.Cell):
    def construct(self, a, b):
        a += b
        a -= 1
        a *= 2
        return a


class ReadThenUpdate(nn.Cell):
    def construct(self, a):
        copy = a * 1
        a += 1
        return a + copy


class UpdateUnused(nn.Cell):
    def construct(self, a):
        a += 1
        return a * 0


class Rebound(nn.Cell):
    def construct(self, a):
        a = a + 1
        a += 1
        return a


class AddFloat(nn.Cell):
    def construct(self, a):
        a += Tensor(np.array([0.5, 0.5], np.float32))
        return a


class Loop(nn.Cell):
    def construct(self, a, n):
        for _ in range(3):
            a += n
        return a


class MethodUpdate(nn.Cell):
    def construct(self, a):
        a.add_(1)
        return a


class IndexAssign(nn.Cell):
    def construct(self, a):
        a[0] = 5
        return a


class Inner(nn.Cell):
    def construct(self, x):
        x += 1
        return x * 2


class Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = Inner()

    def construct(self, x):
        y = x * 1
        z = self.inner(y)
        return y + z


@pytest.mark.parametrize("cell, inputs, output, after", [
    (AddOne(), [[1.0, 2.0]], [2.0, 3.0], [2.0, 3.0]),
    (ReadThenUpdate(), [[1.0, 2.0]], [3.0, 5.0], [2.0, 3.0]),
    (UpdateUnused(), [[1.0, 2.0]], [0.0, 0.0], [2.0, 3.0]),
    (Rebound(), [[1.0, 2.0]], [3.0, 4.0], [1.0, 2.0]),
    (MethodUpdate(), [[1.0, 2.0]], [2.0, 3.0], [2.0, 3.0]),
    (IndexAssign(), [[1.0, 2.0]], [5.0, 2.0], [1.0, 2.0]),
    (Outer(), [[1.0, 2.0]], [6.0, 9.0], [1.0, 2.0]),
])
def test_graph_mode_updates_the_callers_tensor_as_mindspore(graph_mode, cell, inputs, output, after):
    tensor = _tensor(*inputs[0])
    np.testing.assert_allclose(cell(tensor).asnumpy(), output)
    np.testing.assert_allclose(tensor.asnumpy(), after)


def test_chained_updates_and_a_second_call(graph_mode):
    a, b = _tensor(1.0, 2.0), _tensor(3.0, 4.0)
    np.testing.assert_allclose(Chain()(a, b).asnumpy(), [6.0, 10.0])
    np.testing.assert_allclose(a.asnumpy(), [6.0, 10.0])
    np.testing.assert_allclose(b.asnumpy(), [3.0, 4.0])
    cell = AddOne()
    tensor = _tensor(1.0, 2.0)
    cell(tensor)
    cell(tensor)  # the cached program writes back too
    np.testing.assert_allclose(tensor.asnumpy(), [3.0, 4.0])


def test_update_keeps_the_dtype_and_a_python_loop_updates(graph_mode):
    integers = _tensor(1, 2, dtype=np.int32)
    result = AddFloat()(integers)
    assert result.dtype == ms.int32 and integers.dtype == ms.int32
    np.testing.assert_array_equal(result.asnumpy(), [1, 2])
    tensor = _tensor(1.0, 2.0)
    np.testing.assert_allclose(Loop()(tensor, 2).asnumpy(), [7.0, 8.0])
    np.testing.assert_allclose(tensor.asnumpy(), [7.0, 8.0])


def test_pynative_rebinds_the_name_only():
    tensor = _tensor(1.0, 2.0)
    np.testing.assert_allclose(AddOne()(tensor).asnumpy(), [2.0, 3.0])
    np.testing.assert_allclose(tensor.asnumpy(), [1.0, 2.0])


def test_jit_function_updates_its_input():
    @ms.jit
    def add_one(a):
        a += 1
        return a

    tensor = _tensor(1.0, 2.0)
    np.testing.assert_allclose(add_one(tensor).asnumpy(), [2.0, 3.0])
    np.testing.assert_allclose(tensor.asnumpy(), [2.0, 3.0])


class SquareAfterAdd(nn.Cell):
    def construct(self, x):
        x.add_(1)
        return (x * x).sum()


class CopyDouble(nn.Cell):
    def construct(self, x):
        x.copy_(x * 2)
        return x.sum()


class MultiplyBy(nn.Cell):
    def construct(self, x, y):
        x.mul_(y)
        return (x * y).sum()


class IndexAssignSquare(nn.Cell):
    def construct(self, x):
        x[0] = 5.0
        return (x * x).sum()


def _jitted(cell):
    cell.construct = ms.jit(cell.construct)
    return cell


# (gradient, the input afterwards) printed by MindSpore 2.10 for x = [1, 2, 3], in GRAPH_MODE (plain and
# jitted construct) and in PyNative with a jitted construct: the graph's in-place update reaches the caller's
# Tensor under grad too, an index assignment does not.
_GRADIENTS = [
    (SquareAfterAdd, 29.0, [4.0, 6.0, 8.0], [2.0, 3.0, 4.0]),
    (CopyDouble, 12.0, [2.0, 2.0, 2.0], [2.0, 4.0, 6.0]),
    (IndexAssignSquare, 38.0, [0.0, 4.0, 6.0], [1.0, 2.0, 3.0]),
]


@pytest.mark.parametrize("mode", ["graph", "graph_jit", "pynative_jit"])
@pytest.mark.parametrize("cell_class, value, gradient, after", _GRADIENTS)
def test_gradient_of_an_in_place_update_updates_the_input_as_mindspore(mode, cell_class, value, gradient, after):
    previous = ms.get_context("mode")
    ms.set_context(mode=ms.PYNATIVE_MODE if mode == "pynative_jit" else ms.GRAPH_MODE)
    try:
        cell = cell_class() if mode == "graph" else _jitted(cell_class())
        tensor = _tensor(1.0, 2.0, 3.0)
        np.testing.assert_allclose(ms.grad(cell)(tensor).asnumpy(), gradient)
        np.testing.assert_allclose(tensor.asnumpy(), after)
        tensor = _tensor(1.0, 2.0, 3.0)
        loss, grads = ms.value_and_grad(cell)(tensor)
        assert float(loss) == value
        np.testing.assert_allclose(grads.asnumpy(), gradient)
        np.testing.assert_allclose(tensor.asnumpy(), after)
    finally:
        ms.set_context(mode=previous)


def test_gradient_of_in_place_updates_a_second_call_and_both_inputs(graph_mode):
    cell = SquareAfterAdd()
    tensor = _tensor(1.0, 2.0, 3.0)
    ms.grad(cell)(tensor)
    np.testing.assert_allclose(ms.grad(cell)(tensor).asnumpy(), [6.0, 8.0, 10.0])  # MindSpore 2.10's values
    np.testing.assert_allclose(tensor.asnumpy(), [3.0, 4.0, 5.0])
    x, y = _tensor(1.0, 2.0, 3.0), _tensor(1.0, 2.0, 3.0)
    dx, dy = ms.grad(MultiplyBy(), grad_position=(0, 1))(x, y)
    np.testing.assert_allclose(dx.asnumpy(), [1.0, 4.0, 9.0])
    np.testing.assert_allclose(dy.asnumpy(), [2.0, 8.0, 18.0])
    np.testing.assert_allclose(x.asnumpy(), [1.0, 4.0, 9.0])
    np.testing.assert_allclose(y.asnumpy(), [1.0, 2.0, 3.0])


def test_gradient_of_a_jitted_function_and_a_jitted_gradient_update_the_input():
    @ms.jit
    def square_after_add(x):
        x.add_(1)
        return (x * x).sum()

    tensor = _tensor(1.0, 2.0, 3.0)
    np.testing.assert_allclose(ms.grad(square_after_add)(tensor).asnumpy(), [4.0, 6.0, 8.0])
    np.testing.assert_allclose(tensor.asnumpy(), [2.0, 3.0, 4.0])
    tensor = _tensor(1.0, 2.0, 3.0)
    np.testing.assert_allclose(ms.jit(ms.grad(SquareAfterAdd()))(tensor).asnumpy(), [4.0, 6.0, 8.0])
    np.testing.assert_allclose(tensor.asnumpy(), [2.0, 3.0, 4.0])


def test_pynative_gradient_of_an_in_place_update_leaves_the_input():
    # A PyNative difference kept on purpose: sporax's eager gradient is the graph's (value 29, [4, 6, 8]), where
    # MindSpore 2.10's PyNative gives 14 and [2, 4, 6] (its autograd drops the in-place add); neither changes x.
    tensor = _tensor(1.0, 2.0, 3.0)
    loss, grads = ms.value_and_grad(SquareAfterAdd())(tensor)
    assert float(loss) == 29.0
    np.testing.assert_allclose(grads.asnumpy(), [4.0, 6.0, 8.0])
    np.testing.assert_allclose(tensor.asnumpy(), [1.0, 2.0, 3.0])


def test_graph_mode_keeps_an_added_zero_a_new_tensor(graph_mode):
    # A difference kept on purpose: MindSpore 2.10's graph folds `x + 0` into x itself, so `y.mul_(x)` there
    # also changes the caller's x to [1, 4, 9]; sporax keeps y a new Tensor (same loss and gradient).
    class MultiplyCopy(nn.Cell):
        def construct(self, x):
            y = x + 0
            y.mul_(x)
            return y.sum()

    tensor = _tensor(1.0, 2.0, 3.0)
    np.testing.assert_allclose(ms.grad(MultiplyCopy())(tensor).asnumpy(), [2.0, 4.0, 6.0])
    np.testing.assert_allclose(tensor.asnumpy(), [1.0, 2.0, 3.0])


class _FlagNets:
    """Nets of MindSpore's join rule (``sporax.state.scope.note_control_flow_join``): int32 x=5, y=1."""

    class LoopThenAdd(nn.Cell):
        def construct(self, x, y):
            while y < 3:
                y = y + 1
            x += 1
            return x

    class AddLoopAdd(nn.Cell):
        def construct(self, x, y):
            x += 1
            while y < 3:
                y = y + 1
            x += 1
            return x

    class LoopUpdatingX(nn.Cell):
        def construct(self, x, y):
            while y < 3:
                y = y + 1
                x += 1
            return x

    class PureIfThenAdd(nn.Cell):
        def construct(self, x, y):
            if y > 0:
                y = y + 1
            x += 1
            return x

    class WritingIfThenAdd(nn.Cell):
        def __init__(self):
            super().__init__()
            self.a = ms.Parameter(Tensor(5, ms.int32), name='a')

        def construct(self, x, y):
            if y > 0:
                self.a += 1
            x += 1
            return x

    class AddThenWritingIf(WritingIfThenAdd):
        def construct(self, x, y):
            x += 1
            if y > 0:
                self.a += 1
            return x


@pytest.mark.parametrize("net, result, caller", [
    (_FlagNets.LoopThenAdd, 6, 5), (_FlagNets.AddLoopAdd, 7, 7), (_FlagNets.LoopUpdatingX, 7, 5),
    (_FlagNets.PureIfThenAdd, 6, 6), (_FlagNets.WritingIfThenAdd, 6, 5), (_FlagNets.AddThenWritingIf, 6, 6)])
def test_update_after_a_compiled_join_reaches_the_caller_only_when_made_before(graph_mode, net, result, caller):
    # MindSpore 2.10 runs the code after a tensor-condition loop (or an `if` writing a Parameter) as another graph:
    # an input no `x += y` had updated before arrives there as a copy (tests/st/compiler/control/inner/test_330)
    x, y = Tensor(5, ms.int32), Tensor(1, ms.int32)
    assert int(net()(x, y)) == result
    assert int(x) == caller


def _branch_add(x, y):
    if y > 0:
        x += 1
    return x


def _add_then_branch_add(x, y):
    x += 10
    if y > 0:
        x += 1
    return x


def _add_then_branch_rebind(x, y):
    x += 10
    if y > 0:
        x = x + 1
    return x


def _add_then_if_else(x, y):
    x += 10
    if y > 0:
        x += 1
    else:
        x *= 2
    return x


def _add_then_branch_setitem(x, y):
    x += 10
    if y > 0:
        x[0] = 7
    return x


def _branch_add_then_add(x, y):
    if y > 0:
        x += 1
    x += 10
    return x


def _add_then_loop_add(x, y):
    x += 10
    while y < 3:
        x += 1
        y += 1
    return x


def _loop_add(x, y):
    while y < 3:
        x += 1
        y += 1
    return x


def _add_then_loop_rebind(x, y):
    x += 10
    while y < 3:
        x = x + 1
        y += 1
    return x


def _add_then_loop_setitem(x, y):
    x += 10
    while y < 3:
        x[0] = y[0]
        y += 1
    return x


def _add_then_for_rows(x, rows):
    x += 10
    for row in rows:
        x += row
    return x


@pytest.mark.parametrize("function, x, y, result, caller", [
    (_add_then_loop_add, [5.0], [1.0], [17.0], [17.0]), (_loop_add, [5.0], [1.0], [7.0], [5.0]),
    (_add_then_loop_rebind, [5.0], [1.0], [17.0], [15.0]),
    (_add_then_loop_setitem, [5.0, 6.0], [1.0], [2.0, 16.0], [2.0, 16.0]),
    (_add_then_for_rows, [5.0], [[1.0], [2.0]], [18.0], [18.0]),
    (_branch_add, [5.0], 1.0, [6.0], [5.0]), (_branch_add, [5.0], -1.0, [5.0], [5.0]),
    (_add_then_branch_add, [5.0], 1.0, [16.0], [16.0]), (_add_then_branch_add, [5.0], -1.0, [15.0], [15.0]),
    (_add_then_branch_rebind, [5.0], 1.0, [16.0], [15.0]), (_add_then_if_else, [5.0], -1.0, [30.0], [30.0]),
    (_add_then_branch_setitem, [5.0, 6.0], 1.0, [7.0, 16.0], [7.0, 16.0]),
    (_branch_add_then_add, [5.0], 1.0, [16.0], [5.0])])
def test_update_in_a_tensor_branch_or_loop_reaches_the_caller_only_when_made_before(function, x, y, result, caller):
    # MindSpore 2.10 (ms.jit, both modes): a tensor-condition branch or loop body gets an input as a copy, unless
    # an ``x += y`` had updated it before; its x += 1 (or x[0] = 7) then updates the caller's Tensor too
    x = _tensor(*x)
    np.testing.assert_array_equal(ms.jit(function)(x, Tensor(np.array(y, np.float32))).asnumpy(), result)
    np.testing.assert_array_equal(x.asnumpy(), caller)


class _AliasNets:
    """``out = self.a; out op= x`` on a Parameter in GRAPH_MODE (MindSpore 2.10 stores into the Parameter)."""

    class MulAlias(nn.Cell):
        def __init__(self):
            super().__init__()
            self.a = ms.Parameter(Tensor(5, ms.int32), name='a')

        def construct(self, x):
            out = self.a
            out *= x
            return out

    class AddThenAlias(MulAlias):
        def construct(self, x):
            self.a += x
            out = self.a
            out += 1
            return out, self.a

    class GradThroughAlias(nn.Cell):
        def __init__(self):
            super().__init__()
            self.a = ms.Parameter(Tensor(2.0, ms.float32), name='a')

        def construct(self, x):
            out = self.a
            out *= x
            return out * x


def test_augmented_assignment_on_a_parameter_alias_stores_into_it(graph_mode):
    net = _AliasNets.MulAlias()
    assert int(net(Tensor(3, ms.int32))) == 15 and int(net.a.value()) == 15
    net = _AliasNets.AddThenAlias()
    out, param = net(Tensor(3, ms.int32))
    assert (int(out), int(param), int(net.a.value())) == (9, 9, 9)
    net = _AliasNets.GradThroughAlias()
    (grad,) = ms.ops.GradOperation(get_all=True)(net)(Tensor(3.0, ms.float32))
    assert float(grad) == 12.0 and float(net.a.value()) == 6.0


def test_augmented_assignment_on_a_parameter_alias_in_pynative_leaves_it():
    # MindSpore 2.10 PyNative: a new Tensor, the Parameter keeps 5 (8 after `self.a += x`)
    net = _AliasNets.MulAlias()
    assert int(net(Tensor(3, ms.int32))) == 15 and int(net.a.value()) == 5
    net = _AliasNets.AddThenAlias()
    out, param = net(Tensor(3, ms.int32))
    assert (int(out), int(param), int(net.a.value())) == (9, 8, 8)


@ms.jit
def _power_in_place(x, y):
    x **= y
    return x


@ms.jit
def _matmul_in_place(x, y):
    x @= y
    return x


@ms.jit
def _bitwise_in_place(x, y):
    x &= y
    x |= y
    x ^= y
    return x


@ms.jit
def _power_with_alias(x, y):
    alias = x
    x **= y
    return alias, x


def test_power_matmul_and_bitwise_augmented_assignment_leave_the_callers_tensor():
    """``**= @= &= |= ^=`` rebind the name only under ``ms.jit`` (MindSpore 2.10 CPU printed these values);
    ``+= -= *= /= //= %=`` update the caller's Tensor (the tests above)."""
    x, y = Tensor(np.array([[5, 6], [7, 8]], np.float32)), Tensor(np.array([[1, 2], [3, 1]], np.float32))
    np.testing.assert_array_equal(_power_in_place(x, y).asnumpy(), [[5, 36], [343, 8]])
    np.testing.assert_array_equal(x.asnumpy(), [[5, 6], [7, 8]])
    np.testing.assert_array_equal(_matmul_in_place(x, y).asnumpy(), [[23, 16], [31, 22]])
    np.testing.assert_array_equal(x.asnumpy(), [[5, 6], [7, 8]])
    a, b = Tensor(np.array([[5, 6], [7, 8]], np.int32)), Tensor(np.array([[1, 2], [3, 1]], np.int32))
    np.testing.assert_array_equal(_bitwise_in_place(a, b).asnumpy(), [[0, 0], [0, 0]])
    np.testing.assert_array_equal(a.asnumpy(), [[5, 6], [7, 8]])
    alias, power = _power_with_alias(_tensor(2, 3), _tensor(2, 2))
    np.testing.assert_array_equal(alias.asnumpy(), [2, 3])
    np.testing.assert_array_equal(power.asnumpy(), [4, 9])


class _PowerIntoParameter(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(_tensor(2, 3), name="w")

    def construct(self, x):
        out = self.w
        out **= x
        return out


def test_power_augmented_assignment_leaves_the_parameter(graph_mode):
    """``out = self.w; out **= x`` returns the power; MindSpore 2.10 CPU left ``w`` at [2, 3]."""
    net = _PowerIntoParameter()
    np.testing.assert_array_equal(net(_tensor(2, 2)).asnumpy(), [4, 9])
    np.testing.assert_array_equal(net.w.asnumpy(), [2, 3])
