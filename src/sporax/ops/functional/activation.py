"""Activation functions: relu, gelu, silu, softmax, log_softmax, leaky_relu, elu, mish ...

Float activations keep the input's float dtype (Float16 stays Float16) and reject integer
inputs with a TypeError, as MindSpore does; ``relu``/``relu6`` also take integer tensors.

Example:
    >>> from sporax import ops, Tensor
    >>> ops.relu(Tensor([-1.0, 2.0])).asnumpy().tolist()
    [0.0, 2.0]
"""
import jax
import jax.numpy as jnp
import numpy as np

from sporax.core.tensor import Tensor
from sporax.ops._dispatch import array_of, describe, wrap
from sporax.ops.functional._args import axis_index, kernel, numpy_dtype


def float_input(op_name, arg_name, value):
    """The array of a Tensor argument that must have a float dtype."""
    array = array_of(op_name, arg_name, value)
    if array.dtype.kind != "f" and array.dtype.name != "bfloat16":
        raise TypeError(f"For '{op_name}', '{arg_name}' must be a float Tensor (Float16, Float32, "
                        f"Float64 or BFloat16), but got {describe(value)}; cast it first, e.g. "
                        "ops.cast(x, mindspore.float32).")
    return array


def _scalar(value, dtype):
    return jnp.asarray(value._value if isinstance(value, Tensor) else value).astype(dtype)


def _static(value):
    """A hyper-parameter as a hashable Python number (a concrete 0-d Tensor is read once)."""
    if isinstance(value, Tensor):
        return np.asarray(value._value).item()
    return value


def relu_array(array):
    """``max(array, 0)`` with MindSpore's ReluGrad: the gradient is ``dy * (x > 0)``, 0 at x == 0
    (``jnp.maximum``'s own gradient splits the tie, 0.5, and costs XLA a compare-select-divide)."""
    return jax.nn.relu(array)


@jax.custom_jvp
def relu6_array(array):
    """``min(max(array, 0), 6)`` with MindSpore's ReLU6 gradient: ``dy * (0 < x <= 6)``."""
    return jnp.clip(array, jnp.zeros((), array.dtype), jnp.asarray(6, array.dtype))


relu6_array.defjvps(lambda tangent, _, array: jnp.where((array > 0) & (array <= 6), tangent,
                                                        jnp.zeros_like(tangent)))


def relu(input, inplace=False):
    """``max(input, 0)`` (integer and bool tensors keep their dtype)."""
    array = array_of("relu", "input", input)
    if array.dtype == np.bool_:
        return wrap(array)
    return wrap(relu_array(array))


def relu6(x):
    """``min(max(x, 0), 6)``."""
    return wrap(relu6_array(array_of("relu6", "x", x)))


@kernel("alpha")
def _leaky_relu(array, alpha):
    return jnp.where(array > 0, array, array * jnp.asarray(alpha, array.dtype))


def leaky_relu(input, alpha=0.2):
    """``input`` where positive, else ``alpha * input``."""
    return wrap(_leaky_relu(float_input("leaky_relu", "input", input), _static(alpha)))


def gelu(input, approximate="none"):
    """Gaussian error linear unit (``approximate``: 'none' for the erf form, 'tanh')."""
    array = float_input("gelu", "input", input)
    if approximate not in ("none", "tanh"):
        raise ValueError(f"For 'gelu', 'approximate' must be 'none' or 'tanh', but got {approximate!r}.")
    return wrap(jax.nn.gelu(array, approximate=approximate == "tanh"))


def silu(input):
    """``input * sigmoid(input)``."""
    return wrap(jax.nn.silu(float_input("silu", "input", input)))


def _softmax_input(op_name, arg_name, value, axis, dtype):
    array = float_input(op_name, arg_name, value)
    if dtype is not None:
        array = array.astype(numpy_dtype(op_name, "dtype", dtype))
    if array.ndim == 0:
        raise ValueError(f"For '{op_name}', the axis must be in [0, 0) for a 0-d '{arg_name}' (it "
                         f"has no axis to normalize over), but got {axis}; reshape it to (1,).")
    return array, axis_index(op_name, "axis", axis, array.ndim)


def softmax(input, axis=-1, *, dtype=None):
    """``exp(input) / sum(exp(input))`` along ``axis`` (computed in ``dtype`` when given)."""
    array, axis = _softmax_input("softmax", "input", input, axis, dtype)
    return wrap(jax.nn.softmax(array, axis))


def log_softmax(logits, axis=-1):
    """``log(softmax(logits))`` along ``axis``, computed stably."""
    array, axis = _softmax_input("log_softmax", "logits", logits, axis, None)
    return wrap(jax.nn.log_softmax(array, axis))


def softmin(x, axis=-1, *, dtype=None):
    """``softmax(-x)`` along ``axis``."""
    array, axis = _softmax_input("softmin", "x", x, axis, dtype)
    return wrap(jax.nn.softmax(-array, axis))


@kernel("beta", "threshold")
def _softplus(array, beta, threshold):
    scaled = array * jnp.asarray(beta, array.dtype)
    soft = jax.nn.softplus(scaled) / jnp.asarray(beta, array.dtype)
    return jnp.where(scaled > threshold, array, soft)


def softplus(input, beta=1, threshold=20):
    """``log(1 + exp(beta * input)) / beta``, linear where ``beta * input > threshold``."""
    return wrap(_softplus(float_input("softplus", "input", input), _static(beta), _static(threshold)))


def elu(input_x, alpha=1.0):
    """``input_x`` where positive, else ``alpha * (exp(input_x) - 1)``."""
    array = float_input("elu", "input_x", input_x)
    return wrap(jax.nn.elu(array, _scalar(alpha, array.dtype)))


def selu(input_x):
    """Scaled exponential linear unit."""
    return wrap(jax.nn.selu(float_input("selu", "input_x", input_x)))


def celu(x, alpha=1.0):
    """``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``."""
    array = float_input("celu", "x", x)
    return wrap(jax.nn.celu(array, _scalar(alpha, array.dtype)))


def hardswish(input):
    """``input * relu6(input + 3) / 6``."""
    return wrap(jax.nn.hard_swish(float_input("hardswish", "input", input)))


def hardsigmoid(input):
    """``relu6(input + 3) / 6``."""
    return wrap(jax.nn.hard_sigmoid(float_input("hardsigmoid", "input", input)))


@kernel("low", "high")
def _hardtanh(array, low, high):
    return jnp.clip(array, jnp.asarray(low, array.dtype), jnp.asarray(high, array.dtype))


def hardtanh(input, min_val=-1.0, max_val=1.0):
    """``input`` clipped to ``[min_val, max_val]``."""
    return wrap(_hardtanh(float_input("hardtanh", "input", input), _static(min_val), _static(max_val)))


@jax.jit
def _mish(array):
    # Half precision computes in float32 and rounds once, as MindSpore's kernel (checked on 2.10)
    wide = array.astype(jnp.float32) if array.dtype.itemsize < 4 else array
    return (wide * jnp.tanh(jax.nn.softplus(wide))).astype(array.dtype)


def mish(x):
    """``x * tanh(softplus(x))``."""
    return wrap(_mish(float_input("mish", "x", x)))


def logsigmoid(x):
    """``log(sigmoid(x))``, computed stably."""
    return wrap(jax.nn.log_sigmoid(float_input("logsigmoid", "x", x)))


def softsign(x):
    """``x / (1 + |x|)``."""
    return wrap(jax.nn.soft_sign(float_input("softsign", "x", x)))


def tanhshrink(input):
    """``input - tanh(input)``."""
    array = float_input("tanhshrink", "input", input)
    return wrap(array - jnp.tanh(array))


def hardshrink(input, lambd=0.5):
    """``input`` where ``|input| > lambd``, else 0."""
    array = float_input("hardshrink", "input", input)
    return wrap(jnp.where(jnp.abs(array) > lambd, array, jnp.zeros((), array.dtype)))


def softshrink(input, lambd=0.5):
    """``input`` shrunk toward 0 by ``lambd`` (0 inside ``[-lambd, lambd]``)."""
    array = float_input("softshrink", "input", input)
    shrunk = array - jnp.sign(array) * _scalar(lambd, array.dtype)
    return wrap(jnp.where(jnp.abs(array) > lambd, shrunk, jnp.zeros((), array.dtype)))


@jax.jit
def _prelu(array, slope):
    slope = slope.astype(array.dtype)
    if slope.ndim == 1 and array.ndim >= 2 and slope.shape[0] != 1:
        slope = slope.reshape((1, -1) + (1,) * (array.ndim - 2))
    return jnp.where(array > 0, array, array * slope)


def prelu(input, weight):
    """``input`` where positive, else ``weight * input`` (``weight`` per channel, axis 1)."""
    return wrap(_prelu(float_input("prelu", "input", input), array_of("prelu", "weight", weight)))


def glu(x, axis=-1):
    """Gated linear unit: ``a * sigmoid(b)`` for the two halves ``a, b`` of ``x`` along ``axis``."""
    array = float_input("glu", "x", x)
    axis = axis_index("glu", "axis", axis, array.ndim)
    if array.shape[axis] % 2:
        raise ValueError(f"For 'glu', the size of axis {axis} must be even, but got {array.shape[axis]}.")
    return wrap(_glu(array, axis))


@kernel("axis")
def _glu(array, axis):
    first, second = jnp.split(array, 2, axis)
    return first * jax.nn.sigmoid(second)


def soft_shrink(input, lambd=0.5):
    """Alias of ``softshrink``."""
    return softshrink(input, lambd)


def fast_gelu(x):
    """``x * sigmoid(1.702 x)``: MindSpore's fast GELU approximation."""
    array = float_input("fast_gelu", "x", x)
    return wrap(array * jax.nn.sigmoid(jnp.asarray(1.702, array.dtype) * array))


@kernel("thr", "value")
def _threshold(array, thr, value):
    return jnp.where(array > thr, array, jnp.asarray(value, array.dtype))


def threshold(input, thr, value):
    """``input`` where it is greater than ``thr``, else ``value``."""
    return wrap(_threshold(array_of("threshold", "input", input), _static(thr), _static(value)))
