"""Gradients with respect to a ``mutable`` int or float input.

MindSpore 2.10's GRAPH_MODE keeps such an input among the gradients with a zero of its Python type
(``0`` or ``0.0``); PyNative leaves it out, as any non-Tensor input. Expected values were recorded by
running these calls on MindSpore 2.10 (CPU).
"""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, mutable, nn, ops


class Mul(nn.Cell):
    def construct(self, x, y):
        return x * y


@pytest.fixture
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


def _same(got, expected):
    """``got`` equals ``expected`` in structure, Python types and values (Tensors compared as floats)."""
    if isinstance(expected, tuple):
        assert type(got) is tuple and len(got) == len(expected), (got, expected)
        for item, want in zip(got, expected):
            _same(item, want)
    elif isinstance(expected, Tensor):
        assert isinstance(got, Tensor) and np.allclose(got.asnumpy(), expected.asnumpy()), (got, expected)
    else:
        assert type(got) is type(expected) and got == expected, (got, expected)


def test_graph_mode_gives_a_mutable_scalar_a_zero_of_its_type(graph_mode):
    three = Tensor(3.0)
    _same(ops.grad(Mul())(mutable(2), three), 0)
    _same(ops.grad(Mul())(mutable(2.5), 4), 0.0)
    _same(ops.grad(Mul(), grad_position=(0, 1))(mutable(2), three), (0, Tensor(2.0)))
    _same(ops.grad(Mul(), grad_position=(0, 1))(mutable(2), mutable(3.0)), (0, 0.0))
    _same(ops.GradOperation(get_all=True)(Mul())(mutable(2), three), (0, Tensor(2.0)))
    _same(ops.value_and_grad(Mul())(mutable(2), three), (Tensor(6.0), 0))
    _same(ops.grad(Mul())(Tensor(3.0), mutable(2)), Tensor(2.0))
    # A plain (constant) number is no input of the graph: it has no gradient at all.
    _same(ops.grad(Mul())(2, three), ())
    _same(ops.grad(Mul(), grad_position=(0, 1))(2, three), Tensor(2.0))


def test_graph_mode_jit_construct_outer_grad_of_mutable_scalar(graph_mode):
    class Net(nn.Cell):
        @ms.jit
        def construct(self, x, y):
            return Tensor(2, ms.int32) * (x + y)

    _same(ops.grad(Net())(mutable(2), 4), 0)


def test_pynative_leaves_a_mutable_scalar_out():
    _same(ops.grad(Mul())(mutable(2), Tensor(3.0)), ())
    _same(ops.grad(Mul(), grad_position=(0, 1))(mutable(2), Tensor(3.0)), Tensor(2.0))
