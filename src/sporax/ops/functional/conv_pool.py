"""Convolution, pooling and linear layers as functions: conv1d/2d/3d, conv_transpose2d, pools, dense.

Layouts are MindSpore's: inputs NC[D]HW, convolution weights OI[D]HW. All convolutions lower
through ``_convolve`` and all max/avg pools through ``_pool_window``, so the lowering can be
tuned per backend in one place (DESIGN section 7: convolution weight gradients and max-pool
backward are the weak spots on CPU).

Example:
    >>> import numpy as np
    >>> from sporax import ops, Tensor
    >>> x = Tensor(np.ones((1, 3, 8, 8), np.float32))
    >>> ops.conv2d(x, Tensor(np.ones((4, 3, 3, 3), np.float32)), pad_mode='same').shape
    (1, 4, 8, 8)
"""
import itertools
import numbers

import jax.numpy as jnp
import numpy as np
from jax import lax

from sporax.ops._dispatch import array_of, describe, wrap
from sporax.ops.functional import nn_spatial_samples
from sporax.ops.functional import spatial_samples as samples
from sporax.ops.functional._args import kernel, pair
from sporax.ops.lowering import conv_cpu, conv_nhwc_cpu, depthwise_cpu, pool_cpu
from sporax.ops.lowering.switch import fast_lowering
from sporax.ops.op_table import ANY, FLOAT, NUMBER, TO_FLOAT, op, spelling

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
        feature_group_count=groups)


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


def conv_transpose_nd(array, kernel, strides, padding, dilation, groups, output_padding=None):
    """Transposed convolution (the gradient of a convolution w.r.t. its input).

    ``kernel`` is (C_in, C_out/groups, k...); ``padding`` is a list of (low, high) pairs of the
    forward convolution; ``output_padding`` adds that many rows at the high end.
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
                     lhs_dilation=strides)


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


# --- pooling ----------------------------------------------------------------------------------
def _pool_pads(sizes, kernel, strides, padding, dilation, ceil_mode, op_name="pool"):
    """(low, high) pads per spatial axis, with the extra high rows ``ceil_mode`` needs."""
    pads = []
    for size, k, s, p, d in zip(sizes, kernel, strides, padding, dilation):
        span = d * (k - 1) + 1
        if ceil_mode:
            count = -(-(size + 2 * p - span) // s) + 1
            if (count - 1) * s >= size + p:  # the last window must start inside input + low pad
                count -= 1
        else:
            count = (size + 2 * p - span) // s + 1
        if count < 1:
            raise ValueError(f"For '{op_name}', the window {kernel} (dilation {dilation}, padding {padding}) does not "
                             f"fit in the input of spatial size {tuple(sizes)}: make the window smaller "
                             "or pad the input.")
        pads.append((p, max((count - 1) * s + span - size - p, p) if ceil_mode else p))
    return tuple(pads)


def _pool_window(array, reducer, init, kernel, strides, pads, dilation=None):
    """The one lowering of max/avg pooling over the trailing spatial axes."""
    lead = array.ndim - len(kernel)
    return lax.reduce_window(array, init, reducer, (1,) * lead + tuple(kernel),
                             (1,) * lead + tuple(strides), [(0, 0)] * lead + list(pads),
                             window_dilation=None if dilation is None else (1,) * lead + tuple(dilation))


def _check_rank(op_name, array, ranks):
    if array.ndim not in ranks:
        raise ValueError(f"For '{op_name}', the input must be {' or '.join(map(str, ranks))}-d, but "
                         f"got shape {array.shape}.")


@op(mint=spelling("max_pool2d", "input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, "
                  "return_indices=False", x="input", namespaces="mint.nn.functional"),
    inputs="x", dtypes=NUMBER, lowering="pool", samples=samples.pool_samples(2, True),
    reference=samples.numpy_max_pool(2))
def max_pool2d(x, kernel_size, stride=None, padding=0, dilation=1, return_indices=False,
               ceil_mode=False):
    """2-d max pooling of an (N, C, H, W) input; with ``return_indices`` also the argmax (Int64)."""
    op_name = "max_pool2d"
    array = x
    _check_rank(op_name, array, (4,))
    kernel = pair(op_name, "kernel_size", kernel_size, 2, 1)
    strides = kernel if stride is None else pair(op_name, "stride", stride, 2, 1)
    padding = pair(op_name, "padding", padding)
    dilation = pair(op_name, "dilation", dilation, 2, 1)
    if any(2 * p > k for p, k in zip(padding, kernel)):
        raise ValueError(f"For '{op_name}', 'padding' {padding} must be at most half of 'kernel_size' "
                         f"{kernel}.")
    pads = _pool_pads(array.shape[2:], kernel, strides, padding, dilation, ceil_mode, op_name)
    if return_indices:
        return _max_pool_indices_kernel(array, kernel, strides, pads, dilation)
    return _max_pool(array, kernel, strides, pads, dilation)


def _lowest(dtype):
    # A NumPy (concrete) value: reduce_window needs it to pick its differentiable max monoid.
    return np.array(np.iinfo(dtype).min if dtype.kind in "iu" else -np.inf, dtype)


def _window_views(array, kernel, strides, pads, dilation):
    """Yield (offset number, strided view) for each kernel offset of a max pool.

    A max pool as a where-chain over these k*k views is ~5-10x faster than reduce_window on
    XLA:CPU forward+backward (its backward, select_and_scatter, is the slow part), and its
    gradient goes to the first maximum of each window, as MindSpore's MaxPoolGrad does.
    """
    lead = array.ndim - len(kernel)
    dilation = dilation or (1,) * len(kernel)
    padded = lax.pad(array, _lowest(array.dtype), [(0, 0, 0)] * lead + [(low, high, 0) for low, high in pads])
    outs = [(size - d * (k - 1) - 1) // s + 1
            for size, k, s, d in zip(padded.shape[lead:], kernel, strides, dilation)]
    for number, offset in enumerate(itertools.product(*[range(k) for k in kernel])):
        start = (0,) * lead + tuple(o * d for o, d in zip(offset, dilation))
        limit = padded.shape[:lead] + tuple(b + (n - 1) * s + 1 for b, n, s in zip(start[lead:], outs, strides))
        yield number, lax.slice(padded, start, limit, (1,) * lead + tuple(strides))


def _max_pool(array, kernel, strides, pads, dilation=None):
    # The lowering choice is a static argument: a jit traced under plain_lowering() is its own entry.
    return _max_pool_body(array, kernel, strides, pads, dilation, fast_lowering("pool"))


@kernel("kernel", "strides", "pads", "dilation", "fast")
def _max_pool_body(array, kernel, strides, pads, dilation, fast):
    if fast and pool_cpu.applies(array, kernel, strides, pads, dilation):
        return pool_cpu.max_pool_tiles(array, tuple(kernel))
    best = None
    for _, values in _window_views(array, kernel, strides, pads, dilation):
        best = values if best is None else jnp.where(values > best, values, best)
    return best


@op(inputs="x", dtypes=NUMBER, lowering="pool", samples=samples.pool_samples(3, True),
    reference=samples.numpy_max_pool(3))
def max_pool3d(x, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """3-d max pooling of an (N, C, D, H, W) input."""
    op_name = "max_pool3d"
    array = x
    _check_rank(op_name, array, (5,))
    kernel = pair(op_name, "kernel_size", kernel_size, 3, 1)
    strides = kernel if stride is None else pair(op_name, "stride", stride, 3, 1)
    padding = pair(op_name, "padding", padding, 3)
    dilation = pair(op_name, "dilation", dilation, 3, 1)
    pads = _pool_pads(array.shape[2:], kernel, strides, padding, dilation, ceil_mode, op_name)
    if return_indices:
        # The Int64 flat (d * H * W + h * W + w) index of each maximum in the unpadded input.
        return _max_pool_indices_kernel(array, kernel, strides, pads, dilation)
    return _max_pool(array, kernel, strides, pads, dilation)


@kernel("kernel", "strides", "pads", "dilation")
def _max_pool_indices_kernel(array, kernel, strides, pads, dilation):
    """Max pool and the flat index of each maximum over the pooled axes (h * W + w in 2-d), first one on ties."""
    spatial = array.shape[array.ndim - len(kernel):]
    positions = jnp.arange(int(np.prod(spatial)), dtype=np.int64).reshape((1,) * (array.ndim - len(kernel)) + spatial)
    index_views = _window_views(positions, kernel, strides, pads, dilation)
    best = best_index = None
    for (_, values), (_, index) in zip(_window_views(array, kernel, strides, pads, dilation), index_views):
        if best is None:
            best, best_index = values, jnp.broadcast_to(index, values.shape)
        else:
            better = values > best
            best = jnp.where(better, values, best)
            best_index = jnp.where(better, index, best_index)
    return best, best_index


def _avg_pool(op_name, array, kernel, strides, padding, ceil_mode, count_include_pad, divisor):
    if array.dtype.kind not in "fV":
        raise TypeError(f"For '{op_name}', the input must be a float Tensor, but got {describe(array)}; "
                        "cast it first, e.g. ops.cast(x, mindspore.float32).")
    pads = _pool_pads(array.shape[-len(kernel):], kernel, strides, padding, (1,) * len(kernel),
                      ceil_mode, op_name)
    return wrap(_avg_pool_kernel(array, kernel, strides, padding, pads, bool(ceil_mode),
                                 bool(count_include_pad), divisor))


@kernel("kernel", "strides", "padding", "pads", "ceil_mode", "count_include_pad", "divisor")
def _avg_pool_kernel(array, kernel, strides, padding, pads, ceil_mode, count_include_pad, divisor):
    zero = np.zeros((), array.dtype)
    total = _pool_window(array, lax.add, zero, kernel, strides, pads)
    if divisor:
        return total / jnp.asarray(divisor, array.dtype)
    if not ceil_mode and (count_include_pad or not any(padding)):
        return total / jnp.asarray(np.prod(kernel), array.dtype)
    # Count the elements each window covers: the input (and its explicit padding when
    # count_include_pad), never the extra rows that ceil_mode adds.
    sizes = array.shape[-len(kernel):]
    if count_include_pad:
        ones = jnp.ones(tuple(s + 2 * p for s, p in zip(sizes, padding)), array.dtype)
        count_pads = [(0, high - p) for (_, high), p in zip(pads, padding)]
    else:
        ones = jnp.ones(sizes, array.dtype)
        count_pads = pads
    counts = lax.reduce_window(ones, zero, lax.add, kernel, strides, count_pads)
    return total / counts


def _avg_pool_of(op_name, spatial, array, kernel_size, stride, padding, ceil_mode, count_include_pad,
                 divisor_override):
    """Average pooling over the last ``spatial`` axes of an (N, C, *spatial) array (a None ``stride``
    is the kernel)."""
    _check_rank(op_name, array, (spatial + 2,))
    kernel = pair(op_name, "kernel_size", kernel_size, spatial, 1)
    strides = kernel if stride is None else pair(op_name, "stride", stride, spatial, 1)
    padding = pair(op_name, "padding", padding, spatial)
    pads = _pool_pads(array.shape[-spatial:], kernel, strides, padding, (1,) * spatial, ceil_mode, op_name)
    return _avg_pool_kernel(array, kernel, strides, padding, pads, bool(ceil_mode), bool(count_include_pad),
                            divisor_override)


@op(mint=spelling("avg_pool2d", "input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True, divisor_override=None",
                  input_x="input", stride="kernel_size if stride is None else stride", divisor_override="divisor_override or 0", namespaces="mint.nn.functional"),
    inputs="input_x", samples=samples.pool_samples(2, False), reference=samples.numpy_avg_pool(2))
def avg_pool2d(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=0):
    """2-d average pooling of an (N, C, H, W) input."""
    return _avg_pool_of("avg_pool2d", 2, input_x, kernel_size, stride, padding, ceil_mode, count_include_pad,
                        divisor_override)


@op(mint=spelling("avg_pool1d", "input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True",
                  input_x="input", stride="kernel_size if stride is None else stride", namespaces="mint.nn.functional"),
    inputs="input_x", samples=samples.pool_samples(1, False), reference=samples.numpy_avg_pool(1))
def avg_pool1d(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False, count_include_pad=True):
    """1-d average pooling of an (N, C, L) input."""
    return _avg_pool_of("avg_pool1d", 1, input_x, kernel_size, stride, padding, ceil_mode, count_include_pad, 0)


# --- linear layers ----------------------------------------------------------------------------
@op(mint=spelling("linear", "input, weight, bias=None", namespaces="mint.nn.functional"),
    inputs=("input", "weight", "bias"), dtypes=ANY, primitive="Dense", samples=samples.dense_samples,
    reference=samples.numpy_dense)
def dense(input, weight, bias=None):
    """``input @ weight.T + bias`` (``weight`` is (out, in), as nn.Dense stores it)."""
    if weight.ndim not in (1, 2) or input.shape[-1:] != weight.shape[-1:]:
        raise ValueError(f"For 'dense', the last dimension of 'input' {input.shape} must match that of "
                         f"'weight' {weight.shape}.")
    out = jnp.matmul(input, weight.T.astype(input.dtype))
    return out if bias is None else out + bias.astype(out.dtype)


@op(inputs=("input_x", "bias"), dtypes=ANY, samples=samples.bias_add_samples, reference=samples.numpy_bias_add)
def bias_add(input_x, bias):
    """Add the 1-d ``bias`` along axis 1 (channels) of ``input_x``."""
    if input_x.ndim < 2 or bias.ndim != 1 or bias.shape[0] != input_x.shape[1]:
        raise ValueError(f"For 'bias_add', 'bias' must be 1-d with one entry per channel (axis 1) of "
                         f"'input_x', but got shape {bias.shape} for 'input_x' of shape {input_x.shape}.")
    return input_x + bias.astype(input_x.dtype).reshape((1, -1) + (1,) * (input_x.ndim - 2))


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


@op(mint=spelling("avg_pool3d", "input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True, divisor_override=None",
                  input_x="input", stride="kernel_size if stride is None else stride", divisor_override="divisor_override or 0", namespaces="mint.nn.functional"),
    inputs="input_x", samples=samples.pool_samples(3, False), reference=samples.numpy_avg_pool(3))
def avg_pool3d(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=0):
    """3-d average pooling of an (N, C, D, H, W) input."""
    return _avg_pool_of("avg_pool3d", 3, input_x, kernel_size, stride, padding, ceil_mode, count_include_pad,
                        divisor_override)


def _lp_pool(op_name, array, norm_type, kernel_size, stride, ceil_mode, spatial):
    _check_rank(op_name, array, (spatial + 1, spatial + 2))
    kernel = pair(op_name, "kernel_size", kernel_size, spatial, 1)
    strides = kernel if stride is None else pair(op_name, "stride", stride, spatial, 1)
    pads = _pool_pads(array.shape[-spatial:], kernel, strides, (0,) * spatial, (1,) * spatial, ceil_mode, op_name)
    return _lp_pool_kernel(array, float(norm_type), kernel, strides, pads)


@kernel("norm_type", "kernel", "strides", "pads")
def _lp_pool_kernel(array, norm_type, kernel, strides, pads):
    total = _pool_window(array ** norm_type, lax.add, np.zeros((), array.dtype), kernel, strides, pads)
    return jnp.sign(total) * jnp.maximum(jnp.abs(total), 0) ** (1.0 / norm_type)


@op(inputs="x", dtypes=TO_FLOAT, samples=samples.lp_pool_samples(1), reference=samples.numpy_lp_pool(1))
def lp_pool1d(x, norm_type, kernel_size, stride=None, ceil_mode=False):
    """Power-average pooling ``(sum x^p)^(1/p)`` over windows of the last axis (integer inputs give Float32,
    as in MindSpore)."""
    return _lp_pool("lp_pool1d", x, norm_type, kernel_size, stride, ceil_mode, 1)


@op(inputs="x", dtypes=TO_FLOAT, samples=samples.lp_pool_samples(2), reference=samples.numpy_lp_pool(2))
def lp_pool2d(x, norm_type, kernel_size, stride=None, ceil_mode=False):
    """Power-average pooling ``(sum x^p)^(1/p)`` over windows of the last two axes (integer inputs give
    Float32, as in MindSpore)."""
    return _lp_pool("lp_pool2d", x, norm_type, kernel_size, stride, ceil_mode, 2)
