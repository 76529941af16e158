"""Image Cells of ``mindspore.nn``: ``Upsample`` (a Cell around ``ops.interpolate``), ``CentralCrop``,
``ImageGradients`` and ``ChannelShuffle``."""
import jax.numpy as jnp

from sporax import ops
from sporax.core.tensor import Tensor
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


class CentralCrop(Cell):
    """Keep the central ``central_fraction`` of the height and width of (C, H, W) or (N, C, H, W) images.

    Args:
        central_fraction (float): in (0, 1].

    Inputs:
        - **image** (Tensor) -- 3-D or 4-D.

    Outputs:
        Tensor, the cropped images.
    """

    def __init__(self, central_fraction):
        super().__init__()
        if isinstance(central_fraction, bool) or not isinstance(central_fraction, (int, float)):
            raise TypeError(f"For 'CentralCrop', the 'central_fraction' must be a float, but got "
                            f"{type(central_fraction).__name__}.")
        if not 0.0 < central_fraction <= 1.0:
            raise ValueError(f"For 'CentralCrop', the 'central_fraction' must be in (0.0, 1.0], but got "
                             f"{central_fraction}.")
        self.central_fraction = float(central_fraction)

    def construct(self, image):
        if not isinstance(image, Tensor) or image.ndim not in (3, 4):
            raise ValueError(f"For 'CentralCrop', the image must be a 3-D or 4-D Tensor, but got "
                             f"{getattr(image, 'shape', type(image).__name__)}.")
        if self.central_fraction == 1.0:
            return image
        height, width = image.shape[-2:]
        top = int((height - height * self.central_fraction) / 2)
        left = int((width - width * self.central_fraction) / 2)
        return Tensor._wrap(image._value[..., top:height - top, left:width - left])


class ImageGradients(Cell):
    """The vertical and horizontal differences of (N, C, H, W) images (0 in the last row/column).

    Inputs:
        - **images** (Tensor) -- (N, C, H, W).

    Outputs:
        (dy, dx): Tensors of the input's shape.
    """

    def construct(self, images):
        if not isinstance(images, Tensor) or images.ndim != 4:
            raise ValueError(f"For 'ImageGradients', the input must be a 4-D (N, C, H, W) Tensor, but got "
                             f"{getattr(images, 'shape', type(images).__name__)}.")
        array = images._value
        dy = jnp.pad(array[:, :, 1:, :] - array[:, :, :-1, :], ((0, 0), (0, 0), (0, 1), (0, 0)))
        dx = jnp.pad(array[:, :, :, 1:] - array[:, :, :, :-1], ((0, 0), (0, 0), (0, 0), (0, 1)))
        return Tensor._wrap(dy), Tensor._wrap(dx)


class ChannelShuffle(Cell):
    """Shuffle the channels of (N, C, ...) inputs: C = groups x k becomes k x groups.

    Args:
        groups (int): divides C, > 0.

    Inputs:
        - **x** (Tensor) -- (N, C, ...).

    Outputs:
        Tensor, same shape and dtype.
    """

    def __init__(self, groups):
        super().__init__()
        if isinstance(groups, bool) or not isinstance(groups, int) or groups < 1:
            raise ValueError(f"For 'ChannelShuffle', the 'groups' must be a positive int, but got {groups!r}.")
        self.groups = groups

    def construct(self, x):
        return ops.channel_shuffle(x, self.groups)
