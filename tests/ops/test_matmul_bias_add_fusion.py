"""``P.MatMul`` then ``P.BiasAdd`` on Float16 operands: MindSpore 2.10's graph compiler fuses the two into one
kernel that adds the bias to the Float32 product and rounds once; PyNative rounds the product, then the sum
(recorded on CPU: a 5x16 input, a 8x16 weight with transpose_b, a bias of 8; GRAPH agreed with the once-rounded
value everywhere, PyNative with the twice-rounded one; ``product * 1`` in between is simplified away and still
fuses in GRAPH, a ReLU in between does not). The custom Float16 DenseLayers of the model zoo's
NCF, Wide&Deep and DeepFM compute their layers this way. Named PyNative/Graph difference."""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, ops
from sporax.nn import Cell


class ProductThenBias(Cell):
    def __init__(self):
        super().__init__()
        self.matmul = ops.MatMul(transpose_b=True)
        self.bias_add = ops.BiasAdd()

    def construct(self, x, weight, bias):
        product = self.matmul(x, weight)
        return self.bias_add(product, bias), self.bias_add(ops.relu(product), bias)


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_float16_matmul_bias_add_rounds_once_in_graph_mode_pynative_difference(mode):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((5, 16)).astype(np.float16)
    weight = rng.standard_normal((8, 16)).astype(np.float16)
    bias = rng.standard_normal(8).astype(np.float16)
    product = x.astype(np.float32) @ weight.astype(np.float32).T
    once = (product + bias.astype(np.float32)).astype(np.float16)
    twice = product.astype(np.float16) + bias
    assert (once != twice).mean() > 0.2
    ms.set_context(mode=mode)
    try:
        fused, after_relu = ProductThenBias()(Tensor(x), Tensor(weight), Tensor(bias))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_array_equal(fused.asnumpy(), once if mode == ms.GRAPH_MODE else twice)
    # A ReLU between the two: nothing to fuse, the product is rounded first in both modes (recorded too).
    np.testing.assert_array_equal(after_relu.asnumpy(), np.maximum(product.astype(np.float16), 0) + bias)
