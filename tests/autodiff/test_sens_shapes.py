"""GradOperation(sens_param=True) with a sensitivity whose shape is not the output's (MindSpore 2.10 recorded).

Model-zoo training cells seed a scalar loss with ``F.tuple_to_array((sens,))``, a one-element vector: MindSpore
takes that in both modes. GRAPH_MODE also takes any sensitivity of the output's size that differs only by 1-sized
axes (the output's last backward op reshapes it), where PyNative raises ValueError. Gradients recorded with
x = linspace(-1, 1, 8).reshape(4, 2), w = arange(1, 7).reshape(2, 3), sensitivity filled with 2.0.
"""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn, ops
from sporax.core.parameter import Parameter, ParameterTuple

# The weight gradient MindSpore 2.10 gives for every accepted sensitivity below (the full-shape seed's).
WEIGHT_GRADIENT = [[31.6735, 44.7347, 57.79590], [33.6327, 46.6939, 59.75510]]


class Squares(nn.Cell):
    def __init__(self, kind):
        super().__init__()
        self.w = Parameter(Tensor(np.arange(1, 7, dtype=np.float32).reshape(2, 3)), name="w")
        self.kind = kind

    def construct(self, x):
        y = ops.matmul(x, self.w)
        if self.kind == "scalar":
            return (y * y).sum()
        if self.kind == "vector":
            return (y * y).sum(1)
        return y * y


class WeightGradient(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.net = net
        self.weights = ParameterTuple(net.trainable_params())
        self.grad = ops.GradOperation(get_by_list=True, sens_param=True)

    def construct(self, x, sens):
        return self.grad(self.net, self.weights)(x, sens)


def weight_gradient(kind, sens_shape):
    x = Tensor(np.linspace(-1, 1, 8, dtype=np.float32).reshape(4, 2))
    return WeightGradient(Squares(kind))(x, Tensor(np.full(sens_shape, 2.0, np.float32)))[0].asnumpy()


@pytest.fixture(params=[ms.PYNATIVE_MODE, ms.GRAPH_MODE], ids=["pynative", "graph"])
def mode(request):
    ms.set_context(mode=request.param)
    yield request.param
    ms.set_context(mode=ms.PYNATIVE_MODE)


@pytest.mark.parametrize("kind, sens_shape", [("scalar", (1,)), ("scalar", (1, 1)), ("scalar", ()),
                                              ("vector", (4,)), ("matrix", (3,)), ("matrix", (4, 1))])
def test_one_element_or_broadcast_sensitivity_seeds_the_output(mode, kind, sens_shape):
    np.testing.assert_allclose(weight_gradient(kind, sens_shape), WEIGHT_GRADIENT, rtol=1e-5)


@pytest.mark.parametrize("kind, sens_shape", [("scalar", (2,)), ("matrix", (12,))])
def test_graph_refuses_a_sensitivity_that_does_not_fit(kind, sens_shape):
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        with pytest.raises(ValueError, match=r"sensitivity of shape .* does not fit the output of shape"):
            weight_gradient(kind, sens_shape)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


@pytest.mark.parametrize("kind, sens_shape", [("vector", (4, 1)), ("vector", (1, 4)), ("matrix", (1, 4, 3))])
def test_graph_reshapes_a_same_size_sensitivity_pynative_refuses_it(mode, kind, sens_shape):
    """PyNative/Graph difference: the same sensitivity seeds the output in GRAPH_MODE and raises in PyNative."""
    if mode == ms.GRAPH_MODE:
        np.testing.assert_allclose(weight_gradient(kind, sens_shape), WEIGHT_GRADIENT, rtol=1e-5)
    else:
        with pytest.raises(ValueError, match=r"does not fit the output of shape"):
            weight_gradient(kind, sens_shape)
