"""Backward kernels of ``ops.operations._grad_ops`` for convolutions: the weight gradients of ``Conv2D`` and
``Conv3D`` and the gradients of ``DeformableOffsets``.

Each is the VJP of sporax's own forward Primitive with the same settings, so a backward kernel gives exactly
the gradient the forward op's autodiff gives.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.ops.operations.grad_ops_convolution import Conv2DBackpropFilter
    >>> dw = Conv2DBackpropFilter(1, 1)(Tensor(np.ones((1, 1, 2, 2), np.float32)),
    ...                                 Tensor(np.ones((1, 1, 2, 2), np.float32)), (1, 1, 1, 1))
    >>> dw.asnumpy().tolist()
    [[[[4.0]]]]
"""
import numpy as np

from sporax.ops._dispatch import array_of, wrap
from sporax.ops.functional.deformable import deformable_offsets_vjp
from sporax.ops.operations import nn_ops
from sporax.ops.operations.grad_ops_structured import _shape_of, _vjp
from sporax.ops.primitive import Primitive, prim_attr_register


class Conv2DBackpropFilter(Primitive):
    """The gradient of a 2-d convolution with respect to its weight (the VJP of ``Conv2D``).

    Args:
        out_channel (int), kernel_size (Union[int, tuple]), pad_mode (str): 'valid', 'same' or 'pad';
        pad (Union[int, tuple of 4]); pad_list (tuple of 4); mode (int); stride, dilation
        (Union[int, tuple]); group (int); data_format (str): 'NCHW'.

    Inputs:
        - **dout** (Tensor) - (N, out_channel, H_out, W_out), the gradient of the output.
        - **x** (Tensor) - (N, C, H, W), the forward input.
        - **filter_size** (tuple[int]) - the weight's shape (out_channel, C/group, kH, kW).

    Outputs:
        Tensor of shape ``filter_size``.
    """

    @prim_attr_register
    def __init__(self, out_channel, kernel_size, pad_mode="valid", pad=0, pad_list=(0, 0, 0, 0), mode=1,
                 stride=(1, 1), dilation=(1, 1, 1, 1), group=1, data_format="NCHW"):
        stride = tuple(stride)[-2:] if isinstance(stride, (tuple, list)) else stride
        dilation = tuple(dilation)[-2:] if isinstance(dilation, (tuple, list)) else dilation
        if pad_mode.lower() == "pad" and any(pad_list) and not (isinstance(pad, (tuple, list)) or pad):
            pad = tuple(pad_list)
        self.forward_settings = dict(out_channel=out_channel, kernel_size=kernel_size, mode=mode,
                                     pad_mode=pad_mode, pad=pad, stride=stride, dilation=dilation, group=group,
                                     data_format=data_format)

    def __call__(self, dout, x, filter_size):
        gradient = array_of("Conv2DBackpropFilter", "dout", dout)
        x_tensor = x if hasattr(x, "asnumpy") else wrap(array_of("Conv2DBackpropFilter", "x", x))
        shape = _shape_of("Conv2DBackpropFilter", "filter_size", filter_size)
        convolution = nn_ops.Conv2D(**self.forward_settings)
        return wrap(_vjp(lambda weight: convolution(x_tensor, weight), np.zeros(shape, gradient.dtype), gradient))


class DeformableOffsetsGrad(Primitive):
    """Gradients of ``DeformableOffsets`` with the same settings: ``(dx, doffsets)`` (its VJP).

    Args:
        strides, pads, kernel_size, dilations, data_format ('NCHW' or 'NHWC'), deformable_groups,
        modulated: those of the forward op.

    Inputs:
        - **grad** (Tensor) - the gradient of the deformed samples.
        - **x** (Tensor) - the forward input.
        - **offsets** (Tensor) - the forward offsets (and masks when modulated).

    Outputs:
        Tuple (dx, doffsets) of the shapes of ``x`` and ``offsets``.
    """

    @prim_attr_register
    def __init__(self, strides, pads, kernel_size, dilations=(1, 1, 1, 1), data_format="NCHW",
                 deformable_groups=1, modulated=True):
        if data_format not in ("NCHW", "NHWC"):
            raise ValueError(f"For 'DeformableOffsetsGrad', 'data_format' must be 'NCHW' or 'NHWC', "
                             f"but got {data_format!r}.")
        self.data_format = data_format
        to_nchw = (lambda values: (values[0], values[3], values[1], values[2])) if data_format == "NHWC" else tuple
        self.settings = dict(strides=to_nchw(tuple(strides)), pads=tuple(pads), ksize=tuple(kernel_size),
                             dilations=to_nchw(tuple(dilations)), deformable_groups=deformable_groups,
                             modulated=modulated)

    def __call__(self, grad, x, offsets):
        arrays = [array_of("DeformableOffsetsGrad", name, value)
                  for name, value in (("grad", grad), ("x", x), ("offsets", offsets))]
        dx, doffsets = deformable_offsets_vjp("DeformableOffsetsGrad", *arrays, self.settings["ksize"],
                                              self.settings["strides"], self.settings["pads"],
                                              self.settings["dilations"], self.settings["deformable_groups"],
                                              self.settings["modulated"], self.data_format == "NHWC")
        return wrap(dx), wrap(doffsets)


class Conv3DBackpropFilter(Primitive):
    """The gradient of a 3-d convolution with respect to its weight (the VJP of ``Conv3D``).

    Args:
        out_channel (int), kernel_size (Union[int, tuple]), mode (int), pad_mode (str): 'valid', 'same' or 'pad';
        pad (Union[int, tuple of 6]); stride, dilation (Union[int, tuple of 3 or 5]); group (int);
        data_format (str): 'NCDHW'.

    Inputs:
        - **x** (Tensor) - (N, C, D, H, W), the forward input.
        - **dout** (Tensor) - (N, out_channel, D_out, H_out, W_out), the gradient of the output.
        - **w_size** (tuple[int]) - the weight's shape (out_channel, C/group, kD, kH, kW).

    Outputs:
        Tensor of shape ``w_size``.
    """

    @prim_attr_register
    def __init__(self, out_channel, kernel_size, mode=1, pad_mode="valid", pad=0, stride=(1, 1, 1, 1, 1),
                 dilation=(1, 1, 1, 1, 1), group=1, data_format="NCDHW"):
        def spatial(value):
            return tuple(value)[-3:] if isinstance(value, (tuple, list)) else value
        self.forward = nn_ops.Conv3D(out_channel, kernel_size, mode, pad_mode, pad, spatial(stride), spatial(dilation),
                                     group, data_format)
        self.init_prim_io_names(["x", "out_backprop", "filter_size"], ["y"])

    def __call__(self, x, dout, w_size):
        gradient = array_of("Conv3DBackpropFilter", "dout", dout)
        x_tensor = x if hasattr(x, "asnumpy") else wrap(array_of("Conv3DBackpropFilter", "x", x))
        shape = _shape_of("Conv3DBackpropFilter", "w_size", w_size)
        return wrap(_vjp(lambda weight: self.forward(x_tensor, weight), np.zeros(shape, gradient.dtype), gradient))
