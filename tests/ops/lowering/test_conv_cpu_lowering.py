"""The space-to-depth convolution equals XLA's convolution in value, gradients (both arguments),
forward mode and second order, within float32 rounding; the switch takes it only where it applies."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax

import sporax
from sporax import nn, ops
from sporax.ops.functional.convolution import _convolve
from sporax.ops.lowering import conv_cpu, plain_lowering
from tests.ops.lowering.helpers import assert_close, assert_fast_matches_plain, random_pair, same_padding_program

CASES = [  # (input shape, weight shape, pads)
    ((3, 1, 32, 32), (6, 1, 5, 5), ((0, 0), (0, 0))),  # LeNet5 conv1
    ((3, 6, 14, 14), (16, 6, 5, 5), ((0, 0), (0, 0))),  # LeNet5 conv2
    ((2, 3, 16, 16), (8, 3, 3, 3), ((1, 1), (1, 1))),  # ResNet stem
    ((2, 2, 9, 11), (3, 2, 3, 4), ((2, 0), (1, 3))),  # odd sizes, uneven pads, non-square kernel
    ((1, 8, 7, 7), (5, 8, 7, 7), ((0, 0), (0, 0))),  # kernel == input: one output
]


def _plain(x, w, pads):
    return lax.conv_general_dilated(x, w, (1, 1), pads, dimension_numbers=("NCHW", "OIHW", "NCHW"))


@pytest.mark.parametrize("x_shape, w_shape, pads", CASES)
def test_value_and_gradients_match_xla(x_shape, w_shape, pads):
    x, w = random_pair(x_shape, w_shape)
    assert conv_cpu.applies(x, w, (1, 1), pads, None, 1, None)
    shape = jax.eval_shape(lambda x, w: _plain(x, w, pads), x, w).shape
    cotangent = jnp.asarray(np.random.default_rng(1).standard_normal(shape), jnp.float32)

    def value_and_gradients(conv):  # one compiled program: an eager pullback compiles each operation on its own
        def run(x, w, cotangent):
            value, pullback = jax.vjp(lambda x, w: conv(x, w, pads), x, w)
            return value, pullback(cotangent)
        return jax.jit(run)(x, w, cotangent)
    got, gradients = value_and_gradients(conv_cpu.conv_space_to_depth)
    expected, expected_gradients = value_and_gradients(_plain)
    assert got.shape == expected.shape
    assert_close(got, expected)
    for got_grad, expected_grad in zip(gradients, expected_gradients):
        assert_close(got_grad, expected_grad)


@pytest.mark.parametrize("x_shape, w_shape, pads", CASES[2:4])
def test_forward_mode_and_second_order_match_xla(x_shape, w_shape, pads):
    x, w = random_pair(x_shape, w_shape)
    tx, tw = random_pair(x_shape, w_shape, seed=2)
    # Each derivative is one compiled program: op by op, eager JAX compiles every operation of the
    # derivative graphs on its own (most of this test's time).
    def forward(conv):
        return jax.jit(lambda x, w, tx, tw: jax.jvp(lambda x, w: conv(x, w, pads), (x, w), (tx, tw)))(x, w, tx, tw)
    for a, b in zip(forward(conv_cpu.conv_space_to_depth), forward(_plain)):
        assert_close(a, b)

    def second(conv):  # d/dw of a gradient norm: reverse over reverse through both arguments
        def norm(w):
            gx = jax.grad(lambda x: jnp.sum(jnp.sin(conv(x, w, pads))))(x)
            return jnp.sum(gx ** 2)
        return jax.jit(jax.grad(norm))(w)
    assert_close(second(conv_cpu.conv_space_to_depth), second(_plain))


def test_gradient_matches_finite_differences():
    x, w = random_pair((2, 2, 6, 6), (3, 2, 3, 3))
    pads = ((1, 1), (1, 1))
    loss = lambda w: jnp.sum(jnp.tanh(conv_cpu.conv_space_to_depth(x, w, pads)))  # noqa: E731
    grad = np.asarray(jax.grad(loss)(w))
    rng = np.random.default_rng(5)
    for _ in range(4):
        index = tuple(int(rng.integers(0, n)) for n in w.shape)
        step = np.zeros(w.shape, np.float32)
        step[index] = 1e-2
        numeric = (float(loss(w + step)) - float(loss(w - step))) / 2e-2
        assert abs(numeric - grad[index]) < 2e-2 * max(1.0, abs(numeric))


def test_applies_only_to_few_channel_stride_one_float32_convolutions():
    x, w = random_pair((1, 3, 8, 8), (4, 3, 3, 3))
    valid = ((0, 0), (0, 0))
    assert conv_cpu.applies(x, w, (1, 1), valid, (1, 1), 1, None)
    assert not conv_cpu.applies(x, w, (2, 2), valid, None, 1, None)  # strided
    assert not conv_cpu.applies(x, w, (1, 1), valid, (2, 2), 1, None)  # dilated
    assert not conv_cpu.applies(x, w, (1, 1), valid, None, 1, (2, 2))  # transposed (input dilation)
    assert not conv_cpu.applies(x, w, (1, 1), ((-1, 0), (0, 0)), None, 1, None)  # cropping pads
    assert not conv_cpu.applies(x.astype(jnp.float16), w.astype(jnp.float16), (1, 1), valid, None, 1, None)
    wide, wide_w = random_pair((1, 16, 8, 8), (4, 16, 3, 3))
    assert not conv_cpu.applies(wide, wide_w, (1, 1), valid, None, 1, None)  # many input channels
    one, one_w = random_pair((1, 3, 8, 8), (4, 3, 1, 1))
    assert not conv_cpu.applies(one, one_w, (1, 1), valid, None, 1, None)  # 1x1 kernel: 4x the products
    grouped, grouped_w = random_pair((1, 4, 8, 8), (4, 2, 3, 3))
    assert not conv_cpu.applies(grouped, grouped_w, (1, 1), valid, None, 2, None)


def test_taken_on_cpu_only_when_allowed_and_same_padding_resolved():
    x, w = random_pair((2, 3, 9, 9), (4, 3, 3, 3))
    assert ("custom_jvp_call" in same_padding_program(x, w)) == (jax.default_backend() == "cpu")
    with plain_lowering():
        assert "custom_jvp_call" not in same_padding_program(x, w)
    got = jax.jit(lambda x, w: _convolve(x, w, (1, 1), "SAME", (1, 1), 1))(x, w)
    assert_close(got, _plain(x, w, ((1, 1), (1, 1))))


@pytest.mark.parametrize("mode", ["PYNATIVE_MODE", "GRAPH_MODE"])
def test_conv2d_cell_and_op_match_plain_lowering(mode):
    rng = np.random.default_rng(7)
    x = sporax.Tensor(rng.standard_normal((4, 3, 12, 12)).astype(np.float32))
    weight = sporax.Tensor(rng.standard_normal((2, 4, 3, 3)).astype(np.float32))

    def build_loss():
        net = nn.SequentialCell([nn.Conv2d(3, 5, 3, pad_mode="pad", padding=1, has_bias=True), nn.ReLU(),
                                 nn.Conv2d(5, 4, 5, pad_mode="same")])
        return (lambda x, weight: ops.conv2d(net(x), weight, pad_mode="valid").square().mean()), net.trainable_params()
    assert_fast_matches_plain(mode, build_loss, (x, weight))
