"""``Conv2DBackpropInput`` and ``Conv3DBackpropInput``: the input gradients of ``Conv2D`` and ``Conv3D`` as
Primitives of their own."""
from sporax.ops.functional import convolution, creation
from sporax.ops.operations.grad_ops_structured import vjp_of_inputs
from sporax.ops.operations.nn_ops import Conv2D, Conv3D
from sporax.ops.primitive import prim_attr_register


class Conv2DBackpropInput(Conv2D):
    """The gradient of a 2-d convolution with respect to its input (a transposed convolution).

    Computed as the vector-Jacobian product of ``Conv2D`` with the same settings, so the two agree
    by construction for every padding, stride, dilation and group.

    Args:
        out_channel (int), kernel_size (Union[int, tuple]), pad_mode (str): 'valid', 'same' or 'pad';
        pad (Union[int, tuple of 4]); pad_list (tuple of 4): overrides ``pad`` when given; mode (int);
        stride, dilation (Union[int, tuple]); group (int); data_format (str): 'NCHW'.

    Inputs:
        - **dout** (Tensor) - (N, out_channel, H_out, W_out), the gradient of the convolution's output.
        - **weight** (Tensor) - (out_channel, C/group, kH, kW), the forward weight.
        - **input_size** (tuple[int]) - the forward input's shape (N, C, H, W).

    Outputs:
        Tensor of shape ``input_size``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> dx = ops.Conv2DBackpropInput(1, 2)(Tensor(np.ones((1, 1, 2, 2), np.float32)),
        ...                                    Tensor(np.ones((1, 1, 2, 2), np.float32)), (1, 1, 3, 3))
        >>> dx.asnumpy()[0, 0].tolist()
        [[1.0, 2.0, 1.0], [2.0, 4.0, 2.0], [1.0, 2.0, 1.0]]
    """

    @prim_attr_register
    def __init__(self, out_channel, kernel_size, pad_mode="valid", pad=0, pad_list=None, mode=1, stride=1,
                 dilation=1, group=1, data_format="NCHW"):
        # Conv2D's own settings (its undecorated __init__: the attributes are registered once, here)
        Conv2D.__init__.__wrapped__(self, out_channel, kernel_size, mode, pad_mode, pad, stride, dilation, group,
                                    data_format)
        if pad_list is not None and self.pad_mode == "pad":
            pads = tuple(pad_list)
            self.padding = ((pads[0], pads[1]), (pads[2], pads[3]))

    def __call__(self, dout, weight, input_size):
        shape = tuple(int(size) for size in (input_size.asnumpy() if hasattr(input_size, "asnumpy") else input_size))
        if len(shape) != 4:
            raise ValueError(f"For 'Conv2DBackpropInput', 'input_size' must hold 4 ints (N, C, H, W), "
                             f"but got {input_size!r}.")
        if self.pad_mode == "pad":
            (top, bottom), (left, right) = self.padding
            padding = (top, bottom, left, right)
        else:
            padding = 0

        def forward(input):
            return convolution.conv2d(input, weight, None, self.stride, self.pad_mode, padding, self.dilation,
                                    self.group)

        # the input gradient of the conv2d entry at any input of that shape (the convolution is linear in it)
        return vjp_of_inputs("Conv2DBackpropInput", forward, creation.zeros(shape, dout.dtype), dout,
                             ("input_size", "dout"))


class Conv3DBackpropInput(Conv3D):
    """The gradient of a 3-d convolution with respect to its input (MindSpore's nn_ops), the vector-Jacobian
    product of ``Conv3D`` with the same settings.

    Args:
        out_channel (int), kernel_size (Union[int, tuple]), mode (int), pad_mode (str): 'valid', 'same' or 'pad';
        pad (Union[int, tuple of 6]); stride, dilation (Union[int, tuple]); group (int); data_format (str): 'NCDHW'.

    Inputs:
        - **weight** (Tensor) - (out_channel, C/group, kD, kH, kW), the forward weight.
        - **dout** (Tensor) - (N, out_channel, D_out, H_out, W_out), the gradient of the convolution's output.
        - **input_size** (tuple[int]) - the forward input's shape (N, C, D, H, W).

    Outputs:
        Tensor of shape ``input_size``.
    """

    def __call__(self, weight, dout, input_size):
        shape = tuple(int(size) for size in (input_size.asnumpy() if hasattr(input_size, "asnumpy") else input_size))
        if len(shape) != 5:
            raise ValueError(f"For 'Conv3DBackpropInput', 'input_size' must hold 5 ints (N, C, D, H, W), "
                             f"but got {input_size!r}.")

        def forward(input):
            return Conv3D.__call__(self, input, weight)

        return vjp_of_inputs("Conv3DBackpropInput", forward, creation.zeros(shape, dout.dtype), dout,
                             ("input_size", "dout"))
