"""Activation Cells (``mindspore.nn.ReLU``, ``GELU``, ``Softmax`` ...) and ``get_activation``.

Each Cell applies one elementwise (or per-axis) function to a Tensor and keeps its dtype. The Cells of
an op (all but ``PReLU``, which holds a Parameter) are generated from its op-table entry.
"""
import jax.numpy as jnp

from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor
from sporax.nn.cell import Cell
from sporax.nn.layer.op_cells import op_cell
from sporax.ops.faces import float_input


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
        array = float_input("PReLU", "x", x)
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

