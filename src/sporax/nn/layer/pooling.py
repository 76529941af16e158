"""Pooling layers: ``MaxPool2d``, ``AvgPool2d``, their 1-D forms, the adaptive average/max pools
(``AdaptiveMaxPool1d`` among them) and the power-average pools ``LPPool1d``/``LPPool2d``.

Padding follows MindSpore: 'valid' none; 'same' pads so the output is ceil(input / stride)
(average pooling then divides by the real elements only); 'pad' takes ``padding`` and
``ceil_mode``/``count_include_pad``/``divisor_override`` with PyTorch's rules.
"""
import functools
import math

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from sporax.core.tensor import Tensor
from sporax.nn.cell import Cell
from sporax.nn.layer.conv import same_pads
# The ops' pooling lowerings, tuned per backend in one place (a max pool as a chain of strided
# views, whose backward is far cheaper on XLA:CPU than reduce_window's select_and_scatter).
from sporax.ops.functional import pooling, sampling
from sporax.ops import layer_forms
from sporax.ops.functional.nan_orders import LAST, PROPAGATE
from sporax.ops.functional.padded_pools import check_output_size
from sporax.ops.functional.pooling import _max_pool, _max_pool_indices_kernel, _pool_window


def _pair(cell_name, arg_name, value, minimum=1):
    if isinstance(value, int) and not isinstance(value, bool):
        value = (value, value)
    if (not isinstance(value, (tuple, list)) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) and v >= minimum for v in value)):
        raise ValueError(f"For '{cell_name}', the '{arg_name}' must be an int >= {minimum} or a tuple of two, but "
                         f"got {value!r}.")
    return tuple(value)


def _pad_mode(cell_name, pad_mode):
    if not isinstance(pad_mode, str) or pad_mode.upper() not in ("VALID", "SAME", "PAD"):
        raise ValueError(f"For '{cell_name}', the 'pad_mode' must be 'valid', 'same' or 'pad', but got "
                         f"{pad_mode!r}.")
    return pad_mode.upper()


def _output_and_pads(size, kernel, stride, dilation, pad_mode, padding, ceil_mode):
    """(low, high) padding for one spatial axis; ``high`` includes any ceil-mode overhang."""
    if pad_mode == "SAME":
        return same_pads(size, kernel, stride, dilation)
    if pad_mode == "VALID" and not ceil_mode:
        return 0, 0
    span = dilation * (kernel - 1) + 1
    room = size + 2 * padding - span
    if ceil_mode:
        count = -(-room // stride) + 1
        if (count - 1) * stride >= size + padding:
            count -= 1
    else:
        count = room // stride + 1
    return padding, (count - 1) * stride + span - size - padding


@functools.partial(jax.jit, static_argnums=(2, 3, 4))
def _avg_pool(array, divisor, kernel, stride, pads):
    summed = _pool_window(array, lax.add, np.array(0, array.dtype), kernel, stride, pads)
    return summed / divisor.astype(array.dtype)


@functools.lru_cache(maxsize=256)
def _divisor(shape, kernel, stride, pads, explicit, include_pad):
    """How many elements each average-pooling window divides by (static shapes, computed on the host)."""
    counts = []
    for size, window, step, (low, high), padding in zip(shape, kernel, stride, pads, explicit):
        # Real elements count 1; explicit padding counts too when include_pad; overhang never.
        line = np.zeros(size + low + high, np.float64)
        counted_low = padding if include_pad else 0
        counted_high = padding if include_pad else 0
        line[low - counted_low: low + size + counted_high] = 1
        windows = (len(line) - window) // step + 1
        counts.append(np.array([line[i * step: i * step + window].sum() for i in range(windows)]))
    return np.outer(counts[0], counts[1])


class _Pool2d(Cell):
    _reduce = None
    # the arguments only pad_mode 'pad' takes (average pooling rounds up in every mode, as MindSpore does)
    _pad_only = "'padding', 'dilation', 'return_indices', 'ceil_mode'"

    def __init__(self, kernel_size, stride, pad_mode, padding, dilation, ceil_mode, data_format):
        super().__init__()
        name = type(self).__name__
        self.kernel_size, self.stride = kernel_size, stride
        self._kernel = _pair(name, "kernel_size", kernel_size)
        self._stride = _pair(name, "stride", stride)
        self.pad_mode = _pad_mode(name, pad_mode)
        self._padding = _pair(name, "padding", padding, minimum=0)
        self._dilation = _pair(name, "dilation", dilation)
        if self.pad_mode != "PAD" and (any(self._padding) or self._dilation != (1, 1) or
                                       (ceil_mode and "ceil_mode" in self._pad_only)):
            raise ValueError(f"For {name}, the parameter {self._pad_only} can not "
                             f"be set to non-default value when pad_mode is not 'pad', but got pad_mode:"
                             f"{pad_mode.lower()}.")
        # MindSpore 2.10 takes 'NHWC' on GPU only (ValueError on CPU); on GPU it pools between two transposes
        layer_forms.check_data_format(name, data_format, ("NCHW", "NHWC"), channels_last=True)
        self.ceil_mode = ceil_mode
        self.format = data_format

    def _pads(self, height, width):
        return tuple(_output_and_pads(size, self._kernel[i], self._stride[i], self._dilation[i], self.pad_mode,
                                      self._padding[i], self.ceil_mode)
                     for i, size in enumerate((height, width)))

    def construct(self, x):
        if not isinstance(x, Tensor):
            raise TypeError(f"For '{type(self).__name__}', the input must be a Tensor, but got {type(x).__name__}.")
        array = x._value
        if array.ndim not in (3, 4):
            raise ValueError(f"For '{type(self).__name__}', the input must be (N, C, H, W) or (C, H, W), but got "
                             f"shape {tuple(array.shape)}.")
        batched = array if array.ndim == 4 else array[None]
        output = self._from_channels_first(self._pool(self._to_channels_first(batched)))
        return Tensor._wrap(output if array.ndim == 4 else output[0])

    def _to_channels_first(self, array):
        # NHWC (MindSpore offers it on GPU) pools as NCHW between two transposes; XLA fuses them.
        return jnp.transpose(array, (0, 3, 1, 2)) if self.format == "NHWC" else array

    def _from_channels_first(self, array):
        return jnp.transpose(array, (0, 2, 3, 1)) if self.format == "NHWC" else array

    def extend_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}"


class MaxPool2d(_Pool2d):
    """2-D max pooling over (N, C, H, W) or (C, H, W).

    Args:
        kernel_size (Union[int, tuple[int]]): the window. Default: 1.
        stride (Union[int, tuple[int]]): the step. Default: 1.
        pad_mode (str): 'valid', 'same' or 'pad'. Default: 'valid'.
        padding (Union[int, tuple[int]]): with 'pad', padding on both sides (by -inf). Default: 0.
        dilation (Union[int, tuple[int]]): spacing of the window taps ('pad' only). Default: 1.
        return_indices (bool): also return the flat (h * W + w) index of each maximum ('pad' only). Default: False.
        ceil_mode (bool): round the output size up ('pad' only). Default: False.
        data_format (str): 'NCHW' or 'NHWC' (inputs and outputs channels-last; GPU target only, as in MindSpore:
            ValueError on CPU). Default: 'NCHW'.

    Inputs:
        - **x** (Tensor) -- (N, C, H, W) or (C, H, W).

    Outputs:
        Tensor (N, C, H_out, W_out); with return_indices, a tuple (values, Int64 indices).
    """

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1, return_indices=False,
                 ceil_mode=False, data_format="NCHW"):
        if return_indices and _pad_mode("MaxPool2d", pad_mode) != "PAD":
            raise ValueError("For MaxPool2d, the parameter 'padding', 'dilation', 'return_indices', 'ceil_mode' "
                             "can not be set to non-default value when pad_mode is not 'pad', but got pad_mode:"
                             f"{pad_mode}.")
        super().__init__(kernel_size, stride, pad_mode, padding, dilation, ceil_mode, data_format)
        self.return_indices = return_indices

    def _pool(self, array):
        pads = self._pads(array.shape[2], array.shape[3])
        if self.pad_mode != "PAD":
            check_output_size("MaxPool", array, self._kernel, self._stride, pads)
        if self.return_indices:
            return _max_pool_indices_kernel(array, self._kernel, self._stride, pads, self._dilation)
        # MindSpore's kernels (nan_orders): MaxPool's fold for 'valid'/'same', NaN anywhere wins with 'pad'
        rule = PROPAGATE if _pad_mode("MaxPool2d", self.pad_mode) == "PAD" else LAST
        return _max_pool(array, self._kernel, self._stride, pads, self._dilation, rule)

    def construct(self, x):
        if not self.return_indices:
            return super().construct(x)
        if not isinstance(x, Tensor) or x.ndim != 4:
            raise ValueError("For 'MaxPool2d', return_indices=True needs an (N, C, H, W) input, but got "
                             f"{getattr(x, 'shape', type(x).__name__)}.")
        values, indices = self._pool(self._to_channels_first(x._value))
        return Tensor._wrap(self._from_channels_first(values)), Tensor._wrap(self._from_channels_first(indices))


class AvgPool2d(_Pool2d):
    """2-D average pooling over (N, C, H, W) or (C, H, W).

    Args:
        kernel_size (Union[int, tuple[int]]): the window. Default: 1.
        stride (Union[int, tuple[int]]): the step. Default: 1.
        pad_mode (str): 'valid', 'same' (divides by the real elements) or 'pad'. Default: 'valid'.
        padding (Union[int, tuple[int]]): with 'pad', zero padding on both sides. Default: 0.
        ceil_mode (bool): round the output size up; the overhang is never counted. With 'same' it counts the
            'same' padding in the divisor (unless count_include_pad is False), as MindSpore does. Default: False.
        count_include_pad (bool): with 'pad', count the padding in the divisor. Default: True.
        divisor_override (int): divide by this instead. Default: None.
        data_format (str): 'NCHW' or 'NHWC' (inputs and outputs channels-last; GPU target only, as in MindSpore:
            ValueError on CPU). Default: 'NCHW'.

    Inputs:
        - **x** (Tensor) -- (N, C, H, W) or (C, H, W).

    Outputs:
        Tensor (N, C, H_out, W_out).
    """

    _pad_only = "'padding'"

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None, data_format="NCHW"):
        super().__init__(kernel_size, stride, pad_mode, padding, 1, ceil_mode, data_format)
        if divisor_override is not None and (isinstance(divisor_override, bool) or
                                             not isinstance(divisor_override, int) or divisor_override <= 0):
            raise ValueError(f"For 'AvgPool2d', the 'divisor_override' must be a positive int, but got "
                             f"{divisor_override!r}.")
        self.count_include_pad, self.divisor_override = count_include_pad, divisor_override

    def _pool(self, array):
        height, width = array.shape[2], array.shape[3]
        pads = self._pads(height, width)
        if self.pad_mode != "PAD":
            check_output_size("AvgPool", array, self._kernel, self._stride, pads)
        if self.divisor_override is not None:
            divisor = np.float64(self.divisor_override)
        elif (self.pad_mode == "VALID" and not self.ceil_mode) or \
                (self.pad_mode == "SAME" and self.ceil_mode and self.count_include_pad):
            divisor = np.float64(math.prod(self._kernel))
        else:
            explicit = self._padding if self.pad_mode == "PAD" else (0, 0)
            divisor = _divisor((height, width), self._kernel, self._stride, pads, explicit,
                               self.count_include_pad and self.pad_mode == "PAD")
        return _avg_pool(array, divisor, self._kernel, self._stride, pads)


class _Pool1d(Cell):
    """A 1-D pool over (N, C, L) or (C, L), run as the 2-D pool with a height of 1."""

    def __init__(self, pool2d, kernel_size, stride, pad_mode):
        super().__init__()
        self.kernel_size, self.stride, self.pad_mode = (1, kernel_size), (1, stride), pool2d.pad_mode
        # Kept out of _cells: the 2-D pool is an implementation detail, not a child layer.
        self.__dict__["_pool2d"] = pool2d

    def construct(self, x):
        if not isinstance(x, Tensor) or x.ndim not in (2, 3):
            raise ValueError(f"For '{type(self).__name__}', the input must be a Tensor (N, C, L) or (C, L), but "
                             f"got {getattr(x, 'shape', type(x).__name__)}.")
        array = jnp.expand_dims(x._value, -2)
        batched = array if array.ndim == 4 else array[None]
        pooled = self._pool2d._pool(batched)
        # With return_indices the 2-D pool gives (values, indices); with a height of 1 the flat
        # index over (1, L) is already the index along L.
        outputs = pooled if isinstance(pooled, tuple) else (pooled,)
        outputs = tuple(Tensor._wrap(jnp.squeeze(output, -2)[(slice(None) if x.ndim == 3 else 0)])
                        for output in outputs)
        return outputs if isinstance(pooled, tuple) else outputs[0]

    def extend_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}"


def _int(cell_name, arg_name, value):
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"For '{cell_name}', the '{arg_name}' must be a non-negative int, but got {value!r}.")
    return value


class MaxPool1d(_Pool1d):
    """1-D max pooling over (N, C, L) or (C, L); arguments as MaxPool2d with ints."""

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1, return_indices=False,
                 ceil_mode=False):
        kernel_size, stride = _int("MaxPool1d", "kernel_size", kernel_size), _int("MaxPool1d", "stride", stride)
        padding, dilation = _int("MaxPool1d", "padding", padding), _int("MaxPool1d", "dilation", dilation)
        super().__init__(MaxPool2d((1, kernel_size), (1, stride), pad_mode, (0, padding), (1, dilation),
                                   return_indices, ceil_mode), kernel_size, stride, pad_mode)


class AvgPool1d(_Pool1d):
    """1-D average pooling over (N, C, L) or (C, L); arguments as AvgPool2d with ints."""

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False,
                 count_include_pad=True):
        kernel_size, stride = _int("AvgPool1d", "kernel_size", kernel_size), _int("AvgPool1d", "stride", stride)
        padding = _int("AvgPool1d", "padding", padding)
        pool = AvgPool2d((1, kernel_size), (1, stride), pad_mode, (0, padding), ceil_mode, count_include_pad)
        super().__init__(pool, kernel_size, stride, pad_mode)


def _bins(size, count):
    """The [start, end) input range of each of ``count`` adaptive bins over ``size``."""
    return [(i * size // count, -(-(i + 1) * size // count)) for i in range(count)]


@functools.lru_cache(maxsize=256)
def _averaging_matrix(size, count):
    matrix = np.zeros((count, size), np.float64)
    for row, (start, end) in enumerate(_bins(size, count)):
        matrix[row, start:end] = 1.0 / (end - start)
    return matrix


def _output_sizes(cell_name, output_size, input_sizes):
    sizes = (output_size,) * len(input_sizes) if isinstance(output_size, int) or output_size is None \
        else tuple(output_size)
    if len(sizes) != len(input_sizes):
        raise ValueError(f"For '{cell_name}', the 'output_size' must have {len(input_sizes)} entries, but got "
                         f"{output_size!r}.")
    return tuple(size if wanted is None else wanted for wanted, size in zip(sizes, input_sizes))


class _AdaptivePool(Cell):
    _spatial = 2

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def construct(self, x):
        if not isinstance(x, Tensor) or x.ndim < self._spatial + 1:
            raise ValueError(f"For '{type(self).__name__}', the input must be a Tensor with at least "
                             f"{self._spatial + 1} dims, but got {getattr(x, 'shape', type(x).__name__)}.")
        array = x._value
        sizes = array.shape[-self._spatial:]
        outputs = _output_sizes(type(self).__name__, self.output_size, sizes)
        return Tensor._wrap(self._pool(array, sizes, outputs))


class AdaptiveAvgPool2d(_AdaptivePool):
    """Average pooling to a fixed (H_out, W_out) over (N, C, H, W) or (C, H, W).

    Args:
        output_size (Union[int, tuple]): (H_out, W_out); None keeps that axis.
    """

    def _pool(self, array, sizes, outputs):
        rows = jnp.asarray(_averaging_matrix(sizes[0], outputs[0]), array.dtype)
        columns = jnp.asarray(_averaging_matrix(sizes[1], outputs[1]), array.dtype)
        return jnp.einsum("...hw,oh,pw->...op", array, rows, columns)


class AdaptiveAvgPool1d(_AdaptivePool):
    """Average pooling to a fixed length over (N, C, L).

    Args:
        output_size (int): the output length.
    """

    _spatial = 1

    def _pool(self, array, sizes, outputs):
        return jnp.einsum("...l,ol->...o", array, jnp.asarray(_averaging_matrix(sizes[0], outputs[0]), array.dtype))


class AdaptiveMaxPool2d(_AdaptivePool):
    """Max pooling to a fixed (H_out, W_out) over (N, C, H, W) or (C, H, W).

    Args:
        output_size (Union[int, tuple]): (H_out, W_out); None keeps that axis.
        return_indices (bool): also return the Int64 flat (H*W) index of each max. Default: False.
    """

    def __init__(self, output_size, return_indices=False):
        super().__init__(output_size)
        self.return_indices = return_indices

    def construct(self, x):
        if self.return_indices:
            return sampling.adaptive_max_pool2d(x, self.output_size, True)
        return super().construct(x)

    def _pool(self, array, sizes, outputs):
        # ops.adaptive_max_pool2d's windows: each scanned row-major (NaN counts only first, as MindSpore's kernel)
        return sampling._adaptive_max(array, tuple(outputs))


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


class LPPool1d(Cell):
    """Power-average pooling ``(sum x^p)^(1/p)`` over windows of (N, C, L) (``ops.lp_pool1d``).

    Args:
        norm_type (float): p. kernel_size (int). stride (int): Default: kernel_size. ceil_mode (bool): Default: False.

    Inputs:
        - **x** (Tensor).

    Outputs:
        Tensor.
    """

    _function = staticmethod(pooling.lp_pool1d)

    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False):
        super().__init__()
        self.norm_type, self.kernel_size, self.stride, self.ceil_mode = norm_type, kernel_size, stride, ceil_mode

    def construct(self, x):
        return type(self)._function(x, self.norm_type, self.kernel_size, self.stride, self.ceil_mode)


class LPPool2d(LPPool1d):
    """The 2-D ``LPPool1d`` over (N, C, H, W) (``ops.lp_pool2d``)."""

    _function = staticmethod(pooling.lp_pool2d)
