"""Samples and NumPy references of the spatial nn entries (``affine_grid``, ``grid_sample``, ``fold``, ``col2im``,
``conv3d_transpose``, ``batch_to_space_nd``): the op test table's oracle.

Each reference follows the op's definition point by point in plain NumPy (float64), independently of the
kernels: a grid point is the affine map of its pixel centre, a sample gathers its neighbours with their
interpolation weights, ``fold`` adds every block value at the pixel it came from, a transposed convolution
adds ``input * weight`` at ``i * stride + k * dilation - padding``, ``batch_to_space_nd`` reads each output
element from the batch its spatial offset names.

Example:
    >>> import numpy as np
    >>> from sporax.ops.functional.nn_spatial_samples import numpy_fold
    >>> numpy_fold(np.ones((1, 4, 4)), (3, 3), 2)[0, 0].tolist()
    [[1.0, 2.0, 1.0], [2.0, 4.0, 2.0], [1.0, 2.0, 1.0]]
"""
import itertools
import math

import numpy as np

from sporax.ops.op_table import Distribution, Sample
from sporax.ops.samples import values


def _tuple(value, count):
    return (value,) * count if isinstance(value, (int, np.integer)) else tuple(value)


# --- affine_grid / grid_sample ------------------------------------------------------------------------

def _centres(size, align_corners):
    """The normalised coordinate of each pixel along an axis of ``size`` pixels."""
    if align_corners:
        return np.array([-1.0 + 2.0 * i / (size - 1) for i in range(size)]) if size > 1 else np.zeros(1)
    return np.array([(2.0 * i + 1.0) / size - 1.0 for i in range(size)])


def numpy_affine_grid(theta, size, align_corners=False):
    """``grid[n, ..., :] = theta[n] @ (x, y[, z], 1)`` at every output pixel (x along the last axis)."""
    spatial = tuple(size[2:])
    axes = [_centres(n, align_corners) for n in spatial]  # (D,) H, W
    grid = np.zeros((size[0],) + spatial + (len(spatial),))
    for n in range(size[0]):
        for index in itertools.product(*[range(s) for s in spatial]):
            point = [axes[a][index[a]] for a in reversed(range(len(spatial)))] + [1.0]  # x, y[, z], 1
            grid[(n,) + index] = theta[n] @ np.array(point)
    return grid


def affine_grid_samples(dtype):
    return [Sample((values((2, 2, 3), dtype, -1.0, 1.0, 0),), {"size": (2, 1, 3, 4)}),
            Sample((values((1, 3, 4), dtype, -1.0, 1.0, 1),), {"size": (1, 2, 2, 3, 2), "align_corners": True})]


def _pixel(coordinate, size, align_corners):
    return (coordinate + 1) / 2 * (size - 1) if align_corners else ((coordinate + 1) * size - 1) / 2


def numpy_grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    """Each output point reads its nearest pixel or the bilinear mix of its ``2**d`` neighbours; taps outside the
    input read 0 (``'zeros'``), or the point is first clamped into the input (``'border'``)."""
    spatial = input.ndim - 2
    sizes = input.shape[2:]
    out_spatial = grid.shape[1:-1]
    output = np.zeros(input.shape[:2] + out_spatial)

    def read(n, pixel):
        if all(0 <= p < s for p, s in zip(pixel, sizes)):
            return input[(n, slice(None)) + tuple(pixel)]
        return np.zeros(input.shape[1])

    for n in range(input.shape[0]):
        for point in itertools.product(*[range(s) for s in out_spatial]):
            coordinates = grid[(n,) + point]  # x, y[, z]: the last input axis first
            position = [_pixel(coordinates[spatial - 1 - axis], sizes[axis], bool(align_corners))
                        for axis in range(spatial)]
            if padding_mode == "border":
                position = [min(max(p, 0.0), s - 1.0) for p, s in zip(position, sizes)]
            if mode == "nearest":
                value = read(n, [int(np.round(p)) for p in position])
            else:
                value = np.zeros(input.shape[1])
                low = [math.floor(p) for p in position]
                for corner in itertools.product((0, 1), repeat=spatial):
                    weight = np.prod([position[a] - low[a] if bit else 1 - (position[a] - low[a])
                                      for a, bit in enumerate(corner)])
                    value = value + weight * read(n, [low[a] + bit for a, bit in enumerate(corner)])
            output[(n, slice(None)) + point] = value
    return output


def grid_sample_samples(dtype):
    x = values((2, 2, 3, 4), dtype, -2.0, 2.0, 0)
    return [Sample((x, values((2, 2, 3, 2), dtype, -1.2, 1.2, 1))),
            Sample((x, values((2, 3, 2, 2), dtype, -1.2, 1.2, 2)),
                   {"mode": "nearest", "padding_mode": "border", "align_corners": True})]


# --- fold / col2im ------------------------------------------------------------------------------------

def numpy_fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """Block ``l`` of channel ``c``, kernel tap ``(i, j)`` adds to pixel ``(bh * sh - ph + i * dh, bw * sw - pw + j * dw)``."""
    (kh, kw), (dh, dw) = _tuple(kernel_size, 2), _tuple(dilation, 2)
    (ph, pw), (sh, sw) = _tuple(padding, 2), _tuple(stride, 2)
    height, width = _tuple(output_size, 2)
    channels = input.shape[1] // (kh * kw)
    blocks_w = (width + 2 * pw - dw * (kw - 1) - 1) // sw + 1
    output = np.zeros((input.shape[0], channels, height, width))
    for c, i, j, block in itertools.product(range(channels), range(kh), range(kw), range(input.shape[2])):
        row = block // blocks_w * sh - ph + i * dh
        column = block % blocks_w * sw - pw + j * dw
        if 0 <= row < height and 0 <= column < width:
            output[:, c, row, column] += input[:, (c * kh + i) * kw + j, block]
    return output


def fold_samples(dtype):
    return [Sample((values((2, 8, 4), dtype, seed=0),), {"output_size": (3, 3), "kernel_size": 2}),
            Sample((values((1, 9, 4), dtype, seed=1),),
                   {"output_size": (4, 5), "kernel_size": (3, 3), "dilation": (1, 2), "padding": 1, "stride": 2})]


def numpy_col2im(input_x, output_size, kernel_size, dilation, padding_value, stride):
    """``fold`` of the (N, C, kh*kw, L) blocks (channel-major, as fold's (N, C*kh*kw, L))."""
    merged = input_x.reshape(input_x.shape[0], -1, input_x.shape[3])
    return numpy_fold(merged, tuple(output_size), kernel_size, dilation, padding_value, stride)


def col2im_samples(dtype):
    return [Sample((values((1, 2, 4, 4), dtype, seed=0),),
                   {"output_size": (3, 3), "kernel_size": 2, "dilation": 1, "padding_value": 0, "stride": 1})]


# --- conv3d_transpose ---------------------------------------------------------------------------------

def numpy_conv3d_transpose(inputs, weight, pad_mode="valid", padding=0, stride=1, dilation=1, group=1,
                           output_padding=0):
    """Each input element adds ``value * weight[c, o]`` at ``i * stride + k * dilation - padding_low``."""
    strides, dilations, extra = _tuple(stride, 3), _tuple(dilation, 3), _tuple(output_padding, 3)
    if pad_mode == "valid":
        pads = [(0, 0)] * 3
    else:
        flat = _tuple(padding, 6) if not isinstance(padding, int) and len(padding) == 6 else None
        flat = flat or tuple(v for v in _tuple(padding, 3) for _ in range(2))
        pads = [(flat[2 * a], flat[2 * a + 1]) for a in range(3)]
    batch, channels = inputs.shape[:2]
    per_in, per_out = channels // group, weight.shape[1]
    kernel = weight.shape[2:]
    full = [(n - 1) * s + d * (k - 1) + 1 + e for n, s, d, k, e in zip(inputs.shape[2:], strides, dilations, kernel, extra)]
    output = np.zeros((batch, per_out * group) + tuple(full))
    for position in itertools.product(*[range(n) for n in inputs.shape[2:]]):
        for tap in itertools.product(*[range(k) for k in kernel]):
            target = tuple(p * s + t * d for p, s, t, d in zip(position, strides, tap, dilations))
            for g in range(group):
                values_in = inputs[(slice(None), slice(g * per_in, (g + 1) * per_in)) + position]  # (N, C/g)
                taps = weight[(slice(g * per_in, (g + 1) * per_in), slice(None)) + tap]  # (C/g, O/g)
                output[(slice(None), slice(g * per_out, (g + 1) * per_out)) + target] += values_in @ taps
    window = tuple(slice(low, size - high) for (low, high), size in zip(pads, full))
    return output[(slice(None), slice(None)) + window]


def conv3d_transpose_samples(dtype):
    x = values((1, 2, 2, 2, 2), dtype, seed=0)
    return [Sample((x, values((2, 3, 2, 2, 2), dtype, seed=1))),
            Sample((x, values((2, 1, 2, 1, 2), dtype, seed=2)),
                   {"pad_mode": "pad", "padding": 1, "stride": 2, "group": 2, "output_padding": 1})]


# --- batch_to_space_nd --------------------------------------------------------------------------------

def numpy_batch_to_space_nd(input_x, block_shape, crops):
    """Output ``(b, ..., y)`` (``y`` before cropping) reads batch ``offset(y % block) * B + b`` at ``y // block``."""
    block = _tuple(block_shape, 2)
    rank = len(block)
    batch = input_x.shape[0] // math.prod(block)
    lead = input_x.ndim - rank
    spatial = [n * b for n, b in zip(input_x.shape[lead:], block)]
    full = np.zeros((batch,) + input_x.shape[1:lead] + tuple(spatial), input_x.dtype)
    for index in np.ndindex(*full.shape):
        y = index[lead:]
        offset = 0
        for value, size in zip(y, block):
            offset = offset * size + value % size
        source = (offset * batch + index[0],) + index[1:lead] + tuple(v // b for v, b in zip(y, block))
        full[index] = input_x[source]
    window = tuple(slice(low, size - high) for (low, high), size in zip(crops, spatial))
    return full[(slice(None),) * lead + window]


def batch_to_space_nd_samples(dtype):
    return [Sample((values((8, 1, 2, 3), dtype, seed=0),), {"block_shape": (2, 2), "crops": ((0, 1), (1, 0))}),
            Sample((values((4, 3, 2), dtype, seed=1),), {"block_shape": 2, "crops": ((0, 0), (0, 1))})]


# --- embedding ----------------------------------------------------------------------------------------

def numpy_embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False):
    """Row ``weight[i]`` for each index ``i`` (a zero row outside the table), each referenced row first scaled to
    ``max_norm / (norm + 1e-7)`` where its ``norm_type``-norm exceeds ``max_norm``."""
    table = np.array(weight, np.float64)
    if max_norm is not None:
        for row in set(int(i) for i in np.ravel(input) if 0 <= i < table.shape[0]):
            norm = np.sum(np.abs(table[row]) ** norm_type) ** (1.0 / norm_type)
            if norm > max_norm:
                table[row] *= max_norm / (norm + 1e-7)
    rows = np.zeros(np.shape(input) + (table.shape[1],))
    for position in np.ndindex(*np.shape(input)):
        if 0 <= input[position] < table.shape[0]:
            rows[position] = table[input[position]]
    return rows


def embedding_samples(dtype):
    index = np.array([[1, 2, 1], [4, 0, 7]], np.int32)  # 7: outside the table
    return [Sample((index, values((5, 4), dtype, seed=0))),
            Sample((index[0], values((5, 4), dtype, seed=1)), {"padding_idx": 1, "max_norm": 1.5})]


# --- deformable_conv2d --------------------------------------------------------------------------------

def _bilinear(plane, y, x):
    """``plane`` (C, H, W) read at the real point (y, x): its four neighbours weighted, those outside reading 0."""
    total = np.zeros(plane.shape[0])
    top, left = math.floor(y), math.floor(x)
    for row in (top, top + 1):
        for column in (left, left + 1):
            if 0 <= row < plane.shape[1] and 0 <= column < plane.shape[2]:
                total += (1 - abs(y - row)) * (1 - abs(x - column)) * plane[:, row, column]
    return total


def numpy_deformable_conv2d(x, weight, offsets, bias=None, kernel_size=(1, 1), strides=(1, 1, 1, 1),
                            padding=(0, 0, 0, 0), dilations=(1, 1, 1, 1), groups=1, deformable_groups=1, modulated=True):
    """Tap ``(a, b)`` of output ``(i, j)`` reads ``x`` at ``(i * sh - top + a * dh + dy, j * sw - left + b * dw + dx)``
    times its mask; the output sums the taps times ``weight`` over each group's channels."""
    kh, kw = kernel_size
    (sh, sw), (dh, dw) = strides[2:], dilations[2:]
    batch, channels = x.shape[:2]
    out_h, out_w = offsets.shape[2:]
    per_group = channels // deformable_groups
    sampled = np.zeros((batch, channels, out_h, out_w, kh, kw))
    for n, g, a, b, i, j in itertools.product(range(batch), range(deformable_groups), range(kh), range(kw),
                                              range(out_h), range(out_w)):
        tap = (g * kh + a) * kw + b
        dx, dy, mask = (offsets[n, kind * deformable_groups * kh * kw + tap, i, j] for kind in range(3))
        y = i * sh - padding[0] + a * dh + dy
        xx = j * sw - padding[2] + b * dw + dx
        channels_of_group = slice(g * per_group, (g + 1) * per_group)
        sampled[n, channels_of_group, i, j, a, b] = mask * _bilinear(x[n, channels_of_group], y, xx)
    in_per_conv_group, out_per_conv_group = channels // groups, weight.shape[0] // groups
    output = np.zeros((batch, weight.shape[0], out_h, out_w))
    for o in range(weight.shape[0]):
        group = o // out_per_conv_group
        block = sampled[:, group * in_per_conv_group:(group + 1) * in_per_conv_group]
        output[:, o] = np.einsum("ncijab,cab->nij", block, weight[o])
    return output if bias is None else output + np.reshape(bias, (1, -1, 1, 1))


def deformable_conv2d_samples(dtype):
    shifts = values((1, 12, 4, 4), dtype, -0.5, 1.5, seed=2)
    return [Sample((values((1, 2, 5, 5), dtype, seed=0), values((3, 2, 2, 2), dtype, seed=1), shifts,
                    values((3,), dtype, seed=3)), {"kernel_size": (2, 2), "strides": (1, 1, 1, 1),
                                                   "padding": (0, 0, 0, 0)}),
            Sample((values((1, 4, 5, 5), dtype, seed=4), values((2, 2, 2, 2), dtype, seed=5),
                    values((1, 24, 3, 3), dtype, -0.5, 1.5, seed=6)),
                   {"kernel_size": (2, 2), "strides": (1, 1, 2, 2), "padding": (1, 0, 0, 1), "groups": 2,
                    "deformable_groups": 2})]


# --- fractional max pooling ---------------------------------------------------------------------------

def fractional_max_pool_samples(spatial):
    """Many (batch, channel) planes that increase along every axis: a window's maximum is its last corner, and a
    window start is ``floor(i * a)`` or one more (``a = (n - k) / (m - 1)``), so each output lies between two
    known input values."""
    # one window along the leading axes (few windows: each is a gather the kernel compiles), and along the last a
    # window step that is not whole (1.5): the random samples move the starts
    sizes, kernel, output = ((2, 5), 2, (1, 3)) if spatial == 2 else ((2, 2, 5), 2, (1, 1, 3))
    planes = (4, 8)
    ramp = (np.arange(np.prod(sizes)).reshape(sizes) / np.prod(sizes)).astype(np.float32)
    x = np.broadcast_to(ramp, planes + ramp.shape) + np.arange(np.prod(planes), dtype=np.float32).reshape(
        planes + (1,) * spatial)
    return lambda dtype: [Sample((np.ascontiguousarray(x),), {"kernel_size": kernel, "output_size": output})] \
        if dtype == "float32" else []


def numpy_fractional_max_pool(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                              _random_samples=None):
    spatial = len(output_size) if isinstance(output_size, tuple) else input.ndim - 2
    sizes = input.shape[2:]
    outputs = _tuple(output_size, spatial)
    lows, highs = [], []
    for size, out in zip(sizes, outputs):
        alpha = (size - kernel_size) / max(out - 1, 1)
        first = np.array([math.floor(i * alpha) for i in range(out - 1)] + [size - kernel_size])
        last = np.minimum(first + np.array([1] * (out - 1) + [0]), size - kernel_size)
        lows.append(first + kernel_size - 1)
        highs.append(last + kernel_size - 1)
    low = input[(Ellipsis,) + np.ix_(*lows)]
    high = input[(Ellipsis,) + np.ix_(*highs)]
    return Distribution(low.shape, "float32", low=low, high=high)
