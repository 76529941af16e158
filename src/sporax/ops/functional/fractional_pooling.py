"""Fractional max (and average) pooling: ``fractional_max_pool2d``/``3d`` (torch style: fixed window size,
random window starts) and the TensorFlow-style sequences of ``FractionalMaxPool``/``FractionalAvgPool``.

Contract: with ``kernel_size`` k, input size n and output size m, window ``i`` starts at
``floor((i + u) * a) - floor(u * a)`` with ``a = (n - k) / (m - 1)`` and the last one at ``n - k``, where
``u`` in [0, 1) is the random sample of that (batch, channel) plane and spatial axis (``_random_samples``
(N, C, spatial) in width, height[, depth] order; drawn from the global random state when not given).
Indices are flat positions in the input plane (Int64). The TensorFlow style takes ``pooling_ratio``
>= 1 per axis: the output size is ``floor(n / ratio)`` and the boundaries split n into steps of
``floor(ratio)`` or ``ceil(ratio)`` (shuffled, or pseudo-random ``ceil(ratio * (i + u))`` steps).

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> x = Tensor(np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4))
    >>> ops.fractional_max_pool2d(x, 2, (2, 2), _random_samples=Tensor(np.zeros((1, 1, 2), np.float32))).asnumpy().tolist()
    [[[[5.0, 7.0], [13.0, 15.0]]]]
"""
import functools
import math

import jax
import jax.numpy as jnp
import numpy as np

from sporax.core import random_state
from sporax.ops._dispatch import array_of, describe, wrap
from sporax.ops.functional import nn_spatial_samples as samples
from sporax.ops.functional._args import pair
from sporax.ops.op_table import ANY, op


def _starts(samples, size_in, kernel, size_out):
    """Window starts (..., size_out) for the random ``samples`` (...)."""
    if size_out == 1:
        return jnp.zeros(samples.shape + (1,), jnp.int32) + (size_in - kernel)
    alpha = (size_in - kernel) / (size_out - 1)
    index = jnp.arange(size_out - 1, dtype=jnp.float32)
    starts = (jnp.floor((index + samples[..., None]) * alpha) - jnp.floor(samples[..., None] * alpha)).astype(jnp.int32)
    return jnp.concatenate([starts, jnp.full(samples.shape + (1,), size_in - kernel, jnp.int32)], axis=-1)


@functools.partial(jax.jit, static_argnums=(2, 3))
def _fixed_kernel(array, samples, kernel, output):
    """Max and flat argmax of each fractional window of the trailing ``len(kernel)`` axes of (N, C, ...)."""
    spatial = len(kernel)
    sizes = array.shape[2:]
    # 2-D: samples[..., 0] drives the width and [..., 1] the height; 3-D: (depth, height, width) in order.
    order = [1, 0] if spatial == 2 else list(range(spatial))
    starts = [_starts(samples[..., order[axis]], sizes[axis], kernel[axis], output[axis]) for axis in range(spatial)]
    flat = array.reshape(array.shape[:2] + (-1,))
    strides = [math.prod(sizes[axis + 1:]) for axis in range(spatial)]
    # Every window at once, as (N, C, output cells, window elements): one gather and one argmax over the last
    # axis (the same element order, so ties pick the same element); a loop over the cells compiled one gather
    # per cell (a 3-D pool of 4 x 3 x 2 cells took 4 CPU s to compile).
    positions = 0
    for axis in range(spatial):
        rows = starts[axis][..., :, None] + jnp.arange(kernel[axis])  # (N, C, output[axis], kernel[axis])
        shape = rows.shape[:2] + tuple(output[axis] if a == axis else 1 for a in range(spatial)) \
            + tuple(kernel[axis] if a == axis else 1 for a in range(spatial))
        positions = positions + rows.reshape(shape) * strides[axis]
    positions = positions.reshape(positions.shape[:2] + (math.prod(output), math.prod(kernel)))
    window = jnp.take_along_axis(flat, positions.reshape(positions.shape[:2] + (-1,)), axis=-1).reshape(positions.shape)
    best = jnp.argmax(window, axis=-1)[..., None]
    shape = array.shape[:2] + tuple(output)
    return (jnp.take_along_axis(window, best, -1)[..., 0].reshape(shape),
            jnp.take_along_axis(positions, best, -1)[..., 0].reshape(shape))


def fractional_max_pool_fixed(op_name, input, kernel_size, output_size, output_ratio, random_samples, spatial):
    """``(values, Int64 indices)`` of fixed-window fractional max pooling (the Primitives' form of the functions)."""
    array = array_of(op_name, "input", input)
    samples = None if random_samples is None else array_of(op_name, "random_samples", random_samples)
    key = random_state.next_key() if samples is None else None
    values, indices = _fractional(op_name, array, kernel_size, output_size, output_ratio, samples, spatial, key)
    return wrap(values), wrap(indices)


def _fractional(op_name, array, kernel_size, output_size, output_ratio, random_samples, spatial, key):
    if array.ndim not in (spatial + 1, spatial + 2) or array.dtype.kind not in "fV":
        raise ValueError(f"For '{op_name}', the input must be a {spatial + 1}-D or {spatial + 2}-D float Tensor, but "
                         f"got {describe(array)}.")
    squeeze = array.ndim == spatial + 1
    if squeeze:
        array = array[None]
    sizes = array.shape[2:]
    kernel = pair(op_name, "kernel_size", kernel_size, spatial, 1)
    if output_size is None:
        if output_ratio is None:
            raise ValueError(f"For '{op_name}', one of 'output_size' and 'output_ratio' must be given.")
        ratios = (output_ratio,) * spatial if isinstance(output_ratio, (int, float)) else tuple(output_ratio)
        if not all(0 < r < 1 for r in ratios):
            raise ValueError(f"For '{op_name}', 'output_ratio' must be in (0, 1), but got {output_ratio}.")
        output = tuple(int(n * r) for n, r in zip(sizes, ratios))
    else:
        output = pair(op_name, "output_size", output_size, spatial, 1)
    if any(o + k - 1 > n for o, k, n in zip(output, kernel, sizes)):
        raise ValueError(f"For '{op_name}', output_size {output} + kernel_size {kernel} - 1 must not exceed the input "
                         f"size {sizes}.")
    if random_samples is None:
        samples = jax.random.uniform(key, array.shape[:2] + (spatial,), jnp.float32)
    else:
        samples = random_samples.astype(jnp.float32)
        if samples.shape != array.shape[:2] + (spatial,):
            raise ValueError(f"For '{op_name}', the random samples must have shape {array.shape[:2] + (spatial,)}, but "
                             f"got {tuple(samples.shape)}.")
    values, indices = _fixed_kernel(array, samples, kernel, output)
    if squeeze:
        values, indices = values[0], indices[0]
    return values, indices.astype(jnp.int64)


def _given_no_samples(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                      _random_samples=None):
    """Whether a call draws its window starts (no ``_random_samples`` given)."""
    return _random_samples is None


_fractional_op = functools.partial(op, inputs=("input", "_random_samples"), input_dtypes={"_random_samples": ANY},
                                   random=lambda seed: random_state.next_key(), draws=_given_no_samples,
                                   reference=samples.numpy_fractional_max_pool, grad_check=False)


@_fractional_op(samples=samples.fractional_max_pool_samples(2))
def fractional_max_pool2d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                          _random_samples=None, *, key):
    """Fractional max pooling of (N, C, H, W) or (C, H, W) with ``kernel_size`` windows to ``output_size``
    (or ``output_ratio`` of the input size); with ``return_indices`` also the Int64 flat H*W indices."""
    values, indices = _fractional("fractional_max_pool2d", input, kernel_size, output_size, output_ratio,
                                  _random_samples, 2, key)
    return (values, indices) if return_indices else values


@_fractional_op(samples=samples.fractional_max_pool_samples(3))
def fractional_max_pool3d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                          _random_samples=None, *, key):
    """Fractional max pooling of (N, C, D, H, W) or (C, D, H, W); see ``fractional_max_pool2d``."""
    values, indices = _fractional("fractional_max_pool3d", input, kernel_size, output_size, output_ratio,
                                  _random_samples, 3, key)
    return (values, indices) if return_indices else values


def pooling_sequence(size_in, ratio, pseudo_random, key):
    """TensorFlow-style boundaries ``0 = b_0 < ... < b_m = size_in`` with ``m = floor(size_in / ratio)``."""
    count = int(size_in // ratio)
    if count < 1:
        raise ValueError(f"pooling ratio {ratio} is larger than the input size {size_in}.")
    if pseudo_random:
        u = float(jax.random.uniform(key, ()))
        alpha = size_in / count
        bounds = [0] + [min(int(math.ceil(alpha * (i + u))) - int(math.ceil(alpha * u)), size_in)
                        for i in range(1, count)] + [size_in]
        return np.maximum.accumulate(np.asarray(bounds, np.int64))
    base = size_in // count
    steps = np.asarray([base + 1] * (size_in - base * count) + [base] * (count - (size_in - base * count)))
    steps = np.asarray(jax.random.permutation(key, steps))
    return np.concatenate([[0], np.cumsum(steps)]).astype(np.int64)


_POOL_REDUCTIONS = {"max": jnp.max, "mean": jnp.mean}


def fractional_pool_nhwc(op_name, x, pooling_ratio, pseudo_random, overlapping, seed, reduction):
    """``(output, row_sequence, col_sequence)`` of TensorFlow-style fractional pooling of NHWC ``x``; each window
    reduced by ``reduction`` (``"max"`` or ``"mean"``)."""
    reduce = _POOL_REDUCTIONS[reduction]
    array = array_of(op_name, "x", x)
    if array.ndim != 4:
        raise ValueError(f"For '{op_name}', 'x' must be 4-D (N, H, W, C), but got {describe(x)}.")
    key = random_state.next_key() if not seed else jax.random.PRNGKey(seed)
    row_key, col_key = jax.random.split(key)
    rows = pooling_sequence(array.shape[1], pooling_ratio[1], pseudo_random, row_key)
    cols = pooling_sequence(array.shape[2], pooling_ratio[2], pseudo_random, col_key)
    pooled = pool_by_sequences(array, rows, cols, overlapping, reduce)
    return wrap(pooled), wrap(jnp.asarray(rows)), wrap(jnp.asarray(cols))


def pool_by_sequences(array, rows, cols, overlapping, reduce):
    """NHWC ``array`` pooled over the windows between consecutive ``rows`` and ``cols`` boundaries (each window
    one longer when ``overlapping``), each reduced by ``reduce`` (``jnp.max``, ``jnp.mean``)."""
    extra = 1 if overlapping else 0
    cells = []
    for top, bottom in zip(rows[:-1], rows[1:]):
        line = []
        for left, right in zip(cols[:-1], cols[1:]):
            block = array[:, top:min(bottom + extra, array.shape[1]), left:min(right + extra, array.shape[2]), :]
            line.append(reduce(block, axis=(1, 2)))
        cells.append(jnp.stack(line, 1))
    return jnp.stack(cells, 1).astype(array.dtype)
