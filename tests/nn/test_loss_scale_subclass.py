"""A user subclass of TrainOneStepWithLossScaleCell that writes its own construct with MindSpore's
helpers (start_overflow_check, grad, hyper_map, get_overflow_status, process_loss_scale), as the zoo's
Bert, Transformer and EcapaTDNN wrappers do. The update is checked against NumPy."""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn, ops

_grad_scale = ops.MultitypeFuncGraph("grad_scale")


@_grad_scale.register("Tensor", "Tensor")
def _tensor_grad_scale(scale, grad):
    return grad * ops.cast(ops.Reciprocal()(scale), ops.dtype(grad))


class UserLossScaleCell(nn.TrainOneStepWithLossScaleCell):
    def construct(self, *inputs):
        loss = self.network(*inputs)
        scaling_sens = self.scale_sense
        status, scaling_sens = self.start_overflow_check(loss, scaling_sens)
        scaling_sens_filled = ops.ones_like(loss) * ops.cast(scaling_sens, ops.dtype(loss))
        grads = self.grad(self.network, self.weights)(*inputs, scaling_sens_filled)
        grads = self.hyper_map(ops.partial(_grad_scale, scaling_sens), grads)
        grads = self.grad_reducer(grads)
        cond = self.get_overflow_status(status, grads)
        overflow = self.process_loss_scale(cond)
        if not overflow:
            loss = ops.depend(loss, self.optimizer(grads))
        return loss, cond, scaling_sens


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_user_construct_with_mindspore_helpers(mode):
    ms.set_context(mode=mode)
    try:
        dense = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
        net = nn.WithLossCell(dense, nn.MSELoss())
        cell = UserLossScaleCell(net, nn.SGD(net.trainable_params(), 0.1),
                                 nn.FixedLossScaleUpdateCell(loss_scale_value=1024.0))
        x = np.array([[1.0, 2.0], [3.0, -1.0]], np.float32)
        y = np.array([[1.0], [0.0]], np.float32)
        loss, overflow, scale = cell(Tensor(x), Tensor(y))
        residual = x @ np.ones((2, 1), np.float32) - y
        np.testing.assert_allclose(loss.asnumpy(), np.mean(residual ** 2), rtol=1e-6)
        assert not bool(overflow.asnumpy()) and float(scale.asnumpy()) == 1024.0
        grad_w = (2.0 / residual.size) * (residual.T @ x)
        np.testing.assert_allclose(dense.weight.asnumpy(), np.ones((1, 2)) - 0.1 * grad_w, rtol=1e-5)
        status, passed = cell.start_overflow_check(loss, scale)
        assert status.shape == (8,) and passed is scale
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
