"""``max_unpool1d/2d/3d``: the partial inverse of max pooling — values scattered back to their argmax.

Each (batch, channel) plane of the output is zero except at the flat positions ``indices`` names
(as ``max_pool*d(..., return_indices=True)`` gives them); where indices repeat, the last value in
row-major order is the one written, as MindSpore 2.10 writes it. The gradient of max pooling
(``MaxPoolGradWithArgmaxV2``) scatters the same way but adds what shares an index.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> x = Tensor(np.array([[2.0, 4.0]], np.float32))
    >>> ops.max_unpool1d(x, Tensor(np.array([[1, 3]])), 2).asnumpy().tolist()
    [[0.0, 2.0, 0.0, 4.0]]
"""
import jax.numpy as jnp
import numpy as np

from sporax.ops.op_table import ANY, Sample, op, spelling
from sporax.ops.samples import _numpy_dtype


def _as_rows(values, indices, lead_shape, plane_shape):
    """``(values, flat indices, row numbers, zero planes)``: one row per (batch, channel) plane."""
    rows = int(np.prod(tuple(lead_shape)))
    plane = int(np.prod(plane_shape))
    return (values.reshape(rows, -1), indices.reshape(rows, -1).astype(jnp.int32), jnp.arange(rows)[:, None],
            jnp.zeros((rows, plane), values.dtype))


def scatter_to_planes(values, indices, lead_shape, plane_shape):
    """Scatter ``values`` into zero planes of ``plane_shape`` at flat ``indices`` (same shape as values);
    values sharing an index add up (max pooling's gradient)."""
    flat_values, flat_index, row, out = _as_rows(values, indices, lead_shape, plane_shape)
    out = out.at[row, flat_index].add(flat_values)
    return out.reshape(tuple(lead_shape) + tuple(plane_shape))


def _write_to_planes(values, indices, lead_shape, plane_shape):
    """``scatter_to_planes`` writing, where indices repeat, only the last value (row-major), as MindSpore's
    MaxUnpool kernels do."""
    flat_values, flat_index, row, out = _as_rows(values, indices, lead_shape, plane_shape)
    plane = out.shape[1]
    # XLA leaves the winner of a scatter-set with repeated indices unspecified: pick it by position.
    position = jnp.broadcast_to(jnp.arange(flat_index.shape[1], dtype=jnp.int32), flat_index.shape)
    last = jnp.full(out.shape, -1, jnp.int32).at[row, flat_index].max(position, mode="drop")
    winner = last[row, jnp.clip(flat_index, 0, plane - 1)] == position
    out = out.at[row, jnp.where(winner, flat_index, plane)].set(flat_values, mode="drop")
    return out.reshape(tuple(lead_shape) + tuple(plane_shape))


def _tuple(op_name, arg_name, value, dims):
    if isinstance(value, int) and not isinstance(value, bool):
        return (value,) * dims
    if isinstance(value, (tuple, list)) and len(value) == dims and all(isinstance(v, int) for v in value):
        return tuple(value)
    raise TypeError(f"For '{op_name}', '{arg_name}' must be an int or a tuple of {dims} ints, but got {value!r}.")


def _max_unpool(op_name, dims, array, index, kernel_size, stride, padding, output_size):
    if array.ndim not in (dims + 1, dims + 2):
        raise ValueError(f"For '{op_name}', 'x' must be {dims + 1}-D or {dims + 2}-D, but got shape "
                         f"{tuple(array.shape)}.")
    if index.shape != array.shape or not jnp.issubdtype(index.dtype, jnp.integer):
        raise ValueError(f"For '{op_name}', 'indices' must be an int Tensor of the shape of 'x' "
                         f"{tuple(array.shape)}, but got {index.dtype} {tuple(index.shape)}.")
    kernel = _tuple(op_name, "kernel_size", kernel_size, dims)
    strides = kernel if stride is None or stride == 0 else _tuple(op_name, "stride", stride, dims)
    pads = _tuple(op_name, "padding", padding, dims)
    lead, spatial = array.shape[:-dims], array.shape[-dims:]
    default = tuple((size - 1) * s - 2 * p + k for size, s, p, k in zip(spatial, strides, pads, kernel))
    if output_size is None or (isinstance(output_size, (tuple, list)) and len(output_size) == 0):
        out_spatial = default
    else:
        output_size = tuple(output_size)
        out_spatial = output_size[-dims:]
        if len(output_size) not in (dims, array.ndim) or any(
                not d - s <= o <= d + s for o, d, s in zip(out_spatial, default, strides)):
            raise ValueError(f"For '{op_name}', 'output_size' must give the spatial size near {default} "
                             f"(within a stride), but got {output_size}.")
    return _write_to_planes(array, index, lead, out_spatial)


# --- samples and NumPy references (the op test table's oracle) ---------------------------------

def _numpy_unpool(dims):
    """Each plane: zeros with ``x``'s values written at the flat positions ``indices`` names (the last wins)."""

    def reference(x, indices, kernel_size, stride=None, padding=0, output_size=None):
        kernel = (kernel_size,) * dims if isinstance(kernel_size, int) else tuple(kernel_size)
        strides = kernel if not stride else ((stride,) * dims if isinstance(stride, int) else tuple(stride))
        pads = (padding,) * dims if isinstance(padding, int) else tuple(padding)
        sizes = tuple(output_size[-dims:]) if output_size else tuple(
            (n - 1) * s - 2 * p + k for n, s, p, k in zip(x.shape[-dims:], strides, pads, kernel))
        planes = np.zeros((int(np.prod(x.shape[:-dims])), int(np.prod(sizes))))
        for row, (values, where) in enumerate(zip(x.reshape(len(planes), -1), indices.reshape(len(planes), -1))):
            planes[row][where] = values  # NumPy's fancy assignment keeps the last of repeated indices
        return planes.reshape(x.shape[:-dims] + sizes)

    return reference


def _unpool_samples(dims):
    """Values with the indices a max pool of window 2 (stride 2) gives: one position in each window."""

    def make(dtype):
        generator = np.random.default_rng(dims)
        samples = []
        for lead, output_size in (((2, 3), None), ((3,), "one more")):
            pooled = (3, 2, 2)[:dims]
            sizes = tuple(2 * n for n in pooled)
            offsets = generator.integers(0, 2, size=lead + pooled + (dims,))
            grid = np.stack(np.meshgrid(*[2 * np.arange(n) for n in pooled], indexing="ij"), -1)
            points = grid + offsets
            if output_size:
                sizes = tuple(n + 1 for n in sizes)
            flat = np.ravel_multi_index(tuple(np.moveaxis(points, -1, 0)), sizes).astype(np.int64)
            x = generator.uniform(-2, 2, size=lead + pooled).astype(_numpy_dtype(dtype))
            settings = {"kernel_size": 2}
            if output_size:
                settings["output_size"] = sizes
            samples.append(Sample((x, flat), settings))
        return samples

    return make


_UNPOOL = dict(inputs=("x", "indices"), dtypes=ANY)


@op(samples=_unpool_samples(1), reference=_numpy_unpool(1), **_UNPOOL)
def max_unpool1d(x, indices, kernel_size, stride=None, padding=0, output_size=None):
    """Scatter ``x`` (N, C, L) / (C, L) back to length ``(L - 1) * stride - 2 * padding + kernel_size``."""
    return _max_unpool("max_unpool1d", 1, x, indices, kernel_size, stride, padding, output_size)


@op(samples=_unpool_samples(2), reference=_numpy_unpool(2), **_UNPOOL,
    mint=spelling("max_unpool2d", "input, indices, kernel_size, stride=None, padding=0, output_size=None",
                  x="input", namespaces="mint.nn.functional"))
def max_unpool2d(x, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The 2-D ``max_unpool1d``: ``x`` (N, C, H, W) / (C, H, W)."""
    return _max_unpool("max_unpool2d", 2, x, indices, kernel_size, stride, padding, output_size)


@op(samples=_unpool_samples(3), reference=_numpy_unpool(3), **_UNPOOL)
def max_unpool3d(x, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The 3-D ``max_unpool1d``: ``x`` (N, C, D, H, W) / (C, D, H, W)."""
    return _max_unpool("max_unpool3d", 3, x, indices, kernel_size, stride, padding, output_size)
