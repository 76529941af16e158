"""The depthwise convolution as shifted, scaled copies equals XLA's grouped convolution in value and
derivatives (reverse, second order, forward mode, finite differences); the switch takes it for
float32 one-group-per-channel convolutions on CPU only."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax

import sporax
from sporax import nn
from sporax.ops.lowering import depthwise_cpu, plain_lowering
from tests.ops.lowering.helpers import assert_close, assert_fast_matches_plain, random_pair
from tests.ops.lowering.helpers import assert_weight_gradient_matches_finite_differences

CASES = [  # (input shape, weight shape, strides, pads)
    ((2, 8, 8, 8), (8, 1, 3, 3), (1, 1), ((1, 1), (1, 1))),  # MobileNet 3x3
    ((2, 6, 9, 9), (6, 1, 3, 3), (2, 2), ((1, 1), (1, 1))),  # strided, odd size
    ((1, 5, 11, 11), (5, 1, 5, 5), (2, 2), ((2, 2), (2, 2))),  # 5x5 stride 2 (mobilenet_v3): rows summed in a loop
    ((1, 4, 7, 10), (4, 1, 2, 4), (1, 3), ((2, 0), (1, 3))),  # non-square kernel, uneven pads
    ((1, 3, 9, 8), (3, 1, 7, 7), (2, 1), ((3, 3), (3, 3))),  # 7x7 (ConvNeXt), strided rows
]


def _plain(x, w, strides, pads):
    return lax.conv_general_dilated(x, w, strides, pads, dimension_numbers=("NCHW", "OIHW", "NCHW"),
                                    feature_group_count=x.shape[1])


@pytest.mark.parametrize("x_shape, w_shape, strides, pads", CASES)
def test_value_and_gradients_match_xla(x_shape, w_shape, strides, pads):
    x, w = random_pair(x_shape, w_shape)
    assert depthwise_cpu.applies(x, w, strides, pads, None, x_shape[1], None)
    out_shape = jax.eval_shape(lambda x, w: _plain(x, w, strides, pads), x, w).shape
    cotangent = jnp.asarray(np.random.default_rng(1).standard_normal(out_shape), jnp.float32)

    @jax.jit  # one program: run eagerly, each operation of the pullbacks (one per tap) would compile on its own
    def values_and_gradients(x, w, cotangent):
        results = []
        for conv in (depthwise_cpu.conv_depthwise, _plain):
            value, pullback = jax.vjp(lambda x, w: conv(x, w, strides, pads), x, w)
            results.append((value, pullback(cotangent)))
        return results

    (got, got_grads), (expected, expected_grads) = values_and_gradients(x, w, cotangent)
    assert got.shape == expected.shape
    assert_close(got, expected)
    for got_grad, expected_grad in zip(got_grads, expected_grads):
        assert_close(got_grad, expected_grad)


@pytest.mark.slow
@pytest.mark.parametrize("kernel", [3, 7])  # 7: the row loop
def test_second_order_and_forward_mode_match_xla(kernel):
    x, w = random_pair((2, 4, 6, 6), (4, 1, kernel, kernel))
    strides, pads = (2, 2), ((kernel // 2,) * 2,) * 2

    def second(conv):  # d/dw of a gradient norm: reverse over reverse through both arguments
        def norm(w):
            gx = jax.grad(lambda x: jnp.sum(jnp.sin(conv(x, w, strides, pads))))(x)
            return jnp.sum(gx ** 2)
        return jax.grad(norm)(w)
    assert_close(second(depthwise_cpu.conv_depthwise), second(_plain))
    tangents = random_pair((2, 4, 6, 6), (4, 1, kernel, kernel), seed=3)
    got = jax.jvp(lambda x, w: depthwise_cpu.conv_depthwise(x, w, strides, pads), (x, w), tangents)
    expected = jax.jvp(lambda x, w: _plain(x, w, strides, pads), (x, w), tangents)
    for got_part, expected_part in zip(got, expected):
        assert_close(got_part, expected_part)


def test_row_loop_gives_the_unrolled_value_bit_for_bit(monkeypatch):
    """7 x 7 taps summed row by row in a loop (a short program to compile) add in the unrolled order."""
    x, w = random_pair((2, 3, 10, 9), (3, 1, 7, 7))
    strides, pads = (1, 2), ((3, 3), (2, 4))

    def traced():  # a new function each time: JAX caches traces per function
        def conv(x, w):
            return depthwise_cpu.conv_depthwise(x, w, strides, pads)
        return str(jax.make_jaxpr(conv)(x, w)), np.asarray(jax.jit(conv)(x, w))
    looped, got = traced()
    monkeypatch.setattr(depthwise_cpu, "MAX_UNROLLED_TAPS", 49)
    unrolled, expected = traced()
    assert " scan[" in looped and " scan[" not in unrolled  # rows 1-6 in the loop
    np.testing.assert_array_equal(got, expected)


def test_weight_gradient_matches_finite_differences():
    x, w = random_pair((2, 3, 5, 5), (3, 1, 3, 3))
    assert_weight_gradient_matches_finite_differences(depthwise_cpu.conv_depthwise, x, w, "nchw,cihw->nc")


def test_applies_only_to_one_group_per_channel_float32_convolutions():
    x, w = random_pair((1, 8, 8, 8), (8, 1, 3, 3))
    pads = ((1, 1), (1, 1))
    assert depthwise_cpu.applies(x, w, (2, 2), pads, (1, 1), 8, None)
    assert not depthwise_cpu.applies(x, w, (1, 1), pads, (2, 2), 8, None)  # dilated
    assert not depthwise_cpu.applies(x, w, (1, 1), pads, None, 8, (2, 2))  # transposed (input dilation)
    assert not depthwise_cpu.applies(x.astype(jnp.float16), w.astype(jnp.float16), (1, 1), pads, None, 8, None)
    grouped, grouped_w = random_pair((1, 8, 8, 8), (8, 2, 3, 3))
    assert not depthwise_cpu.applies(grouped, grouped_w, (1, 1), pads, None, 4, None)  # two channels per group
    multiplier, multiplier_w = random_pair((1, 8, 8, 8), (16, 1, 3, 3))
    assert not depthwise_cpu.applies(multiplier, multiplier_w, (1, 1), pads, None, 8, None)  # channel multiplier
    nine, nine_w = random_pair((1, 8, 16, 16), (8, 1, 9, 9))
    assert depthwise_cpu.applies(nine, nine_w, (1, 1), ((4, 4), (4, 4)), None, 8, None)  # 81 taps (mixnet)
    wide, wide_w = random_pair((1, 8, 16, 16), (8, 1, 11, 11))
    assert not depthwise_cpu.applies(wide, wide_w, (1, 1), ((5, 5), (5, 5)), None, 8, None)  # 121 taps


def _program(x, w):
    from sporax.ops.functional.convolution import _convolve
    return str(jax.make_jaxpr(lambda x, w: _convolve(x, w, (1, 1), "SAME", (1, 1), x.shape[1]))(x, w))


def test_taken_on_cpu_only_when_allowed():
    x, w = random_pair((2, 8, 9, 9), (8, 1, 3, 3))
    assert ("conv_general_dilated" not in _program(x, w)) == (jax.default_backend() == "cpu")
    with plain_lowering():
        assert "conv_general_dilated" in _program(x, w)


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["PYNATIVE_MODE", "GRAPH_MODE"])
def test_mobilenet_block_cells_match_plain_lowering(mode):
    x = sporax.Tensor(np.random.default_rng(7).standard_normal((2, 8, 9, 9)).astype(np.float32))

    def build_loss():
        net = nn.SequentialCell([nn.Conv2d(8, 8, 3, stride=2, pad_mode="pad", padding=1, group=8), nn.BatchNorm2d(8),
                                 nn.ReLU(), nn.Conv2d(8, 8, 5, pad_mode="same", group=8, has_bias=True)])
        return (lambda x: net(x).square().mean()), net.trainable_params()
    assert_fast_matches_plain(mode, build_loss, (x,))
