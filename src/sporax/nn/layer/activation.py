"""Activation Cells (``mindspore.nn.ReLU``, ``GELU``, ``Softmax`` ...) and ``get_activation``, and the
gated, shrinking, 2-d softmax, local-response and randomized leaky Cells (``GLU``, ``SoftShrink``, ``Softmax2d``,
``LRN``, ``RReLU``).

Each Cell applies one elementwise (or per-axis) function to a Tensor and keeps its dtype. The Cells of
an op (all but ``PReLU``, which holds a Parameter) are generated from its op-table entry.
"""
import jax.numpy as jnp
from jax import lax

from sporax import ops
from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor, tensor_array
from sporax.nn.cell import Cell
from sporax.nn.layer.op_cells import op_cell
from sporax.ops.face_inputs import float_input
from sporax.ops.functional.activation import sloped


# Generated from the op table (sporax.ops.op_table): each Cell runs its functional op's kernel.
ReLU = op_cell("ReLU", module=__name__)
ReLU6 = op_cell("ReLU6", module=__name__)
LeakyReLU = op_cell("LeakyReLU", module=__name__)
GELU = op_cell("GELU", module=__name__)
FastGelu = op_cell("FastGelu", module=__name__)
SiLU = op_cell("SiLU", module=__name__)
Softmax = op_cell("Softmax", module=__name__)
LogSoftmax = op_cell("LogSoftmax", module=__name__)
Softmin = op_cell("Softmin", module=__name__)
ELU = op_cell("ELU", module=__name__)
CELU = op_cell("CELU", module=__name__)
SeLU = op_cell("SeLU", module=__name__)
HSwish = op_cell("HSwish", module=__name__)
HSigmoid = op_cell("HSigmoid", module=__name__)
Mish = op_cell("Mish", module=__name__)
LogSigmoid = op_cell("LogSigmoid", module=__name__)
Softsign = op_cell("Softsign", module=__name__)
Tanhshrink = op_cell("Tanhshrink", module=__name__)
Hardtanh = op_cell("Hardtanh", module=__name__)
Sigmoid = op_cell("Sigmoid", module=__name__)
Tanh = op_cell("Tanh", module=__name__)


class PReLU(Cell):
    """x for x > 0, w * x otherwise, with a learnable slope per channel.

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
        array = float_input("PReLU", "x", x)
        slope = self.w._value.astype(array.dtype)
        if self.channel > 1 and array.ndim >= 2:
            slope = slope.reshape((1, -1) + (1,) * (array.ndim - 2))
        return Tensor._wrap(sloped(array, slope))


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


GLU = op_cell("GLU", module=__name__)
SoftShrink = op_cell("SoftShrink", module=__name__)


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
        array = tensor_array(x, cell_name="RReLU")
        slopes = ops.uniform(tuple(x.shape), Tensor(self.lower, x.dtype), Tensor(self.upper, x.dtype),
                             dtype=x.dtype)._value
        return Tensor._wrap(jnp.where(array < 0, array * slopes, array))
