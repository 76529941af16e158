"""Samples and NumPy references of the convolution and pooling entries (the op test table's oracle).

Each reference follows the op's definition window by window in plain NumPy (float64), independently
of the kernels: a convolution sums ``input[window] * weight`` over every window position, a pool
reduces each window of the input cut out by explicit bounds.

Example:
    >>> import numpy as np
    >>> from sporax.ops.functional.spatial_samples import numpy_conv
    >>> numpy_conv(np.ones((1, 1, 3, 3)), np.ones((1, 1, 2, 2))).tolist()
    [[[[4.0, 4.0], [4.0, 4.0]]]]
"""
import itertools
import math

import numpy as np

from sporax.ops.op_table import Sample
from sporax.ops.samples import _numpy_dtype


def _uniform(shape, dtype, seed, low=-2.0, high=2.0):
    return np.random.default_rng(seed).uniform(low, high, size=shape).astype(_numpy_dtype(dtype))


def _tuple(value, count):
    return (value,) * count if isinstance(value, int) else tuple(value)


# --- convolution --------------------------------------------------------------------------------

def _same_pads(sizes, kernel, strides, dilation):
    """TensorFlow's 'same' padding: output ceil(size / stride), the odd pad at the high end."""
    pads = []
    for size, k, s, d in zip(sizes, kernel, strides, dilation):
        total = max((math.ceil(size / s) - 1) * s + d * (k - 1) + 1 - size, 0)
        pads.append((total // 2, total - total // 2))
    return pads


def numpy_conv(input, weight, bias=None, stride=1, pad_mode="valid", padding=0, dilation=1, groups=1):
    """N-d convolution of (N, C, *spatial) ``input`` with (O, C/groups, *kernel) ``weight``."""
    spatial = input.ndim - 2
    strides, dilation = _tuple(stride, spatial), _tuple(dilation, spatial)
    kernel = weight.shape[2:]
    if pad_mode == "same":
        pads = _same_pads(input.shape[2:], kernel, strides, dilation)
    elif pad_mode == "pad":
        padding = _tuple(padding, spatial)
        pads = ([(p, p) for p in padding] if len(padding) == spatial
                else [(padding[2 * i], padding[2 * i + 1]) for i in range(spatial)])
    else:
        pads = [(0, 0)] * spatial
    padded = np.pad(input, [(0, 0), (0, 0)] + pads)
    outs = [(size - d * (k - 1) - 1) // s + 1 for size, k, s, d in zip(padded.shape[2:], kernel, strides, dilation)]
    per_group_in, per_group_out = weight.shape[1], weight.shape[0] // groups
    result = np.zeros((input.shape[0], weight.shape[0], *outs))
    for offset in itertools.product(*[range(k) for k in kernel]):
        window = padded[(slice(None), slice(None)) + tuple(
            slice(o * d, o * d + (n - 1) * s + 1, s) for o, d, n, s in zip(offset, dilation, outs, strides))]
        for group in range(groups):
            part = window[:, group * per_group_in:(group + 1) * per_group_in]
            taps = weight[(slice(group * per_group_out, (group + 1) * per_group_out), slice(None)) + offset]
            result[:, group * per_group_out:(group + 1) * per_group_out] += np.einsum("nc...,oc->no...", part, taps)
    if bias is not None:
        result += np.reshape(bias, (1, -1) + (1,) * spatial)
    return result


def conv_samples(spatial):
    """Valid, 'same' with stride 2, explicit padding with dilation, groups of 2 with a bias."""
    size, kernel = {1: ((7,), (3,)), 2: ((6, 5), (3, 2)), 3: ((4, 5, 4), (2, 3, 2))}[spatial]

    def make(dtype):
        x = _uniform((2, 4) + size, dtype, 0)
        w = _uniform((3, 4) + kernel, dtype, 1)
        grouped = _uniform((4, 2) + kernel, dtype, 2)
        bias = _uniform((4,), dtype, 3)
        samples = [Sample((x, w)),
                   Sample((x, w), {"stride": 2, "pad_mode": "same"}),
                   Sample((x, w), {"pad_mode": "pad", "padding": 1, "dilation": 2 if spatial < 3 else 1}),
                   Sample((x, grouped, bias), {"groups": 2})]
        if spatial == 2:  # (top, bottom, left, right)
            samples.append(Sample((x, w), {"pad_mode": "pad", "padding": (1, 0, 2, 1), "stride": (2, 1)}))
        return samples

    return make


def numpy_conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """Each input element adds ``value * weight`` at ``i * stride + k * dilation - padding``."""
    strides, pads, dilation = _tuple(stride, 2), _tuple(padding, 2), _tuple(dilation, 2)
    extra = _tuple(output_padding, 2)
    batch, channels, height, width = input.shape
    per_group_in, per_group_out = channels // groups, weight.shape[1]
    sizes = [(n - 1) * s - 2 * p + d * (k - 1) + e + 1
             for n, s, p, d, k, e in zip((height, width), strides, pads, dilation, weight.shape[2:], extra)]
    full = np.zeros((batch, per_group_out * groups, sizes[0] + 2 * pads[0], sizes[1] + 2 * pads[1]))
    for i, j in itertools.product(range(height), range(width)):
        for kh, kw in itertools.product(*[range(k) for k in weight.shape[2:]]):
            row, column = i * strides[0] + kh * dilation[0], j * strides[1] + kw * dilation[1]
            if row >= full.shape[2] or column >= full.shape[3]:
                continue
            for group in range(groups):
                taps = weight[group * per_group_in:(group + 1) * per_group_in, :, kh, kw]  # (C/g, O/g)
                values = input[:, group * per_group_in:(group + 1) * per_group_in, i, j] @ taps
                full[:, group * per_group_out:(group + 1) * per_group_out, row, column] += values
    result = full[:, :, pads[0]:pads[0] + sizes[0], pads[1]:pads[1] + sizes[1]]
    if bias is not None:
        result = result + np.reshape(bias, (1, -1, 1, 1))
    return result


def conv_transpose2d_samples(dtype):
    x = _uniform((2, 4, 4, 3), dtype, 0)
    return [Sample((x, _uniform((4, 3, 3, 2), dtype, 1))),
            Sample((x, _uniform((4, 3, 3, 3), dtype, 1)), {"stride": 2, "padding": 1, "output_padding": 1}),
            Sample((x, _uniform((4, 2, 2, 2), dtype, 2), _uniform((4,), dtype, 3)), {"groups": 2, "dilation": 2})]


# --- pooling ------------------------------------------------------------------------------------

def _pool_count(size, kernel, stride, padding, dilation, ceil_mode):
    span = dilation * (kernel - 1) + 1
    if ceil_mode:
        count = -(-(size + 2 * padding - span) // stride) + 1
        return count - 1 if (count - 1) * stride >= size + padding else count
    return (size + 2 * padding - span) // stride + 1


def _windows(sizes, kernel, strides, padding, dilation, ceil_mode):
    """Yield (output index, per-axis positions of the window, in input coordinates)."""
    counts = [_pool_count(*args, ceil_mode) for args in zip(sizes, kernel, strides, padding, dilation)]
    for index in itertools.product(*[range(count) for count in counts]):
        yield index, [[o * s - p + t * d for t in range(k)]
                      for o, s, p, d, k in zip(index, strides, padding, dilation, kernel)]


def numpy_max_pool(spatial):
    """Max over each window (padding and ceil-mode overhang take no part); with ``return_indices`` also
    the flat index of the first maximum in the input's spatial axes."""

    def reference(x, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False):
        kernel = _tuple(kernel_size, spatial)
        strides = kernel if stride is None else _tuple(stride, spatial)
        sizes = x.shape[-spatial:]
        counts = [_pool_count(*args, ceil_mode) for args in zip(
            sizes, kernel, strides, _tuple(padding, spatial), _tuple(dilation, spatial))]
        values = np.empty(x.shape[:-spatial] + tuple(counts), x.dtype)
        indices = np.empty(values.shape, np.int64)
        for index, axes in _windows(sizes, kernel, strides, _tuple(padding, spatial), _tuple(dilation, spatial),
                                    ceil_mode):
            inside = [[p for p in positions if 0 <= p < size] for positions, size in zip(axes, sizes)]
            flat = [np.ravel_multi_index(point, sizes) for point in itertools.product(*inside)]
            window = x.reshape(x.shape[:-spatial] + (-1,))[..., flat]
            values[(Ellipsis,) + index] = window.max(-1)
            indices[(Ellipsis,) + index] = np.asarray(flat)[window.argmax(-1)]
        return (values, indices) if return_indices else values

    return reference


def numpy_avg_pool(spatial):
    """Mean of each window: divided by ``divisor_override``, else by the elements inside the input
    (and its explicit padding when ``count_include_pad``), never the ceil-mode overhang."""

    def reference(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False, count_include_pad=True,
                  divisor_override=0):
        kernel, strides = _tuple(kernel_size, spatial), _tuple(stride, spatial)
        padding, sizes = _tuple(padding, spatial), input_x.shape[-spatial:]
        counts = [_pool_count(*args, ceil_mode) for args in zip(sizes, kernel, strides, padding, (1,) * spatial)]
        result = np.empty(input_x.shape[:-spatial] + tuple(counts))
        for index, axes in _windows(sizes, kernel, strides, padding, (1,) * spatial, ceil_mode):
            inside = tuple(slice(max(positions[0], 0), min(positions[-1] + 1, size))
                           for positions, size in zip(axes, sizes))
            covered = np.prod([min(positions[-1] + 1, size + p) - max(positions[0], -p)
                               for positions, size, p in zip(axes, sizes, padding)])
            real = np.prod([piece.stop - piece.start for piece in inside])
            divisor = divisor_override or (covered if count_include_pad else real)
            result[(Ellipsis,) + index] = input_x[(Ellipsis,) + inside].sum(axis=tuple(range(-spatial, 0))) / divisor
        return result

    return reference


def pool_samples(spatial, maximum):
    """Pool settings per sample: the first two plain (the gradient check takes them), then padding,
    ceil mode and the averaging or index options."""
    size = {1: (9,), 2: (7, 6), 3: (5, 4, 5)}[spatial]

    def make(dtype):
        x = _uniform((2, 3) + size, dtype, 0)
        small = _uniform((1, 2) + size, dtype, 1)
        if maximum:
            return [Sample((x,), {"kernel_size": 2}),
                    Sample((small,), {"kernel_size": 3, "stride": 2, "padding": 1}),
                    Sample((x,), {"kernel_size": 2, "stride": 1, "dilation": 2, "ceil_mode": True}),
                    Sample((small,), {"kernel_size": 3, "stride": 2, "return_indices": True})]
        return [Sample((x,), {"kernel_size": 2, "stride": 2}),
                Sample((x,), {"kernel_size": 3, "stride": 2, "padding": 1, "ceil_mode": True,
                              "count_include_pad": False}),
                Sample((small,), {"kernel_size": 3, "stride": 2, "padding": 1}),
                Sample((small,), {"kernel_size": 2, "stride": 1, "divisor_override": 3} if spatial > 1 else
                       {"kernel_size": 2, "stride": 3, "ceil_mode": True})]

    return make


def numpy_lp_pool(spatial):
    """``(sum x^p)^(1/p)`` over each window (valid windows; ceil mode keeps a partial last one, its sum scaled
    to the whole window)."""

    def reference(x, norm_type, kernel_size, stride=None, ceil_mode=False):
        kernel = _tuple(kernel_size, spatial)
        strides = kernel if stride is None else _tuple(stride, spatial)
        sizes = x.shape[-spatial:]
        counts = [_pool_count(s, k, t, 0, 1, ceil_mode) for s, k, t in zip(sizes, kernel, strides)]
        result = np.empty(x.shape[:-spatial] + tuple(counts))
        for index, axes in _windows(sizes, kernel, strides, (0,) * spatial, (1,) * spatial, ceil_mode):
            inside = tuple(slice(positions[0], min(positions[-1] + 1, size)) for positions, size in zip(axes, sizes))
            part = x[(Ellipsis,) + inside] ** norm_type
            total = part.sum(axis=tuple(range(-spatial, 0))) * np.prod(kernel) / np.prod(part.shape[-spatial:])
            result[(Ellipsis,) + index] = np.sign(total) * np.abs(total) ** (1.0 / norm_type)
        return result

    return reference


def lp_pool_samples(spatial):
    """Positive inputs (``x ** p`` of a negative number is not real for fractional ``p``)."""
    size = {1: (8,), 2: (6, 5)}[spatial]

    def make(dtype):
        x = _uniform((2, 3) + size, dtype, 0, 0.5, 2.0)
        return [Sample((x,), {"norm_type": 2, "kernel_size": 2}),
                Sample((x,), {"norm_type": 3.0, "kernel_size": 3, "stride": 2}),
                Sample((x[0],), {"norm_type": 1, "kernel_size": 2, "stride": 2, "ceil_mode": True})]

    return make


# --- linear layers ------------------------------------------------------------------------------

def numpy_dense(input, weight, bias=None):
    result = np.matmul(input, np.transpose(weight))
    return result if bias is None else result + bias


def dense_samples(dtype):
    return [Sample((_uniform((3, 4), dtype, 0), _uniform((5, 4), dtype, 1))),
            Sample((_uniform((2, 3, 4), dtype, 2), _uniform((5, 4), dtype, 3), _uniform((5,), dtype, 4)))]


def numpy_bias_add(input_x, bias):
    return input_x + np.reshape(bias, (1, -1) + (1,) * (np.ndim(input_x) - 2))


def bias_add_samples(dtype):
    return [Sample((_uniform((2, 3), dtype, 0), _uniform((3,), dtype, 1))),
            Sample((_uniform((2, 3, 4, 5), dtype, 2), _uniform((3,), dtype, 3)))]


def numpy_bidense(input1, input2, weight, bias=None):
    """``out[..., o] = sum_ij input1[..., i] * weight[o, i, j] * input2[..., j] + bias[o]``."""
    out = np.zeros(input1.shape[:-1] + weight.shape[:1])
    for o in range(weight.shape[0]):
        out[..., o] = np.sum((input1 @ weight[o]) * input2, -1)
    return out if bias is None else out + bias


def bidense_samples(dtype):
    return [Sample((_uniform((3, 4), dtype, 0), _uniform((3, 2), dtype, 1), _uniform((5, 4, 2), dtype, 2))),
            Sample((_uniform((2, 3, 4), dtype, 3), _uniform((2, 3, 2), dtype, 4), _uniform((5, 4, 2), dtype, 5),
                    _uniform((5,), dtype, 6)))]


# --- normalisation after an addition --------------------------------------------------------------

def _normalised_axes(total, gamma):
    return tuple(range(total.ndim - np.ndim(gamma), total.ndim))


def numpy_add_layer_norm(x1, x2, gamma, beta, epsilon=1e-5, additional_output=False):
    total = x1 + x2
    axes = _normalised_axes(total, gamma)
    mean = total.mean(axes, keepdims=True)
    rstd = 1 / np.sqrt(total.var(axes, keepdims=True) + epsilon)
    return (total - mean) * rstd * gamma + beta, mean, rstd, total


def numpy_add_rms_norm(x1, x2, gamma, epsilon=1e-6):
    total = x1 + x2
    rstd = 1 / np.sqrt((total ** 2).mean(_normalised_axes(total, gamma), keepdims=True) + epsilon)
    return total * rstd * gamma, rstd, total


def add_norm_samples(shifted):
    """Normalised over the last axis, then over the last two; ``shifted`` adds a beta input."""

    def make(dtype):
        samples = []
        for seed, (shape, normalised) in enumerate((((2, 3, 5), (5,)), ((2, 3, 4), (3, 4)))):
            arrays = [_uniform(shape, dtype, 4 * seed), _uniform(shape, dtype, 4 * seed + 1),
                      _uniform(normalised, dtype, 4 * seed + 2)]
            if shifted:
                arrays.append(_uniform(normalised, dtype, 4 * seed + 3))
            samples.append(Sample(tuple(arrays)))
        return samples

    return make
