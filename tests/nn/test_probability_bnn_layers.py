"""nn.probability.bnn_layers: Parameter names and shapes, output shapes, the KL loss (closed form and MindSpore
2.10's value for fixed Parameters), WithBNNLossCell's weighting, the errors, and a Bayesian LeNet-style train step
in PyNative and GRAPH mode. Outputs are random samples, so only their shapes and statistics are checked."""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn
from sporax.nn.probability import bnn_layers

# Recorded with MindSpore 2.10 (names of trainable_params() and their shapes).
DENSE_PARAMETERS = [("weight_posterior.mean", (2, 3)), ("weight_posterior.untransformed_std", (2, 3)),
                    ("bias_posterior.mean", (2,)), ("bias_posterior.untransformed_std", (2,))]
CONV_PARAMETERS = [("weight_posterior.mean", (4, 2, 3, 2)), ("weight_posterior.untransformed_std", (4, 2, 3, 2)),
                   ("bias_posterior.mean", (4,)), ("bias_posterior.untransformed_std", (4,))]
# MindSpore 2.10's compute_kl_loss() after _fix_parameters (float32).
DENSE_KL, CONV_KL = 319.41025, 876.03253


def _named_shapes(cell):
    return [(p.name, tuple(p.shape)) for p in cell.trainable_params()]


def _fix_parameters(cell):
    """Means linspace(-0.3, 0.4), untransformed standard deviations linspace(-4, -1), as in the recording."""
    for parameter in cell.trainable_params():
        size, shape = int(np.prod(parameter.shape)), tuple(parameter.shape)
        low, high = (-0.3, 0.4) if parameter.name.endswith("mean") else (-4.0, -1.0)
        parameter.set_data(Tensor(np.linspace(low, high, size).reshape(shape).astype(np.float32)))


def _closed_form_kl(layer):
    """Sum of KL(N(0, 0.1) || N(mean, 1e-6 + softplus(u))) over the layer's posteriors' elements, in float64."""
    total = 0.0
    for posterior in (layer.weight_posterior, getattr(layer, "bias_posterior", None)):
        if posterior is not None:
            mean = posterior.mean.asnumpy().astype(np.float64)
            sd = 1e-6 + np.log1p(np.exp(posterior.untransformed_std.asnumpy().astype(np.float64)))
            total += np.sum(np.log(sd / 0.1) + (0.1 ** 2 + mean ** 2) / (2 * sd ** 2) - 0.5)
    return total


def test_dense_parameters_outputs_and_kl_match_mindspore():
    layer = bnn_layers.DenseReparam(3, 2)
    assert _named_shapes(layer) == DENSE_PARAMETERS
    local = bnn_layers.DenseLocalReparam(3, 2, activation="relu", has_bias=False)
    assert _named_shapes(local) == DENSE_PARAMETERS[:2]
    x = Tensor(np.ones((5, 3), np.float32))
    output = layer(x)
    assert output.shape == (5, 2) and output.dtype == ms.float32
    assert local(x).shape == (5, 2) and bool((local(x).asnumpy() >= 0).all())  # relu applied
    _fix_parameters(layer)
    kl = layer.compute_kl_loss()
    assert kl.shape == ()
    np.testing.assert_allclose(float(kl.asnumpy()), _closed_form_kl(layer), rtol=1e-5)
    np.testing.assert_allclose(float(kl.asnumpy()), DENSE_KL, rtol=1e-5)


def test_conv_parameters_outputs_and_kl_match_mindspore():
    layer = bnn_layers.ConvReparam(2, 4, (3, 2), pad_mode="valid", has_bias=True)
    assert _named_shapes(layer) == CONV_PARAMETERS
    # Conv2d's own weight and bias are kept, frozen, as in MindSpore.
    assert [(p.name, p.requires_grad) for p in layer.get_parameters()][:2] == [("weight", False), ("bias", False)]
    assert layer(Tensor(np.ones((1, 2, 6, 6), np.float32))).shape == (1, 4, 4, 5)
    same = bnn_layers.ConvReparam(2, 4, 3)
    assert _named_shapes(same) == [("weight_posterior.mean", (4, 2, 3, 3)),
                                   ("weight_posterior.untransformed_std", (4, 2, 3, 3))]
    assert same(Tensor(np.ones((1, 2, 6, 6), np.float32))).shape == (1, 4, 6, 6)
    _fix_parameters(layer)
    kl = float(layer.compute_kl_loss().asnumpy())
    np.testing.assert_allclose(kl, _closed_form_kl(layer), rtol=1e-5)
    np.testing.assert_allclose(kl, CONV_KL, rtol=1e-5)


def test_samples_follow_the_posterior():
    """With x = one-hot rows, DenseReparam's outputs are weight samples: their mean and standard deviation over
    many calls are the posterior's (1e-6 + softplus(u))."""
    ms.set_seed(3)
    layer = bnn_layers.DenseLocalReparam(2, 1, has_bias=False)
    layer.weight_posterior.mean.set_data(Tensor(np.array([[0.5, -1.0]], np.float32)))
    layer.weight_posterior.untransformed_std.set_data(Tensor(np.array([[0.0, -1.0]], np.float32)))
    x = Tensor(np.tile(np.eye(2, dtype=np.float32), (2000, 1)))
    samples = layer(x).asnumpy().reshape(2000, 2)
    np.testing.assert_allclose(samples.mean(0), [0.5, -1.0], atol=0.06)
    np.testing.assert_allclose(samples.std(0), 1e-6 + np.log1p(np.exp([0.0, -1.0])), rtol=0.08)


def test_priors_and_posteriors():
    prior = bnn_layers.NormalPrior(mean=1, std=0.5)
    assert float(prior("mean").asnumpy()) == 1.0 and float(prior("sd").asnumpy()) == 0.5
    posterior = bnn_layers.NormalPosterior("w", [2, 3])
    assert _named_shapes(posterior) == [("w_mean", (2, 3)), ("w_untransformed_std", (2, 3))]
    assert posterior("get_dist_type") == "Normal"
    mean, sd = posterior("get_dist_args")  # the trainable mean and the transformed standard deviation
    np.testing.assert_array_equal(mean.asnumpy(), posterior.mean.asnumpy())
    np.testing.assert_array_equal(sd.asnumpy(), posterior("sd").asnumpy())
    with pytest.raises(TypeError, match="'get_dist_args' got an unknown parameter 'scale'"):
        posterior.normal("get_dist_args", scale=sd)
    untransformed = posterior.untransformed_std.asnumpy()
    np.testing.assert_allclose(posterior("sd").asnumpy(), 1e-6 + np.log1p(np.exp(untransformed)), rtol=1e-5)
    # The default initializers: means ~ N(0, 0.1), untransformed standard deviations ~ N(-5, 0.1).
    assert abs(float(untransformed.mean()) + 5) < 0.3


@pytest.mark.parametrize("make, error, message", [
    (lambda: bnn_layers.NormalPosterior(1, [2]), TypeError, "The type of `name` must be `str`"),
    (lambda: bnn_layers.NormalPosterior("a", 2), TypeError, "The type of `shape` must be `tuple` or `list`"),
    (lambda: bnn_layers.NormalPosterior("a", [2], loc_mean=True), TypeError, "`loc_mean` must be `int` or `float`"),
    (lambda: bnn_layers.NormalPosterior("a", [2], untransformed_scale_mean="x"), TypeError,
     "`untransformed_scale_mean` must be `int` or `float`"),
    (lambda: bnn_layers.NormalPosterior("a", [2], loc_std=-1), TypeError, "`loc_std` must be `int` or `float` and"),
    (lambda: bnn_layers.NormalPosterior("a", [2], untransformed_scale_std=-1), TypeError,
     "`untransformed_scale_std` must be `int` or `float` and"),
    (lambda: bnn_layers.DenseReparam(0, 2), ValueError, "'in_channels'"),
    (lambda: bnn_layers.DenseReparam(1.5, 2), TypeError, "'in_channels'"),
    (lambda: bnn_layers.DenseReparam(1, 2, has_bias=1), TypeError, "'has_bias'"),
    (lambda: bnn_layers.DenseReparam(1, 2, activation=3), ValueError, "The type of `activation` is wrong."),
    (lambda: bnn_layers.DenseReparam(1, 2, activation="nonexist"), KeyError, "nonexist"),
    (lambda: bnn_layers.DenseReparam(1, 2, weight_posterior_fn=lambda: 1), TypeError,
     "The type of `weight_posterior_fn` must be `NormalPosterior`"),
    (lambda: bnn_layers.DenseReparam(1, 2, bias_prior_fn=nn.SequentialCell([nn.ReLU()])), TypeError,
     "The type of distribution of `bias_prior_fn` must be `normal`"),
    (lambda: bnn_layers.ConvReparam(1, 2, 3, pad_mode="zzz"), ValueError,
     "Attr 'pad_mode' of 'Conv2d' Op passed zzz, should be one of values in 'valid', 'same', 'pad'."),
    (lambda: bnn_layers.ConvReparam(3, 2, 3, group=2), ValueError,
     "For 'ConvReparam', the attr 'in_channels' must be divisible by attr 'group'"),
    (lambda: bnn_layers.ConvReparam(1, 2, 0), ValueError, "For 'ConvReparam', the 'kernel_size'"),
    (lambda: bnn_layers.ConvReparam(1, 2, 3, stride=(1, 0)), ValueError, "For 'ConvReparam', the 'stride'"),
    (lambda: bnn_layers.WithBNNLossCell(nn.ReLU(), nn.MSELoss(), dnn_factor="a"), TypeError,
     "The type of `dnn_factor` must be `int` or `float`"),
    (lambda: bnn_layers.WithBNNLossCell(nn.ReLU(), nn.MSELoss(), dnn_factor=-1), ValueError,
     "The value of `dnn_factor` should >= 0"),
    (lambda: bnn_layers.WithBNNLossCell(nn.ReLU(), nn.MSELoss(), bnn_factor=True), TypeError,
     "The type of `bnn_factor` must be `int` or `float`"),
    (lambda: bnn_layers.WithBNNLossCell(nn.ReLU(), nn.MSELoss(), bnn_factor=-0.5), ValueError,
     "The value of `bnn_factor` must >= 0"),
])
def test_bad_arguments_raise_mindspores_errors(make, error, message):
    with pytest.raises(error) as raised:
        make()
    assert message in str(raised.value)


class _BayesianLeNet(nn.Cell):
    """A tiny Bayesian LeNet: ConvReparam, pooling, DenseLocalReparam, DenseReparam. (DenseLocalReparam's
    sqrt(x**2 @ sd**2) has an infinite gradient on an all-zero input row, as in MindSpore: it is not put after a
    relu here.)"""

    def __init__(self):
        super().__init__()
        self.conv = bnn_layers.ConvReparam(1, 2, 3, pad_mode="valid")
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()
        self.hidden = bnn_layers.DenseLocalReparam(8, 6, activation="relu")
        self.out = bnn_layers.DenseReparam(6, 3)

    def construct(self, x):
        return self.out(self.hidden(self.flatten(self.pool(self.conv(x)))))


def _dense_network():
    """Bayesian layers nested one Cell deep, so that WithBNNLossCell has to walk the sub-Cells."""
    return nn.SequentialCell([nn.SequentialCell([bnn_layers.DenseLocalReparam(4, 5, activation="relu")]),
                              bnn_layers.DenseReparam(5, 3)])


def test_with_bnn_loss_cell_weighs_backbone_and_kl_losses():
    network = _dense_network()
    layers = (network[0][0], network[1])
    for layer in layers:
        _fix_parameters(layer)
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    with_loss = bnn_layers.WithBNNLossCell(network, loss_fn, dnn_factor=0, bnn_factor=0.5)
    assert with_loss.backbone_network is network and len(with_loss.kl_loss) == 2
    assert [p.name for p in with_loss.trainable_params()] == [p.name for p in network.trainable_params()]
    x, label = Tensor(np.ones((2, 4), np.float32)), Tensor(np.array([0, 2], np.int32))
    kl = sum(_closed_form_kl(layer) for layer in layers)
    np.testing.assert_allclose(float(with_loss(x, label).asnumpy()), 0.5 * kl, rtol=1e-5)
    # dnn_factor weighs the backbone's loss: with bnn_factor 0 the loss is a positive cross entropy.
    backbone_only = bnn_layers.WithBNNLossCell(network, loss_fn, dnn_factor=2, bnn_factor=0)
    assert 0 < float(backbone_only(x, label).asnumpy()) < 0.5 * kl


def _train(network, x, label, steps):
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    with_loss = bnn_layers.WithBNNLossCell(network, loss_fn, dnn_factor=1, bnn_factor=1e-3)
    train = nn.TrainOneStepCell(with_loss, nn.Adam(network.trainable_params(), learning_rate=0.05))
    losses = [float(train(x, label).asnumpy()) for _ in range(steps)]
    assert np.isfinite(losses).all()
    assert np.mean(losses[-3:]) < np.mean(losses[:3])


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_dense_bayesian_train_step_lowers_the_loss(mode):
    ms.set_seed(1)
    ms.set_context(mode=mode)
    try:
        x = Tensor(np.random.default_rng(0).normal(size=(6, 4)).astype(np.float32))
        _train(_dense_network(), x, Tensor(np.array([0, 1, 2, 0, 1, 2], np.int32)), 10)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


@pytest.mark.slow
@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_bayesian_lenet_train_step_lowers_the_loss(mode):
    ms.set_seed(1)
    ms.set_context(mode=mode)
    try:
        x = Tensor(np.random.default_rng(0).normal(size=(4, 1, 6, 6)).astype(np.float32))
        _train(_BayesianLeNet(), x, Tensor(np.array([0, 1, 2, 0], np.int32)), 12)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
