"""PyTorch-style optimizers and LR schedulers against values recorded from MindSpore 2.10.

The fixture comes from tests/fixtures/numpy_mint/record_optim.py (run with the oracle).
"""
import json
import math
import pathlib

import numpy as np
import pytest

import sporax as ms
from sporax import Parameter, Tensor
from sporax.mint import optim
from sporax.mint.optim import experimental, lr_scheduler

FIXTURE = json.loads((pathlib.Path(__file__).parents[1] / "fixtures" / "numpy_mint" / "optim.json").read_text())


def _params():
    return [Parameter(Tensor(np.array(FIXTURE["weight"], np.float32)), name="weight"),
            Parameter(Tensor(np.array(FIXTURE["bias"], np.float32)), name="bias")]


def _case_id(case):
    return case["module"] + "-" + case["name"] + "-" + "-".join(f"{k}" for k in case["kwargs"]) + ("-grouped" if case["grouped"] else "")


@pytest.mark.parametrize("case", FIXTURE["optimizers"], ids=_case_id)
def test_optimizer_matches_mindspore(case):
    params = _params()
    groups = [{"params": [params[0]]}, {"params": [params[1]], "lr": 0.05}] if case["grouped"] else params
    kwargs = {k: tuple(v) if isinstance(v, list) else v for k, v in case["kwargs"].items()}
    module = experimental if case["module"] == "experimental" else optim
    optimizer = getattr(module, case["name"])(groups, **kwargs)
    for (weight_gradient, bias_gradient), expected in zip(FIXTURE["gradients"], case["history"]):
        assert optimizer((Tensor(np.array(weight_gradient, np.float32)), Tensor(np.array(bias_gradient, np.float32))))
        for parameter, values in zip(params, expected):
            np.testing.assert_allclose(parameter.asnumpy(), np.array(values, np.float32), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("case", FIXTURE["schedulers"], ids=lambda case: case["name"])
def test_scheduler_matches_mindspore(case):
    optimizer = optim.SGD(_params(), lr=0.1)
    kwargs = dict(case["kwargs"])
    if "lr_lambda" in kwargs:
        factor = float(kwargs["lr_lambda"])
        kwargs["lr_lambda"] = (lambda epoch: factor ** epoch) if case["name"] == "LambdaLR" else (lambda epoch: factor)
    scheduler = getattr(lr_scheduler, case["name"])(optimizer, **kwargs)
    seen = [float(scheduler.get_last_lr()[0].asnumpy())]
    for _ in range(len(case["lrs"]) - 1):
        scheduler.step()
        seen.append(float(scheduler.get_last_lr()[0].asnumpy()))
    np.testing.assert_allclose(seen, case["lrs"], rtol=1e-5, atol=1e-7)


def test_scheduler_drives_the_compiled_step():
    """A rate written by the scheduler reaches the next optimizer step without a stale compile."""
    weight = Parameter(Tensor(np.zeros(2, np.float32)), name="w")
    optimizer = optim.SGD([weight], lr=1.0)
    scheduler = lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.5)
    gradient = (Tensor(np.ones(2, np.float32)),)
    moves = []
    for _ in range(3):
        before = weight.asnumpy().copy()
        optimizer(gradient)
        moves.append(float(before[0] - weight.asnumpy()[0]))
        scheduler.step()
    assert moves == pytest.approx([1.0, 0.5, 0.25])


def test_paths_and_objects():
    import importlib

    from sporax.compat import install
    install()
    served = importlib.import_module("mindspore.experimental.optim")
    mint_optim = importlib.import_module("mindspore.mint.optim")
    assert served.SGD is optim.SGD and mint_optim.AdamW is optim.AdamW and served.AdamW is optim.AdamW
    assert served.Adam is experimental.Adam and mint_optim.Adam is optim.Adam
    assert served.lr_scheduler.StepLR is lr_scheduler.StepLR
    namespace = {}
    exec("from mindspore.experimental import optim as o", namespace)
    assert namespace["o"].Adam is experimental.Adam
    exec("import mindspore.numpy as mnp\nfrom mindspore import mint\nimport mindspore.mint.nn.functional as F",
         namespace)
    assert namespace["mnp"].arange is ms.numpy.arange and namespace["mint"].add is ms.mint.add
    assert namespace["F"].conv2d is ms.mint.nn.functional.conv2d
    assert not issubclass(optim.SGD, ms.nn.Optimizer)


def test_trains_a_dense_layer_in_both_modes():
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_context(mode=mode)
        try:
            ms.set_seed(0)
            net = ms.nn.Dense(3, 1)
            optimizer = optim.Adam(net.trainable_params(), lr=0.05)
            x = Tensor(np.random.RandomState(0).randn(16, 3).astype(np.float32))
            y = Tensor(x.asnumpy() @ np.array([[1.0], [-2.0], [0.5]], np.float32))

            def loss_fn(inputs, targets):
                return ((net(inputs) - targets) ** 2).mean()

            step = ms.value_and_grad(loss_fn, None, optimizer.parameters)
            losses = []
            for _ in range(30):
                loss, grads = step(x, y)
                optimizer(grads)
                losses.append(float(loss.asnumpy()))
            assert losses[-1] < 0.2 * losses[0]
        finally:
            ms.set_context(mode=ms.PYNATIVE_MODE)


def test_errors_name_the_optimizer():
    with pytest.raises(ValueError, match="Adam"):
        optim.Adam(_params(), betas=(1.5, 0.9))
    with pytest.raises(ValueError, match="SGD"):
        optim.SGD(_params(), lr=-1.0)
    with pytest.raises(TypeError, match="StepLR"):
        lr_scheduler.StepLR(ms.nn.SGD(_params()), step_size=1)
    with pytest.raises(ValueError, match="gradients"):
        optim.SGD(_params(), lr=0.1)((Tensor(np.ones(2, np.float32)),))


def test_add_param_group_keeps_state_and_steps_the_new_group():
    first = Parameter(Tensor(np.ones(2, np.float32)), name="first")
    second = Parameter(Tensor(np.ones(3, np.float32)), name="second")
    optimizer = optim.SGD([first], lr=0.1, momentum=0.9)
    optimizer((Tensor(np.ones(2, np.float32)),))
    optimizer.add_param_group({"params": [second], "lr": 1.0})
    optimizer((Tensor(np.ones(2, np.float32)), Tensor(np.ones(3, np.float32))))
    # first: buffer 1 then 0.9 * 1 + 1 = 1.9 -> 1 - 0.1 - 0.19; second: its first step, buffer = 1.
    np.testing.assert_allclose(first.asnumpy(), 1 - 0.1 - 0.19, rtol=1e-6)
    np.testing.assert_allclose(second.asnumpy(), 0.0, atol=1e-7)
    assert [group["lr"].name for group in optimizer.param_groups] == ["learning_rate_group_0",
                                                                      "learning_rate_group_1"]


def test_custom_optimizer_walks_groups_by_group_start_id():
    # The custom-optimizer pattern of MindSpore 2.10's experimental.optim.Optimizer docstring;
    # group_start_id values ([0, 2] then [0, 2, 3]) are MindSpore's.
    class MySGD(experimental.Optimizer):
        def __init__(self, params, lr):
            super().__init__(params, dict(lr=lr))

        def construct(self, gradients):
            for group_id, group in enumerate(self.param_groups):
                start = self.group_start_id[group_id]
                for i, param in enumerate(group["params"]):
                    ms.ops.assign(param, param - gradients[start + i] * group["lr"])

    weight, bias = _params()
    optimizer = MySGD([weight, bias], 0.5)
    assert optimizer.group_start_id == [0, 2]
    extra = Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="extra")
    optimizer.add_param_group({"params": extra, "lr": 0.25})
    assert optimizer.group_start_id == [0, 2, 3]
    expected_weight = weight.asnumpy() - 0.5
    optimizer([Tensor(np.ones_like(weight.asnumpy())), Tensor(np.zeros_like(bias.asnumpy())),
               Tensor(np.array([4.0, 4.0], np.float32))])
    np.testing.assert_allclose(weight.asnumpy(), expected_weight, rtol=1e-6)
    np.testing.assert_allclose(extra.asnumpy(), [0.0, 1.0])


def test_step_results_are_mindspores():
    # MindSpore 2.10: SequentialLR.step and CosineAnnealingWarmRestarts.step return None, the others True.
    optimizer = optim.Adam(_params(), lr=0.1)
    first, second = lr_scheduler.ConstantLR(optimizer, factor=0.1, total_iters=2), \
        lr_scheduler.ExponentialLR(optimizer, gamma=0.9)
    assert lr_scheduler.SequentialLR(optimizer, [first, second], milestones=[2]).step() is None
    assert lr_scheduler.CosineAnnealingWarmRestarts(optimizer, 2).step() is None
    assert lr_scheduler.StepLR(optimizer, 2).step() is True


def test_param_groups_and_repr_read_as_mindspore_prints_them():
    """MindSpore 2.10 (docs: custom_program/optimizer, experimental.optim): a group keeps its own keys in
    their order, then the defaults it lacks; the group rate is a trainable Parameter; 'initial_lr' appears
    once a scheduler is made; print(optimizer) lists each group's settings sorted by name."""
    conv = Parameter(Tensor(np.zeros((6, 1, 5, 5), np.float32)), name="conv.weight")
    other = Parameter(Tensor(np.ones(1, np.float32)), name="param")
    optimizer = optim.Adam(params=[{"params": [conv], "weight_decay": 0.01, "lr": 0.9, "amsgrad": True},
                                   {"params": [other], "lr": 0.66, "eps": 1e-6, "betas": (0.8, 0.88)}], lr=0.01)
    assert [list(group) for group in optimizer.param_groups] == [
        ["params", "weight_decay", "lr", "amsgrad", "betas", "eps", "maximize"],
        ["params", "lr", "eps", "betas", "weight_decay", "amsgrad", "maximize"]]
    assert repr(optimizer.param_groups[0]["lr"]) == \
        "Parameter (name=learning_rate_group_0, shape=(), dtype=Float32, requires_grad=True)"
    assert str(optimizer) == (
        "Adam (\nParameter Group 0\n    amsgrad: True\n    betas: (0.9, 0.999)\n    eps: 1e-08\n    lr: 0.9\n"
        "    maximize: False\n    weight_decay: 0.01\n\nParameter Group 1\n    amsgrad: False\n    betas: (0.8, 0.88)\n"
        "    eps: 1e-06\n    lr: 0.66\n    maximize: False\n    weight_decay: 0.0\n)")
    single = optim.Adam([other], lr=0.1)
    assert "initial_lr" not in single.param_groups[0]
    lr_scheduler.StepLR(single, step_size=30, gamma=0.1)
    assert list(single.param_groups[0])[-1] == "initial_lr"
    assert str(single) == ("Adam (\nParameter Group 0\n    amsgrad: False\n    betas: (0.9, 0.999)\n    eps: 1e-08\n"
                           "    initial_lr: 0.1\n    lr: 0.1\n    maximize: False\n    weight_decay: 0.0\n)")
