"""Backward kernels of ``ops.operations._grad_ops`` with closed forms, as op-table entries (Primitive-only: MindSpore
has no functional names for them; their classes are exported by ``sporax.ops.operations.grad_ops``).

Each takes the forward tensors MindSpore's kernel takes (the forward input, or output, and the incoming
gradient, of one shape) and computes MindSpore's formula from them: ``LogitGrad`` from the input,
``LogSoftmaxGrad`` and ``L2NormalizeGrad`` from the output, ``LayerNormGrad`` from the forward statistics it is
given (not recomputed from ``x``). Results have the forward tensor's dtype.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.ops.operations.grad_ops import LogitGrad
    >>> LogitGrad()(Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([0.5, 0.5], np.float32))).asnumpy().tolist()
    [4.0, 8.0]
"""
import jax
import jax.numpy as jnp
import numpy as np

from sporax.ops import op_table, samples


def _same_shape(op_name, names, arrays):
    for name, array in zip(names[1:], arrays[1:]):
        if array.shape != arrays[0].shape:
            raise ValueError(f"For '{op_name}', '{names[0]}' and '{name}' must have the same shape, but got "
                             f"{tuple(arrays[0].shape)} and {tuple(array.shape)}.")


def _number(op_name, arg_name, value):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"For '{op_name}', the type of '{arg_name}' should be 'float', but got "
                        f"{type(value).__name__}.")
    return float(value)


def _integer(op_name, arg_name, value):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"For '{op_name}', '{arg_name}' must be an int, but got {type(value).__name__}.")
    return value


def _pair_samples(low=-2.0, high=2.0, **settings):
    def make(dtype):
        return [op_table.Sample((samples.values((2, 3), dtype, -1.0, 1.0), samples.values((2, 3), dtype, low, high,
                                                                                         seed=1)), dict(settings))]
    return make


def _logit_grad_reference(grad, input_x, eps=-1.0):
    x = input_x.astype(np.float64)
    inside = (x >= 0) & (x <= 1) if eps < 0 else (x >= eps) & (x <= 1 - eps)
    return np.where(inside, grad / (x * (1 - x)), np.nan if eps < 0 else 0.0)


@op_table.op(inputs=("grad", "input_x"), primitive="LogitGrad", primitive_attrs=("eps",), grad_check=False,
             samples=_pair_samples(0.05, 0.95, eps=0.1), reference=_logit_grad_reference)
def logit_grad(grad, input_x, eps=-1.0):
    """Gradient of ``logit``: ``grad / (x * (1 - x))``; with ``eps >= 0`` 0 outside ``[eps, 1 - eps]``, with
    ``eps < 0`` NaN outside ``[0, 1]``."""
    eps = _number("LogitGrad", "eps", eps)
    _same_shape("LogitGrad", ("grad", "input_x"), (grad, input_x))
    dy = grad.astype(input_x.dtype)
    low, high = (0.0, 1.0) if eps < 0 else (eps, 1 - eps)
    outside = jnp.nan if eps < 0 else 0
    return jnp.where((input_x < low) | (input_x > high), outside, dy / (input_x * (1 - input_x))).astype(input_x.dtype)


def _log_softmax_grad_reference(logits, grad, axis=-1):
    return grad - np.exp(logits) * grad.sum(axis=axis, keepdims=True)


def _log_softmax_samples(dtype):
    logits = np.log(np.array([[0.2, 0.3, 0.5], [0.1, 0.6, 0.3]])).astype(dtype)
    return [op_table.Sample((logits, samples.values((2, 3), dtype, seed=1)), {"axis": 0})]


@op_table.op(inputs=("logits", "grad"), primitive="LogSoftmaxGrad", primitive_attrs=("axis",), grad_check=False,
             samples=_log_softmax_samples, reference=_log_softmax_grad_reference)
def log_softmax_grad(logits, grad, axis=-1):
    """Gradient of ``log_softmax`` from its output ``logits``: ``grad - exp(logits) * sum(grad, axis)``."""
    axis = _integer("LogSoftmaxGrad", "axis", axis)
    _same_shape("LogSoftmaxGrad", ("logits", "grad"), (logits, grad))
    dy = grad.astype(logits.dtype)
    return dy - jnp.exp(logits) * jnp.sum(dy, axis=axis, keepdims=True)


def _l2_normalize_grad_reference(input_x, out, dout, axis=0, epsilon=1e-4):
    norm = np.maximum(np.sqrt((input_x * input_x).sum(axis=axis, keepdims=True)), epsilon)
    return (dout - out * (out * dout).sum(axis=axis, keepdims=True)) / norm


def _l2_normalize_samples(dtype):
    x = samples.values((2, 3), dtype)
    out = (x / np.sqrt((x.astype(np.float64) ** 2).sum(axis=1, keepdims=True))).astype(dtype)
    return [op_table.Sample((x, out, samples.values((2, 3), dtype, seed=2)), {"axis": 1})]


@op_table.op(inputs=("input_x", "out", "dout"), primitive="L2NormalizeGrad", primitive_attrs=("axis", "epsilon"),
             grad_check=False, samples=_l2_normalize_samples, reference=_l2_normalize_grad_reference)
def l2_normalize_grad(input_x, out, dout, axis=0, epsilon=1e-4):
    """Gradient of ``L2Normalize``: ``(dout - out * sum(out * dout, axis)) / max(||input_x||, epsilon)``."""
    axis = axis[0] if isinstance(axis, (tuple, list)) and len(axis) == 1 else axis
    y, dy = out.astype(input_x.dtype), dout.astype(input_x.dtype)
    norm = jnp.maximum(jnp.sqrt(jnp.sum(input_x * input_x, axis=axis, keepdims=True)), float(epsilon))
    return ((dy - y * jnp.sum(y * dy, axis=axis, keepdims=True)) / norm).astype(input_x.dtype)


def _layer_norm_grad_reference(x, dy, variance, mean, gamma, begin_norm_axis=1, begin_params_axis=1):
    x, dy, variance, mean, gamma = (np.asarray(a, np.float64) for a in (x, dy, variance, mean, gamma))
    norm_axes = tuple(range(begin_norm_axis % x.ndim, x.ndim))
    batch_axes = tuple(range(begin_params_axis % x.ndim))
    count = int(np.prod([x.shape[axis] for axis in norm_axes]))
    inverse_std = 1 / np.sqrt(variance + 1e-12)
    centered = x - mean
    scaled = dy * gamma
    # d/dx of gamma * (x - mean) * inverse_std with mean and variance functions of x, by the chain rule
    d_variance = (scaled * centered * -0.5 * inverse_std ** 3).sum(axis=norm_axes, keepdims=True)
    d_mean = (-scaled * inverse_std).sum(axis=norm_axes, keepdims=True) + \
        d_variance * (-2 * centered).sum(axis=norm_axes, keepdims=True) / count
    dx = scaled * inverse_std + d_variance * 2 * centered / count + d_mean / count
    return dx, (dy * centered * inverse_std).sum(axis=batch_axes), dy.sum(axis=batch_axes)


def _layer_norm_samples(dtype):
    x = samples.values((2, 3), dtype)
    wide = x.astype(np.float64)
    mean, variance = wide.mean(axis=1, keepdims=True), wide.var(axis=1, keepdims=True)
    return [op_table.Sample((x, samples.values((2, 3), dtype, seed=1), variance.astype(dtype), mean.astype(dtype),
                             samples.values((3,), dtype, 0.5, 1.5, seed=2)))]


@op_table.op(inputs=("x", "dy", "variance", "mean", "gamma"), primitive="LayerNormGrad",
             primitive_attrs=("begin_norm_axis", "begin_params_axis"), grad_check=False, samples=_layer_norm_samples,
             reference=_layer_norm_grad_reference)
def layer_norm_grad(x, dy, variance, mean, gamma, begin_norm_axis=1, begin_params_axis=1):
    """Gradients of ``LayerNorm`` from the forward statistics: ``(dx, dgamma, dbeta)``, in Float32 internally."""
    dtype, gamma_dtype = x.dtype, gamma.dtype
    x, dy, variance, mean, gamma = (array.astype(jnp.float32) for array in (x, dy, variance, mean, gamma))
    norm_axes = tuple(range(begin_norm_axis % x.ndim, x.ndim))
    batch_axes = tuple(range(begin_params_axis % x.ndim))
    count = int(np.prod([x.shape[axis] for axis in norm_axes]))
    inverse_std = jax.lax.rsqrt(variance + 1e-12)
    centered = x - mean
    dgamma = jnp.sum(dy * centered * inverse_std, axis=batch_axes)
    dbeta = jnp.sum(dy, axis=batch_axes)
    # MindSpore's kernel uses the statistics it is given (not recomputed from x), so the
    # general chain rule through mean and variance is kept rather than its simplified form.
    scaled = dy * gamma
    sum_variance = jnp.sum(-0.5 * scaled * centered * inverse_std ** 3, axis=norm_axes, keepdims=True)
    sum_scaled = jnp.sum(scaled, axis=norm_axes, keepdims=True)
    sum_centered = jnp.sum(-2.0 * centered, axis=norm_axes, keepdims=True)
    dx = (scaled * inverse_std + sum_variance * 2.0 / count * centered
          + (-inverse_std * sum_scaled + sum_variance * sum_centered / count) / count)
    return dx.astype(dtype), dgamma.astype(gamma_dtype), dbeta.astype(gamma_dtype)
