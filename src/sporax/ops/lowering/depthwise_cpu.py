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
Kernels of more than ``MAX_UNROLLED_TAPS`` taps (5 x 5, 7 x 7, 9 x 9) add their rows in a ``fori_loop`` whose
body holds one row's kw taps (rematerialised, so the backward loop slices the padded input again
instead of saving kh*kw windows); the terms are added in the same order as unrolled, so the value
is the same bit for bit, and the input gradient differs from the unrolled one by float32 rounding.

Measured (``benchmarks/depthwise_conv.py``: the 11 depthwise layers of mindcv's mobilenet_v3_small
at batch 16, 224 x 224, forward + input and weight gradients in one jitted program; jaxlib 0.10.2,
2-core AMD EPYC at load ~7-15): 5260 ms with the grouped convolution, 821 ms as shifted copies;
compiling takes longer (0.1 -> 0.9 CPU s for those layers): the unrolled taps are more fusions.
The unrolled sums were most of the XLA compile of mindcv's depthwise models
(``benchmarks/compile_time.md``, train step at 64 x 64, CPU s): convnextv2_atto (7 x 7) 71.9 -> 24.2,
mixnet_s 112.4 -> 72.4, mobilenet_v3_small_100 (5 x 5) 66.9 -> 40.0, the steps' run time the same or less.
One 7 x 7 layer's forward plus both gradients (2 x 40 x 16 x 16) compiled in 2.35 CPU s unrolled,
1.36 s as the row loop, and ran in 6.3 vs 3.5 ms; at 8 x 96 x 56 x 56 2.42 vs 1.27 s to compile and
423 vs 440 ms to run; 5 x 5 at 8 x 240 x 14 x 14: 1.14 vs 1.05 s, 35.8 vs 37.3 ms. 3 x 3 kernels
stay unrolled: the loop compiles and runs slower there (0.61 vs 0.81 s, 40 vs 47 ms at 8 x 72 x 56 x 56).
"""
import jax
import jax.numpy as jnp
from jax import lax

# Kernels up to 9 x 9 (mixnet's largest; its train step 166-181 -> 121-139 ms CPU at 64 px against XLA's grouped
# form, first call within 8%: benchmarks/compile_time.md); larger ones keep XLA's form (not measured).
MAX_TAPS = 81
# Above this many taps (3 x 3), the kernel rows are summed in a loop (one row's taps unrolled in its body).
MAX_UNROLLED_TAPS = 9


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
    rows = weight[:, 0]

    def add_row(out, source, first_row, row_weights):
        """``out`` plus the kw taps of one kernel row, whose windows start at ``first_row`` of ``source``."""
        for b in range(kernel_w):
            window = lax.slice(source, (0, 0, first_row, b),
                               (batch, channels, first_row + (out_h - 1) * stride_h + 1,
                                b + (out_w - 1) * stride_w + 1),
                               (1, 1, stride_h, stride_w))
            term = window * row_weights[:, b][None, :, None, None]
            out = term if out is None else out + term
        return out

    if kernel_h * kernel_w <= MAX_UNROLLED_TAPS:
        out = None
        for a in range(kernel_h):
            out = add_row(out, padded, a, rows[:, a])
        return out
    band_h = (out_h - 1) * stride_h + 1

    # Rematerialised: the windows are slices of ``padded`` again in the backward loop, not kh*kw saved copies.
    @jax.checkpoint
    def next_row(a, out):
        band = lax.dynamic_slice_in_dim(padded, a, band_h, axis=2)
        return add_row(out, band, 0, lax.dynamic_index_in_dim(rows, a, axis=1, keepdims=False))

    # Row 0 outside the loop: the terms are added in the unrolled order, so the value is the same bit for bit.
    return lax.fori_loop(1, kernel_h, next_row, add_row(None, padded, 0, rows[:, 0]))
