"""Normalisation ops: batch_norm, layer_norm, group_norm, l2_normalize, rms_norm, lrn.

batch_norm, layer_norm, group_norm, l2_normalize, rms_norm and lrn are op-table entries (``sporax.ops.op_table``):
their kernels below, samples and NumPy references; batch_norm's entry ``updates`` its running statistics.

``batch_norm(training=True)`` normalises with the batch statistics and updates
``running_mean``/``running_var`` in place (``new = (1 - momentum) * old + momentum * batch``,
with the unbiased batch variance), through the state layer's one writer: under ``jit`` or ``grad`` the
state layer lifts those Parameters, so the update survives the transform.

Example:
    >>> import numpy as np
    >>> from sporax import ops, Tensor
    >>> ops.layer_norm(Tensor(np.arange(6, dtype=np.float32).reshape(2, 3)), (3,)).shape
    (2, 3)
"""
import functools

import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np

from sporax.ops._dispatch import array_of, describe
from sporax.ops.functional._args import axis_index, kernel, static_int, static_shape
from sporax.ops.op_table import ANY, Sample, op, spelling


def _uniform(shape, dtype, seed):
    return np.random.default_rng(seed).uniform(-2.0, 2.0, size=shape).astype(
        np.dtype(ml_dtypes.bfloat16) if dtype == "bfloat16" else np.dtype(dtype))


def _per_channel(op_name, arg_name, value, channels):
    if value is None:
        return None
    array = value if isinstance(value, jax.Array) else array_of(op_name, arg_name, value)
    if array.shape != (channels,):
        raise ValueError(f"For '{op_name}', '{arg_name}' must have shape ({channels},) (one entry per "
                         f"channel), but got {describe(value)}.")
    return array


def _channel_shape(array, ndim):
    return array.reshape((1, -1) + (1,) * (ndim - 2))


def _affine(out, weight, bias):
    if weight is not None:
        out = out * _channel_shape(weight, out.ndim).astype(out.dtype)
    if bias is not None:
        out = out + _channel_shape(bias, out.ndim).astype(out.dtype)
    return out


def _statistics_dtype(dtype):
    # Half-precision inputs accumulate their statistics in float32, as MindSpore's kernels do.
    return jnp.float32 if jnp.dtype(dtype).itemsize < 4 else dtype


# The one batch-norm kernel (ops.batch_norm, nn.BatchNorm*d): scaling by gamma * rsqrt(var) once per
# channel measured 2x faster (forward + backward, XLA:CPU) than normalise-then-affine.
@functools.partial(jax.jit, static_argnums=(5, 6, 7, 8))
def _batch_norm(array, gamma, beta, moving_mean, moving_variance, eps, momentum, use_batch, channel_axis=1):
    """(output, new moving mean, new moving variance); the moving ones are unchanged unless use_batch.
    ``channel_axis``: 1 (NC...), or 3 for the NHWC arrays of ``ops.layer_forms.channel_layout``."""
    compute = _statistics_dtype(array.dtype)
    values = array.astype(compute)
    axes = tuple(axis for axis in range(array.ndim) if axis != channel_axis)
    broadcast = tuple(-1 if axis == channel_axis else 1 for axis in range(array.ndim))
    if use_batch:
        mean = jnp.mean(values, axis=axes)
        variance = jnp.mean(jnp.square(values - mean.reshape(broadcast)), axis=axes)
        count = values.size // values.shape[channel_axis]
        unbiased = variance * (count / max(count - 1, 1))
        new_mean = momentum * moving_mean.astype(compute) + (1 - momentum) * jax.lax.stop_gradient(mean)
        new_variance = (momentum * moving_variance.astype(compute)
                        + (1 - momentum) * jax.lax.stop_gradient(unbiased))
        new_mean, new_variance = new_mean.astype(moving_mean.dtype), new_variance.astype(moving_variance.dtype)
    else:
        mean, variance = moving_mean.astype(compute), moving_variance.astype(compute)
        new_mean, new_variance = moving_mean, moving_variance
    scale = gamma.astype(compute) * jax.lax.rsqrt(variance + jnp.asarray(eps, compute))
    shift = beta.astype(compute) - mean * scale
    output = values * scale.reshape(broadcast) + shift.reshape(broadcast)
    return output.astype(array.dtype), new_mean, new_variance


@jax.jit
def batch_statistics(array):
    """The batch mean and biased variance over every axis but 1 (no gradient, in the array's dtype): the
    extra outputs of MindSpore's BatchNorm Primitive, accumulated in float32 as ``batch_norm``."""
    axes = (0,) + tuple(range(2, array.ndim))
    values = array.astype(jnp.promote_types(array.dtype, np.float32))
    return (jax.lax.stop_gradient(jnp.mean(values, axes)).astype(array.dtype),
            jax.lax.stop_gradient(jnp.var(values, axes)).astype(array.dtype))


def _batch_norm_reference(input_x, running_mean, running_var, weight, bias, training=False, momentum=0.1,
                          eps=1e-05):
    axes = (0,) + tuple(range(2, input_x.ndim))
    shape = (1, -1) + (1,) * (input_x.ndim - 2)
    if training:
        mean, variance = input_x.mean(axes), input_x.var(axes)
    else:
        mean, variance = running_mean, running_var
    normalised = (input_x - np.reshape(mean, shape)) / np.sqrt(np.reshape(variance, shape) + eps)
    return normalised * np.reshape(weight, shape) + np.reshape(bias, shape)


def _batch_norm_samples(dtype):
    x, mean, weight, bias = (_uniform(shape, dtype, seed) for seed, shape in enumerate(((4, 3, 2, 2), (3,), (3,), (3,))))
    variance = np.abs(_uniform((3,), dtype, 4)) + np.asarray(0.5, x.dtype)
    return [Sample((x, mean, variance, weight, bias)),
            Sample((x[:, :, 0], mean, variance, weight, bias), {"training": True, "momentum": 0.2, "eps": 1e-3})]


@op(mint=spelling("batch_norm", "input, running_mean, running_var, weight=None, bias=None, training=False, "
                  "momentum=0.1, eps=1e-05", input_x="input", namespaces="mint.nn.functional"),
    inputs=("input_x", "running_mean", "running_var", "weight", "bias"),
    input_dtypes={"running_mean": ANY, "running_var": ANY, "weight": ANY, "bias": ANY},
    updates=("running_mean", "running_var"), nullable=("running_mean", "running_var", "weight", "bias"),
    samples=_batch_norm_samples, reference=_batch_norm_reference)
def batch_norm(input_x, running_mean, running_var, weight, bias, training=False, momentum=0.1, eps=1e-05):
    """Batch normalisation over axis 1 of an (N, C, ...) input; in training, normalised with the batch statistics,
    and ``running_mean``/``running_var`` are updated in place (``(1 - momentum) * old + momentum * batch``, the
    batch variance unbiased).

    Example:
        >>> import numpy as np
        >>> from sporax import ops, Tensor
        >>> mean, var = Tensor(np.zeros(2, np.float32)), Tensor(np.ones(2, np.float32))
        >>> x = Tensor(np.array([[1.0, 2.0], [3.0, 6.0]], np.float32))
        >>> _ = ops.batch_norm(x, mean, var, None, None, training=True)
        >>> mean.asnumpy().tolist()
        [0.20000000298023224, 0.4000000059604645]
    """
    op_name = "batch_norm"
    array = input_x
    if array.ndim < 2:
        raise ValueError(f"For '{op_name}', 'input_x' must be at least 2-d (N, C, ...), but got shape {array.shape}.")
    channels = array.shape[1]
    mean = _per_channel(op_name, "running_mean", running_mean, channels)
    var = _per_channel(op_name, "running_var", running_var, channels)
    scale = _per_channel(op_name, "weight", weight, channels)
    shift = _per_channel(op_name, "bias", bias, channels)
    if not training and (mean is None or var is None):
        raise ValueError(f"For '{op_name}', 'running_mean' and 'running_var' are needed when "
                         "training=False.")
    statistics_dtype = _statistics_dtype(array.dtype)
    scale = jnp.ones((channels,), statistics_dtype) if scale is None else scale
    shift = jnp.zeros((channels,), statistics_dtype) if shift is None else shift
    # the kernel's momentum weighs the old statistics (nn.BatchNorm's convention); ops.batch_norm's the batch
    out, new_mean, new_var = _batch_norm(
        array, scale, shift, jnp.zeros((channels,), statistics_dtype) if mean is None else mean,
        jnp.ones((channels,), statistics_dtype) if var is None else var, float(eps), 1.0 - float(momentum),
        bool(training))
    if not training:
        return out, None, None
    return out, None if mean is None else new_mean, None if var is None else new_var


@kernel("count", "eps")
def _layer_norm_kernel(array, weight, bias, count, eps):
    axes = tuple(range(array.ndim - count, array.ndim))
    values = array.astype(jnp.promote_types(array.dtype, np.float32))
    mean = jnp.mean(values, axes, keepdims=True)
    var = jnp.var(values, axes, keepdims=True)
    out = ((values - mean) * jax.lax.rsqrt(var + eps)).astype(array.dtype)
    if weight is not None:
        out = out * weight.astype(array.dtype)
    if bias is not None:
        out = out + bias.astype(array.dtype)
    return out


def _layer_norm_reference(input, weight=None, bias=None, normalized_shape=(), eps=1e-05):
    axes = tuple(range(input.ndim - len(normalized_shape), input.ndim))
    out = (input - np.mean(input, axes, keepdims=True)) / np.sqrt(np.var(input, axes, keepdims=True) + eps)
    return out * (1.0 if weight is None else weight) + (0.0 if bias is None else bias)


def _layer_norm_samples(dtype):
    x, weight, bias = (_uniform(shape, dtype, seed) for seed, shape in enumerate(((2, 3, 4), (3, 4), (3, 4))))
    return [Sample((x, weight[0], bias[0]), {"normalized_shape": (4,)}),
            Sample((x, weight, bias), {"normalized_shape": (3, 4), "eps": 1e-3}),
            Sample((x[0],), {"normalized_shape": (4,)})]


@op(inputs=("input", "weight", "bias"), input_dtypes={"weight": ANY, "bias": ANY},
    samples=_layer_norm_samples, reference=_layer_norm_reference)
def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05):
    """Normalise over the trailing ``normalized_shape`` axes, then scale by ``weight``, add ``bias``."""
    shape = static_shape("layer_norm", "normalized_shape", normalized_shape)
    if input.shape[input.ndim - len(shape):] != shape or len(shape) > input.ndim:
        raise ValueError(f"For 'layer_norm', 'normalized_shape' {shape} must match the trailing "
                         f"dimensions of the input of shape {input.shape}.")
    return _layer_norm_kernel(input, weight, bias, len(shape), float(eps))


def layer_norm_statistics(array, count):
    """The mean and variance of ``array`` over its last ``count`` axes (kept as size 1, in the array's dtype):
    the extra outputs of MindSpore's LayerNorm Primitive, with ``_layer_norm_kernel``'s float32 accumulation."""
    axes = tuple(range(array.ndim - count, array.ndim))
    values = array.astype(jnp.promote_types(array.dtype, np.float32))
    return (jnp.mean(values, axes, keepdims=True).astype(array.dtype),
            jnp.var(values, axes, keepdims=True).astype(array.dtype))


@kernel("groups", "eps")
def _group_norm_kernel(array, weight, bias, groups, eps):
    values = array.astype(jnp.promote_types(array.dtype, np.float32)).reshape(array.shape[0], groups, -1)
    mean = jnp.mean(values, -1, keepdims=True)
    var = jnp.var(values, -1, keepdims=True)
    out = ((values - mean) * jax.lax.rsqrt(var + eps)).reshape(array.shape).astype(array.dtype)
    return _affine(out, weight, bias)


@jax.jit
def instance_statistics(array):
    """The moving-statistics step of instance normalisation of an (N, C, ...) array: the mean over the samples of
    each (sample, channel) slice's mean and unbiased variance, (C,) each (float32 for low-precision inputs)."""
    compute = _statistics_dtype(array.dtype)
    slices = array.astype(compute).reshape(array.shape[0], array.shape[1], -1)
    count = slices.shape[2]
    mean = jnp.mean(slices, axis=2)
    variance = jnp.var(slices, axis=2) * (count / max(count - 1, 1))
    return jnp.mean(mean, axis=0), jnp.mean(variance, axis=0)


def _group_norm_reference(input, weight=None, bias=None, num_groups=1, eps=1e-05):
    grouped = input.reshape(input.shape[0], num_groups, -1)
    out = ((grouped - grouped.mean(-1, keepdims=True)) / np.sqrt(grouped.var(-1, keepdims=True) + eps))
    shape = (1, -1) + (1,) * (input.ndim - 2)
    out = out.reshape(input.shape)
    return out * (1.0 if weight is None else weight.reshape(shape)) + (0.0 if bias is None else bias.reshape(shape))


def _group_norm_samples(dtype):
    x = _uniform((2, 4, 3), dtype, 0)
    weight, bias = _uniform((4,), dtype, 1), _uniform((4,), dtype, 2)
    return [Sample((x, weight, bias), {"num_groups": 2}),
            Sample((x,), {"num_groups": 4, "eps": 1e-3}),
            Sample((_uniform((2, 6), dtype, 3), weight[:1].repeat(6), bias[:1].repeat(6)), {"num_groups": 3})]


@op(inputs=("input", "weight", "bias"), input_dtypes={"weight": ANY, "bias": ANY},
    samples=_group_norm_samples, reference=_group_norm_reference)
def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05):
    """Normalise each of ``num_groups`` channel groups of an (N, C, ...) input."""
    op_name = "group_norm"
    groups = static_int(op_name, "num_groups", num_groups)
    if input.ndim < 2:
        raise ValueError(f"For '{op_name}', the input must be at least 2-d (N, C, ...), but got shape {input.shape}.")
    channels = input.shape[1]
    if groups <= 0 or channels % groups:
        raise ValueError(f"For '{op_name}', the channels ({channels}) must be divisible by "
                         f"'num_groups' ({groups}).")
    return _group_norm_kernel(input, _per_channel(op_name, "weight", weight, channels),
                              _per_channel(op_name, "bias", bias, channels), groups, float(eps))


def _l2_normalize_reference(x, axis=0, epsilon=1e-4):
    return x / np.sqrt(np.maximum(np.sum(x * x, axis, keepdims=True), epsilon))


@op(inputs="x", primitive="L2Normalize", primitive_attrs=("axis", "epsilon"),
    samples=lambda dtype: [Sample((_uniform((3, 4), dtype, 0),)),
                           Sample((_uniform((3, 4), dtype, 1),), {"axis": -1, "epsilon": 1e-6}),
                           Sample((_uniform((2, 3, 2), dtype, 2),), {"axis": (0, 2)})],
    reference=_l2_normalize_reference)
def l2_normalize(x, axis=0, epsilon=1e-4):
    """``x / sqrt(max(sum(x ** 2, axis), epsilon))``."""
    axes = tuple(axis_index("l2_normalize", "axis", a, x.ndim)
                 for a in (axis if isinstance(axis, (tuple, list)) else (axis,)))
    square_sum = jnp.sum(jnp.square(x), axes, keepdims=True)
    return x * jax.lax.rsqrt(jnp.maximum(square_sum, jnp.asarray(epsilon, x.dtype)))


def _rms_norm_reference(x, gamma, epsilon=1e-6):
    axes = tuple(range(x.ndim - gamma.ndim, x.ndim))
    rstd = 1.0 / np.sqrt(np.mean(x * x, axis=axes, keepdims=True) + epsilon)
    return x * rstd * gamma, rstd


@op(inputs=("x", "gamma"), samples=lambda dtype: [
        Sample((_uniform((3, 4), dtype, 0), _uniform((4,), dtype, 1))),
        Sample((_uniform((2, 3, 4), dtype, 2), _uniform((3, 4), dtype, 3)), {"epsilon": 1e-3})],
    reference=_rms_norm_reference, grad_check=False)
def rms_norm(x, gamma, epsilon=1e-6):
    """``(y, rstd)``: ``y = x * rstd * gamma`` with ``rstd = 1 / sqrt(mean(x**2) + epsilon)`` over the last
    ``gamma.ndim`` axes (``rstd`` keeps those axes with size 1, as Float32)."""
    if x.dtype != gamma.dtype:
        raise TypeError(f"For 'rms_norm', 'x' and 'gamma' must have the same dtype, but got {x.dtype} and "
                        f"{gamma.dtype}.")
    if not isinstance(epsilon, float) or not 0 < epsilon <= 1:
        raise ValueError(f"For 'rms_norm', 'epsilon' must be a float in (0, 1], but got {epsilon!r}.")
    if gamma.ndim > x.ndim or x.shape[x.ndim - gamma.ndim:] != gamma.shape:
        raise ValueError(f"For 'rms_norm', 'gamma' {tuple(gamma.shape)} must match the last dimensions of 'x' "
                         f"{tuple(x.shape)}.")
    axes = tuple(range(x.ndim - gamma.ndim, x.ndim))
    wide = x.astype(jnp.float32)
    rstd = jax.lax.rsqrt(jnp.mean(wide * wide, axis=axes, keepdims=True) + epsilon)
    return (wide * rstd * gamma.astype(jnp.float32)).astype(x.dtype), rstd


def _lrn_reference(x, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, norm_region="ACROSS_CHANNELS"):
    channels = x.shape[1]
    window = np.stack([np.sum(x[:, max(0, c - depth_radius):c + depth_radius + 1] ** 2, axis=1)
                       for c in range(channels)], axis=1)
    return x / (bias + alpha * window) ** beta


@op(inputs="x", samples=lambda dtype: [
        Sample((_uniform((2, 5, 2, 3), dtype, 0),)),
        Sample((_uniform((1, 4, 3, 2), dtype, 1),), {"depth_radius": 1, "bias": 2.0, "alpha": 0.5, "beta": 0.75})],
    reference=_lrn_reference)
def lrn(x, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, norm_region="ACROSS_CHANNELS"):
    """Local response normalisation of NCHW ``x`` across channels:
    ``x / (bias + alpha * sum_{|c' - c| <= depth_radius} x[c']**2) ** beta``."""
    if x.ndim != 4:
        raise ValueError(f"For 'lrn', 'x' must be 4-D (N, C, H, W), but got shape {tuple(x.shape)}.")
    if norm_region != "ACROSS_CHANNELS":
        raise ValueError(f"For 'lrn', 'norm_region' must be 'ACROSS_CHANNELS', but got {norm_region!r}.")
    if isinstance(depth_radius, bool) or not isinstance(depth_radius, int) or depth_radius < 0:
        raise ValueError(f"For 'lrn', 'depth_radius' must be a non-negative int, but got {depth_radius!r}.")
    squared = x * x
    padded = jnp.pad(squared, ((0, 0), (depth_radius, depth_radius), (0, 0), (0, 0)))
    window = sum(padded[:, i:i + x.shape[1]] for i in range(2 * depth_radius + 1))
    return x / (bias + alpha * window) ** beta


# --- the pieces of a synchronised batch norm (mint.batch_norm_stats, _elemt, _gather_stats_with_counts) -----
def _reduced_axes(array):
    return (0,) + tuple(range(2, array.ndim))


def _numpy_batch_norm_stats(input, eps):
    values = input.astype(np.float64)
    return values.mean(_reduced_axes(values)), 1 / np.sqrt(values.var(_reduced_axes(values)) + eps)


@op(primitive="BatchNormStats", mint="batch_norm_stats", grad_check=False, reference=_numpy_batch_norm_stats,
    samples=lambda dtype: [Sample((_uniform((4, 3, 2), dtype, 0),), {"eps": 1e-5}),
                           Sample((_uniform((5, 2), dtype, 1),), {"eps": 0.1})])
def batch_norm_stats(input, eps):
    """Return ``(mean, invstd)``: the per-channel mean of an (N, C, ...) input and ``1 / sqrt(biased variance +
    eps)`` (one device's share of a synchronised batch norm).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, mint
        >>> mean, invstd = mint.batch_norm_stats(Tensor(np.array([[1.0], [3.0]], np.float32)), 0.0)
        >>> mean.asnumpy().tolist(), invstd.asnumpy().tolist()
        ([2.0], [1.0])
    """
    if input.ndim < 2:
        raise ValueError(f"For 'batch_norm_stats', 'input' must be at least 2-d (N, C, ...), but got shape "
                         f"{tuple(input.shape)}.")
    values = input.astype(_statistics_dtype(input.dtype))
    mean, variance = jnp.mean(values, _reduced_axes(values)), jnp.var(values, _reduced_axes(values))
    return mean.astype(input.dtype), jax.lax.rsqrt(variance + eps).astype(input.dtype)


def _numpy_batch_norm_elemt(input, weight=None, bias=None, mean=None, invstd=None, eps=1e-05):
    shape = (1, -1) + (1,) * (input.ndim - 2)
    output = (input - np.reshape(mean, shape)) * np.reshape(invstd, shape)
    if weight is not None:
        output = output * np.reshape(weight, shape)
    return output if bias is None else output + np.reshape(bias, shape)


def _batch_norm_elemt_samples(dtype):
    x, weight, bias, mean = (_uniform(shape, dtype, seed) for seed, shape in enumerate(((4, 3, 2), (3,), (3,), (3,))))
    invstd = np.abs(_uniform((3,), dtype, 4)) + np.asarray(0.5, x.dtype)
    return [Sample((x, weight, bias, mean, invstd)), Sample((x[:, :, 0], weight, bias, mean, invstd), {"eps": 0.1})]


@op(inputs=("input", "weight", "bias", "mean", "invstd"), primitive="BatchNormElemt", mint="batch_norm_elemt",
    input_dtypes={"weight": ANY, "bias": ANY, "mean": ANY, "invstd": ANY},
    grad_check=False, samples=_batch_norm_elemt_samples, reference=_numpy_batch_norm_elemt)
def batch_norm_elemt(input, weight=None, bias=None, mean=None, invstd=None, eps=1e-05):
    """``(input - mean) * invstd * weight + bias`` per channel (axis 1) of an (N, C, ...) input: a synchronised
    batch norm's normalisation with the global ``mean``/``invstd`` (``eps`` is already in ``invstd``).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, mint
        >>> x = Tensor(np.array([[1.0], [3.0]], np.float32))
        >>> mint.batch_norm_elemt(x, None, None, Tensor([2.0]), Tensor([1.0])).asnumpy().ravel().tolist()
        [-1.0, 1.0]
    """
    op_name = "batch_norm_elemt"
    if input.ndim < 2:
        raise ValueError(f"For '{op_name}', 'input' must be at least 2-d (N, C, ...), but got shape "
                         f"{tuple(input.shape)}.")
    if mean is None or invstd is None:
        raise ValueError(f"For '{op_name}', 'mean' and 'invstd' are needed (batch_norm_stats gives them).")
    channels = input.shape[1]
    mean, invstd, weight, bias = (_per_channel(op_name, name, value, channels) for name, value in
                                  (("mean", mean), ("invstd", invstd), ("weight", weight), ("bias", bias)))
    normalised = ((input - _channel_shape(mean, input.ndim).astype(input.dtype))
                  * _channel_shape(invstd, input.ndim).astype(input.dtype))
    return _affine(normalised, weight, bias)


def _numpy_gather_stats(input, mean, invstd, running_mean, running_var, counts, momentum=0.1, eps=1e-05):
    counts = np.reshape(counts, (-1, 1))
    total = counts.sum()
    global_mean = (mean * counts).sum(0) / total
    global_variance = ((1 / invstd ** 2 - eps + (mean - global_mean) ** 2) * counts).sum(0) / total
    return global_mean, 1 / np.sqrt(global_variance + eps)


def _gather_stats_samples(dtype):
    means = _uniform((3, 2), dtype, 0)
    invstds = np.abs(_uniform((3, 2), dtype, 1)) + np.asarray(0.5, means.dtype)
    running = np.abs(_uniform((2,), dtype, 2)) + np.asarray(0.5, means.dtype)
    counts = np.asarray([2.0, 3.0, 4.0], means.dtype)
    return [Sample((_uniform((4, 2), dtype, 3), means, invstds, running, running, counts)),
            Sample((_uniform((4, 2), dtype, 3), means, invstds, running, running, counts),
                   {"momentum": 0.3, "eps": 0.01})]


@op(inputs=("input", "mean", "invstd", "running_mean", "running_var", "counts"),
    input_dtypes={"running_mean": ANY, "running_var": ANY, "counts": ANY},
    updates=("running_mean", "running_var"), nullable=("running_mean", "running_var"),
    # mint's face is this function (a plain mint name would be called with counts positionally)
    primitive="BatchNormGatherStatsWithCounts", grad_check=False,
    samples=_gather_stats_samples, reference=_numpy_gather_stats)
def batch_norm_gather_stats_with_counts(input, mean, invstd, running_mean=None, running_var=None, momentum=0.1,
                                        eps=1e-05, counts=None):
    """Return the global ``(mean, invstd)`` of a synchronised batch norm from each device's row of ``mean`` and
    ``invstd`` (``batch_norm_stats``), weighted by its element ``counts``; ``running_mean``/``running_var`` are
    updated in place (``(1 - momentum) * old + momentum * global``, the variance unbiased). ``input`` is not read.

    Example:
        >>> from sporax import Tensor, mint
        >>> means, invstds = Tensor([[0.0], [2.0]]), Tensor([[1.0], [1.0]])
        >>> mean, _ = mint.batch_norm_gather_stats_with_counts(means, means, invstds, counts=Tensor([2.0, 2.0]))
        >>> mean.asnumpy().tolist()
        [1.0]
    """
    if counts is None:
        raise ValueError("For 'batch_norm_gather_stats_with_counts', 'counts' is needed (the element count "
                         "behind each row of 'mean').")
    weights = jnp.reshape(counts.astype(mean.dtype), (-1, 1))
    total = jnp.sum(weights)
    global_mean = jnp.sum(mean * weights, 0) / total
    variances = 1.0 / jnp.square(invstd) - eps
    global_variance = jnp.sum((variances + jnp.square(mean - global_mean)) * weights, 0) / total
    new_mean = new_var = None
    if running_mean is not None:
        new_mean = (running_mean * (1 - momentum) + global_mean * momentum).astype(running_mean.dtype)
    if running_var is not None:
        unbiased = global_variance * total / (total - 1)
        new_var = (running_var * (1 - momentum) + unbiased * momentum).astype(running_var.dtype)
    return (global_mean, jax.lax.rsqrt(global_variance + eps)), new_mean, new_var
