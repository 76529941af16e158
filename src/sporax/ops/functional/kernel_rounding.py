"""Results rounded where MindSpore 2.10's CPU kernels round them: a division by a broadcast divisor rounded once
(``exact_divide``), and ``softmax``/``softmin`` on Float16 (``float16_softmax``).

MindSpore's Float16 Softmax rounds each exponential to Float16, sums them in Float32 and rounds the sum to
Float16, then divides in Float16 (recorded: all of 7400 values of a (200, 37) input, either axis). XLA alone
would divide by multiplying with the sum's rounded reciprocal, which differed from MindSpore in 19% of them.
"""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


def exact_divide(numerator, divisor):
    """``numerator / divisor`` rounded once. XLA's CPU code multiplies by a rounded reciprocal when the divisor
    is broadcast, so the divisor is broadcast first and kept behind an optimization barrier; it is computed from
    ``numerator`` (``numerator * 0 + divisor``) so that under vmap both are batched before the barrier."""
    return numerator / jax.lax.optimization_barrier(numerator * 0 + divisor)


def _rounded_sum(values, axes):
    """The Float32 sum of Float16 ``values`` along ``axes``, rounded to Float16 (kept dims)."""
    return jnp.sum(values.astype(np.float32), axes, keepdims=True).astype(values.dtype)


@partial(jax.custom_vjp, nondiff_argnums=(1,))
def float16_softmax(array, axes):
    """Softmax of a Float16 ``array`` along ``axes`` with MindSpore's rounding (the module's summary)."""
    shifted = array - jax.lax.stop_gradient(jnp.max(array, axes, keepdims=True))
    exponentials = jnp.exp(shifted)
    return exact_divide(exponentials, _rounded_sum(exponentials, axes))


def _softmax_forward(array, axes):
    result = float16_softmax(array, axes)
    return result, result


def _softmax_backward(axes, result, cotangent):
    # MindSpore's SoftmaxGrad in Float16: y * (dy - sum(dy * y)), the products rounded before their Float32 sum
    # (recorded: all of 740 values; in Float32 throughout, 240 differed)
    return (result * (cotangent - _rounded_sum(cotangent * result, axes)),)


float16_softmax.defvjp(_softmax_forward, _softmax_backward)
