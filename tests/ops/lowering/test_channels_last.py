"""Traced CNN layers keep NHWC arrays between wide convolutions (lowering.channels_last) with the
values, gradients and moving statistics of the NCHW computation."""
import jax
import numpy as np
import pytest

import sporax
from sporax import nn, ops
from sporax.ops.lowering import channels_last, plain_lowering
from tests.ops.lowering.helpers import assert_close, assert_fast_matches_plain, convolution_kernel

ON_CPU = jax.default_backend() == "cpu"

pytestmark = pytest.mark.usefixtures(convolution_kernel.__name__)

# The plain lowering's results, kept per test: each test runs with both kernels (``convolution_kernel``), and
# the plain form does not depend on which one (the fixture clears JAX's caches: a second run would compile
# the same plain program again).
_PLAIN_RESULTS = {"blocks": {}, "stem": {}}


class Block(nn.Cell):
    """A ResNet basic block: conv-BN-ReLU-conv-BN plus a shortcut, then ReLU."""

    def __init__(self, cin, cout, stride):
        super().__init__()
        self.body = nn.SequentialCell([nn.Conv2d(cin, cout, 3, stride, pad_mode="pad", padding=1),
                                       nn.BatchNorm2d(cout), nn.ReLU(),
                                       nn.Conv2d(cout, cout, 3, pad_mode="same", has_bias=True), nn.BatchNorm2d(cout)])
        self.short = nn.SequentialCell([nn.Conv2d(cin, cout, 1, stride), nn.BatchNorm2d(cout)]) \
            if stride != 1 or cin != cout else None
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.relu(self.body(x) + (x if self.short is None else self.short(x)))


def _network():
    # a 3-channel stem (lowering.conv_cpu), then wide layers (lowering.conv_nhwc_cpu)
    return nn.SequentialCell([nn.Conv2d(3, 16, 3, pad_mode="same"), nn.BatchNorm2d(16), nn.GELU(),
                              Block(16, 16, 1), Block(16, 24, 2)])


def _input(shape=(4, 3, 8, 8), seed=7):
    return sporax.Tensor(np.random.default_rng(seed).standard_normal(shape).astype(np.float32))


# PyNative differentiates the same traced network (the NHWC carry happens while tracing either way); the
# default run keeps GRAPH mode, and test_conv_nhwc_cpu_lowering's block Cells check PyNative against plain.
@pytest.mark.parametrize("mode", [pytest.param("PYNATIVE_MODE", marks=pytest.mark.slow), "GRAPH_MODE"])
def test_resnet_blocks_match_plain_lowering(mode):
    def build_loss():
        net = _network()
        return (lambda x: net(x).square().mean()), net.trainable_params()
    assert_fast_matches_plain(mode, build_loss, (_input(),), plain_results=_PLAIN_RESULTS["blocks"])


def test_moving_statistics_match_plain_lowering():
    x = _input()
    moving = []
    for plain in (False, True):
        if plain and "moving" in _PLAIN_RESULTS:
            moving.append(_PLAIN_RESULTS["moving"])
            continue
        sporax.set_seed(1)
        net = _network()
        net.set_train(True)
        step = sporax.jit(lambda x: net(x).sum())
        if plain:
            with plain_lowering():
                step(x)
        else:
            step(x)
        moving.append([p.asnumpy() for p in net.get_parameters() if "moving" in p.name])
    _PLAIN_RESULTS["moving"] = moving[1]
    assert len(moving[0]) == 12  # six BatchNorms
    for got, expected in zip(*moving):
        assert_close(got, expected)


def test_traced_convolution_output_carries_nhwc_and_eager_does_not():
    stem, conv, relu = nn.Conv2d(3, 16, 3, pad_mode="same"), nn.Conv2d(16, 8, 3, pad_mode="same"), nn.ReLU()
    narrow = nn.Conv2d(3, 8, 3, pad_mode="same")  # a narrow output is left in NCHW
    x = _input((2, 16, 5, 5))
    carried = []

    def traced(array):
        out = relu(conv(sporax.Tensor(array)))
        carried.append(channels_last.nhwc_of(out) is not None)
        if ON_CPU and carried[-1]:
            image = sporax.Tensor(array[:, :3])
            assert channels_last.nhwc_of(stem(image)) is not None
            assert channels_last.nhwc_of(narrow(image)) is None
        return out._value
    expected = np.maximum(np.asarray(jax.jit(traced)(x._value)), 0)
    assert carried == [ON_CPU]
    eager = relu(conv(x))
    assert channels_last.nhwc_of(eager) is None
    assert_close(eager.asnumpy(), expected)
    with plain_lowering():
        jax.jit(lambda array: traced(array))(x._value)  # a new function: jax.jit traces it afresh
    assert carried == [ON_CPU, False]


def test_in_place_update_falls_back_to_nchw():
    conv, norm = nn.Conv2d(16, 8, 3, pad_mode="same"), nn.BatchNorm2d(8)
    norm.set_train(True)
    x = _input((2, 16, 5, 5))

    def updated(array):
        out = conv(sporax.Tensor(array))
        out[:, 0] = 3.0  # rebinds the Tensor's array: its NHWC copy is stale from here on
        assert channels_last.nhwc_of(out) is None
        return norm(out)._value, out._value
    normalized, values = jax.jit(updated)(x._value)
    values = np.asarray(values)
    assert np.all(values[:, 0] == 3.0)
    mean, var = values.mean((0, 2, 3), keepdims=True), values.var((0, 2, 3), keepdims=True)
    np.testing.assert_allclose(np.asarray(normalized), (values - mean) / np.sqrt(var + 1e-5), rtol=1e-4, atol=1e-4)


def test_axis_activation_and_broadcast_add_read_nchw():
    conv = nn.Conv2d(16, 6, 3, pad_mode="same")
    softmax = nn.Softmax(axis=1)
    x = _input((2, 16, 4, 4))
    bias = sporax.Tensor(np.arange(6, dtype=np.float32).reshape(1, 6, 1, 1))

    def traced(array):
        out = conv(sporax.Tensor(array))
        return softmax(out)._value, (out + bias)._value, out._value
    probabilities, shifted, out = map(np.asarray, jax.jit(traced)(x._value))
    exp = np.exp(out - out.max(1, keepdims=True))
    np.testing.assert_allclose(probabilities, exp / exp.sum(1, keepdims=True), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(shifted, out + np.arange(6, dtype=np.float32).reshape(1, 6, 1, 1), rtol=1e-6)


def test_eval_mode_batch_norm_matches_plain_lowering():
    sporax.set_seed(2)
    net = _network()
    net.set_train(False)
    x = _input()
    fast = sporax.jit(lambda x: net(x))(x).asnumpy()
    if "eval" not in _PLAIN_RESULTS:
        with plain_lowering():
            _PLAIN_RESULTS["eval"] = sporax.jit(lambda x: net(x))(x).asnumpy()
    plain = _PLAIN_RESULTS["eval"]
    assert_close(fast, plain)
    assert_close(ops.stop_gradient(net(x)).asnumpy(), plain)


def test_wide_stem_runs_in_onednn_and_matches_plain_lowering(convolution_kernel):
    # A 3 -> 32 stem (ONEDNN_STEM_OUT_CHANNELS): oneDNN takes it on NHWC data where its kernels are
    # available, lowering.conv_cpu's blocked form where not; both give the plain NCHW values and gradients.
    from sporax.ops import layer_forms
    width = layer_forms.ONEDNN_STEM_OUT_CHANNELS

    def build_loss():
        # the stem's bias straight into a ReLU (before a BatchNorm its gradient would be zero up to rounding)
        net = nn.SequentialCell([nn.Conv2d(3, width, 3, pad_mode="same", has_bias=True), nn.ReLU(),
                                 Block(width, 16, 2)])
        return (lambda x: net(x).square().mean()), net.trainable_params()
    assert_fast_matches_plain("GRAPH_MODE", build_loss, (_input(),), plain_results=_PLAIN_RESULTS["stem"])
    stem = nn.Conv2d(3, width, 3, pad_mode="same")
    program = str(jax.make_jaxpr(lambda array: channels_last.nhwc_of(stem(sporax.Tensor(array))))(_input()._value))
    stem_in_onednn = "sporax_onednn_conv_forward" in program
    assert stem_in_onednn == (ON_CPU and convolution_kernel == "onednn")
    if ON_CPU:  # exactly one of the two forms
        assert stem_in_onednn != ("conv_general_dilated" in program)
