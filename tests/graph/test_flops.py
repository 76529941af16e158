"""``flops_collection``: FLOPs of the last compiled program per phase, from XLA's cost analysis."""
import numpy as np
import pytest

import sporax as ms
from sporax import nn


@pytest.fixture
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


def test_jit_matmul_flops_are_two_m_n_k():
    @ms.jit
    def product(a, b):
        return ms.ops.matmul(a, b)

    product(ms.Tensor(np.ones((8, 6), np.float32)), ms.Tensor(np.ones((6, 4), np.float32)))
    model, hardware, shard_model, shard_hardware, dynamic = ms.flops_collection("jit")
    assert model == 2 * 8 * 6 * 4 == shard_model
    assert hardware == shard_hardware >= model
    assert dynamic is False


def test_eval_and_train_phases(graph_mode):
    net = nn.Dense(10, 5)
    net.set_train(False)
    net(ms.Tensor(np.ones((32, 10), np.float32)))
    forward = ms.flops_collection("eval")[0]
    assert forward == 2 * 32 * 10 * 5 + 32 * 5  # matmul + bias
    assert ms.flops_collection("predict.1")[0] == forward

    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1))
    step.set_train()
    step(ms.Tensor(np.ones((32, 10), np.float32)), ms.Tensor(np.ones((32, 5), np.float32)))
    train = ms.flops_collection("train")[0]
    assert train > 3 * 2 * 32 * 10 * 5 - 2 * 32 * 10 * 5  # forward + two backward matmuls (dx skipped at the input)


def test_unknown_or_uncompiled_phase():
    with pytest.raises(ValueError, match="'phase'"):
        ms.flops_collection("training")
    from sporax.state import program_cache

    saved = program_cache._last_built.pop("eval", None)
    try:
        with pytest.raises(RuntimeError, match="no program has been compiled"):
            ms.flops_collection("eval")
    finally:
        if saved is not None:
            program_cache._last_built["eval"] = saved
