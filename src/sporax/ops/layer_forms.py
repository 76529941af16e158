"""The backend forms of the ops that ``nn``'s layers run, chosen here so that ``nn`` never branches on a backend.

Contract: each function takes and gives what the layer has (Tensors and arrays) and picks, per
trace, the form ``sporax.ops.lowering`` offers for the backend (``switch.fast_lowering``): a 2-d
convolution (XLA's, oneDNN's, or NHWC between wide layers), a position-wise activation or a batch
normalisation over the channels-last arrays those convolutions pass on, and the time loop of a
recurrent layer (oneDNN's fused LSTM kernel, the XLA:CPU loop with its own backward pass, or
``None``: the layer's plain ``lax.scan``). Every form gives the plain form's values and gradients;
the layers only say what to compute.

Example:
    >>> import numpy as np
    >>> import sporax as ms
    >>> from sporax.ops import layer_forms
    >>> x = ms.Tensor(np.ones((1, 1, 3, 3), np.float32))
    >>> out = layer_forms.conv2d(x, x._value, np.ones((1, 1, 1, 1), np.float32), None, (1, 1),
    ...                          ((0, 0), (0, 0)), (1, 1), 1)
    >>> out.shape
    (1, 1, 3, 3)
"""
import functools

import jax
import jax.numpy as jnp

from sporax.core.tensor import Tensor
from sporax.ops.functional.convolution import _convolve, conv_transpose_nd
from sporax.ops.lowering import channels_last, conv_cpu, conv_onednn, conv_nhwc_cpu, fast_lowering, lstm_cpu, lstm_onednn


def check_data_format(owner, data_format, allowed, channels_last=False):
    """Validate a layer's ``data_format`` as MindSpore 2.10 does: one of ``allowed``; 'NHWC' is GPU-only there.

    MindSpore refuses 'NHWC' on CPU with a ValueError, so sporax does the same. On a GPU target (or when the
    script asked for the GPU and sporax fell back to the CPU) the layers that run channels-last inputs
    (``channels_last=True``: the pools, which transpose around their NCHW form, Conv2d and BatchNorm2d)
    accept it; the others say sporax does not run them channels-last yet.
    """
    if not isinstance(data_format, str) or data_format not in allowed:
        raise ValueError(f"For '{owner}', the 'format' must be str and must be in '{list(allowed)}', but got "
                         f"{data_format!r}.")
    if data_format != "NHWC":
        return
    # Imported here: sporax.core.context imports the ops package while it sets up.
    from sporax.core.context import get_context, requested_device_target
    target = get_context("device_target")
    # A script that asked for the GPU keeps its GPU layout when sporax falls back to the CPU: the layers
    # compute NHWC there too (MindSpore's GPU scripts, e.g. the zoo's ResNet-50 GPU benchmark, build on it).
    if "GPU" in (target, requested_device_target()):
        target = "GPU"
    if target == "GPU" and channels_last:
        return
    if target != "GPU":
        raise ValueError(f"For '{owner}', the 'NHWC' format is only supported on the GPU target (as in MindSpore), "
                         f"but the platform is {target}. Use data_format='NCHW' and move the channel axis with "
                         f"ops.transpose(x, (0, 3, 1, 2)).")
    raise NotImplementedError(f"For '{owner}', data_format='NHWC' on GPU is not supported by sporax; use "
                              f"data_format='NCHW' and move the channel axis with ops.transpose(x, (0, 3, 1, 2)).")


def conv2d_channels_last(array, weight, bias, stride, padding, dilation, group):
    """``nn.Conv2d(data_format='NHWC')`` (MindSpore's GPU layout): an NHWC ``array`` with an OHWI ``weight``
    (out, kh, kw, in / group), explicit ``padding`` pairs: a Tensor in NHWC. XLA's plain form: it is a
    GPU layout, where XLA picks the convolution's own layout."""
    output = _conv2d(array.transpose(0, 3, 1, 2), weight.transpose(0, 3, 1, 2), bias, stride, padding, dilation,
                     group, False)
    return Tensor._wrap(output.transpose(0, 2, 3, 1))


def add_channel_bias(output, bias):
    """``output`` (N, C, ...) plus a per-channel ``bias`` (None: no bias)."""
    if bias is None:
        return output
    return output + bias.astype(output.dtype).reshape((1, -1) + (1,) * (output.ndim - 2))


# --- convolution --------------------------------------------------------------------------------

# A few-channel stem with at least this many outputs runs in oneDNN on NHWC data where its kernels
# are available (CIFAR ResNet-18 b32 step, 3 -> 64 channels: 676 -> 631-639 CPU ms, alternated);
# narrower ones keep lowering.conv_cpu's blocked form (LeNet5 b32's 6 -> 16 conv2: 1.8-2.0 ms a step
# with it, 3.6-4.5 ms through oneDNN, whose call costs more than that small convolution).
ONEDNN_STEM_OUT_CHANNELS = 32

@functools.partial(jax.jit, static_argnums=(3, 4, 5, 6, 7))
def _conv2d(array, weight, bias, stride, padding, dilation, group, fast):
    return add_channel_bias(_convolve(array, weight, stride, padding, dilation, group, fast=fast), bias)


@functools.partial(jax.jit, static_argnums=(3, 4, 5, 6))
def conv2d_bias_rounded_once(array, weight, bias, stride, padding, dilation, group):
    """``nn.Conv2d`` with a bias on a half-precision NCHW ``array`` in a graph: MindSpore's graph compiler fuses
    Conv2D and BiasAdd into one kernel that adds the bias (in the input's dtype) to the float32 convolution and
    rounds once; PyNative runs the two ops and rounds twice (``_conv2d``; both recorded on CPU)."""
    output = _convolve(array.astype(jnp.float32), weight.astype(jnp.float32), stride, padding, dilation, group,
                       fast=False)
    return add_channel_bias(output, bias.astype(array.dtype).astype(jnp.float32)).astype(array.dtype)


@functools.partial(jax.jit, static_argnums=(3, 4))
def _conv2d_channels_last(array, weight, bias, stride, padding):
    output = conv_nhwc_cpu.conv_channels_last(array, weight, stride, padding)
    return output if bias is None else output + bias.astype(output.dtype)


def conv2d(x, array, weight, bias, stride, padding, dilation, group):
    """``nn.Conv2d``'s convolution of the Tensor ``x`` (its NCHW ``array``) with OIHW ``weight`` and
    explicit ``padding`` pairs: a Tensor. Traced on CPU, wide layers hand each other NHWC arrays
    (``lowering.channels_last``), and a few-channel stem under them starts that chain."""
    fast = fast_lowering("conv")
    if not (fast and channels_last.traced(array)):
        return Tensor._wrap(_conv2d(array, weight, bias, stride, padding, dilation, group, fast))
    if conv_nhwc_cpu.applies(array, weight, stride, padding, dilation, group, None):
        nhwc = channels_last.nhwc_of(x)
        if nhwc is None:
            nhwc = array.transpose(0, 2, 3, 1)
        return channels_last.wrap(_conv2d_channels_last(nhwc, weight, bias, stride, padding))
    stem = weight.shape[0] >= conv_nhwc_cpu.MIN_IN_CHANNELS and \
        conv_cpu.applies(array, weight, stride, padding, dilation, group, None)
    if stem and weight.shape[0] >= ONEDNN_STEM_OUT_CHANNELS:
        # Transposing the few-channel input costs little; oneDNN then gives the wide output in NHWC,
        # where the blocked form's output had to be transposed element by element.
        nhwc = array.transpose(0, 2, 3, 1)
        if conv_onednn.applies(nhwc, weight, stride, padding):
            return channels_last.wrap(_conv2d_channels_last(nhwc, weight, bias, stride, padding))
    output = _conv2d(array, weight, bias, stride, padding, dilation, group, fast)
    if stem:
        # A few-channel stem (lowering.conv_cpu) under wide layers: they continue from it in NHWC.
        return channels_last.wrap(output.transpose(0, 2, 3, 1))
    return Tensor._wrap(output)


# --- layers after a convolution: NHWC in, NHWC out ----------------------------------------------

def position_wise(x, array, function):
    """``function`` (each output element from its input element alone) of the Tensor ``x`` whose
    array is ``array``: on the NHWC array ``x`` carries when it has one, giving NHWC again."""
    nhwc = channels_last.nhwc_of(x)
    if nhwc is not None:
        return channels_last.wrap(function(nhwc))
    return Tensor._wrap(function(array))


def channel_layout(x):
    """``(array, channel axis)`` for a per-channel op on the Tensor ``x``: its NHWC array (axis 3)
    when it carries one, else its own array (axis 1). ``like_input`` wraps the result."""
    nhwc = channels_last.nhwc_of(x)
    return (x._value, 1) if nhwc is None else (nhwc, 3)


def like_input(output, channel_axis):
    """A Tensor of ``output``, laid out as ``channel_layout`` gave its input (``channel_axis``)."""
    return Tensor._wrap(output) if channel_axis == 1 else channels_last.wrap(output)


# --- recurrent layers ---------------------------------------------------------------------------

def recurrent_loop_form(mode):
    """The loop a trace of a ``mode`` layer (``'LSTM'``, ``'GRU'``, ...) takes: False for the plain
    scan, 'onednn' for oneDNN's fused LSTM kernel, 'xla' for lstm_cpu's loop. A static argument of
    the layer's jitted body, so a changed setting traces afresh."""
    if not fast_lowering("rnn"):
        return False
    return "onednn" if mode == "LSTM" and lstm_onednn.available() else "xla"


def fused_recurrence(mode, inputs, state, weights, reverse, form):
    """The whole layer-direction loop over time-major ``inputs`` in oneDNN's fused kernel:
    ``(outputs, (hidden, cell))``, or None where ``form`` is not 'onednn' or the kernel does not apply."""
    if form != "onednn" or not lstm_onednn.applies(mode, inputs):
        return None
    weight_ih, weight_hh, bias_ih, bias_hh = weights
    bias = sum(b for b in (bias_ih, bias_hh) if b is not None) + jnp.zeros(weight_hh.shape[:1], inputs.dtype)
    outputs, hidden, cell = lstm_onednn.lstm(inputs[::-1] if reverse else inputs, state[0], state[1],
                                             weight_ih, weight_hh, bias)
    return (outputs[::-1] if reverse else outputs), (hidden, cell)


def recurrence_loop(mode, projected, state, weight_hh, bias_hh, reverse, form):
    """The loop over the projected inputs with lstm_cpu's hand-written backward pass:
    ``(outputs, (hidden, cell))``, or None where ``form`` is off or the loop does not apply."""
    if not form or not lstm_cpu.applies(mode, projected):
        return None
    bias = bias_hh if bias_hh is not None else jnp.zeros(weight_hh.shape[:1], projected.dtype)
    outputs, hidden, cell = lstm_cpu.lstm_recurrence(projected[::-1] if reverse else projected,
                                                     state[0], state[1], weight_hh, bias)
    return (outputs[::-1] if reverse else outputs), (hidden, cell)


@functools.partial(jax.jit, static_argnums=(3, 4, 5, 6, 7))
def _transpose_conv(array, weight, bias, pads, stride, dilation, group, fast):
    return add_channel_bias(conv_transpose_nd(array, weight, stride, pads, dilation, group, fast=fast), bias)


def transpose_conv(array, weight, bias, pads, stride, dilation, group):
    """``nn.Conv2dTranspose``'s transposed convolution: a convolution of the stride-dilated input with the flipped
    kernel. ``weight`` is (in, out / group, kh, kw); ``pads`` are the forward convolution's (low, high) paddings per
    spatial axis, any output padding already added to the high side. The lowering choice is a static argument, so
    an entry traced eagerly never serves a trace under ``plain_lowering()`` (an export)."""
    return _transpose_conv(array, weight, bias, pads, stride, dilation, group, fast_lowering("conv"))
