"""The sink loop: the scan program (accelerators) and the per-step loop (CPU) train identically."""
import numpy as np
import pytest

from sporax import Tensor, nn
from sporax.graph.sink import SinkLoop

RNG = np.random.default_rng(3)
X = RNG.standard_normal((6, 5, 4)).astype(np.float32)
Y = RNG.standard_normal((6, 5, 1)).astype(np.float32)


def train(per_step_backends):
    net = nn.Dense(4, 1, weight_init="ones", bias_init="zeros")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(net.trainable_params(), 0.05, 0.9))
    loop = SinkLoop(step)
    loop.PER_STEP_BACKENDS = per_step_backends
    losses = [float(loop([X[:3], Y[:3]]).asnumpy()), float(loop([X[3:], Y[3:]]).asnumpy())]
    return losses, net.weight.asnumpy(), int(step.optimizer.global_step.asnumpy()[0])


@pytest.mark.parametrize("backends", [("cpu",), ()], ids=["per-step", "scan"])
def test_sink_matches_step_by_step_training(backends):
    losses, weight, global_step = train(backends)
    net = nn.Dense(4, 1, weight_init="ones", bias_init="zeros")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(net.trainable_params(), 0.05, 0.9))
    reference = [float(step(Tensor(X[i]), Tensor(Y[i])).asnumpy()) for i in range(6)]
    np.testing.assert_allclose(losses, [reference[2], reference[5]], rtol=1e-5)
    np.testing.assert_allclose(weight, net.weight.asnumpy(), rtol=1e-5)
    assert global_step == 6


def test_sink_runs_untraceable_python_eagerly():
    """A step with a Python branch on a tensor falls back to eager execution inside the sink too."""

    class Branchy(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense = nn.Dense(4, 1, weight_init="ones", bias_init="zeros")

        def construct(self, x, y):
            out = self.dense(x)
            if out.sum() > 0:  # needs the value: not traceable
                return ((out - y) ** 2).mean()
            return ((out + y) ** 2).mean()

    import warnings

    loop = SinkLoop(Branchy())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        loss = loop([X[:2], Y[:2]])
    out = X[1] @ np.ones((4, 1), np.float32)
    expected = ((out - Y[1]) ** 2).mean() if out.sum() > 0 else ((out + Y[1]) ** 2).mean()
    np.testing.assert_allclose(float(loss.asnumpy()), expected, rtol=1e-5)
