"""The NHWC convolution with materialized backward operands equals XLA's convolution in value and
reverse-mode derivatives; the switch takes it for wide float32 convolutions on CPU only."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax

import sporax
from sporax import nn
from sporax.ops.lowering import conv_nhwc_cpu, plain_lowering
from tests.ops.lowering.helpers import (assert_close, assert_fast_matches_plain, convolution_kernel, random_pair,
                                        same_padding_program)
from tests.ops.lowering.helpers import assert_weight_gradient_matches_finite_differences

CASES = [  # (input shape, weight shape, strides, pads)
    ((2, 16, 8, 8), (24, 16, 3, 3), (1, 1), ((1, 1), (1, 1))),  # ResNet 3x3
    ((2, 16, 9, 9), (32, 16, 3, 3), (2, 2), ((1, 1), (1, 1))),  # strided, odd size
    ((3, 20, 8, 8), (8, 20, 1, 1), (2, 2), ((0, 0), (0, 0))),  # 1x1 shortcut
    ((1, 16, 7, 10), (5, 16, 2, 4), (1, 3), ((2, 0), (1, 3))),  # non-square kernel, uneven pads
]

pytestmark = pytest.mark.usefixtures(convolution_kernel.__name__)

# XLA's results (the plain form), kept by case: each test runs with both kernels (``convolution_kernel``),
# and XLA's form does not depend on which one (the fixture clears JAX's caches, so a second run would
# compile the same plain program again).
_PLAIN_RESULTS = {}
_PLAIN_BLOCKS = {}  # test_resnet_block_cells_match_plain_lowering's, by mode


def _plain(x, w, strides, pads):
    return lax.conv_general_dilated(x, w, strides, pads, dimension_numbers=("NCHW", "OIHW", "NCHW"))


def _once(key, compute):
    """``compute()`` the first time ``key`` is asked for, its kept result afterwards."""
    if key not in _PLAIN_RESULTS:
        _PLAIN_RESULTS[key] = compute()
    return _PLAIN_RESULTS[key]


@pytest.mark.parametrize("x_shape, w_shape, strides, pads", CASES)
def test_value_and_gradients_match_xla(x_shape, w_shape, strides, pads):
    x, w = random_pair(x_shape, w_shape)
    assert conv_nhwc_cpu.applies(x, w, strides, pads, None, 1, None)
    shape = jax.eval_shape(lambda x, w: _plain(x, w, strides, pads), x, w).shape
    cotangent = jnp.asarray(np.random.default_rng(1).standard_normal(shape), jnp.float32)

    def value_and_gradients(conv):  # one compiled program: an eager pullback compiles each operation on its own
        def run(x, w, cotangent):
            value, pullback = jax.vjp(lambda x, w: conv(x, w, strides, pads), x, w)
            return value, pullback(cotangent)
        return jax.jit(run)(x, w, cotangent)
    got, gradients = value_and_gradients(conv_nhwc_cpu.conv_nhwc)
    expected, expected_gradients = _once(("vjp", x_shape, w_shape, strides, pads), lambda: value_and_gradients(_plain))
    assert got.shape == expected.shape
    assert_close(got, expected)
    for got_grad, expected_grad in zip(gradients, expected_gradients):
        assert_close(got_grad, expected_grad)


def test_second_order_and_vmap_match_xla():
    x, w = random_pair((2, 16, 6, 6), (4, 16, 3, 3))
    strides, pads = (1, 1), ((1, 1), (1, 1))

    # Each derivative is one compiled program: op by op, eager JAX compiles every operation of the
    # second-order graph on its own (most of this test's time, 3-4x more).
    def second(conv):  # d/dw of a gradient norm: reverse over reverse through both arguments
        def norm(w):
            gx = jax.grad(lambda x: jnp.sum(jnp.sin(conv(x, w, strides, pads))))(x)
            return jnp.sum(gx ** 2)
        return jax.jit(jax.grad(norm))(w)
    assert_close(second(conv_nhwc_cpu.conv_nhwc), _once("second order", lambda: second(_plain)))

    def weight_grads(conv):  # per-example weight gradients: vmap over the batch of a grad
        def one(example):
            return jax.grad(lambda w: jnp.sum(jnp.tanh(conv(example[None], w, strides, pads))))(w)
        return jax.jit(jax.vmap(one))(x)
    assert_close(weight_grads(conv_nhwc_cpu.conv_nhwc), _once("vmap", lambda: weight_grads(_plain)))


def test_gradient_matches_finite_differences():
    x, w = random_pair((2, 16, 5, 5), (3, 16, 3, 3))
    assert_weight_gradient_matches_finite_differences(conv_nhwc_cpu.conv_nhwc, x, w, "nchw,ochw->no")


def test_applies_only_to_wide_ungrouped_undilated_float32_convolutions():
    x, w = random_pair((1, 16, 8, 8), (4, 16, 3, 3))
    pads = ((0, 0), (0, 0))
    assert conv_nhwc_cpu.applies(x, w, (2, 2), pads, (1, 1), 1, None)
    assert not conv_nhwc_cpu.applies(x, w, (1, 1), pads, (2, 2), 1, None)  # dilated
    assert not conv_nhwc_cpu.applies(x, w, (1, 1), pads, None, 1, (2, 2))  # transposed (input dilation)
    assert not conv_nhwc_cpu.applies(x.astype(jnp.float16), w.astype(jnp.float16), (1, 1), pads, None, 1, None)
    narrow, narrow_w = random_pair((1, 8, 8, 8), (4, 8, 3, 3))
    assert not conv_nhwc_cpu.applies(narrow, narrow_w, (1, 1), pads, None, 1, None)  # few input channels
    grouped, grouped_w = random_pair((1, 32, 8, 8), (4, 16, 3, 3))
    assert not conv_nhwc_cpu.applies(grouped, grouped_w, (1, 1), pads, None, 2, None)


def test_taken_on_cpu_only_when_allowed():
    x, w = random_pair((2, 16, 9, 9), (4, 16, 3, 3))
    assert ("custom_vjp_call" in same_padding_program(x, w)) == (jax.default_backend() == "cpu")
    with plain_lowering():
        assert "custom_vjp_call" not in same_padding_program(x, w)


@pytest.mark.parametrize("mode", ["PYNATIVE_MODE", "GRAPH_MODE"])
def test_resnet_block_cells_match_plain_lowering(mode):
    x = sporax.Tensor(np.random.default_rng(7).standard_normal((4, 16, 8, 8)).astype(np.float32))

    def build_loss():
        net = nn.SequentialCell([nn.Conv2d(16, 16, 3, pad_mode="pad", padding=1), nn.BatchNorm2d(16), nn.ReLU(),
                                 nn.Conv2d(16, 24, 3, stride=2, pad_mode="same", has_bias=True)])
        return (lambda x: net(x).square().mean()), net.trainable_params()
    assert_fast_matches_plain(mode, build_loss, (x,), plain_results=_PLAIN_BLOCKS)


def test_forward_mode_through_sporax_jvp_matches_plain_lowering():
    net = nn.Conv2d(16, 4, 3, pad_mode="same")
    x = sporax.Tensor(np.random.default_rng(2).standard_normal((2, 16, 6, 6)).astype(np.float32))
    tangent = sporax.Tensor(np.random.default_rng(3).standard_normal((2, 16, 6, 6)).astype(np.float32))
    value, jvp_out = sporax.ops.jvp(net, x, tangent)
    with plain_lowering():
        expected = jax.jvp(lambda a: net(sporax.Tensor(a))._value, (x._value,), (tangent._value,))
    assert_close(value.asnumpy(), expected[0])
    assert_close(jvp_out.asnumpy(), expected[1])
