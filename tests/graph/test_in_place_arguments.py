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
