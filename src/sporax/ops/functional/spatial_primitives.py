"""Op-table entries behind nn Primitives that MindSpore gives no functional name (not exported by ``ops``):
``dilation2d`` (``Dilation2D``, grayscale morphological dilation), ``depthwise_conv2d_native``
(``DepthwiseConv2dNative``), ``data_format_dim_map`` (``DataFormatDimMap``), ``embedding_lookup``
(``EmbeddingLookup``), ``extract_image_patches``/``extract_volume_patches`` and the random ``extract_glimpse``
(``ExtractGlimpse``: its noise fill drawn from the global seed). Their Primitive classes (``sporax.ops.operations``) check their settings at construction, as
MindSpore's do, and call these.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.ops.functional.spatial_primitives import data_format_dim_map
    >>> data_format_dim_map(Tensor(np.array([0, 1, 2, 3], np.int32))).asnumpy().tolist()
    [0, 3, 1, 2]
"""
import functools

import jax
import jax.numpy as jnp
import numpy as np

from sporax.core import random_state
from sporax.ops.op_table import ANY, FLOAT, NUMBER, Distribution, Sample, op
from sporax.ops.samples import values


# --- Dilation2D -----------------------------------------------------------------------------------
def _pair_of(value):
    return (int(value), int(value)) if np.ndim(value) == 0 else tuple(int(v) for v in value)[-2:]


def _numpy_dilation2d(x, filter, stride, dilation, pad_mode="SAME", data_format="NCHW"):
    (sh, sw), (dh, dw) = _pair_of(stride), _pair_of(dilation)
    _, kh, kw = filter.shape
    span_h, span_w = (kh - 1) * dh + 1, (kw - 1) * dw + 1
    height, width = x.shape[2:]
    if pad_mode.upper() == "SAME":
        out_h, out_w = -(-height // sh), -(-width // sw)
        pad_h = max((out_h - 1) * sh + span_h - height, 0)
        pad_w = max((out_w - 1) * sw + span_w - width, 0)
        x = np.pad(np.asarray(x, np.float64), ((0, 0), (0, 0), (pad_h // 2, pad_h - pad_h // 2),
                                               (pad_w // 2, pad_w - pad_w // 2)), constant_values=-np.inf)
    else:
        out_h, out_w = (height - span_h) // sh + 1, (width - span_w) // sw + 1
    out = np.full(x.shape[:2] + (out_h, out_w), -np.inf)
    for i in range(kh):
        for j in range(kw):
            window = x[:, :, i * dh:i * dh + (out_h - 1) * sh + 1:sh, j * dw:j * dw + (out_w - 1) * sw + 1:sw]
            out = np.maximum(out, window + filter[None, :, i, j, None, None])
    return out


def _dilation_samples(dtype):
    return [Sample((values((1, 2, 4, 5), dtype), values((2, 2, 2), dtype, seed=1)),
                   {"stride": (1, 1, 1, 1), "dilation": (1, 1, 1, 1), "pad_mode": "SAME"}),
            Sample((values((1, 1, 5, 5), dtype), values((1, 2, 2), dtype, seed=2)),
                   {"stride": (1, 1, 2, 1), "dilation": (1, 1, 1, 2), "pad_mode": "VALID"})]


@op(inputs=("x", "filter"), dtypes=NUMBER, samples=_dilation_samples, reference=_numpy_dilation2d, grad_check=False)
def dilation2d(x, filter, stride, dilation, pad_mode="SAME", data_format="NCHW"):
    """``Dilation2D``: grayscale dilation of NCHW ``x`` by a (C, kh, kw) ``filter``, the max over each window of
    ``x + filter`` (padded taps never win)."""
    if x.ndim != 4 or filter.ndim != 3 or filter.shape[0] != x.shape[1]:
        raise ValueError(f"For 'Dilation2D', expected x (N, C, H, W) and filter (C, kh, kw), but got shapes "
                         f"{tuple(x.shape)} and {tuple(filter.shape)}.")
    kh, kw = filter.shape[1:]
    stride, dilation, pad_mode = _pair_of(stride), _pair_of(dilation), pad_mode.upper()
    patches = jax.lax.conv_general_dilated_patches(x, (kh, kw), stride, pad_mode, rhs_dilation=dilation)
    if pad_mode == "SAME":
        inside = jax.lax.conv_general_dilated_patches(jnp.ones_like(x), (kh, kw), stride, "SAME",
                                                      rhs_dilation=dilation)
        patches = jnp.where(inside > 0, patches, -jnp.inf)
    n, _, height, width = patches.shape
    patches = patches.reshape(n, x.shape[1], kh * kw, height, width)
    return jnp.max(patches + filter.reshape(1, x.shape[1], kh * kw, 1, 1), axis=2).astype(x.dtype)


# --- DataFormatDimMap -----------------------------------------------------------------------------
def _numpy_dim_map(input_x, src_format="NHWC", dst_format="NCHW"):
    table = np.array([src_format.index(letter) for letter in dst_format])
    return table[np.asarray(input_x) % 4].astype(np.asarray(input_x).dtype)


def _dim_map_samples(dtype):
    return [Sample((np.array([[-4, -3, -2, -1], [0, 1, 2, 3]], np.int32),)),
            Sample((np.array([3, -1, 0], np.int64),), {"src_format": "NCHW", "dst_format": "NHWC"})]


@op(inputs="input_x", dtypes=ANY, indices="input_x", samples=_dim_map_samples, reference=_numpy_dim_map,
    grad_check=False)
def data_format_dim_map(input_x, src_format="NHWC", dst_format="NCHW"):
    """``DataFormatDimMap``: dimension index ``i`` in [-4, 4) maps to the position in ``src_format`` of
    ``dst_format``'s letter ``i mod 4`` (as MindSpore 2.10)."""
    for name, value in (("src_format", src_format), ("dst_format", dst_format)):
        if value not in ("NHWC", "NCHW"):
            raise ValueError(f"For 'DataFormatDimMap', '{name}' must be 'NHWC' or 'NCHW', but got {value!r}.")
    table = jnp.asarray([src_format.index(letter) for letter in dst_format], input_x.dtype)
    return table[jnp.mod(input_x, 4)]


# --- EmbeddingLookup ------------------------------------------------------------------------------
def _numpy_embedding_lookup(input_params, input_indices, offset):
    rows = np.asarray(input_indices).astype(np.int64) - int(np.asarray(offset).reshape(-1)[0])
    out = np.zeros(rows.shape + input_params.shape[1:], np.asarray(input_params).dtype)
    inside = (rows >= 0) & (rows < input_params.shape[0])
    out[inside] = np.asarray(input_params)[rows[inside]]
    return out


def _lookup_samples(dtype):
    return [Sample((values((4, 3), dtype), np.array([[1, 5, 2], [3, 0, 4]], np.int32)), {"offset": 1})]


@op(inputs=("input_params", "input_indices"), dtypes=NUMBER, indices="input_indices", samples=_lookup_samples,
    reference=_numpy_embedding_lookup, grad_check=False)
def embedding_lookup(input_params, input_indices, offset):
    """``EmbeddingLookup``: rows ``input_indices - offset`` of ``input_params``; rows outside the table read as
    zeros."""
    rows = input_indices - int(np.asarray(offset).reshape(-1)[0])
    inside = (rows >= 0) & (rows < input_params.shape[0])
    picked = input_params[jnp.clip(rows, 0, input_params.shape[0] - 1)]
    return picked * inside.reshape(inside.shape + (1,) * (input_params.ndim - 1)).astype(input_params.dtype)


# --- ExtractImagePatches / ExtractVolumePatches ---------------------------------------------------
def _numpy_patches(array, window, strides, rates, padding):
    """(N, prod(window) * C, *out): every window's values, ordered window position then channel."""
    array = np.asarray(array, np.float64)
    spatial = array.shape[2:]
    spans = [(k - 1) * r + 1 for k, r in zip(window, rates)]
    if padding == "SAME":
        outs = [-(-size // s) for size, s in zip(spatial, strides)]
        pads = [max((o - 1) * s + span - size, 0) for o, s, span, size in zip(outs, strides, spans, spatial)]
        array = np.pad(array, ((0, 0), (0, 0)) + tuple((p // 2, p - p // 2) for p in pads))
    else:
        outs = [(size - span) // s + 1 for size, span, s in zip(spatial, spans, strides)]
    pieces = []
    for offset in np.ndindex(*window):
        index = tuple(slice(o * r, o * r + (n - 1) * s + 1, s) for o, r, n, s in zip(offset, rates, outs, strides))
        pieces.append(array[(slice(None), slice(None)) + index])
    return np.concatenate(pieces, axis=1)


def _image_patch_samples(dtype):
    return [Sample((values((1, 2, 5, 4), dtype),),
                   {"ksizes": (1, 1, 2, 3), "strides": (1, 1, 2, 1), "rates": (1, 1, 1, 1), "padding": "VALID"}),
            Sample((values((2, 1, 4, 4), dtype, seed=1),),
                   {"ksizes": (1, 1, 2, 2), "strides": (1, 1, 1, 2), "rates": (1, 1, 2, 1), "padding": "SAME"})]


@op(inputs="input_x", dtypes=NUMBER, samples=_image_patch_samples, grad_check=False,
    reference=lambda input_x, ksizes, strides, rates, padding="VALID": _numpy_patches(
        input_x, tuple(ksizes)[-2:], tuple(strides)[-2:], tuple(rates)[-2:], padding.upper()))
def extract_image_patches(input_x, ksizes, strides, rates, padding="VALID"):
    """``ExtractImagePatches``: the (N, kh*kw*C, out_h, out_w) windows of an NCHW image, each window's values
    ordered (row, column, channel)."""
    if input_x.ndim != 4:
        raise ValueError(f"For 'ExtractImagePatches', 'input_x' must be 4-D (N, C, H, W), but got shape "
                         f"{tuple(input_x.shape)}.")
    window = tuple(ksizes)[-2:]
    patches = jax.lax.conv_general_dilated_patches(input_x, window, tuple(strides)[-2:], padding.upper(),
                                                   rhs_dilation=tuple(rates)[-2:])
    n, _, height, width = patches.shape
    patches = patches.reshape(n, input_x.shape[1], window[0] * window[1], height, width)
    return jnp.swapaxes(patches, 1, 2).reshape(n, -1, height, width)


def _triple(value):
    return (int(value),) * 3 if np.ndim(value) == 0 else tuple(int(v) for v in value)[-3:]


def _volume_patch_samples(dtype):
    return [Sample((values((1, 2, 3, 4, 4), dtype),),
                   {"kernel_size": (1, 1, 2, 2, 3), "strides": (1, 1, 1, 2, 1), "padding": "VALID"}),
            Sample((values((1, 1, 3, 3, 2), dtype, seed=1),), {"kernel_size": 2, "strides": 2, "padding": "SAME"})]


@op(inputs="x", dtypes=NUMBER, samples=_volume_patch_samples, grad_check=False,
    reference=lambda x, kernel_size, strides, padding: _numpy_patches(x, _triple(kernel_size), _triple(strides),
                                                                      (1, 1, 1), padding.upper()))
def extract_volume_patches(x, kernel_size, strides, padding):
    """``ExtractVolumePatches``: the (N, kd*kh*kw*C, out_d, out_h, out_w) windows of an NCDHW volume, each
    window's values ordered (depth, row, column, channel)."""
    if x.ndim != 5:
        raise ValueError(f"For 'ExtractVolumePatches', 'x' must be 5-D (N, C, D, H, W), but got shape "
                         f"{tuple(x.shape)}.")
    if 0 in x.shape:
        # MindSpore's kernel refuses it too (its window check fails on the empty dimension).
        raise ValueError(f"For 'ExtractVolumePatches', 'x' must not be empty, but got shape {tuple(x.shape)}.")
    patches = jax.lax.conv_general_dilated_patches(x, _triple(kernel_size), _triple(strides), padding.upper())
    n = patches.shape[0]
    patches = patches.reshape((n, x.shape[1], -1) + patches.shape[2:])
    return jnp.swapaxes(patches, 1, 2).reshape((n, -1) + patches.shape[3:])


# --- ExtractGlimpse -------------------------------------------------------------------------------
def _glimpse_corners(shape, size, offsets, centered, normalized):
    """The (N,) top rows and left columns of each window (truncated toward 0, as MindSpore)."""
    full = np.asarray(shape[1:3], np.float32)
    centres = jnp.asarray(offsets, jnp.float32)
    if normalized:
        centres = centres * full / 2 if centered else centres * full
    if centered:
        centres = centres + full / 2
    top = jnp.trunc(centres[:, 0] - size[0] / 2).astype(jnp.int32)
    left = jnp.trunc(centres[:, 1] - size[1] / 2).astype(jnp.int32)
    return top, left


def _numpy_glimpse(x, offsets, size, centered=True, normalized=True, uniform_noise=True, noise="uniform"):
    """The window's pixels where they lie inside the image; uniform noise in [0, 1] elsewhere."""
    x = np.asarray(x, np.float64)
    low = np.zeros((x.shape[0], size[0], size[1], x.shape[3]))
    high = np.ones_like(low)
    for n in range(x.shape[0]):
        y, z = float(offsets[n][0]), float(offsets[n][1])
        if normalized:
            y, z = (y * x.shape[1] / 2, z * x.shape[2] / 2) if centered else (y * x.shape[1], z * x.shape[2])
        if centered:
            y, z = y + x.shape[1] / 2, z + x.shape[2] / 2
        top, left = int(y - size[0] / 2), int(z - size[1] / 2)
        for i in range(size[0]):
            for j in range(size[1]):
                if 0 <= top + i < x.shape[1] and 0 <= left + j < x.shape[2]:
                    low[n, i, j] = high[n, i, j] = x[n, top + i, left + j]
    return Distribution(shape=low.shape, dtype="float32", low=low, high=high)


def _glimpse_samples(dtype):
    return [Sample((values((2, 4, 5, 2), dtype), np.array([[0.5, -0.8], [-0.2, 0.3]], np.float32)),
                   {"size": (3, 4)})]


def _draws_noise(x, offsets, size, centered=True, normalized=True, uniform_noise=True, noise="uniform"):
    """Whether a call draws its fill (``'zero'`` fills without a key)."""
    return noise != "zero"


@op(inputs=("x", "offsets"), dtypes=FLOAT, input_dtypes={"offsets": ANY}, samples=_glimpse_samples,
    reference=_numpy_glimpse, random=lambda seed: random_state.next_key(), draws=_draws_noise, grad_check=False)
def extract_glimpse(x, offsets, size, centered=True, normalized=True, uniform_noise=True, noise="uniform", *, key):
    """``ExtractGlimpse``: windows of ``size`` (height, width) from NHWC ``x`` at ``offsets`` (N, 2) = (y, x);
    pixels outside the image are ``noise`` ('uniform', 'gaussian' or 'zero')."""
    if x.ndim != 4 or offsets.shape != (x.shape[0], 2):
        raise ValueError(f"For 'ExtractGlimpse', expected x (N, H, W, C) and offsets (N, 2), but got shapes "
                         f"{tuple(x.shape)} and {tuple(offsets.shape)}.")
    return _glimpses(x, offsets, tuple(int(n) for n in size), bool(centered), bool(normalized), noise, key)


# One compiled program per shape and settings: run eagerly, each of its ~40 operations compiled on its own.
@functools.partial(jax.jit, static_argnums=(2, 3, 4, 5))
def _glimpses(x, offsets, size, centered, normalized, noise, key):
    """The (N, height, width, C) windows of ``extract_glimpse``, with ``noise`` outside the image."""
    height, width = size
    top, left = _glimpse_corners(x.shape, size, offsets, centered, normalized)
    rows = top[:, None] + jnp.arange(height)[None, :]
    cols = left[:, None] + jnp.arange(width)[None, :]
    inside = ((rows >= 0) & (rows < x.shape[1]))[:, :, None] & ((cols >= 0) & (cols < x.shape[2]))[:, None, :]
    batch = jnp.arange(x.shape[0])[:, None, None]
    picked = x[batch, jnp.clip(rows, 0, x.shape[1] - 1)[:, :, None], jnp.clip(cols, 0, x.shape[2] - 1)[:, None, :]]
    if noise == "zero":
        fill = jnp.zeros(picked.shape, x.dtype)
    elif noise == "gaussian":
        fill = jax.random.normal(key, picked.shape, jnp.float32).astype(x.dtype)
    else:
        fill = jax.random.uniform(key, picked.shape, jnp.float32).astype(x.dtype)
    return jnp.where(inside[..., None], picked, fill)
