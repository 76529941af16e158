"""The lowering of every convolution, chosen per backend and shape by measurement (DESIGN section 7).

XLA:CPU runs a convolution with a single input channel badly: LeNet5's first layer (1 -> 6
channels, 5x5, batch 256) takes ~4-10 ms forward and ~8-18 ms for its weight gradient, where
the same work written as a sum over the k*k kernel offsets of (strided view of the input) x
(one weight per output channel) fuses into one loop: ~1.4 ms forward and ~11 ms for the
weight gradient that autodiff derives from it (k*k fused reductions). Being plain jnp, that
form keeps every transformation (grad, jvp/jacfwd, vmap, higher orders) without custom rules.
Everything else (several input channels, groups, transposed convolutions, other backends,
half precision) uses ``lax.conv_general_dilated``, which measured best there.

Example:
    >>> import numpy as np
    >>> from sporax.ops.functional.conv_lowering import convolve
    >>> convolve(np.ones((1, 1, 4, 4), np.float32), np.ones((2, 1, 3, 3), np.float32),
    ...          (1, 1), "VALID", (1, 1), 1).shape
    (1, 2, 2, 2)
"""
import functools
import itertools

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

DIMENSION_NUMBERS = {1: ("NCH", "OIH", "NCH"), 2: ("NCHW", "OIHW", "NCHW"),
                     3: ("NCDHW", "OIDHW", "NCDHW")}

# Above this many kernel offsets the unrolled sum makes programs too large to be worth it.
_MAX_OFFSETS = 49
_OFFSET_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))


@functools.cache
def _on_cpu():
    return jax.default_backend() == "cpu"


def convolve(array, weight, strides, padding, dilation, groups, lhs_dilation=None):
    """Convolve NC... ``array`` with OI... ``weight``; ``padding`` is 'SAME', 'VALID' or (low, high) pairs."""
    if _sum_over_offsets_is_faster(array, weight, groups, lhs_dilation):
        return _convolve_by_offsets(array, weight, strides, padding, dilation)
    return lax.conv_general_dilated(
        array, weight, window_strides=strides, padding=padding, lhs_dilation=lhs_dilation,
        rhs_dilation=dilation, dimension_numbers=DIMENSION_NUMBERS[array.ndim - 2],
        feature_group_count=groups)


def _sum_over_offsets_is_faster(array, weight, groups, lhs_dilation):
    return (groups == 1 and weight.shape[1] == 1 and _on_cpu()
            and (lhs_dilation is None or all(d == 1 for d in lhs_dilation))
            and np.dtype(array.dtype) in _OFFSET_DTYPES
            and int(np.prod(weight.shape[2:])) <= _MAX_OFFSETS)


def _convolve_by_offsets(array, weight, strides, padding, dilation):
    """A one-input-channel convolution as the sum over kernel offsets of view * weight column."""
    spatial = array.ndim - 2
    kernel = weight.shape[2:]
    if isinstance(padding, str):
        spans = [d * (k - 1) + 1 for k, d in zip(kernel, dilation)]
        padding = lax.padtype_to_pads(array.shape[2:], spans, strides, padding)
    padded = lax.pad(array, np.zeros((), array.dtype), [(0, 0, 0)] * 2 + [(low, high, 0) for low, high in padding])
    outs = [(size - d * (k - 1) - 1) // s + 1 for size, k, s, d in zip(padded.shape[2:], kernel, strides, dilation)]
    columns = weight.reshape(weight.shape[0], -1).T.reshape((-1, 1, weight.shape[0]) + (1,) * spatial)
    total = None
    for number, offset in enumerate(itertools.product(*[range(k) for k in kernel])):
        start = (0, 0) + tuple(o * d for o, d in zip(offset, dilation))
        limit = padded.shape[:2] + tuple(b + (n - 1) * s + 1 for b, n, s in zip(start[2:], outs, strides))
        term = lax.slice(padded, start, limit, (1, 1) + tuple(strides)) * columns[number]
        total = term if total is None else total + term
    # The barrier keeps XLA from fusing the k*k-term sum into each consumer (and, as it
    # transposes to a barrier on the cotangent, the gradient's producer into each of the k*k
    # weight reductions): without it the whole LeNet5 step ran 3.5x slower.
    return lax.optimization_barrier(total)
