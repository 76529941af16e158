"""Conv2d and BatchNorm2d with data_format='NHWC', MindSpore's GPU layout: the same values as the NCHW
layers on transposed inputs and weights. The layout is only accepted on a GPU target (MindSpore's CPU build
refuses it, tests/nn/test_norm.py and test_conv.py); here the target is set to 'GPU' while the arrays stay
on the CPU, since the layout's arithmetic does not depend on the device."""
import numpy as np
import pytest

import sporax as ms
from sporax import nn
from sporax.core import context


@pytest.fixture
def gpu_target(monkeypatch):
    monkeypatch.setitem(context._context, "device_target", "GPU")


@pytest.mark.parametrize("pad_mode, stride, group", [("same", 1, 1), ("valid", 2, 1), ("pad", 1, 2)])
def test_conv2d_nhwc_equals_nchw_on_transposed_arrays(gpu_target, pad_mode, stride, group):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 7, 6, 4)).astype(np.float32)
    nhwc = nn.Conv2d(4, 6, 3, stride=stride, pad_mode=pad_mode, padding=1 if pad_mode == "pad" else 0,
                     group=group, has_bias=True, data_format="NHWC")
    assert nhwc.weight.shape == (6, 3, 3, 4 // group)  # (out, kh, kw, in / group), as MindSpore's GPU layout
    nchw = nn.Conv2d(4, 6, 3, stride=stride, pad_mode=pad_mode, padding=1 if pad_mode == "pad" else 0,
                     group=group, has_bias=True, weight_init=ms.Tensor(nhwc.weight.asnumpy().transpose(0, 3, 1, 2)),
                     bias_init=ms.Tensor(nhwc.bias.asnumpy()))
    expected = nchw(ms.Tensor(x.transpose(0, 3, 1, 2))).asnumpy().transpose(0, 2, 3, 1)
    np.testing.assert_allclose(nhwc(ms.Tensor(x)).asnumpy(), expected, rtol=1e-5, atol=1e-5)


def test_conv2d_nhwc_checks_the_channel_axis(gpu_target):
    conv = nn.Conv2d(4, 6, 3, data_format="NHWC")
    with pytest.raises(ValueError, match=r"data_format='NHWC' takes an input of shape \(N, H, W, 4\)"):
        conv(ms.Tensor(np.ones((1, 4, 5, 5), np.float32)))


def test_batchnorm2d_nhwc_normalises_the_last_axis_and_trains(gpu_target):
    rng = np.random.default_rng(1)
    x = rng.standard_normal((3, 4, 5, 6)).astype(np.float32) * 2 + 1
    norm = nn.BatchNorm2d(6, momentum=0.9, data_format="NHWC")
    norm.set_train()
    out = norm(ms.Tensor(x)).asnumpy()
    mean, variance = x.mean(axis=(0, 1, 2)), x.var(axis=(0, 1, 2))
    np.testing.assert_allclose(out, (x - mean) / np.sqrt(variance + 1e-5), rtol=1e-4, atol=1e-5)
    # MindSpore's moving statistics: momentum * old + (1 - momentum) * batch (unbiased variance).
    np.testing.assert_allclose(norm.moving_mean.asnumpy(), 0.1 * mean, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(norm.moving_variance.asnumpy(), 0.9 + 0.1 * x.var(axis=(0, 1, 2), ddof=1),
                               rtol=1e-5)


def test_nhwc_network_gradients_equal_the_nchw_networks(gpu_target):
    rng = np.random.default_rng(2)
    x = rng.standard_normal((2, 8, 8, 3)).astype(np.float32)
    conv = nn.Conv2d(3, 4, 3, has_bias=True, data_format="NHWC")
    reference = nn.Conv2d(3, 4, 3, has_bias=True, weight_init=ms.Tensor(conv.weight.asnumpy().transpose(0, 3, 1, 2)),
                          bias_init=ms.Tensor(conv.bias.asnumpy()))
    gradient = ms.grad(lambda t: (conv(t) ** 2).sum(), grad_position=None, weights=conv.trainable_params())
    reference_gradient = ms.grad(lambda t: (reference(t) ** 2).sum(), grad_position=None,
                                 weights=reference.trainable_params())
    weight_grad, bias_grad = gradient(ms.Tensor(x))
    reference_weight, reference_bias = reference_gradient(ms.Tensor(x.transpose(0, 3, 1, 2)))
    np.testing.assert_allclose(weight_grad.asnumpy().transpose(0, 3, 1, 2), reference_weight.asnumpy(), rtol=1e-4,
                               atol=1e-4)
    np.testing.assert_allclose(bias_grad.asnumpy(), reference_bias.asnumpy(), rtol=1e-4, atol=1e-4)


def test_a_gpu_script_keeps_its_nhwc_layers_on_the_cpu_fallback(monkeypatch):
    # set_context(device_target='GPU') where JAX has no GPU runs on the CPU (with a warning); the script's
    # NHWC layers still build and compute their GPU layout there. Without the GPU request NHWC stays refused.
    monkeypatch.setitem(context._context, "device_target", "CPU")
    monkeypatch.setitem(context._requested, "device_target", "GPU")
    x = np.random.default_rng(3).standard_normal((1, 6, 6, 4)).astype(np.float32)
    conv = nn.Conv2d(4, 2, 3, pad_mode="same", data_format="NHWC")
    reference = nn.Conv2d(4, 2, 3, pad_mode="same", weight_init=ms.Tensor(conv.weight.asnumpy().transpose(0, 3, 1, 2)))
    expected = reference(ms.Tensor(x.transpose(0, 3, 1, 2))).asnumpy().transpose(0, 2, 3, 1)
    np.testing.assert_allclose(conv(ms.Tensor(x)).asnumpy(), expected, rtol=1e-5, atol=1e-5)
    monkeypatch.setitem(context._requested, "device_target", "CPU")
    with pytest.raises(ValueError, match="the 'NHWC' format is only supported on the GPU target"):
        nn.Conv2d(4, 2, 3, data_format="NHWC")
