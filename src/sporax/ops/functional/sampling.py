"""Ops that resample or pad spatial axes: pad, interpolate/upsample, adaptive pools, pixel_shuffle.

Resampling along each spatial axis is a small static matrix (built with NumPy from the static
sizes) applied with one ``tensordot``, so linear, bicubic and area modes share one lowering and
are differentiable; nearest mode is a ``take``.

Example:
    >>> import numpy as np
    >>> from sporax import ops, Tensor
    >>> ops.interpolate(Tensor(np.ones((1, 1, 2, 2), np.float32)), size=(4, 4)).shape
    (1, 1, 4, 4)
"""
import math
import numbers

import jax.numpy as jnp
import numpy as np
from jax import lax

from sporax.ops.functional.nan_orders import scanned_index
from sporax.ops.functional import sampling_samples as samples
from sporax.ops.functional._args import kernel, static_int
from sporax.ops.op_table import ANY, INT_TUPLE, NUMBER, op, spelling

_PAD_MODES = {"constant": "constant", "reflect": "reflect", "replicate": "edge", "circular": "wrap"}


@op(mint=spelling("pad", "input, pad, mode='constant', value=None", input_x="input", padding="pad", namespaces="mint.nn.functional"),
    inputs=("input_x", "value"), dtypes=ANY, input_dtypes={"value": ANY}, scalars="value",
    samples=samples.pad_samples, reference=samples.numpy_pad)
def pad(input_x, padding, mode="constant", value=None):
    """Pad the last ``len(padding) // 2`` axes: (left, right) of the last axis first; negative crops.

    Example:
        >>> import numpy as np
        >>> from sporax import ops, Tensor
        >>> ops.pad(Tensor(np.ones((1, 2), np.float32)), (1, 0), value=5.0).asnumpy().tolist()
        [[5.0, 1.0, 1.0]]
    """
    array = input_x
    if (not isinstance(padding, tuple) or len(padding) % 2
            or len(padding) // 2 > array.ndim or not all(isinstance(p, numbers.Integral) for p in padding)):
        raise ValueError(f"For 'pad', 'padding' must be a tuple of an even number (at most "
                         f"{2 * array.ndim}) of ints, but got {padding!r}.")
    if mode not in _PAD_MODES:
        raise ValueError(f"For 'pad', 'mode' must be one of {sorted(_PAD_MODES)}, but got {mode!r}.")
    pairs = [(0, 0)] * array.ndim
    for i in range(len(padding) // 2):
        pairs[array.ndim - 1 - i] = (int(padding[2 * i]), int(padding[2 * i + 1]))
    if mode == "constant":
        fill = jnp.asarray(0 if value is None else value)
        return lax.pad(array, fill.astype(array.dtype), [(lo, hi, 0) for lo, hi in pairs])
    return _pad_mode(array, tuple(pairs), _PAD_MODES[mode])


@kernel("pairs", "mode")
def _pad_mode(array, pairs, mode):
    grown = jnp.pad(array, [(max(lo, 0), max(hi, 0)) for lo, hi in pairs], mode=mode)
    return grown[tuple(slice(-lo if lo < 0 else 0, hi if hi < 0 else None) for lo, hi in pairs)]


# --- resampling matrices (NumPy, static) ------------------------------------------------------
def _area_matrix(size_in, size_out):
    """Adaptive average pooling bins: [floor(i*in/out), ceil((i+1)*in/out))."""
    matrix = np.zeros((size_out, size_in))
    for i in range(size_out):
        start, stop = (i * size_in) // size_out, -(-((i + 1) * size_in) // size_out)
        matrix[i, start:stop] = 1.0 / (stop - start)
    return matrix


def _source_coordinates(size_in, size_out, align_corners, scale):
    dst = np.arange(size_out, dtype=np.float64)
    if align_corners:
        return dst * ((size_in - 1) / (size_out - 1) if size_out > 1 else 0.0)
    return (dst + 0.5) * scale - 0.5


def _linear_matrix(size_in, size_out, align_corners, scale):
    src = np.maximum(_source_coordinates(size_in, size_out, align_corners, scale), 0.0)
    low = np.minimum(np.floor(src).astype(np.int64), size_in - 1)
    high = np.minimum(low + 1, size_in - 1)
    frac = src - low
    matrix = np.zeros((size_out, size_in))
    np.add.at(matrix, (np.arange(size_out), low), 1.0 - frac)
    np.add.at(matrix, (np.arange(size_out), high), frac)
    return matrix


def _cubic_matrix(size_in, size_out, align_corners, scale):
    """Keys' cubic convolution as MindSpore's bicubic: with aligned corners a = -0.75 and taps outside the
    input read the edge pixel (exact to float rounding); otherwise a = -0.5, taps outside the input dropped and
    the rest renormalised (within 3e-4 of MindSpore 2.10)."""
    a = -0.75 if align_corners else -0.5
    src = _source_coordinates(size_in, size_out, align_corners, scale)
    base = np.floor(src)
    t = src - base
    weights = [((a * (t + 1) - 5 * a) * (t + 1) + 8 * a) * (t + 1) - 4 * a,
               ((a + 2) * t - (a + 3)) * t * t + 1,
               ((a + 2) * (1 - t) - (a + 3)) * (1 - t) * (1 - t) + 1,
               ((a * (2 - t) - 5 * a) * (2 - t) + 8 * a) * (2 - t) - 4 * a]
    matrix = np.zeros((size_out, size_in))
    for offset, weight in zip((-1, 0, 1, 2), weights):
        taps = base.astype(np.int64) + offset
        if align_corners:
            np.add.at(matrix, (np.arange(size_out), np.clip(taps, 0, size_in - 1)), weight)
            continue
        inside = (taps >= 0) & (taps < size_in)
        np.add.at(matrix, (np.arange(size_out)[inside], taps[inside]), weight[inside])
    return matrix / matrix.sum(axis=1, keepdims=True)


def _apply_matrix(array, axis, matrix):
    out = jnp.tensordot(array, jnp.asarray(matrix.T, array.dtype), axes=([axis], [0]))
    return jnp.moveaxis(out, -1, axis)


_MODE_RANKS = {"nearest": (3, 4, 5), "nearest-exact": (3, 4, 5), "linear": (3,), "bilinear": (4,),
               "bicubic": (4,), "trilinear": (5,), "area": (3, 4, 5)}


@op(dtypes=ANY, aliases=("upsample",), samples=samples.interpolate_samples, reference=samples.numpy_interpolate)
def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None):
    """Resize the spatial axes of an (N, C, ...) input to ``size`` or by ``scale_factor`` (``upsample`` is
    the same op)."""
    op_name = "interpolate"
    array = input
    if mode not in _MODE_RANKS:
        raise ValueError(f"For '{op_name}', 'mode' must be one of {sorted(_MODE_RANKS)}, but got {mode!r}.")
    if array.ndim not in _MODE_RANKS[mode]:
        raise ValueError(f"For '{op_name}', mode {mode!r} needs a {' or '.join(map(str, _MODE_RANKS[mode]))}"
                         f"-d input, but got shape {array.shape}.")
    if mode not in ("nearest", "nearest-exact") and array.dtype.kind not in "fV":
        raise TypeError(f"For '{op_name}', mode {mode!r} needs a float input, but got {array.dtype}; "
                        "cast it first, e.g. ops.cast(x, mindspore.float32).")
    if align_corners and mode not in ("linear", "bilinear", "bicubic", "trilinear"):
        raise ValueError(f"For '{op_name}', 'align_corners' can only be set for linear, bilinear, "
                         f"bicubic and trilinear modes, not {mode!r}.")
    spatial = array.ndim - 2
    sizes_in = array.shape[2:]
    if (size is None) == (scale_factor is None):
        raise ValueError(f"For '{op_name}', exactly one of 'size' and 'scale_factor' must be given.")
    if size is not None:
        sizes_out = (static_int(op_name, "size", size),) * spatial if not isinstance(size, (tuple, list)) \
            else tuple(static_int(op_name, "size", s) for s in size)
        scales = [i / o for i, o in zip(sizes_in, sizes_out)]
    else:
        factors = scale_factor if isinstance(scale_factor, (tuple, list)) else (scale_factor,) * spatial
        sizes_out = tuple(int(math.floor(i * f)) for i, f in zip(sizes_in, factors))
        scales = [i / o if recompute_scale_factor else 1.0 / f
                  for i, o, f in zip(sizes_in, sizes_out, factors)]
    if len(sizes_out) != spatial or any(s <= 0 for s in sizes_out):
        raise ValueError(f"For '{op_name}', the output size {sizes_out} must have {spatial} positive "
                         "entries.")
    return _resample(array, mode, tuple(sizes_out), tuple(float(x) for x in scales), bool(align_corners))


def _resample(array, mode, sizes_out, scales, align_corners):
    out = array
    for k, (size_in, size_out, scale) in enumerate(zip(array.shape[2:], sizes_out, scales)):
        axis = 2 + k
        if mode == "nearest":
            index = np.minimum(np.floor(np.arange(size_out) * scale).astype(np.int64), size_in - 1)
            out = jnp.take(out, jnp.asarray(index), axis)
        elif mode == "nearest-exact":
            index = np.minimum(np.floor((np.arange(size_out) + 0.5) * scale).astype(np.int64), size_in - 1)
            out = jnp.take(out, jnp.asarray(index), axis)
        elif mode == "area":
            out = _apply_matrix(out, axis, _area_matrix(size_in, size_out))
        elif mode == "bicubic":
            out = _apply_matrix(out, axis, _cubic_matrix(size_in, size_out, align_corners, scale))
        else:
            out = _apply_matrix(out, axis, _linear_matrix(size_in, size_out, align_corners, scale))
    return out


upsample = interpolate


def _adaptive_sizes(op_name, output_size, sizes_in):
    if not isinstance(output_size, (tuple, list)):
        output_size = (output_size,) * len(sizes_in)
    if len(output_size) != len(sizes_in):
        raise ValueError(f"For '{op_name}', 'output_size' must have {len(sizes_in)} entries, but got "
                         f"{output_size!r}.")
    return tuple(i if o is None else static_int(op_name, "output_size", o)
                 for i, o in zip(sizes_in, output_size))


@op(primitive="AdaptiveAvgPool2D", primitive_attrs=("output_size",), aliases=("adaptive_avg_pool2d_ext",),
    samples=samples.adaptive_samples(2), reference=samples.numpy_adaptive_pool(2, np.mean))
def adaptive_avg_pool2d(input, output_size):
    """Average pooling of an (N, C, H, W) or (C, H, W) input to ``output_size`` (None keeps a size)."""
    if input.ndim not in (3, 4):
        raise ValueError(f"For 'adaptive_avg_pool2d', the input must be 3-d or 4-d, but got shape {input.shape}.")
    return _adaptive_average(input, _adaptive_sizes("adaptive_avg_pool2d", output_size, input.shape[-2:]))


@kernel("sizes")
def _adaptive_average(array, sizes):
    """Average pooling of the trailing ``len(sizes)`` axes into ``sizes`` bins."""
    for k, size in enumerate(sizes):
        axis = array.ndim - len(sizes) + k
        array = _apply_matrix(array, axis, _area_matrix(array.shape[axis], size))
    return array


@op(samples=samples.adaptive_samples(1), reference=samples.numpy_adaptive_pool(1, np.mean))
def adaptive_avg_pool1d(input, output_size):
    """Average pooling of an (N, C, L) input to length ``output_size``."""
    return _adaptive_average(input, _adaptive_sizes("adaptive_avg_pool1d", output_size, input.shape[-1:]))


@op(dtypes=NUMBER, samples=samples.adaptive_samples(2, indices=True), reference=samples.numpy_adaptive_pool(2, np.max))
def adaptive_max_pool2d(input, output_size, return_indices=False):
    """Max pooling of an (N, C, H, W) or (C, H, W) input to ``output_size``; with ``return_indices``
    also the Int64 flat (H*W) index of each max."""
    if return_indices:
        from sporax.ops.functional import nn_spatial  # nn_spatial builds on this module
        if input.ndim not in (3, 4) or input.dtype.kind not in "fV":
            raise TypeError(f"For 'adaptive_max_pool2d', the input must be a 3-d or 4-d float Tensor to return "
                            f"indices, but got {input.dtype} of shape {input.shape}.")
        sizes = _adaptive_sizes("adaptive_max_pool2d", output_size, input.shape[-2:])
        values, indices = nn_spatial._adaptive_max_with_indices(input, sizes)
        return values, indices.astype(jnp.int64)
    return _adaptive_max(input, _adaptive_sizes("adaptive_max_pool2d", output_size, input.shape[-2:]))


def _first_max(window):
    """The maximum of the last two axes, taken at its first position: the whole gradient goes there when values
    tie, as MindSpore's AdaptiveMaxPool2D bprop (through its argmax) gives it (jnp.max splits it between them)."""
    flat = window.reshape(window.shape[:-2] + (-1,))
    # NaN counts only in a window's first place, as MindSpore's kernel scans (nan_orders)
    return jnp.take_along_axis(flat, scanned_index(flat, -1, False, True)[..., None], axis=-1)[..., 0]


def _adaptive_max(array, sizes):
    height, width = array.shape[-2:]
    out_h, out_w = sizes
    rows = []
    for i in range(out_h):
        top, bottom = (i * height) // out_h, -(-((i + 1) * height) // out_h)
        cells = [_first_max(array[..., top:bottom, (j * width) // out_w:-(-((j + 1) * width) // out_w)])
                 for j in range(out_w)]
        rows.append(jnp.stack(cells, -1))
    return jnp.stack(rows, -2)


@op(dtypes=ANY, samples=samples.shuffle_samples("upscale_factor", 4), reference=samples.numpy_pixel_shuffle)
def pixel_shuffle(input, upscale_factor):
    """Rearrange (..., C*r*r, H, W) into (..., C, H*r, W*r)."""
    array = input
    r = static_int("pixel_shuffle", "upscale_factor", upscale_factor)
    *lead, channels, height, width = array.shape
    if channels % (r * r):
        raise ValueError(f"For 'pixel_shuffle', the channels ({channels}) must be divisible by "
                         f"upscale_factor**2 ({r * r}).")
    out = array.reshape(*lead, channels // (r * r), r, r, height, width)
    n = len(lead)
    out = out.transpose(*range(n), n, n + 3, n + 1, n + 4, n + 2)
    return out.reshape(*lead, channels // (r * r), height * r, width * r)


@op(dtypes=ANY, samples=samples.shuffle_samples("downscale_factor", 1), reference=samples.numpy_pixel_unshuffle)
def pixel_unshuffle(input, downscale_factor):
    """Rearrange (..., C, H*r, W*r) into (..., C*r*r, H, W)."""
    array = input
    r = static_int("pixel_unshuffle", "downscale_factor", downscale_factor)
    *lead, channels, height, width = array.shape
    if height % r or width % r:
        raise ValueError(f"For 'pixel_unshuffle', height and width must be divisible by {r}.")
    out = array.reshape(*lead, channels, height // r, r, width // r, r)
    n = len(lead)
    out = out.transpose(*range(n), n, n + 2, n + 4, n + 1, n + 3)
    return out.reshape(*lead, channels * r * r, height // r, width // r)


@op(dtypes=NUMBER, samples=samples.adaptive_samples(1), reference=samples.numpy_adaptive_pool(1, np.max))
def adaptive_max_pool1d(input, output_size):
    """Max pooling of an (N, C, L) or (C, L) input to length ``output_size``."""
    size = _adaptive_sizes("adaptive_max_pool1d", output_size, input.shape[-1:])
    return _adaptive_max(input[..., None, :], (1,) + size)[..., 0, :]


def _nearest_index(size_in, size_out, align_corners, half_pixel_centers):
    dst = np.arange(size_out, dtype=np.float64)
    if align_corners and size_out > 1:
        # a source half-way between two pixels takes the later one (C's roundf, as MindSpore), not NumPy's even one
        src = np.floor(dst * (size_in - 1) / (size_out - 1) + 0.5)
    elif half_pixel_centers:
        src = np.floor((dst + 0.5) * size_in / size_out)
    else:
        src = np.floor(dst * size_in / size_out)
    return jnp.asarray(np.minimum(src.astype(np.int64), size_in - 1))


@op(inputs="input_x", dtypes=ANY, primitive="ResizeNearestNeighbor",
    primitive_attrs=("size", "align_corners", "half_pixel_centers"), attribute_forms={"size": INT_TUPLE},
    samples=samples.resize_nearest_samples,
    reference=samples.numpy_resize_nearest)
def resize_nearest_neighbor(input_x, size, align_corners=False, half_pixel_centers=False):
    """Resize the last two axes to ``size`` (height, width) by nearest-neighbour sampling (TensorFlow's rules:
    corners aligned, or half-pixel centres, or ``floor(dst * in / out)``)."""
    if input_x.ndim < 2 or len(size) != 2:
        raise ValueError(f"For 'ResizeNearestNeighbor', 'size' must be (height, width) and the input at least "
                         f"2-d, but got size {size!r} for shape {input_x.shape}.")
    out = jnp.take(input_x, _nearest_index(input_x.shape[-2], size[0], align_corners, half_pixel_centers),
                   input_x.ndim - 2)
    return jnp.take(out, _nearest_index(input_x.shape[-1], size[1], align_corners, half_pixel_centers),
                    input_x.ndim - 1)
