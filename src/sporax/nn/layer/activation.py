"""Activation Cells (``mindspore.nn.ReLU``, ``GELU``, ``Softmax`` ...) and ``get_activation``.

Each Cell applies one elementwise (or per-axis) function to a Tensor and keeps its dtype.
"""
import jax
import jax.numpy as jnp

from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor
from sporax.nn.cell import Cell
from sporax.ops.functional.activation import relu6_array, relu_array
from sporax.ops.lowering import channels_last


def _input(cell, x):
    """The array behind ``x``; a teaching error when ``x`` is not a Tensor."""
    if isinstance(x, Tensor):
        return x._value
    raise TypeError(f"For '{type(cell).__name__}', the input must be a Tensor, but got {type(x).__name__}.")


def _float_input(cell, x):
    array = _input(cell, x)
    if not jnp.issubdtype(array.dtype, jnp.floating):
        raise TypeError(f"For '{type(cell).__name__}', the input must be a floating Tensor (float16, float32, "
                        f"float64 or bfloat16), but got {Tensor._wrap(array).dtype}. Cast it first, e.g. "
                        "x.astype(mindspore.float32).")
    return array


def _kernel(function):
    """Compile ``function(array, *settings)`` once per settings/shape: one dispatch per eager call."""
    return staticmethod(jax.jit(function, static_argnums=tuple(range(1, function.__code__.co_argcount))))


class _Elementwise(Cell):
    """An activation defined by one jitted ``_apply(array, *settings)``; ``_settings()`` gives the settings."""

    _float_only = True
    # Each output element depends on its input element alone, so NHWC input gives NHWC output
    # (lowering.channels_last); False for activations along an axis.
    _position_wise = True

    def _settings(self):
        return ()

    def construct(self, x):
        array = _float_input(self, x) if self._float_only else _input(self, x)
        nhwc = channels_last.nhwc_of(x) if self._position_wise else None
        if nhwc is not None:
            return channels_last.wrap(self._apply(nhwc, *self._settings()))
        return Tensor._wrap(self._apply(array, *self._settings()))


class ReLU(_Elementwise):
    """max(x, 0), elementwise.

    Inputs:
        - **x** (Tensor) -- any shape; numeric dtype.

    Outputs:
        Tensor, same shape and dtype.
    """

    _float_only = False

    _apply = _kernel(relu_array)


class ReLU6(_Elementwise):
    """min(max(x, 0), 6), elementwise."""

    _apply = staticmethod(jax.jit(relu6_array))


class LeakyReLU(_Elementwise):
    """x for x >= 0, ``alpha`` * x otherwise.

    Args:
        alpha (Union[int, float]): the slope for negative inputs. Default: 0.2.
    """

    def __init__(self, alpha=0.2):
        super().__init__()
        if isinstance(alpha, bool) or not isinstance(alpha, (int, float)):
            raise TypeError(f"For 'LeakyReLU', the 'alpha' must be int or float, but got {type(alpha).__name__}.")
        self.alpha = alpha

    _float_only = False

    def _settings(self):
        return (self.alpha,)

    @_kernel
    def _apply(array, alpha):
        if jnp.issubdtype(array.dtype, jnp.floating):
            negative = array * jnp.asarray(alpha, array.dtype)
        else:
            # Integer inputs scale in float32 and truncate toward zero, as MindSpore does.
            negative = (array.astype(jnp.float32) * alpha).astype(array.dtype)
        return jnp.where(array >= 0, array, negative)


class GELU(_Elementwise):
    """Gaussian error linear unit.

    Args:
        approximate (bool): use the tanh approximation (True) or the exact erf form. Default: True.
    """

    def __init__(self, approximate=True):
        super().__init__()
        if not isinstance(approximate, bool):
            raise TypeError(f"For 'GELU', the 'approximate' must be bool, but got {type(approximate).__name__}.")
        self.approximate = approximate

    _apply = _kernel(lambda array, approximate: jax.nn.gelu(array, approximate=approximate))

    def _settings(self):
        return (self.approximate,)


class FastGelu(_Elementwise):
    """x * sigmoid(1.702 x): MindSpore's fast GELU approximation."""

    _apply = _kernel(lambda array: array * jax.nn.sigmoid(jnp.asarray(1.702, array.dtype) * array))


class SiLU(_Elementwise):
    """x * sigmoid(x), elementwise."""

    _apply = _kernel(lambda array: jax.nn.silu(array))


class Sigmoid(_Elementwise):
    """1 / (1 + exp(-x)), elementwise."""

    _apply = _kernel(lambda array: jax.nn.sigmoid(array))


class Tanh(_Elementwise):
    """Hyperbolic tangent, elementwise."""

    _apply = _kernel(lambda array: jnp.tanh(array))


class _AxisActivation(_Elementwise):
    _position_wise = False

    def __init__(self, axis=-1):
        super().__init__()
        if isinstance(axis, bool) or not isinstance(axis, (int, tuple, list)):
            raise TypeError(f"For '{type(self).__name__}', the 'axis' must be int or tuple of int, but got "
                            f"{type(axis).__name__}.")
        self.axis = tuple(axis) if isinstance(axis, (tuple, list)) else axis

    def _settings(self):
        return (self.axis,)


class Softmax(_AxisActivation):
    """exp(x) / sum(exp(x)) along ``axis``.

    Args:
        axis (Union[int, tuple[int]]): the axis to normalise over. Default: -1.
    """

    _apply = _kernel(lambda array, axis: jax.nn.softmax(array, axis=axis))


class LogSoftmax(_AxisActivation):
    """log(softmax(x)) along ``axis``.

    Args:
        axis (int): the axis to normalise over. Default: -1.
    """

    _apply = _kernel(lambda array, axis: jax.nn.log_softmax(array, axis=axis))


class Softmin(_AxisActivation):
    """softmax(-x) along ``axis``.

    Args:
        axis (Union[int, tuple[int]]): the axis to normalise over. Default: -1.
    """

    _apply = _kernel(lambda array, axis: jax.nn.softmax(-array, axis=axis))


class ELU(_Elementwise):
    """x for x > 0, ``alpha`` * (exp(x) - 1) otherwise.

    Args:
        alpha (float): the scale of the negative part. Default: 1.0.
    """

    def __init__(self, alpha=1.0):
        super().__init__()
        self.alpha = alpha

    _apply = _kernel(lambda array, alpha: jax.nn.elu(array, alpha=alpha))

    def _settings(self):
        return (self.alpha,)


class CELU(_Elementwise):
    """max(0, x) + min(0, ``alpha`` * (exp(x / ``alpha``) - 1)).

    Args:
        alpha (float): must not be 0. Default: 1.0.
    """

    def __init__(self, alpha=1.0):
        super().__init__()
        if alpha == 0:
            raise ValueError("For 'CELU', the 'alpha' can not be 0.")
        self.alpha = alpha

    _apply = _kernel(lambda array, alpha: jax.nn.celu(array, alpha=alpha))

    def _settings(self):
        return (self.alpha,)


class SeLU(_Elementwise):
    """Scaled ELU with the self-normalising constants."""

    _apply = _kernel(lambda array: jax.nn.selu(array))


class HSwish(_Elementwise):
    """x * relu6(x + 3) / 6, elementwise."""

    _apply = _kernel(lambda array: array * jnp.clip(array + 3, 0, 6) / 6)


class HSigmoid(_Elementwise):
    """relu6(x + 3) / 6, elementwise."""

    _apply = _kernel(lambda array: jnp.clip(array + 3, 0, 6) / 6)


class Mish(_Elementwise):
    """x * tanh(softplus(x)), elementwise."""

    _apply = _kernel(lambda array: array * jnp.tanh(jax.nn.softplus(array)))


class LogSigmoid(_Elementwise):
    """log(sigmoid(x)), elementwise."""

    _apply = _kernel(lambda array: jax.nn.log_sigmoid(array))


class Softsign(_Elementwise):
    """x / (1 + |x|), elementwise."""

    _apply = _kernel(lambda array: array / (1 + jnp.abs(array)))


class Tanhshrink(_Elementwise):
    """x - tanh(x), elementwise."""

    _apply = _kernel(lambda array: array - jnp.tanh(array))


class Hardtanh(_Elementwise):
    """clip(x, ``min_val``, ``max_val``).

    Args:
        min_val (Union[int, float]): the lower bound. Default: -1.0.
        max_val (Union[int, float]): the upper bound. Default: 1.0.
    """

    def __init__(self, min_val=-1.0, max_val=1.0):
        super().__init__()
        if min_val > max_val:
            raise ValueError(f"For 'Hardtanh', 'max_val' must be larger than 'min_val', but got "
                             f"min_val={min_val}, max_val={max_val}.")
        self.min_val, self.max_val = min_val, max_val

    _apply = _kernel(lambda array, low, high: jnp.clip(array, jnp.asarray(low, array.dtype),
                                                       jnp.asarray(high, array.dtype)))

    def _settings(self):
        return (self.min_val, self.max_val)


class PReLU(Cell):
    """x for x >= 0, w * x otherwise, with a learnable slope per channel.

    Args:
        channel (int): the number of slopes (1, or the channel count of axis 1). Default: 1.
        w (Union[float, list, Tensor]): the initial slope(s). Default: 0.25.
    """

    def __init__(self, channel=1, w=0.25):
        super().__init__()
        if isinstance(channel, bool) or not isinstance(channel, int) or channel < 1:
            raise ValueError(f"For 'PReLU', the 'channel' must be a positive int, but got {channel!r}.")
        if isinstance(w, Tensor):
            value = w
        else:
            value = Tensor(jnp.broadcast_to(jnp.asarray(w, jnp.float32), (channel,)))
        if tuple(value.shape) != (channel,):
            raise ValueError(f"For 'PReLU', the shape of 'w' must be ({channel},), but got {tuple(value.shape)}.")
        self.w = Parameter(value, name="a")
        self.channel = channel

    def construct(self, x):
        array = _float_input(self, x)
        slope = self.w._value.astype(array.dtype)
        if self.channel > 1 and array.ndim >= 2:
            slope = slope.reshape((1, -1) + (1,) * (array.ndim - 2))
        return Tensor._wrap(jnp.where(array >= 0, array, array * slope))


_ACTIVATIONS = {
    "relu": ReLU, "relu6": ReLU6, "tanh": Tanh, "gelu": GELU, "fast_gelu": FastGelu, "elu": ELU,
    "sigmoid": Sigmoid, "prelu": PReLU, "leakyrelu": LeakyReLU, "hswish": HSwish, "hsigmoid": HSigmoid,
    "logsigmoid": LogSigmoid, "softmax": Softmax, "logsoftmax": LogSoftmax, "silu": SiLU, "mish": Mish,
    "softsign": Softsign, "tanhshrink": Tanhshrink, "hardtanh": Hardtanh, "softmin": Softmin, "selu": SeLU,
    "celu": CELU,
}


def get_activation(name, prim_name=None):
    """The activation Cell called ``name`` ('relu', 'gelu', ...); None when ``name`` is None."""
    if name is None:
        return None
    if not isinstance(name, str):
        raise TypeError(f"For 'get_activation', the 'name' must be a str, but got {type(name).__name__}.")
    cls = _ACTIVATIONS.get(name.lower())
    if cls is None:
        raise KeyError(f"For 'get_activation', the 'name' must be one of {sorted(_ACTIVATIONS)}, but got {name!r}.")
    return cls()

