"""``MaxPoolWithArgmax`` and ``MaxPool3DWithArgmax``: MindSpore's max pooling Primitives that also return where
each maximum is."""
import numpy as np

from sporax.core import dtype as mstype
from sporax.ops._dispatch import array_of, wrap
from sporax.ops.functional import array as array_ops, padded_pools, pooling
from sporax.ops.operations.nn_ops import _Pool
from sporax.ops.primitive import Primitive, prim_attr_register


class MaxPoolWithArgmax(_Pool):
    """2-d max pooling that also gives where each maximum is (``(c * H + h) * W + w`` in its sample, Int32).

    Args:
        kernel_size, strides (Union[int, tuple]): window and step. pad_mode (str): 'same' or 'valid'.

    Inputs:
        - **x** (Tensor) - (N, C, H, W) float16/float32.

    Outputs:
        ``(output, argmax)``: the pooled values and the Int32 flat (C, H, W) index of each maximum (first on
        ties).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> out, argmax = ops.MaxPoolWithArgmax(kernel_size=2, strides=2)(Tensor(np.arange(16.).reshape(1, 1, 4, 4)))
        >>> argmax.asnumpy().ravel().tolist()
        [5, 7, 13, 15]
    """

    @prim_attr_register
    def __init__(self, kernel_size=1, strides=1, pad_mode="valid", data_format="NCHW"):
        self._setup(kernel_size, strides, pad_mode)
        padded_pools.check_channels_first("MaxPoolWithArgmax", data_format, "NCHW")

    def __call__(self, x):
        array = array_of("MaxPoolWithArgmax", "x", x)
        if array.ndim != 4:
            raise ValueError(f"For 'MaxPoolWithArgmax', 'x' must be 4-D (N, C, H, W), but got shape {array.shape}.")
        best, index = pooling._max_pool_indices_kernel(array, self.kernel, self.strides, self._argmax_pads(array),
                                                         None)
        channels, height, width = array.shape[1:]
        # MindSpore counts the position over each sample's (C, H, W) block, not within its plane
        offsets = (np.arange(channels, dtype=np.int64) * height * width).reshape(1, channels, 1, 1)
        return wrap(best), wrap((index + offsets).astype(np.int32))

    def _argmax_pads(self, array):
        """'same' as MindSpore's kernel pads it (measured on 2.10): ``(kernel - stride) // 2`` rows/columns
        before (not half of the total), the rest after; 'valid' none."""
        if self.pad_mode == "VALID":
            return ((0, 0), (0, 0))
        pads = []
        for size, kernel, stride in zip(array.shape[2:], self.kernel, self.strides):
            total = (-(-size // stride) - 1) * stride + kernel - size
            low = max((kernel - stride) // 2, 0)
            pads.append((low, total - low))
        return tuple(pads)


def _triple(name, value):
    triple = (value,) * 3 if isinstance(value, int) else tuple(value)
    if len(triple) != 3 or any(isinstance(v, bool) or not isinstance(v, int) for v in triple):
        raise ValueError(f"For 'MaxPool3DWithArgmax', '{name}' must be an int or 3 ints, but got {value!r}.")
    return triple


class MaxPool3DWithArgmax(Primitive):
    """``(output, argmax)`` of a 3-D max pool of (N, C, D, H, W); argmax indexes each D*H*W volume (first maximum).

    Args:
        ksize, strides, pads (Union[int, tuple[int]]). dilation (tuple[int]). ceil_mode (bool).
        data_format (str): 'NCDHW'. argmax_type (mindspore.dtype): int32 or int64.

    Inputs:
        - **x** (Tensor) - (N, C, D, H, W).
    """

    @prim_attr_register
    def __init__(self, ksize, strides, pads, dilation=(1, 1, 1), ceil_mode=False, data_format="NCDHW",
                 argmax_type=mstype.int64):
        if data_format != "NCDHW":
            raise ValueError(f"For 'MaxPool3DWithArgmax', 'data_format' must be 'NCDHW', but got {data_format!r}.")
        self.kernel, self.stride, self.pad = _triple("ksize", ksize), _triple("strides", strides), _triple("pads",
                                                                                                          pads)
        self.dilation = _triple("dilation", dilation)
        self.ceil_mode = ceil_mode
        self.argmax_type = mstype.normalize(argmax_type)

    def __call__(self, x):
        if len(getattr(x, "shape", ())) != 5:
            raise ValueError(f"For 'MaxPool3DWithArgmax', 'x' must be 5-D, but got shape "
                             f"{tuple(getattr(x, 'shape', ()))}.")
        # the max_pool3d entry's indices are the same flat D*H*W positions of each window's first maximum
        output, argmax = pooling.max_pool3d(x, self.kernel, self.stride, self.pad, self.dilation, self.ceil_mode,
                                              return_indices=True)
        return output, array_ops.cast(argmax, self.argmax_type)
