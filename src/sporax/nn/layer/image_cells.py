"""Image Cells of ``mindspore.nn``: ``CentralCrop``, ``ImageGradients``, ``ChannelShuffle``."""
import jax.numpy as jnp

from sporax.core.tensor import Tensor
from sporax.nn.cell import Cell
from sporax import ops


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
