"""What a constexpr function receives, PyNative vs. while a graph is built (fixture recorded from
MindSpore 2.10 by tests/fixtures/graph/record_constexpr_args.py)."""
import json
import os

import pytest

from sporax import Tensor, context, jit, nn, ops
from sporax.graph import constexpr

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "graph", "constexpr_args.json")


def plain_function():
    return 0


class Plain:
    pass


@constexpr(check=False)
def kind(value):
    if isinstance(value, list):
        return "list:" + ",".join(type(item).__name__ for item in value)
    return "class" if isinstance(value, type) else type(value).__name__


@constexpr
def kind_checked(value):
    return type(value).__name__


def kinds(x):
    return (kind(plain_function), kind(3), kind("s"), kind(Plain), kind(Plain()), kind(nn.ReLU()), kind(len),
            kind([plain_function, 1]), kind(ops.add), kind(ops.ReLU()), kind_checked(plain_function))


def _expected(key):
    with open(FIXTURE) as handle:
        return json.load(handle)[key]


def test_pynative_passes_every_object_through():
    assert list(kinds(Tensor([1.0]))) == _expected("pynative")


def test_jit_passes_functions_and_cells_as_none_pynative_difference():
    assert list(jit(kinds)(Tensor([1.0]))) == _expected("jit")


def test_graph_mode_cell_passes_functions_as_none():
    class Net(nn.Cell):
        def construct(self, x):
            return x + 1, kinds(x)

    context.set_context(mode=context.GRAPH_MODE)
    try:
        value, result = Net()(Tensor([1.0]))
    finally:
        context.set_context(mode=context.PYNATIVE_MODE)
    assert list(result) == _expected("jit")
    assert value.asnumpy().tolist() == [2.0]


def test_pynative_grad_is_not_a_graph():
    from sporax import grad

    seen = []

    def loss(x):
        seen.append(kind(plain_function))
        return (x * x).sum()

    grad(loss)(Tensor([1.0, 2.0]))
    assert seen and set(seen) == {"function"}


@pytest.mark.parametrize("check", [True, False])
def test_constexpr_keeps_the_function_name(check):
    @constexpr(check=check)
    def named(value):
        return value

    assert named.__name__ == "named" and named(3) == 3
