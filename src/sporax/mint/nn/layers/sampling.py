"""``mindspore.mint.nn`` patch and resampling Cells: ``Fold``, ``Unfold``, ``UpsamplingNearest2d``,
``UpsamplingBilinear2d``."""
from sporax import ops
from sporax.mint.nn import functional
from sporax.nn.cell import Cell

__all__ = ["Fold", "Unfold", "UpsamplingNearest2d", "UpsamplingBilinear2d"]


class Unfold(Cell):
    """Sliding patches of an (N, C, H, W) input as columns (N, C * kh * kw, L).

    Args:
        kernel_size, dilation, padding, stride (Union[int, tuple]): Default: -, 1, 0, 1.

    Inputs:
        - **input** (Tensor): (N, C, H, W).

    Outputs:
        Tensor (N, C * kh * kw, L).

    Example:
        >>> import numpy as np, sporax as ms
        >>> _ = ms.mint.nn.Unfold(2)(ms.Tensor(np.ones((1, 2, 4, 4), np.float32)))
    """

    def __init__(self, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.kernel_size, self.dilation, self.padding, self.stride = kernel_size, dilation, padding, stride

    def construct(self, input):
        return functional.unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)


class Fold(Cell):
    """Sum columns of patches (N, C * kh * kw, L) back into an (N, C, H, W) image.

    Args:
        output_size (Union[int, tuple]): (H, W).
        kernel_size, dilation, padding, stride (Union[int, tuple]): Default: -, 1, 0, 1.

    Inputs:
        - **input** (Tensor): (N, C * kh * kw, L).

    Outputs:
        Tensor (N, C, H, W).

    Example:
        >>> import numpy as np, sporax as ms
        >>> _ = ms.mint.nn.Fold((4, 4), 2)(ms.Tensor(np.ones((1, 8, 9), np.float32)))
    """

    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.output_size, self.kernel_size = output_size, kernel_size
        self.dilation, self.padding, self.stride = dilation, padding, stride

    def construct(self, input):
        return functional.fold(input, self.output_size, self.kernel_size, self.dilation, self.padding, self.stride)


class UpsamplingNearest2d(Cell):
    """Nearest-neighbour upsampling of an (N, C, H, W) input to ``size`` or by ``scale_factor``.

    Args:
        size (tuple): Default: None. scale_factor (float): Default: None.

    Inputs:
        - **input** (Tensor): (N, C, H, W).

    Outputs:
        Tensor (N, C, H_out, W_out).

    Example:
        >>> import numpy as np, sporax as ms
        >>> _ = ms.mint.nn.UpsamplingNearest2d(scale_factor=2.0)(ms.Tensor(np.ones((1, 1, 2, 2), np.float32)))
    """

    _mode, _align_corners = "nearest", None

    def __init__(self, size=None, scale_factor=None):
        super().__init__()
        self.size, self.scale_factor = size, scale_factor

    def construct(self, input):
        return ops.interpolate(input, self.size, self.scale_factor, self._mode, self._align_corners)


class UpsamplingBilinear2d(UpsamplingNearest2d):
    """Bilinear upsampling (corners aligned) of an (N, C, H, W) input.

    Args, Inputs, Outputs: as ``UpsamplingNearest2d``.

    Example:
        >>> import numpy as np, sporax as ms
        >>> _ = ms.mint.nn.UpsamplingBilinear2d(size=(3, 3))(ms.Tensor(np.ones((1, 1, 2, 2), np.float32)))
    """

    _mode, _align_corners = "bilinear", True
