"""Basic layers: ``Dense``, ``BiDense``, ``Flatten``, ``Unflatten``, ``Identity``, ``Dropout`` (and its channel forms
``Dropout1d``/``Dropout2d``/``Dropout3d``), ``Pad``, ``PixelShuffle``/``PixelUnshuffle``."""
import functools
import math
import numbers

import jax
import jax.numpy as jnp

from sporax.core import dtype as mstype, seeded_streams
from sporax.core.initializer import HeUniform, Uniform, initializer
from sporax.core.parameter import Parameter
from sporax.core.random_state import next_key
from sporax.core.tensor import Tensor, tensor_array
from sporax.nn.cell import Cell
from sporax.nn.layer.activation import get_activation
from sporax.ops.functional import dropouts, sampling
from sporax.ops.operations.nn_ops import Dropout as DropoutPrimitive
from sporax.ops.primitive import Primitive
from sporax.state.scope import in_compiled_trace


def _check_positive_int(cell_name, arg_name, value):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value <= 0:
        raise ValueError(f"For '{cell_name}', the '{arg_name}' must be a positive int, but got {value!r}.")
    return int(value)


@functools.partial(jax.jit, static_argnums=3)
def _dense(array, weight, bias, fused):
    if bias is not None and fused and array.dtype in (jnp.float16, jnp.bfloat16):
        # MindSpore's graph compiler fuses MatMul and BiasAdd into one kernel that adds the (Float16) bias to the
        # Float32 product and rounds once; PyNative runs the two ops and rounds twice (recorded on CPU).
        output = jnp.matmul(array, weight.T, preferred_element_type=jnp.float32)
        return (output + bias.astype(array.dtype).astype(jnp.float32)).astype(array.dtype)
    output = jnp.matmul(array, weight.T)
    if bias is not None:
        output = output + bias.astype(output.dtype)
    return output


def make_parameter(cell_name, arg_name, init, shape, dtype, name, requires_grad=True):
    """A Parameter of ``shape`` filled by ``init`` (a name, an Initializer, a number or a Tensor)."""
    if isinstance(init, Tensor) and tuple(init.shape) != tuple(shape):
        raise ValueError(f"For '{cell_name}', the shape of '{arg_name}' must be {tuple(shape)}, but got "
                         f"{tuple(init.shape)}.")
    return Parameter(initializer(init, shape, dtype), name=name, requires_grad=requires_grad)


class Dense(Cell):
    """Fully connected layer: ``activation(x @ weight.T + bias)``.

    Args:
        in_channels (int): the size of the last input axis.
        out_channels (int): the size of the last output axis.
        weight_init (Union[Tensor, str, Initializer, numbers.Number]): the weight (out_channels,
            in_channels); None means HeUniform(negative_slope=sqrt(5)). Default: None.
        bias_init (Union[Tensor, str, Initializer, numbers.Number]): the bias (out_channels,); None
            means U(-1/sqrt(in_channels), 1/sqrt(in_channels)). Default: None.
        has_bias (bool): whether to add a bias. Default: True.
        activation (Union[str, Cell]): applied to the output ('relu', nn.ReLU(), ...). Default: None.
        dtype (mindspore.dtype): the dtype of the Parameters. Default: float32.

    Inputs:
        - **x** (Tensor) -- shape (*, in_channels).

    Outputs:
        Tensor of shape (*, out_channels).
    """

    _kernel_name = "MatMul"  # the kernel MindSpore 2.10's dtype check names

    def __init__(self, in_channels, out_channels, weight_init=None, bias_init=None, has_bias=True,
                 activation=None, dtype=mstype.float32):
        super().__init__()
        self.in_channels = _check_positive_int("Dense", "in_channels", in_channels)
        self.out_channels = _check_positive_int("Dense", "out_channels", out_channels)
        if not isinstance(has_bias, bool):
            raise TypeError(f"For 'Dense', the 'has_bias' must be bool, but got {type(has_bias).__name__}.")
        self.has_bias = has_bias
        if isinstance(weight_init, Tensor) and (weight_init.ndim != 2 or weight_init.shape[0] != out_channels
                                                or weight_init.shape[1] != in_channels):
            raise ValueError("For 'Dense', weight init shape error. The ndim of 'weight_init' must be equal to 2, "
                             "and the first dim must be equal to 'out_channels', and the second dim must be equal "
                             f"to 'in_channels'. But got 'weight_init' shape {tuple(weight_init.shape)}, "
                             f"'out_channels': {out_channels}, 'in_channels': {in_channels}.")
        if weight_init is None:
            weight_init = HeUniform(math.sqrt(5))
        self.weight = make_parameter("Dense", "weight_init", weight_init, (out_channels, in_channels), dtype,
                                     "weight")
        self.bias = None
        if has_bias:
            if bias_init is None:
                bias_init = Uniform(1 / math.sqrt(in_channels))
            self.bias = make_parameter("Dense", "bias_init", bias_init, (out_channels,), dtype, "bias")
        # A Primitive is an activation too (mindflow passes ops.Sin()), as in MindSpore.
        self.activation = get_activation(activation) if isinstance(activation, str) else activation
        if activation is not None and not isinstance(self.activation, (Cell, Primitive)):
            raise TypeError(f"For 'Dense', the 'activation' must be str or Cell or Primitive, but got "
                            f"{type(activation).__name__}.")
        self.activation_flag = self.activation is not None

    def construct(self, x):
        array = tensor_array(x, cell_name="Dense")
        weight = self.weight._value
        if array.shape[-1:] != (self.in_channels,):
            raise ValueError(f"For 'Dense', the last axis of the input must be in_channels={self.in_channels}, "
                             f"but got input shape {tuple(array.shape)}.")
        if self._cast_type is not None:
            weight = weight.astype(array.dtype)
        elif array.dtype != weight.dtype:
            # MindSpore's Dense is MatMul + BiasAdd, which promote nothing (Float16 input, Float32 weight)
            names = [f"Tensor[{mstype.from_numpy_dtype(a.dtype)}]" for a in (array, weight)]
            raise TypeError(f"For '{self._kernel_name}', the type of 'x2' should be same as 'x1', but got 'x1' with "
                            f"type {names[0]} and 'x2' with type {names[1]}. (In nn.{type(self).__name__}: cast the "
                            "input to the weight's dtype, or use to_float.)")
        output = Tensor._wrap(_dense(array, weight, self.bias._value if self.has_bias else None, in_compiled_trace()))
        if self.activation_flag:
            output = self.activation(output)
        return output

    def extend_repr(self):
        text = f"input_channels={self.in_channels}, output_channels={self.out_channels}"
        if self.has_bias:
            text += f", has_bias={self.has_bias}"
        if self.activation_flag:
            text += f", activation={self.activation}"
        return text


class Flatten(Cell):
    """Merge the axes ``start_dim`` .. ``end_dim`` into one.

    Args:
        start_dim (int): the first axis to merge. Default: 1.
        end_dim (int): the last axis to merge. Default: -1.
    """

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        for name, value in (("start_dim", start_dim), ("end_dim", end_dim)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"For 'Flatten', the '{name}' must be int, but got {type(value).__name__}.")
        self.start_dim, self.end_dim = start_dim, end_dim

    def construct(self, x):
        array = tensor_array(x, cell_name="Flatten")
        ndim = max(array.ndim, 1)
        start = self.start_dim + ndim if self.start_dim < 0 else self.start_dim
        end = self.end_dim + ndim if self.end_dim < 0 else self.end_dim
        if not (0 <= start < ndim and 0 <= end < ndim):
            raise ValueError(f"For 'Flatten', 'start_dim' or 'end_dim' out of range: start_dim={self.start_dim}, "
                             f"end_dim={self.end_dim} for an input of rank {array.ndim}.")
        if start > end:
            raise ValueError(f"For 'Flatten', 'start_dim' ({self.start_dim}) must come before 'end_dim' "
                             f"({self.end_dim}).")
        shape = array.shape
        merged = math.prod(shape[start:end + 1])
        return Tensor._wrap(array.reshape(shape[:start] + (merged,) + shape[end + 1:]))


class Unflatten(Cell):
    """Split axis ``axis`` into the shape ``unflattened_size``.

    Args:
        axis (int): the axis to split.
        unflattened_size (Union[tuple[int], list[int]]): the new axes; their product must match.
    """

    def __init__(self, axis, unflattened_size):
        super().__init__()
        if isinstance(axis, bool) or not isinstance(axis, int):
            raise TypeError(f"For 'Unflatten', the 'axis' must be int, but got {type(axis).__name__}.")
        if not isinstance(unflattened_size, (tuple, list)):
            raise TypeError("For 'Unflatten', the 'unflattened_size' must be tuple or list, but got "
                            f"{type(unflattened_size).__name__}.")
        self.axis, self.unflattened_size = axis, tuple(unflattened_size)

    def construct(self, x):
        array = tensor_array(x, cell_name="Unflatten")
        axis = self.axis % array.ndim
        shape = array.shape[:axis] + self.unflattened_size + array.shape[axis + 1:]
        return Tensor._wrap(array.reshape(shape))


class Identity(Cell):
    """Return the input unchanged (arguments to the constructor are ignored)."""

    def __init__(self, *args, **kwargs):
        super().__init__()

    def construct(self, x):
        return x


class Dropout(Cell):
    """During training, zero each element with probability ``p`` and scale the rest by 1 / (1 - p).

    Args:
        keep_prob (float): the probability of keeping an element (deprecated; use ``p``). Default: 0.5.
        p (float): the probability of zeroing an element; overrides ``keep_prob``. Default: None.
        dtype (mindspore.dtype): kept for compatibility. Default: float32.

    Inputs:
        - **x** (Tensor) -- any shape, floating dtype.

    Outputs:
        Tensor, same shape and dtype (the input itself outside training).
    """

    def __init__(self, keep_prob=0.5, p=None, dtype=mstype.float32):
        super().__init__()
        if p is None:
            if not isinstance(keep_prob, float):
                raise TypeError(f"For 'Dropout', the type of 'keep_prob' should be 'float', but got type "
                                f"'{type(keep_prob).__name__}'.")
            if not 0 < keep_prob <= 1:
                raise ValueError(f"For 'Dropout', the 'keep_prob' must be a number in range (0, 1], but got "
                                 f"{keep_prob}.")
            self.keep_prob = keep_prob
        else:
            if isinstance(p, bool) or not isinstance(p, (int, float)):
                raise TypeError(f"For 'Dropout', the type of 'p' should be 'float', but got type "
                                f"'{type(p).__name__}'.")
            if not 0 <= p < 1:
                raise ValueError(f"For 'Dropout', the 'p' must be a number in range [0, 1), but got {p}.")
            self.keep_prob = 1.0 - p
        self.p = p
        # MindSpore takes the seed pair of kernel 'dropout' here: seeded, the layer's Dropout Primitive owns its
        # kernel's stream
        seeds = seeded_streams.op_seeds(0, "dropout")
        self._seeded = None if seeds == (0, 0) else DropoutPrimitive(self.keep_prob, *seeds)

    def construct(self, x):
        if not self.training or self.keep_prob == 1.0:
            return x
        array = tensor_array(x, cell_name="Dropout")
        if self._seeded is not None:
            return self._seeded(x)[0]
        keep = jax.random.bernoulli(next_key(), self.keep_prob, array.shape)
        scale = jnp.asarray(1.0 / self.keep_prob, array.dtype)
        return Tensor._wrap(jnp.where(keep, array * scale, jnp.zeros((), array.dtype)))

    def extend_repr(self):
        return f"keep_prob={self.keep_prob}" if self.p is None else f"p={self.p}"


_PAD_MODES = {"CONSTANT": "constant", "REFLECT": "reflect", "SYMMETRIC": "symmetric"}


class Pad(Cell):
    """Pad each axis by (before, after) amounts.

    Args:
        paddings (tuple): one (before, after) pair per input axis.
        mode (str): 'CONSTANT' (zeros), 'REFLECT' or 'SYMMETRIC'. Default: 'CONSTANT'.
    """

    def __init__(self, paddings, mode="CONSTANT"):
        super().__init__()
        if not isinstance(paddings, tuple) or not all(
                isinstance(pair, (tuple, list)) and len(pair) == 2 for pair in paddings):
            raise TypeError(f"For 'Pad', the 'paddings' must be a tuple of (before, after) pairs, but got "
                            f"{paddings!r}.")
        if not isinstance(mode, str) or mode.upper() not in _PAD_MODES:
            raise ValueError(f"For 'Pad', the 'mode' must be one of {list(_PAD_MODES)}, but got {mode!r}.")
        self.paddings = tuple(tuple(int(v) for v in pair) for pair in paddings)
        self.mode = mode.upper()

    def construct(self, x):
        array = tensor_array(x, cell_name="Pad")
        if len(self.paddings) != array.ndim:
            raise ValueError(f"For 'Pad', the length of 'paddings' must be equal to the rank of 'input_x', but "
                             f"got {len(self.paddings)} vs {array.ndim}")
        return Tensor._wrap(jnp.pad(array, self.paddings, mode=_PAD_MODES[self.mode]))


class Linear(Dense):
    """Fully connected layer with PyTorch-style argument names: ``x @ weight.T + bias``.

    Args:
        in_features (int): the size of the last input axis.
        out_features (int): the size of the last output axis.
        bias (bool): whether to add a bias. Default: True.
        weight_init, bias_init: as for Dense (None: HeUniform(sqrt(5)) and U(+-1/sqrt(in_features))).
        dtype (mindspore.dtype): the dtype of the Parameters; None means float32. Default: None.

    Inputs:
        - **x** (Tensor) -- shape (*, in_features).

    Outputs:
        Tensor of shape (*, out_features).
    """

    _kernel_name = "Dense"  # MindSpore 2.10 runs mint.nn.Linear on its Dense kernel (nn.Dense on MatMul)

    def __init__(self, in_features, out_features, bias=True, weight_init=None, bias_init=None, dtype=None):
        super().__init__(in_features, out_features, weight_init, bias_init, bias, None,
                         mstype.float32 if dtype is None else dtype)
        self.in_features, self.out_features = in_features, out_features

    def extend_repr(self):
        text = f"input_features={self.in_features}, output_features={self.out_features}"
        return text + (f", has_bias={self.has_bias}" if self.has_bias else "")


class Dropout2d(Cell):
    """During training, zero whole channels of an (N, C, H, W) input with probability ``p``; scale the rest by 1/(1-p).

    Args:
        p (float): the probability of zeroing a channel, in [0, 1). Default: 0.5.

    Inputs:
        - **x** (Tensor) -- (N, C, H, W).

    Outputs:
        Tensor, same shape and dtype (the input itself outside training).
    """

    def __init__(self, p=0.5):
        super().__init__()
        if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 <= p < 1:
            raise ValueError(f"For 'Dropout2d', the 'p' must be a number in range [0, 1), but got {p!r}.")
        self.p = p

    def construct(self, x):
        if not self.training or self.p == 0:
            return x
        array = tensor_array(x, cell_name="Dropout2d")
        if array.ndim != 4:  # MindSpore 2.10's Primitive check: no (C, H, W) form
            raise ValueError(f"For primitive[Dropout2D], the rank of input must be equal to 4, but got "
                             f"{array.ndim}: nn.Dropout2d takes (N, C, H, W).")
        output, _ = dropouts.channel_dropped("Dropout2D", array, 1 - self.p, array.shape[:2] + (1, 1))
        return Tensor._wrap(output)

    def extend_repr(self):
        return _kept_share(self.p)


def _kept_share(p):
    """MindSpore 2.10 prints Dropout2d/Dropout3d with ``p=`` set to the share kept, 1 - p: Dropout2d(0.2) shows p=0.8."""
    return f"p={1.0 - p}"


class PixelShuffle(Cell):
    """Rearrange (*, C * r^2, H, W) into (*, C, H * r, W * r).

    Args:
        upscale_factor (int): r.
    """

    def __init__(self, upscale_factor):
        super().__init__()
        self.upscale_factor = _check_positive_int("PixelShuffle", "upscale_factor", upscale_factor)

    def construct(self, x):
        array = tensor_array(x, cell_name="PixelShuffle")
        factor = self.upscale_factor
        if array.ndim < 3 or array.shape[-3] % (factor * factor):
            raise ValueError(f"For 'PixelShuffle', the input must be (*, C * {factor}^2, H, W), but got shape "
                             f"{tuple(array.shape)}.")
        *lead, channels, height, width = array.shape
        out_channels = channels // (factor * factor)
        array = array.reshape(tuple(lead) + (out_channels, factor, factor, height, width))
        rank = len(lead)
        array = array.transpose(tuple(range(rank)) + tuple(rank + i for i in (0, 3, 1, 4, 2)))
        return Tensor._wrap(array.reshape(tuple(lead) + (out_channels, height * factor, width * factor)))


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

    _function = staticmethod(dropouts.dropout1d)

    def __init__(self, p=0.5):
        super().__init__()
        dropouts._check_p(type(self).__name__, p, allow_one=True)
        self.p = p

    def construct(self, x):
        if not self.training:
            return x
        return type(self)._function(x, self.p, True)


class Dropout3d(Dropout1d):
    """The (N, C, D, H, W) ``Dropout1d`` (``ops.dropout3d``)."""

    _function = staticmethod(dropouts.dropout3d)

    def extend_repr(self):
        return _kept_share(self.p)


class BiDense(Cell):
    """Bilinear layer ``y = x1^T W x2 + b`` with W of shape (out, in1, in2).

    Args:
        in1_channels (int), in2_channels (int), out_channels (int): the sizes.
        weight_init, bias_init (Union[Tensor, str, Initializer, numbers.Number]): None means
            Uniform(1 / sqrt(in1_channels)). Default: None.
        has_bias (bool): Default: True.
        dtype (mindspore.dtype): Default: float32.

    Inputs:
        - **input1** (Tensor) -- (..., in1_channels).
        - **input2** (Tensor) -- (..., in2_channels).

    Outputs:
        Tensor, (..., out_channels).
    """

    def __init__(self, in1_channels, in2_channels, out_channels, weight_init=None, bias_init=None, has_bias=True,
                 dtype=mstype.float32):
        super().__init__()
        self.in1_channels = _check_positive_int("BiDense", "in1_channels", in1_channels)
        self.in2_channels = _check_positive_int("BiDense", "in2_channels", in2_channels)
        self.out_channels = _check_positive_int("BiDense", "out_channels", out_channels)
        self.has_bias = has_bias
        bound = 1 / math.sqrt(in1_channels)
        self.weight = make_parameter("BiDense", "weight_init", Uniform(bound) if weight_init is None else weight_init,
                                     (out_channels, in1_channels, in2_channels), dtype, "weight")
        self.bias = (make_parameter("BiDense", "bias_init", Uniform(bound) if bias_init is None else bias_init,
                                    (out_channels,), dtype, "bias") if has_bias else None)

    def construct(self, input1, input2):
        first, second = input1._value, input2._value
        output = jnp.einsum("...i,oij,...j->...o", first, self.weight._value, second)
        if self.bias is not None:
            output = output + self.bias._value
        return Tensor._wrap(output)
