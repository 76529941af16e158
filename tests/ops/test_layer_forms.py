"""ops.layer_forms: the backend forms nn's layers run give the plain forms' values, and the choice
of form (NHWC between wide convolutions, the LSTM loop) is made in ops, per trace."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import sporax as ms
from sporax import nn
from sporax.ops import layer_forms
from sporax.ops.lowering import plain_lowering


def _random(shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def _reference_conv(x, w, bias, padding):
    out = jax.lax.conv_general_dilated(x, w, (1, 1), padding, dimension_numbers=("NCHW", "OIHW", "NCHW"))
    return out + bias.reshape(1, -1, 1, 1)


def test_traced_wide_convolution_carries_nhwc_and_equals_the_plain_convolution():
    x, w, bias = _random((2, 16, 6, 6)), _random((16, 16, 3, 3), 1), _random((16,), 2)
    padding = ((1, 1), (1, 1))

    expected = _reference_conv(x, w, bias, padding)
    layout = {}

    def probe(array):
        out = layer_forms.conv2d(layer_forms.like_input(array, 1), array, jnp.asarray(w), jnp.asarray(bias), (1, 1), padding,
                                 (1, 1), 1)
        values, layout["axis"] = layer_forms.channel_layout(out)
        return out._value, values

    nchw, nhwc = jax.jit(probe)(x)
    np.testing.assert_allclose(np.asarray(nchw), np.asarray(expected), rtol=1e-4, atol=1e-4)
    # Traced on CPU, the wide convolution hands its NHWC array on (channel axis 3).
    if jax.default_backend() == "cpu":
        assert layout["axis"] == 3
        np.testing.assert_allclose(np.asarray(nhwc), np.asarray(expected).transpose(0, 2, 3, 1), rtol=1e-4,
                                   atol=1e-4)
    with plain_lowering():
        jax.clear_caches()
        jax.jit(probe)(x)
        assert layout["axis"] == 1  # the plain form: NCHW only
    jax.clear_caches()


def test_eager_convolution_is_plain_nchw():
    x, w = _random((1, 16, 5, 5)), _random((16, 16, 1, 1), 3)
    out = layer_forms.conv2d(ms.Tensor(x), jnp.asarray(x), jnp.asarray(w), None, (1, 1), ((0, 0), (0, 0)), (1, 1), 1)
    assert layer_forms.channel_layout(out)[1] == 1
    np.testing.assert_allclose(out.asnumpy(), np.einsum("nchw,oc->nohw", x, w[:, :, 0, 0]), rtol=1e-4, atol=1e-4)


def test_position_wise_and_like_input_keep_the_layout():
    x = _random((2, 16, 4, 4))
    relu = lambda values: jnp.maximum(values, 0)  # noqa: E731

    def run(array):
        wide = layer_forms.like_input(array.transpose(0, 2, 3, 1), 3)  # as a wide convolution leaves it
        out = layer_forms.position_wise(wide, wide._value, relu)
        values, axis = layer_forms.channel_layout(out)
        assert axis == 3
        return out._value, values

    nchw, nhwc = jax.jit(run)(x)
    np.testing.assert_array_equal(np.asarray(nchw), np.maximum(x, 0))
    np.testing.assert_array_equal(np.asarray(nhwc), np.maximum(x, 0).transpose(0, 2, 3, 1))
    eager = layer_forms.position_wise(ms.Tensor(x), jnp.asarray(x), relu)
    assert layer_forms.channel_layout(eager)[1] == 1


@pytest.mark.parametrize("mode", ["LSTM", "GRU"])
def test_recurrent_loop_form_follows_the_switch(mode):
    with plain_lowering():
        assert layer_forms.recurrent_loop_form(mode) is False
    form = layer_forms.recurrent_loop_form(mode)
    if jax.default_backend() != "cpu":
        assert form is False
    elif mode == "GRU":
        assert form == "xla"  # only the LSTM has oneDNN's fused kernel
    else:
        assert form in ("onednn", "xla")


def test_lstm_layer_gives_the_plain_scans_values_in_every_form():
    ms.set_seed(0)
    lstm = nn.LSTM(4, 8, num_layers=1, batch_first=True, bidirectional=True)
    x = ms.Tensor(_random((3, 5, 4), 4))
    fast = jax.jit(lambda a: lstm(ms.Tensor(a))[0]._value)(x._value)
    with plain_lowering():
        jax.clear_caches()
        plain = jax.jit(lambda a: lstm(ms.Tensor(a))[0]._value)(x._value)
    jax.clear_caches()
    np.testing.assert_allclose(np.asarray(fast), np.asarray(plain), rtol=1e-4, atol=1e-5)
