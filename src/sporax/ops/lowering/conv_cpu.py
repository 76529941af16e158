"""Few-channel 2-d convolutions as space-to-depth convolutions (more channels, fewer taps).

Contract: ``conv_space_to_depth(x, w, pads)`` equals ``lax.conv_general_dilated`` of an NCHW
input and an OIHW weight with stride 1, no dilation, one group and explicit non-negative
``(low, high)`` pads, in value and in first and higher derivatives (forward and reverse mode),
within float32 rounding. ``applies(...)`` says which convolutions it takes (float32, at most
``MAX_IN_CHANNELS`` input channels, kernels of at least 3 x 3).

Algorithm: the padded input is cut into 2 x 2 blocks that become channels, (N, C, H, W) ->
(N, 4C, H/2, W/2), and each 2 x 2 block of outputs becomes 4 channels; the k x k kernel becomes
a ceil((k+1)/2)-tap kernel from 4C to 4O channels (a constant gather of the weight, zeros where
a tap falls outside it). XLA:CPU runs a convolution as a matrix product of (N*Ho*Wo, C*k*k)
patches with a (C*k*k, O) kernel: with few channels that product is thin (LeNet5's conv1:
25 x 6) and bound by building 25 floats of patches per output; the blocked form multiplies
4x wider (4C*9 x 4O) over 4x fewer positions. The tangent is the blocked convolution of the
input's tangent plus XLA's own convolution of the weight's tangent, so reverse mode gets the
input gradient as a blocked transposed convolution and the weight gradient as XLA's (the
blocked weight gradient is slower inside a train step).

Measured (``benchmarks/lowering_step.py``, jaxlib 0.10.2, 2-core AMD EPYC, CPU ms per step,
machine shared): hand-written LeNet5 train step b256 25.4 -> 16.9 ms (1.50x), b32 2.94 ->
1.72 ms (1.71x); ResNet-18 b32 (only the 3-channel stem qualifies) 1.03x. One thread, isolated
(b256): conv1 (1 -> 6, 5x5) forward 8.0 -> 2.6 ms; conv2 (6 -> 16, 5x5) forward 2.3 -> 1.2 ms,
input gradient 7.4 -> 3.1 ms. The channel bound (one thread, b64, forward + input gradient):
8 -> 16 channels 5x5 9.9 -> 5.4 ms, 8 -> 32 3x3 11.4 -> 10.1 ms, but 16 -> 32 5x5 20.0 -> 18.9
and 16 -> 32 3x3 14.3 -> 16.1 ms, 32 -> 32 3x3 5.1 -> 6.8 ms: from 16 channels the 4x wider
product no longer pays for the (k+1)^2/k^2 more multiplies.
"""
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.custom_derivatives import SymbolicZero

from sporax.core.product_precision import conv_precision

BLOCK = 2
MAX_IN_CHANNELS = 8
_DIMENSIONS = ("NCHW", "OIHW", "NCHW")


def applies(array, weight, strides, pads, dilation, groups, lhs_dilation):
    """Whether ``conv_space_to_depth`` takes this convolution (``pads``: explicit pairs)."""
    def ones(values):
        return values is None or all(v == 1 for v in values)
    return (array.ndim == 4 and weight.ndim == 4 and array.dtype == jnp.float32 and weight.dtype == jnp.float32
            and groups == 1 and ones(strides) and ones(dilation) and ones(lhs_dilation)
            and weight.shape[1] <= MAX_IN_CHANNELS and min(weight.shape[2:]) >= 3
            and all(low >= 0 and high >= 0 for low, high in pads)
            and all(size + low + high >= k for size, k, (low, high) in zip(array.shape[2:], weight.shape[2:], pads)))


@functools.lru_cache(maxsize=64)
def _tap_index(kernel_h, kernel_w):
    """Gather indices into the flattened k x k taps (k*k: a zero) of the blocked kernel.

    Entry [(r, s), (v, t), u, z] is the tap w[b*u + v - r, b*z + t - s] that connects input
    block offset (v, t) at block distance (u, z) to output block offset (r, s).
    """
    b = BLOCK
    taps_h, taps_w = -(-(kernel_h + b - 1) // b), -(-(kernel_w + b - 1) // b)
    r, s, v, t, u, z = np.ix_(range(b), range(b), range(b), range(b), range(taps_h), range(taps_w))
    row, col = b * u + v - r, b * z + t - s
    inside = (row >= 0) & (row < kernel_h) & (col >= 0) & (col < kernel_w)
    flat = np.where(inside, np.clip(row, 0, kernel_h - 1) * kernel_w + np.clip(col, 0, kernel_w - 1),
                    kernel_h * kernel_w)
    return flat.reshape(b * b, b * b, taps_h, taps_w), taps_h, taps_w


def _blocked(array, weight, pads):
    b = BLOCK
    n, c, height, width = array.shape
    o, _, kernel_h, kernel_w = weight.shape
    (top, bottom), (left, right) = pads
    out_h, out_w = height + top + bottom - kernel_h + 1, width + left + right - kernel_w + 1
    index, taps_h, taps_w = _tap_index(kernel_h, kernel_w)
    blocks_h, blocks_w = -(-out_h // b), -(-out_w // b)
    in_h, in_w = b * (blocks_h + taps_h - 1), b * (blocks_w + taps_w - 1)
    # Padding up to whole blocks (or cropping rows no output reads) keeps the values exact.
    padded = lax.pad(array, np.zeros((), array.dtype),
                     [(0, 0, 0), (0, 0, 0), (top, in_h - height - top, 0), (left, in_w - width - left, 0)])
    blocked = padded.reshape(n, c, in_h // b, b, in_w // b, b).transpose(0, 1, 3, 5, 2, 4)
    blocked = blocked.reshape(n, c * b * b, in_h // b, in_w // b)
    taps = jnp.concatenate([weight.reshape(o, c, kernel_h * kernel_w), jnp.zeros((o, c, 1), weight.dtype)], -1)
    kernel = taps[:, :, index].transpose(0, 2, 1, 3, 4, 5).reshape(o * b * b, c * b * b, taps_h, taps_w)
    out = lax.conv_general_dilated(blocked, kernel, (1, 1), ((0, 0), (0, 0)), dimension_numbers=_DIMENSIONS,
                                   precision=conv_precision())
    out = out.reshape(n, o, b, b, blocks_h, blocks_w).transpose(0, 1, 4, 2, 5, 3)
    return out.reshape(n, o, blocks_h * b, blocks_w * b)[:, :, :out_h, :out_w]


def _plain(array, weight, pads):
    return lax.conv_general_dilated(array, weight, (1, 1), pads, dimension_numbers=_DIMENSIONS,
                                    precision=conv_precision())


@functools.partial(jax.custom_jvp, nondiff_argnums=(2,))
def conv_space_to_depth(array, weight, pads):
    """Stride-1 NCHW x OIHW convolution with explicit ``pads`` through 2 x 2 space-to-depth blocks."""
    return _blocked(array, weight, pads)


def _conv_space_to_depth_jvp(pads, primals, tangents):
    # Linear in each argument: the input's tangent goes through the blocked form (its transpose,
    # the input gradient, is a blocked transposed convolution); the weight's through XLA's own.
    # Zero tangents stay symbolic, so an undifferentiated input costs no convolution.
    (array, weight), (array_dot, weight_dot) = primals, tangents
    out = _blocked(array, weight, pads)
    terms = []
    if not isinstance(array_dot, SymbolicZero):
        terms.append(_blocked(array_dot, weight, pads))
    if not isinstance(weight_dot, SymbolicZero):
        terms.append(_plain(array, weight_dot, pads))
    if not terms:
        return out, jnp.zeros_like(out)
    return out, terms[0] if len(terms) == 1 else terms[0] + terms[1]


conv_space_to_depth.defjvp(_conv_space_to_depth_jvp, symbolic_zeros=True)
