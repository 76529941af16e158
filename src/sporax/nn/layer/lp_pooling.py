"""More pooling, shuffle and channel-dropout Cells, each over one functional op.

``AdaptiveMaxPool1d``, ``AvgPool3d``, ``LPPool1d``/``LPPool2d``, ``PixelUnshuffle`` and
``Dropout1d``/``Dropout3d``: the Cell checks its arguments once and calls ``ops.<name>``, so the
Cell and the function agree by construction.

Example:
    >>> import numpy as np
    >>> import sporax as ms
    >>> ms.nn.LPPool1d(norm_type=1, kernel_size=2)(ms.Tensor(np.ones((1, 1, 4), np.float32))).asnumpy().tolist()
    [[[2.0, 2.0]]]
"""
from sporax.nn.cell import Cell
from sporax.ops.functional import conv_pool, random, sampling


class AdaptiveMaxPool1d(Cell):
    """Max pooling of (N, C, L) or (C, L) to length ``output_size`` (``ops.adaptive_max_pool1d``).

    Args:
        output_size (int): the output length.

    Inputs:
        - **input** (Tensor).

    Outputs:
        Tensor (N, C, output_size).
    """

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def construct(self, input):
        return sampling.adaptive_max_pool1d(input, self.output_size)


class AvgPool3d(Cell):
    """3-D average pooling of (N, C, D, H, W) (``ops.avg_pool3d``).

    Args:
        kernel_size, stride (Union[int, tuple[int]]): Default: 1.
        pad_mode (str): 'valid' (no padding) or 'pad' (``padding`` on both sides). Default: 'valid'.
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
        if mode == "same":
            raise NotImplementedError("nn.AvgPool3d(pad_mode='same') is not supported by sporax yet; use 'pad' with "
                                      "explicit padding.")
        if mode not in ("valid", "pad"):
            raise ValueError(f"For 'AvgPool3d', the 'pad_mode' must be 'valid', 'same' or 'pad', but got {pad_mode!r}.")
        if mode == "valid" and padding not in (0, (0, 0, 0)):
            raise ValueError("For 'AvgPool3d', the 'padding' must be 0 when 'pad_mode' is 'valid'.")
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding
        self.ceil_mode, self.count_include_pad = ceil_mode, count_include_pad
        self.divisor_override = divisor_override or 0

    def construct(self, x):
        unbatched = x.ndim == 4
        if unbatched:
            x = x.expand_dims(0)
        out = conv_pool.avg_pool3d(x, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                                   self.count_include_pad, self.divisor_override)
        return out.squeeze(0) if unbatched else out


class LPPool1d(Cell):
    """Power-average pooling ``(sum x^p)^(1/p)`` over windows of (N, C, L) (``ops.lp_pool1d``).

    Args:
        norm_type (float): p. kernel_size (int). stride (int): Default: kernel_size. ceil_mode (bool): Default: False.

    Inputs:
        - **x** (Tensor).

    Outputs:
        Tensor.
    """

    _function = staticmethod(conv_pool.lp_pool1d)

    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False):
        super().__init__()
        self.norm_type, self.kernel_size, self.stride, self.ceil_mode = norm_type, kernel_size, stride, ceil_mode

    def construct(self, x):
        return type(self)._function(x, self.norm_type, self.kernel_size, self.stride, self.ceil_mode)


class LPPool2d(LPPool1d):
    """The 2-D ``LPPool1d`` over (N, C, H, W) (``ops.lp_pool2d``)."""

    _function = staticmethod(conv_pool.lp_pool2d)


class PixelUnshuffle(Cell):
    """Rearrange (..., C, H*r, W*r) into (..., C*r*r, H, W) (``ops.pixel_unshuffle``).

    Args:
        downscale_factor (int): r.

    Inputs:
        - **input** (Tensor).

    Outputs:
        Tensor.
    """

    def __init__(self, downscale_factor):
        super().__init__()
        self.downscale_factor = downscale_factor

    def construct(self, input):
        return sampling.pixel_unshuffle(input, self.downscale_factor)


class Dropout1d(Cell):
    """During training, zero whole channels of (N, C, L) with probability ``p`` (``ops.dropout1d``).

    Args:
        p (float): in [0, 1]. Default: 0.5.

    Inputs:
        - **x** (Tensor).

    Outputs:
        Tensor (the input itself outside training).
    """

    _function = staticmethod(random.dropout1d)

    def __init__(self, p=0.5):
        super().__init__()
        random._check_p(type(self).__name__, p, allow_one=True)
        self.p = p

    def construct(self, x):
        if not self.training:
            return x
        return type(self)._function(x, self.p, True)


class Dropout3d(Dropout1d):
    """The (N, C, D, H, W) ``Dropout1d`` (``ops.dropout3d``)."""

    _function = staticmethod(random.dropout3d)
