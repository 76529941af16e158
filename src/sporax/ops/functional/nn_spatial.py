"""Spatial nn functions: 3-D adaptive pooling, ``affine_grid``/``grid_sample``, ``fold``/``col2im`` (and
their inverse ``unfold_patches``), ``conv3d_transpose``, ``batch_to_space_nd``, ``bidense``,
``add_layer_norm``, ``add_rms_norm``.

Contract: NCHW / NCDHW layouts as MindSpore (and torch) use them; grid coordinates in [-1, 1]
(``align_corners`` chooses whether -1/1 are the centres or the outer edges of the corner pixels).

Algorithm: adaptive max pooling takes, per output cell, the max (and its flat input index) of the
window ``[floor(i * In / Out), ceil((i + 1) * In / Out))``; ``fold`` is the transpose (vector-Jacobian
product) of patch extraction (``jax.lax.conv_general_dilated_patches``), so overlapping patches sum;
``grid_sample`` gathers the ``2**d`` neighbours of each sampling point with bilinear weights (or the
nearest one), out-of-range taps reading 0 ('zeros') or the clamped/reflected border.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> ops.adaptive_avg_pool3d(Tensor(np.ones((1, 1, 4, 4, 4), np.float32)), 2).shape
    (1, 1, 2, 2, 2)
"""
import functools
import itertools
import math
import numbers

import jax
import jax.numpy as jnp
import numpy as np

from sporax.ops._dispatch import array_of, describe, wrap
from sporax.ops.functional.nan_orders import scanned_index
from sporax.ops.functional import convolution, sampling, sampling_samples, spatial_samples
from sporax.ops.functional import nn_spatial_samples as samples
from sporax.ops.functional._args import pair
from sporax.ops.op_table import ANY, NUMBER, op


def _float_input(op_name, value, ranks):
    array = array_of(op_name, "input", value)
    if array.ndim not in ranks:
        raise ValueError(f"For '{op_name}', the input must have {' or '.join(map(str, ranks))} dimensions, but "
                         f"got {describe(value)}.")
    if array.dtype.kind not in "fV":
        raise TypeError(f"For '{op_name}', the input must be a float Tensor, but got {describe(value)}.")
    return array


adaptive_avg_pool2d_ext = sampling.adaptive_avg_pool2d  # MindSpore's second name of the op


def _ranked(op_name, array, ranks):
    if array.ndim not in ranks:
        raise ValueError(f"For '{op_name}', the input must have {' or '.join(map(str, ranks))} dimensions, but "
                         f"got shape {array.shape}.")
    return array


@op(dtypes=NUMBER, mint="adaptive_avg_pool3d", primitive="AdaptiveAvgPool3D", primitive_attrs=("output_size",), samples=sampling_samples.adaptive_samples(3),
    reference=sampling_samples.numpy_adaptive_pool(3, np.mean))
def adaptive_avg_pool3d(input, output_size):
    """Average pooling of (N, C, D, H, W) or (C, D, H, W) into ``output_size`` bins (None keeps a size).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.adaptive_avg_pool3d(Tensor(np.ones((1, 2, 3, 3), np.float32)), (1, None, 2)).shape
        (1, 1, 3, 2)
    """
    array = _ranked("adaptive_avg_pool3d", input, (4, 5))
    sizes = sampling._adaptive_sizes("adaptive_avg_pool3d", output_size, array.shape[-3:])
    if array.dtype.kind in "iu":  # MindSpore averages integers into their own dtype, truncating
        return jnp.trunc(sampling._adaptive_average(array.astype(np.float64), sizes)).astype(array.dtype)
    return sampling._adaptive_average(array, sizes)


@functools.partial(jax.jit, static_argnums=1)
def _adaptive_max_with_indices(array, sizes):
    """Max and flat spatial argmax of each adaptive window of the trailing ``len(sizes)`` axes."""
    spatial = array.shape[-len(sizes):]
    lead = array.shape[:-len(sizes)]
    # Every window at once: bin i of an axis of n spans [i*n//out, ceil((i+1)*n/out)); the shorter windows repeat
    # their last element up to the longest, so (in row-major order) each element's first occurrence keeps its
    # place and argmax picks the element a window of its own picks. One gather, not one per output cell.
    coordinates = []
    for n, out in zip(spatial, sizes):
        starts = np.array([(i * n) // out for i in range(out)])
        stops = np.array([-(-((i + 1) * n) // out) for i in range(out)])
        steps = np.arange(int((stops - starts).max()))
        coordinates.append(np.minimum(starts[:, None] + steps, stops[:, None] - 1))  # (out, longest window)
    spatial_axes = len(sizes)
    flat_index = 0
    for axis, coordinate in enumerate(coordinates):  # -> (*sizes, *longest windows) flat spatial positions
        shape = [1] * (2 * spatial_axes)
        shape[axis], shape[spatial_axes + axis] = coordinate.shape
        flat_index = flat_index + coordinate.reshape(shape) * math.prod(spatial[axis + 1:])
    flat_index = flat_index.reshape(math.prod(sizes), -1)
    blocks = array.reshape(lead + (-1,))[..., flat_index]  # lead + (cells, window elements)
    position = scanned_index(blocks, -1, False, True)  # NaN only in a window's first place (nan_orders)
    shape = lead + tuple(sizes)
    values = jnp.take_along_axis(blocks, position[..., None], -1)[..., 0]
    return values.reshape(shape), jnp.asarray(flat_index)[jnp.arange(flat_index.shape[0]), position].reshape(shape)


@op(dtypes=NUMBER, samples=sampling_samples.adaptive_samples(3, indices=True),
    reference=sampling_samples.numpy_adaptive_pool(3, np.max, np.int32))
def adaptive_max_pool3d(input, output_size, return_indices=False):
    """Max pooling of (N, C, D, H, W) or (C, D, H, W) into ``output_size`` bins; with ``return_indices``
    also the Int32 flat (D*H*W) index of each max.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> out = ops.adaptive_max_pool3d(Tensor(np.arange(8, dtype=np.float32).reshape(1, 1, 2, 2, 2)), 1)
        >>> out.asnumpy().ravel().tolist()
        [7.0]
    """
    array = _ranked("adaptive_max_pool3d", input, (4, 5))
    sizes = sampling._adaptive_sizes("adaptive_max_pool3d", output_size, array.shape[-3:])
    values, indices = _adaptive_max_with_indices(array, sizes)
    return (values, indices.astype(jnp.int32)) if return_indices else values


def _base_coordinates(size, align_corners):
    if align_corners:
        return jnp.linspace(-1.0, 1.0, size) if size > 1 else jnp.zeros((1,))
    return (jnp.arange(size) * 2 + 1) / size - 1


@op(inputs="theta", samples=samples.affine_grid_samples, reference=samples.numpy_affine_grid)
def affine_grid(theta, size, align_corners=False):
    """The sampling grid of affine maps ``theta`` (N, 2, 3) or (N, 3, 4) for an output of ``size``
    (N, C, H, W) or (N, C, D, H, W): (N, H, W, 2) or (N, D, H, W, 3), coordinates (x, y[, z]).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> theta = Tensor(np.array([[[1.0, 0, 0], [0, 1, 0]]], np.float32))
        >>> ops.affine_grid(theta, (1, 1, 2, 3)).shape
        (1, 2, 3, 2)
    """
    matrix = theta
    size = tuple(int(s) for s in size)
    spatial = len(size) - 2
    if spatial not in (2, 3) or matrix.ndim != 3 or matrix.shape[1:] != (spatial, spatial + 1) \
            or matrix.shape[0] != size[0]:
        raise ValueError(f"For 'affine_grid', 'theta' must be (N, 2, 3) for a 4-D size or (N, 3, 4) for a 5-D size, "
                         f"with N = size[0]; got theta of shape {matrix.shape} and size {size}.")
    axes = [_base_coordinates(n, align_corners) for n in reversed(size[2:])]  # x (width) first
    mesh = jnp.meshgrid(*axes, indexing="ij")  # ordered (W, H[, D]) -> transpose to (D, H, W)
    points = jnp.stack([m.T if spatial == 2 else jnp.transpose(m, (2, 1, 0)) for m in mesh], -1)
    homogeneous = jnp.concatenate([points, jnp.ones(points.shape[:-1] + (1,))], -1).astype(matrix.dtype)
    return jnp.einsum("...k,njk->n...j", homogeneous, matrix)


def _unnormalize(coordinate, size, align_corners):
    if align_corners:
        return (coordinate + 1) / 2 * (size - 1)
    return ((coordinate + 1) * size - 1) / 2


def _reflect(coordinate, low, high):
    """Reflect ``coordinate`` into [low, high] (twice-the-span periodic mirror)."""
    span = high - low
    if span <= 0:
        return jnp.zeros_like(coordinate)
    distance = jnp.abs(coordinate - low)
    flips = jnp.floor(distance / span)
    extra = distance - flips * span
    return jnp.where(flips % 2 == 0, low + extra, high - extra)


def _source_coordinate(coordinate, size, padding_mode, align_corners):
    position = _unnormalize(coordinate, size, align_corners)
    if padding_mode == "border":
        position = jnp.clip(position, 0, size - 1)
    elif padding_mode == "reflection":
        position = _reflect(position, 0, size - 1) if align_corners else _reflect(position, -0.5, size - 0.5)
        position = jnp.clip(position, 0, size - 1)
    return position


@functools.partial(jax.jit, static_argnames=("mode", "padding_mode", "align_corners"))
def _grid_sample(array, grid, mode, padding_mode, align_corners):
    spatial = array.ndim - 2
    sizes = array.shape[2:]
    # grid[..., 0] indexes the last (width) axis.
    positions = [_source_coordinate(grid[..., spatial - 1 - axis], sizes[axis], padding_mode, align_corners)
                 for axis in range(spatial)]
    batch = jnp.arange(array.shape[0]).reshape((-1,) + (1,) * spatial)
    channels_last = jnp.moveaxis(array, 1, -1)

    def tap(indices):
        inside = functools.reduce(jnp.logical_and, [(i >= 0) & (i < n) for i, n in zip(indices, sizes)])
        clipped = [jnp.clip(i, 0, n - 1) for i, n in zip(indices, sizes)]
        values = channels_last[(batch,) + tuple(clipped)]  # (N, out..., C)
        return values * inside[..., None].astype(array.dtype)

    if mode == "nearest":
        out = tap([jnp.round(p).astype(jnp.int32) for p in positions])
    else:
        floors = [jnp.floor(p) for p in positions]
        out = 0
        for corner in itertools.product((0, 1), repeat=spatial):
            weight = 1.0
            for axis, bit in enumerate(corner):
                fraction = positions[axis] - floors[axis]
                weight = weight * (fraction if bit else 1 - fraction)
            indices = [(floors[axis] + bit).astype(jnp.int32) for axis, bit in enumerate(corner)]
            out = out + tap(indices) * weight[..., None].astype(array.dtype)
    return jnp.moveaxis(out, -1, 1)


@op(mint="grid_sample", inputs=("input", "grid"), samples=samples.grid_sample_samples, reference=samples.numpy_grid_sample,
    grad_check=False)
def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    """Sample (N, C, H, W) / (N, C, D, H, W) ``input`` at the normalized points of ``grid``
    (N, Ho, Wo, 2) / (N, Do, Ho, Wo, 3), coordinates (x, y[, z]) in [-1, 1].

    Args:
        mode (str): 'bilinear' or 'nearest'. padding_mode (str): 'zeros', 'border' or 'reflection'.
        align_corners (bool): -1/1 are the corner pixels' centres (True) or outer edges. Default: False.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> x = Tensor(np.arange(4, dtype=np.float32).reshape(1, 1, 2, 2))
        >>> ops.grid_sample(x, Tensor(np.zeros((1, 1, 1, 2), np.float32))).asnumpy().item()
        1.5
    """
    array, points = _ranked("grid_sample", input, (4, 5)), grid
    spatial = array.ndim - 2
    if points.ndim != array.ndim or points.shape[-1] != spatial or points.shape[0] != array.shape[0]:
        raise ValueError(f"For 'grid_sample', 'grid' must be (N, ..., {spatial}) with the input's N and rank, but "
                         f"got shape {points.shape} for an input of shape {array.shape}.")
    if mode == "bicubic":
        # MindSpore 2.10 documents 'bicubic' but its grid samplers reject it (on every target) with this ValueError.
        raise ValueError("For 'grid_sample', failed to convert the value \"bicubic\" of input 'interpolation_mode' "
                         "to enum: MindSpore 2.10's grid samplers take 'bilinear' or 'nearest' only; use one of "
                         "those (or ops.interpolate(..., mode='bicubic') for a regular grid).")
    if mode not in ("bilinear", "nearest"):
        raise ValueError(f"For 'grid_sample', 'mode' must be 'bilinear' or 'nearest', but got {mode!r}.")
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError(f"For 'grid_sample', 'padding_mode' must be 'zeros', 'border' or 'reflection', but got "
                         f"{padding_mode!r}.")
    # Half-precision inputs sample in float32 (positions and weights), rounded once at the end.
    compute = jnp.promote_types(array.dtype, jnp.float32)
    return _grid_sample(array.astype(compute), points.astype(compute), mode, padding_mode,
                        bool(align_corners)).astype(array.dtype)


def _patch_args(op_name, kernel_size, dilation, padding, stride):
    return (pair(op_name, "kernel_size", kernel_size, 2, 1), pair(op_name, "dilation", dilation, 2, 1),
            pair(op_name, "padding", padding), pair(op_name, "stride", stride, 2, 1))


def _unfold(array, kernel, dilation, padding, stride):
    """(N, C, H, W) -> (N, C*kh*kw, L) patches, channel-major (as ``torch.nn.functional.unfold``)."""
    patches = jax.lax.conv_general_dilated_patches(array, kernel, stride, [(p, p) for p in padding],
                                                   rhs_dilation=dilation)
    return patches.reshape(patches.shape[:2] + (-1,))


@functools.partial(jax.jit, static_argnums=(1, 2, 3, 4, 5))
def _fold(array, output_size, kernel, dilation, padding, stride):
    template = jnp.zeros((array.shape[0], array.shape[1] // math.prod(kernel)) + output_size, array.dtype)
    _, transpose = jax.vjp(lambda image: _unfold(image, kernel, dilation, padding, stride), template)
    return transpose(array)[0]


@op(mint="fold", samples=samples.fold_samples, reference=samples.numpy_fold)
def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """Sum the sliding blocks of (N, C*kh*kw, L) ``input`` back into an (N, C, H, W) image of ``output_size``
    (the inverse layout of ``unfold``; overlapping values add).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.fold(Tensor(np.ones((1, 4, 4), np.float32)), (3, 3), 2).asnumpy()[0, 0, 1, 1].item()
        4.0
    """
    return _fold_blocks("fold", input, output_size, kernel_size, dilation, padding, stride)


def _fold_blocks(op_name, array, output_size, kernel_size, dilation, padding, stride):
    kernel, dilation, padding, stride = _patch_args(op_name, kernel_size, dilation, padding, stride)
    output_size = pair(op_name, "output_size", output_size, 2, 1)
    if array.ndim != 3 or array.shape[1] % math.prod(kernel):
        raise ValueError(f"For '{op_name}', the input must be (N, C*kh*kw, L) with C*kh*kw divisible by "
                         f"{math.prod(kernel)}, but got shape {array.shape}.")
    blocks = [(size + 2 * p - d * (k - 1) - 1) // s + 1
              for size, p, d, k, s in zip(output_size, padding, dilation, kernel, stride)]
    if math.prod(blocks) != array.shape[2]:
        raise ValueError(f"For '{op_name}', the input holds {array.shape[2]} blocks, but output_size "
                         f"{output_size} with these kernel/stride/padding/dilation gives {math.prod(blocks)}.")
    return _fold(array, output_size, kernel, dilation, padding, stride)


@op(inputs="input_x", primitive="Col2Im",
    primitive_attrs=("kernel_size", ("dilation", "dilation", 1), ("padding", "padding_value", 0), ("stride", "stride", 1)),
    samples=samples.col2im_samples, reference=samples.numpy_col2im)
def col2im(input_x, output_size, kernel_size, dilation, padding_value, stride):
    """``fold`` for an (N, C, kh*kw, L) input (MindSpore's Col2Im layout).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.col2im(Tensor(np.ones((1, 1, 4, 4), np.float32)), Tensor(np.array([3, 3], np.int32)), 2, 1, 0,
        ...            1).shape
        (1, 1, 3, 3)
    """
    array = input_x
    if array.ndim != 4:
        raise ValueError(f"For 'col2im', 'input_x' must be (N, C, kh*kw, L), but got shape {array.shape}.")
    merged = array.reshape(array.shape[0], -1, array.shape[3])
    return _fold_blocks("col2im", merged, output_size, kernel_size, dilation, padding_value, stride)


def unfold_patches(op_name, input, kernel_size, dilation, padding, stride):
    """(N, C, H, W) -> (N, C, kh*kw, L) sliding blocks (MindSpore's Im2Col layout)."""
    array = _float_input(op_name, input, (4,))
    kernel, dilation, padding, stride = _patch_args(op_name, kernel_size, dilation, padding, stride)
    patches = _unfold(array, kernel, dilation, padding, stride)
    return wrap(patches.reshape(array.shape[0], array.shape[1], math.prod(kernel), -1))


@op(inputs=("inputs", "weight"), samples=samples.conv3d_transpose_samples, reference=samples.numpy_conv3d_transpose)
def conv3d_transpose(inputs, weight, pad_mode="valid", padding=0, stride=1, dilation=1, group=1, output_padding=0):
    """3-D transposed convolution of (N, C_in, D, H, W) with a (C_in, C_out/group, kD, kH, kW) weight.

    ``pad_mode`` 'valid' or 'pad' (``padding``: 1, 3 or 6 ints) or 'same' (output = input * stride).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.conv3d_transpose(Tensor(np.ones((1, 2, 2, 2, 2), np.float32)),
        ...                      Tensor(np.ones((2, 3, 2, 2, 2), np.float32))).shape
        (1, 3, 3, 3, 3)
    """
    op_name = "conv3d_transpose"
    array, kernel = convolution.transposed_operands(op_name, ("inputs", inputs), weight, "D, H, W")
    strides = pair(op_name, "stride", stride, 3, 1)
    dilations = pair(op_name, "dilation", dilation, 3, 1)
    extra = pair(op_name, "output_padding", output_padding, 3)
    sizes = kernel.shape[2:]
    if pad_mode == "same":
        pads = []
        for k, d, s in zip(sizes, dilations, strides):
            total = max(d * (k - 1) + 1 - s, 0)
            pads.append((total // 2, total - total // 2))
    elif pad_mode in ("valid", "pad"):
        values = (0,) * 6 if pad_mode == "valid" else (
            (padding,) * 6 if isinstance(padding, numbers.Integral) else
            tuple(v for v in padding for _ in range(2)) if len(padding) == 3 else tuple(padding))
        pads = [(values[2 * i], values[2 * i + 1]) for i in range(3)]
    else:
        raise ValueError(f"For '{op_name}', 'pad_mode' must be 'valid', 'same' or 'pad', but got {pad_mode!r}.")
    return convolution.conv_transpose_nd(array, kernel.astype(array.dtype), strides, pads, dilations, group, extra)


@op(inputs="input_x", dtypes=ANY, primitive="BatchToSpaceND", primitive_attrs=("block_shape", "crops"),
    samples=samples.batch_to_space_nd_samples, reference=samples.numpy_batch_to_space_nd, grad_check=False)
def batch_to_space_nd(input_x, block_shape, crops):
    """Move blocks of the batch back into the last M spatial dims and crop them (inverse of
    ``space_to_batch_nd``): (B * prod(block), ..., S1, ..., SM) -> (B, ..., S1 * b1 - crop, ...).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.batch_to_space_nd(Tensor(np.arange(4, dtype=np.float32).reshape(4, 1, 1, 1)), 2,
        ...                       [[0, 0], [0, 0]]).asnumpy().ravel().tolist()
        [0.0, 1.0, 2.0, 3.0]
    """
    array = input_x
    block = (int(block_shape),) * 2 if isinstance(block_shape, numbers.Integral) else tuple(int(b) for b in block_shape)
    crop = [tuple(int(v) for v in pair_) for pair_ in crops]
    rank = len(block)
    if len(crop) != rank or array.ndim < rank + 1 or array.shape[0] % math.prod(block) \
            or any(b < 1 for b in block) or any(v < 0 for pair_ in crop for v in pair_):
        raise ValueError(f"For 'batch_to_space_nd', expected an input of rank > {len(block)} whose batch divides by "
                         f"prod(block_shape), block_shape >= 1 and crops >= 0 ({len(block)} pairs); got shape "
                         f"{tuple(array.shape)}, block_shape {block_shape}, crops {crops}.")
    batch = array.shape[0] // math.prod(block)
    lead = array.ndim - rank  # batch + non-spatial dims
    array = array.reshape(block + (batch,) + array.shape[1:])
    # axes: block (rank), batch, middle (lead - 1), spatial (rank) -> batch, middle, (spatial_i, block_i)...
    order = [rank] + list(range(rank + 1, rank + lead)) + sum(([rank + lead + i, i] for i in range(rank)), [])
    array = array.transpose(order)
    spatial = array.shape[lead::2][:rank]
    array = array.reshape(array.shape[:lead] + tuple(s * b for s, b in zip(spatial, block)))
    window = tuple(slice(low, array.shape[lead + i] - high) for i, (low, high) in enumerate(crop))
    return array[(slice(None),) * lead + window]


@op(inputs=("input1", "input2", "weight", "bias"), dtypes=NUMBER, samples=spatial_samples.bidense_samples,
    reference=spatial_samples.numpy_bidense)
def bidense(input1, input2, weight, bias=None):
    """The bilinear map ``y[..., o] = input1 @ weight[o] @ input2 + bias[o]``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.bidense(Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones((2, 4), np.float32)),
        ...             Tensor(np.ones((5, 3, 4), np.float32))).shape
        (2, 5)
    """
    a, b, w = input1, input2, weight
    if w.ndim != 3 or a.shape[-1] != w.shape[1] or b.shape[-1] != w.shape[2] or a.shape[:-1] != b.shape[:-1]:
        raise ValueError(f"For 'bidense', expected input1 (..., in1), input2 (..., in2) and weight (out, in1, in2), but "
                         f"got shapes {a.shape}, {b.shape} and {w.shape}.")
    out = jnp.einsum("...i,oij,...j->...o", a, w.astype(a.dtype), b.astype(a.dtype))
    return out if bias is None else out + bias.astype(out.dtype)


@op(inputs=("x1", "x2", "gamma", "beta"), samples=spatial_samples.add_norm_samples(True),
    reference=spatial_samples.numpy_add_layer_norm, grad_check=False)
def add_layer_norm(x1, x2, gamma, beta, epsilon=1e-5, additional_output=False):
    """LayerNorm of ``x = x1 + x2`` over the dims of ``gamma``: ``(y, mean, rstd, x)`` (``x`` is the sum;
    ``mean``/``rstd`` keep the normalized dims as size 1).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> y, mean, rstd, x = ops.add_layer_norm(Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones((2, 3), np.float32)),
        ...                                       Tensor(np.ones(3, np.float32)), Tensor(np.zeros(3, np.float32)))
        >>> x.asnumpy()[0, 0].item(), mean.shape
        (2.0, (2, 1))
    """
    total, scale, shift = x1 + x2, gamma, beta
    axes = tuple(range(total.ndim - scale.ndim, total.ndim))
    values = total.astype(jnp.float32)
    mean = values.mean(axes, keepdims=True)
    rstd = jax.lax.rsqrt(((values - mean) ** 2).mean(axes, keepdims=True) + epsilon)
    y = ((values - mean) * rstd * scale + shift).astype(total.dtype)
    return y, mean, rstd, total


@op(inputs=("x1", "x2", "gamma"), samples=spatial_samples.add_norm_samples(False),
    reference=spatial_samples.numpy_add_rms_norm, grad_check=False)
def add_rms_norm(x1, x2, gamma, epsilon=1e-6):
    """RMSNorm of ``x = x1 + x2`` over the dims of ``gamma``: ``(y, rstd, x)``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> y, rstd, x = ops.add_rms_norm(Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones((2, 3), np.float32)),
        ...                               Tensor(np.ones(3, np.float32)))
        >>> round(float(y.asnumpy()[0, 0]), 4)
        1.0
    """
    total, scale = x1 + x2, gamma
    axes = tuple(range(total.ndim - scale.ndim, total.ndim))
    values = total.astype(jnp.float32)
    rstd = jax.lax.rsqrt((values ** 2).mean(axes, keepdims=True) + epsilon)
    return (values * rstd * scale).astype(total.dtype), rstd, total
