"""``mindspore.mint.nn`` pooling Cells with PyTorch's arguments, each calling one functional op."""
from sporax.mint.nn import functional
from sporax.nn.cell import Cell

__all__ = ["AvgPool1d", "AvgPool2d", "AvgPool3d", "AdaptiveAvgPool3d", "AdaptiveMaxPool1d", "MaxUnpool2d"]


class _AvgPool(Cell):
    _function = None

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None):
        super().__init__()
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding
        self.ceil_mode, self.count_include_pad, self.divisor_override = ceil_mode, count_include_pad, divisor_override

    def construct(self, input):
        options = () if self._function is functional.avg_pool1d else (self.divisor_override,)
        return type(self)._function(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                                    self.count_include_pad, *options)


class AvgPool1d(_AvgPool):
    """Average pooling of an (N, C, L) input.

    Args:
        kernel_size (int): window. stride (int): Default: None (the window). padding (int): Default: 0.
        ceil_mode (bool): Default: False. count_include_pad (bool): Default: True.

    Inputs:
        - **input** (Tensor): (N, C, L).

    Outputs:
        Tensor (N, C, L_out), ``L_out = (L + 2 * padding - kernel_size) // stride + 1`` (rounded up
        with ``ceil_mode``).

    Example:
        >>> import numpy as np, sporax as ms
        >>> _ = ms.mint.nn.AvgPool1d(2)(ms.Tensor(np.ones((1, 2, 6), np.float32)))
    """

    _function = staticmethod(functional.avg_pool1d)

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
        super().__init__(kernel_size, stride, padding, ceil_mode, count_include_pad)


class AvgPool2d(_AvgPool):
    """Average pooling of an (N, C, H, W) input.

    Args, Inputs, Outputs: as ``AvgPool1d`` over two spatial dimensions (N, C, H, W), plus
    ``divisor_override`` (int): the divisor of every window's sum in place of its size. Default: None.

    Example:
        >>> import numpy as np, sporax as ms
        >>> _ = ms.mint.nn.AvgPool2d(2)(ms.Tensor(np.ones((1, 2, 4, 4), np.float32)))
    """

    _function = staticmethod(functional.avg_pool2d)


class AvgPool3d(_AvgPool):
    """Average pooling of an (N, C, D, H, W) input.

    Args, Inputs, Outputs: as ``AvgPool2d`` over three spatial dimensions (N, C, D, H, W).

    Example:
        >>> import numpy as np, sporax as ms
        >>> _ = ms.mint.nn.AvgPool3d(2)(ms.Tensor(np.ones((1, 1, 4, 4, 4), np.float32)))
    """

    _function = staticmethod(functional.avg_pool3d)


class AdaptiveAvgPool3d(Cell):
    """Adaptive average pooling of an (N, C, D, H, W) input to ``output_size``.

    Args:
        output_size (Union[int, tuple]): (D, H, W) of the output.

    Inputs:
        - **input** (Tensor): (N, C, D, H, W).

    Outputs:
        Tensor (N, C) + output_size.

    Example:
        >>> import numpy as np, sporax as ms
        >>> _ = ms.mint.nn.AdaptiveAvgPool3d(2)(ms.Tensor(np.ones((1, 1, 4, 4, 4), np.float32)))
    """

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def construct(self, input):
        return functional.adaptive_avg_pool3d(input, self.output_size)


class AdaptiveMaxPool1d(Cell):
    """Adaptive max pooling of an (N, C, L) input to ``output_size``.

    Args:
        output_size (int): L of the output.
        return_indices (bool): also return the indices. Default: False.

    Inputs:
        - **input** (Tensor): (N, C, L).

    Outputs:
        Tensor (N, C, output_size) (and the indices).

    Example:
        >>> import numpy as np, sporax as ms
        >>> _ = ms.mint.nn.AdaptiveMaxPool1d(3)(ms.Tensor(np.ones((1, 2, 6), np.float32)))
    """

    def __init__(self, output_size, return_indices=False):
        super().__init__()
        self.output_size, self.return_indices = output_size, return_indices

    def construct(self, input):
        return functional.adaptive_max_pool1d(input, self.output_size, self.return_indices)


class MaxUnpool2d(Cell):
    """Scatter pooled maxima back to their positions (the inverse of ``MaxPool2d`` with indices).

    Args:
        kernel_size (Union[int, tuple]): the pooling window.
        stride (Union[int, tuple]): Default: None (the window).
        padding (Union[int, tuple]): Default: 0.

    Inputs:
        - **input** (Tensor): pooled values (N, C, H, W).
        - **indices** (Tensor): their flat positions.
        - **output_size** (tuple): Default: None (computed).

    Outputs:
        Tensor (N, C, H_out, W_out).

    Example:
        >>> import numpy as np, sporax as ms
        >>> F = ms.mint.nn.functional
        >>> values, indices = F.max_pool2d(ms.Tensor(np.ones((1, 1, 4, 4), np.float32)), 2, return_indices=True)
        >>> _ = ms.mint.nn.MaxUnpool2d(2)(values, indices)
    """

    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding

    def construct(self, input, indices, output_size=None):
        return functional.max_unpool2d(input, indices, self.kernel_size, self.stride, self.padding, output_size)
