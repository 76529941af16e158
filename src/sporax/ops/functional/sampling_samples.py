"""Samples and NumPy references of the resampling entries (interpolate, adaptive pools, pixel shuffles).

The references follow each op's definition point by point (a source coordinate per output position,
the bins of an adaptive pool, the channel each shuffled pixel comes from), independently of the
kernels' resampling matrices.

Example:
    >>> import numpy as np
    >>> from sporax.ops.functional.sampling_samples import numpy_pixel_shuffle
    >>> numpy_pixel_shuffle(np.arange(4.0).reshape(4, 1, 1), 2).tolist()
    [[[0.0, 1.0], [2.0, 3.0]]]
"""
import itertools
import math

import numpy as np

from sporax.ops.op_table import Sample
from sporax.ops.samples import _numpy_dtype


def _uniform(shape, dtype, seed):
    return np.random.default_rng(seed).uniform(-2.0, 2.0, size=shape).astype(_numpy_dtype(dtype))


# --- interpolate ----------------------------------------------------------------------------------

def _resample_axis(array, axis, size_out, scale, mode, align_corners):
    """``array`` resampled along ``axis`` to ``size_out`` output positions."""
    size_in = array.shape[axis]
    moved = np.moveaxis(array, axis, -1)
    out = np.empty(moved.shape[:-1] + (size_out,))
    for position in range(size_out):
        if mode in ("nearest", "nearest-exact"):
            offset = 0.5 if mode == "nearest-exact" else 0.0
            out[..., position] = moved[..., min(int(math.floor((position + offset) * scale)), size_in - 1)]
        elif mode == "area":
            start, stop = position * size_in // size_out, -(-(position + 1) * size_in // size_out)
            out[..., position] = moved[..., start:stop].mean(-1)
        else:
            if align_corners:
                source = position * (size_in - 1) / (size_out - 1) if size_out > 1 else 0.0
            else:
                source = max((position + 0.5) * scale - 0.5, 0.0)
            low = min(int(math.floor(source)), size_in - 1)
            high, weight = min(low + 1, size_in - 1), source - low
            out[..., position] = (1 - weight) * moved[..., low] + weight * moved[..., high]
    return np.moveaxis(out, -1, axis)


def numpy_interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                      recompute_scale_factor=None):
    spatial = input.ndim - 2
    if size is not None:
        sizes = (size,) * spatial if isinstance(size, int) else tuple(size)
        scales = [i / o for i, o in zip(input.shape[2:], sizes)]
    else:
        factors = (scale_factor,) * spatial if not isinstance(scale_factor, (tuple, list)) else scale_factor
        sizes = [int(math.floor(i * f)) for i, f in zip(input.shape[2:], factors)]
        scales = [1.0 / f for f in factors]
    out = np.asarray(input, np.float64)
    for axis, (size_out, scale) in enumerate(zip(sizes, scales), start=2):
        out = _resample_axis(out, axis, size_out, scale, mode, align_corners)
    return out


def interpolate_samples(dtype):
    image, small = _uniform((2, 3, 5, 4), dtype, 0), _uniform((1, 2, 4, 5), dtype, 1)
    return [Sample((image,), {"size": (7, 6)}),
            Sample((image,), {"size": (8, 3), "mode": "bilinear"}),
            Sample((small,), {"scale_factor": 1.5, "mode": "bilinear", "align_corners": True}),
            Sample((_uniform((2, 3, 7), dtype, 2),), {"scale_factor": 2.0, "mode": "linear"}),
            Sample((_uniform((1, 2, 6, 5), dtype, 3),), {"size": (3, 2), "mode": "area"}),
            Sample((small,), {"size": (6, 3), "mode": "nearest-exact"})]


# --- adaptive pools -------------------------------------------------------------------------------

def numpy_adaptive_pool(spatial, reduce, index_dtype=np.int64):
    """``reduce`` (``np.mean``/``np.max``) over the bins [floor(i*n/out), ceil((i+1)*n/out)) of the last
    ``spatial`` axes; with ``return_indices`` also the flat index of each bin's first maximum."""

    def reference(input, output_size, return_indices=False):
        sizes_in = input.shape[-spatial:]
        sizes = (output_size,) * spatial if not isinstance(output_size, (tuple, list)) else output_size
        sizes = [n if out is None else out for n, out in zip(sizes_in, sizes)]
        values = np.empty(input.shape[:-spatial] + tuple(sizes))
        indices = np.empty(values.shape, index_dtype)
        for cell in np.ndindex(*sizes):
            ranges = [range(i * n // out, -(-(i + 1) * n // out)) for i, n, out in zip(cell, sizes_in, sizes)]
            flat = [np.ravel_multi_index(point, sizes_in) for point in itertools.product(*ranges)]
            window = input.reshape(input.shape[:-spatial] + (-1,))[..., flat]
            values[(Ellipsis,) + cell] = reduce(window, axis=-1)
            indices[(Ellipsis,) + cell] = np.asarray(flat)[window.argmax(-1)]
        return (values, indices) if return_indices else values

    return reference


def adaptive_samples(spatial, indices=False):
    """Uneven bins, a None size (2-d: the axis keeps its size), an unbatched input; ``indices`` adds
    a sample returning them."""

    def make(dtype):
        if spatial == 1:
            return [Sample((_uniform((2, 3, 9), dtype, 0),), {"output_size": 4}),
                    Sample((_uniform((2, 7), dtype, 1),), {"output_size": 3})]
        if spatial == 3:
            samples = [Sample((_uniform((1, 2, 5, 4, 6), dtype, 0),), {"output_size": (2, 3, 4)}),
                       Sample((_uniform((2, 3, 4, 5), dtype, 1),), {"output_size": (None, 2, 3)})]
            if indices:
                samples.append(Sample((_uniform((1, 2, 4, 5, 3), dtype, 2),), {"output_size": 2,
                                                                                "return_indices": True}))
            return samples
        samples = [Sample((_uniform((2, 3, 7, 5), dtype, 0),), {"output_size": (3, 2)}),
                   Sample((_uniform((3, 6, 6), dtype, 1),), {"output_size": (4, None)}),
                   Sample((_uniform((1, 2, 5, 5), dtype, 2),), {"output_size": 5})]
        if indices:
            samples.append(Sample((_uniform((2, 2, 5, 7), dtype, 3),), {"output_size": (2, 3),
                                                                         "return_indices": True}))
        return samples

    return make


# --- pixel shuffles -------------------------------------------------------------------------------

def numpy_pixel_shuffle(input, upscale_factor):
    """Output pixel (c, h*r + i, w*r + j) is input channel c*r*r + i*r + j at (h, w)."""
    r = upscale_factor
    *lead, channels, height, width = input.shape
    out = np.empty((*lead, channels // (r * r), height * r, width * r), input.dtype)
    for i in range(r):
        for j in range(r):
            out[..., i::r, j::r] = input[..., i * r + j::r * r, :, :]
    return out


def numpy_pixel_unshuffle(input, downscale_factor):
    """Output channel c*r*r + i*r + j at (h, w) is input pixel (c, h*r + i, w*r + j)."""
    r = downscale_factor
    *lead, channels, height, width = input.shape
    out = np.empty((*lead, channels * r * r, height // r, width // r), input.dtype)
    for i in range(r):
        for j in range(r):
            out[..., i * r + j::r * r, :, :] = input[..., i::r, j::r]
    return out


def shuffle_samples(factor, channel_groups):
    """Factor 2 on a batch, factor 3 on an unbatched input; ``channel_groups`` scales the channels (a
    shuffle needs C*r*r of them)."""

    def make(dtype):
        return [Sample((_uniform((2, 2 * channel_groups, 6, 4), dtype, 0),), {factor: 2}),
                Sample((_uniform((9 * channel_groups, 3, 6), dtype, 1),), {factor: 3})]

    return make


# --- ResizeNearestNeighbor ------------------------------------------------------------------------

def numpy_resize_nearest(input_x, size, align_corners=False, half_pixel_centers=False):
    """Output (i, j) is input (source(i), source(j)) of the last two axes."""
    def source(position, size_in, size_out):
        if align_corners and size_out > 1:
            value = math.floor(position * (size_in - 1) / (size_out - 1) + 0.5)
        elif half_pixel_centers:
            value = math.floor((position + 0.5) * size_in / size_out)
        else:
            value = math.floor(position * size_in / size_out)
        return min(int(value), size_in - 1)

    height, width = input_x.shape[-2:]
    out = np.empty(input_x.shape[:-2] + tuple(size), input_x.dtype)
    for i in range(size[0]):
        for j in range(size[1]):
            out[..., i, j] = input_x[..., source(i, height, size[0]), source(j, width, size[1])]
    return out


def resize_nearest_samples(dtype):
    image = _uniform((2, 3, 5, 4), dtype, 0)
    return [Sample((image,), {"size": (7, 3)}),
            Sample((image,), {"size": (8, 8), "align_corners": True}),
            Sample((_uniform((1, 2, 6, 3), dtype, 1),), {"size": (4, 5), "half_pixel_centers": True})]


# --- pad ------------------------------------------------------------------------------------------

_NUMPY_PAD_MODES = {"constant": "constant", "reflect": "reflect", "replicate": "edge", "circular": "wrap"}


def numpy_pad(input_x, value=None, padding=(), mode="constant"):
    """``np.pad`` of each padded axis (the last axis first in ``padding``), then a crop where a pad is negative."""
    result = np.asarray(input_x, np.float64)
    for index in range(len(padding) // 2):
        axis = result.ndim - 1 - index
        low, high = padding[2 * index], padding[2 * index + 1]
        widths = [(0, 0)] * result.ndim
        widths[axis] = (max(low, 0), max(high, 0))
        options = {"constant_values": 0.0 if value is None else float(value)} if mode == "constant" else {}
        result = np.pad(result, widths, mode=_NUMPY_PAD_MODES[mode], **options)
        result = np.take(result, np.arange(max(-low, 0), result.shape[axis] - max(-high, 0)), axis=axis)
    return result


def pad_samples(dtype):
    x = _uniform((2, 3, 4), dtype, 0)
    return [Sample((x,), {"padding": (1, 2)}),
            Sample((x,), {"padding": (1, 0, 2, 1), "mode": "reflect"}),
            Sample((x,), {"padding": (-1, 2, 0, 1), "value": 1.5}),
            Sample((x,), {"padding": (2, 1), "mode": "circular"})]
