"""KLDivLoss (ops.kl_div, ops.KLDivLoss, nn.KLDivLoss) differentiates its logits only: MindSpore 2.10's bprop
gives labels a zero gradient (values recorded from it). R-Drop's symmetric KL between two passes' outputs
trains through the log-probability side only, so a step with it moves the weights as MindSpore's does."""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn, ops

X = Tensor(np.random.RandomState(4).randn(2, 3).astype(np.float32))
T = np.abs(np.random.RandomState(5).randn(2, 3)).astype(np.float32)
T[0, 0] = 0.0
T = Tensor(T)
# MindSpore 2.10, reduction 'batchmean': d logits = -labels / batch; d labels = 0 (also where labels == 0).
LOGITS_GRAD = np.array([-0.0, -0.16543508, -1.21538556, -0.12604606, -0.05480492, -0.79124057], np.float32)


@pytest.mark.parametrize("loss", [lambda a, b: ops.kl_div(a, b, "batchmean"),
                                  lambda a, b: ops.KLDivLoss("batchmean")(a, b),
                                  lambda a, b: nn.KLDivLoss("batchmean")(a, b)], ids=["ops", "Primitive", "nn"])
def test_labels_take_no_gradient(loss):
    logits_grad, labels_grad = ms.grad(loss, (0, 1))(X, T)
    np.testing.assert_allclose(logits_grad.asnumpy().ravel(), LOGITS_GRAD, rtol=1e-5)
    np.testing.assert_array_equal(labels_grad.asnumpy(), np.zeros((2, 3), np.float32))


def test_symmetric_kl_step_matches_mindspore():
    # Loss of two SGD steps of a softmax/log_softmax symmetric KL, recorded from MindSpore 2.10.
    w = ms.Parameter(Tensor(np.random.RandomState(6).randn(3, 5).astype(np.float32)), name="w")
    x = Tensor(np.random.RandomState(7).randn(4, 3).astype(np.float32))
    kl = ops.KLDivLoss(reduction="sum")

    class SymmetricKL(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = w

        def construct(self, inputs):
            logits = ops.matmul(inputs, self.w)
            first, second = logits[0::2], logits[1::2]
            return kl(ops.log_softmax(first, -1), ops.softmax(second, -1)) + \
                kl(ops.log_softmax(second, -1), ops.softmax(first, -1))

    step = nn.TrainOneStepCell(SymmetricKL(), nn.SGD([w], 0.1))
    losses = [float(step(x).asnumpy()) for _ in range(3)]
    assert losses == pytest.approx([1.2429097, 1.1544890, 1.0764997], rel=1e-5)
