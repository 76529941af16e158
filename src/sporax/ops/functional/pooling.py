"""Pooling as functions: max_pool2d/3d (with their argmax indices), avg_pool1d/2d/3d and lp_pool1d/2d.

Layouts are MindSpore's: inputs NC[D]HW. All max/avg pools lower through ``_pool_window`` or the
max pool's where-chain (``_max_pool``), so the lowering can be tuned per backend in one place (DESIGN
section 7: max-pool backward is a weak spot on CPU).

Example:
    >>> import numpy as np
    >>> from sporax import ops, Tensor
    >>> x = Tensor(np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4))
    >>> ops.max_pool2d(x, 2).asnumpy().tolist()
    [[[[5.0, 7.0], [13.0, 15.0]]]]
"""
import itertools

import jax.numpy as jnp
import numpy as np
from jax import lax

from sporax.ops._dispatch import describe, wrap
from sporax.ops.functional import spatial_samples as samples
from sporax.ops.functional._args import kernel, pair
from sporax.ops.functional.nan_orders import IGNORE, nan_free, pooled_with_nan_rule
from sporax.ops.functional.reduce import divide_exactly
from sporax.ops.lowering import pool_cpu
from sporax.ops.lowering.switch import fast_lowering
from sporax.ops.op_table import NUMBER, TO_FLOAT, op, spelling


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
    # MindSpore's kernel here (MaxPoolWithArgmaxV2) passes NaN over (nan_orders)
    if return_indices:
        return _max_pool_indices_kernel(nan_free(array), kernel, strides, pads, dilation)
    return _max_pool(array, kernel, strides, pads, dilation, IGNORE)


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


def _max_pool(array, kernel, strides, pads, dilation=None, nan_rule=None):
    """Max pool of ``array``; ``nan_rule`` (``nan_orders.LAST``/``IGNORE``/``PROPAGATE``) is where NaN lands, as
    the MindSpore kernel of the caller's face puts it (None: NaN first in a window wins)."""
    # The lowering choice is a static argument: a jit traced under plain_lowering() is its own entry.
    fast = fast_lowering("pool")

    def pool(values):
        return _max_pool_body(values, kernel, strides, pads, dilation, fast)

    def views(values):
        return [view for _, view in _window_views(values, kernel, strides, pads, dilation)]
    return pooled_with_nan_rule(array, nan_rule, pool, views, len(kernel))


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
        return divide_exactly(total, divisor)
    if not ceil_mode and (count_include_pad or not any(padding)):
        return divide_exactly(total, np.prod(kernel))
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
    return divide_exactly(total, counts)


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


def _avg_pool_spelling(name, divisor):
    """``mint.nn.functional.avg_poolNd``: a None stride is the kernel, a None divisor the window's size."""
    parameters = "input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True"
    settings = {"divisor_override": "divisor_override or 0"} if divisor else {}
    return spelling(name, parameters + (", divisor_override=None" if divisor else ""), input_x="input",
                    stride="kernel_size if stride is None else stride", namespaces="mint.nn.functional", **settings)


@op(mint=_avg_pool_spelling("avg_pool1d", divisor=False),
    inputs="input_x", samples=samples.pool_samples(1, False), reference=samples.numpy_avg_pool(1))
def avg_pool1d(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False, count_include_pad=True):
    """1-d average pooling of an (N, C, L) input."""
    return _avg_pool_of("avg_pool1d", 1, input_x, kernel_size, stride, padding, ceil_mode, count_include_pad, 0)


def _avg_pool_entry(spatial, layout):
    """The entry ``avg_pool2d``/``avg_pool3d``: average pooling of an ``layout`` input."""
    name = f"avg_pool{spatial}d"

    def kernel(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=0):
        return _avg_pool_of(name, spatial, input_x, kernel_size, stride, padding, ceil_mode, count_include_pad,
                            divisor_override)

    kernel.__name__ = kernel.__qualname__ = name
    kernel.__doc__ = f"{spatial}-d average pooling of an {layout} input."
    return op(mint=_avg_pool_spelling(name, divisor=True), inputs="input_x",
              samples=samples.pool_samples(spatial, False), reference=samples.numpy_avg_pool(spatial))(kernel)


avg_pool2d = _avg_pool_entry(2, "(N, C, H, W)")
avg_pool3d = _avg_pool_entry(3, "(N, C, D, H, W)")


def _lp_pool(op_name, array, norm_type, kernel_size, stride, ceil_mode, spatial):
    _check_rank(op_name, array, (spatial + 1, spatial + 2))
    kernel = pair(op_name, "kernel_size", kernel_size, spatial, 1)
    strides = kernel if stride is None else pair(op_name, "stride", stride, spatial, 1)
    pads = _pool_pads(array.shape[-spatial:], kernel, strides, (0,) * spatial, (1,) * spatial, ceil_mode, op_name)
    return _lp_pool_kernel(array, float(norm_type), kernel, strides, pads)


@kernel("norm_type", "kernel", "strides", "pads")
def _lp_pool_kernel(array, norm_type, kernel, strides, pads):
    zero = np.zeros((), array.dtype)
    total = _pool_window(array ** norm_type, lax.add, zero, kernel, strides, pads)
    if any(high for _, high in pads):
        # MindSpore scales the average of a ceil-mode window cut by the edge up to the whole window: its sum
        # times (window size / elements inside)
        inside = _pool_window(jnp.ones_like(array), lax.add, zero, kernel, strides, pads)
        total = total * (float(np.prod(kernel)) / inside)
    return jnp.sign(total) * jnp.maximum(jnp.abs(total), 0) ** (1.0 / norm_type)


@op(inputs="x", dtypes=TO_FLOAT, samples=samples.lp_pool_samples(1), reference=samples.numpy_lp_pool(1))
def lp_pool1d(x, norm_type, kernel_size, stride=None, ceil_mode=False):
    """Power-average pooling ``(sum x^p)^(1/p)`` over windows of the last axis (integer inputs give Float32,
    as in MindSpore; a ceil-mode window cut by the edge sums its elements times window size / elements inside)."""
    return _lp_pool("lp_pool1d", x, norm_type, kernel_size, stride, ceil_mode, 1)


@op(inputs="x", dtypes=TO_FLOAT, samples=samples.lp_pool_samples(2), reference=samples.numpy_lp_pool(2))
def lp_pool2d(x, norm_type, kernel_size, stride=None, ceil_mode=False):
    """Power-average pooling ``(sum x^p)^(1/p)`` over windows of the last two axes (integer inputs give
    Float32, as in MindSpore)."""
    return _lp_pool("lp_pool2d", x, norm_type, kernel_size, stride, ceil_mode, 2)
