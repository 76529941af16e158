"""Array embedding, padding and segment ops: ``select_scatter``, ``slice_scatter``, ``masked_scatter``,
``put_``, ``unfold``, ``view_as_real``, ``padding``, ``mirror_pad``, ``sparse_segment_mean`` and the sorted
segment reductions behind ``SegmentSum``/``SegmentMax``/....

``select_scatter``, ``slice_scatter``, ``unfold`` and ``padding`` are op-table entries (``sporax.ops.op_table``);
so are ``view_as_real`` (complex input), ``mirror_pad`` and ``sparse_segment_mean`` (``eager``: a paddings Tensor
or the segment ids are read on the host; ``MirrorPad`` generated). ``masked_scatter``,
``put_`` (in place on a Tensor) and the sorted segment reductions stay functions.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> ops.select_scatter(Tensor(np.zeros((2, 2), np.float32)), Tensor(np.ones(2, np.float32)), 0, 1).asnumpy().tolist()
    [[0.0, 0.0], [1.0, 1.0]]
"""
import builtins

import jax
import jax.numpy as jnp
import numpy as np

from sporax.ops._dispatch import array_of, describe, wrap
from sporax.ops.functional._args import _concrete, axis_index, static_shape
from sporax.ops.functional.scatter_products import segment_product
from sporax.ops.face_inputs import concrete
from sporax.ops.op_table import ANY, FLOAT, INEXACT, Sample, op
from sporax.ops.samples import operands, shaped, values


def _numpy_select_scatter(input, src, axis, index):
    result = np.array(input, copy=True)
    np.moveaxis(result, axis, 0)[index] = src
    return result


def _numpy_slice_scatter(input, src, axis=0, start=None, end=None, step=1):
    result = np.array(input, copy=True)
    np.moveaxis(result, axis, 0)[start:end:step] = np.moveaxis(src, axis, 0)
    return result


@op(inputs=("input", "src"), dtypes=ANY, samples=operands((((3, 4), (4,)), {"axis": 0, "index": 1}),
                                                           (((2, 3, 2), (2, 2)), {"axis": 1, "index": -1})),
    reference=_numpy_select_scatter)
def select_scatter(input, src, axis, index):
    """``input`` with the slice at ``index`` along ``axis`` replaced by ``src``."""
    array, values = input, src
    axis = axis_index("select_scatter", "axis", axis, array.ndim)
    size = array.shape[axis]
    if isinstance(index, bool) or not isinstance(index, int) or not -size <= index < size:
        raise ValueError(f"For 'select_scatter', 'index' must be an int in [{-size}, {size}), but got {index!r}.")
    expected = array.shape[:axis] + array.shape[axis + 1:]
    if values.shape != expected:
        raise ValueError(f"For 'select_scatter', 'src' must have shape {expected}, but got {tuple(values.shape)}.")
    return array.at[(builtins.slice(None),) * axis + (index,)].set(values.astype(array.dtype))


@op(inputs=("input", "src"), dtypes=ANY, samples=operands((((4, 3), (2, 3)), {"start": 1, "end": 3}),
                                                           (((3, 5), (3, 2)), {"axis": 1, "start": 0, "step": 3})),
    reference=_numpy_slice_scatter)
def slice_scatter(input, src, axis=0, start=None, end=None, step=1):
    """``input`` with ``input[start:end:step]`` along ``axis`` replaced by ``src``."""
    array, values = input, src
    axis = axis_index("slice_scatter", "axis", axis, array.ndim)
    window = builtins.slice(start, end, step)
    expected = list(array.shape)
    expected[axis] = len(range(*window.indices(array.shape[axis])))
    if tuple(values.shape) != tuple(expected):
        raise ValueError(f"For 'slice_scatter', 'src' must have shape {tuple(expected)}, but got "
                         f"{tuple(values.shape)}.")
    return array.at[(builtins.slice(None),) * axis + (window,)].set(values.astype(array.dtype))


def masked_scatter(input, mask, source):
    """``input`` with the positions where ``mask`` (broadcast) is True filled, in order, by ``source``'s elements."""
    array = array_of("masked_scatter", "input", input)
    flags = array_of("masked_scatter", "mask", mask)
    values = array_of("masked_scatter", "source", source)
    if flags.dtype != jnp.bool_:
        raise TypeError(f"For 'masked_scatter', 'mask' must be a Bool Tensor, but got {flags.dtype}.")
    try:
        flags = jnp.broadcast_to(flags, array.shape)
    except ValueError:
        raise ValueError(f"For 'masked_scatter', 'mask' {tuple(flags.shape)} must broadcast to 'input' "
                         f"{tuple(array.shape)}.") from None
    flat = flags.reshape(-1)
    if not isinstance(flat, jax.core.Tracer) and int(jnp.sum(flat)) > values.size:
        raise ValueError(f"For 'masked_scatter', 'source' has {values.size} elements but 'mask' selects "
                         f"{int(jnp.sum(flat))}.")
    order = jnp.clip(jnp.cumsum(flat) - 1, 0, builtins.max(values.size - 1, 0))
    filled = values.reshape(-1).astype(array.dtype)[order]
    return wrap(jnp.where(flat, filled, array.reshape(-1)).reshape(array.shape))


def _numpy_put(input, index, source, accumulate=False):
    result = np.array(input, copy=True).reshape(-1)
    positions = np.asarray(index).reshape(-1) % max(result.size, 1)
    if accumulate:
        np.add.at(result, positions, np.asarray(source).reshape(-1))
    else:
        result[positions] = np.asarray(source).reshape(-1)
    return result.reshape(np.shape(input))


@op(inputs=("input", "index", "source"), indices="index", writes="input", dtypes=ANY, grad_check=False,
    reference=_numpy_put,
    samples=lambda dtype: [Sample((values((3, 4), dtype), np.array([0, -1, 5], np.int32), values((3,), dtype, seed=1))),
                           Sample((values((2, 3), dtype), np.array([[1, 1]], np.int64), values((1, 2), dtype, seed=2)),
                                  {"accumulate": True})])
def put_(input, index, source, accumulate=False):
    """Write ``source`` into ``input`` at the flat positions ``index`` (added when ``accumulate``), in place.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> x = Tensor(np.zeros((2, 2), np.float32))
        >>> ops.put_(x, Tensor(np.array([3], np.int32)), Tensor(np.array([5.0], np.float32))).asnumpy().tolist()
        [[0.0, 0.0], [0.0, 5.0]]
    """
    if index.size != source.size:
        raise ValueError(f"For 'put_', 'index' and 'source' must have the same number of elements, but got "
                         f"{index.size} and {source.size}.")
    flat_index = index.reshape(-1) % builtins.max(input.size, 1)
    flat = input.reshape(-1)
    values = source.reshape(-1).astype(input.dtype)
    flat = flat.at[flat_index].add(values) if accumulate else flat.at[flat_index].set(values)
    return flat.reshape(input.shape)


def _pair(op_name, arg_name, value):
    pair = (value, value) if isinstance(value, int) else tuple(value)
    if len(pair) != 2 or any(isinstance(v, bool) or not isinstance(v, int) for v in pair):
        raise ValueError(f"For '{op_name}', '{arg_name}' must be an int or a pair of ints, but got {value!r}.")
    return pair


def _numpy_unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    kh, kw = (kernel_size, kernel_size) if isinstance(kernel_size, int) else kernel_size
    dh, dw = (dilation, dilation) if isinstance(dilation, int) else dilation
    ph, pw = (padding, padding) if isinstance(padding, int) else padding
    sh, sw = (stride, stride) if isinstance(stride, int) else stride
    padded = np.pad(input, ((0, 0), (0, 0), (ph, ph), (pw, pw)))
    rows = (padded.shape[2] - dh * (kh - 1) - 1) // sh + 1
    cols = (padded.shape[3] - dw * (kw - 1) - 1) // sw + 1
    blocks = [padded[:, :, i * dh:i * dh + (rows - 1) * sh + 1:sh, j * dw:j * dw + (cols - 1) * sw + 1:sw]
              for i in range(kh) for j in range(kw)]  # (kh * kw) x (N, C, rows, cols)
    stacked = np.stack(blocks, axis=2)  # (N, C, kh * kw, rows, cols)
    return stacked.reshape(input.shape[0], input.shape[1] * kh * kw, rows * cols)


@op(mint="unfold", dtypes=ANY, samples=shaped(((1, 2, 4, 4), {"kernel_size": 2}),
                               ((2, 1, 5, 4), {"kernel_size": (2, 3), "dilation": (2, 1), "padding": 1, "stride": 2})),
    reference=_numpy_unfold)
def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """Sliding local blocks of an (N, C, H, W) Tensor as columns: (N, C * kh * kw, L)."""
    array = input
    if array.ndim != 4:
        raise ValueError(f"For 'unfold', 'input' must be 4-D (N, C, H, W), but got shape {tuple(array.shape)}.")
    kernel = _pair("unfold", "kernel_size", kernel_size)
    dilation = _pair("unfold", "dilation", dilation)
    padding = _pair("unfold", "padding", padding)
    stride = _pair("unfold", "stride", stride)
    if min(kernel + dilation + stride) <= 0 or min(padding) < 0:
        raise ValueError("For 'unfold', 'kernel_size', 'dilation' and 'stride' must be positive and 'padding' "
                         "non-negative.")
    blocks = [(size + 2 * pad - step * (extent - 1) - 1) // move + 1
              for size, pad, step, extent, move in zip(array.shape[2:], padding, dilation, kernel, stride)]
    if min(blocks) <= 0:
        raise ValueError(f"For 'unfold', the {kernel} blocks (dilation {dilation}) do not fit in the padded "
                         f"input of shape {tuple(array.shape)} with padding {padding}.")
    columns = (array.shape[0], array.shape[1] * kernel[0] * kernel[1], blocks[0] * blocks[1])
    if not array.size:  # XLA's patches of an empty batch or channel axis divide by zero
        return jnp.zeros(columns, array.dtype)
    patches = jax.lax.conv_general_dilated_patches(
        array, kernel, stride, [(p, p) for p in padding], rhs_dilation=dilation,
        dimension_numbers=("NCHW", "OIHW", "NCHW"), precision=jax.lax.Precision.HIGHEST)
    return patches.reshape(columns)


def _complex_samples(dtype):
    """Complex64 samples (the real and imaginary parts drawn in ``dtype``): one run, not one per float dtype."""
    if dtype != "float32":
        return []
    return [Sample((values((3,), dtype) + 1j * values((3,), dtype, seed=1),)),
            Sample((values((2, 2), dtype, seed=2) - 2j * values((2, 2), dtype, seed=3),))]


@op(dtypes=INEXACT, inline=True, grad_check=False, samples=_complex_samples,
    reference=lambda input: np.stack([np.real(input), np.imag(input)], axis=-1))
def view_as_real(input):
    """The real and imaginary parts of a complex Tensor as a trailing axis of size 2."""
    if input.dtype.kind != "c":
        raise TypeError(f"For 'view_as_real', 'input' must be a complex Tensor, but got {input.dtype}.")
    return jnp.stack([jnp.real(input), jnp.imag(input)], axis=-1)


@op(inputs="x", dtypes=ANY, primitive="Padding", primitive_attrs=("pad_dim_size",), inline=True,
    samples=shaped(((3, 1), {}), ((2, 2, 1), {"pad_dim_size": 3}), ((1,), {"pad_dim_size": 1})),
    reference=lambda x, pad_dim_size=8: np.concatenate([x, np.zeros(x.shape[:-1] + (pad_dim_size - 1,))], -1))
def padding(x, pad_dim_size=8):
    """Extend the last axis (of size 1) of ``x`` to ``pad_dim_size`` with zeros after the value."""
    array = x
    if array.ndim < 1 or array.shape[-1] != 1:
        raise ValueError(f"For 'padding', the last dimension of 'x' must be 1, but got shape {tuple(array.shape)}.")
    if isinstance(pad_dim_size, bool) or not isinstance(pad_dim_size, int) or pad_dim_size < 1:
        raise ValueError(f"For 'padding', 'pad_dim_size' must be a positive int, but got {pad_dim_size!r}.")
    return jnp.pad(array, [(0, 0)] * (array.ndim - 1) + [(0, pad_dim_size - 1)])


def _mirror_samples(dtype):
    return [Sample((values((3, 4), dtype), np.array([[1, 2], [0, 3]], np.int32)), {"mode": "REFLECT"}),
            Sample((values((2, 3), dtype, seed=1), np.array([[2, 0], [1, 3]], np.int64)), {"mode": "SYMMETRIC"})]


# ``paddings`` is a Tensor read on the host (the output shape depends on it): an ``eager`` entry.
@op(inputs=("input_x", "paddings"), indices="paddings", dtypes=ANY, primitive="MirrorPad",
    primitive_attrs=(("mode", "mode", "REFLECT"),), eager=True, grad_check=False, samples=_mirror_samples,
    reference=lambda input_x, paddings, mode: np.pad(input_x, paddings, mode=mode.lower()))
def mirror_pad(input_x, paddings, mode):
    """Pad every axis of ``input_x`` by reflection: ``paddings`` is (ndim, 2); ``mode`` 'REFLECT' (edge not
    repeated) or 'SYMMETRIC' (edge repeated)."""
    array = input_x
    amounts = concrete("mirror_pad", "paddings", paddings).astype(int)
    if amounts.shape != (array.ndim, 2) or (amounts < 0).any():
        raise ValueError(f"For 'mirror_pad', 'paddings' must be a non-negative ({array.ndim}, 2) Tensor, but got "
                         f"shape {amounts.shape}.")
    if mode not in ("REFLECT", "SYMMETRIC"):
        raise ValueError(f"For 'mirror_pad', 'mode' must be 'REFLECT' or 'SYMMETRIC', but got {mode!r}.")
    limit = np.asarray(array.shape)[:, None] - (1 if mode == "REFLECT" else 0)
    if (amounts > limit).any():
        raise ValueError(f"For 'mirror_pad', each padding must be at most the dimension size"
                         f"{' - 1' if mode == 'REFLECT' else ''}, but got {amounts.tolist()} for shape "
                         f"{tuple(array.shape)}.")
    return jnp.pad(array, amounts.tolist(), mode=mode.lower())


def _segments(op_name, segment_ids, count):
    ids = array_of(op_name, "segment_ids", segment_ids)
    if ids.ndim != 1 or ids.shape[0] != count or ids.dtype.kind not in "iu":
        raise ValueError(f"For '{op_name}', 'segment_ids' must be a 1-D integer Tensor of length {count}, but got "
                         f"{describe(segment_ids)}.")
    host = np.asarray(_concrete(op_name, "segment_ids", ids))
    if host.size and ((np.diff(host) < 0).any() or host[0] < 0):
        raise ValueError(f"For '{op_name}', 'segment_ids' must be sorted and non-negative.")
    return ids, int(host[-1]) + 1 if host.size else 0


def segment_reduce(op_name, input_x, segment_ids, method):
    """Reduce the rows of ``input_x`` by sorted ``segment_ids`` (empty segments give 0; prod gives 1)."""
    array = array_of(op_name, "input_x", input_x)
    if array.ndim < 1:
        raise ValueError(f"For '{op_name}', 'input_x' must be at least 1-D.")
    ids, count = _segments(op_name, segment_ids, array.shape[0])
    if method == "mean":
        total = jax.ops.segment_sum(array, ids, count)
        size = jax.ops.segment_sum(jnp.ones(array.shape[:1], array.dtype), ids, count)
        size = size.reshape(size.shape + (1,) * (array.ndim - 1))
        return wrap(jnp.where(size > 0, total / jnp.where(size > 0, size, 1), 0).astype(array.dtype))
    function = {"sum": jax.ops.segment_sum, "max": jax.ops.segment_max, "min": jax.ops.segment_min,
                "prod": segment_product}[method]
    result = function(array, ids, count)
    if method in ("max", "min"):
        present = jax.ops.segment_sum(jnp.ones(array.shape[:1], jnp.int32), ids, count) > 0
        result = jnp.where(present.reshape(present.shape + (1,) * (array.ndim - 1)), result, 0)
    return wrap(result.astype(array.dtype))


def _numpy_sparse_segment_mean(x, indices, segment_ids):
    rows = np.asarray(x)[indices]
    return np.stack([rows[segment_ids == segment].mean(axis=0) if np.any(segment_ids == segment)
                     else np.zeros(rows.shape[1:]) for segment in range(int(segment_ids[-1]) + 1)])


# The output length is the last segment id + 1, read on the host: an ``eager`` entry.
@op(inputs=("x", "indices", "segment_ids"), indices=("indices", "segment_ids"), dtypes=FLOAT,
    eager=True, grad_check=False, reference=_numpy_sparse_segment_mean,
    samples=lambda dtype: [Sample((values((4, 2), dtype), np.array([0, 2, 1, 3], np.int32),
                                   np.array([0, 0, 2, 2], np.int32))),
                           Sample((values((3,), dtype, seed=1), np.array([2, 2], np.int64), np.array([0, 1], np.int64)))])
def sparse_segment_mean(x, indices, segment_ids):
    """Per segment ``s``, the mean of the rows ``x[indices[i]]`` with ``segment_ids[i] == s`` (sorted ids)."""
    if indices.ndim != 1:
        raise ValueError(f"For 'sparse_segment_mean', 'indices' must be a 1-D integer Tensor, but got shape "
                         f"{indices.shape}.")
    ids = jnp.asarray(concrete("sparse_segment_mean", "segment_ids", segment_ids))
    return segment_reduce("sparse_segment_mean", x[indices], ids, "mean")._value


def sum_to_size(input, *size):
    """``input`` summed over the broadcast axes so that its shape becomes ``size``."""
    array = array_of("sum_to_size", "input", input)
    shape = static_shape("sum_to_size", "size", size[0] if len(size) == 1 else size)
    lead = array.ndim - len(shape)
    if lead < 0 or any(s not in (1, d) for s, d in zip(shape, array.shape[lead:])):
        raise ValueError(f"For 'sum_to_size', 'size' {shape} must be a shape that {tuple(array.shape)} "
                         "broadcasts from.")
    axes = tuple(range(lead)) + tuple(lead + i for i, s in enumerate(shape) if s == 1 and array.shape[lead + i] != 1)
    return wrap(jnp.sum(array, axis=axes).reshape(shape) if axes else array)


def ptp(input, axis=None, keepdims=False):
    """The range ``max - min`` along ``axis`` (all elements when None)."""
    array = array_of("ptp", "input", input)
    if axis is not None:
        axis = axis_index("ptp", "axis", axis, array.ndim)
    return wrap(jnp.ptp(array, axis=axis, keepdims=bool(keepdims)))
