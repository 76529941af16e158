"""How a convolution is lowered: XLA's convolution, or shifted matmuls where XLA:CPU is slow.

Contract: ``convolve(array, weight, strides, padding, dilation, groups, lhs_dilation)`` computes
``lax.conv_general_dilated`` in MindSpore's layouts (NC..., OI...) with the same value and the
same derivatives (forward and reverse mode, any order), within float rounding.

Algorithm. A convolution is a sum over the kernel offsets: for each offset ``k`` the strided
view ``x_k`` of the (padded) input is contracted with the weight slice ``w[:, :, k]`` over the
input channels. Written that way ("shifted matmuls") its input gradient is a sum of
``w_k``-contractions of the output gradient placed back at the offsets (pads that XLA fuses
into one loop), and its weight gradient is one contraction per offset over batch and space.
XLA:CPU's own convolution (Eigen) is fast for wide channels but slow where channels are few:
LeNet5's conv1 (1 input channel) runs ~10x faster forward as shifted matmuls, the input
gradients of 1-16 channel convolutions 2-9x faster, their weight gradients ~2x at large batch
(measured with benchmarks/conv_lowering.py; ResNet's 64-512 channel 3x3 convolutions stay on
XLA's convolution, which wins there). Each of the three computations (forward, input gradient,
weight gradient) picks its form independently from the shapes, through a ``custom_jvp`` whose
tangent map uses the chosen forms: JAX transposes that map into the reverse-mode gradients.

Selection is per backend at trace time: only the CPU backend takes the shifted forms; GPU and
TPU lower every convolution to XLA's, unchanged. Grouped, transposed (``lhs_dilation``) and
non-float convolutions always use XLA's.
"""
import functools
import itertools
import os

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.custom_derivatives import SymbolicZero

_DIMENSION_NUMBERS = {1: ("NCH", "OIH", "NCH"), 2: ("NCHW", "OIHW", "NCHW"),
                      3: ("NCDHW", "OIDHW", "NCDHW")}
# Above this many (input x output) channel pairs XLA's convolution beats shifted matmuls for
# the input and weight gradients (LeNet's 6x16 wins 2-3x; ResNet's 64x64 loses ~2x).
_NARROW_CHANNELS = 1024
# Benchmarks compare against XLA's form by clearing this (read when a convolution is traced).
_ENABLED = os.environ.get("SPORAX_CPU_CONV_LOWERING", "1") != "0"
# Weight gradients as shifted matmuls win once each offset's contraction (output positions x
# channel pairs) has this many multiply-adds (LeNet5 b256: 1.4-2x; at b32 XLA's is faster).
_LARGE_CONTRACTION = 1_000_000


def plain_convolve(array, weight, strides, padding, dilation, groups=1, lhs_dilation=None):
    """XLA's convolution: NC..., OI..., explicit (low, high) or 'SAME'/'VALID' padding."""
    return lax.conv_general_dilated(
        array, weight, window_strides=strides, padding=padding, lhs_dilation=lhs_dilation,
        rhs_dilation=dilation, dimension_numbers=_DIMENSION_NUMBERS[array.ndim - 2],
        feature_group_count=groups)


def _offset_views(array, sizes, strides, pads, dilation):
    """The strided view of the zero-padded ``array`` at each kernel offset (row-major offsets)."""
    padded = lax.pad(array, np.zeros((), array.dtype), [(0, 0, 0)] * 2 + [(low, high, 0) for low, high in pads])
    outs = [(n - d * (k - 1) - 1) // s + 1 for n, k, s, d in zip(padded.shape[2:], sizes, strides, dilation)]
    for offset in itertools.product(*map(range, sizes)):
        start = (0, 0) + tuple(o * d for o, d in zip(offset, dilation))
        limit = padded.shape[:2] + tuple(b + (n - 1) * s + 1 for b, n, s in zip(start[2:], outs, strides))
        yield offset, lax.slice(padded, start, limit, (1, 1) + tuple(strides))


def shifted_convolve(array, weight, strides, pads, dilation):
    """The convolution as a sum of one channel contraction per kernel offset (``pads``: pairs)."""
    terms = []
    single = weight.shape[1] == 1
    for offset, view in _offset_views(array, weight.shape[2:], strides, pads, dilation):
        taps = weight[(slice(None), slice(None)) + offset]
        if single:
            # One input channel: a broadcast multiply-add, which XLA fuses into one loop (as a
            # dot it may unroll the contraction of size 1 into thousands of slices).
            term = view * taps.reshape((1, -1) + (1,) * (view.ndim - 2))
        else:
            term = jnp.einsum("nc...,oc->no...", view, taps)
        terms.append(term)
    # One reduction, not a chain of adds: XLA:CPU fuses an elementwise chain into (and so
    # recomputes it in) every consumer, e.g. each window view of a following max pool, but it
    # materialises a reduction once.
    return jnp.sum(jnp.stack(terms), axis=0)


def patches_convolve(array, weight, strides, pads, dilation):
    """The convolution as one matmul of the stacked offset views (im2col) with the flat weight."""
    views = [view for _, view in _offset_views(array, weight.shape[2:], strides, pads, dilation)]
    patches = jnp.stack(views, axis=2)
    patches = patches.reshape(patches.shape[:1] + (-1,) + patches.shape[3:])
    return jnp.einsum("nq...,oq->no...", patches, weight.reshape(weight.shape[0], -1))


def _plan(array, weight, strides, pads, dilation):
    """(forward, input gradient, weight gradient): True where shifted matmuls are the faster form."""
    out_channels, in_channels = weight.shape[:2]
    pointwise = all(k == 1 for k in weight.shape[2:])
    narrow = in_channels * out_channels <= _NARROW_CHANNELS
    positions = array.shape[0] * np.prod([(n + low + high - d * (k - 1) - 1) // s + 1 for n, (low, high), k, s, d
                                          in zip(array.shape[2:], pads, weight.shape[2:], strides, dilation)])
    forward = pointwise or in_channels == 1
    return forward, pointwise or narrow, pointwise or (narrow and positions * in_channels * out_channels >= _LARGE_CONTRACTION)


def _form(shifted):
    return shifted_convolve if shifted else (
        lambda array, weight, strides, pads, dilation: plain_convolve(array, weight, strides, pads, dilation))


@functools.partial(jax.custom_jvp, nondiff_argnums=(2, 3, 4, 5))
def _cpu_convolve(array, weight, strides, pads, dilation, plan):
    return _form(plan[0])(array, weight, strides, pads, dilation)


def _cpu_convolve_jvp(strides, pads, dilation, plan, primals, tangents):
    array, weight = primals
    array_dot, weight_dot = tangents
    out = _form(plan[0])(array, weight, strides, pads, dilation)
    tangent = None
    if not isinstance(array_dot, SymbolicZero):
        tangent = _form(plan[1])(array_dot, weight, strides, pads, dilation)
    if not isinstance(weight_dot, SymbolicZero):
        term = _form(plan[2])(array, weight_dot, strides, pads, dilation)
        tangent = term if tangent is None else tangent + term
    return out, jnp.zeros_like(out) if tangent is None else tangent


_cpu_convolve.defjvp(_cpu_convolve_jvp, symbolic_zeros=True)


def convolve(array, weight, strides, padding, dilation, groups=1, lhs_dilation=None):
    """The one lowering of every convolution (see the module docstring for the choice)."""
    spatial = array.ndim - 2
    if (groups != 1 or (lhs_dilation is not None and any(d != 1 for d in lhs_dilation))
            or array.dtype not in (np.float32, np.float64) or weight.dtype != array.dtype
            or not _ENABLED or jax.default_backend() != "cpu"):
        return plain_convolve(array, weight, strides, padding, dilation, groups, lhs_dilation)
    dilation = tuple(dilation or (1,) * spatial)
    strides = tuple(strides)
    if isinstance(padding, str):
        pads = lax.padtype_to_pads(array.shape[2:], tuple(d * (k - 1) + 1 for k, d in
                                                          zip(weight.shape[2:], dilation)), strides, padding)
    else:
        pads = padding
    pads = tuple((int(low), int(high)) for low, high in pads)
    if any(low < 0 or high < 0 for low, high in pads):
        return plain_convolve(array, weight, strides, padding, dilation, groups, lhs_dilation)
    plan = _plan(array, weight, strides, pads, dilation)
    if os.environ.get("SPORAX_CONV_PLAN"):
        plan = tuple(p and c == "T" for p, c in zip(plan, os.environ["SPORAX_CONV_PLAN"]))
    if not any(plan):
        return plain_convolve(array, weight, strides, pads, dilation)
    return _cpu_convolve(array, weight, strides, pads, dilation, plan)
