"""Normalisation ops: batch_norm, layer_norm, group_norm, instance_norm, l2_normalize, rms_norm, lrn.

``batch_norm(training=True)`` normalises with the batch statistics and updates
``running_mean``/``running_var`` in place (``new = (1 - momentum) * old + momentum * batch``,
with the unbiased batch variance), by rebinding their array slot: under ``jit`` or ``grad`` the
state layer lifts those Parameters, so the update survives the transform.

Example:
    >>> import numpy as np
    >>> from sporax import ops, Tensor
    >>> ops.layer_norm(Tensor(np.arange(6, dtype=np.float32).reshape(2, 3)), (3,)).shape
    (2, 3)
"""
import jax
import jax.numpy as jnp
import numpy as np

from sporax.core.tensor import Tensor
from sporax.ops._dispatch import array_of, describe, wrap
from sporax.ops.functional._args import axis_index, kernel, static_int, static_shape
from sporax.ops.functional.activation import float_input
from sporax.ops.functional.special_math import floating as _float


def _per_channel(op_name, arg_name, value, channels):
    if value is None:
        return None
    array = array_of(op_name, arg_name, value)
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


@kernel("momentum", "eps")
def _batch_norm_train(array, running_mean, running_var, weight, bias, momentum, eps):
    axes = (0,) + tuple(range(2, array.ndim))
    # Statistics in at least float32: float16 sums over a batch lose too much.
    values = array.astype(jnp.promote_types(array.dtype, np.float32))
    mean = jnp.mean(values, axes)
    var = jnp.var(values, axes)
    normalized = (values - _channel_shape(mean, array.ndim)) * jax.lax.rsqrt(_channel_shape(var, array.ndim) + eps)
    count = array.size // array.shape[1]
    updates = []
    for old, batch in ((running_mean, mean), (running_var, var * (count / max(count - 1, 1)))):
        batch = jax.lax.stop_gradient(batch)
        updates.append(None if old is None else ((1.0 - momentum) * old + momentum * batch).astype(old.dtype))
    return _affine(normalized.astype(array.dtype), weight, bias), updates[0], updates[1]


@kernel("eps")
def _batch_norm_eval(array, mean, var, weight, bias, eps):
    ndim = array.ndim
    normalized = (array - _channel_shape(mean, ndim).astype(array.dtype)) * jax.lax.rsqrt(
        _channel_shape(var, ndim).astype(array.dtype) + jnp.asarray(eps, array.dtype))
    return _affine(normalized, weight, bias)


def batch_norm(input_x, running_mean, running_var, weight, bias, training=False, momentum=0.1, eps=1e-05):
    """Batch normalisation over axis 1 of an (N, C, ...) input."""
    op_name = "batch_norm"
    array = float_input(op_name, "input_x", input_x)
    if array.ndim < 2:
        raise ValueError(f"For '{op_name}', 'input_x' must be at least 2-d (N, C, ...), but got "
                         f"{describe(input_x)}.")
    channels = array.shape[1]
    mean = _per_channel(op_name, "running_mean", running_mean, channels)
    var = _per_channel(op_name, "running_var", running_var, channels)
    scale = _per_channel(op_name, "weight", weight, channels)
    shift = _per_channel(op_name, "bias", bias, channels)
    if not training:
        if mean is None or var is None:
            raise ValueError(f"For '{op_name}', 'running_mean' and 'running_var' are needed when "
                             "training=False.")
        return wrap(_batch_norm_eval(array, mean, var, scale, shift, float(eps)))
    for name, stat in (("running_mean", running_mean), ("running_var", running_var)):
        if stat is not None and not isinstance(stat, Tensor):
            raise TypeError(f"For '{op_name}', '{name}' must be a Tensor or Parameter when training=True, "
                            f"so that it can be updated, but got {describe(stat)}.")
    out, new_mean, new_var = _batch_norm_train(array, mean, var, scale, shift, float(momentum), float(eps))
    # Stores go through the state layer's one writer: under jit/grad it checks that a scope
    # lifts these Parameters, so the update survives the transform.
    from sporax.state.assign import write

    if new_mean is not None:
        write(running_mean, new_mean, op_name)
    if new_var is not None:
        write(running_var, new_var, op_name)
    return wrap(out)


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


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05):
    """Normalise over the trailing ``normalized_shape`` axes, then scale by ``weight``, add ``bias``."""
    op_name = "layer_norm"
    array = float_input(op_name, "input", input)
    shape = static_shape(op_name, "normalized_shape", normalized_shape)
    if array.shape[array.ndim - len(shape):] != shape:
        raise ValueError(f"For '{op_name}', 'normalized_shape' {shape} must match the trailing "
                         f"dimensions of the input of shape {array.shape}.")
    scale = None if weight is None else array_of(op_name, "weight", weight)
    shift = None if bias is None else array_of(op_name, "bias", bias)
    return wrap(_layer_norm_kernel(array, scale, shift, len(shape), float(eps)))


@kernel("groups", "eps")
def _group_norm_kernel(array, weight, bias, groups, eps):
    values = array.astype(jnp.promote_types(array.dtype, np.float32)).reshape(array.shape[0], groups, -1)
    mean = jnp.mean(values, -1, keepdims=True)
    var = jnp.var(values, -1, keepdims=True)
    out = ((values - mean) * jax.lax.rsqrt(var + eps)).reshape(array.shape).astype(array.dtype)
    return _affine(out, weight, bias)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05):
    """Normalise each of ``num_groups`` channel groups of an (N, C, ...) input."""
    op_name = "group_norm"
    array = float_input(op_name, "input", input)
    groups = static_int(op_name, "num_groups", num_groups)
    channels = array.shape[1]
    if groups <= 0 or channels % groups:
        raise ValueError(f"For '{op_name}', the channels ({channels}) must be divisible by "
                         f"'num_groups' ({groups}).")
    return wrap(_group_norm_kernel(array, _per_channel(op_name, "weight", weight, channels),
                                   _per_channel(op_name, "bias", bias, channels), groups, float(eps)))


@kernel("axes", "epsilon")
def _l2_normalize_kernel(array, axes, epsilon):
    square_sum = jnp.sum(jnp.square(array), axes, keepdims=True)
    return array * jax.lax.rsqrt(jnp.maximum(square_sum, jnp.asarray(epsilon, array.dtype)))


def l2_normalize(x, axis=0, epsilon=1e-4):
    """``x / sqrt(max(sum(x ** 2, axis), epsilon))``."""
    array = float_input("l2_normalize", "x", x)
    axes = tuple(axis_index("l2_normalize", "axis", a, array.ndim)
                 for a in (axis if isinstance(axis, (tuple, list)) else (axis,)))
    return wrap(_l2_normalize_kernel(array, axes, float(epsilon)))


def rms_norm(x, gamma, epsilon=1e-6):
    """``(y, rstd)``: ``y = x * rstd * gamma`` with ``rstd = 1 / sqrt(mean(x**2) + epsilon)`` over the last
    ``gamma.ndim`` axes (``rstd`` keeps those axes with size 1, as Float32)."""
    array = _float("rms_norm", "x", x)
    scale = _float("rms_norm", "gamma", gamma)
    if array.dtype != scale.dtype:
        raise TypeError(f"For 'rms_norm', 'x' and 'gamma' must have the same dtype, but got {array.dtype} and "
                        f"{scale.dtype}.")
    if not isinstance(epsilon, float) or not 0 < epsilon <= 1:
        raise ValueError(f"For 'rms_norm', 'epsilon' must be a float in (0, 1], but got {epsilon!r}.")
    if scale.ndim > array.ndim or array.shape[array.ndim - scale.ndim:] != scale.shape:
        raise ValueError(f"For 'rms_norm', 'gamma' {tuple(scale.shape)} must match the last dimensions of 'x' "
                         f"{tuple(array.shape)}.")
    axes = tuple(range(array.ndim - scale.ndim, array.ndim))
    wide = array.astype(jnp.float32)
    rstd = jax.lax.rsqrt(jnp.mean(wide * wide, axis=axes, keepdims=True) + epsilon)
    return wrap((wide * rstd * scale.astype(jnp.float32)).astype(array.dtype)), wrap(rstd)


def lrn(x, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, norm_region="ACROSS_CHANNELS"):
    """Local response normalisation of NCHW ``x`` across channels:
    ``x / (bias + alpha * sum_{|c' - c| <= depth_radius} x[c']**2) ** beta``."""
    array = _float("lrn", "x", x)
    if array.ndim != 4:
        raise ValueError(f"For 'lrn', 'x' must be 4-D (N, C, H, W), but got shape {tuple(array.shape)}.")
    if norm_region != "ACROSS_CHANNELS":
        raise ValueError(f"For 'lrn', 'norm_region' must be 'ACROSS_CHANNELS', but got {norm_region!r}.")
    if isinstance(depth_radius, bool) or not isinstance(depth_radius, int) or depth_radius < 0:
        raise ValueError(f"For 'lrn', 'depth_radius' must be a non-negative int, but got {depth_radius!r}.")
    squared = array * array
    padded = jnp.pad(squared, ((0, 0), (depth_radius, depth_radius), (0, 0), (0, 0)))
    window = sum(padded[:, i:i + array.shape[1]] for i in range(2 * depth_radius + 1))
    return wrap(array / (bias + alpha * window) ** beta)
