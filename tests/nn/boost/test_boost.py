"""``mindspore.boost`` on CPU: LessBN, gradient freezing, the boost train steps and ``Model(boost_level=...)``
against values recorded from MindSpore 2.10 (``fixtures/boost_mindspore_2_10.json``; CPU, GRAPH_MODE, and
PyNative where it runs)."""
import json
from pathlib import Path

import numpy as np
import pytest

import sporax as ms
from sporax import dataset, nn
from sporax.core.tensor import Tensor
from sporax.nn import boost
from sporax.train import Model

RECORDED = json.loads((Path(__file__).parents[2] / "fixtures" / "boost_mindspore_2_10.json").read_text())
_DATA = np.random.RandomState(0)
INPUTS, LABELS = _DATA.rand(6, 4).astype(np.float32), _DATA.rand(6, 2).astype(np.float32)


class Net(nn.Cell):
    """Two Dense layers (the recordings' network); LessBN's fn_flag replaces ``fc2``."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(4, 3, weight_init=Tensor(np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4)),
                            bias_init="zeros")
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(3, 2, weight_init=Tensor(np.linspace(0.5, -0.5, 6, dtype=np.float32).reshape(2, 3)),
                            bias_init="ones")

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


@pytest.fixture(autouse=True)
def fresh_auto_boost():
    """AutoBoost is a process-wide singleton fixed by its first construction (as MindSpore's): each test starts
    without one and leaves none behind."""
    boost.AutoBoost._instance = None
    yield
    boost.AutoBoost._instance = None


def _assert_params(network, recorded):
    for parameter, values in zip(network.trainable_params(), recorded):
        np.testing.assert_allclose(parameter.asnumpy(), values, rtol=1e-4, atol=1e-5)


def _batch(index):
    return Tensor(INPUTS[2 * index:2 * index + 2]), Tensor(LABELS[2 * index:2 * index + 2])


def test_less_bn_fn_flag_makes_the_last_dense_a_normalised_head():
    wrapped = boost.LessBN(Net(), fn_flag=True)
    assert isinstance(wrapped.network.fc2, boost.CommonHeadLastFN)
    assert [p.name for p in wrapped.trainable_params()] == RECORDED["lessbn_names"]
    np.testing.assert_allclose(wrapped(Tensor(INPUTS)).asnumpy(), RECORDED["lessbn_out"], rtol=1e-5, atol=1e-6)
    assert "less_bn" in wrapped.network.get_flags()


def test_boost_step_with_sens_returns_the_loss_and_without_sens_returns_none():
    # MindSpore 2.10 gives the same in both modes: the step with sens runs here in PyNative (op by op), the one
    # without in GRAPH_MODE (compiled).
    net = Net()
    step = boost.BoostTrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1),
                                       sens=2.0)
    losses = [float(step(*_batch(0)).asnumpy()) for _ in range(2)]
    np.testing.assert_allclose(losses, RECORDED["sens_losses"], rtol=1e-5)
    _assert_params(net, RECORDED["sens_params"])
    net = Net()
    step = boost.BoostTrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1))
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        assert step(*_batch(0)) is None  # MindSpore 2.10's step without sens updates but returns nothing
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    _assert_params(net, RECORDED["nosens_params"])


def test_freeze_opt_steps_train_the_scheduled_group_and_wrap():
    # Group 0 trains fc2 only, group 1 everything; the schedule [1, 0, 0] wraps after three steps. MindSpore
    # 2.10's PyNative step raises TypeError at the wrap (it assigns an int to the step Parameter); its GRAPH
    # step (recorded) and sporax in both modes wrap. GRAPH mode only: the switch compiles both groups' steps.
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = Net()
        weights = net.trainable_params()
        optimizer = boost.FreezeOpt(nn.Momentum(weights, 0.1, 0.9), [weights[2:], weights], [1, 0, 0])
        step = boost.BoostTrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), optimizer)
        losses = [float(step(*_batch(index % 3)).asnumpy()) for index in range(4)]
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_allclose(losses, RECORDED["freeze_losses"], rtol=1e-5)
    _assert_params(net, RECORDED["freeze_params"])
    assert int(step.step.asnumpy()) == RECORDED["freeze_step"]


def test_auto_boost_manual_gradient_accumulation_applies_the_mean_every_second_step():
    # MindSpore 2.10 GRAPH_MODE recording; its PyNative step raises TypeError where it resets the step counter.
    config = boost.AutoBoost("O0", {"boost": {"mode": "manual", "grad_accumulation": True},
                                    "grad_accumulation": {"grad_accumulation_step": 2}})
    assert config.boost_config["grad_accumulation"] and config.grad_accumulation_step == 2
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = Net()
        step = boost.BoostTrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1),
                                           sens=1.0)
        assert step.use_grad_accumulation and step.max_accumulation_step == 2
        for index in range(3):
            loss = float(step(*_batch(index)).asnumpy())
            np.testing.assert_allclose(loss, RECORDED["accumulation_losses"][index], rtol=1e-5)
            _assert_params(net, RECORDED["accumulation_params"][index])
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_gradient_freeze_schedules_and_errors():
    freeze = boost.GradientFreeze(3, 0, 0.5, 5)
    assert freeze.generate_freeze_index_sequence(3, 0, 0.5, 5) == RECORDED["seq0"]
    assert freeze.generate_freeze_index_sequence(1, 1, 0.5, 3) == [0, 0, 0]
    with pytest.raises(ValueError, match="Unsupported freezing training strategy '5'"):
        freeze.generate_freeze_index_sequence(2, 5, 0.5, 4)
    net = Net()
    with pytest.raises(TypeError, match="The first arg 'opt' must be an Optimizer instance"):
        boost.FreezeOpt(net)
    optimizer = nn.SGD(net.trainable_params())
    with pytest.raises(ValueError, match="'train_parameter_groups' must also be specified"):
        boost.FreezeOpt(optimizer, train_strategy=[0])
    with pytest.raises(TypeError, match="'train_strategy' should be None, tuple, list or Tensor"):
        boost.FreezeOpt(optimizer, [net.trainable_params()], train_strategy="a")
    with pytest.raises(TypeError, match="'train_parameter_groups' should be tuple or list"):
        boost.FreezeOpt(optimizer, 3)


def test_model_boost_level_o1_applies_less_bn_and_gradient_freezing():
    # Model compiles its train step in either mode (MindSpore's PyNative and GRAPH recordings are equal).
    net = Net()
    data = dataset.NumpySlicesDataset({"x": INPUTS, "y": LABELS}, shuffle=False).batch(2)
    model = Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.1), metrics={"loss"}, boost_level="O1",
                  boost_config_dict={"grad_freeze": {"param_groups": 3, "freeze_type": 0, "freeze_p": 0.5}})
    assert isinstance(model.train_network, boost.BoostTrainOneStepCell)
    assert isinstance(model._network, boost.LessBN) and isinstance(model._optimizer, boost.FreezeOpt)
    assert boost.AutoBoost("O0").level == "O1"  # the first configuration stays
    model.train(1, data, dataset_sink_mode=False)
    _assert_params(model._network, RECORDED["model_o1_params"])
    np.testing.assert_allclose(model.eval(data, dataset_sink_mode=False)["loss"], RECORDED["model_o1_eval"],
                               rtol=1e-4)
    np.testing.assert_allclose(model.predict(Tensor(INPUTS[:2])).asnumpy(), RECORDED["model_o1_predict"],
                               rtol=1e-4, atol=1e-6)


def test_boost_levels_checked_and_the_loss_scaled_step_has_no_cpu_kernel():
    net = Net()
    with pytest.raises(ValueError, match=r"The 'boost_level' should be in : \['O0', 'O1', 'O2'\], but got O5"):
        Model(net, nn.MSELoss(), nn.SGD(net.trainable_params()), boost_level="O5")
    boost.AutoBoost._instance = None  # that Model fixed the singleton (at O0), as MindSpore's does
    with pytest.raises(ValueError, match="The boost mode must be in"):
        boost.AutoBoost("O1", {"boost": {"mode": "fast"}})
    assert boost.AutoBoost("O3").level == "O0"  # an unknown level is O0, and fixes the singleton
    step = boost.BoostTrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.MSELoss()),
                                                    nn.SGD(net.trainable_params()), Tensor(8.0))
    if ms.get_context("device_target") == "CPU":
        with pytest.raises(RuntimeError, match=r"Unsupported op \[NPUGetFloatStatusV2\] on CPU"):
            step(*_batch(0))
    with pytest.raises(TypeError, match="The scale_sense must be Cell or Tensor"):
        boost.BoostTrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params()), 8)


def test_the_loss_scaled_step_off_cpu_unscales_and_skips_overflowing_updates(monkeypatch):
    # Off CPU (MindSpore's GPU path: an all-finite test of the unscaled gradients): scale 8 gives the plain step.
    from sporax.nn.boost import boost_train_step

    real_get_context = boost_train_step.context.get_context
    monkeypatch.setattr(boost_train_step.context, "get_context",
                        lambda key: "GPU" if key == "device_target" else real_get_context(key))
    net = Net()
    step = boost.BoostTrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.MSELoss()),
                                                    nn.SGD(net.trainable_params(), 0.1), Tensor(np.float32(8.0)))
    loss, overflow, scale = step(*_batch(0))
    assert not bool(overflow.asnumpy()) and float(scale.asnumpy()) == 8.0
    np.testing.assert_allclose(float(loss.asnumpy()), RECORDED["sens_losses"][0], rtol=1e-5)
    _assert_params(net, RECORDED["nosens_params"])  # MindSpore's unscaled SGD step
    _, overflow, _ = step(Tensor(np.full((2, 4), np.inf, np.float32)), _batch(0)[1])
    assert bool(overflow.asnumpy())
    _assert_params(net, RECORDED["nosens_params"])  # the overflowing step left the weights
