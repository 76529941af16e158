"""Docs examples where MindSpore 2.10's CPU build does not do what its docs describe, and sporax does.

Each test pins sporax's behaviour (the documented one) and says what MindSpore 2.10 (CPU, /tmp/ms) printed for
the same code instead. sporax does not copy these: they are limits or faults of that build, not graph syntax.
"""
import numpy as np

import sporax as ms
from sporax import Tensor, grad, mint, nn, ops


class _AddInPlace(nn.Cell):
    def construct(self, x, y):
        x.add_(y)
        return x


def test_pynative_add_in_place_updates_the_input_differs_from_mindspore_cpu():
    """Docs (static graph syntax, in-place ops): ``x.add_(y)`` in a PyNative Cell updates ``x``; the docs'
    example prints ``pynative_out: 5``. MindSpore 2.10's CPU build leaves ``x`` at 2 (``add_``/``mul_``
    change nothing there, in a Cell or not), so it prints ``pynative_out: 2``. sporax updates the input."""
    x = Tensor(np.array(2, np.int32))
    out = _AddInPlace()(x, Tensor(np.array(3, np.int32)))
    assert out is x and int(x.asnumpy()) == 5
    assert int(grad(_AddInPlace())(Tensor(np.array(2, np.int32)), Tensor(np.array(3, np.int32))).asnumpy()) == 1


class _ViewAddInJit(nn.Cell):
    def construct(self, x):
        y = ops.abs(x)
        y_viewed = mint.select(y, 0, 0)
        y_viewed.add_(Tensor(-1, ms.float32))
        return y


def test_in_place_add_on_a_selected_row_in_jit_differs_from_mindspore_cpu():
    """Docs (view in-place in graph mode): the jitted gradient equals the PyNative one. MindSpore 2.10's CPU
    build refuses to compile it: RuntimeError 'Default/Assign-op1 is an inplace op and does not support view
    input...'. sporax compiles it (the added constant does not change the gradient: sign(x))."""
    x = Tensor(np.array([[0, 1], [2, 3]], np.float32))
    net = _ViewAddInJit()
    expected = grad(net)(x).asnumpy()
    net.construct = ms.jit(net.construct)
    np.testing.assert_array_equal(grad(net)(x).asnumpy(), expected)
    np.testing.assert_array_equal(expected, [[0, 1], [1, 1]])


class _DictOutput(nn.Cell):
    @ms.jit
    def construct(self, a):
        x = {'a': a, 'b': 2}
        return a, (x, (1, 2))


def test_gradient_through_a_returned_dict_differs_from_mindspore_cpu():
    """Docs (static graph syntax, dict outputs): the gradient of ``a`` returned bare and in a dict is 2.
    MindSpore 2.10's CPU build fails at run time: RuntimeError 'The pointer[host_tensor] is null.'."""
    out = grad(_DictOutput())(Tensor(np.array([1], np.int64)))
    np.testing.assert_array_equal(out.asnumpy(), [2])


def test_bool_list_index_assignment_in_jit_differs_from_mindspore_cpu():
    """Docs (Tensor index support): ``x[[True, False, False]] = Tensor([11, 12, 13])`` sets row 0 to
    [11, 12, 13], as PyNative does in both. MindSpore 2.10's graph (ms.jit, CPU) sets it to [11, 11, 11].
    sporax gives the documented row in compiled code too."""
    @ms.jit
    def assign_row(x, value):
        x = x.copy()
        x[[True, False, False]] = value
        return x

    x = Tensor(np.arange(9, dtype=np.float32).reshape(3, 3))
    out = assign_row(x, Tensor(np.array([11, 12, 13], np.float32)))
    np.testing.assert_array_equal(out.asnumpy(), [[11, 12, 13], [3, 4, 5], [6, 7, 8]])


def test_adding_two_bool_tensors_in_jit_differs_from_mindspore():
    """Docs (graph mode syntax, operators): with a Tensor operand, the two operands of ``+`` can't both be bool.
    MindSpore 2.10 refuses ``b + b`` and ``b + True`` in ms.jit (TypeError 'For primitive[Add], the input
    argument[x] must be a type of {Tensor[BFloat16], ...}, but got Tensor[Bool].') but computes them in
    PyNative (``[ True False  True]``, ``[ True  True  True]``). sporax gives PyNative's answer in both modes,
    so one function does not change meaning when it is compiled."""
    b = Tensor(np.array([True, False, True]))
    both = ms.jit(lambda x: (x + x, x + True))(b)
    assert [value.asnumpy().tolist() for value in both] == [[True, False, True], [True, True, True]]
    assert (b + b).asnumpy().tolist() == [True, False, True]


class _LazyBlock(nn.Cell):
    @ms.lazy_inline
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def construct(self, x):
        return x * self.scale + 1


class _LazyBlocks(nn.Cell):
    def __init__(self):
        super().__init__()
        self.blocks = nn.SequentialCell([_LazyBlock(2.0), _LazyBlock(3.0)])

    def construct(self, x):
        return self.blocks(x)


def test_lazy_inline_cells_in_graph_mode_differ_from_mindspore_cpu():
    """Docs (mindspore.lazy_inline's example, a ResNet block): GRAPH_MODE compiles Cells whose ``__init__`` is
    decorated. MindSpore 2.10's CPU build raises RuntimeError 'Input[0] must be a Primitive ValueNode, but get
    ValueNode<FuncGraph> ...Block_construct...' for the example and for this two-block net; sporax runs both
    (lazy_inline only shares compiled blocks), giving PyNative's values."""
    previous = ms.get_context("mode")
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        out = _LazyBlocks()(Tensor(np.array([1.0, 2.0], np.float32)))
    finally:
        ms.set_context(mode=previous)
    np.testing.assert_array_equal(out.asnumpy(), [10.0, 16.0])


def _sort_and_remove(x):
    ordered = [2, 1]
    ordered.sort()
    kept = [2, 1]
    kept.remove(1)
    return ordered, kept


def test_list_sort_and_remove_in_jit_differ_from_mindspore_cpu():
    """Graph syntax (list methods): ``l.sort()`` and ``l.remove(v)`` change the list. MindSpore 2.10's CPU jit
    returns both lists unchanged (``([2, 1], [2, 1])``, also through another name); sporax runs Python's methods
    in both modes."""
    x = Tensor(np.zeros(3, np.float32))
    assert _sort_and_remove(x) == ([1, 2], [2])
    assert ms.jit(_sort_and_remove)(x) == ([1, 2], [2])


def test_dividing_an_int_tensor_built_in_jit_gives_float32_unlike_mindspore_cpu():
    """An int32 Tensor built from a NumPy constant inside ``ms.jit`` and divided (``y / 2``, ``y / y``):
    MindSpore 2.10 CPU folds it as a constant with NumPy's rules and returns Float64 [2.5, 3.5]; the same
    Tensor passed in, or in PyNative, gives Float32, as its docs' type promotion says. sporax gives Float32
    in both places."""
    @ms.jit
    def halves(x):
        y = Tensor(np.array([5, 7], np.int32))
        return y / 2, y / y

    half, ones = halves(Tensor(np.ones(1, np.float32)))
    assert half.dtype == ms.float32 and half.asnumpy().tolist() == [2.5, 3.5]
    assert ones.dtype == ms.float32 and ones.asnumpy().tolist() == [1.0, 1.0]
