"""Instance normalisation as MindSpore's ``nn_ops.InstanceNormV2`` computes it on CPU: each (sample, channel)
plane normalised over its height and width.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.ops.functional.instance_normalization import instance_norm_v2
    >>> x = Tensor(np.array([[[[0.0, 2.0]]]], np.float32))
    >>> stats = Tensor(np.ones((1, 1, 1, 1), np.float32))
    >>> instance_norm_v2(x, stats, stats * 0, stats, stats)[0].asnumpy().round(3).ravel().tolist()
    [-1.0, 1.0]
"""
import jax
import jax.numpy as jnp
import numpy as np

from sporax.ops.op_table import FLOAT, Sample, op
from sporax.ops.samples import values

_PLANE = (2, 3)  # H and W of (N, C, H, W) and of MindSpore's (N, C1, H, W, C0)


def _samples(dtype):
    stats = lambda seed, low, high: values((2, 3, 1, 1), dtype, low, high, seed=seed)  # noqa: E731
    arrays = (values((2, 3, 2, 2), dtype, seed=0), stats(1, 0.5, 2.0), stats(2, -1.0, 1.0), stats(3, -1.0, 1.0),
              stats(4, 0.5, 2.0))
    return [Sample(arrays), Sample(arrays, {"is_training": False}), Sample(arrays, {"momentum": 0.3, "epsilon": 0.01})]


def _numpy_instance_norm_v2(x, gamma, beta, mean, variance, is_training=True, momentum=0.1, epsilon=1e-5):
    x = np.asarray(x, np.float64)
    batch_mean = x.mean(_PLANE, keepdims=True)
    if is_training:
        rstd = 1 / np.sqrt(x.var(_PLANE, keepdims=True) + epsilon)
        return (x - batch_mean) * rstd * gamma + beta, batch_mean, rstd
    mean = (1 - momentum) * mean + momentum * batch_mean
    variance = (1 - momentum) * variance + momentum * x.var(_PLANE, keepdims=True, ddof=1)
    zeros = np.zeros_like(batch_mean)
    return (x - mean) / np.sqrt(variance + epsilon) * gamma + beta, zeros, zeros


@op(inputs=("x", "gamma", "beta", "mean", "variance"), dtypes=FLOAT, primitive="InstanceNormV2",
    primitive_attrs=("is_training", "momentum", "epsilon"), samples=_samples, reference=_numpy_instance_norm_v2,
    grad_check=False)
def instance_norm_v2(x, gamma, beta, mean, variance, is_training=True, momentum=0.1, epsilon=1e-5):
    """``(y, batch_mean, batch_rstd)``: each plane of ``x`` normalised by its own mean and variance, then scaled by
    ``gamma`` and shifted by ``beta`` (statistics shaped (N, C, 1, 1), or (N, C1, 1, 1, C0) for 5-d ``x``).

    The second output is the planes' means and the third ``1 / sqrt(variance + epsilon)``, as MindSpore 2.10's CPU
    kernel returns them. With ``is_training=False`` its kernel normalises with the running ``mean``/``variance``
    blended with the planes' own (``momentum``, unbiased variance) and returns zeros for both statistics; sporax
    does the same.
    """
    if x.ndim not in (4, 5):
        raise ValueError(f"For 'InstanceNormV2', 'x' must be 4-d (N, C, H, W) or 5-d (N, C1, H, W, C0), but got "
                         f"shape {tuple(x.shape)}.")
    wide = x.astype(jnp.promote_types(x.dtype, jnp.float32))
    batch_mean = jnp.mean(wide, _PLANE, keepdims=True)
    if is_training:
        rstd = jax.lax.rsqrt(jnp.var(wide, _PLANE, keepdims=True) + epsilon)
        y = (wide - batch_mean) * rstd * gamma + beta
        return y.astype(x.dtype), batch_mean.astype(x.dtype), rstd.astype(x.dtype)
    running_mean = (1 - momentum) * mean + momentum * batch_mean
    running_variance = (1 - momentum) * variance + momentum * jnp.var(wide, _PLANE, keepdims=True, ddof=1)
    y = (wide - running_mean) * jax.lax.rsqrt(running_variance + epsilon) * gamma + beta
    zeros = jnp.zeros_like(batch_mean, x.dtype)
    return y.astype(x.dtype), zeros, zeros
