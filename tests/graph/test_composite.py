"""MultitypeFuncGraph, HyperMap, Map, partial: behaviour recorded from MindSpore 2.10."""
import numpy as np
import pytest

from sporax import ops
from tests.state.helpers import add, mul, tensor

overloaded = ops.MultitypeFuncGraph("overloaded")


@overloaded.register("Number", "Number")
def _numbers(x, y):
    return ("num", x + y)


@overloaded.register("Tensor", "Tensor")
def _tensors(x, y):
    return ("ten", add(x, y))


@overloaded.register("Tensor", "Number")
def _tensor_number(x, y):
    return ("tn", x)


square = ops.MultitypeFuncGraph("square")


@square.register("Tensor")
def _square(x):
    return mul(x, x)


def test_dispatch_on_types():
    assert overloaded(1, 2) == ("num", 3)
    kind, value = overloaded(tensor([1.0]), tensor([2.0]))
    assert kind == "ten" and value.asnumpy().tolist() == [3.0]
    assert overloaded(tensor([1.0]), 3)[0] == "tn"
    with pytest.raises(ValueError, match="cannot find fn match"):
        overloaded("a", "b")


def test_hypermap_recurses_and_map_does_not():
    result = ops.HyperMap()(square, [tensor([1.0, 2.0]), (tensor([3.0]),)])
    assert isinstance(result, tuple) and isinstance(result[1], tuple)
    np.testing.assert_allclose(result[0].asnumpy(), [1.0, 4.0])
    np.testing.assert_allclose(result[1][0].asnumpy(), [9.0])
    np.testing.assert_allclose(ops.HyperMap(square)((tensor([2.0]),))[0].asnumpy(), [4.0])
    np.testing.assert_allclose(ops.Map()(square, (tensor([2.0]),))[0].asnumpy(), [4.0])


def test_hypermap_with_partial_over_two_sequences():
    result = ops.HyperMap()(ops.partial(overloaded, tensor([1.0])), (tensor([2.0]), tensor([3.0])))
    assert [kind for kind, _ in result] == ["ten", "ten"]
    np.testing.assert_allclose([value.asnumpy()[0] for _, value in result], [3.0, 4.0])
    np.testing.assert_allclose(ops.Partial()(lambda a, b: add(a, b), tensor([5.0]))(tensor([1.0])).asnumpy(), [6.0])
