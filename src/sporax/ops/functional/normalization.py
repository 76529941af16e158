"""Normalisation ops: batch_norm, layer_norm, group_norm, instance_norm, l2_normalize.

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
from sporax.ops.functional._args import axis_index, static_int, static_shape
from sporax.ops.functional.activation import float_input


def _per_channel(op_name, arg_name, value, channels, dtype, ndim):
    if value is None:
        return None
    array = array_of(op_name, arg_name, value)
    if array.shape != (channels,):
        raise ValueError(f"For '{op_name}', '{arg_name}' must have shape ({channels},) (one entry per "
                         f"channel), but got {describe(value)}.")
    return array.astype(dtype).reshape((1, channels) + (1,) * (ndim - 2))


def _rebind(tensor, value):
    """Store ``value`` into a Tensor/Parameter's slot (how sporax mutates state)."""
    tensor._array = value.astype(tensor._value.dtype)


def batch_norm(input_x, running_mean, running_var, weight, bias, training=False, momentum=0.1, eps=1e-05):
    """Batch normalisation over axis 1 of an (N, C, ...) input."""
    op_name = "batch_norm"
    array = float_input(op_name, "input_x", input_x)
    if array.ndim < 2:
        raise ValueError(f"For '{op_name}', 'input_x' must be at least 2-d (N, C, ...), but got "
                         f"{describe(input_x)}.")
    channels, ndim = array.shape[1], array.ndim
    axes = (0,) + tuple(range(2, ndim))
    if training:
        # Statistics in at least float32: float16 sums over a batch lose too much.
        compute = jnp.promote_types(array.dtype, np.float32)
        values = array.astype(compute)
        mean = jnp.mean(values, axes)
        var = jnp.var(values, axes)
        count = array.size // channels
        for name, stat, batch in (("running_mean", running_mean, mean),
                                  ("running_var", running_var,
                                   var * (count / max(count - 1, 1)))):
            if isinstance(stat, Tensor):
                old = stat._value
                _rebind(stat, (1.0 - momentum) * old + momentum * jax.lax.stop_gradient(batch).astype(old.dtype))
            elif stat is not None:
                raise TypeError(f"For '{op_name}', '{name}' must be a Tensor or Parameter when "
                                f"training=True, so it can be updated, but got {describe(stat)}.")
        shape = (1, channels) + (1,) * (ndim - 2)
        normalized = ((values - mean.reshape(shape)) * jax.lax.rsqrt(var.reshape(shape) + eps)).astype(array.dtype)
    else:
        mean = _per_channel(op_name, "running_mean", running_mean, channels, array.dtype, ndim)
        var = _per_channel(op_name, "running_var", running_var, channels, array.dtype, ndim)
        normalized = (array - mean) * jax.lax.rsqrt(var + jnp.asarray(eps, array.dtype))
    scale = _per_channel(op_name, "weight", weight, channels, array.dtype, ndim)
    shift = _per_channel(op_name, "bias", bias, channels, array.dtype, ndim)
    if scale is not None:
        normalized = normalized * scale
    if shift is not None:
        normalized = normalized + shift
    return wrap(normalized)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05):
    """Normalise over the trailing ``normalized_shape`` axes, then scale by ``weight``, add ``bias``."""
    op_name = "layer_norm"
    array = float_input(op_name, "input", input)
    shape = static_shape(op_name, "normalized_shape", normalized_shape)
    if array.shape[array.ndim - len(shape):] != shape:
        raise ValueError(f"For '{op_name}', 'normalized_shape' {shape} must match the trailing "
                         f"dimensions of the input of shape {array.shape}.")
    axes = tuple(range(array.ndim - len(shape), array.ndim))
    compute = jnp.promote_types(array.dtype, np.float32)
    values = array.astype(compute)
    mean = jnp.mean(values, axes, keepdims=True)
    var = jnp.var(values, axes, keepdims=True)
    out = ((values - mean) * jax.lax.rsqrt(var + eps)).astype(array.dtype)
    if weight is not None:
        out = out * array_of(op_name, "weight", weight).astype(array.dtype)
    if bias is not None:
        out = out + array_of(op_name, "bias", bias).astype(array.dtype)
    return wrap(out)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05):
    """Normalise each of ``num_groups`` channel groups of an (N, C, ...) input."""
    op_name = "group_norm"
    array = float_input(op_name, "input", input)
    groups = static_int(op_name, "num_groups", num_groups)
    batch, channels = array.shape[:2]
    if groups <= 0 or channels % groups:
        raise ValueError(f"For '{op_name}', the channels ({channels}) must be divisible by "
                         f"'num_groups' ({groups}).")
    values = array.astype(jnp.promote_types(array.dtype, np.float32)).reshape(batch, groups, -1)
    mean = jnp.mean(values, -1, keepdims=True)
    var = jnp.var(values, -1, keepdims=True)
    out = ((values - mean) * jax.lax.rsqrt(var + eps)).reshape(array.shape).astype(array.dtype)
    scale = _per_channel(op_name, "weight", weight, channels, array.dtype, array.ndim)
    shift = _per_channel(op_name, "bias", bias, channels, array.dtype, array.ndim)
    if scale is not None:
        out = out * scale
    if shift is not None:
        out = out + shift
    return wrap(out)



def l2_normalize(x, axis=0, epsilon=1e-4):
    """``x / sqrt(max(sum(x ** 2, axis), epsilon))``."""
    array = float_input("l2_normalize", "x", x)
    axes = tuple(axis_index("l2_normalize", "axis", a, array.ndim)
                 for a in (axis if isinstance(axis, (tuple, list)) else (axis,)))
    square_sum = jnp.sum(jnp.square(array), axes, keepdims=True)
    return wrap(array * jax.lax.rsqrt(jnp.maximum(square_sum, jnp.asarray(epsilon, array.dtype))))
