"""A Cell with a custom bprop whose construct draws random numbers (the tutorial page advanced/modules/layer's
Dropout2d over ops.Dropout2D): its gradient is the bprop's, from the same mask as the forward pass. sporax leaked
the RNG key out of the custom function (UnexpectedTracerError); MindSpore 2.10 runs it."""
import numpy as np

import sporax as ms
from sporax import Tensor, nn, ops


class Dropout2d(nn.Cell):
    def __init__(self, keep_prob):
        super().__init__()
        self.keep_prob = keep_prob
        self.dropout2d = ops.Dropout2D(keep_prob)

    def construct(self, x):
        return self.dropout2d(x)

    def bprop(self, x, out, dout):
        _, mask = out
        dy, _ = dout
        dy = dy * (1 / self.keep_prob)
        return ((mask.astype(ms.float32) * dy).astype(x.dtype),)


def test_bprop_of_a_random_construct_uses_the_forward_mask():
    cell = Dropout2d(0.5)
    inputs = Tensor(np.arange(1, 65, dtype=np.float32).reshape(2, 8, 2, 2))

    def loss(x):
        out, mask = cell(x)
        return (out * 3).sum(), out, mask

    gradient, (out, mask) = ms.grad(loss, has_aux=True)(inputs)
    gradient, out, mask = gradient.asnumpy(), out.asnumpy(), mask.asnumpy()
    # whole channels dropped or kept, scaled by 1/keep_prob in both passes
    np.testing.assert_allclose(out, inputs.asnumpy() * mask * 2)
    np.testing.assert_allclose(gradient, mask * 6.0)
    assert mask.reshape(16, 4).min(axis=1).tolist() == mask.reshape(16, 4).max(axis=1).tolist()
    masks = {cell(inputs)[1].asnumpy().tobytes() for _ in range(4)} | {mask.tobytes()}
    assert len(masks) > 1  # the RNG state advanced past the differentiated call
