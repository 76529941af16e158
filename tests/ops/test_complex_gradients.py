"""Gradients of the products for complex inputs follow MindSpore's convention (``dout * conj(other)``).

Recorded from MindSpore 2.10: x = [[0.6+0.7j, 0.7+0.9j]], w = [[0.2+0.1j], [0.8+0.4j]], sens = [[-1.3-0.1j]],
``GradOperation(get_all=True, sens_param=True)`` of each product (``ops.dense`` takes ``w.T``).
"""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, ops
from sporax.ops.functional.complex_gradients import conjugate_gradient
from sporax.ops.operations import nn_ops

RECORDED_DX = [[-0.27 + 0.11j, -1.08 + 0.44j]]
RECORDED_DW = [[-0.85 + 0.85j], [-1.0 + 1.1j]]

PRODUCTS = {
    "matmul": lambda a, b: ops.matmul(a, b),
    "MatMul": lambda a, b: ops.MatMul()(a, b),
    "BatchMatMul": lambda a, b: ops.BatchMatMul()(a, b),
    "dense": lambda a, b: ops.dense(a, b.T),
    "Dense": lambda a, b: nn_ops.Dense()(a, b.T, Tensor(np.zeros(1, np.complex64))),
}


@pytest.mark.parametrize("name", sorted(PRODUCTS))
def test_complex_product_gradients_conjugate_the_other_operand(name):
    x = Tensor(np.array([[0.6 + 0.7j, 0.7 + 0.9j]], np.complex64))
    w = Tensor(np.array([[0.2 + 0.1j], [0.8 + 0.4j]], np.complex64))
    sens = Tensor(np.array([[-1.3 - 0.1j]], np.complex64))
    dx, dw = ops.GradOperation(get_all=True, sens_param=True)(PRODUCTS[name])(x, w, sens)
    np.testing.assert_allclose(dx.asnumpy(), np.array(RECORDED_DX, np.complex64), rtol=1e-5)
    np.testing.assert_allclose(dw.asnumpy(), np.array(RECORDED_DW, np.complex64), rtol=1e-5)


def test_real_products_keep_the_plain_function_and_forward_mode():
    x, w = jnp.ones((2, 3), jnp.float32), jnp.ones((3, 4), jnp.float32)
    assert conjugate_gradient(jnp.matmul)(x, w).shape == (2, 4)
    _, tangent = jax.jvp(conjugate_gradient(jnp.matmul), (x, w), (x, w))  # no custom VJP on real inputs
    np.testing.assert_allclose(np.asarray(tangent), np.full((2, 4), 6.0))
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        grad = ops.grad(lambda a: ops.matmul(a, Tensor(np.asarray(w))).sum())(Tensor(np.asarray(x)))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_allclose(grad.asnumpy(), np.full((2, 3), 4.0))
