"""Depthwise 2-d convolutions as a sum of shifted, per-channel scaled copies of the input.

Contract: ``conv_depthwise(x, w, strides, pads)`` equals ``lax.conv_general_dilated`` of an NCHW
input ``x`` (C channels) and an OIHW weight ``w`` of shape (C, 1, kh, kw) with
``feature_group_count=C``, no dilation and explicit non-negative ``(low, high)`` pads, in value
and in first and higher derivatives (forward and reverse mode), within float32 rounding (the
kh*kw products are summed in another order). ``applies(...)`` says which convolutions it takes.

Algorithm: output[n, c, i, j] = sum over taps (a, b) of w[c, 0, a, b] * padded[n, c, s*i + a,
s*j + b]: one strided slice of the padded input per tap, scaled by that tap's per-channel weight,
summed. XLA fuses the whole sum into one loop over the output; JAX's derivatives of slices,
products and sums are again such loops (the input gradient a sum of padded, scaled copies of the
output gradient, the weight gradient kh*kw reductions). XLA:CPU's grouped convolution instead runs
one small matrix product per channel group, and its gradients are slower still.

Measured (``benchmarks/depthwise_conv.py``: the 11 depthwise layers of mindcv's mobilenet_v3_small
at batch 16, 224 x 224, forward + input and weight gradients in one jitted program; jaxlib 0.10.2,
2-core AMD EPYC at load ~7-15): 5260 ms with the grouped convolution, 821 ms as shifted copies;
compiling takes longer (0.1 -> 0.9 CPU s for those layers): the unrolled taps are more fusions.
"""
import jax.numpy as jnp
from jax import lax

# Taps above this count (a 7 x 7 kernel has 49) make the unrolled sum long to compile; XLA's form keeps them.
MAX_TAPS = 49


def applies(array, weight, strides, pads, dilation, groups, lhs_dilation):
    """Whether ``conv_depthwise`` takes this convolution (``pads``: explicit pairs)."""
    def ones(values):
        return values is None or all(v == 1 for v in values)
    return (array.ndim == 4 and weight.ndim == 4 and array.dtype == jnp.float32 and weight.dtype == jnp.float32
            and groups > 1 and groups == array.shape[1] and weight.shape[0] == groups and weight.shape[1] == 1
            and ones(dilation) and ones(lhs_dilation) and weight.shape[2] * weight.shape[3] <= MAX_TAPS
            and all(low >= 0 and high >= 0 for low, high in pads)
            and all(size + low + high >= k for size, k, (low, high) in zip(array.shape[2:], weight.shape[2:], pads))
            and array.size > 0)


def conv_depthwise(array, weight, strides, pads):
    """The depthwise convolution of ``array`` (N, C, H, W) by ``weight`` (C, 1, kh, kw) (see the module doc)."""
    batch, channels, height, width = array.shape
    kernel_h, kernel_w = weight.shape[2:]
    stride_h, stride_w = strides
    (top, bottom), (left, right) = pads
    padded = jnp.pad(array, ((0, 0), (0, 0), (top, bottom), (left, right)))
    out_h = (height + top + bottom - kernel_h) // stride_h + 1
    out_w = (width + left + right - kernel_w) // stride_w + 1
    taps = weight[:, 0].reshape(channels, kernel_h * kernel_w)[None, :, None, None, :]
    out = None
    for a in range(kernel_h):
        for b in range(kernel_w):
            window = lax.slice(padded, (0, 0, a, b),
                               (batch, channels, a + (out_h - 1) * stride_h + 1, b + (out_w - 1) * stride_w + 1),
                               (1, 1, stride_h, stride_w))
            term = window * taps[..., a * kernel_w + b]
            out = term if out is None else out + term
    return out
