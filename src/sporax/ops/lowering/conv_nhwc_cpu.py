"""Wide 2-d convolutions in NHWC whose backward pass reads its operands from memory, not re-fused.

Contract: ``conv_nhwc(x, w, strides, pads)`` equals ``lax.conv_general_dilated`` of an NCHW input
and an OIHW weight with one group, no dilation and explicit ``(low, high)`` pads, in value and in
reverse-mode derivatives of any order, within float32 rounding (the backward pass is XLA's own
convolution gradient of the NHWC convolution). ``applies(...)`` says which convolutions it takes
(float32, at least ``MIN_IN_CHANNELS`` input channels). Forward mode is not defined
(``jax.custom_vjp``): sporax's forward-mode APIs trace under ``plain_lowering()``.
Where oneDNN's kernels are available (``conv_onednn``, x86-64 Linux), both functions hand the
NHWC convolution to them instead, with the same contract and no layout transposes around it.

Algorithm: XLA:CPU runs a convolution on NHWC data, and its weight gradient as a convolution
whose operands are the input transposed to (C, H, W, N) and the output gradient to
(Ho, Wo, N, O). Inside a train step XLA fuses the producers of those operands into the
transposes: the batch-norm, ReLU and residual-add chain that made the input is recomputed for
every element of a transpose that walks memory with a stride of a whole image (ResNet-18 b32:
one such fusion took 17-26 ms, the transposes together 223 of 500 ms of the step). Here the
convolution runs in NHWC under ``jax.custom_vjp``; its backward pass passes the saved input and
the incoming gradient through a conditional first. XLA fuses nothing across a conditional, so
both are written to memory once and the transposes read plain arrays. The predicate is always
true but XLA cannot prove it, so the other branch never runs.

Measured (sporax GRAPH train step of ``benchmarks/suite_models.py``'s ResNet-18, b32, jaxlib
0.10.2, 2-core AMD EPYC, quiet machine, runs alternated): 500-505 ms -> 418-450 ms. Rejected on
the way: the same without the conditionals (no gain: XLA re-fuses), a conditional on the
forward input too (470-477 ms: the forward transposes lose their ReLU fusion), one on the
output gradient or the input alone (447-466 ms), the weight gradient as per-tap or im2col
matrix products (4-8x slower than XLA's convolution, isolated).
"""
import functools

import jax
import jax.numpy as jnp
from jax import lax

from sporax.core.product_precision import conv_precision
from sporax.ops.lowering import conv_onednn

MIN_IN_CHANNELS = 16
_NHWC = ("NHWC", "HWIO", "NHWC")


def _written_out(value):
    """``value`` itself, but as the result of a conditional, so XLA materializes it."""
    bits = lax.bitcast_convert_type(value.reshape(-1)[0], jnp.uint32)
    return lax.cond((bits & 1) <= 1, lambda v: v, lambda v: v + 0, value)


def _convolve(x, w, strides, pads):
    return lax.conv_general_dilated(x, w, strides, pads, dimension_numbers=_NHWC, precision=conv_precision())


@functools.partial(jax.custom_vjp, nondiff_argnums=(2, 3))
def _conv(x, w, strides, pads):
    return _convolve(x, w, strides, pads)


def _conv_forward(x, w, strides, pads):
    return _convolve(x, w, strides, pads), (x, w)


def _conv_backward(strides, pads, saved, grad):
    x, w = saved
    _, pullback = jax.vjp(lambda x, w: _convolve(x, w, strides, pads), _written_out(x), w)
    return pullback(_written_out(grad))


_conv.defvjp(_conv_forward, _conv_backward)


def conv_nhwc(array, weight, strides, pads):
    """NCHW x OIHW convolution with explicit ``pads``, run in NHWC (see the module's contract)."""
    return conv_channels_last(array.transpose(0, 2, 3, 1), weight, strides, pads).transpose(0, 3, 1, 2)


def conv_channels_last(array, weight, strides, pads):
    """``conv_nhwc`` of an NHWC input, giving NHWC: for ``lowering.channels_last``'s layers."""
    if conv_onednn.applies(array, weight, strides, pads):
        return conv_onednn.conv(array, weight, strides, pads)
    return _conv(array, weight.transpose(2, 3, 1, 0), tuple(strides), tuple(tuple(pair) for pair in pads))


def applies(array, weight, strides, pads, dilation, groups, lhs_dilation):
    """Whether ``conv_nhwc`` takes this convolution (``pads``: explicit pairs)."""
    def ones(values):
        return values is None or all(v == 1 for v in values)
    return (array.ndim == 4 and weight.ndim == 4 and array.dtype == jnp.float32 and weight.dtype == jnp.float32
            and groups == 1 and ones(dilation) and ones(lhs_dilation) and weight.shape[1] >= MIN_IN_CHANNELS
            and array.size > 0)
