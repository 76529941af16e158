"""``mindspore._no_grad`` in PyNative mode: results computed in the block are constants to the gradient.

Expected gradients are worked out by hand (the blocked product is a constant factor).
"""
import numpy as np
import pytest

import sporax as ms
from sporax import Parameter, Tensor, _no_grad, nn, ops


class Scaled(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor([3.0], ms.float32), name="w")

    def construct(self, x):
        y = self.w * x  # dy/dx = w
        with _no_grad():
            factor = y + self.w  # constant: y + w
        return factor * y


class Frozen(nn.Cell):
    @_no_grad()
    def construct(self, x):
        return x * x


class Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = Frozen()

    def construct(self, x):
        return x * 4 + self.inner(x)


def test_block_results_are_constants_to_the_gradient():
    x = 2.0
    grad = ops.grad(Scaled())(Tensor([x], ms.float32))
    # d/dx [(w x + w) * w x] with the first factor frozen: (w x + w) * w
    np.testing.assert_allclose(grad.asnumpy(), [(3 * x + 3) * 3], rtol=1e-6)


def test_decorated_construct_gives_no_gradient():
    grad = ops.grad(Outer())(Tensor([5.0], ms.float32))
    np.testing.assert_allclose(grad.asnumpy(), [4.0], rtol=1e-6)


def test_values_are_unchanged_inside_the_block():
    with _no_grad():
        out = Frozen()(Tensor([1.5], ms.float32))
    np.testing.assert_allclose(out.asnumpy(), [2.25])


def test_gradient_inside_the_block_is_a_runtime_error():
    with _no_grad():
        with pytest.raises(RuntimeError, match="In no_grad context, you can not calculate gradient"):
            ops.grad(Frozen())(Tensor([1.0], ms.float32))
    # the block is over: gradients work again
    np.testing.assert_allclose(ops.grad(lambda x: x * x)(Tensor([1.0], ms.float32)).asnumpy(), [2.0])
