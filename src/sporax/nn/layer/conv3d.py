"""3-D convolution layers: ``Conv3d`` and ``Conv3dTranspose`` over (N, C, D, H, W) inputs (weights OIDHW)."""
from sporax.core import dtype as mstype
from sporax.nn.layer.conv import Conv2d, Conv2dTranspose, _Conv, explicit_pads, positive_ints


def _triple(cell_name, arg_name, value):
    return positive_ints(cell_name, arg_name, value, 3)


def _six_pads(cell_name, padding, pad_mode):
    return explicit_pads(cell_name, padding, pad_mode, ("head", "tail", "top", "bottom", "left", "right"))


class Conv3d(Conv2d):
    """3-D convolution over an (N, C, D, H, W) input.

    Args:
        in_channels (int), out_channels (int): channels of input and output.
        kernel_size (Union[int, tuple[int]]): (depth, height, width) of the kernel.
        stride, dilation (Union[int, tuple[int]]): Default: 1.
        pad_mode (str): 'same', 'valid' or 'pad'. Default: 'same'.
        padding (Union[int, tuple[int]]): with 'pad', one int or (head, tail, top, bottom, left, right). Default: 0.
        group (int): Default: 1.
        has_bias (bool): Default: False.
        weight_init, bias_init: as for Conv2d; the weight is (out, in / group, kd, kh, kw).
        data_format (str): only 'NCDHW'. Default: 'NCDHW'.
        dtype (mindspore.dtype): Default: float32.

    Inputs:
        - **x** (Tensor) -- (N, in_channels, D, H, W).

    Outputs:
        Tensor (N, out_channels, D_out, H_out, W_out).
    """

    _format = "NCDHW"

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0, dilation=1,
                 group=1, has_bias=False, weight_init=None, bias_init=None, data_format="NCDHW",
                 dtype=mstype.float32):
        _Conv.__init__(self, "Conv3d", in_channels, out_channels, _triple("Conv3d", "kernel_size", kernel_size),
                       _triple("Conv3d", "stride", stride), pad_mode, padding, _triple("Conv3d", "dilation", dilation),
                       group, has_bias, weight_init, bias_init, data_format, dtype)
        self._pads = _six_pads("Conv3d", padding, self.pad_mode)


class Conv3dTranspose(Conv2dTranspose):
    """3-D transposed convolution over an (N, C, D, H, W) input; the weight is (in, out / group, kd, kh, kw).

    Args: as Conv3d, plus ``output_padding`` (int or tuple of 3, added at the far end). Default: 0.
    """

    _format = "NCDHW"
    _appends_output_padding = False

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0, dilation=1,
                 group=1, output_padding=0, has_bias=False, weight_init=None, bias_init=None, data_format="NCDHW",
                 dtype=mstype.float32):
        _Conv.__init__(self, "Conv3dTranspose", in_channels, out_channels,
                       _triple("Conv3dTranspose", "kernel_size", kernel_size),
                       _triple("Conv3dTranspose", "stride", stride), pad_mode, padding,
                       _triple("Conv3dTranspose", "dilation", dilation), group, has_bias, weight_init, bias_init,
                       data_format, dtype)
        self._pads = _six_pads("Conv3dTranspose", padding, self.pad_mode)
        if isinstance(output_padding, int) and not isinstance(output_padding, bool):
            output_padding = (output_padding,) * 3
        if not isinstance(output_padding, tuple) or len(output_padding) != 3 or min(output_padding) < 0:
            raise ValueError("For 'Conv3dTranspose', the 'output_padding' must be a non-negative int or a tuple of "
                             f"three, but got {output_padding!r}.")
        self.output_padding = output_padding
