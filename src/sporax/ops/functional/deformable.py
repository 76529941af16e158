"""Deformable convolution: ``deformable_offsets`` samples the input at learned offsets of each kernel tap,
``deformable_conv2d`` convolves those samples (DCNv2, modulated).

Contract: NCHW input; ``offsets`` is (N, 3 * deformable_groups * kh * kw, H_out, W_out) holding the
x offsets of every tap, then the y offsets, then the modulation masks (taps in row-major kernel order);
``strides``/``dilations`` are (1, 1, h, w) and ``pads`` (top, bottom, left, right). The sampled tensor
is (N, C, H_out * kh, W_out * kw), each output position owning a kh x kw block.

Algorithm: tap (a, b) of output (i, j) reads ``x`` at ``(i * sh - top + a * dh + dy, j * sw - left + b * dw + dx)``
bilinearly, corners outside the image reading 0, times the mask; the convolution is then a
stride-(kh, kw) convolution of that tensor.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> x = Tensor(np.ones((1, 1, 3, 3), np.float32))
    >>> offsets = Tensor(np.concatenate([np.zeros((1, 8, 2, 2)), np.ones((1, 4, 2, 2))], 1).astype(np.float32))
    >>> ops.deformable_conv2d(x, Tensor(np.ones((1, 1, 2, 2), np.float32)), offsets, (2, 2), (1, 1, 1, 1),
    ...                       (0, 0, 0, 0)).asnumpy().ravel().tolist()
    [4.0, 4.0, 4.0, 4.0]
"""
import functools

import jax
import jax.numpy as jnp

from sporax.core.product_precision import conv_precision
from sporax.ops._dispatch import array_of, describe, wrap
from sporax.ops.functional import nn_spatial_samples as samples
from sporax.ops.op_table import op


def _pairs(op_name, name, value, count):
    value = tuple(value) if isinstance(value, (tuple, list)) else (value,) * count
    if len(value) != count:
        raise ValueError(f"For '{op_name}', '{name}' must hold {count} ints, but got {value}.")
    return tuple(int(v) for v in value)


@functools.partial(jax.jit, static_argnums=(2, 3, 4, 5, 6))
def _sample(array, offsets, kernel, strides, pads, dilations, groups):
    n, channels, height, width = array.shape
    kh, kw = kernel
    taps = kh * kw
    out_h, out_w = offsets.shape[2:]
    grouped = offsets.reshape(n, 3, groups, taps, out_h, out_w)
    dx, dy, mask = grouped[:, 0], grouped[:, 1], grouped[:, 2]  # (N, G, taps, Ho, Wo)
    tap_rows = (jnp.arange(taps) // kw) * dilations[0]
    tap_cols = (jnp.arange(taps) % kw) * dilations[1]
    base_y = jnp.arange(out_h) * strides[0] - pads[0]
    base_x = jnp.arange(out_w) * strides[1] - pads[2]
    y = base_y[None, None, None, :, None] + tap_rows[None, None, :, None, None] + dy
    x = base_x[None, None, None, None, :] + tap_cols[None, None, :, None, None] + dx
    top, left = jnp.floor(y), jnp.floor(x)
    planes = array.reshape(n, groups, channels // groups, height * width)
    total = 0.0
    for row_step in (0, 1):
        for col_step in (0, 1):
            rows, cols = top + row_step, left + col_step
            weight = (1 - jnp.abs(y - rows)) * (1 - jnp.abs(x - cols))
            inside = (rows >= 0) & (rows < height) & (cols >= 0) & (cols < width)
            flat = (jnp.clip(rows, 0, height - 1) * width + jnp.clip(cols, 0, width - 1)).astype(jnp.int32)
            gathered = jnp.take_along_axis(planes, flat.reshape(n, groups, 1, -1), axis=-1)
            gathered = gathered.reshape(n, groups, channels // groups, taps, out_h, out_w)
            total = total + gathered * (weight * inside)[:, :, None]
    total = total * mask[:, :, None]
    # (N, G, C/G, kh, kw, Ho, Wo) -> (N, C, Ho, kh, Wo, kw)
    total = total.reshape(n, channels, kh, kw, out_h, out_w).transpose(0, 1, 4, 2, 5, 3)
    return total.reshape(n, channels, out_h * kh, out_w * kw)


def deformable_offsets(op_name, x, offsets, kernel_size, strides, pads, dilations=(1, 1, 1, 1), deformable_groups=1,
                       modulated=True):
    """The (N, C, H_out * kh, W_out * kw) deformed samples of ``x`` (see the module doc)."""
    return wrap(_deformed(op_name, array_of(op_name, "x", x), array_of(op_name, "offsets", offsets), kernel_size,
                          strides, pads, dilations, deformable_groups, modulated))


def _deformed(op_name, array, shifts, kernel_size, strides, pads, dilations, deformable_groups, modulated):
    if not modulated:
        raise NotImplementedError(f"{op_name}: modulated=False is not supported (MindSpore supports only True).")
    kernel = _pairs(op_name, "kernel_size", kernel_size, 2)
    stride = _pairs(op_name, "strides", strides, 4)[2:]
    dilation = _pairs(op_name, "dilations", dilations, 4)[2:]
    pad = _pairs(op_name, "pads", pads, 4)
    if array.ndim != 4 or array.dtype.kind not in "fV" or array.shape[1] % deformable_groups:
        raise ValueError(f"For '{op_name}', 'x' must be a float (N, C, H, W) Tensor with C divisible by "
                         f"deformable_groups {deformable_groups}, but got {describe(array)}.")
    height, width = array.shape[2:]
    out_h = (height + pad[0] + pad[1] - dilation[0] * (kernel[0] - 1) - 1) // stride[0] + 1
    out_w = (width + pad[2] + pad[3] - dilation[1] * (kernel[1] - 1) - 1) // stride[1] + 1
    expected = (array.shape[0], 3 * deformable_groups * kernel[0] * kernel[1], out_h, out_w)
    if tuple(shifts.shape) != expected:
        raise ValueError(f"For '{op_name}', 'offsets' must have shape {expected}, but got {tuple(shifts.shape)}.")
    # Half-precision inputs sample in float32 (positions and weights), rounded once at the end.
    compute = jnp.promote_types(array.dtype, jnp.float32)
    return _sample(array.astype(compute), shifts.astype(compute), kernel, stride, pad, dilation,
                   int(deformable_groups)).astype(array.dtype)


@op(inputs=("x", "weight", "offsets", "bias"), samples=samples.deformable_conv2d_samples,
    reference=samples.numpy_deformable_conv2d, grad_check=False)
def deformable_conv2d(x, weight, offsets, kernel_size, strides, padding, bias=None, dilations=(1, 1, 1, 1), groups=1,
                      deformable_groups=1, modulated=True):
    """Deformable (DCNv2) 2-D convolution of NCHW ``x`` with an (C_out, C/groups, kh, kw) ``weight``.

    Args:
        offsets (Tensor): (N, 3 * deformable_groups * kh * kw, H_out, W_out): x offsets, y offsets, masks.
        kernel_size (tuple[int]): (kh, kw). strides, dilations (tuple[int]): (1, 1, h, w).
        padding (tuple[int]): (top, bottom, left, right). bias (Tensor): (C_out,). Default: None.
    """
    sampled = _deformed("deformable_conv2d", x, offsets, kernel_size, strides, padding, dilations, deformable_groups,
                        modulated)
    out = jax.lax.conv_general_dilated(sampled, weight.astype(sampled.dtype), tuple(weight.shape[2:]), "VALID",
                                       feature_group_count=groups, precision=conv_precision())
    return out if bias is None else out + bias.astype(out.dtype).reshape(1, -1, 1, 1)


def deformable_offsets_vjp(op_name, grad, x, offsets, kernel_size, strides, pads, dilations=(1, 1, 1, 1),
                           deformable_groups=1, modulated=True, channels_last=False):
    """``(dx, doffsets)``: the VJP of ``deformable_offsets`` (arrays in, arrays out; NHWC when ``channels_last``,
    with ``strides``/``dilations`` already in NCHW order). As MindSpore's kernel, the output positions come from
    ``offsets``: when it covers fewer than the forward would produce, only those top-left positions are
    differentiated. Half precision accumulates in Float32 and is cast back."""
    arrays = (grad, x, offsets)
    if channels_last:  # the forward op computes in NCHW
        arrays = tuple(jnp.transpose(array, (0, 3, 1, 2)) for array in arrays)
    dtype = arrays[1].dtype
    dout, image, shifts = (array.astype(jnp.promote_types(dtype, jnp.float32)) for array in arrays)
    kernel_h, kernel_w = kernel_size
    top, bottom, left, right = pads
    full_h = (image.shape[2] + top + bottom - dilations[2] * (kernel_h - 1) - 1) // strides[2] + 1
    full_w = (image.shape[3] + left + right - dilations[3] * (kernel_w - 1) - 1) // strides[3] + 1
    out_h, out_w = shifts.shape[2:]
    if out_h > full_h or out_w > full_w:
        raise ValueError(f"For '{op_name}', 'offsets' covers {out_h}x{out_w} positions, more than the "
                         f"{full_h}x{full_w} the forward produces from 'x'.")

    def on_arrays(source, positions):
        padded = jnp.pad(positions, ((0, 0), (0, 0), (0, full_h - out_h), (0, full_w - out_w)))
        deformed = _deformed("DeformableOffsets", source, padded, kernel_size, strides, pads, dilations,
                             deformable_groups, modulated)
        return deformed[:, :, :out_h * kernel_h, :out_w * kernel_w]

    _, pullback = jax.vjp(on_arrays, image, shifts)
    dx, doffsets = pullback(dout.astype(image.dtype))
    if channels_last:
        dx, doffsets = (jnp.transpose(array, (0, 2, 3, 1)) for array in (dx, doffsets))
    return dx.astype(dtype), doffsets.astype(dtype)
