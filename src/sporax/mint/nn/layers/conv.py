"""``mindspore.mint.nn`` convolution Cells (PyTorch's arguments and parameter names ``weight``/``bias``,
PyTorch's default initialisation U(-1/sqrt(fan_in), 1/sqrt(fan_in)))."""
import math

import numpy as np

from sporax import ops
from sporax.core import dtype as mstype
from sporax.core.initializer import Uniform, initializer
from sporax.core.parameter import Parameter
from sporax.mint.nn import functional
from sporax.nn.cell import Cell

__all__ = ["Conv1d", "Conv2d", "Conv3d", "ConvTranspose2d"]

_PAD_MODES = {"zeros": None, "reflect": "reflect", "replicate": "replicate", "circular": "circular"}


def _tuple(value, dims):
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * dims


class _ConvNd(Cell):
    _dims = 2
    _function = staticmethod(functional.conv2d)

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                 padding_mode="zeros", dtype=None, transposed=False, output_padding=0):
        super().__init__()
        name = type(self).__name__
        if in_channels % groups or out_channels % groups:
            raise ValueError(f"For '{name}', in_channels ({in_channels}) and out_channels ({out_channels}) must "
                             f"be divisible by groups ({groups}).")
        if padding_mode not in _PAD_MODES:
            raise ValueError(f"For '{name}', padding_mode must be one of {sorted(_PAD_MODES)}, got {padding_mode!r}.")
        dims = self._dims
        self.in_channels, self.out_channels, self.groups = in_channels, out_channels, groups
        self.kernel_size, self.stride = _tuple(kernel_size, dims), _tuple(stride, dims)
        self.dilation, self.padding_mode = _tuple(dilation, dims), padding_mode
        self.padding = padding if isinstance(padding, str) else _tuple(padding, dims)
        self.output_padding = _tuple(output_padding, dims)
        dtype = dtype or mstype.float32
        shape = ((in_channels, out_channels // groups) if transposed else (out_channels, in_channels // groups)) \
            + self.kernel_size
        fan_in = shape[1] * int(np.prod(self.kernel_size))
        bound = 1 / math.sqrt(fan_in) if fan_in else 0.0
        self.weight = Parameter(initializer(Uniform(bound), shape, dtype), name="weight")
        self.bias = Parameter(initializer(Uniform(bound), (out_channels,), dtype), name="bias") if bias else None

    def extend_repr(self):
        # MindSpore 2.10's wording (input_channels, a str padding unquoted, bias as a bool)
        return (f"input_channels={self.in_channels}, output_channels={self.out_channels}, "
                f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
                f"dilation={self.dilation}, groups={self.groups}, bias={self.bias is not None}")

    def construct(self, input):
        padding = self.padding
        if self.padding_mode != "zeros" and not isinstance(padding, str):
            pads = tuple(p for size in reversed(padding) for p in (size, size))
            input = ops.pad(input, pads, _PAD_MODES[self.padding_mode])
            padding = 0
        return self._function(input, self.weight, self.bias, self.stride, padding, self.dilation, self.groups)


class _Conv(_ConvNd):
    """A forward convolution: PyTorch's signature, without the transposed-only arguments."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                 padding_mode="zeros", dtype=None):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, dtype)


class Conv1d(_Conv):
    """1-D convolution over an (N, C, L) input; weight (out, in / groups, k).

    Args:
        in_channels (int), out_channels (int), kernel_size (Union[int, tuple]): the shapes.
        stride, padding, dilation (Union[int, tuple, str]): padding may be 'same' or 'valid'. Default: 1, 0, 1.
        groups (int): Default: 1.
        bias (bool): Default: True.
        padding_mode (str): 'zeros', 'reflect', 'replicate' or 'circular'. Default: 'zeros'.
        dtype (mindspore.dtype): Default: Float32.

    Inputs:
        - **input** (Tensor): (N, C_in, L).

    Outputs:
        Tensor (N, C_out, L_out).

    Example:
        >>> import numpy as np, sporax as ms
        >>> _ = ms.mint.nn.Conv1d(2, 3, 3)(ms.Tensor(np.ones((1, 2, 5), np.float32)))
    """

    _dims = 1
    _function = staticmethod(functional.conv1d)


class Conv2d(_Conv):
    """2-D convolution over an (N, C, H, W) input; weight (out, in / groups, kh, kw).

    Args, Inputs, Outputs: as ``Conv1d`` with two spatial dimensions.

    Example:
        >>> import numpy as np, sporax as ms
        >>> _ = ms.mint.nn.Conv2d(2, 3, 3, padding=1)(ms.Tensor(np.ones((1, 2, 5, 5), np.float32)))
    """


class Conv3d(_Conv):
    """3-D convolution over an (N, C, D, H, W) input; weight (out, in / groups, kd, kh, kw).

    Args, Inputs, Outputs: as ``Conv1d`` with three spatial dimensions.

    Example:
        >>> import numpy as np, sporax as ms
        >>> _ = ms.mint.nn.Conv3d(1, 2, 2)(ms.Tensor(np.ones((1, 1, 3, 3, 3), np.float32)))
    """

    _dims = 3
    _function = staticmethod(functional.conv3d)


class ConvTranspose2d(_ConvNd):
    """2-D transposed convolution; weight (in, out / groups, kh, kw).

    Args: as ``Conv2d`` plus ``output_padding`` (extra size on one side of the output). Default: 0.

    Inputs:
        - **input** (Tensor): (N, C_in, H, W).

    Outputs:
        Tensor (N, C_out, H_out, W_out), per spatial dimension
        ``H_out = (H - 1) * stride - 2 * padding + dilation * (kernel_size - 1) + output_padding + 1``.

    Example:
        >>> import numpy as np, sporax as ms
        >>> _ = ms.mint.nn.ConvTranspose2d(2, 3, 2, 2)(ms.Tensor(np.ones((1, 2, 4, 4), np.float32)))
    """

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode="zeros", dtype=None):
        if padding_mode != "zeros":
            raise ValueError("For 'ConvTranspose2d', only padding_mode='zeros' is supported (as in MindSpore).")
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, dtype, transposed=True, output_padding=output_padding)

    def construct(self, input):
        return ops.conv_transpose2d(input, self.weight, self.bias, self.stride, self.padding, self.output_padding,
                                    self.groups, self.dilation)
