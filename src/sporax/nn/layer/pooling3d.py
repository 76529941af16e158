"""``nn.MaxPool3d``, ``nn.AvgPool3d`` and ``nn.AdaptiveMaxPool3d`` on (N, C, D, H, W) or (C, D, H, W) inputs."""
import math

import jax.numpy as jnp
import numpy as np
from jax import lax

from sporax.core.tensor import Tensor
from sporax.nn.cell import Cell
from sporax import ops
from sporax.ops.functional import pooling
from sporax.ops.functional.nn_spatial import adaptive_max_pool3d


def _triple(cell, name, value, low=1):
    values = (value,) * 3 if isinstance(value, int) else tuple(value)
    if len(values) != 3 or not all(isinstance(v, int) and not isinstance(v, bool) and v >= low for v in values):
        raise ValueError(f"For '{cell}', the '{name}' must be an int or a tuple of three ints >= {low}, but got "
                         f"{value!r}.")
    return values


class MaxPool3d(Cell):
    """3-D max pooling.

    Args:
        kernel_size (Union[int, tuple[int]]): the window (D, H, W). Default: 1.
        stride (Union[int, tuple[int]]): Default: 1.
        pad_mode (str): 'valid' (no padding), 'same' (output ceil(in / stride), TensorFlow's split)
            or 'pad' (``padding`` on both sides). Default: 'valid'.
        padding (Union[int, tuple[int]]): the 'pad' mode's padding. Default: 0.
        dilation (Union[int, tuple[int]]): Default: 1.
        return_indices (bool): also return the flat D*H*W index of each maximum. Default: False.
        ceil_mode (bool): round the output size up ('pad' mode). Default: False.

    Inputs:
        - **x** (Tensor) -- (N, C, D, H, W) or (C, D, H, W).

    Outputs:
        Tensor (and the int64 indices with ``return_indices``).
    """

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1, return_indices=False,
                 ceil_mode=False):
        super().__init__()
        self.kernel_size = _triple("MaxPool3d", "kernel_size", kernel_size)
        self.stride = _triple("MaxPool3d", "stride", stride)
        self.dilation = _triple("MaxPool3d", "dilation", dilation)
        self.padding = _triple("MaxPool3d", "padding", padding, low=0)
        if not isinstance(pad_mode, str) or pad_mode.lower() not in ("valid", "same", "pad"):
            raise ValueError(f"For 'MaxPool3d', the 'pad_mode' must be 'valid', 'same' or 'pad', but got "
                             f"{pad_mode!r}.")
        self.pad_mode = pad_mode.lower()
        if self.pad_mode != "pad" and any(self.padding):
            raise ValueError(f"For 'MaxPool3d', the 'padding' must be 0 when 'pad_mode' is {pad_mode!r}.")
        self.return_indices, self.ceil_mode = bool(return_indices), bool(ceil_mode)
        if self.pad_mode != "pad" and (self.return_indices or any(d != 1 for d in self.dilation)):
            # MindSpore 2.10 computes indices and dilated windows only on explicitly padded inputs.
            raise ValueError(f"For MaxPool3d, the pad_mode must be 'pad' when dilation is not 1 or return_indices is "
                             f"True, but got pad_mode:{pad_mode}.")

    def construct(self, x):
        if not isinstance(x, Tensor) or x.ndim not in (4, 5):
            raise ValueError(f"For 'MaxPool3d', the input must be a 4-D or 5-D Tensor, but got "
                             f"{getattr(x, 'shape', type(x).__name__)}.")
        padding = self.padding if self.pad_mode == "pad" else (0, 0, 0)
        if self.pad_mode == "same":
            pads = _same_pads(x.shape[-3:], self.kernel_size, self.stride, self.dilation)
            if all(before == after for before, after in pads):
                padding = tuple(before for before, _ in pads)
            else:
                widths = ((0, 0),) * (x.ndim - 3) + tuple(pads)
                x = Tensor._wrap(jnp.pad(x._value, widths, constant_values=-jnp.inf))
        return ops.max_pool3d(x, self.kernel_size, self.stride, padding, self.dilation,
                              ceil_mode=self.ceil_mode and self.pad_mode == "pad",
                              return_indices=self.return_indices)


def _same_pads(spatial, kernels, strides, dilations=(1, 1, 1)):
    """(low, high) per axis so that the output has ceil(size / stride) positions (the extra one high)."""
    pads = []
    for size, kernel, stride, dilation in zip(spatial, kernels, strides, dilations):
        span = (kernel - 1) * dilation + 1
        total = max((math.ceil(size / stride) - 1) * stride + span - size, 0)
        pads.append((total // 2, total - total // 2))
    return pads


def _adaptive_max_axis(array, axis, out_size):
    size = array.shape[axis]
    pieces = []
    for index in range(out_size):
        start = (index * size) // out_size
        end = -(-((index + 1) * size) // out_size)
        pieces.append(jnp.max(jnp.take(array, jnp.arange(start, end), axis=axis), axis=axis))
    return jnp.stack(pieces, axis=axis)


class AdaptiveMaxPool3d(Cell):
    """3-D adaptive max pooling: each output cell is the maximum of its share of the input.

    Output index ``i`` of an axis of length ``L`` pooled to ``O`` covers
    ``[floor(i * L / O), ceil((i + 1) * L / O))``.

    Args:
        output_size (Union[int, tuple[int]]): (D, H, W) of the output; None keeps the input's.
        return_indices (bool): also return the Int32 flat (D*H*W) index of each maximum. Default: False.

    Inputs:
        - **input** (Tensor) -- (N, C, D, H, W) or (C, D, H, W).

    Outputs:
        Tensor (and the indices with ``return_indices``).
    """

    def __init__(self, output_size, return_indices=False):
        super().__init__()
        sizes = (output_size,) * 3 if output_size is None or isinstance(output_size, int) else tuple(output_size)
        if len(sizes) != 3 or not all(s is None or (isinstance(s, int) and s > 0) for s in sizes):
            raise ValueError(f"For 'AdaptiveMaxPool3d', the 'output_size' must be an int or a tuple of three "
                             f"positive ints (or None), but got {output_size!r}.")
        if not isinstance(return_indices, bool):
            raise TypeError(f"For 'AdaptiveMaxPool3d', 'return_indices' must be bool, but got "
                            f"{type(return_indices).__name__}.")
        self.output_size = sizes
        self.return_indices = return_indices

    def construct(self, input):
        if not isinstance(input, Tensor) or input.ndim not in (4, 5):
            raise ValueError(f"For 'AdaptiveMaxPool3d', the input must be a 4-D or 5-D Tensor, but got "
                             f"{getattr(input, 'shape', type(input).__name__)}.")
        if self.return_indices:
            sizes = tuple(input.shape[-3 + axis] if size is None else size for axis, size in enumerate(self.output_size))
            return adaptive_max_pool3d(input, sizes, return_indices=True)
        array = input._value
        for offset, size in enumerate(self.output_size):
            axis = array.ndim - 3 + offset
            array = _adaptive_max_axis(array, axis, array.shape[axis] if size is None else size)
        return Tensor._wrap(array)


def _window_sums(array, kernel, stride, pads):
    window = (1, 1) + tuple(kernel)
    return lax.reduce_window(array, np.zeros((), array.dtype), lax.add, window, (1, 1) + tuple(stride),
                             [(0, 0), (0, 0)] + list(pads))


class AvgPool3d(Cell):
    """3-D average pooling of (N, C, D, H, W) (``ops.avg_pool3d``).

    Args:
        kernel_size, stride (Union[int, tuple[int]]): Default: 1.
        pad_mode (str): 'valid' (no padding), 'same' (zero padding so the output has ceil(size / stride) positions,
            the odd one at the end) or 'pad' (``padding`` on both sides). Default: 'valid'.
        padding (Union[int, tuple[int]]): with 'pad'. Default: 0.
        ceil_mode (bool), count_include_pad (bool), divisor_override (int): as ``ops.avg_pool3d``.

    Inputs:
        - **x** (Tensor) - (N, C, D, H, W) or (C, D, H, W).

    Outputs:
        Tensor.
    """

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None):
        super().__init__()
        mode = pad_mode.lower() if isinstance(pad_mode, str) else pad_mode
        if mode not in ("valid", "same", "pad"):
            raise ValueError(f"For 'AvgPool3d', the 'pad_mode' must be 'valid', 'same' or 'pad', but got {pad_mode!r}.")
        if mode != "pad" and padding not in (0, (0, 0, 0)):
            raise ValueError(f"For 'AvgPool3d', the 'padding' must be 0 when 'pad_mode' is {mode!r}.")
        self.pad_mode = mode
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding
        self.ceil_mode, self.count_include_pad = ceil_mode, count_include_pad
        self.divisor_override = divisor_override or 0

    def construct(self, x):
        unbatched = x.ndim == 4
        if unbatched:
            x = x.expand_dims(0)
        if self.pad_mode == "same":
            out = self._same_average(x)
            return out.squeeze(0) if unbatched else out
        out = pooling.avg_pool3d(x, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                                   self.count_include_pad, self.divisor_override)
        return out.squeeze(0) if unbatched else out

    def _same_average(self, x):
        """'same' padding: zeros around the input; the divisor counts them only with ``count_include_pad``."""
        name = "AvgPool3d"
        kernel, stride = _triple(name, "kernel_size", self.kernel_size), _triple(name, "stride", self.stride)
        array = x._value
        pads = _same_pads(array.shape[2:], kernel, stride)
        total = _window_sums(array, kernel, stride, pads)
        if self.divisor_override:
            divisor = self.divisor_override
        elif self.count_include_pad:
            divisor = math.prod(kernel)
        else:
            divisor = _window_sums(jnp.ones((1, 1) + array.shape[2:], array.dtype), kernel, stride, pads)
        return Tensor._wrap((total / divisor).astype(array.dtype))
