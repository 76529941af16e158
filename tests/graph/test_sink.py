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
