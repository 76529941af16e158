"""Mixed precision levels, loss scalers/managers and overflow handling (PYNATIVE and GRAPH)."""
import jax
import numpy as np
import pytest

import sporax
from sporax import Tensor, nn
from sporax.core import context
from sporax.demo.lenet import LeNet5
from sporax.nn.wrap import DynamicLossScaleUpdateCell, FixedLossScaleUpdateCell, TrainOneStepWithLossScaleCell
from sporax.train.amp import (DynamicLossScaleManager, DynamicLossScaler, FixedLossScaleManager,
                              StaticLossScaler, all_finite, auto_mixed_precision, build_train_network,
                              get_black_list, get_white_list)

X = np.random.default_rng(0).standard_normal((4, 1, 32, 32)).astype(np.float32)


@pytest.fixture(params=[context.PYNATIVE_MODE, context.GRAPH_MODE], ids=["PYNATIVE", "GRAPH"])
def mode(request):
    context.set_context(mode=request.param)
    yield request.param
    context.set_context(mode=context.PYNATIVE_MODE)


def _conv_dtypes(network, x):
    """The dtypes the compiled forward pass convolves in."""
    jaxpr = jax.make_jaxpr(lambda a: network(Tensor._wrap(a))._value)(x)
    return {str(eqn.invars[0].aval.dtype) for eqn in _walk(jaxpr.jaxpr) if eqn.primitive.name == "conv_general_dilated"}


def _walk(jaxpr):
    for eqn in jaxpr.eqns:
        yield eqn
        for value in eqn.params.values():
            inner = getattr(value, "jaxpr", None)
            if inner is not None:
                yield from _walk(inner if hasattr(inner, "eqns") else inner.jaxpr)


@pytest.mark.parametrize("level, conv_dtype", [("O0", "float32"), ("O1", "float16"), ("O2", "float16"),
                                               ("O3", "float16")])
def test_levels_compute_in_half_and_return_float32(level, conv_dtype):
    reference = LeNet5()
    network = LeNet5()
    sporax.io.load_param_into_net(network, {p.name: p.clone() for p in reference.get_parameters()})
    converted = auto_mixed_precision(network, level)
    output = converted(Tensor(X))
    assert output.dtype == sporax.float32
    assert _conv_dtypes(converted, X) == {conv_dtype}
    assert [p.name for p in converted.trainable_params()] == [p.name for p in reference.trainable_params()]
    assert all(p.dtype == sporax.float32 for p in converted.trainable_params())
    expected = reference(Tensor(X)).asnumpy()
    tolerance = 1e-6 if level == "O0" else 2e-2  # float16 against the float32 reference
    np.testing.assert_allclose(output.asnumpy(), expected, atol=tolerance, rtol=tolerance)


def test_black_list_keeps_batchnorm_float32():
    network = nn.SequentialCell([nn.Conv2d(1, 4, 3), nn.BatchNorm2d(4), nn.ReLU()])
    converted = auto_mixed_precision(network, "O2")
    jaxpr = jax.make_jaxpr(lambda a: converted(Tensor._wrap(a))._value)(X)
    assert "float16" in str(jaxpr) and converted(Tensor(X)).dtype == sporax.float32
    assert nn.BatchNorm2d in get_black_list() and nn.Dense in get_white_list()


def test_white_list_is_mindspores():
    # MindSpore 2.10's amp.get_white_list(), in order: Cells, then Primitives
    assert [cls.__name__ for cls in get_white_list()] == [
        "Conv1d", "Conv2d", "Conv3d", "Conv1dTranspose", "Conv2dTranspose", "Conv3dTranspose", "Dense", "LSTMCell",
        "RNNCell", "GRUCell", "Conv2D", "Conv3D", "Conv2DTranspose", "Conv3DTranspose", "Conv2DBackpropInput",
        "MatMul", "BatchMatMul", "PReLU", "ReLU", "Ger"]
    network = nn.SequentialCell([nn.Conv3d(1, 2, 2), nn.ReLU()])
    converted = auto_mixed_precision(network, "O1")  # the 3-D convolution runs in float16 too, hands back float32
    jaxpr = jax.make_jaxpr(lambda a: converted(Tensor._wrap(a))._value)(np.ones((1, 1, 3, 3, 3), np.float32))
    assert "float16" in str(jaxpr) and converted(Tensor(np.ones((1, 1, 3, 3, 3), np.float32))).dtype == sporax.float32


def test_overflow_skips_update_then_scale_recovers(mode):
    net = nn.Dense(2, 1, weight_init=Tensor(np.ones((1, 2), np.float32)), bias_init="zeros")
    update = DynamicLossScaleUpdateCell(loss_scale_value=2 ** 10, scale_factor=2, scale_window=3)
    step = TrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1),
                                         scale_sense=update)
    scales, weights = [], []
    for index in range(7):
        x = np.full((1, 2), 1e30 if index == 2 else 1.0, np.float32)
        before = net.weight.asnumpy().copy()
        _, overflow, scale = step(Tensor(x), Tensor(np.zeros((1, 1), np.float32)))
        scales.append(float(scale.asnumpy()))
        weights.append(net.weight.asnumpy().copy())
        if index == 2:
            assert bool(overflow.asnumpy())
            np.testing.assert_array_equal(weights[-1], before)  # the overflow step changed nothing
        else:
            assert not bool(overflow.asnumpy())
    assert scales == [1024, 1024, 1024, 512, 512, 512, 1024]
    # The good steps used the unscaled gradient: plain SGD on MSE.
    np.testing.assert_allclose(weights[0], [[0.6, 0.6]], rtol=1e-6)


def test_fixed_scale_and_all_finite(mode):
    net = nn.Dense(2, 1, weight_init=Tensor(np.ones((1, 2), np.float32)), bias_init="zeros")
    step = TrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1),
                                         scale_sense=FixedLossScaleUpdateCell(64.0))
    _, overflow, scale = step(Tensor(np.ones((1, 2), np.float32)), Tensor(np.zeros((1, 1), np.float32)))
    assert not bool(overflow.asnumpy()) and float(scale.asnumpy()) == 64.0
    np.testing.assert_allclose(net.weight.asnumpy(), [[0.6, 0.6]], rtol=1e-6)
    assert not bool(all_finite([Tensor([1.0, 2.0]), Tensor([np.inf])]).asnumpy())
    assert bool(all_finite([Tensor([1.0, 2.0])]).asnumpy())


def test_managers_and_scalers_match_mindspore():
    manager = DynamicLossScaleManager(init_loss_scale=16, scale_factor=2, scale_window=2)
    seen = []
    for overflow in [False, False, True, False, False, False]:
        manager.update_loss_scale(overflow)
        seen.append(manager.get_loss_scale())
    assert seen == [16, 32, 16, 16, 32, 32]  # recorded from MindSpore 2.10
    fixed = FixedLossScaleManager(128.0, drop_overflow_update=False)
    assert fixed.get_loss_scale() == 128.0 and fixed.get_update_cell() is None
    scaler = DynamicLossScaler(1024, 2, 2)
    states = []
    for finite in [True, True, False, True]:
        scaler.adjust(Tensor(finite))
        states.append((float(scaler.scale_value.asnumpy()), int(scaler.counter.asnumpy())))
    assert states == [(1024, 1), (2048, 0), (1024, 0), (1024, 1)]  # recorded from MindSpore 2.10
    static = StaticLossScaler(8)
    np.testing.assert_array_equal(static.scale(Tensor([1.0, 2.0])).asnumpy(), [8, 16])
    np.testing.assert_array_equal(static.unscale((Tensor([8.0]),))[0].asnumpy(), [1])


def test_build_train_network_o2_trains():
    sporax.set_seed(0)
    network = LeNet5()
    optimizer = nn.Momentum(network.trainable_params(), 0.01, 0.9)
    step = build_train_network(network, optimizer, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                               level="O2", loss_scale_manager=DynamicLossScaleManager(2 ** 12, 2, 50))
    assert isinstance(step, TrainOneStepWithLossScaleCell)
    labels = Tensor(np.array([1, 2, 3, 4], np.int32))
    losses = [float(step(Tensor(X), labels)[0].asnumpy()) for _ in range(30)]
    assert np.isfinite(losses).all() and losses[-1] < losses[0]
    with pytest.raises(ValueError, match="level must be one of"):
        build_train_network(network, optimizer, level="O4")


@pytest.mark.parametrize("level", ["O0", "O2"])
def test_build_train_network_trains_in_training_mode(level):
    # As MindSpore: the returned Cell is set to training, so BatchNorm normalises with the batch's
    # statistics and moves its running ones (momentum 0.9) on every step.
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.bn = nn.BatchNorm1d(2)
            self.fc = nn.Dense(2, 2)

        def construct(self, x):
            return self.fc(self.bn(x))

    net = Net()
    step = sporax.amp.build_train_network(net, nn.Momentum(net.trainable_params(), 0.1, 0.9),
                                   nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"), level=level)
    assert step.training and all(cell.training for _, cell in net.cells_and_names())
    x = np.random.default_rng(0).random((4, 2)).astype(np.float32) * 3 + 2
    step(Tensor(x), Tensor(np.array([0, 1, 0, 1], np.int32)))
    moving_mean = next(p for p in net.get_parameters() if p.name.endswith("moving_mean"))
    np.testing.assert_allclose(moving_mean.asnumpy(), 0.1 * x.mean(0), rtol=1e-2)


def test_auto_black_list_as_mindspore_2_10_converts_a_network():
    # mindone's mixed-precision helpers call mindspore.train.amp._auto_black_list(net, AMP_BLACK_LIST, dtype):
    # MindSpore 2.10 returns the same network, with float16 outputs and float32 master weights.
    from sporax.train.amp import AMP_BLACK_LIST, _auto_black_list

    assert [cls.__name__ for cls in AMP_BLACK_LIST] == ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LayerNorm"]
    net = nn.SequentialCell([nn.Dense(3, 4), nn.LayerNorm((4,)), nn.Dense(4, 2)])
    reference = net(Tensor(np.ones((2, 3), np.float32))).asnumpy()
    assert _auto_black_list(net, AMP_BLACK_LIST, sporax.float16) is net
    out = net(Tensor(np.ones((2, 3), np.float32)))
    assert out.dtype == sporax.float16 and net[0].weight.dtype == sporax.float32
    np.testing.assert_allclose(out.asnumpy().astype(np.float32), reference, rtol=1e-2, atol=1e-2)


@pytest.mark.parametrize("level", ["O1", "auto"])
def test_converted_cells_keep_their_attributes(level):
    # the amp features page reads model.dense.weight after auto_mixed_precision(amp_level="auto"); MindSpore 2.10
    # keeps Net.dense a Dense there (its weight, bias and settings read as before), output Float32
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense = nn.Dense(4, 3, weight_init="ones", bias_init="zeros")

        def construct(self, x):
            return self.dense(x)

    model = sporax.amp.auto_mixed_precision(Net(), amp_level=level, dtype=sporax.float16)
    assert model.dense.weight.name == "dense.weight" and model.dense.in_channels == 4
    np.testing.assert_array_equal(model.dense.weight.asnumpy(), np.ones((3, 4), np.float32))
    out = model(Tensor(np.full((1, 4), 0.5, np.float32)))
    assert out.dtype == sporax.float32
    np.testing.assert_array_equal(out.asnumpy(), [[2.0, 2.0, 2.0]])
    with pytest.raises(AttributeError):
        _ = model.dense.no_such_attribute


@pytest.mark.parametrize("optimizer_scale, weight, bias", [
    (1.0, [-0.5714286, 0.1142857, 0.8, 1.4857143], 2.4),  # recorded from MindSpore 2.10: gradients stay scaled by 8
    (8.0, [-0.0714286, 0.0142857, 0.1, 0.1857143], 0.3),  # the optimizer's loss_scale divides them back
])
def test_fixed_manager_without_overflow_drop_leaves_the_optimizer_scale(optimizer_scale, weight, bias):
    net = nn.Dense(4, 1, weight_init="zeros", bias_init="zeros")
    optimizer = nn.SGD(net.trainable_params(), 0.1, loss_scale=optimizer_scale)
    step = build_train_network(net, optimizer, nn.MSELoss(), level="O0",
                               loss_scale_manager=FixedLossScaleManager(8.0, drop_overflow_update=False))
    loss = step(Tensor(np.linspace(-1, 1, 8).reshape(2, 4).astype(np.float32)),
                Tensor(np.array([[1.0], [2.0]], np.float32)))
    assert float(loss.asnumpy()) == 2.5 and optimizer.loss_scale == optimizer_scale
    np.testing.assert_allclose(net.weight.asnumpy(), [weight], rtol=1e-5)
    np.testing.assert_allclose(net.bias.asnumpy(), [bias], rtol=1e-5)


def test_update_cells_return_the_scale_as_given():
    # recorded from MindSpore 2.10: get_loss_scale returns the constructor's value unconverted
    assert repr(DynamicLossScaleUpdateCell(1024, 2, 10).get_loss_scale()) == "1024"
    assert repr(DynamicLossScaleUpdateCell(2.5, 2, 10).get_loss_scale()) == "2.5"
    assert repr(FixedLossScaleUpdateCell(64).get_loss_scale()) == "64"
    assert repr(DynamicLossScaleManager(2 ** 10, 2, 3).get_update_cell().get_loss_scale()) == "1024"
    with pytest.raises(TypeError, match="loss_scale_value"):
        FixedLossScaleUpdateCell("64")


def test_grad_scale_maps_of_the_loss_scaler_docstring():
    # MindSpore's LossScaler docstring writes a scaler with mindspore.amp's _grad_scale_map/_grad_unscale_map.
    # Recorded on MindSpore 2.10: each tensor scaled in its own dtype; a (mutable) tuple gives a tuple, a list a list.
    from sporax import Parameter, mutable
    from sporax.train.amp import _grad_scale_map, _grad_unscale_map
    ms = sporax
    scale = Parameter(Tensor(1024, dtype=ms.float32), name="scale_value")
    out = _grad_scale_map(scale, mutable((Tensor(np.array([1.5, 2.0], np.float32)), Tensor(np.array([3], np.float16)))))
    assert type(out) is tuple
    assert [(o.dtype, o.asnumpy().tolist()) for o in out] == [(ms.float32, [1536.0, 2048.0]), (ms.float16, [3072.0])]
    out = _grad_unscale_map(scale, (Tensor(np.array([1024., 3.0], np.float32)), Tensor(np.array([2048], np.float16))))
    assert [(o.dtype, o.asnumpy().tolist()) for o in out] == [(ms.float32, [1.0, 0.0029296875]), (ms.float16, [2.0])]
    assert type(_grad_unscale_map(scale, [Tensor(np.array([1.0], np.float32))])) is list


def test_o2_and_o3_wrappers_carry_mindspores_names():
    # MindSpore 2.10: O2/O3 return _OutputTo32 holding the network as '_backbone', O2's BatchNorm sits in an
    # _OutputTo16; parameter names (so checkpoint keys) are unchanged, their paths go through '_backbone'
    network = nn.SequentialCell([nn.Conv2d(1, 4, 3), nn.BatchNorm2d(4)])
    o2 = auto_mixed_precision(network, "O2")
    assert type(o2).__name__ == "_OutputTo32" and type(o2._backbone[1]).__name__ == "_OutputTo16"
    paths = [name for name, _ in o2.parameters_and_names()][:2]
    assert paths == ["_backbone.0.weight", "_backbone.1._backbone.moving_mean"]
    assert [p.name for p in o2.get_parameters()][:2] == ["0.weight", "1.moving_mean"]
    o3 = auto_mixed_precision(nn.SequentialCell([nn.Conv2d(1, 4, 3), nn.BatchNorm2d(4)]), "O3")
    assert type(o3).__name__ == "_OutputTo32" and type(o3._backbone[1]).__name__ == "BatchNorm2d"


@pytest.mark.parametrize("settings, message", [
    ({"amp_level": "O2"}, "Auto mixed precision will not work because 'optimizer' is None"),
    ({"amp_level": "auto"}, "Auto mixed precision will not work because 'optimizer' is None"),
    ({"loss_scale_manager": FixedLossScaleManager()}, "The argument 'optimizer' can not be None when set"),
])
def test_model_refuses_mixed_precision_without_an_optimizer(settings, message):
    with pytest.raises(ValueError, match=message):
        sporax.Model(nn.Dense(2, 2), nn.MSELoss(), **settings)


def test_cpu_trains_with_an_overflow_checking_loss_scale():
    # A sporax departure, on purpose: MindSpore 2.10's CPU build refuses a loss scale that checks for overflow
    # (O2's default dynamic scale, drop_overflow_update=True) when the train network is built; sporax checks
    # overflow on every device, so a script written for a GPU trains unchanged on a laptop CPU
    net = nn.SequentialCell([nn.Dense(3, 2), nn.BatchNorm1d(2)])
    model = sporax.Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.1, 0.9), amp_level="O2")
    assert type(model.train_network).__name__ == "TrainOneStepWithLossScaleCell"
    loss = model.train_network(Tensor(np.ones((4, 3), np.float32)), Tensor(np.zeros((4, 2), np.float32)))
    assert np.isfinite(np.asarray(loss[0].asnumpy(), np.float32)).all()


@pytest.mark.parametrize("level, options, built", [
    ("O2", {"loss_scale_manager": None}, "TrainOneStepCell"),  # recorded from MindSpore 2.10 on CPU
    ("O0", {"loss_scale_manager": FixedLossScaleManager(1024, False)}, "TrainOneStepCell"),
    ("O3", {}, "TrainOneStepCell")])
def test_cpu_model_builds_without_an_overflow_check(level, options, built, monkeypatch):
    monkeypatch.setitem(context._context, "device_target", "CPU")
    net = nn.Dense(3, 2)
    model = sporax.Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.1, 0.9), amp_level=level, **options)
    assert type(model.train_network).__name__ == built
