"""nn.InstanceNorm1d/2d/3d against NumPy; gradients against finite differences."""
import numpy as np
import pytest

import sporax as ms
from sporax import nn
from sporax.core import dtype as mstype

from tests.nn.helpers import check_gradient

RNG = np.random.default_rng(0)


def _reference(x, gamma, beta, eps=1e-5):
    axes = tuple(range(2, x.ndim))
    mean = x.mean(axis=axes, keepdims=True)
    var = x.var(axis=axes, keepdims=True)
    shape = (1, -1) + (1,) * (x.ndim - 2)
    return (x - mean) / np.sqrt(var + eps) * gamma.reshape(shape) + beta.reshape(shape)


@pytest.mark.parametrize("cls,shape", [(nn.InstanceNorm1d, (2, 3, 5)), (nn.InstanceNorm2d, (2, 3, 4, 5)),
                                       (nn.InstanceNorm3d, (2, 3, 2, 3, 4))])
def test_output_and_moving_statistics(cls, shape):
    x = RNG.random(shape).astype(np.float32)
    gamma = RNG.random(3).astype(np.float32)
    layer = cls(3, momentum=0.2, gamma_init=ms.Tensor(gamma), beta_init=0.5)
    assert [p.name for p in layer.get_parameters()] == ["mean", "variance", "gamma", "beta"]
    expected = _reference(x, gamma, np.full(3, 0.5, np.float32))
    np.testing.assert_allclose(layer(ms.Tensor(x)).asnumpy(), expected, rtol=1e-4, atol=1e-5)
    np.testing.assert_array_equal(layer.moving_mean.asnumpy(), np.zeros(3))  # evaluation: no update
    layer.set_train()
    np.testing.assert_allclose(layer(ms.Tensor(x)).asnumpy(), expected, rtol=1e-4, atol=1e-5)
    slices = x.reshape(2, 3, -1)
    np.testing.assert_allclose(layer.moving_mean.asnumpy(), 0.2 * slices.mean(axis=2).mean(axis=0), rtol=1e-5)
    np.testing.assert_allclose(layer.moving_variance.asnumpy(),
                               0.8 + 0.2 * slices.var(axis=2, ddof=1).mean(axis=0), rtol=1e-5)


def test_instance_bn_primitive_normalises_and_moves_the_statistics():
    # MindSpore 2.10 holds ops.operations.InstanceNorm(eps, momentum) as instance_bn (attrs recorded on CPU, where
    # it has no kernel); its GPU kernel returns cuDNN's per-slice mean and 1 / sqrt(variance + eps), (N * C,)
    layer = nn.InstanceNorm2d(3, eps=1e-3, momentum=0.2)
    primitive = layer.instance_bn
    assert repr(primitive) == "Prim[InstanceNorm]<epsilon=0.001, momentum=0.2, side_effect_mem=True>"
    assert primitive.input_names == ["x", "gamma", "beta", "mean", "variance"]
    x = RNG.random((2, 3, 4, 5)).astype(np.float32)
    y, save_mean, save_variance = primitive(ms.Tensor(x), layer.gamma, layer.beta, layer.moving_mean,
                                            layer.moving_variance)
    np.testing.assert_allclose(y.asnumpy(), _reference(x, np.ones(3), np.zeros(3), 1e-3), rtol=1e-4, atol=1e-5)
    slices = x.reshape(6, -1)
    np.testing.assert_allclose(save_mean.asnumpy(), slices.mean(1), rtol=1e-5)
    np.testing.assert_allclose(save_variance.asnumpy(), 1 / np.sqrt(slices.var(1) + 1e-3), rtol=1e-5)
    np.testing.assert_allclose(layer.moving_mean.asnumpy(), 0.2 * slices.mean(1).reshape(2, 3).mean(0), rtol=1e-5)
    np.testing.assert_allclose(layer.moving_variance.asnumpy(),
                               0.8 + 0.2 * slices.var(1, ddof=1).reshape(2, 3).mean(0), rtol=1e-5)
    with pytest.raises(TypeError, match="For 'InstanceNorm', the type of 'momentum' should be 'float'"):
        ms.ops.InstanceNorm(momentum=1)


def test_gradient_matches_finite_differences():
    layer = nn.InstanceNorm2d(2, gamma_init=ms.Tensor(np.array([1.5, -0.5])), beta_init="zeros",
                              dtype=mstype.float64)
    check_gradient(layer, RNG.standard_normal((2, 2, 3, 3)), [layer.gamma, layer.beta])


def test_errors():
    with pytest.raises(ValueError, match="4 dims"):
        nn.InstanceNorm2d(3)(ms.Tensor(np.ones((2, 3, 4), np.float32)))
    with pytest.raises(ValueError, match="momentum"):
        nn.InstanceNorm1d(3, momentum=1.5)
    with pytest.raises(TypeError, match="eps"):
        nn.InstanceNorm3d(3, eps=1)
