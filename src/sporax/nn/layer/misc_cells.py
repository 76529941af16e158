"""More ``mindspore.nn`` Cells: ``ParameterUpdate``, ``TimeDistributed``, ``BiDense``, ``RReLU``."""
import math

import jax.numpy as jnp

from sporax.core import dtype as mstype
from sporax.core.initializer import Uniform
from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor
from sporax.nn.cell import Cell
from sporax.nn.layer.basic import _check_positive_int, make_parameter
from sporax import ops


class ParameterUpdate(Cell):
    """Assign its input to ``param`` and return the input (a manual Parameter update).

    Args:
        param (Parameter): the Parameter to update.

    Inputs:
        - **x** (Tensor) -- the new value (``param``'s shape).

    Outputs:
        Tensor, ``x``.
    """

    def __init__(self, param):
        super().__init__()
        if not isinstance(param, Parameter):
            raise TypeError(f"For 'ParameterUpdate', the 'param' must be a Parameter, but got {type(param).__name__}.")
        self._param = param

    def construct(self, x):
        ops.assign(self._param, x)
        return x


class TimeDistributed(Cell):
    """Apply ``layer`` to every step along ``time_axis`` and stack the results there.

    Args:
        layer (Cell): the layer for one step.
        time_axis (int): the time axis of the input.
        reshape_with_axis (int): not supported by sporax (must be None; every step runs separately).
            Default: None.

    Inputs:
        - **inputs** (Tensor) -- at least 3-D.

    Outputs:
        Tensor, the per-step outputs stacked on ``time_axis``.
    """

    def __init__(self, layer, time_axis, reshape_with_axis=None):
        super().__init__()
        if not isinstance(layer, Cell):
            raise TypeError(f"For 'TimeDistributed', the 'layer' must be a Cell, but got {type(layer).__name__}.")
        if isinstance(time_axis, bool) or not isinstance(time_axis, int):
            raise TypeError(f"For 'TimeDistributed', the 'time_axis' must be an int, but got "
                            f"{type(time_axis).__name__}.")
        if reshape_with_axis is not None:
            raise NotImplementedError("TimeDistributed: reshape_with_axis is not supported by sporax; leave it None "
                                      "(the layer then runs once per time step).")
        self.layer, self.time_axis, self.reshape_with_axis = layer, time_axis, reshape_with_axis

    def construct(self, inputs):
        if not isinstance(inputs, Tensor) or inputs.ndim < 3:
            raise ValueError(f"For 'TimeDistributed', the input must be a Tensor of at least 3 dims, but got "
                             f"{getattr(inputs, 'shape', type(inputs).__name__)}.")
        axis = self.time_axis % inputs.ndim
        outputs = [self.layer(step) for step in ops.unstack(inputs, axis)]
        return ops.stack(outputs, axis)


class BiDense(Cell):
    """Bilinear layer ``y = x1^T W x2 + b`` with W of shape (out, in1, in2).

    Args:
        in1_channels (int), in2_channels (int), out_channels (int): the sizes.
        weight_init, bias_init (Union[Tensor, str, Initializer, numbers.Number]): None means
            Uniform(1 / sqrt(in1_channels)). Default: None.
        has_bias (bool): Default: True.
        dtype (mindspore.dtype): Default: float32.

    Inputs:
        - **input1** (Tensor) -- (..., in1_channels).
        - **input2** (Tensor) -- (..., in2_channels).

    Outputs:
        Tensor, (..., out_channels).
    """

    def __init__(self, in1_channels, in2_channels, out_channels, weight_init=None, bias_init=None, has_bias=True,
                 dtype=mstype.float32):
        super().__init__()
        self.in1_channels = _check_positive_int("BiDense", "in1_channels", in1_channels)
        self.in2_channels = _check_positive_int("BiDense", "in2_channels", in2_channels)
        self.out_channels = _check_positive_int("BiDense", "out_channels", out_channels)
        self.has_bias = has_bias
        bound = 1 / math.sqrt(in1_channels)
        self.weight = make_parameter("BiDense", "weight_init", Uniform(bound) if weight_init is None else weight_init,
                                     (out_channels, in1_channels, in2_channels), dtype, "weight")
        self.bias = (make_parameter("BiDense", "bias_init", Uniform(bound) if bias_init is None else bias_init,
                                    (out_channels,), dtype, "bias") if has_bias else None)

    def construct(self, input1, input2):
        first, second = input1._value, input2._value
        output = jnp.einsum("...i,oij,...j->...o", first, self.weight._value, second)
        if self.bias is not None:
            output = output + self.bias._value
        return Tensor._wrap(output)


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
