"""``nn.Unfold``: extract image patches (MindSpore's ExtractImagePatches on NCHW inputs).

For an (N, C, H, W) input and a kh x kw window moved by ``strides`` with dilation ``rates``, the
output is (N, kh * kw * C, OH, OW): output channel ``(i * kw + j) * C + c`` holds input channel
``c`` at window offset (i, j), the channel varying fastest, as in TensorFlow's
``extract_image_patches`` that MindSpore's kernel follows. 'valid' keeps whole windows; 'same'
pads (TensorFlow's split, extra on the bottom/right) so that OH = ceil(H / stride).
"""
from functools import partial

import jax
from jax import lax

from sporax.core.tensor import Tensor, tensor_array
from sporax.nn.cell import Cell


@partial(jax.jit, static_argnums=(1, 2, 3, 4))
def _extract_patches(array, window, strides, rates, padding):
    channels = array.shape[1]
    patches = lax.conv_general_dilated_patches(array, window, strides, padding, rhs_dilation=rates)
    batch, _, out_height, out_width = patches.shape
    # conv_general_dilated_patches orders (channel, i, j); MindSpore orders (i, j, channel).
    patches = patches.reshape(batch, channels, window[0] * window[1], out_height, out_width)
    return patches.transpose(0, 2, 1, 3, 4).reshape(batch, -1, out_height, out_width)


def _four_ints(name, value):
    if (not isinstance(value, (list, tuple)) or len(value) != 4 or value[0] != 1 or value[3] != 1
            or not all(isinstance(item, int) and not isinstance(item, bool) and item > 0 for item in value)):
        raise ValueError(f"For 'Unfold', the '{name}' must be a list or tuple of 4 positive ints [1, row, col, 1], "
                         f"but got {value!r}.")
    return int(value[1]), int(value[2])


class Unfold(Cell):
    """Extract patches from an (N, C, H, W) image into the channel axis.

    Args:
        ksizes (Union[tuple[int], list[int]]): [1, kernel_row, kernel_col, 1].
        strides (Union[tuple[int], list[int]]): [1, stride_row, stride_col, 1].
        rates (Union[tuple[int], list[int]]): [1, rate_row, rate_col, 1] (the window's dilation).
        padding (str): 'same' or 'valid' (case-insensitive). Default: 'valid'.

    Inputs:
        - **x** (Tensor) -- (N, C, H, W).

    Outputs:
        Tensor, (N, kernel_row * kernel_col * C, OH, OW).

    Example:
        >>> import numpy as np, sporax as ms
        >>> unfold = ms.nn.Unfold([1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1])
        >>> unfold(ms.Tensor(np.ones((1, 3, 4, 4), np.float32))).shape
        (1, 12, 3, 3)
    """

    def __init__(self, ksizes, strides, rates, padding="valid"):
        super().__init__()
        self.ksizes = _four_ints("ksizes", ksizes)
        self.strides = _four_ints("strides", strides)
        self.rates = _four_ints("rates", rates)
        if not isinstance(padding, str) or padding.lower() not in ("same", "valid"):
            raise ValueError(f"For 'Unfold', the 'padding' must be 'same' or 'valid', but got {padding!r}.")
        self.padding = padding.upper()

    def construct(self, x):
        array = tensor_array(x, cell_name="Unfold")
        if array.ndim != 4:
            raise ValueError(f"For 'Unfold', the input must be 4-D (N, C, H, W), but got shape {tuple(array.shape)}.")
        return Tensor._wrap(_extract_patches(array, self.ksizes, self.strides, self.rates, self.padding))
