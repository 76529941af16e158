"""Convolution and linear layers as functions: conv1d/2d/3d, conv_transpose2d, dense, bias_add and embedding
(the pools are ``sporax.ops.functional.pooling``'s).

Layouts are MindSpore's: inputs NC[D]HW, convolution weights OI[D]HW. All convolutions lower
through ``_convolve``, so the lowering can be tuned per backend in one place (DESIGN section 7:
convolution weight gradients are a weak spot on CPU).

Example:
    >>> import numpy as np
    >>> from sporax import ops, Tensor
    >>> x = Tensor(np.ones((1, 3, 8, 8), np.float32))
    >>> ops.conv2d(x, Tensor(np.ones((4, 3, 3, 3), np.float32)), pad_mode='same').shape
    (1, 4, 8, 8)
"""
import numbers

import jax.numpy as jnp
from jax import lax

from sporax.core import dtype as mstype
from sporax.core.product_precision import conv_precision
from sporax.ops._dispatch import array_of, describe
from sporax.ops.functional import nn_spatial_samples
from sporax.ops.functional import spatial_samples as samples
from sporax.ops.functional._args import kernel, pair
from sporax.ops.functional.complex_gradients import conjugate_gradient
from sporax.ops.lowering import conv_cpu, conv_nhwc_cpu, depthwise_cpu
from sporax.ops.lowering.switch import fast_lowering
from sporax.ops.op_table import ANY, FLOAT, op, spelling

_DIMENSION_NUMBERS = {1: ("NCH", "OIH", "NCH"), 2: ("NCHW", "OIHW", "NCHW"),
                      3: ("NCDHW", "OIDHW", "NCDHW")}


def _convolve_kernel(array, weight, bias, strides, padding, dilation, groups, lhs_dilation, fast=None):
    # The lowering choice is a static argument: a jit traced under plain_lowering() is its own entry.
    return _convolve_body(array, weight, bias, strides, padding, dilation, groups, lhs_dilation,
                          fast_lowering("conv") if fast is None else fast)


def _convolve_with_bias(array, weight, bias, strides, padding, dilation, groups, lhs_dilation, fast):
    out = _convolve(array, weight.astype(array.dtype), strides, padding, dilation, groups, lhs_dilation, fast)
    if bias is not None:
        out = out + bias.astype(out.dtype).reshape((1, -1) + (1,) * (out.ndim - 2))
    return out


_convolve_body = kernel("strides", "padding", "dilation", "groups", "lhs_dilation", "fast")(_convolve_with_bias)


def _convolve(array, weight, strides, padding, dilation, groups, lhs_dilation=None, fast=None):
    """The one lowering of every convolution: NC..., OI..., explicit or 'SAME'/'VALID' padding.

    ``fast`` (default: ``fast_lowering('conv')`` now) lets 2-d convolutions take
    ``lowering.conv_cpu``'s form (few channels), ``lowering.conv_nhwc_cpu``'s (wide) or
    ``lowering.depthwise_cpu``'s (one group per channel); a jit that calls this should pass it as a
    static argument.
    """
    spatial = array.ndim - 2
    if fast is None:
        fast = fast_lowering("conv")
    if fast and spatial == 2:
        pads = lax.padtype_to_pads(array.shape[2:], weight.shape[2:], strides, padding) \
            if isinstance(padding, str) else tuple(tuple(pair) for pair in padding)
        if conv_cpu.applies(array, weight, strides, pads, dilation, groups, lhs_dilation):
            return conv_cpu.conv_space_to_depth(array, weight, pads)
        if conv_nhwc_cpu.applies(array, weight, strides, pads, dilation, groups, lhs_dilation):
            return conv_nhwc_cpu.conv_nhwc(array, weight, strides, pads)
        if depthwise_cpu.applies(array, weight, strides, pads, dilation, groups, lhs_dilation):
            return depthwise_cpu.conv_depthwise(array, weight, strides, pads)
    return lax.conv_general_dilated(
        array, weight, window_strides=strides, padding=padding, lhs_dilation=lhs_dilation,
        rhs_dilation=dilation, dimension_numbers=_DIMENSION_NUMBERS[spatial],
        feature_group_count=groups, precision=conv_precision())


def _conv_padding(op_name, pad_mode, padding, spatial):
    """lax padding for MindSpore's ``pad_mode`` ('valid', 'same', 'pad') and ``padding``."""
    if pad_mode not in ("valid", "same", "pad"):
        raise ValueError(f"For '{op_name}', 'pad_mode' must be 'valid', 'same' or 'pad', but got "
                         f"{pad_mode!r}.")
    if pad_mode != "pad":
        if padding not in (0, (0,) * spatial, [0] * spatial):
            raise ValueError(f"For '{op_name}', 'padding' must be 0 when 'pad_mode' is {pad_mode!r}, "
                             f"but got {padding!r}; use pad_mode='pad' for explicit padding.")
        return pad_mode.upper()
    pads = None
    if isinstance(padding, numbers.Integral) and not isinstance(padding, bool):
        pads = ((int(padding), int(padding)),) * spatial
    elif isinstance(padding, (tuple, list)) and len(padding) == spatial:
        pads = tuple((int(p), int(p)) for p in padding)
    elif isinstance(padding, (tuple, list)) and len(padding) == 2 * spatial:
        pads = tuple((int(padding[2 * i]), int(padding[2 * i + 1])) for i in range(spatial))
    if pads is not None:
        if any(p < 0 for pair in pads for p in pair):
            # XLA would crop the input by a negative pad; MindSpore refuses it
            raise ValueError(f"For '{op_name}', every 'padding' item must be an int >= 0, but got "
                             f"{padding!r}.")
        return pads
    raise ValueError(f"For '{op_name}', 'padding' must be an int or a tuple of {spatial} ints, but "
                     f"got {padding!r}.")


def _conv_nd(op_name, spatial, array, kernel, offset, stride, pad_mode, padding, dilation, groups):
    """The convolution kernel of ``conv1d``/``conv2d``/``conv3d`` (arrays in, array out)."""
    if array.ndim != spatial + 2 or kernel.ndim != spatial + 2:
        raise ValueError(f"For '{op_name}', 'input' and 'weight' must be {spatial + 2}-d, but got "
                         f"shapes {array.shape} and {kernel.shape}.")
    if array.shape[1] != kernel.shape[1] * groups:
        raise ValueError(f"For '{op_name}', the input has {array.shape[1]} channels but the weight "
                         f"expects {kernel.shape[1]} x groups={groups}.")
    strides = pair(op_name, "stride", stride, spatial, 1)
    dilation = pair(op_name, "dilation", dilation, spatial, 1)
    pads = _conv_padding(op_name, pad_mode, padding, spatial)
    if pads != "SAME":
        for size, k, d, (low, high) in zip(array.shape[2:], kernel.shape[2:], dilation,
                                           pads if pads != "VALID" else [(0, 0)] * spatial):
            if size + low + high < d * (k - 1) + 1:
                raise ValueError(f"For '{op_name}', the kernel of spatial size {kernel.shape[2:]} (dilation "
                                 f"{dilation}) is larger than the padded input {array.shape[2:]}.")
    # Traced under the op's jit: _convolve takes this trace's lowering (the entry's lowering="conv").
    return _convolve_with_bias(array, kernel, offset, strides, pads, dilation, groups, None, None)


_CONV = dict(inputs=("input", "weight", "bias"), dtypes=FLOAT, lowering="conv", reference=samples.numpy_conv)
# mint's convolutions take PyTorch's padding: 'same', 'valid' or the explicit padding of pad_mode 'pad'.
_MINT_PAD_MODE = "padding if isinstance(padding, str) else 'pad'"
_MINT_PADDING = "0 if isinstance(padding, str) else padding"


@op(mint=spelling("conv1d", "input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1",
                  pad_mode=_MINT_PAD_MODE, padding=_MINT_PADDING, namespaces="mint.nn.functional"),
    samples=samples.conv_samples(1), **_CONV)
def conv1d(input, weight, bias=None, stride=1, pad_mode="valid", padding=0, dilation=1, groups=1):
    """1-d convolution of an (N, C, L) input with an (O, C/groups, K) weight."""
    return _conv_nd("conv1d", 1, input, weight, bias, stride, pad_mode, padding, dilation, groups)


@op(mint=spelling("conv2d", "input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1",
                  pad_mode=_MINT_PAD_MODE, padding=_MINT_PADDING, namespaces=("mint", "mint.nn.functional")),
    samples=samples.conv_samples(2), **_CONV)
def conv2d(input, weight, bias=None, stride=1, pad_mode="valid", padding=0, dilation=1, groups=1):
    """2-d convolution of an (N, C, H, W) input with an (O, C/groups, kH, kW) weight."""
    return _conv_nd("conv2d", 2, input, weight, bias, stride, pad_mode, padding, dilation, groups)


@op(mint=spelling("conv3d", "input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1",
                  pad_mode=_MINT_PAD_MODE, padding=_MINT_PADDING, namespaces="mint.nn.functional"),
    samples=samples.conv_samples(3), **_CONV)
def conv3d(input, weight, bias=None, stride=1, pad_mode="valid", padding=0, dilation=1, groups=1):
    """3-d convolution of an (N, C, D, H, W) input with an (O, C/groups, kD, kH, kW) weight."""
    return _conv_nd("conv3d", 3, input, weight, bias, stride, pad_mode, padding, dilation, groups)


def conv_transpose_nd(array, kernel, strides, padding, dilation, groups, output_padding=None, fast=None):
    """Transposed convolution (the gradient of a convolution w.r.t. its input).

    ``kernel`` is (C_in, C_out/groups, k...); ``padding`` is a list of (low, high) pairs of the
    forward convolution; ``output_padding`` adds that many rows at the high end; ``fast`` as ``_convolve``'s.
    """
    spatial = array.ndim - 2
    in_channels = kernel.shape[0]
    sizes = kernel.shape[2:]
    # (C_in, C_out/g, k) -> (g, C_in/g, C_out/g, k) -> (C_out, C_in/g, k), flipped in space.
    grouped = kernel.reshape((groups, in_channels // groups) + kernel.shape[1:])
    grouped = jnp.swapaxes(grouped, 1, 2).reshape((-1, in_channels // groups) + sizes)
    flipped = jnp.flip(grouped, tuple(range(2, 2 + spatial)))
    extra = output_padding or (0,) * spatial
    pads = [(d * (k - 1) - low, d * (k - 1) - high + e)
            for k, d, (low, high), e in zip(sizes, dilation, padding, extra)]
    return _convolve(array, flipped.astype(array.dtype), (1,) * spatial, pads, dilation, groups,
                     lhs_dilation=strides, fast=fast)


def transposed_operands(op_name, input, weight, axes):
    """The arrays of a transposed convolution's ``(name, value)`` input, (N, C, *axes), and its
    ``weight``, (C, O/groups, *kernel axes); ``axes`` names the spatial axes (``"H, W"``)."""
    input_name, input_value = input
    array, kernel = array_of(op_name, input_name, input_value), array_of(op_name, "weight", weight)
    rank = 2 + len(axes.split(", "))
    if array.ndim != rank or kernel.ndim != rank or array.shape[1] != kernel.shape[0]:
        kernel_axes = ", ".join("k" + axis for axis in axes.split(", "))
        raise ValueError(f"For '{op_name}', expected an (N, C, {axes}) {input_name} and a (C, O/groups, "
                         f"{kernel_axes}) weight, but got {describe(input_value)} and {describe(weight)}.")
    return array, kernel


@op(inputs=("input", "weight", "bias"), dtypes=FLOAT, lowering="conv", samples=samples.conv_transpose2d_samples,
    reference=samples.numpy_conv_transpose2d)
def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1):
    """2-d transposed convolution; ``weight`` is (C_in, C_out/groups, kH, kW)."""
    op_name = "conv_transpose2d"
    array, kernel = transposed_operands(op_name, ("input", input), weight, "H, W")
    pads = tuple((p, p) for p in pair(op_name, "padding", padding))
    out = conv_transpose_nd(array, kernel, pair(op_name, "stride", stride, 2, 1), pads,
                            pair(op_name, "dilation", dilation, 2, 1), groups,
                            pair(op_name, "output_padding", output_padding))
    return out if bias is None else out + bias.astype(out.dtype).reshape(1, -1, 1, 1)


# --- linear layers ----------------------------------------------------------------------------
@op(mint=spelling("linear", "input, weight, bias=None", namespaces="mint.nn.functional"),
    inputs=("input", "weight", "bias"), dtypes=ANY, primitive="Dense", samples=samples.dense_samples,
    reference=samples.numpy_dense)
def dense(input, weight, bias=None):
    """``input @ weight.T + bias`` (``weight`` is (out, in), as nn.Dense stores it)."""
    if weight.ndim not in (1, 2) or input.shape[-1:] != weight.shape[-1:]:
        raise ValueError(f"For 'dense', the last dimension of 'input' {input.shape} must match that of "
                         f"'weight' {weight.shape}.")
    # MindSpore's Dense promotes nothing: each dtype mismatch is a TypeError (recorded on 2.10 CPU)
    if weight.dtype != input.dtype:
        raise TypeError(f"For 'Dense', the type of 'x2' should be same as 'x1', but got 'x1' with type "
                        f"Tensor[{mstype.from_numpy_dtype(input.dtype)}] and 'x2' with type "
                        f"Tensor[{mstype.from_numpy_dtype(weight.dtype)}].")
    if bias is not None and bias.dtype != input.dtype:
        raise TypeError(f"For Dense, all dtypes should be the same, but got 'input' with dtype: "
                        f"{mstype.from_numpy_dtype(input.dtype)} and 'bias' with dtype: "
                        f"{mstype.from_numpy_dtype(bias.dtype)}.")
    # complex operands: MindSpore's gradient multiplies by the other operand's conjugate
    out = conjugate_gradient(jnp.matmul)(input, weight.T)
    return out if bias is None else out + bias.astype(out.dtype)


@op(inputs=("input_x", "bias"), dtypes=ANY, samples=samples.bias_add_samples, reference=samples.numpy_bias_add)
def bias_add(input_x, bias):
    """Add the 1-d ``bias`` along axis 1 (channels) of ``input_x``."""
    if input_x.ndim < 2 or bias.ndim != 1 or bias.shape[0] != input_x.shape[1]:
        raise ValueError(f"For 'bias_add', 'bias' must be 1-d with one entry per channel (axis 1) of "
                         f"'input_x', but got shape {bias.shape} for 'input_x' of shape {input_x.shape}.")
    if bias.dtype != input_x.dtype:
        raise TypeError(f"For primitive[BiasAdd], the input type must be same. (Got 'input_x' "
                        f"{mstype.from_numpy_dtype(input_x.dtype)} and 'bias' {mstype.from_numpy_dtype(bias.dtype)}.)")
    return input_x + bias.reshape((1, -1) + (1,) * (input_x.ndim - 2))


@op(inputs=("input", "weight"), dtypes=ANY, indices="input", updates=("weight",), mint="embedding",
    samples=nn_spatial_samples.embedding_samples, reference=nn_spatial_samples.numpy_embedding, grad_check=False)
def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False):
    """Rows of ``weight`` at the integer ``input`` indices (out-of-range indices give zero rows).

    ``padding_idx``: that row receives no gradient. ``max_norm``: each referenced row whose ``norm_type``-norm
    exceeds it is rescaled to ``max_norm / (norm + 1e-7)`` times itself, in place in ``weight`` (the gradient
    reaches ``weight`` unscaled). ``scale_grad_by_freq``: each row's gradient is divided by how often its index
    occurs in ``input``.

    Example:
        >>> import numpy as np
        >>> from sporax import ops, Tensor
        >>> ops.embedding(Tensor(np.array([1, 3], np.int32)), Tensor(np.eye(2, dtype=np.float32))).asnumpy().tolist()
        [[0.0, 1.0], [0.0, 0.0]]
    """
    index, table = input, weight
    if table.ndim != 2:
        raise ValueError(f"For 'embedding', 'weight' must be 2-D (num_embeddings, embedding_dim), but got "
                         f"shape {table.shape}.")
    vocabulary = table.shape[0]
    if padding_idx is not None:
        if isinstance(padding_idx, bool) or not isinstance(padding_idx, int) or not -vocabulary <= padding_idx < vocabulary:
            raise ValueError(f"For 'embedding', 'padding_idx' must be an int in [{-vocabulary}, {vocabulary}), but got "
                             f"{padding_idx!r}.")
        padding_idx %= vocabulary
    renormalised = None
    if max_norm is not None:
        renormalised = _renormalised_rows(table, index, float(max_norm), float(norm_type))
        # The rows take their new values exactly; the gradient reaches `weight` as if they had always held them.
        table = lax.stop_gradient(renormalised) + (table - lax.stop_gradient(table))
    rows = jnp.take(table, index, 0, mode="fill", fill_value=0)
    if scale_grad_by_freq:
        flat = index.reshape(-1)
        counts = jnp.zeros((vocabulary,), rows.dtype).at[flat].add(1, mode="drop")
        scale = 1 / jnp.maximum(jnp.take(counts, index, 0, mode="fill", fill_value=1), 1)
        # Same value; the gradient of each row is divided by its index's frequency.
        rows = lax.stop_gradient(rows) + (rows - lax.stop_gradient(rows)) * scale[..., None]
    if padding_idx is not None:
        rows = jnp.where((index == padding_idx)[..., None], lax.stop_gradient(rows), rows)
    return rows, renormalised  # the renormalised table is stored into `weight` (the entry's `updates`)


def _renormalised_rows(table, index, max_norm, norm_type):
    """``table`` with the rows ``index`` references scaled down to ``max_norm``."""
    referenced = jnp.zeros((table.shape[0],), bool).at[index.reshape(-1)].set(True, mode="drop")
    norms = jnp.sum(jnp.abs(table.astype(jnp.float32)) ** norm_type, axis=1) ** (1.0 / norm_type)
    scale = jnp.where(referenced & (norms > max_norm), max_norm / (norms + 1e-7), 1.0)
    return (table * scale[:, None].astype(table.dtype)).astype(table.dtype)


