"""Convolution layers: ``Conv1d``, ``Conv2d``, ``Conv2dTranspose``, ``Conv1dTranspose`` (NCHW, OIHW).

MindSpore's conventions: ``pad_mode='same'`` pads so the output is ceil(input / stride), the odd
pixel going to the bottom/right; ``'valid'`` does not pad; ``'pad'`` takes ``padding`` as one int
or (top, bottom, left, right). Conv1d runs as a 2-D convolution with a height of 1, so its
weight is (out, in / group, 1, kernel) as in MindSpore checkpoints.
"""
import math

import jax.numpy as jnp

from sporax.core import dtype as mstype
from sporax.core.initializer import HeUniform, Uniform
from sporax.core.tensor import Tensor, tensor_array
from sporax.nn.cell import Cell
from sporax.nn.layer.basic import _check_positive_int, make_parameter
# Every convolution runs through ops, which picks the backend's form.
from sporax.ops import layer_forms
from sporax.state.scope import in_compiled_trace



_COUNT_WORDS = {1: "one", 2: "two", 3: "three"}


def positive_ints(cell_name, arg_name, value, rank):
    """``value`` (an int or a tuple of ``rank`` positive ints) as a tuple of ``rank`` positive ints."""
    if isinstance(value, int) and not isinstance(value, bool):
        value = (value,) * rank
    if (not isinstance(value, tuple) or len(value) != rank
            or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in value)):
        raise ValueError(f"For '{cell_name}', the '{arg_name}' must be a positive int or a tuple of "
                         f"{_COUNT_WORDS[rank]} positive ints, but got {value!r}.")
    return value


def explicit_pads(cell_name, padding, pad_mode, sides):
    """``padding`` (an int or a tuple of one int per name in ``sides``) as a tuple of non-negative ints,
    which must be zero unless ``pad_mode`` is 'pad'."""
    if isinstance(padding, int) and not isinstance(padding, bool):
        pads = (padding,) * len(sides)
    elif isinstance(padding, tuple) and len(padding) == len(sides) and all(isinstance(v, int) for v in padding):
        pads = padding
    else:
        raise ValueError(f"For '{cell_name}', the 'padding' must be an int or a tuple of {len(sides)} ints "
                         f"({', '.join(sides)}), but got {padding!r}.")
    if any(v < 0 for v in pads):
        raise ValueError(f"For '{cell_name}', the 'padding' must be non-negative, but got {padding!r}.")
    if pad_mode != "pad" and any(pads):
        raise ValueError(f"For '{cell_name}', the 'pad' must be zero when 'pad_mode' is not 'pad', but got 'pad': "
                         f"{padding} and 'pad_mode': {pad_mode}. Use pad_mode='pad' to pad explicitly.")
    return pads


def _pair(cell_name, arg_name, value):
    return positive_ints(cell_name, arg_name, value, 2)


def _four_pads(cell_name, padding, pad_mode):
    return explicit_pads(cell_name, padding, pad_mode, ("top", "bottom", "left", "right"))


def same_pads(size, kernel, stride, dilation):
    """(low, high) padding that makes the output ceil(size / stride), the odd one at the end."""
    effective = (kernel - 1) * dilation + 1
    output = -(-size // stride)
    total = max((output - 1) * stride + effective - size, 0)
    return total // 2, total - total // 2


class _Conv(Cell):
    """What Conv1d, Conv2d and the transposed layers share: arguments, Parameters, repr."""

    _transposed = False
    _format = "NCHW"  # the only layout; NCDHW for the 3-D layers
    _channels_last = False  # Conv2d also runs MindSpore's GPU layout, NHWC

    def __init__(self, name, in_channels, out_channels, kernel_size, stride, pad_mode, padding, dilation, group,
                 has_bias, weight_init, bias_init, data_format, dtype):
        super().__init__()
        self._cell_name = name
        self.in_channels = _check_positive_int(name, "in_channels", in_channels)
        self.out_channels = _check_positive_int(name, "out_channels", out_channels)
        self.kernel_size, self.stride, self.dilation = kernel_size, stride, dilation
        if not isinstance(pad_mode, str) or pad_mode.lower() not in ("valid", "same", "pad"):
            raise ValueError(f"For '{name}', the 'pad_mode' must be str and must be in '['valid', 'same', 'pad']', "
                             f"but got {pad_mode!r}.")
        self.pad_mode = pad_mode.lower()
        self.padding = padding
        self.group = _check_positive_int(name, "group", group)
        if in_channels % group or out_channels % group:
            raise ValueError(f"The argument 'group' should be divisible by 'in_channels' and 'out_channels', but got "
                             f"group:{group}, in_channels:{in_channels}, out_channels:{out_channels}.")
        if not isinstance(has_bias, bool):
            raise TypeError(f"For '{name}', the 'has_bias' must be bool, but got {type(has_bias).__name__}.")
        layer_forms.check_data_format(name, data_format, ("NCHW", "NHWC", "NCDHW"), channels_last=self._channels_last)
        if data_format != self._format and data_format != "NHWC":
            raise ValueError(f"For '{name}', the 'data_format' must be '{self._format}', but got {data_format!r}.")
        self.format = data_format
        # MindSpore's conv layers keep it under this name; subclasses in user code read it back.
        self.data_format = data_format
        self.has_bias = has_bias
        if self._transposed:
            shape = (in_channels, out_channels // group) + tuple(kernel_size)
        else:
            shape = (out_channels, in_channels // group) + tuple(kernel_size)
        if data_format == "NHWC":  # MindSpore's GPU layout keeps the kernel as (out, kh, kw, in / group)
            shape = (shape[0],) + shape[2:] + (shape[1],)
        if weight_init is None:
            weight_init = HeUniform(math.sqrt(5))
        self.weight_init = weight_init
        self.weight = make_parameter(name, "weight_init", weight_init, shape, dtype, "weight")
        self.bias_init = bias_init
        self.bias = None
        if has_bias:
            if bias_init is None:
                fan_in = (shape[-1] if data_format == "NHWC" else shape[1]) * math.prod(kernel_size)
                self.bias_init = Uniform(1 / math.sqrt(fan_in))
            self.bias = make_parameter(name, "bias_init", self.bias_init, (out_channels,), dtype, "bias")

    def _arrays(self, x):
        array, weight = tensor_array(x, cell_name=self._cell_name), self.weight._value
        if array.dtype != weight.dtype:
            if self._cast_type is None:
                raise TypeError(f"For '{self._cell_name}', the input dtype {Tensor._wrap(array).dtype} differs from "
                                f"the weight dtype {self.weight.dtype}; cast the input (or use to_float).")
            weight = weight.astype(array.dtype)
        channels = self.in_channels
        if self.format == "NHWC":
            if array.ndim != 4 or array.shape[3] != channels:
                raise ValueError(f"For '{self._cell_name}', data_format='NHWC' takes an input of shape (N, H, W, "
                                 f"{channels}), got {tuple(array.shape)}.")
        elif array.ndim != len(self._format):
            first = (f"For primitive[Conv2D], the x shape size must be equal to 4, but got {array.ndim}.\n"
                     if self._cell_name == "Conv2d" else "")  # MindSpore 2.10's graph text
            raise ValueError(f"{first}For '{self._cell_name}', the input must have shape (N, {channels}, ...), got "
                             f"{tuple(array.shape)}.")
        elif array.shape[1] != channels:
            # MindSpore 2.10 finds a channel mismatch in its 1-D/2-D kernels (RuntimeError), in Conv3D's shape
            # inference (ValueError)
            error = ValueError if len(self._format) == 5 else RuntimeError
            raise error(f"For '{self._cell_name}', the input has {array.shape[1]} channels but in_channels is "
                        f"{channels}: give it an input of shape (N, {channels}, ...) or build the layer with "
                        f"in_channels={array.shape[1]}.")
        return array, weight

    def _bias(self):
        return self.bias._value if self.has_bias else None

    def extend_repr(self):
        return (f"input_channels={self.in_channels}, output_channels={self.out_channels}, kernel_size="
                f"{self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}, padding={self.padding}, "
                f"dilation={self.dilation}, group={self.group}, has_bias={self.has_bias}, weight_init="
                f"{self.weight_init}, bias_init={self.bias_init}, format={self.format}")


def _forward_pads(pad_mode, pads, sizes, kernel, stride, dilation):
    """(low, high) per spatial axis; ``pads`` lists (low, high) flat, axis by axis."""
    if pad_mode == "same":
        return tuple(same_pads(size, k, s, d) for size, k, s, d in zip(sizes, kernel, stride, dilation))
    if pad_mode == "valid":
        return ((0, 0),) * len(sizes)
    return tuple((pads[2 * axis], pads[2 * axis + 1]) for axis in range(len(sizes)))


class Conv2d(_Conv):
    """2-D convolution over an (N, C, H, W) input.

    Args:
        in_channels (int): C of the input.
        out_channels (int): C of the output.
        kernel_size (Union[int, tuple[int]]): (height, width) of the kernel.
        stride (Union[int, tuple[int]]): the step of the kernel. Default: 1.
        pad_mode (str): 'same', 'valid' or 'pad'. Default: 'same'.
        padding (Union[int, tuple[int]]): with 'pad', one int or (top, bottom, left, right). Default: 0.
        dilation (Union[int, tuple[int]]): spacing of the kernel taps. Default: 1.
        group (int): split the channels into this many groups. Default: 1.
        has_bias (bool): whether to add a bias. Default: False.
        weight_init (Union[Tensor, str, Initializer, numbers.Number]): the weight
            (out, in / group, kh, kw); None means HeUniform(sqrt(5)). Default: None.
        bias_init (Union[Tensor, str, Initializer, numbers.Number]): the bias; None means
            U(-1/sqrt(fan_in), 1/sqrt(fan_in)). Default: None.
        data_format (str): 'NCHW', or 'NHWC' on a GPU target (the weight is then (out, kh, kw, in / group));
            'NHWC' raises ValueError on CPU as in MindSpore (GPU-only there). Default: 'NCHW'.
        dtype (mindspore.dtype): the dtype of the Parameters. Default: float32.

    Inputs:
        - **x** (Tensor) -- (N, in_channels, H, W), or (N, H, W, in_channels) with 'NHWC'.

    Outputs:
        Tensor (N, out_channels, H_out, W_out).
    """

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0, dilation=1,
                 group=1, has_bias=False, weight_init=None, bias_init=None, data_format="NCHW",
                 dtype=mstype.float32):
        kernel_size = _pair("Conv2d", "kernel_size", kernel_size)
        super().__init__("Conv2d", in_channels, out_channels, kernel_size, _pair("Conv2d", "stride", stride),
                         pad_mode, padding, _pair("Conv2d", "dilation", dilation), group, has_bias, weight_init,
                         bias_init, data_format, dtype)
        self._pads = _four_pads("Conv2d", padding, self.pad_mode)

    _channels_last = True

    def construct(self, x):
        array, weight = self._arrays(x)
        spatial = array.shape[1:3] if self.format == "NHWC" else array.shape[2:]
        padding = _forward_pads(self.pad_mode, self._pads, spatial, self.kernel_size, self.stride, self.dilation)
        if self.format == "NHWC":
            return layer_forms.conv2d_channels_last(array, weight, self._bias(), self.stride, padding, self.dilation,
                                                    self.group)
        if self.has_bias and array.dtype in (jnp.float16, jnp.bfloat16) and in_compiled_trace():
            return Tensor._wrap(layer_forms.conv2d_bias_rounded_once(array, weight, self._bias(), self.stride, padding,
                                                                     self.dilation, self.group))
        return layer_forms.conv2d(x, array, weight, self._bias(), self.stride, padding, self.dilation, self.group)


def _through_2d(name, x, construct_2d):
    """A 3-D (N, C, L) input through the 2-D Cell's ``construct_2d`` as (N, C, 1, L)."""
    if not isinstance(x, Tensor) or x.ndim != 3:
        raise ValueError(f"For '{name}', the input must be a 3-D Tensor (N, C, L), but got "
                         f"{getattr(x, 'shape', type(x).__name__)}.")
    output = construct_2d(Tensor._wrap(jnp.expand_dims(x._value, 2)))
    return Tensor._wrap(jnp.squeeze(output._value, 2))


class Conv1d(Conv2d):
    """1-D convolution over an (N, C, L) input (a 2-D convolution of height 1).

    Args:
        in_channels (int): C of the input.
        out_channels (int): C of the output.
        kernel_size (int): the kernel length.
        stride (int): Default: 1.
        pad_mode (str): 'same', 'valid' or 'pad'. Default: 'same'.
        padding (int): with 'pad', the padding on both ends. Default: 0.
        dilation (int): Default: 1.
        group (int): Default: 1.
        has_bias (bool): Default: False.
        weight_init, bias_init: as for Conv2d; the weight is (out, in / group, 1, kernel_size).
        dtype (mindspore.dtype): Default: float32.

    Inputs:
        - **x** (Tensor) -- (N, in_channels, L).

    Outputs:
        Tensor (N, out_channels, L_out).
    """

    _channels_last = False

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0, dilation=1,
                 group=1, has_bias=False, weight_init=None, bias_init=None, dtype=mstype.float32):
        for arg_name, value in (("kernel_size", kernel_size), ("stride", stride), ("dilation", dilation),
                                ("padding", padding)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"For 'Conv1d', the '{arg_name}' must be int, but got {type(value).__name__}.")
        weight_init = _one_d_weight("Conv1d", weight_init)
        _Conv.__init__(self, "Conv1d", in_channels, out_channels, (1, kernel_size), (1, stride), pad_mode,
                       (0, 0, padding, padding), (1, dilation), group, has_bias, weight_init, bias_init, "NCHW",
                       dtype)
        self._pads = _four_pads("Conv1d", self.padding, self.pad_mode)

    def construct(self, x):
        return _through_2d("Conv1d", x, super().construct)


def _one_d_weight(cell_name, weight_init):
    """A 1-D convolution's Tensor ``weight_init`` is 3-D (out, in, kernel); stored as (out, in, 1, kernel)."""
    if not isinstance(weight_init, Tensor):
        return weight_init
    if weight_init.ndim != 3:
        raise ValueError(f"For '{cell_name}', the 'weight_init_shape' must be int and must = 3, but got "
                         f"'{weight_init.ndim}' with type 'int'.")
    return Tensor._wrap(jnp.expand_dims(weight_init._value, 2))


class Conv2dTranspose(_Conv):
    """2-D transposed convolution (the gradient of Conv2d with respect to its input).

    Args:
        in_channels (int): C of the input.
        out_channels (int): C of the output.
        kernel_size (Union[int, tuple[int]]): (height, width) of the kernel.
        stride (Union[int, tuple[int]]): the upsampling step. Default: 1.
        pad_mode (str): 'same' (output = input * stride), 'valid' or 'pad'. Default: 'same'.
        padding (Union[int, tuple[int]]): with 'pad', removed from (top, bottom, left, right). Default: 0.
        output_padding (Union[int, tuple[int]]): extra rows/columns at the bottom/right (with 'pad': zeros, as
            MindSpore's Cell appends them). Default: 0.
        dilation (Union[int, tuple[int]]): Default: 1.
        group (int): Default: 1.
        has_bias (bool): Default: False.
        weight_init, bias_init: as for Conv2d; the weight is (in, out / group, kh, kw).
        dtype (mindspore.dtype): Default: float32.

    Inputs:
        - **x** (Tensor) -- (N, in_channels, H, W).

    Outputs:
        Tensor (N, out_channels, H_out, W_out).
    """

    _transposed = True

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0,
                 output_padding=0, dilation=1, group=1, has_bias=False, weight_init=None, bias_init=None,
                 dtype=mstype.float32):
        kernel_size = _pair("Conv2dTranspose", "kernel_size", kernel_size)
        super().__init__("Conv2dTranspose", in_channels, out_channels, kernel_size,
                         _pair("Conv2dTranspose", "stride", stride), pad_mode, padding,
                         _pair("Conv2dTranspose", "dilation", dilation), group, has_bias, weight_init, bias_init,
                         "NCHW", dtype)
        self._pads = _four_pads("Conv2dTranspose", padding, self.pad_mode)
        if isinstance(output_padding, int) and not isinstance(output_padding, bool):
            output_padding = (output_padding, output_padding)
        if not isinstance(output_padding, tuple) or len(output_padding) != 2 or min(output_padding) < 0:
            raise ValueError("For 'Conv2dTranspose', the 'output_padding' must be a non-negative int or a tuple of "
                             f"two, but got {output_padding!r}.")
        self.output_padding = output_padding

    def _transposed_pads(self, spatial_rank):
        pads = []
        for axis in range(spatial_rank):
            kernel, stride, rate = self.kernel_size[axis], self.stride[axis], self.dilation[axis]
            if self.pad_mode == "same":
                total = (kernel - 1) * rate + 1 - stride
                low = max(total, 0) // 2
                high = total - low
            elif self.pad_mode == "valid":
                low = high = 0
            else:
                low, high = self._pads[2 * axis], self._pads[2 * axis + 1]
            pads.append((low, high - (0 if self._zero_padded else self.output_padding[axis])))
        return pads

    _appends_output_padding = True

    @property
    def _zero_padded(self):
        """With 'pad', MindSpore's Conv2dTranspose appends ``output_padding`` rows/columns of zeros to the output
        (after the bias) instead of computing them; its Conv3dTranspose computes them."""
        return self._appends_output_padding and self.pad_mode == "pad" and any(self.output_padding)

    def construct(self, x):
        array, weight = self._arrays(x)
        pads = tuple(self._transposed_pads(array.ndim - 2))
        out = layer_forms.transpose_conv(array, weight, self._bias(), pads, self.stride, self.dilation, self.group)
        if self._zero_padded:
            out = jnp.pad(out, [(0, 0)] * (out.ndim - 2) + [(0, extra) for extra in self.output_padding])
        return Tensor._wrap(out)


class Conv1dTranspose(Conv2dTranspose):
    """1-D transposed convolution over an (N, C, L) input; the weight is (in, out / group, 1, kernel).

    Args: as Conv1d, plus the transposed padding rules of Conv2dTranspose.
    """

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0, dilation=1,
                 group=1, has_bias=False, weight_init=None, bias_init=None, dtype=mstype.float32):
        weight_init = _one_d_weight("Conv1dTranspose", weight_init)
        _Conv.__init__(self, "Conv1dTranspose", in_channels, out_channels, (1, kernel_size), (1, stride),
                       pad_mode, (0, 0, padding, padding), (1, dilation), group, has_bias, weight_init, bias_init,
                       "NCHW", dtype)
        self._pads = _four_pads("Conv1dTranspose", self.padding, self.pad_mode)
        self.output_padding = (0, 0)

    def construct(self, x):
        return _through_2d("Conv1dTranspose", x, super().construct)
