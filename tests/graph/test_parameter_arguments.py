"""A Parameter passed as an argument to a compiled Cell and assigned inside it holds the new value afterwards,
as in MindSpore (oracle: tests/fixtures/graph/parameter_arguments.json, recorded by
tests/fixtures/graph/record_parameter_arguments.py). GRAPH_MODE compiles such Cells (no eager fallback), and
loss-scaled training with ``DynamicLossScaleUpdateCell`` gives PyNative's values step for step."""
import json
import os
import warnings

import numpy as np
import pytest

import sporax
from sporax import Parameter, Tensor, nn, ops
from sporax.state import EagerFallbackWarning

with open(os.path.join(os.path.dirname(__file__), "..", "fixtures", "graph", "parameter_arguments.json")) as _file:
    ORACLE = json.load(_file)


class Doubling(nn.Cell):
    def construct(self, x, p):
        ops.assign(p, p * 2 + x)
        return p + 1


class PairUpdate(nn.Cell):
    def construct(self, x, pair):
        ops.assign(pair[0], pair[0] + x)
        ops.assign(pair[1], pair[1] * x)
        return pair[0] + pair[1]


def _programs(cell):
    cache = cell.__dict__.get("_sporax_compiled")
    return [] if cache is None else cache.programs


def _compiled_once(cell):
    programs = _programs(cell)
    assert len(programs) == 1 and not programs[0].eager, "the Cell compiled into one program, no eager fallback"


@pytest.fixture(params=["graph", "pynative"])
def mode(request):
    sporax.set_context(mode=sporax.GRAPH_MODE if request.param == "graph" else sporax.PYNATIVE_MODE)
    with warnings.catch_warnings():
        warnings.simplefilter("error", EagerFallbackWarning)
        yield request.param
    sporax.set_context(mode=sporax.PYNATIVE_MODE)


def test_assigned_parameter_argument_holds_the_new_value(mode):
    parameter = Parameter(Tensor(np.array([1.0, -2.0, 0.5], np.float32)), name="p")
    net = Doubling()
    for step, expected in enumerate(ORACLE[mode]["assign"]):
        out = net(Tensor(np.array([1.0, 2.0, 3.0], np.float32) * (step + 1)), parameter)
        np.testing.assert_allclose(out.asnumpy(), expected["output"])
        np.testing.assert_allclose(parameter.asnumpy(), expected["parameter"])
    if mode == "graph":
        _compiled_once(net)


def test_each_parameter_argument_is_updated_on_its_own(mode):
    net = Doubling()
    first = Parameter(Tensor(np.array([1.0], np.float32)), name="first")
    second = Parameter(Tensor(np.array([10.0], np.float32)), name="second")
    x = Tensor(np.array([1.0], np.float32))
    net(x, first)
    net(x, second)
    net(x, first)
    np.testing.assert_allclose(first.asnumpy(), [7.0])  # 1 -> 3 -> 7
    np.testing.assert_allclose(second.asnumpy(), [21.0])


def test_a_tuple_of_parameter_arguments_is_updated(mode):
    pair = (Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="a"),
            Parameter(Tensor(np.array([3.0, 4.0], np.float32)), name="b"))
    out = PairUpdate()(Tensor(np.array([2.0, 3.0], np.float32)), pair)
    np.testing.assert_allclose(pair[0].asnumpy(), [3.0, 5.0])
    np.testing.assert_allclose(pair[1].asnumpy(), [6.0, 12.0])
    np.testing.assert_allclose(out.asnumpy(), [9.0, 17.0])


def test_dynamic_loss_scale_update_cell_updates_the_scale_argument(mode):
    update = nn.DynamicLossScaleUpdateCell(loss_scale_value=2.0 ** 10, scale_factor=2, scale_window=2)
    scale = Parameter(Tensor(np.float32(2.0 ** 10)), name="scale")
    for overflow, expected in zip(ORACLE["overflows"], ORACLE[mode]["loss_scale"]):
        returned = update(scale, Tensor(overflow))
        assert bool(returned.asnumpy()) == expected["returned"]
        assert float(scale.asnumpy()) == expected["scale"]
        assert int(update.cur_iter.asnumpy().reshape(-1)[0]) == expected["cur_iter"]
        assert int(update.last_overflow_iter.asnumpy().reshape(-1)[0]) == expected["last_overflow_iter"]
    if mode == "graph":
        _compiled_once(update)


def _loss_scaled_training(mode):
    sporax.set_context(mode=sporax.GRAPH_MODE if mode == "graph" else sporax.PYNATIVE_MODE)
    net = nn.Dense(3, 2)
    net.weight.set_data(Tensor(np.arange(6, dtype=np.float32).reshape(2, 3) / 10))
    net.bias.set_data(Tensor(np.zeros(2, np.float32)))
    optimizer = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    step = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.MSELoss()), optimizer,
                                            nn.DynamicLossScaleUpdateCell(2.0 ** 4, 2, 2))
    x = np.ones((4, 3), np.float32)
    y = Tensor(np.zeros((4, 2), np.float32))
    records = []
    for index in range(5):
        batch = Tensor(np.full((4, 3), np.inf, np.float32) if index == 2 else x)  # step 2 overflows
        loss, overflow, scale = step(batch, y)
        records.append((loss.asnumpy(), bool(overflow.asnumpy()), float(scale.asnumpy()),
                        float(step.scale_sense.asnumpy()), net.weight.asnumpy().copy(), net.bias.asnumpy().copy()))
    return step, records


def test_train_one_step_with_dynamic_loss_scale_compiles_and_matches_pynative():
    with warnings.catch_warnings():
        warnings.simplefilter("error", EagerFallbackWarning)
        try:
            step, graph = _loss_scaled_training("graph")
            _, pynative = _loss_scaled_training("pynative")
        finally:
            sporax.set_context(mode=sporax.PYNATIVE_MODE)
    _compiled_once(step)
    assert [record[1] for record in graph] == [False, False, True, False, False]
    assert [record[3] for record in graph] == [16.0, 32.0, 16.0, 16.0, 32.0], "halved on overflow, doubled after 2"
    for got, want in zip(graph, pynative):
        np.testing.assert_allclose(got[0], want[0], rtol=1e-6)
        assert got[1:4] == want[1:4]
        np.testing.assert_allclose(got[4], want[4], rtol=1e-6)
        np.testing.assert_allclose(got[5], want[5], rtol=1e-6)
    np.testing.assert_array_equal(graph[2][4], graph[1][4], err_msg="the overflow step skipped the update")
