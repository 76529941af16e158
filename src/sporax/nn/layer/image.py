"""Image resizing layers: ``Upsample`` (a Cell around ``ops.interpolate``)."""
from sporax.nn.cell import Cell
from sporax.ops.functional.sampling import interpolate


class Upsample(Cell):
    """Resize the spatial axes of an (N, C, ...) input to ``size`` or by ``scale_factor``.

    Args:
        size (Union[int, tuple[int]]): the output spatial size. Default: None.
        scale_factor (Union[float, tuple[float]]): the scale of each spatial axis. Default: None.
        mode (str): 'nearest', 'nearest-exact', 'linear', 'bilinear', 'bicubic', 'trilinear' or 'area'.
            Default: 'nearest'.
        align_corners (bool): for the (bi/tri)linear and bicubic modes. Default: None (False).
        recompute_scale_factor (bool): compute the sampling scale from the output size. Default: None.

    Inputs:
        - **x** (Tensor) -- (N, C, L), (N, C, H, W) or (N, C, D, H, W).

    Outputs:
        Tensor with the resized spatial axes.
    """

    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=None,
                 recompute_scale_factor=None):
        super().__init__()
        self.size, self.scale_factor, self.mode = size, scale_factor, mode
        self.align_corners, self.recompute_scale_factor = align_corners, recompute_scale_factor

    def construct(self, x):
        return interpolate(x, self.size, self.scale_factor, self.mode, self.align_corners,
                           self.recompute_scale_factor)
