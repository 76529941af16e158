"""Float-status ops: the overflow flag of the values ``ops.depend`` ties to the status buffer."""
import numpy as np
import pytest

import sporax
from sporax import Parameter, ParameterTuple, Tensor, nn, ops
from sporax.ops import functional as F


class OverflowStep(nn.Cell):
    """The zoo's loss-scale pattern (GPT/MELGAN/Tacotron2 wrap cells): gradients, then the flag."""

    def __init__(self, network):
        super().__init__()
        self.network = network
        self.weights = ParameterTuple(network.trainable_params())
        self.grad = ops.GradOperation(get_by_list=True, sens_param=True)
        self.alloc_status = ops.NPUAllocFloatStatus()
        self.get_status = ops.NPUGetFloatStatus()
        self.clear_status = ops.NPUClearFloatStatus()
        self.reduce_sum = ops.ReduceSum(keep_dims=False)

    def construct(self, x, sens):
        loss = self.network(x)
        init = self.alloc_status()
        init = F.depend(init, loss)
        clear_status = self.clear_status(init)
        sens = F.depend(sens, clear_status)
        grads = self.grad(self.network, self.weights)(x, sens)
        init = F.depend(init, grads)
        get_status = self.get_status(init)
        init = F.depend(init, get_status)
        return loss, self.reduce_sum(init, (0,)) >= 1


@pytest.mark.parametrize("mode", [sporax.PYNATIVE_MODE, sporax.GRAPH_MODE])
def test_overflow_flag_follows_the_gradients(mode):
    sporax.set_context(mode=mode)
    try:
        net = nn.Dense(3, 1)
        step = OverflowStep(net)
        x = Tensor(np.ones((2, 3), np.float32))
        _, overflow = step(x, Tensor(np.ones((2, 1), np.float32)))
        assert not bool(overflow.asnumpy())
        _, overflow = step(x, Tensor(np.full((2, 1), np.inf, np.float32)))
        assert bool(overflow.asnumpy())
    finally:
        sporax.set_context(mode=sporax.PYNATIVE_MODE)


def test_clear_forgets_earlier_values():
    status = ops.NPUAllocFloatStatus()()
    assert status.shape == (8,) and not status.asnumpy().any()
    status = F.depend(status, Tensor(np.array([np.nan], np.float32)))
    ops.NPUClearFloatStatus()(status)
    status = F.depend(status, Tensor(np.array([1.0], np.float32)))
    assert not ops.NPUGetFloatStatus()(status).asnumpy().any()
    status = ops.Depend()(status, (Tensor(np.array([np.inf], np.float32)),))
    flags = ops.NPUGetFloatStatus()(status)
    assert flags.asnumpy()[0] == 1.0 and status.asnumpy()[0] == 1.0


def test_float_status_and_bad_input():
    assert ops.FloatStatus()(Tensor(np.array([1.0, np.inf], np.float32))).asnumpy().tolist() == [1.0]
    assert ops.FloatStatus()(Tensor(np.array([1.0, 2.0], np.float32))).asnumpy().tolist() == [0.0]
    with pytest.raises(TypeError, match="NPUGetFloatStatus"):
        ops.NPUGetFloatStatus()(Tensor(np.zeros(8, np.float32)))
