"""ops.assign under differentiation has MindSpore's Assign gradient (sporax.state.assign.assign).

After ``ops.assign(p, value)``, reading ``p`` differentiates with respect to the Parameter
itself and not to what computed ``value``. Checked on MindSpore 2.10 (both modes): for
``assign(p, 3x + p); return p * x`` at x=5, p=2 it returns 85, d/dx = 17 (the new p), d/dp = 5.
"""
import numpy as np
import pytest

import sporax as ms
from sporax import Parameter, Tensor, nn, ops


class AssignThenRead(nn.Cell):
    def __init__(self):
        super().__init__()
        self.p = Parameter(Tensor(np.array([2.0], np.float32)), name="p")

    def construct(self, x):
        ops.assign(self.p, x * 3 + self.p)
        return self.p * x


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_reads_after_assign_differentiate_to_the_parameter_only(mode):
    ms.set_context(mode=mode)
    try:
        x = Tensor(np.array([5.0], np.float32))
        net = AssignThenRead()
        value, (grad_x, (grad_p,)) = ms.value_and_grad(net, 0, net.trainable_params())(x)
        np.testing.assert_allclose(value.asnumpy(), [85.0])
        np.testing.assert_allclose(grad_x.asnumpy(), [17.0])  # p after the assign, not 17 + 3 * 5
        np.testing.assert_allclose(grad_p.asnumpy(), [5.0])
        np.testing.assert_allclose(net.p.asnumpy(), [17.0])  # the store itself happened
        (grad_all,) = ops.GradOperation(get_all=True)(AssignThenRead())(x)
        np.testing.assert_allclose(grad_all.asnumpy(), [17.0])
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


class StoreThenRead(nn.Cell):
    def __init__(self):
        super().__init__()
        self.p = Parameter(Tensor(np.array([2.0], np.float32)), name="p")

    def construct(self, x):
        self.p = x * 3 + self.p  # an attribute store: MindSpore compiles it to an Assign
        return self.p * x


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_attribute_store_into_a_parameter_differentiates_as_assign(mode):
    # MindSpore 2.10, both modes: value 85, d/dx 17, d/dp 5, p afterwards 17 (sporax.state.assign.set_parameter)
    ms.set_context(mode=mode)
    try:
        x = Tensor(np.array([5.0], np.float32))
        net = StoreThenRead()
        value, (grad_x, (grad_p,)) = ms.value_and_grad(net, 0, net.trainable_params())(x)
        np.testing.assert_allclose(value.asnumpy(), [85.0])
        np.testing.assert_allclose(grad_x.asnumpy(), [17.0])
        np.testing.assert_allclose(grad_p.asnumpy(), [5.0])
        np.testing.assert_allclose(net.p.asnumpy(), [17.0])
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
