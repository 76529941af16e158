"""FusedWeightScaleApplyMomentum (MindSpore runs it on GPU only) against nn.Momentum's documented steps in NumPy,
eagerly and inside a compiled train step."""
import numpy as np
import pytest

import sporax as ms
from sporax import Parameter, Tensor, nn, ops


def _numpy_steps(weight, moment, gradients, weight_decay, scale, learning_rate, momentum):
    for gradient in gradients:
        moment = momentum * moment + (gradient * scale + weight_decay * weight)
        weight = weight - learning_rate * moment
    return weight, moment


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_fused_weight_scale_momentum_follows_nn_momentum(mode):
    rng = np.random.default_rng(0)
    start = rng.standard_normal((3, 2)).astype(np.float32)
    gradients = rng.standard_normal((3, 3, 2)).astype(np.float32)

    class Step(nn.Cell):
        def __init__(self):
            super().__init__()
            self.weight = Parameter(Tensor(start), name="weight")
            self.moment = Parameter(Tensor(np.zeros((3, 2), np.float32)), name="moment")
            self.update = ops.FusedWeightScaleApplyMomentum()

        def construct(self, gradient):
            return self.update(Tensor(0.01, ms.float32), Tensor(0.125, ms.float32), self.weight, self.moment,
                               Tensor(0.1, ms.float32), gradient, Tensor(0.9, ms.float32))

    step = Step()
    ms.set_context(mode=mode)
    try:
        for gradient in gradients:
            step(Tensor(gradient))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    weight, moment = _numpy_steps(start.astype(np.float64), 0.0, gradients, 0.01, 0.125, 0.1, 0.9)
    np.testing.assert_allclose(step.weight.asnumpy(), weight, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(step.moment.asnumpy(), moment, rtol=1e-5, atol=1e-6)
