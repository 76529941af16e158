"""Compiled code that returns one of its inputs untouched gives back that object, as MindSpore 2.10's graph does.

Recorded on MindSpore 2.10 CPU (GRAPH_MODE Cells, ``ms.jit`` in both modes): ``return self.w`` gives the
Parameter itself (``out is net.w``, name and requires_grad kept, a later ``set_data`` seen), also with dead code
before it, a Python-constant ``if``, an alias or ``requires_grad=False``; ``return x`` gives the caller's Tensor.
A tuple/list/dict of it, ``ops.depend`` of it, a print, an ``ops.assign`` before it, or a branch on a tensor give a new Tensor.
"""
import numpy as np
import pytest

import sporax as ms
from sporax import Parameter, Tensor, nn, ops
from tests.graph.test_in_place_arguments import graph_mode  # noqa: F401 - the fixture


def _tensor(*values):
    return Tensor(np.array(values, np.float32))


class _Holder(nn.Cell):
    def __init__(self, body):
        super().__init__()
        self.w = Parameter(_tensor(1.0, 2.0), name="w")
        self.v = Parameter(_tensor(1.0, 2.0), name="v", requires_grad=False)
        self.body = body

    def construct(self, x):
        return self.body(self, x)


def _dead_code(self, x):
    y = x * 2  # noqa: F841 - dead code: MindSpore's graph drops it
    return self.w


def _constant_if(self, x):
    if True:
        return self.w
    return x


def _alias(self, x):
    z = self.w
    return z


def _tensor_if(self, x):
    if x.sum() > 100:
        x = x + 1
    return self.w


def _unrolled_for(self, x):
    for _ in range(3):
        pass
    return x


def _argument(self, x):
    return x


def _frozen(self, x):
    return self.v


def _depend_weight(self, x):
    return ops.depend(self.w, x)


def _depend_argument(self, x):
    return ops.depend(x, x + 1)


def _in_list(self, x):
    return [self.w]


def _in_dict(self, x):
    return {"a": self.w}


def _in_tuple(self, x):
    return (self.w,)


# body -> what MindSpore 2.10's GRAPH_MODE call returned: "w"/"v" the Parameter, "x" the argument, None a new Tensor
RECORDED = [
    (_dead_code, "w"),
    (_argument, "x"),
    (_constant_if, "w"),
    (_frozen, "v"),
    (_alias, "w"),
    (_in_list, None),
    (_in_dict, None),
    (_in_tuple, None),
    (_tensor_if, None),
    (_unrolled_for, "x"),
    (_depend_weight, None),
    (_depend_argument, None),
]


@pytest.mark.parametrize("body, expected", RECORDED)
def test_graph_construct_returns_the_input_object(graph_mode, body, expected):
    net = _Holder(body)
    x = _tensor(3.0, 4.0)
    out = net(x)
    if isinstance(out, (list, tuple)):
        out = out[0]
    if isinstance(out, dict):
        out = out["a"]
    objects = {"w": net.w, "v": net.v, "x": x}
    assert [name for name, value in objects.items() if value is out] == ([expected] if expected else [])
    assert type(out) is (Parameter if expected in ("w", "v") else Tensor)
    np.testing.assert_array_equal(out.asnumpy(), (objects[expected] if expected else out).asnumpy())


class _Weight(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(_tensor(1.0, 2.0), name="w")

    def construct(self):
        return self.w


def test_returned_parameter_is_the_cells_and_sees_later_updates(graph_mode):
    net = _Weight()
    out = net()
    assert out is net.w and out.name == "w" and out.requires_grad
    net.w.set_data(_tensor(5.0, 6.0))
    ops.assign(net.w, _tensor(7.0, 8.0))
    np.testing.assert_array_equal(out.asnumpy(), [7.0, 8.0])
    assert net() is out


class _AssignThenReturn(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(_tensor(1.0, 2.0), name="w2", requires_grad=False)

    def construct(self, x):
        ops.assign(self.w, x)
        return self.w


class _PrintThenReturn(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(_tensor(1.0, 2.0), name="w")

    def construct(self, x):
        print("in", x * 2)
        return self.w


@pytest.mark.parametrize("cell", [_AssignThenReturn, _PrintThenReturn])
def test_a_side_effect_before_the_return_gives_a_new_tensor(graph_mode, cell, capsys):
    net = cell()
    out = net(_tensor(3.0, 4.0))
    assert type(out) is Tensor and out is not net.w
    np.testing.assert_array_equal(out.asnumpy(), net.w.asnumpy())


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_jit_returns_its_argument_and_global_parameter(mode):
    previous = ms.get_context("mode")
    ms.set_context(mode=mode)
    try:
        g = Parameter(_tensor(1.0), name="g")
        x = _tensor(1.0)

        @ms.jit
        def identity(value):
            return value

        @ms.jit
        def global_weight(value):
            return g

        assert identity(x) is x and identity(g) is g and global_weight(x) is g
        assert type(identity(_tensor(1.0, 2.0) * 1)) is Tensor
    finally:
        ms.set_context(mode=previous)


@pytest.mark.parametrize("body, expected", [(_depend_weight, "w"), (_depend_argument, "x")])
def test_pynative_depend_gives_the_object_itself(body, expected):
    # MindSpore 2.10 PyNative: ops.depend(self.w, x) is net.w, ops.depend(x, x + 1) is x; in a graph a new Tensor.
    net = _Holder(body)
    x = _tensor(3.0, 4.0)
    assert body(net, x) is {"w": net.w, "x": x}[expected]
