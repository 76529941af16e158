"""Gradients with respect to a ``mutable`` tuple or list of Tensors (values recorded from MindSpore 2.10 by
tests/fixtures/autodiff/record_mutable_sequence_grads.py).

GRAPH_MODE differentiates the sequence element by element (its gradient is a tuple, or a list, of the
elements' gradients); PyNative, as MindSpore's, gives it no gradient.
"""
import json
import os

import numpy as np
import pytest

import sporax as ms
from sporax import ParameterTuple, Tensor, context, mutable, nn, ops

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "autodiff", "mutable_sequence_grads.json")


def encode(value):
    if isinstance(value, Tensor):
        return {"tensor": value.asnumpy().tolist()}
    if isinstance(value, list):
        return {"list": [encode(item) for item in value]}
    assert type(value) is tuple, f"a gradient structure holds Tensors, tuples and lists, not {type(value).__name__}"
    return {"tuple": [encode(item) for item in value]}


class Product(nn.Cell):
    def construct(self, z):
        return z[0] * z[0] * z[1]


class GradAll(nn.Cell):
    def __init__(self, net, sens_param=False):
        super().__init__()
        self.net = net
        self.grad_op = ops.GradOperation(get_all=True, sens_param=sens_param)

    def construct(self, *inputs):
        return self.grad_op(self.net)(*inputs)


class Weighted(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(Tensor(np.array([2.0, -1.0], np.float32)), name="w")

    def construct(self, z, s):
        return (z[0] * z[1] * self.w).sum() * s


def cases():
    x = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32))
    y = Tensor(np.array([[0.5, 1.5], [2.0, 3.0]], np.float32))
    sens = Tensor(np.full((2, 2), 2.0, np.float32))
    weighted = Weighted()
    by_list = ops.GradOperation(get_all=True, get_by_list=True)(weighted, ParameterTuple(weighted.trainable_params()))
    a, b = Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([3.0, 4.0], np.float32))
    return {
        "get_all_in_cell": lambda: GradAll(Product())(mutable((x, y))),
        "get_all": lambda: ops.GradOperation(get_all=True)(Product())(mutable((x, y))),
        "first_input": lambda: ops.GradOperation()(Product())(mutable((x, y))),
        "grad_position_0": lambda: ms.grad(Product(), grad_position=0)(mutable((x, y))),
        "sens": lambda: GradAll(Product(), sens_param=True)(mutable((x, y)), sens),
        "list": lambda: GradAll(Product())(mutable([x, y])),
        "plain_tuple": lambda: ops.GradOperation(get_all=True)(Product())((x, y)),
        "get_by_list": lambda: by_list(mutable((a, b)), Tensor(np.array(3.0, np.float32))),
    }


@pytest.mark.parametrize("mode", ["graph", "pynative"])
def test_mutable_sequence_gradients_pynative_graph_parity(mode):
    with open(FIXTURE) as handle:
        expected = json.load(handle)[mode]
    context.set_context(mode=context.GRAPH_MODE if mode == "graph" else context.PYNATIVE_MODE)
    try:
        for name, run in cases().items():
            assert encode(run()) == expected[name], f"{mode}: {name}"
    finally:
        context.set_context(mode=context.PYNATIVE_MODE)
