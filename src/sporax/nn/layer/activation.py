"""Activation Cells (``mindspore.nn.ReLU``, ``GELU``, ``Softmax`` ...) and ``get_activation``, and the
gated, shrinking, 2-d softmax, local-response and randomized leaky Cells (``GLU``, ``SoftShrink``, ``Softmax2d``,
``LRN``, ``RReLU``).

Each Cell applies one elementwise (or per-axis) function to a Tensor and keeps its dtype.
"""
import jax
import jax.numpy as jnp
from jax import lax

from sporax import ops
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


def _float_arg(cell, name, value):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"For '{cell}', the '{name}' must be a float, but got {type(value).__name__}.")
    return float(value)


class GLU(Cell):
    """Gated linear unit: split ``x`` in halves ``a, b`` along ``axis`` and return ``a * sigmoid(b)``.

    Args:
        axis (int): the split axis (its length must be even). Default: -1.

    Inputs:
        - **x** (Tensor).

    Outputs:
        Tensor, half as long along ``axis``.

    Example:
        >>> import sporax as ms
        >>> ms.nn.GLU()(ms.Tensor([[1.0, 0.0]])).asnumpy().tolist()
        [[0.5]]
    """

    def __init__(self, axis=-1):
        super().__init__()
        if isinstance(axis, bool) or not isinstance(axis, int):
            raise TypeError(f"For 'GLU', the 'axis' must be an int, but got {type(axis).__name__}.")
        self.axis = axis

    def construct(self, x):
        return ops.glu(x, self.axis)


class SoftShrink(Cell):
    """Soft shrinkage: ``x - lambd`` above ``lambd``, ``x + lambd`` below ``-lambd``, else 0.

    Args:
        lambd (float): the threshold, >= 0. Default: 0.5.

    Inputs:
        - **input_x** (Tensor) -- float16 or float32.

    Outputs:
        Tensor, same shape and dtype.
    """

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = _float_arg("SoftShrink", "lambd", lambd)
        if self.lambd < 0:
            raise ValueError(f"For 'SoftShrink', the 'lambd' must be >= 0, but got {lambd}.")

    def construct(self, input_x):
        return ops.softshrink(input_x, self.lambd)


class Softmax2d(Cell):
    """Softmax over the channel axis (-3) of (C, H, W) or (N, C, H, W) inputs.

    Inputs:
        - **x** (Tensor) -- 3-D or 4-D.

    Outputs:
        Tensor, same shape and dtype.
    """

    def construct(self, x):
        if not isinstance(x, Tensor) or x.ndim not in (3, 4):
            raise ValueError(f"For 'Softmax2d', the input must be a 3-D or 4-D Tensor, but got "
                             f"{getattr(x, 'shape', type(x).__name__)}.")
        return ops.softmax(x, -3)


class LRN(Cell):
    """Local response normalization across channels of an (N, C, H, W) input.

    ``output = x / (bias + alpha * s) ** beta`` where ``s`` sums ``x ** 2`` over the channels
    ``c - depth_radius .. c + depth_radius``.

    Args:
        depth_radius (int): half the channel window. Default: 5.
        bias (float): Default: 1.0.
        alpha (float): Default: 1.0.
        beta (float): Default: 0.5.
        norm_region (str): 'ACROSS_CHANNELS' (the only region). Default: 'ACROSS_CHANNELS'.

    Inputs:
        - **x** (Tensor) -- (N, C, H, W), floating point.

    Outputs:
        Tensor, same shape and dtype.
    """

    def __init__(self, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, norm_region="ACROSS_CHANNELS"):
        super().__init__()
        if isinstance(depth_radius, bool) or not isinstance(depth_radius, int) or depth_radius < 0:
            raise ValueError(f"For 'LRN', the 'depth_radius' must be an int >= 0, but got {depth_radius!r}.")
        if norm_region != "ACROSS_CHANNELS":
            raise ValueError(f"For 'LRN', the 'norm_region' must be 'ACROSS_CHANNELS', but got {norm_region!r}.")
        self.depth_radius = depth_radius
        self.bias = _float_arg("LRN", "bias", bias)
        self.alpha = _float_arg("LRN", "alpha", alpha)
        self.beta = _float_arg("LRN", "beta", beta)
        self.norm_region = norm_region

    def construct(self, x):
        if not isinstance(x, Tensor) or x.ndim != 4:
            raise ValueError(f"For 'LRN', the input must be a 4-D (N, C, H, W) Tensor, but got "
                             f"{getattr(x, 'shape', type(x).__name__)}.")
        array = x._value
        radius = self.depth_radius
        window = 2 * radius + 1
        squares = lax.reduce_window(jnp.square(array), 0.0, lax.add, (1, window, 1, 1), (1, 1, 1, 1),
                                    ((0, 0), (radius, radius), (0, 0), (0, 0)))
        return Tensor._wrap(array / jnp.power(self.bias + self.alpha * squares, self.beta))


class RReLU(Cell):
    """Randomized leaky ReLU: negative inputs are scaled by a slope drawn from U(lower, upper)
    for every element at every call (in training and evaluation alike, as in MindSpore).

    Args:
        lower (float): Default: 1/8.
        upper (float): Default: 1/3.

    Inputs:
        - **x** (Tensor) -- floating point.

    Outputs:
        Tensor, same shape and dtype.
    """

    def __init__(self, lower=1 / 8, upper=1 / 3):
        super().__init__()
        for name, value in (("lower", lower), ("upper", upper)):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise TypeError(f"For 'RReLU', the '{name}' must be a float, but got {type(value).__name__}.")
        if lower > upper:
            raise ValueError(f"For 'RReLU', the 'upper' must be >= 'lower', but got lower {lower}, upper {upper}.")
        self.lower, self.upper = float(lower), float(upper)

    def construct(self, x):
        if not isinstance(x, Tensor):
            raise TypeError(f"For 'RReLU', the input must be a Tensor, but got {type(x).__name__}.")
        slopes = ops.uniform(tuple(x.shape), Tensor(self.lower, x.dtype), Tensor(self.upper, x.dtype),
                             dtype=x.dtype)._value
        array = x._value
        return Tensor._wrap(jnp.where(array < 0, array * slopes, array))
