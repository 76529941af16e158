"""FTRL against MindSpore 2.10 trajectories; opt_init_args_register; zoo names exported from nn."""
import os

import numpy as np
import pytest

import sporax
from sporax import Parameter, Tensor, nn

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "nn", "optim", "ftrl.npz")
SETTINGS = {"plain": dict(), "l2": dict(initial_accum=0.2, learning_rate=0.05, lr_power=-0.5, l2=0.1),
            "power": dict(learning_rate=0.1, lr_power=-0.3, weight_decay=0.01, loss_scale=2.0)}


@pytest.mark.parametrize("mode", [sporax.PYNATIVE_MODE, sporax.GRAPH_MODE])
@pytest.mark.parametrize("key", sorted(SETTINGS))
def test_ftrl_matches_mindspore(key, mode):
    recorded = np.load(FIXTURE)
    sporax.set_context(mode=mode)
    try:
        weight = Parameter(Tensor(recorded["w0"]), name="w")
        optimizer = nn.FTRL([weight], **SETTINGS[key])
        for step, gradient in enumerate(recorded["grads"]):
            optimizer((Tensor(gradient),))
            np.testing.assert_allclose(weight.asnumpy(), recorded[key][step], rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(optimizer.moments[0].asnumpy(), recorded[key + "_accum"], rtol=1e-5)
        np.testing.assert_allclose(optimizer.linear[0].asnumpy(), recorded[key + "_linear"], rtol=1e-5, atol=1e-6)
    finally:
        sporax.set_context(mode=sporax.PYNATIVE_MODE)


def test_ftrl_l1_shrinkage():
    """l1 > 0: MindSpore 2.10's CPU kernel agrees where `linear` > 0; where it is negative it shrinks
    with the wrong sign (see record_ftrl.py), so there the FTRL-Proximal formula in NumPy decides."""
    recorded = np.load(FIXTURE)
    weight = Parameter(Tensor(recorded["w0"]), name="w")
    optimizer = nn.FTRL([weight], initial_accum=0.2, learning_rate=0.05, l1=0.3, l2=0.1)
    gradient = recorded["grads"][0]
    optimizer((Tensor(gradient),))
    w0 = recorded["w0"].astype(np.float64)
    accum = 0.2 + gradient.astype(np.float64) ** 2
    linear = gradient - (np.sqrt(accum) - np.sqrt(0.2)) / 0.05 * w0
    expected = np.where(np.abs(linear) > 0.3, (np.sign(linear) * 0.3 - linear) / (np.sqrt(accum) / 0.05 + 0.2), 0.0)
    np.testing.assert_allclose(weight.asnumpy(), expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(optimizer.linear[0].asnumpy(), linear, rtol=1e-5, atol=1e-6)
    positive = linear > 0
    assert positive.any() and (~positive).any()
    np.testing.assert_allclose(weight.asnumpy()[positive], recorded["l1"][0][positive], rtol=1e-5, atol=1e-6)


def test_ftrl_l1_makes_weights_sparse():
    weight = Parameter(Tensor(np.full((8,), 0.5, np.float32)), name="w")
    optimizer = nn.FTRL([weight], learning_rate=0.1, l1=10.0)
    optimizer((Tensor(np.linspace(-1, 1, 8).astype(np.float32)),))
    assert not weight.asnumpy().any()


@pytest.mark.parametrize("kwargs, error", [(dict(learning_rate=0.0), ValueError), (dict(lr_power=0.5), ValueError),
                                           (dict(l1=-1.0), ValueError), (dict(learning_rate=[0.1]), TypeError)])
def test_ftrl_rejects_bad_arguments(kwargs, error):
    with pytest.raises(error, match="FTRL"):
        nn.FTRL([Parameter(Tensor(np.ones(2, np.float32)), name="w")], **kwargs)


def test_opt_init_args_register_records_arguments():
    class Scaled(nn.Optimizer):
        @nn.opt_init_args_register
        def __init__(self, params, learning_rate=0.1, factor=2.0, weight_decay=0.0):
            super().__init__(learning_rate, params, weight_decay)
            self.factor = factor

        def construct(self, gradients):
            return True

    params = [Parameter(Tensor(np.ones(2, np.float32)), name="w")]
    optimizer = Scaled(params, learning_rate=Tensor(np.float32(0.5)), factor=3.0)
    assert optimizer.init_params["params"] is params
    assert optimizer.init_learning_rate == 0.5
    assert optimizer.init_args == {"factor": 3.0, "weight_decay": 0.0}
    assert optimizer.factor == 3.0
    scheduled = Scaled(params, learning_rate=nn.ExponentialDecayLR(0.1, 0.5, 1))
    assert scheduled.init_learning_rate is None


def test_loss_scale_cells_are_exported_from_nn():
    from sporax.nn.wrap import loss_scale
    assert nn.TrainOneStepWithLossScaleCell is loss_scale.TrainOneStepWithLossScaleCell
    assert nn.DynamicLossScaleUpdateCell is loss_scale.DynamicLossScaleUpdateCell
    assert nn.FixedLossScaleUpdateCell is loss_scale.FixedLossScaleUpdateCell


def test_thor_is_not_implemented_and_conversion_keeps_the_model():
    from sporax.train import Model
    from sporax.train.thor import ConvertModelUtils
    net = nn.Dense(2, 1)
    with pytest.raises(NotImplementedError, match="THOR"):
        nn.thor(net, 0.1, 0.03, 0.9)
    optimizer = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    model = Model(net, nn.MSELoss(), optimizer)
    assert ConvertModelUtils().convert_to_thor_model(model, network=net, optimizer=optimizer) is model


def test_opt_init_args_register_hides_the_signature_as_mindspore():
    import inspect  # noqa: PLC0415 - only this test reads signatures

    class Clipped(nn.Optimizer):
        @nn.opt_init_args_register
        def __init__(self, params, learning_rate=0.1, clip=False):
            super().__init__(learning_rate, params)

    # MindSpore 2.10: (self, *args, **kwargs); libraries pick the keywords to pass from it.
    assert str(inspect.signature(Clipped.__init__)) == "(self, *args, **kwargs)"
    assert Clipped([Parameter(Tensor(np.ones(2, np.float32)), name="w")], clip=True).init_args == {"clip": True}
