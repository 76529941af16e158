"""BatchNorm (train/eval, moving statistics), LayerNorm, GroupNorm vs MindSpore 2.10 and NumPy."""
import numpy as np
import pytest

from sporax import nn
from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor
from tests.nn.helpers import check_gradient, oracle_layers

ORACLE = oracle_layers()
RNG = np.random.default_rng(3)


def oracle_batch_norm():
    bn = nn.BatchNorm2d(3, momentum=0.8)
    bn.gamma.set_data(Tensor(ORACLE["bn/gamma"]))
    bn.beta.set_data(Tensor(ORACLE["bn/beta"]))
    bn.moving_mean.set_data(Tensor(ORACLE["bn/mean0"]))
    bn.moving_variance.set_data(Tensor(ORACLE["bn/var0"]))
    return bn


def test_batch_norm_train_then_eval_matches_mindspore():
    bn = oracle_batch_norm()
    x = Tensor(ORACLE["bn/x"])
    bn.set_train(True)
    np.testing.assert_allclose(bn(x).asnumpy(), ORACLE["bn/y_train"], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(bn.moving_mean.asnumpy(), ORACLE["bn/mean1"], rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(bn.moving_variance.asnumpy(), ORACLE["bn/var1"], rtol=1e-6, atol=1e-6)
    bn.set_train(False)
    trained_mean = bn.moving_mean.asnumpy()
    np.testing.assert_allclose(bn(x).asnumpy(), ORACLE["bn/y_eval"], rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(bn.moving_mean.asnumpy(), trained_mean)  # eval leaves them alone


def test_batch_norm_formula_against_numpy():
    x = RNG.standard_normal((5, 2, 3)).astype(np.float32) * 2 + 1
    bn = nn.BatchNorm1d(2, momentum=0.9, eps=1e-3)
    bn.set_train()
    output = bn(Tensor(x)).asnumpy()
    mean, biased = x.mean((0, 2)), x.var((0, 2))
    expected = (x - mean[None, :, None]) / np.sqrt(biased[None, :, None] + 1e-3)
    np.testing.assert_allclose(output, expected, rtol=1e-5, atol=1e-5)
    # moving = momentum * moving + (1 - momentum) * batch, with the unbiased batch variance
    np.testing.assert_allclose(bn.moving_mean.asnumpy(), 0.1 * mean, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(bn.moving_variance.asnumpy(), 0.9 + 0.1 * x.var((0, 2), ddof=1), rtol=1e-5)
    assert bn(Tensor(x[:, :, 0])).shape == (5, 2)


def test_use_batch_statistics_overrides_training():
    x = Tensor(RNG.standard_normal((4, 3, 2, 2)).astype(np.float32))
    always = nn.BatchNorm2d(3, use_batch_statistics=True)
    always(x)  # not training, still batch statistics and a moving update
    assert np.abs(always.moving_mean.asnumpy()).max() > 0
    never = nn.BatchNorm2d(3, use_batch_statistics=False).set_train()
    np.testing.assert_allclose(never(x).asnumpy(), x.asnumpy() / np.sqrt(1 + 1e-5), rtol=1e-6)
    np.testing.assert_array_equal(never.moving_mean.asnumpy(), np.zeros(3))


def test_batch_norm_parameters_dtypes_and_repr():
    bn = nn.BatchNorm2d(3)
    assert [(p.name, p.requires_grad) for p in bn.get_parameters()] == [
        ("mean", False), ("variance", False), ("gamma", True), ("beta", True)]
    assert repr(bn) == (
        "BatchNorm2d(num_features=3, eps=1e-05, momentum=0.9, "
        "gamma=Parameter (name=gamma, shape=(3,), dtype=Float32, requires_grad=True), "
        "beta=Parameter (name=beta, shape=(3,), dtype=Float32, requires_grad=True), "
        "moving_mean=Parameter (name=mean, shape=(3,), dtype=Float32, requires_grad=False), "
        "moving_variance=Parameter (name=variance, shape=(3,), dtype=Float32, requires_grad=False))")
    assert not nn.BatchNorm2d(3, affine=False).gamma.requires_grad
    half = nn.BatchNorm2d(3, momentum=0.5).set_train()
    output = half(Tensor(np.ones((2, 3, 2, 2), np.float16)))
    assert output.dtype == mstype.float16 and half.moving_mean.dtype == mstype.float32


def test_batch_norm_errors():
    with pytest.raises(ValueError, match="4 dims"):
        nn.BatchNorm2d(3)(Tensor(np.ones((2, 3), np.float32)))
    with pytest.raises(ValueError, match="2 dims or 3 dims"):
        nn.BatchNorm1d(3)(Tensor(np.ones((2, 3, 2, 2), np.float32)))
    with pytest.raises(ValueError, match="momentum"):
        nn.BatchNorm2d(3, momentum=1.5)
    with pytest.raises(ValueError, match="channels"):
        nn.BatchNorm2d(3)(Tensor(np.ones((2, 4, 2, 2), np.float32)))


def test_layer_norm_and_group_norm_match_mindspore():
    ln = nn.LayerNorm((3, 4), begin_norm_axis=1, begin_params_axis=1)
    ln.gamma.set_data(Tensor(ORACLE["ln/gamma"]))
    ln.beta.set_data(Tensor(ORACLE["ln/beta"]))
    np.testing.assert_allclose(ln(Tensor(ORACLE["ln/x"])).asnumpy(), ORACLE["ln/y"], rtol=1e-5, atol=1e-5)
    gn = nn.GroupNorm(2, 4)
    gn.gamma.set_data(Tensor(ORACLE["gn/gamma"]))
    gn.beta.set_data(Tensor(ORACLE["gn/beta"]))
    np.testing.assert_allclose(gn(Tensor(ORACLE["gn/x"])).asnumpy(), ORACLE["gn/y"], rtol=1e-5, atol=1e-5)


def test_layer_norm_and_group_norm_against_numpy():
    x = RNG.standard_normal((2, 3, 4)).astype(np.float32)
    normalised = (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + 1e-7)
    np.testing.assert_allclose(nn.LayerNorm((4,))(Tensor(x)).asnumpy(), normalised, rtol=1e-5, atol=1e-5)
    x = RNG.standard_normal((2, 6, 5)).astype(np.float32)
    grouped = x.reshape(2, 3, 10)
    expected = ((grouped - grouped.mean(-1, keepdims=True)) / np.sqrt(grouped.var(-1, keepdims=True) + 1e-5))
    np.testing.assert_allclose(nn.GroupNorm(3, 6)(Tensor(x)).asnumpy(), expected.reshape(x.shape), rtol=1e-5,
                               atol=1e-5)


def test_norm_reprs_and_errors():
    assert repr(nn.LayerNorm((4,))) == (
        "LayerNorm(normalized_shape=(4,), begin_norm_axis=-1, begin_params_axis=-1, "
        "gammaParameter (name=gamma, shape=(4,), dtype=Float32, requires_grad=True), "
        "beta=Parameter (name=beta, shape=(4,), dtype=Float32, requires_grad=True))")
    assert repr(nn.GroupNorm(2, 4)) == "GroupNorm(num_groups=2, num_channels=4)"
    assert [p.requires_grad for p in nn.GroupNorm(2, 4, affine=False).get_parameters()] == [False, False]
    with pytest.raises(ValueError, match="divided"):
        nn.GroupNorm(3, 4)
    with pytest.raises(TypeError, match="normalized_shape"):
        nn.LayerNorm(4)


@pytest.mark.parametrize("make, shape, train", [
    (lambda: nn.BatchNorm2d(2, dtype=mstype.float64), (3, 2, 2, 2), True),
    (lambda: nn.BatchNorm2d(2, dtype=mstype.float64), (3, 2, 2, 2), False),
    (lambda: nn.LayerNorm((3,), gamma_init="normal", dtype=mstype.float64), (2, 3), False),
    (lambda: nn.GroupNorm(2, 4, gamma_init="normal", dtype=mstype.float64), (2, 4, 3), False),
])
def test_gradients_match_finite_differences(make, shape, train):
    layer = make().set_train(train)
    x = np.random.default_rng(4).standard_normal(shape)
    before = [p.asnumpy() for p in layer.get_parameters()]
    check_gradient(layer, x, [layer.gamma, layer.beta])
    for parameter, value in zip(layer.get_parameters(), before):
        np.testing.assert_array_equal(parameter.asnumpy(), value)


def test_batch_norm_data_format_refusals_match_mindspore_on_cpu():
    # MindSpore 2.10 on CPU: "the 'NHWC' format only support in GPU target" (ValueError); unknown formats: ValueError.
    with pytest.raises(ValueError, match="'NHWC' format is only supported on the GPU target"):
        nn.BatchNorm2d(3, data_format="NHWC")
    with pytest.raises(ValueError, match=r"must be in '\['NCHW', 'NHWC'\]'"):
        nn.BatchNorm2d(3, data_format="NCWH")


def test_batchnorm_momentum_attribute_is_the_new_statistics_weight():
    # recorded from MindSpore 2.10: the attribute is 1 - momentum (BatchNorm's primitive convention), the repr
    # shows the constructed value
    bn = nn.BatchNorm2d(3, momentum=0.8)
    assert bn.momentum == 1.0 - 0.8 and repr(bn.momentum) == "0.19999999999999996"
    assert "momentum=0.8," in repr(bn)
    assert nn.BatchNorm1d(3, momentum=0.7).momentum == 0.30000000000000004
    # MindSpore builds its BatchNorm primitive at construction: setting the attribute later leaves the update
    bn = nn.BatchNorm1d(2).set_train()
    bn.momentum = 1.0
    bn(Tensor(np.array([[1.0, 2.0], [3.0, 6.0]], np.float32)))
    np.testing.assert_allclose(bn.moving_mean.asnumpy(), [0.2, 0.4], rtol=1e-6)
