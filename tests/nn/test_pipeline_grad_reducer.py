"""nn.PipelineGradReducer against MindSpore 2.10's numbers in a single-stage run (both modes), and in a
jit train step with PipelineCell."""
import json
import os

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn
from sporax.core import context

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "nn", "pipeline_grad_reducer.json")
RECORDS = json.load(open(FIXTURE))


@pytest.fixture(autouse=True)
def _reset():
    yield
    context.reset_auto_parallel_context()
    ms.set_context(mode=ms.PYNATIVE_MODE)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
@pytest.mark.parametrize("record", RECORDS, ids=lambda r: f"scale{r['scale_sense']}-opt_shard{r['opt_shard']}"
                         f"-parallel_optimizer{r['parallel_optimizer']}")
def test_pipeline_grad_reducer_matches_mindspore(mode, record):
    ms.set_context(mode=mode)
    context.set_auto_parallel_context(enable_parallel_optimizer=record["parallel_optimizer"])
    net = nn.Dense(3, 2)
    reducer = nn.PipelineGradReducer(ms.ParameterTuple(net.trainable_params()), scale_sense=record["scale_sense"],
                                     opt_shard=record["opt_shard"])
    assert bool(reducer.opt_shard) is record["reducer_opt_shard"]
    got = [[p.name, str(p.dtype).split(".")[-1], p.asnumpy().tolist(), p.requires_grad]
           for p in reducer.get_parameters()]
    assert [[name, dtype.lower(), value, flag] for name, dtype, value, flag in record["parameters"]] == \
        [[name, dtype.lower(), value, flag] for name, dtype, value, flag in got]
    accumulated = [np.arange(6, dtype=np.float32).reshape(2, 3) + 1, np.array([5.0, -7.0], np.float32)]
    for accu, value in zip(reducer.accu_grads, accumulated):
        accu.set_data(Tensor(value))
    grads = (Tensor(np.full((2, 3), 3.0, np.float32)), Tensor(np.array([1.0, -2.0], np.float32)))
    for call in record["calls"]:
        out = reducer(grads)
        for (dtype, expected), value in zip(call["out"], out):
            assert str(value.dtype).split(".")[-1].lower() == dtype.lower()
            np.testing.assert_array_equal(value.asnumpy(), np.array(expected, np.float32))
        for expected, accu in zip(call["accu_after"], reducer.accu_grads):
            np.testing.assert_array_equal(accu.asnumpy(), expected)
            np.testing.assert_array_equal(np.signbit(accu.asnumpy()), np.signbit(np.array(expected)))  # -0.0


def test_pipeline_grad_reducer_needs_a_parameter_tuple_as_mindspore():
    with pytest.raises(AttributeError, match="clone"):
        nn.PipelineGradReducer(nn.Dense(3, 2).trainable_params())  # a list: MindSpore fails the same way


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_sharded_optimizer_train_step_with_pipeline_cell_divides_the_micro_batch_sum_by_the_scale(mode):
    ms.set_context(mode=mode)
    ms.set_seed(3)
    net = nn.Dense(4, 2)
    start = [p.asnumpy().copy() for p in net.trainable_params()]
    loss_net = nn.PipelineCell(nn.WithLossCell(net, nn.MSELoss(reduction="sum")), 2)
    optimizer = nn.SGD(net.trainable_params(), 0.1)
    reducer = nn.PipelineGradReducer(optimizer.parameters, scale_sense=4.0, opt_shard=True)
    grad_fn = ms.value_and_grad(lambda x, y: loss_net(x, y), None, optimizer.parameters)

    @ms.jit
    def step(x, y):
        loss, grads = grad_fn(x, y)
        optimizer(reducer(grads))
        return loss

    x = np.random.default_rng(0).normal(size=(4, 4)).astype(np.float32)
    y = np.random.default_rng(1).normal(size=(4, 2)).astype(np.float32)
    step(Tensor(x), Tensor(y))
    # d/dW sum((xW^T + b - y)^2) over the whole batch (= the sum over the 2 micro-batches), divided by 4
    residual = x @ start[0].T + start[1] - y
    expected_weight = start[0] - 0.1 * (2 * residual.T @ x) / 4.0
    expected_bias = start[1] - 0.1 * (2 * residual.sum(0)) / 4.0
    np.testing.assert_allclose(net.weight.asnumpy(), expected_weight, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(net.bias.asnumpy(), expected_bias, rtol=1e-5, atol=1e-6)
