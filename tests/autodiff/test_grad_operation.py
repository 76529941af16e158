"""ops.GradOperation variants (values recorded from MindSpore 2.10), stop_gradient, depend."""
import numpy as np
import pytest

import sporax as ms
from sporax import ops
from sporax.core.parameter import Parameter, ParameterTuple
from sporax.nn.cell import Cell
from tests.state.helpers import add, as_numpy, mul, tensor, total

x = tensor([1.0, 2.0])
y = tensor([3.0, 4.0])


class Net(Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(tensor([0.5, 2.0]), name="w")
        self.b = Parameter(tensor([1.0]), name="b")

    def construct(self, x, y):
        return add(total(mul(x, y, self.w)), total(self.b))


def _check(actual, expected):
    if isinstance(expected, tuple):
        assert isinstance(actual, tuple) and len(actual) == len(expected)
        for item, want in zip(actual, expected):
            _check(item, want)
    else:
        np.testing.assert_allclose(as_numpy(actual), np.asarray(expected, np.float32))


def test_default_is_first_input_gradient():
    _check(ops.GradOperation()(Net())(x, y), [1.5, 8.0])


def test_get_all():
    _check(ops.GradOperation(get_all=True)(Net())(x, y), ([1.5, 8.0], [0.5, 4.0]))


def test_get_all_single_input_is_a_tuple():
    _check(ops.GradOperation(get_all=True)(lambda a: mul(a, tensor(3.0)))(x), ([3.0, 3.0],))


@pytest.mark.parametrize("as_tuple", [False, True])
def test_get_by_list(as_tuple):
    net = Net()
    weights = ParameterTuple(net.trainable_params()) if as_tuple else net.trainable_params()
    _check(ops.GradOperation(get_by_list=True)(net, weights)(x, y), ([3.0, 8.0], [1.0]))


def test_get_by_list_with_a_lone_parameter_gives_one_tensor():
    # MindSpore 2.10: a Parameter (not a list/ParameterTuple) as weights gives its gradient as a Tensor
    net = Net()
    _check(ops.GradOperation(get_by_list=True)(net, net.w)(x, y), [3.0, 8.0])
    _check(ops.GradOperation(get_all=True, get_by_list=True)(net, net.w)(x, y), (([1.5, 8.0], [0.5, 4.0]), [3.0, 8.0]))


def test_get_all_and_get_by_list():
    net = Net()
    _check(ops.GradOperation(get_all=True, get_by_list=True)(net, net.trainable_params())(x, y),
           (([1.5, 8.0], [0.5, 4.0]), ([3.0, 8.0], [1.0])))


def test_sens_param():
    net = Net()
    _check(ops.GradOperation(sens_param=True)(net)(x, y, tensor(2.0)), [3.0, 16.0])
    _check(ops.GradOperation(get_by_list=True, sens_param=True)(net, net.trainable_params())(x, y, tensor(2.0)),
           ([6.0, 16.0], [2.0]))


def test_get_by_list_without_weights_takes_the_cells_in_pynative_and_none_in_graph_mode():
    # MindSpore 2.10: no weights -> PyNative differentiates the Cell's trainable Parameters, GRAPH_MODE none ()
    _check(ops.GradOperation(get_by_list=True)(Net())(x, y), ([3.0, 8.0], [1.0]))
    _check(ops.GradOperation(get_all=True, get_by_list=True)(Net())(x, y),
           (([1.5, 8.0], [0.5, 4.0]), ([3.0, 8.0], [1.0])))
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        assert ops.GradOperation(get_by_list=True)(Net())(x, y) == ()
        inputs, weights = ops.GradOperation(get_all=True, get_by_list=True)(Net())(x, y)
        _check(inputs, ([1.5, 8.0], [0.5, 4.0]))
        assert weights == ()
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_grad_function_is_reused_for_the_same_network():
    grad_op = ops.GradOperation(get_by_list=True)
    net = Net()
    weights = net.trainable_params()
    assert grad_op(net, weights) is grad_op(net, weights)


def test_stop_gradient_cuts_the_gradient():
    def fn(a):
        return add(mul(a, a), ops.stop_gradient(mul(a, a)))

    _check(ops.grad(fn)(x), [2.0, 4.0])
    _check(ops.grad(lambda a: add(mul(a, a), ops.StopGradient()(mul(a, a))))(x), [2.0, 4.0])


def test_depend_returns_its_value():
    assert ops.depend(x, y) is x
    assert ops.Depend()(x, y) is x


def test_hook_backward_sees_and_replaces_gradients(capsys):
    seen = []

    def double(gradients):
        seen.append(gradients)
        return (mul(gradients[0], tensor(2.0)),)

    hook = ops.HookBackward(double)

    def fn(a, b):
        return mul(hook(mul(a, b)), b)

    grads = ops.grad(fn, (0, 1))(tensor(1.0), tensor(2.0))
    _check(grads, (8.0, 6.0))  # recorded from MindSpore 2.10
    assert isinstance(seen[0], tuple) and len(seen[0]) == 1


def test_hook_backward_returning_none_keeps_the_gradient():
    hook = ops.HookBackward(lambda gradients: None)
    _check(ops.grad(lambda a: mul(hook(a), tensor(3.0)))(tensor(1.0)), 3.0)


def test_insert_gradient_of_transforms_the_gradient():
    from sporax.core.tensor import Tensor
    import jax.numpy as jnp

    clip = ops.InsertGradientOf(lambda d: Tensor._wrap(jnp.clip(d._value, -0.1, 0.1)))
    _check(ops.grad(lambda a: mul(clip(a), tensor(3.0)))(tensor(1.0)), 0.1)


class KeywordOnly(Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(tensor([2.0, 3.0]), name="w")

    def construct(self, *, a, b):
        return total(mul(a, b, self.w))


def test_keyword_inputs_are_numbered_after_the_positional_ones():
    # MindSpore 2.10: GradOperation()(net)(a=..., b=...) differentiates w.r.t. the first keyword input
    a, b = tensor([1.0, 2.0]), tensor([3.0, 5.0])
    _check(ops.GradOperation()(KeywordOnly())(a=a, b=b), [6.0, 15.0])
    net = KeywordOnly()
    _check(ops.GradOperation(get_by_list=True)(net, net.w)(a=a, b=b), [3.0, 10.0])


class PositionalAndKeywords(Cell):
    def construct(self, x, y, **kwargs):
        return x * y + kwargs["a"] * 2.0 + kwargs["b"] * 3.0


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_get_all_gives_keyword_tensor_gradients_after_the_positional_ones(mode):
    # MindSpore 2.10 (both modes): the keyword Tensors' gradients follow the positional ones in call order
    # (b before a here); an int or float input, positional or keyword, has none
    ms.set_context(mode=mode)
    grad_all = ops.GradOperation(get_all=True)(PositionalAndKeywords())
    _check(grad_all(tensor(5.0), 3, b=tensor(2.0), a=tensor(1.0)), (3.0, 3.0, 2.0))
    _check(grad_all(tensor(5.0), tensor(3.0), b=tensor(2.0), c=4, a=tensor(1.0)), (3.0, 5.0, 3.0, 2.0))
    _check(grad_all(tensor(5.0), tensor(3.0), a=1.0, b=tensor(2.0)), (3.0, 5.0, 3.0))
    ms.set_context(mode=ms.PYNATIVE_MODE)
